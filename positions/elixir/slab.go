package elixir

import "unsafe"

// slab hands out the many small objects of one parse or one evaluation
// (expressions, argument lists, pairs, values, elements, entries) from
// larger allocations: they all live as long as the result that holds
// them, and one allocation per object was most of the reader's
// allocations. The first allocation is small, so that a short file pays
// little; each next one is twice the last, up to slabBytes.
type slab[T any] struct {
	buf  []T // the last allocation
	used int // the elements of buf handed out
	// first is the element count of the first allocation; 0 means a
	// sixteenth of the largest (2 KiB). The evaluator, whose evaluations
	// of one attribute or hint mostly make one value, starts smaller.
	first int
}

// slabBytes bounds one allocation of a slab: 32 KiB, the largest object
// the Go allocator serves from its per-thread caches (a larger one is a
// "large object", allocated under the heap lock and zeroed whole).
const slabBytes = 32 << 10

// slabLen is the largest element count of one allocation of a slab of T.
func slabLen[T any]() int { return slabBytes / int(unsafe.Sizeof(*new(T))) }

// take returns n zeroed elements, with length and capacity n: an append
// to the result reallocates rather than writing into a neighbour. A
// request larger than a quarter of the largest allocation gets an
// allocation of its own.
func (s *slab[T]) take(n int) []T {
	if n > len(s.buf)-s.used {
		limit := slabLen[T]()
		if n > limit/4 {
			return make([]T, n)
		}
		least := s.first
		if least == 0 {
			least = limit / 16
		}
		size := min(max(2*len(s.buf), least), limit)
		s.buf, s.used = make([]T, max(size, n)), 0
	}
	// Only the count moves: a pointer stored on every take would run the
	// garbage collector's write barrier whenever a collection is under way.
	out := s.buf[s.used : s.used+n : s.used+n]
	s.used += n
	return out
}

// one returns a pointer to one zeroed element.
func (s *slab[T]) one() *T { return &s.take(1)[0] }
