package elixir

import (
	"reflect"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// TestNodeCopiesEveryField: node's field-by-field copy misses no field of
// Expr (a field added to Expr must be added to node).
func TestNodeCopiesEveryField(t *testing.T) {
	leaf := &Expr{Kind: ExprAtom}
	e := Expr{
		Kind: ExprMap, Unknown: true, Heredoc: true,
		Span: positions.Span{Start: 1, End: 9}, Text: "t",
		openLen: 2, NameSpan: positions.Span{Start: 4, End: 5},
		Base: leaf, Args: []*Expr{leaf}, Pairs: []Pair{{Key: leaf, Value: leaf}},
		more: &exprMore{structName: "S", words: []Word{{Text: "w"}}, errs: []*Expr{leaf}},
	}
	rv := reflect.ValueOf(e)
	for i := range rv.NumField() {
		if rv.Field(i).IsZero() {
			t.Fatalf("the test leaves Expr.%s zero: set it", rv.Type().Field(i).Name)
		}
	}
	p := &cparser{}
	for range 2*slabLen[Expr]() + 2 { // crosses a slab boundary
		if x := p.node(e); !reflect.DeepEqual(*x, e) {
			t.Fatalf("node(e) = %+v, want %+v", *x, e)
		}
	}
	if x := p.node(Expr{Kind: ExprInteger, Text: "1"}); !reflect.DeepEqual(*x, Expr{Kind: ExprInteger, Text: "1"}) {
		t.Fatalf("a sparse node: %+v", *x)
	}
}

// TestValuesWriteTheirFields: scalar, leaf, node and opaque, which write only
// the fields a kind has into zeroed slab memory, give the Value a
// literal gives, across slab boundaries.
func TestValuesWriteTheirFields(t *testing.T) {
	m, sp := &Module{URI: "file:///a.ex"}, positions.Span{Start: 1, End: 2}
	o := (&evaluator{}).origin(m, sp)
	withOpen := func(v validate.Value, n int) validate.Value { v.SetOpen(n); return v }
	ev := &evaluator{}
	for range 2*slabLen[validate.Value]() + 2 { // crosses a slab boundary
		for _, c := range []struct {
			got  *validate.Value
			want validate.Value
		}{
			{ev.scalar(validate.String, "s", true, o), validate.Value{Kind: validate.String, Text: "s", Unknown: true, Origin: o}},
			{ev.scalar(validate.Boolean, "true", false, o), validate.Value{Kind: validate.Boolean, Text: "true", Bool: true, Origin: o}},
			{ev.scalar(validate.Boolean, "false", false, o), validate.Value{Kind: validate.Boolean, Text: "false", Origin: o}},
			{ev.scalar(validate.String, "", false, o), validate.Value{Kind: validate.String, Origin: o}},
			{ev.leaf(validate.String, m, &Expr{Kind: ExprString, Text: "s", Span: sp}, true), validate.Value{Kind: validate.String, Text: "s", Unknown: true, Origin: o}},
			{ev.leaf(validate.Integer, m, &Expr{Kind: ExprInteger, Text: "1", Span: sp}, false), validate.Value{Kind: validate.Integer, Text: "1", Origin: o}},
			{ev.leaf(validate.String, m, &Expr{Kind: ExprString, Span: sp}, false), validate.Value{Kind: validate.String, Origin: o}},
			{ev.node(validate.Map, true, o, 1), withOpen(validate.Value{Kind: validate.Map, Partial: true, Origin: o}, 1)},
			{ev.node(validate.List, false, o, 0), validate.Value{Kind: validate.List, Origin: o}},
			{ev.opaque(m, sp), validate.Value{Kind: validate.Opaque, Origin: o}},
		} {
			if !reflect.DeepEqual(*c.got, c.want) {
				t.Fatalf("got %+v, want %+v", *c.got, c.want)
			}
		}
	}
	if got, want := ev.node(validate.Map, false, o, 1).Open(), o; got != want {
		t.Fatalf("Open() = %v, want %v (the whole one-byte origin)", got, want)
	}
}
