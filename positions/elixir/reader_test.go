package elixir

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
)

func parse(t testing.TB, src string) *File {
	t.Helper()
	p := NewParser()
	defer p.Close()
	return p.Parse(context.Background(), "file:///t.ex", []byte(src))
}

func slice(src string, s positions.Span) string {
	if s.Start < 0 || s.End > len(src) || s.Start > s.End {
		return "<bad span>"
	}
	return src[s.Start:s.End]
}

func TestModules(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "Name" or "Name tool", in order
	}{
		{"plain", "defmodule A.B do\nend\n", []string{"A.B"}},
		{"use", "defmodule A do\n  use Wymcp.Tool\nend", []string{"A tool"}},
		{"use with options", "defmodule A do\n  use Wymcp.Tool, name: \"a\"\nend", []string{"A tool"}},
		{"behaviour", "defmodule A do\n  @behaviour Wymcp.Tool\nend", []string{"A tool"}},
		{"other behaviour", "defmodule A do\n  @behaviour GenServer\n  use GenServer\nend", []string{"A"}},
		{"nested joined", "defmodule App.Tools do\n  defmodule Tasks do\n    use Wymcp.Tool\n  end\nend",
			[]string{"App.Tools", "App.Tools.Tasks tool"}},
		{"test module with nested tool",
			"defmodule MyTest do\n  use ExUnit.Case\n  defmodule FakeTool do\n    @behaviour Wymcp.Tool\n    def actions, do: %{}\n  end\n  test \"x\" do\n  end\nend",
			[]string{"MyTest", "MyTest.FakeTool tool"}},
		{"inside describe", "defmodule T do\n  describe \"x\" do\n    defmodule F do\n      use Wymcp.Tool\n    end\n  end\nend",
			[]string{"T", "T.F tool"}},
		{"keyword do", "defmodule A, do: use(Wymcp.Tool)", []string{"A tool"}},
		{"Elixir prefix", "defmodule A do\n  defmodule Elixir.B do\n  end\nend", []string{"A", "B"}},
		{"__MODULE__ prefix", "defmodule A do\n  defmodule __MODULE__.B do\n  end\nend", []string{"A", "A.B"}},
		{"aliased tool", "defmodule A do\n  alias Wymcp.Tool\n  use Tool\nend", []string{"A tool"}},
		{"deeply nested", "defmodule A do\n  defmodule B.C do\n    defmodule D do\n      @behaviour Wymcp.Tool\n    end\n  end\nend",
			[]string{"A", "A.B.C", "A.B.C.D tool"}},
		// As Elixir's AST has it (testdata/oracle/dump.exs): a defmodule is
		// found anywhere but in the bodies of the def family, so one in a
		// module-level quote counts (Code.compile_quoted defines it), one in
		// a macro's quote does not.
		{"quote at module level", "defmodule A do\n  quote do\n    defmodule Q do\n    end\n  end\nend", []string{"A", "A.Q"}},
		{"quote in a macro body", "defmodule A do\n  defmacro m do\n    quote do\n      defmodule Q do\n      end\n    end\n  end\nend", []string{"A"}},
		{"recovered body", "defmodule A do\n  use Wymcp.Tool\n  def actions, do: %{run: %{pro", []string{"A tool"}},
		{"empty", "", nil},
		{"name only", "defmodule", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.src)
			var got []string
			for _, m := range f.Modules {
				s := m.Name
				if m.Tool {
					s += " tool"
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("modules = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestModuleSpans(t *testing.T) {
	src := "defmodule App.Tools do\n  defmodule Tasks do\n    use Wymcp.Tool, name: \"t\"\n  end\nend\n"
	f := parse(t, src)
	if len(f.Modules) != 2 {
		t.Fatalf("%d modules", len(f.Modules))
	}
	outer, inner := f.Modules[0], f.Modules[1]
	checks := []struct{ got, want string }{
		{slice(src, outer.NameSpan), "App.Tools"},
		{slice(src, inner.NameSpan), "Tasks"},
		{slice(src, inner.Span), "defmodule Tasks do\n    use Wymcp.Tool, name: \"t\"\n  end"},
		{slice(src, inner.ToolSpan), "use Wymcp.Tool, name: \"t\""},
		{slice(src, outer.Span), strings.TrimSuffix(src, "\n")},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("span text %q, want %q", c.got, c.want)
		}
	}
	if inner.Parent != outer || outer.Parent != nil || inner.URI != "file:///t.ex" {
		t.Errorf("parent/uri wrong: %v %v %q", inner.Parent, outer.Parent, inner.URI)
	}
}

func TestActionsForms(t *testing.T) {
	tests := []struct {
		name, src string
		body      string // the Body's source text, "" when actions/0 is absent
		kind      ExprKind
	}{
		{"keyword", "def actions, do: %{a: 1}", "%{a: 1}", ExprMap},
		{"block", "def actions do\n    %{a: 1}\n  end", "do\n    %{a: 1}\n  end", ExprBlock},
		{"parens block", "def actions() do\n    @x\n  end", "do\n    @x\n  end", ExprBlock},
		{"parens keyword", "def actions(), do: schemas()", "schemas()", ExprCall},
		{"impl", "@impl true\n  def actions, do: Schemas.all()", "Schemas.all()", ExprCall},
		{"impl module", "@impl Wymcp.Tool\n  def actions do\n  end", "do\n  end", ExprBlock},
		{"private", "defp actions, do: %{}", "", 0},
		{"arity one", "def actions(x), do: x", "", 0},
		{"guard", "def actions() when true, do: %{}", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "defmodule A do\n  use Wymcp.Tool\n  " + tt.src + "\nend\n"
			f := parse(t, src)
			d := f.Modules[0].Actions()
			if tt.body == "" {
				if d != nil && d.Body != nil && tt.name != "guard" {
					t.Fatalf("actions/0 found: %+v", d)
				}
				return
			}
			if d == nil || d.Body == nil {
				t.Fatalf("actions/0 not found in %q", src)
			}
			if got := slice(src, d.Body.Span); got != tt.body || d.Body.Kind != tt.kind {
				t.Fatalf("body %s %q, want %s %q", d.Body.Kind, got, tt.kind, tt.body)
			}
			if slice(src, d.NameSpan) != "actions" {
				t.Fatalf("name span %q", slice(src, d.NameSpan))
			}
		})
	}
}

func TestDefs(t *testing.T) {
	src := "defmodule A do\n  def a, do: 1\n  defp b(), do: 2\n  def c(x, y \\\\ 1), do: x\n  def d(x) when is_integer(x), do: x\n  def e(a, b: 1), do: a\nend\n"
	f := parse(t, src)
	var got []string
	for _, d := range f.Modules[0].Defs {
		s := d.Name + "/" + string(rune('0'+d.Arity))
		if d.Private {
			s += "p"
		}
		if d.Body != nil {
			s += "=" + slice(src, d.Body.Span)
		}
		for _, p := range d.Params {
			s += "," + slice(src, p.Span)
		}
		got = append(got, s)
	}
	want := "a/0=1 b/0p=2 c/2=x,x,y \\\\ 1 d/1=x,x e/2=a,a,b: 1"
	if strings.Join(got, " ") != want {
		t.Fatalf("defs %q, want %q", strings.Join(got, " "), want)
	}
	if d := f.Modules[0].Def("b", 0); d == nil || !d.Private {
		t.Fatalf("Def(b, 0) = %+v", d)
	}
}

func TestAttributes(t *testing.T) {
	src := "defmodule A do\n  @x 1\n  @doc \"d\"\n  @x @x + 1\n  @\n  @run %{a: 1}\n  def f, do: @x\n  @x 3\nend\n"
	f := parse(t, src)
	m := f.Modules[0]
	var got []string
	for _, a := range m.Attrs {
		got = append(got, slice(src, a.NameSpan)+"|"+slice(src, a.Span)+"|"+slice(src, a.Value.Span))
	}
	want := []string{"x|@x 1|1", "doc|@doc \"d\"|\"d\"", "x|@x @x + 1|@x + 1", "run|@run %{a: 1}|%{a: 1}", "x|@x 3|3"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("attrs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	use := m.Defs[0].Body
	if use.Kind != ExprAttr || use.Text != "x" || slice(src, use.NameSpan) != "x" || slice(src, use.Span) != "@x" {
		t.Fatalf("use %+v", use)
	}
	if a := m.AttrAt("x", use.Span.Start); a == nil || slice(src, a.Span) != "@x @x + 1" {
		t.Fatalf("AttrAt = %+v", a)
	}
	// Inside its own value, @x reads the previous definition.
	second := m.Attrs[2].Value.Args[0]
	if a := m.AttrAt("x", second.Span.Start); a == nil || slice(src, a.Span) != "@x 1" {
		t.Fatalf("AttrAt in own value = %+v", a)
	}
	if a := m.AttrAt("x", 0); a != nil {
		t.Fatalf("AttrAt before any = %+v", a)
	}
}

func TestAliases(t *testing.T) {
	src := `defmodule App.Tools do
  alias App.Tools.Schemas
  alias App.Other, as: O
  alias App.Multi.{One, Two.Three}
  alias __MODULE__.Local
  alias Schemas.Deep
  defmodule Inner do
  end
  def f do
    alias App.InDef
    InDef.x()
  end
  def g, do: InDef.x()
end
`
	f := parse(t, src)
	m := f.Modules[0]
	var got []string
	for _, a := range m.Aliases {
		got = append(got, a.As+"="+a.Target+"@"+slice(src, a.Span))
	}
	want := []string{
		"Schemas=App.Tools.Schemas@App.Tools.Schemas",
		"O=App.Other@App.Other",
		"One=App.Multi.One@One",
		"Three=App.Multi.Two.Three@Two.Three",
		"Local=App.Tools.Local@__MODULE__.Local",
		"Deep=App.Tools.Schemas.Deep@Schemas.Deep",
		"Inner=App.Tools.Inner@Inner",
		"InDef=App.InDef@App.InDef",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("aliases:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	inF := strings.Index(src, "InDef.x()")
	inG := strings.LastIndex(src, "InDef.x()")
	resolve := []struct {
		name string
		pos  int
		want string
	}{
		{"Schemas", inF, "App.Tools.Schemas"},
		{"Schemas.Sub", inF, "App.Tools.Schemas.Sub"},
		{"O", inF, "App.Other"},
		{"Three", inF, "App.Multi.Two.Three"},
		{"InDef", inF, "App.InDef"},
		{"InDef", inG, "InDef"}, // the alias ended with f's body
		{"Schemas", 0, "Schemas"},
		{"__MODULE__", inF, "App.Tools"},
		{"__MODULE__.X", inF, "App.Tools.X"},
		{"Elixir.Schemas", inF, "Schemas"},
		{"Inner", inF, "App.Tools.Inner"},
	}
	for _, r := range resolve {
		if got := m.ResolveAlias(r.name, r.pos); got != r.want {
			t.Errorf("ResolveAlias(%q, %d) = %q, want %q", r.name, r.pos, got, r.want)
		}
	}
	// A nested module sees its parent's aliases.
	if got := f.Modules[1].ResolveAlias("O", f.Modules[1].Span.Start+5); got != "App.Other" {
		t.Errorf("nested ResolveAlias = %q", got)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "text|message"
	}{
		{"empty", "", nil},
		{"newlines", "\n\n", nil},
		{"clean", "defmodule A do\nend\n", nil},
		// Positions as Code.string_to_quoted/2 gives them (README.md,
		// the `syntax-error` code): one error per file, Elixir stops at the first.
		{"defmodule alone", "defmodule A do", []string{`do|syntax error: missing terminator: "do" is never closed by "end"`}},
		{"missing brace", "defmodule A do\n  @run %{description: \"x\", \n  def actions, do: %{run: @run}\nend\n",
			[]string{`{|syntax error: "{" is missing its terminator "}" (found "end" later)`}},
		{"stray comma", "@x %{a: 1,, b: 2}", []string{`,|syntax error: unexpected ","`}},
		{"unclosed list on one line", "@x [1, 2}", []string{`}|syntax error: unexpected "}": "[" is missing its terminator "]"`}},
		{"missing value", "@x %{a: }", []string{`}|syntax error: unexpected "}"`}},
		{"keyword not last", "@x [a: 1, 2]", []string{`,|syntax error: unexpected expression after a keyword list (keyword lists come last)`}},
		{"two literals", "@x %{a: 1 b: 2}", []string{`b|syntax error: unexpected "b"`}},
		{"unterminated string", "@x \"abc\n", []string{`"|syntax error: missing terminator: this string is never closed`}},
		{"operator keys read clean", "@x [&&&: 2, +: 1, <<>>: 3]", nil},
		{"operator atoms read clean", "@x [:<<>>, :%{}, :{}, :..//, :\\\\]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.src)
			var got []string
			for _, e := range f.Errors {
				got = append(got, slice(tt.src, e.Span)+"|"+e.Message)
				if e.URI != "file:///t.ex" {
					t.Errorf("URI %q", e.URI)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("errors:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

// TestTopLevelAliases: an alias written at the top level, outside every
// defmodule, is in effect to the end of the file in the defmodules after
// it (Elixir's aliases are lexical), and expands a top-level defmodule's
// name, not a nested one's; a module before it does not see it. The
// names are those `elixir` gives (testdata/oracle/sample.ex pins the same
// against dump.exs).
func TestTopLevelAliases(t *testing.T) {
	src := `defmodule Before do
  def f, do: Echo
end
alias App.Tools.Echo
alias App.Tools, as: T
alias T.{One, Two.Three}
defmodule Echo.Extra do
  defmodule Echo.Inner do
  end
end
defmodule Router do
end
`
	f := parse(t, src)
	var names []string
	for _, m := range f.Modules {
		names = append(names, m.Name)
	}
	if want := []string{"Before", "App.Tools.Echo.Extra", "App.Tools.Echo.Extra.Echo.Inner", "Router"}; !slices.Equal(names, want) {
		t.Fatalf("modules %q, want %q", names, want)
	}
	at := strings.Index(src, "defmodule Router")
	inBefore := strings.Index(src, "Echo\nend")
	for _, r := range []struct {
		m    *Module
		name string
		pos  int
		want string
	}{
		{f.Modules[3], "Echo", at, "App.Tools.Echo"},
		{f.Modules[3], "T.X", at, "App.Tools.X"},
		{f.Modules[3], "One", at, "App.Tools.One"},
		{f.Modules[3], "Three.Four", at, "App.Tools.Two.Three.Four"},
		{f.Modules[2], "T.Y", at - 10, "App.Tools.Y"}, // the nested module reaches its root's file
		{f.Modules[0], "Echo", inBefore, "Echo"},      // written before the alias
	} {
		if got := r.m.ResolveAlias(r.name, r.pos); got != r.want {
			t.Errorf("%s.ResolveAlias(%q, %d) = %q, want %q", r.m.Name, r.name, r.pos, got, r.want)
		}
	}
}

// TestAliasNameLimit: Elixir's module names hold at most 248 bytes (the
// atom "Elixir." + name, 255 characters): an alias to a longer name does
// not compile, and the reader drops it, so that a chain of aliases each
// naming the last one's module (`alias A0.A1` after `alias App.A0` ...)
// cannot build names of quadratic total size.
func TestAliasNameLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("defmodule M do\n  alias X." + strings.Repeat("A", 246) + "\n  alias X." + strings.Repeat("B", 247) + "\n  alias App.A0\n")
	for i := 1; i < 2000; i++ {
		fmt.Fprintf(&b, "  alias A%d.A%d\n", i-1, i)
	}
	b.WriteString("end\n")
	f := parse(t, b.String())
	als := f.Modules[0].Aliases
	if len(als) < 2 || als[0].Target != "X."+strings.Repeat("A", 246) || strings.HasPrefix(als[1].Target, "X.B") {
		t.Fatalf("first aliases %v %v: want the 248-byte one kept and the 249-byte one dropped", als[0], als[1])
	}
	longest := 0
	for _, a := range als {
		longest = max(longest, len(a.Target))
	}
	if longest != maxModuleName || len(als) >= 2000 {
		t.Errorf("%d aliases, the longest target %d bytes: want fewer than 2000, at most %d", len(als), longest, maxModuleName)
	}
}

// TestAliasAsElixirPrefixed: `as:` may write its simple alias as Elixir.E,
// which aliases E (elixir: `alias App.T, as: Elixir.E` makes E App.T and
// leaves T alone).
func TestAliasAsElixirPrefixed(t *testing.T) {
	f := parse(t, "defmodule M do\n  alias App.T, as: Elixir.E\nend\n")
	if als := f.Modules[0].Aliases; len(als) != 1 || als[0].As != "E" || als[0].Target != "App.T" {
		t.Fatalf("aliases %v, want E=App.T", als)
	}
}

// TestTopLevelScopes: an alias inside a top-level block is in effect to
// the end of its scope (a do-block section, a -> clause, a fn, a for or a
// with, heads included), one in a parenthesised block or a bracket access
// to the end of the file, and none inside a quote: the modules of the
// fixtures get the names elixir gives them (checked by compiling each).
func TestTopLevelScopes(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []string
	}{
		{"toplevel_blocks.exs", []string{"App.Router", "App.Tools.Echo.Sub", "App.Else.Echo.Other", "After", "App.P.Q",
			"App.Fn.InFn", "App.Case.InCase", "Quoted.InQuote", "App.Kw.InKw", "Last", "Clause.Other"}},
		{"toplevel_scopes.exs", []string{"A.AfterWith", "B.AfterFor", "C.AfterFilter", "App.Acc.K.AfterAccess"}},
	} {
		if got := moduleNames(fixture(t, tc.fixture)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: modules %q,\nwant %q", tc.fixture, got, tc.want)
		}
	}
}

// fixture parses testdata/oracle/name.
func fixture(t *testing.T, name string) *File {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "oracle", name))
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, string(src))
}

// moduleNames returns the names of f's modules, in order.
func moduleNames(f *File) []string {
	var out []string
	for _, m := range f.Modules {
		out = append(out, m.Name)
	}
	return out
}

// TestUnindentedValidCode: in a file Elixir reads whole, a defmodule or
// def written at the column of the block around it (not as mix format
// indents it) stays inside that block, as Elixir has it: the column
// recovery is for broken buffers. With an `end` missing, the recovery
// still closes the blocks there.
func TestUnindentedValidCode(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "oracle", "unindented.exs"))
	if err != nil {
		t.Fatal(err)
	}
	f := parse(t, string(src))
	if got, want := moduleNames(f), []string{"App.X.A.Deep", "Outer", "Outer.Inner"}; !slices.Equal(got, want) || len(f.Errors) != 0 {
		t.Errorf("modules %q, errors %v; want %q and none", got, f.Errors, want)
	}
	if d := f.Modules[2].Defs; len(d) != 1 || d[0].Name != "r" {
		t.Errorf("Outer.Inner defs %v, want r/0", d)
	}
	// Broken (Outer's end gone), the recovery reads the buffer as before:
	// each defmodule at column 0 closes the blocks before it.
	broken := strings.TrimSuffix(string(src), "end\n")
	g := NewParser().Parse(context.Background(), "file:///b.exs", []byte(broken))
	if len(g.Errors) == 0 {
		t.Fatalf("no syntax error in %q", broken)
	}
	if got, want := moduleNames(g), []string{"A.Deep", "Outer", "Inner"}; !slices.Equal(got, want) {
		t.Errorf("broken: modules %q, want %q", got, want)
	}
}
