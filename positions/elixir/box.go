package elixir

import (
	"unsafe"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// origin returns the positions.Loc of span s in module m as a
// validate.Origin, the same value as validate.Origin(loc(m, s)) for every
// consumer (type assertion, ==, fmt), without one heap allocation per value.
//
// Converting a 32-byte positions.Loc to an interface copies it to a fresh
// heap object: half the allocations of an analysis were these boxes
// (docs/architecture.md "The Elixir reader", speed). Here the Loc is
// written to the evaluator's slab once and the interface points at that
// slab entry, which is never written again (an interface's data is
// immutable, which is what makes the sharing safe); the slab lives as long
// as the values that point into it.
func (ev *evaluator) origin(m *Module, s positions.Span) validate.Origin {
	if len(ev.locs) == cap(ev.locs) {
		ev.locs = make([]positions.Loc, 0, locSlab)
	}
	ev.locs = append(ev.locs, positions.Loc{URI: m.URI, Span: s})
	return boxLoc(&ev.locs[len(ev.locs)-1])
}

// locSlab is the number of Locs in one slab of the evaluator.
const locSlab = 256

// eface is the layout of an empty interface in the gc toolchain: its
// dynamic type and a pointer to its (immutable) data.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// locType is the type word of an interface holding a positions.Loc.
var locType = func() unsafe.Pointer {
	var x any = positions.Loc{}
	return (*eface)(unsafe.Pointer(&x)).typ
}()

// boxLoc returns an interface of dynamic type positions.Loc whose data is
// *l itself (not a copy): *l must never change afterwards.
func boxLoc(l *positions.Loc) validate.Origin {
	var x any
	e := (*eface)(unsafe.Pointer(&x))
	e.typ = locType
	e.data = unsafe.Pointer(l)
	return x
}
