package elixir

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestInterpolations reads the interpolations of the first interpolated
// literal of each source, rendering each expression as kind:text@source.
func TestInterpolations(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"a string", `"List up to #{@max} of #{count(@kind, 2)}"`, `attr:max@@max call:count@count(@kind, 2)`},
		{"an escape is text", `"a \#{@no} #{@yes}"`, `attr:yes@@yes`},
		{"a nested string", `"a #{"b #{@inner}" <> x}"`, `binary:<>@"b #{@inner}" <> x`},
		{"braces inside", `"#{%{a: @m}[:a]}"`, `opaque:[]@%{a: @m}[:a]`},
		{"a heredoc", "\"\"\"\n  up to #{@max}\n  \"\"\"", `attr:max@@max`},
		{"a charlist", `'n#{@n}'`, `attr:n@@n`},
		{"a quoted atom", `:"act_#{@suffix}"`, `attr:suffix@@suffix`},
		{"a sigil", `~s(a #{@x} b)`, `attr:x@@x`},
		{"two statements", `"#{a = @x; a}"`, `binary:=@a = @x ident:a@a`},
		{"a string not closed is not read", `"a #{@open`, ``},
		{"empty", `"a #{} b"`, ``},
	}
	kinds := map[ExprKind]string{ExprOpaque: "opaque", ExprAttr: "attr", ExprCall: "call", ExprBinary: "binary", ExprIdent: "ident"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte("defmodule M do\n  def f, do: " + tc.src + "\nend\n")
			f := NewParser().Parse(context.Background(), "file:///m.ex", src)
			var lit *Expr
			for _, d := range f.Modules[0].Defs {
				Walk(d.Body, func(e *Expr) bool {
					if lit == nil && e.Unknown {
						lit = e
					}
					return lit == nil
				})
			}
			if lit == nil {
				t.Fatal("no interpolated literal")
			}
			var got []string
			for _, e := range Interpolations(src, lit) {
				got = append(got, fmt.Sprintf("%s:%s@%s", kinds[e.Kind], e.Text, src[e.Span.Start:e.Span.End]))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
	if Interpolations([]byte(`"x"`), &Expr{Kind: ExprString, Span: span(0, 3)}) != nil {
		t.Error("a literal without Unknown has no interpolations")
	}
}
