package elixir

import (
	"context"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// TestAccessAfterLiterals: bracket access and a field written right after
// a literal or an attribute read (`%{a: 1}[:a]`, `"abc"[0]`, `@s.a`,
// `nil[:a]`) is one expression, Access.get or the field of that term, as
// Elixir reads it (Code.string_to_quoted); the parser ended the literal
// there and read `[...]` as a second expression (after `nil`, `true` and
// `false` too, which made the map holding it partial: no missing-key).
// Its value is what Elixir evaluates: the key's value or nil for a map, a
// keyword list or nil, the field of a map; opaque where Elixir raises (a
// string, a tuple, a boolean, a struct's Access, a missing field) or where
// the reader cannot know.
func TestAccessAfterLiterals(t *testing.T) {
	const attrs = "  @m %{a: %{b: 1}, c: nil}\n  @kw [x: 1, y: 2, x: 3]\n  @p Map.merge(%{a: 1}, Other.all())\n"
	for _, tc := range []struct{ body, want string }{
		{`%{a: @m}[:a]`, "map"},
		{`%App.S{a: 1}[:a]`, "opaque"},
		{`%App.S{a: 1}.a`, "integer 1"},
		{`"abc"[0]`, "opaque"},
		{`'ab'[0]`, "opaque"},
		{`{1, 2}[0]`, "opaque"},
		{`1[0]`, "opaque"},
		{`1.5[0]`, "opaque"},
		{`~w(a b)[0]`, "opaque"},
		{`~r/x/[0]`, "opaque"},
		{`%{a: %{b: 1}}[:a][:b]`, "integer 1"},
		{`%{a: 1}.a`, "integer 1"},
		{`%{a: 1}[:z]`, "nil"},
		{`%{a: 1}.z`, "opaque"},
		{`%{"a" => 1, "a" => 2}["a"]`, "integer 2"},
		{`@m[:a][:b]`, "integer 1"},
		{`@m.a.b`, "integer 1"},
		{`@m[:c][:d]`, "nil"},
		{`@kw[:x]`, "integer 1"},
		{`@kw[:z]`, "nil"},
		{`@kw["x"]`, "opaque"},
		{`@p[:a]`, "opaque"},
		{`@p.a`, "opaque"},
		{`@nope[:a]`, "opaque"},
		{`%{97 => 1}[?a]`, "integer 1"},
		{`%{0x10 => 1, 1_6 => 2}[16]`, "integer 2"},
		{`%{-0x1 => 1}[-1]`, "integer 1"},
		{`%{1 => 1}[1.0]`, "nil"},
		{`nil[:a]`, "nil"},
		{`nil[:a][:b]`, "nil"},
		{`true[:a]`, "opaque"},
		{`false.a`, "opaque"},
	} {
		src := []byte("defmodule M do\n" + attrs + "  def f, do: " + tc.body + "\nend\n")
		f := NewParser().Parse(context.Background(), "file:///m.ex", src)
		if len(f.Errors) != 0 {
			t.Errorf("%s: errors %v", tc.body, f.Errors)
			continue
		}
		b := blockValue(f.Modules[0].Def("f", 0).Body)
		if b == nil || string(src[b.Span.Start:b.Span.End]) != tc.body {
			got := "<nil>"
			if b != nil {
				got = string(src[b.Span.Start:b.Span.End])
			}
			t.Errorf("%s: body %q, want the whole access", tc.body, got)
			continue
		}
		v := EvalIn(context.Background(), nil, f.Modules[0], b)
		got := v.Kind.String()
		if v.Kind == validate.Integer {
			got += " " + v.Text
		}
		if got != tc.want {
			t.Errorf("%s: evaluates to %s, want %s", tc.body, got, tc.want)
		}
	}
}
