package elixir

import (
	"reflect"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
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
	for range exprSlab + 2 { // crosses a slab boundary
		if x := p.node(e); !reflect.DeepEqual(*x, e) {
			t.Fatalf("node(e) = %+v, want %+v", *x, e)
		}
	}
	if x := p.node(Expr{Kind: ExprInteger, Text: "1"}); !reflect.DeepEqual(*x, Expr{Kind: ExprInteger, Text: "1"}) {
		t.Fatalf("a sparse node: %+v", *x)
	}
}
