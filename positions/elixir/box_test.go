package elixir

import (
	"fmt"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// TestOriginIsABoxedLoc: an origin from the evaluator's slab is, for every
// consumer, the same value as a positions.Loc converted to an interface.
func TestOriginIsABoxedLoc(t *testing.T) {
	ev := newEvaluator(t.Context(), nil, nil)
	m := &Module{URI: "file:///a.ex"}
	var got []validate.Origin
	for i := range locSlab + 3 { // crosses a slab boundary
		got = append(got, ev.origin(m, positions.Span{Start: i, End: i + 2}))
	}
	for i, o := range got {
		want := positions.Loc{URI: "file:///a.ex", Span: positions.Span{Start: i, End: i + 2}}
		l, ok := o.(positions.Loc)
		if !ok || l != want {
			t.Fatalf("origin %d: %#v, %v; want %#v", i, o, ok, want)
		}
		if o != validate.Origin(want) {
			t.Errorf("origin %d != boxed Loc", i)
		}
		if s, w := fmt.Sprintf("%v %#v", o, o), fmt.Sprintf("%v %#v", want, want); s != w {
			t.Errorf("origin %d prints %q, want %q", i, s, w)
		}
		seen := map[validate.Origin]int{validate.Origin(want): i}
		if seen[o] != i || len(seen) != 1 {
			t.Errorf("origin %d is not the same map key as its Loc", i)
		}
	}
	if got[0] == got[1] {
		t.Error("different Locs compare equal")
	}
}
