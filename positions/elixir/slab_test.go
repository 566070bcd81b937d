package elixir

import (
	"slices"
	"testing"
)

// TestSlabGrowth checks the sizes of a slab's allocations (in elements
// of Expr, 120 bytes): doubling from slabFirstBytes up to slabBytes, or
// up to an eighth of what expect announced, never past slabMaxBytes; a
// request larger than a quarter of slabBytes gets its own allocation.
func TestSlabGrowth(t *testing.T) {
	sizes := func(expect, takes int) []int {
		var s slab[Expr]
		if expect > 0 {
			s.expect(expect)
		}
		var out []int
		for range takes {
			if s.one(); s.used == 1 { // the first element of a new allocation
				out = append(out, len(s.buf))
			}
		}
		return out
	}
	tests := []struct {
		name          string
		expect, takes int
		want          []int
	}{
		{"no estimate stops at 32 KiB", 0, 1500, []int{17, 34, 68, 136, 272, 273, 273, 273, 273}},
		{"a small estimate changes nothing", 1000, 900, []int{17, 34, 68, 136, 272, 273, 273}},
		{"an eighth of a large estimate", 16000, 6000, []int{17, 34, 68, 136, 272, 544, 1088, 2000, 2000}},
		{"at most 512 KiB", 1 << 20, 20000, []int{17, 34, 68, 136, 272, 544, 1088, 2176, 4352, 4369, 4369, 4369}},
	}
	for _, tt := range tests {
		if got := sizes(tt.expect, tt.takes); !slices.Equal(got, tt.want) {
			t.Errorf("%s: allocations of %v elements, want %v", tt.name, got, tt.want)
		}
	}
	var s slab[Expr]
	s.one()
	if got := len(s.take(slabLen[Expr]()/4 + 1)); got != slabLen[Expr]()/4+1 || len(s.buf) != 17 || s.used != 1 {
		t.Errorf("a large request: %d elements, the slab's allocation %d with %d used; want its own allocation", got, len(s.buf), s.used)
	}
}
