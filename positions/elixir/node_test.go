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

// TestValCopiesEveryField: val's field-by-field copy misses no field of
// validate.Value (a field added to Value must be added to val).
func TestValCopiesEveryField(t *testing.T) {
	leaf := &validate.Value{Kind: validate.Atom}
	m, sp := &Module{URI: "file:///a.ex"}, positions.Span{Start: 1, End: 2}
	v := validate.Value{
		Kind: validate.Map, Text: "t", Unknown: true, Bool: true,
		Entries: []validate.Entry{{Key: leaf, Value: leaf}}, Elems: []*validate.Value{leaf},
		Partial: true, Origin: (&evaluator{}).origin(m, sp), Open: (&evaluator{}).origin(m, sp),
	}
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if rv.Field(i).IsZero() {
			t.Fatalf("the test leaves Value.%s zero: set it", rv.Type().Field(i).Name)
		}
	}
	ev := &evaluator{}
	for range 2*slabLen[validate.Value]() + 2 { // crosses a slab boundary
		if x := ev.val(v); !reflect.DeepEqual(*x, v) {
			t.Fatalf("val(v) = %+v, want %+v", *x, v)
		}
	}
	if x := ev.val(validate.Value{Kind: validate.Integer, Text: "1"}); !reflect.DeepEqual(*x, validate.Value{Kind: validate.Integer, Text: "1"}) {
		t.Fatalf("a sparse value: %+v", *x)
	}
}
