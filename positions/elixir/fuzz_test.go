package elixir

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// FuzzParse feeds any bytes to the reader: no panic, no hang, and every
// span of every IR node, syntax error and evaluated Value lies within
// [0, len(src)] with Start < End (checkFile). The seed corpus is under
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("defmodule A do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"x\", properties: %{}}}\nend\n"))
	f.Add([]byte("defmodule A do\n  @m 1\n  def f, do: \"a #{@m} #{\"b #{x[:k]}\"}\" <> ~s(c#{@m})\nend\n"))
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				panic(fmt.Sprintf("HANG on %q", src))
			}
		}()
		file := p.Parse(context.Background(), "file:///fuzz.ex", src)
		if err := checkFile(file, src); err != nil {
			t.Fatalf("%v\nsource: %q", err, src)
		}
		if err := checkInterpolations(file, src); err != nil {
			t.Fatalf("%v\nsource: %q", err, src)
		}
	})
}

// checkInterpolations checks that the expressions Interpolations reads in
// every interpolated literal of f's definitions and attributes, and in
// the literals nested in them, lie within that literal's span.
func checkInterpolations(f *File, src []byte) error {
	var err error
	var visit func(e *Expr, depth int) bool
	visit = func(lit *Expr, depth int) bool {
		if !lit.Unknown || depth > 8 {
			return err == nil
		}
		for _, x := range Interpolations(src, lit) {
			if x.Span.Start < lit.Span.Start || x.Span.End > lit.Span.End || x.Span.Start >= x.Span.End {
				err = fmt.Errorf("interpolation expr %v outside its literal %v", x.Span, lit.Span)
				return false
			}
			Walk(x, func(y *Expr) bool { return visit(y, depth+1) })
		}
		return err == nil
	}
	for _, m := range f.Modules {
		for _, d := range m.Defs {
			Walk(d.Body, func(e *Expr) bool { return visit(e, 0) })
		}
		for _, a := range m.Attrs {
			Walk(a.Value, func(e *Expr) bool { return visit(e, 0) })
		}
	}
	return err
}
