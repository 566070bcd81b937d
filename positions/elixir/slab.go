package elixir

import "unsafe"

// slab hands out the many small objects of one parse or one evaluation
// (expressions, argument lists, pairs, values, elements, entries) from
// larger allocations: they all live as long as the result that holds
// them, and one allocation per object was most of the reader's
// allocations. The first allocation is small (slabFirstBytes), so that a
// short file pays little; each next one is twice the last, up to
// slabBytes, or up to an eighth of what the slab is expected to hand out
// (expect), at most slabMaxBytes: a large file takes few allocations, and
// a slab leaves at most about an eighth of its memory, or 32 KiB, unused.
type slab[T any] struct {
	buf  []T // the last allocation
	used int // the elements of buf handed out
	// limit is the element count of the largest allocation; 0 means
	// slabBytes of elements (see expect).
	limit int
	// first is the element count of the first allocation; 0 means
	// slabFirstBytes of elements. The evaluator, whose evaluations of one
	// attribute or hint mostly make one value, starts smaller.
	first int
}

// slabFirstBytes is the size of the first allocation of a slab (unless
// slab.first sets it).
const slabFirstBytes = 2 << 10

// slabBytes is the size up to which a slab's allocations double: 32 KiB,
// the largest object of the Go allocator's size classes.
const slabBytes = 32 << 10

// slabMaxBytes bounds one allocation of a slab: 512 KiB. The Go
// allocator gives a 32 KiB object a span of its own, as it does every
// larger one, taken from the heap under its lock: with every allocation
// at most 32 KiB, the parse of a 13,000-line module took a span every 270
// expressions, 3% of its time.
const slabMaxBytes = 512 << 10

// slabLen is the element count of slabBytes of T.
func slabLen[T any]() int { return slabBytes / int(unsafe.Sizeof(*new(T))) }

// expect tells the slab that it will hand out about n elements (an
// estimate from the size of the input): its allocations then grow up to
// an eighth of that, between slabBytes and slabMaxBytes.
func (s *slab[T]) expect(n int) {
	size := int(unsafe.Sizeof(*new(T)))
	s.limit = min(max(n/8, slabBytes/size), slabMaxBytes/size)
}

// take returns n zeroed elements, with length and capacity n: an append
// to the result reallocates rather than writing into a neighbour. A
// request larger than a quarter of slabBytes gets an allocation of its
// own.
func (s *slab[T]) take(n int) []T {
	if n > len(s.buf)-s.used {
		base := slabLen[T]()
		if n > base/4 {
			return make([]T, n)
		}
		least := s.first
		if least == 0 {
			least = max(slabFirstBytes/int(unsafe.Sizeof(*new(T))), 1)
		}
		limit := s.limit
		if limit == 0 {
			limit = base
		}
		size := max(min(max(2*len(s.buf), least), limit), n)
		s.buf, s.used = make([]T, size), 0
	}
	// Only the count moves: a pointer stored on every take would run the
	// garbage collector's write barrier whenever a collection is under way.
	out := s.buf[s.used : s.used+n : s.used+n]
	s.used += n
	return out
}

// one returns a pointer to one zeroed element.
func (s *slab[T]) one() *T { return &s.take(1)[0] }
