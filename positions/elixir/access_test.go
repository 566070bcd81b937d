package elixir

import (
	"context"
	"testing"
)

// TestAccessAfterLiterals: bracket access written right after a literal
// (`%{a: 1}[:a]`, `"abc"[0]`, `{1, 2}[0]`, `~w(a)[0]`) is one expression,
// Access.get of the literal, as Elixir reads it (Code.string_to_quoted);
// the parser ended the literal there and read `[...]` as a second
// expression. The body is then opaque, spanning the whole access, and
// nothing is reported; with a space before `[` Elixir reads a call with a
// list argument instead, which is not an access.
func TestAccessAfterLiterals(t *testing.T) {
	for _, body := range []string{
		`%{a: @m}[:a]`, `%App.S{a: 1}[:a]`, `"abc"[0]`, `'ab'[0]`, `{1, 2}[0]`, `1[0]`, `1.5[0]`,
		`~w(a b)[0]`, `~r/x/[0]`, `%{a: %{b: 1}}[:a][:b]`, `%{a: 1}.a`,
	} {
		src := []byte("defmodule M do\n  def f, do: " + body + "\nend\n")
		f := NewParser().Parse(context.Background(), "file:///m.ex", src)
		if len(f.Errors) != 0 {
			t.Errorf("%s: errors %v", body, f.Errors)
			continue
		}
		d := f.Modules[0].Defs[0]
		b := blockValue(d.Body)
		if b == nil || b.Kind != ExprOpaque || string(src[b.Span.Start:b.Span.End]) != body {
			got := "<nil>"
			if b != nil {
				got = string(src[b.Span.Start:b.Span.End])
			}
			t.Errorf("%s: body %q, want the whole access, opaque", body, got)
		}
		if v := EvalIn(context.Background(), nil, f.Modules[0], b); v == nil || v.Kind != 0 {
			t.Errorf("%s: evaluates to %v, want opaque", body, v)
		}
	}
}
