package elixir

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// workspace parses several files (URI -> source) for evaluation tests.
type testWS struct {
	files map[string]*File
	srcs  map[string][]byte
	res   mapResolver
}

func newWS(t testing.TB, files map[string]string) *testWS {
	t.Helper()
	p := NewParser()
	defer p.Close()
	ws := &testWS{files: map[string]*File{}, srcs: map[string][]byte{}}
	var all []*File
	for _, uri := range slices.Sorted(maps.Keys(files)) {
		src := []byte(files[uri])
		f := p.Parse(context.Background(), uri, src)
		if err := checkFile(f, src); err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		ws.files[uri], ws.srcs[uri] = f, src
		all = append(all, f)
	}
	ws.res = resolverOf(all...)
	return ws
}

func (ws *testWS) eval(t testing.TB, module string) *Result {
	t.Helper()
	m := ws.res.Module(module)
	if m == nil {
		t.Fatalf("no module %s", module)
	}
	r := Evaluate(context.Background(), ws.res, m)
	if !r.Found {
		t.Fatalf("%s has no actions/0", module)
	}
	return r
}

// evalActions evaluates the actions/0 of the tool module "T" whose body is
// given, and renders it.
func evalActions(t testing.TB, body string) (string, *Result, string) {
	t.Helper()
	src := "defmodule T do\n  use Wymcp.Tool\n" + body + "\nend\n"
	ws := newWS(t, map[string]string{"file:///t.ex": src})
	r := ws.eval(t, "T")
	return render(r.Actions, ws.srcs), r, src
}

func TestEvalLiterals(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"tight keys",
			`  def actions, do: %{"go" => 1, :"a\nb" => 2, descripton: 3, "a b": 4, a:
   5}`,
			`%{"go"@"\"go\"" => 1@"1", :"a\nb"@":\"a\\nb\"" => 2@"2", :"descripton"@"descripton" => 3@"3", :"a b"@"\"a b\"" => 4@"4", :"a"@"a" => 5@"5"}@"%{\"go\" => 1, :\"a\\nb\" => 2, descripton: 3, \"a b\": 4, a:\n   5}"/open "%{"`},
		{"scalars",
			`  def actions, do: [1, -2, 2.5, ?a, true, false, nil, :ok, :"true", :nil, 0x1F, 1_000]`,
			`[1@"1", -2@"-2", 2.5@"2.5", ?a@"?a", true@"true", false@"false", nil@"nil", :"ok"@":ok", true@":\"true\"", nil@":nil", 0x1F@"0x1F", 1_000@"1_000"]@"[1, -2, 2.5, ?a, true, false, nil, :ok, :\"true\", :nil, 0x1F, 1_000]"`},
		{"keyword list and tuple",
			`  def actions, do: {[x, a: 1, "b c": 2], {:ok}}`,
			`{[opaque@"x", {:"a"@"a", 1@"1"}@"a: 1", {:"b c"@"\"b c\"", 2@"2"}@"\"b c\": 2"]@"[x, a: 1, \"b c\": 2]", {:"ok"@":ok"}@"{:ok}"}@"{[x, a: 1, \"b c\": 2], {:ok}}"`},
		{"struct is partial",
			`  def actions, do: %URI{path: "p"}`,
			`%{:"path"@"path" => "p"@"\"p\"" ...}@"%URI{path: \"p\"}"/open "%URI{"`},
		{"charlists",
			`  def actions, do: ['ab', ~c(x\n), ~C(x\n), 'a#{1}']`,
			`['ab'@"'ab'", 'x\n'@"~c(x\\n)", 'x\\n'@"~C(x\\n)", opaque@"'a#{1}'"]@"['ab', ~c(x\\n), ~C(x\\n), 'a#{1}']"`},
		{"words",
			`  def actions, do: [~w(a  b), ~w[c d]a, ~w<e>c, ~W(f\s g)s, ~w(x#{1})]`,
			`[["a"@"a", "b"@"b"]@"~w(a  b)", [:"c"@"c", :"d"@"d"]@"~w[c d]a", ['e'@"e"]@"~w<e>c", ["f\\s"@"f\\s", "g"@"g"]@"~W(f\\s g)s", opaque@"~w(x#{1})"]@"[~w(a  b), ~w[c d]a, ~w<e>c, ~W(f\\s g)s, ~w(x#{1})]"`},
		// Kernel.sigil_w takes one modifier of s, a, c: `~w(a b)as` raises
		// when it compiles (elixir 1.14), where the reader read the last
		// one, strings.
		{"words with two modifiers",
			`  def actions, do: [~w(a b)as, ~w(c)x]`,
			`[opaque@"~w(a b)as", opaque@"~w(c)x"]@"[~w(a b)as, ~w(c)x]"`},
		// ~s, ~S, ~c and ~C take no modifier: `~s(a)x` raises when it
		// compiles (FunctionClauseError in Kernel.sigil_s/2, elixir 1.14).
		{"string sigils with a modifier",
			`  def actions, do: [~s(a)x, ~S(a)x, ~c(a)x, ~C(a)x]`,
			`[opaque@"~s(a)x", opaque@"~S(a)x", opaque@"~c(a)x", opaque@"~C(a)x"]@"[~s(a)x, ~S(a)x, ~c(a)x, ~C(a)x]"`},
		{"block value is the last expression",
			"  def actions do\n    x = 1\n    %{a: x}\n  end",
			`%{:"a"@"a" => opaque@"x"}@"%{a: x}"/open "%{"`},
		{"empty block is nil",
			"  def actions do\n  end",
			`nil@"do\n  end"`},
		{"opaque call",
			`  def actions, do: %{a: Enum.map([], & &1), b: fn -> 1 end, c: SomeModule.names()}`,
			`%{:"a"@"a" => opaque@"Enum.map([], & &1)", :"b"@"b" => opaque@"fn -> 1 end", :"c"@"c" => opaque@"SomeModule.names()"}@"%{a: Enum.map([], & &1), b: fn -> 1 end, c: SomeModule.names()}"/open "%{"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, r, _ := evalActions(t, tt.body)
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
			if len(r.Errors) != 0 {
				t.Fatalf("errors %v", r.Errors)
			}
		})
	}
}

// keyOrigin returns the source text of the key (and its value) of entry
// path[0] -> path[1] ... in v, where each element is an entry index.
func at(v *validate.Value, path ...int) *validate.Value {
	for _, i := range path {
		switch v.Kind {
		case validate.Map:
			v = v.Entries[i].Value
		default:
			v = v.Elems[i]
		}
	}
	return v
}

func spanOf(o validate.Origin) positions.Span {
	l, _ := positions.LocOf(o)
	return l.Span
}

func TestEvalTightSpans(t *testing.T) {
	_, r, src := evalActions(t, `  def actions, do: %{run: %{"go" => 2, :"a\nb" => 3, descripton: "x", "a b": 1, required: ~w(a b)}}`)
	run := r.Actions.Entries[0]
	if got := slice(src, spanOf(run.Key.Origin)); got != "run" {
		t.Fatalf("run key %q", got)
	}
	schema := run.Value
	wantKeys := []string{`"go"`, `:"a\nb"`, "descripton", `"a b"`, "required"}
	for i, w := range wantKeys {
		if got := slice(src, spanOf(schema.Entries[i].Key.Origin)); got != w {
			t.Errorf("key %d = %q, want %q", i, got, w)
		}
	}
	if got := slice(src, spanOf(schema.Open())); got != "%{" {
		t.Errorf("open %q", got)
	}
	words := schema.Entries[4].Value
	for i, w := range []string{"a", "b"} {
		if got := slice(src, spanOf(words.Elems[i].Origin)); got != w || words.Elems[i].Text != w {
			t.Errorf("word %d = %q (%q)", i, got, words.Elems[i].Text)
		}
	}
}

func TestEvalAttributes(t *testing.T) {
	body := `  @x 1
  def a, do: @x
  @x @x + 1
  @x [@x]
  def b, do: @x
  @id %{"type" => "string", bad: 1}
  def actions, do: %{a: a(), b: b(), c: @missing, s1: %{properties: %{"id" => @id}}, s2: %{properties: %{"id" => @id}}, s3: @id}`
	got, r, src := evalActions(t, body)
	want := `%{:"a"@"a" => 1@"1", :"b"@"b" => [opaque@"@x + 1"]@"[@x]", :"c"@"c" => opaque@"@missing", :"s1"@"s1" => %{:"properties"@"properties" => %{"id"@"\"id\"" => %{"type"@"\"type\"" => "string"@"\"string\"", :"bad"@"bad" => 1@"1"}@"%{\"type\" => \"string\", bad: 1}"/open "%{"}@"%{\"id\" => @id}"/open "%{"}@"%{properties: %{\"id\" => @id}}"/open "%{", :"s2"@"s2" => %{:"properties"@"properties" => %{"id"@"\"id\"" => %{"type"@"\"type\"" => "string"@"\"string\"", :"bad"@"bad" => 1@"1"}@"%{\"type\" => \"string\", bad: 1}"/open "%{"}@"%{\"id\" => @id}"/open "%{"}@"%{properties: %{\"id\" => @id}}"/open "%{", :"s3"@"s3" => %{"type"@"\"type\"" => "string"@"\"string\"", :"bad"@"bad" => 1@"1"}@"%{\"type\" => \"string\", bad: 1}"/open "%{"}@"%{a: a(), b: b(), c: @missing, s1: %{properties: %{\"id\" => @id}}, s2: %{properties: %{\"id\" => @id}}, s3: @id}"/open "%{"`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// One literal used three times: the same value, so the same Origins.
	s1 := at(r.Actions, 3, 0, 0)
	s2 := at(r.Actions, 4, 0, 0)
	s3 := at(r.Actions, 5)
	if s1 != s2 || s2 != s3 {
		t.Fatalf("shared attribute evaluated into different values")
	}
	bad := s1.Entries[1].Key
	if got := slice(src, spanOf(bad.Origin)); got != "bad" {
		t.Fatalf("bad key span %q", got)
	}
}

// TestEvalUnfollowedAttributeWrites: an attribute written inside another
// statement of the module body (an `if`, a `for`) or by
// Module.put_attribute/3 changes what a later read gives in Elixir, which
// the reader does not follow, so that read is opaque, not the earlier
// `@x value` (docs/rules.md §5). The reader took `@x %{}` for the value of
// U1 below, where Elixir gives %{"a" => 1}: an undeclared-field was
// reported as certain. Each row was run with elixir (the comment).
func TestEvalUnfollowedAttributeWrites(t *testing.T) {
	const c = `System.get_env("HOME")`
	for _, tt := range []struct{ name, body, want string }{
		{"for", "  @x %{}\n  for p <- [\"a\"] do\n    @x %{p => 1}\n  end\n  def actions, do: @x", // %{"a" => 1}
			`opaque@"@x"`},
		{"if", "  @x 1\n  if " + c + " do\n    @x 2\n  end\n  def actions, do: @x", // 2
			`opaque@"@x"`},
		{"put_attribute", "  @x 1\n  Module.put_attribute(__MODULE__, :x, 2)\n  def actions, do: @x", // 2
			`opaque@"@x"`},
		{"accumulated", "  Module.register_attribute(__MODULE__, :acc, accumulate: true)\n  @acc 1\n  for i <- [2, 3] do\n    @acc i\n  end\n  def actions, do: @acc", // [3, 2, 1]
			`opaque@"@acc"`},
		{"written again after", "  @x 1\n  if " + c + " do\n    @x 2\n  end\n  @x 3\n  def actions, do: @x", // 3
			`3@"3"`},
		{"after the read", "  @x 1\n  def actions, do: @x\n  if " + c + " do\n    @x 2\n  end", // 1
			`1@"1"`},
		{"in a def body", "  @x 1\n  def f, do: Module.put_attribute(__MODULE__, :x, 2)\n  def actions, do: @x", // 1
			`1@"1"`},
		{"another attribute", "  @x 1\n  if " + c + " do\n    @y 2\n  end\n  def actions, do: @x", // 1
			`1@"1"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := evalActions(t, tt.body)
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestEvalOperators(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"concat", `  @p "Hello"
  def actions, do: [@p <> ", " <> "world", "a#{1}" <> "b", x <> "c", 1 <> "d"]`,
			`["Hello, world"@"@p <> \", \" <> \"world\"", ~"ab"@"\"a#{1}\" <> \"b\"", opaque@"x <> \"c\"", opaque@"1 <> \"d\""]@"[@p <> \", \" <> \"world\", \"a#{1}\" <> \"b\", x <> \"c\", 1 <> \"d\"]"`},
		{"append", `  def actions, do: {[1] ++ [2], [1] ++ x, x ++ [2], x ++ y, 'a' ++ 'b', [1] ++ 2}`,
			`{[1@"1", 2@"2"]@"[1] ++ [2]", [1@"1" ...]@"[1] ++ x", [2@"2" ...]@"x ++ [2]", opaque@"x ++ y", 'ab'@"'a' ++ 'b'", opaque@"[1] ++ 2"}@"{[1] ++ [2], [1] ++ x, x ++ [2], x ++ y, 'a' ++ 'b', [1] ++ 2}"`},
		{"list tail", `  def actions, do: {[1 | [2]], [1 | x]}`,
			`{[1@"1", 2@"2"]@"[1 | [2]]", [1@"1" ...]@"[1 | x]"}@"{[1 | [2]], [1 | x]}"`},
		{"pipe", `  def actions, do: %{} |> Map.put(:a, 1) |> Map.put(:b, 2)`,
			`%{:"a"@":a" => 1@"1", :"b"@":b" => 2@"2"}@"%{} |> Map.put(:a, 1) |> Map.put(:b, 2)"/open "%{} |> Map.put(:a, 1) |> Map.put(:b, 2)"`},
		{"pipe into zero-arity call is opaque", `  def s, do: 1
  def actions, do: 1 |> s()`,
			`opaque@"1 |> s()"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := evalActions(t, tt.body)
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestEvalMapFunctions(t *testing.T) {
	tests := []struct {
		name, expr, want string
	}{
		{"put replaces", `Map.put(%{a: 1, b: 2}, :a, 3)`,
			`%{:"a"@":a" => 3@"3", :"b"@"b" => 2@"2"}@"Map.put(%{a: 1, b: 2}, :a, 3)"/open "Map.put(%{a: 1, b: 2}, :a, 3)"`},
		{"put on opaque", `Map.put(x, "k", 1)`,
			`%{"k"@"\"k\"" => 1@"1" ...}@"Map.put(x, \"k\", 1)"/open "Map.put(x, \"k\", 1)"`},
		{"put on non-map", `Map.put([], "k", 1)`, `opaque@"Map.put([], \"k\", 1)"`},
		{"merge replaces", `Map.merge(%{a: 1, b: 2}, %{b: 3, c: 4})`,
			`%{:"a"@"a" => 1@"1", :"b"@"b" => 3@"3", :"c"@"c" => 4@"4"}@"Map.merge(%{a: 1, b: 2}, %{b: 3, c: 4})"/open "Map.merge(%{a: 1, b: 2}, %{b: 3, c: 4})"`},
		// The second map wins: its unseen keys may replace any value of the
		// first, whose keys alone stay certain.
		{"merge opaque right", `Map.merge(%{a: 1}, x)`,
			`%{:"a"@"a" => opaque@"1" ...}@"Map.merge(%{a: 1}, x)"/open "Map.merge(%{a: 1}, x)"`},
		{"merge partial right", `Map.merge(%{a: 1, b: 2}, %{x | b: 3})`,
			`%{:"a"@"a" => opaque@"1", :"b"@"b" => 3@"3" ...}@"Map.merge(%{a: 1, b: 2}, %{x | b: 3})"/open "Map.merge(%{a: 1, b: 2}, %{x | b: 3})"`},
		{"merge opaque left", `Map.merge(x, %{a: 1})`,
			`%{:"a"@"a" => 1@"1" ...}@"Map.merge(x, %{a: 1})"/open "Map.merge(x, %{a: 1})"`},
		{"delete", `Map.delete(%{a: 1, b: 2}, :a)`,
			`%{:"b"@"b" => 2@"2"}@"Map.delete(%{a: 1, b: 2}, :a)"/open "Map.delete(%{a: 1, b: 2}, :a)"`},
		{"drop", `Map.drop(%{a: 1, b: 2, c: 3}, [:a, :c])`,
			`%{:"b"@"b" => 2@"2"}@"Map.drop(%{a: 1, b: 2, c: 3}, [:a, :c])"/open "Map.drop(%{a: 1, b: 2, c: 3}, [:a, :c])"`},
		{"drop opaque keys", `Map.drop(%{a: 1}, x)`, `opaque@"Map.drop(%{a: 1}, x)"`},
		{"take", `Map.take(%{a: 1, b: 2, c: 3}, ~w(a c)a)`,
			`%{:"a"@"a" => 1@"1", :"c"@"c" => 3@"3"}@"Map.take(%{a: 1, b: 2, c: 3}, ~w(a c)a)"/open "Map.take(%{a: 1, b: 2, c: 3}, ~w(a c)a)"`},
		{"new", `Map.new([{"a", 1}, b: 2, a: 3, b: 4])`,
			`%{"a"@"\"a\"" => 1@"1", :"b"@"b" => 4@"4", :"a"@"a" => 3@"3"}@"Map.new([{\"a\", 1}, b: 2, a: 3, b: 4])"/open "Map.new([{\"a\", 1}, b: 2, a: 3, b: 4])"`},
		{"new bad", `Map.new([1])`, `opaque@"Map.new([1])"`},
		// A later pair wins, and the unseen pairs of a partial list may come
		// after the known ones.
		{"new partial", `Map.new([a: 1] ++ x)`,
			`%{:"a"@"a" => opaque@"1" ...}@"Map.new([a: 1] ++ x)"/open "Map.new([a: 1] ++ x)"`},
		{"update", `%{%{a: 1, b: 2} | a: 3}`,
			`%{:"a"@"a" => 3@"3", :"b"@"b" => 2@"2"}@"%{%{a: 1, b: 2} | a: 3}"/open "%{"`},
		{"update arrow", `%{%{"a" => 1} | "a" => 2, "b" => 3}`,
			`%{"a"@"\"a\"" => 2@"2", "b"@"\"b\"" => 3@"3"}@"%{%{\"a\" => 1} | \"a\" => 2, \"b\" => 3}"/open "%{"`},
		{"update opaque", `%{x | a: 3}`,
			`%{:"a"@"a" => 3@"3" ...}@"%{x | a: 3}"/open "%{"`},
		{"aliased Map is not Map", `M.put(%{}, :a, 1)`, `opaque@"M.put(%{}, :a, 1)"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := evalActions(t, "  def actions, do: "+tt.expr)
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestEvalMapFunctionsLeaveTheirArguments: the Map functions and the
// map update read the entries of the map they are given (an attribute's
// value, shared by every use) and build their result in entries of their
// own, so the attribute's map is the same after all of them.
func TestEvalMapFunctionsLeaveTheirArguments(t *testing.T) {
	const m = `%{a: 1, b: 2, a: 3}`
	uses := []string{
		`Map.put(@m, :a, 9)`, `Map.put(@m, :c, 9)`, `Map.delete(@m, :a)`, `Map.drop(@m, [:b])`,
		`Map.take(@m, [:a])`, `Map.merge(@m, %{b: 5, c: 6})`, `Map.merge(%{b: 5}, @m)`,
		`%{@m | b: 7}`, `%{@m | a: 7, c: 8}`, `Map.new(@m)`, `@m |> Map.put(:b, 0) |> Map.delete(:a)`,
	}
	alone, _, _ := evalActions(t, "  @m "+m+"\n  def actions, do: @m")
	var b strings.Builder
	for i, u := range uses {
		fmt.Fprintf(&b, "k%d: %s, ", i, u)
	}
	_, r, src := evalActions(t, "  @m "+m+"\n  def actions, do: %{"+b.String()+"m: @m}")
	after := render(r.Actions.GetAtom("m"), map[string][]byte{"file:///t.ex": []byte(src)})
	if after != alone {
		t.Fatalf("@m after the Map functions:\n%s\nalone:\n%s", after, alone)
	}
}

func TestEvalRemote(t *testing.T) {
	files := map[string]string{
		"file:///lib/schemas.ex": `defmodule App.Tools.Schemas do
  @id %{"type" => "string"}
  def all, do: %{x: %{description: "x", properties: %{"id" => @id}}}
  def id, do: @id
  defp hidden, do: 1
end
`,
		"file:///lib/other.ex": `defmodule App.Tools.Other do
  def more, do: %{o: %{description: "o"}}
end
`,
		"file:///lib/tools.ex": `defmodule App.Tools do
  defmodule Helpers do
    def h, do: "h"
  end
  defmodule Tasks do
    use Wymcp.Tool
    alias App.Tools.{Other, Schemas}
    alias App.Tools.Schemas, as: S
    alias App.Tools.Schemas.Missing
    def actions do
      Schemas.all()
      |> Map.merge(Other.more())
      |> Map.put(:y, %{a: S.id(), b: __MODULE__.Local.v(), c: App.Tools.Schemas.id(), d: Helpers.h(), e: Missing.x(), f: Schemas.hidden(), g: Nope.x()})
    end
    defmodule Local do
      def v, do: :local
    end
  end
end
`,
	}
	ws := newWS(t, files)
	r := ws.eval(t, "App.Tools.Tasks")
	got := render(r.Actions, ws.srcs)
	want := `%{:"x"@"x" => %{:"description"@"description" => "x"@"\"x\"", :"properties"@"properties" => %{"id"@"\"id\"" => %{"type"@"\"type\"" => "string"@"\"string\""}@"%{\"type\" => \"string\"}"/open "%{"}@"%{\"id\" => @id}"/open "%{"}@"%{description: \"x\", properties: %{\"id\" => @id}}"/open "%{", :"o"@"o" => %{:"description"@"description" => "o"@"\"o\""}@"%{description: \"o\"}"/open "%{", :"y"@":y" => %{:"a"@"a" => %{"type"@"\"type\"" => "string"@"\"string\""}@"%{\"type\" => \"string\"}"/open "%{", :"b"@"b" => :"local"@":local", :"c"@"c" => %{"type"@"\"type\"" => "string"@"\"string\""}@"%{\"type\" => \"string\"}"/open "%{", :"d"@"d" => "h"@"\"h\"", :"e"@"e" => opaque@"Missing.x()", :"f"@"f" => opaque@"Schemas.hidden()", :"g"@"g" => opaque@"Nope.x()"}@"%{a: S.id(), b: __MODULE__.Local.v(), c: App.Tools.Schemas.id(), d: Helpers.h(), e: Missing.x(), f: Schemas.hidden(), g: Nope.x()}"/open "%{"}@"Schemas.all()\n      |> Map.merge(Other.more())\n      |> Map.put(:y, %{a: S.id(), b: __MODULE__.Local.v(), c: App.Tools.Schemas.id(), d: Helpers.h(), e: Missing.x(), f: Schemas.hidden(), g: Nope.x()})"/open "Schemas.all()\n      |> Map.merge(Other.more())\n      |> Map.put(:y, %{a: S.id(), b: __MODULE__.Local.v(), c: App.Tools.Schemas.id(), d: Helpers.h(), e: Missing.x(), f: Schemas.hidden(), g: Nope.x()})"`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if fmt.Sprint(r.Deps) != "[file:///lib/other.ex file:///lib/schemas.ex]" {
		t.Errorf("deps %v", r.Deps)
	}
	if fmt.Sprint(r.Modules) != "[App.Tools.Helpers App.Tools.Other App.Tools.Schemas App.Tools.Schemas.Missing App.Tools.Tasks.Local Nope]" {
		t.Errorf("modules %v", r.Modules)
	}
	// Values read from another file carry that file's URI.
	x := r.Actions.Entries[0].Value
	if l, _ := positions.LocOf(x.Origin); l.URI != "file:///lib/schemas.ex" {
		t.Errorf("origin URI %q", l.URI)
	}
}

func TestEvalCycles(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"mutual recursion", "  def actions, do: a()\n  def a, do: [b()]\n  def b, do: [a()]",
			`[[opaque@"a()"]@"[a()]"]@"[b()]"`},
		{"self recursion", "  def actions, do: actions()", `opaque@"actions()"`},
		{"attribute and function", "  def f, do: %{k: @a}\n  @a f()\n  def actions, do: @a",
			`%{:"k"@"k" => opaque@"@a"}@"%{k: @a}"/open "%{"`},
		{"bare identifier call", "  def actions, do: schemas\n  defp schemas, do: %{}", `%{}@"%{}"/open "%{"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := evalActions(t, tt.body)
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestEvalDeepChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("  def actions, do: d0()\n")
	const n = 300
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  def d%d, do: d%d()\n", i, i+1)
	}
	fmt.Fprintf(&b, "  def d%d, do: %%{}\n", n)
	got, _, _ := evalActions(t, b.String())
	if !strings.HasPrefix(got, "opaque@") {
		t.Fatalf("a chain of %d calls evaluated to %s", n, got)
	}
	// A short chain evaluates.
	got, _, _ = evalActions(t, "  def actions, do: d0()\n  def d0, do: d1()\n  def d1, do: %{}")
	if got != `%{}@"%{}"/open "%{"` {
		t.Fatalf("short chain: %s", got)
	}
}

func TestEvalExponentialIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("  @a [1]\n")
	for i := 0; i < 40; i++ {
		b.WriteString("  @a @a ++ @a\n")
	}
	b.WriteString("  def actions, do: @a")
	got, _, _ := evalActions(t, b.String())
	if !strings.HasPrefix(got, "opaque@") {
		t.Fatalf("2^40 elements evaluated to %.80s", got)
	}
}

func TestEvalCancelled(t *testing.T) {
	src := GenerateTool(50)
	ws := newWS(t, map[string]string{"file:///g.ex": string(src)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := Evaluate(ctx, ws.res, ws.res.Module("App.Tools.Generated"))
	if !r.Found || r.Actions == nil {
		t.Fatal("no result")
	}
	opaque := 0
	var count func(v *validate.Value)
	count = func(v *validate.Value) {
		if v.Kind == validate.Opaque {
			opaque++
		}
		for _, e := range v.Entries {
			count(e.Value)
		}
		for _, e := range v.Elems {
			count(e)
		}
	}
	count(r.Actions)
	if opaque == 0 {
		t.Fatal("a cancelled evaluation produced no opaque value")
	}
}

func TestEvalSyntaxErrors(t *testing.T) {
	files := map[string]string{
		"file:///s.ex": "defmodule S do\n  def all, do: %{a: %{description: \"x\",, properties: %{}}}\n  def unused, do: [1 2]\nend\n",
		"file:///t.ex": "defmodule T do\n  use Wymcp.Tool\n  @bad %{description: \"x\", properties: %{a: }}\n  def actions, do: Map.merge(S.all(), %{b: @bad, c: [1, , 2]})\nend\n",
	}
	ws := newWS(t, files)
	r := ws.eval(t, "T")
	var got []string
	for _, e := range r.Errors {
		got = append(got, e.URI+" "+slice(string(ws.srcs[e.URI]), e.Span)+" "+e.Message)
	}
	// One error per file, where Elixir reports it (Code.string_to_quoted/2
	// stops at the first): the second comma in s.ex, the "}" after the
	// missing value in t.ex.
	want := []string{
		`file:///s.ex , syntax error: unexpected ","`,
		`file:///t.ex } syntax error: unexpected "}"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The map with an error inside is partial, the rest is evaluated.
	b := r.Actions.Entries[1].Value
	if render(b, ws.srcs) != `%{:"description"@"description" => "x"@"\"x\"", :"properties"@"properties" => %{:"a"@"a" => opaque@" " ...}@"%{a: }"/open "%{"}@"%{description: \"x\", properties: %{a: }}"/open "%{"` {
		t.Fatalf("@bad = %s", render(b, ws.srcs))
	}
}

func TestEvalHalfTyped(t *testing.T) {
	src := "defmodule T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{pro"
	ws := newWS(t, map[string]string{"file:///t.ex": src})
	r := ws.eval(t, "T")
	// Elixir reports the innermost opener left open at the end of the
	// file: the "{" of `%{pro`. What was typed is still read: the map of
	// actions with its partial :run entry.
	if len(r.Errors) != 1 {
		t.Fatalf("actions %s, errors %v", render(r.Actions, ws.srcs), r.Errors)
	}
	e := r.Errors[0]
	if got := slice(src, e.Span); got != "{" || e.Span.Start != strings.LastIndex(src, "{") || e.Message != `syntax error: missing terminator: "{" is never closed by "}"` {
		t.Fatalf("error %q at %d %q", got, e.Span.Start, e.Message)
	}
	if got := render(r.Actions, ws.srcs); got != `%{:"run"@"run" => %{ ...}@"%{pro"/open "%{" ...}@"%{run: %{pro"/open "%{"` {
		t.Fatalf("actions %s", got)
	}
}

// TestConcurrentEvaluate evaluates one parsed File from several
// goroutines (run with -race): the IR is immutable after Parse.
func TestConcurrentEvaluate(t *testing.T) {
	ws := newWS(t, map[string]string{"file:///g.ex": string(GenerateTool(20))})
	m := ws.res.Module("App.Tools.Generated")
	want := render(Evaluate(context.Background(), ws.res, m).Actions, ws.srcs)
	got := make(chan string)
	for i := 0; i < 4; i++ {
		go func() { got <- render(Evaluate(context.Background(), ws.res, m).Actions, ws.srcs) }()
	}
	for i := 0; i < 4; i++ {
		if g := <-got; g != want {
			t.Fatalf("concurrent evaluation differs")
		}
	}
}

// TestEvalDefdelegate evaluates an actions/0 defined by defdelegate as the
// call Elixir defines it to make (Kernel.defdelegate/2): to: the module,
// as: the function, else the delegate's own name.
func TestEvalDefdelegate(t *testing.T) {
	schemas := `defmodule App.Schemas do
  def all, do: %{go: %{description: "Go."}}
  def actions, do: %{own: %{description: "Own."}}
  defdelegate again, to: App.Schemas, as: :all
  defp hidden, do: %{}
end
`
	tests := []struct {
		name, decl, want string
		deps             string
	}{
		{"as", `defdelegate actions, to: App.Schemas, as: :all`,
			`%{:"go"@"go" => %{:"description"@"description" => "Go."@"\"Go.\""}@"%{description: \"Go.\"}"/open "%{"}@"%{go: %{description: \"Go.\"}}"/open "%{"`,
			"[file:///lib/schemas.ex]"},
		{"own name, alias, parentheses", "alias App.Schemas\n  defdelegate actions(), to: Schemas",
			`%{:"own"@"own" => %{:"description"@"description" => "Own."@"\"Own.\""}@"%{description: \"Own.\"}"/open "%{"}@"%{own: %{description: \"Own.\"}}"/open "%{"`,
			"[file:///lib/schemas.ex]"},
		{"a delegate to a delegate", `defdelegate actions, to: App.Schemas, as: :again`,
			`%{:"go"@"go" => %{:"description"@"description" => "Go."@"\"Go.\""}@"%{description: \"Go.\"}"/open "%{"}@"%{go: %{description: \"Go.\"}}"/open "%{"`,
			"[file:///lib/schemas.ex]"},
		{"a private target is not called", `defdelegate actions, to: App.Schemas, as: :hidden`,
			`opaque@"to: App.Schemas, as: :hidden"`, "[file:///lib/schemas.ex]"},
		{"a module outside the workspace", `defdelegate actions, to: Elsewhere`,
			`opaque@"to: Elsewhere"`, "[]"},
		{"an Erlang module", `defdelegate actions, to: :lists`,
			`opaque@"to: :lists"`, "[]"},
		{"the first to: and as: count", `defdelegate actions, to: App.Schemas, to: Elsewhere, as: :all, as: :hidden`,
			`%{:"go"@"go" => %{:"description"@"description" => "Go."@"\"Go.\""}@"%{description: \"Go.\"}"/open "%{"}@"%{go: %{description: \"Go.\"}}"/open "%{"`,
			"[file:///lib/schemas.ex]"},
		{"no to:", `defdelegate actions, as: :all`,
			`opaque@"defdelegate actions, as: :all"`, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWS(t, map[string]string{
				"file:///lib/schemas.ex": schemas,
				"file:///lib/tool.ex":    "defmodule T do\n  use Wymcp.Tool\n  " + tt.decl + "\nend\n",
			})
			r := ws.eval(t, "T")
			if got := render(r.Actions, ws.srcs); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if got := fmt.Sprint(r.Deps); got != tt.deps {
				t.Errorf("deps %s, want %s", got, tt.deps)
			}
			d := ws.res.Module("T").Actions()
			if d == nil || d.Kind != "defdelegate" || d.Arity != 0 {
				t.Fatalf("actions/0: %+v", d)
			}
		})
	}
}

// TestEvalDefaultArguments: a function with default arguments is defined
// at every arity from the required ones up (`def f(a \\ 1)` is f/0 and
// f/1), so actions/0, a local and a remote zero-arity call find a def
// whose parameters all have defaults; a def that needs an argument is not
// called with none.
func TestEvalDefaultArguments(t *testing.T) {
	schemas := "defmodule S do\n  def all(extra \\\\ %{}), do: %{go: %{description: \"Go.\"}}\n  def need(x, y \\\\ 1), do: %{}\nend\n"
	for _, tc := range []struct{ name, decl, want string }{
		{"actions/0 with a default", `def actions(opts \\ []), do: %{a: 1}`, `%{:"a"@"a" => 1@"1"}@"%{a: 1}"/open "%{"`},
		// The call binds each parameter to its default.
		{"local call", "def actions, do: local()\n  defp local(x \\\\ :x, y \\\\ :y), do: [x]", `[:"x"@":x"]@"[x]"`},
		{"remote call", "def actions, do: S.all()",
			`%{:"go"@"go" => %{:"description"@"description" => "Go."@"\"Go.\""}@"%{description: \"Go.\"}"/open "%{"}@"%{go: %{description: \"Go.\"}}"/open "%{"`},
		{"a required argument", "def actions, do: S.need()", `opaque@"S.need()"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWS(t, map[string]string{
				"file:///s.ex": schemas,
				"file:///t.ex": "defmodule T do\n  use Wymcp.Tool\n  " + tc.decl + "\nend\n",
			})
			if got := render(ws.eval(t, "T").Actions, ws.srcs); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	m := newWS(t, map[string]string{"file:///s.ex": schemas}).res.Module("S")
	for _, tc := range []struct {
		name  string
		arity int
		want  bool
	}{{"all", 0, true}, {"all", 1, true}, {"all", 2, false}, {"need", 0, false}, {"need", 1, true}, {"need", 2, true}} {
		if got := m.Def(tc.name, tc.arity) != nil; got != tc.want {
			t.Errorf("Def(%s, %d) found %v, want %v", tc.name, tc.arity, got, tc.want)
		}
	}
}

// TestEvalImports: a local zero-arity call reaches a public function of
// an imported module (Kernel.SpecialForms.import/2): only:, except:,
// only: :functions/:macros, the import's lexical scope (after it, in its
// def body, in nested modules), a local def first; it stays unknown when
// the imported module is not in the workspace, when the options cannot
// be read and when two imports provide the function (Elixir refuses the
// ambiguous call).
func TestEvalImports(t *testing.T) {
	schemas := "defmodule App.Schemas do\n  def all, do: %{go: 1}\n  defp hidden, do: %{}\nend\n" +
		"defmodule App.Other do\n  def all, do: %{other: 1}\n  def more, do: %{more: 1}\nend\n"
	goMap := `%{:"go"@"go" => 1@"1"}@"%{go: 1}"/open "%{"`
	otherMap := `%{:"other"@"other" => 1@"1"}@"%{other: 1}"/open "%{"`
	for _, tc := range []struct{ name, body, want string }{
		{"import", "import App.Schemas\n  def actions, do: all()", goMap},
		{"through an alias", "alias App.Schemas\n  import Schemas\n  def actions, do: all()", goMap},
		{"only", "import App.Schemas, only: [all: 0]\n  def actions, do: all()", goMap},
		{"only another", "import App.Schemas, only: [other: 0]\n  def actions, do: all()", `opaque@"all()"`},
		{"only nothing", "import App.Schemas, only: []\n  def actions, do: all()", `opaque@"all()"`},
		{"only another arity", "import App.Schemas, only: [all: 1]\n  def actions, do: all()", `opaque@"all()"`},
		{"except", "import App.Schemas, except: [all: 0]\n  def actions, do: all()", `opaque@"all()"`},
		{"only functions", "import App.Schemas, only: :functions\n  def actions, do: all()", goMap},
		{"only macros", "import App.Schemas, only: :macros\n  def actions, do: all()", `opaque@"all()"`},
		{"unreadable options", "import App.Schemas, @opts\n  def actions, do: all()", `opaque@"all()"`},
		{"a private function", "import App.Schemas\n  def actions, do: hidden()", `opaque@"hidden()"`},
		{"after the use", "def actions, do: all()\n  import App.Schemas", `opaque@"all()"`},
		{"in the def body", "def actions do\n    import App.Schemas\n    all()\n  end", goMap},
		{"a local def first", "import App.Schemas\n  def actions, do: all()\n  defp all, do: %{own: 1}", `%{:"own"@"own" => 1@"1"}@"%{own: 1}"/open "%{"`},
		{"two modules provide it", "import App.Schemas\n  import App.Other\n  def actions, do: all()", `opaque@"all()"`},
		{"two modules, one does", "import App.Schemas\n  import App.Other\n  def actions, do: more()", `%{:"more"@"more" => 1@"1"}@"%{more: 1}"/open "%{"`},
		{"outside the workspace", "import Elsewhere\n  def actions, do: all()", `opaque@"all()"`},
		{"without parentheses", "import App.Schemas\n  def actions, do: all", goMap}, // elixir 1.14: expanded to all(), with a warning
		// A later import of a module replaces its earlier one (elixirc 1.14:
		// all() is App.Other.all/0 here, not ambiguous), also in a def body.
		{"imported again", "import App.Schemas\n  import App.Other\n  import App.Schemas, except: [all: 0]\n  def actions, do: all()", otherMap},
		{"imported again in the def body", "import App.Schemas\n  import App.Other\n  def actions do\n    import App.Schemas, except: [all: 0]\n    all()\n  end", otherMap},
		{"imported again, narrower", "import App.Other\n  import App.Other, only: [more: 0]\n  import App.Schemas\n  def actions, do: all()", goMap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWS(t, map[string]string{
				"file:///s.ex": schemas,
				"file:///t.ex": "defmodule T do\n  use Wymcp.Tool\n  " + tc.body + "\nend\n",
			})
			r := ws.eval(t, "T")
			if got := render(r.Actions, ws.srcs); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if tc.want == goMap && fmt.Sprint(r.Deps) != "[file:///s.ex]" {
				t.Errorf("deps %v, want [file:///s.ex]", r.Deps)
			}
		})
	}
	// A parent module's import applies to a module nested after it.
	ws := newWS(t, map[string]string{
		"file:///s.ex": schemas,
		"file:///t.ex": "defmodule App do\n  import App.Schemas\n  defmodule T do\n    use Wymcp.Tool\n    def actions, do: all()\n  end\nend\n",
	})
	if got := render(ws.eval(t, "App.T").Actions, ws.srcs); got != goMap {
		t.Errorf("nested: got %s", got)
	}
	// An imported module that does not define the function yet is a
	// dependency all the same: adding the def there changes the call.
	ws = newWS(t, map[string]string{
		"file:///s.ex": schemas,
		"file:///t.ex": "defmodule T do\n  use Wymcp.Tool\n  import App.Other\n  def actions, do: hidden()\nend\n",
	})
	if r := ws.eval(t, "T"); fmt.Sprint(r.Deps) != "[file:///s.ex]" {
		t.Errorf("deps %v, want [file:///s.ex]", r.Deps)
	}
	// The module looked up is recorded, so that its file is read later.
	ws = newWS(t, map[string]string{"file:///t.ex": "defmodule T do\n  use Wymcp.Tool\n  import App.Schemas\n  def actions, do: all()\nend\n"})
	if r := ws.eval(t, "T"); !slices.Contains(r.Modules, "App.Schemas") {
		t.Errorf("modules %v, want App.Schemas among them", r.Modules)
	}
}

// TestEvalDefaultsInAHead: Elixir wants the defaults of a multi-clause
// function in a bodiless head (`def actions(opts \\ [])`); they apply to
// every clause, so actions/0 and a zero-arity call run the clauses, not
// the head. When the defaults leave several clauses that may match, the
// value is unknown.
func TestEvalDefaultsInAHead(t *testing.T) {
	aMap := `%{:"a"@"a" => 1@"1"}@"%{a: 1}"/open "%{"`
	for _, tc := range []struct{ name, decl, want string }{
		{"actions/0", "def actions(opts \\\\ [])\n  def actions(opts) when is_list(opts), do: %{a: 1}", aMap},
		{"local call", "def actions, do: all()\n  defp all(x \\\\ 1)\n  defp all(_x), do: %{a: 1}", aMap},
		{"remote call", "def actions, do: S.all()", aMap},
		{"two clauses", "def actions(opts \\\\ [])\n  def actions([]), do: %{a: 1}\n  def actions(_), do: %{b: 1}", `opaque@"def actions(opts \\\\ [])"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWS(t, map[string]string{
				"file:///s.ex": "defmodule S do\n  def all(x \\\\ 1)\n  def all(_x), do: %{a: 1}\nend\n",
				"file:///t.ex": "defmodule T do\n  use Wymcp.Tool\n  " + tc.decl + "\nend\n",
			})
			if got := render(ws.eval(t, "T").Actions, ws.srcs); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestEvalWrapperImports: an `import` a wrapper's __using__ quotes is
// written where the tool says `use W` (the module resolved through W's
// aliases): a local call after the use reaches it, one before does not.
// A `use` target outside the workspace (Wymcp.Tool) is not a module the
// evaluation reads, so no note names it.
func TestEvalWrapperImports(t *testing.T) {
	files := map[string]string{
		"file:///s.ex": "defmodule App.Schemas do\n  def all, do: %{go: 1}\nend\n",
		"file:///w.ex": "defmodule App.Tool do\n  alias App.Schemas, as: S\n  defmacro __using__(_opts) do\n    quote do\n      use Wymcp.Tool\n      import S, only: [all: 0]\n    end\n  end\nend\n",
	}
	for _, tc := range []struct{ name, body, want, deps string }{
		{"after the use", "use App.Tool\n  def actions, do: all()", `%{:"go"@"go" => 1@"1"}@"%{go: 1}"/open "%{"`, "[file:///s.ex file:///w.ex]"},
		{"before the use", "def actions, do: all()\n  use App.Tool", `opaque@"all()"`, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files["file:///t.ex"] = "defmodule T do\n  " + tc.body + "\nend\n"
			ws := newWS(t, files)
			r := ws.eval(t, "T")
			if got := render(r.Actions, ws.srcs); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if got := fmt.Sprint(r.Deps); got != tc.deps {
				t.Errorf("deps %s, want %s", got, tc.deps)
			}
			if slices.Contains(r.Modules, "Wymcp.Tool") || slices.Contains(r.Modules, "App.Tool") {
				t.Errorf("modules %v: a use target is not a module read", r.Modules)
			}
		})
	}
}

// TestEvalAttributeWrittenByAUse: a `use W` whose __using__ quotes
// `@props value` writes @props in the using module at the `use`, so a
// read after it is not the `@props` written before it (elixir: R1 below
// reads %{"a" => %{}}, and the reader reported undeclared-field on the
// earlier %{}). It is opaque, and the wrapper's file is a dependency.
func TestEvalAttributeWrittenByAUse(t *testing.T) {
	files := map[string]string{
		"file:///w.ex": "defmodule W.Base do\n  defmacro __using__(_) do\n    quote do\n      @behaviour Wymcp.Tool\n      if true, do: @props(%{\"a\" => %{}})\n      def helper, do: Module.put_attribute(__MODULE__, :other, 2)\n    end\n  end\nend\n",
	}
	for _, tc := range []struct{ name, body, want, deps string }{
		{"written by the use", "@props %{}\n  use W.Base\n  def actions, do: @props", `opaque@"@props"`, "[file:///w.ex]"},
		{"written again after the use", "use W.Base\n  @props %{}\n  def actions, do: @props", `%{}@"%{}"/open "%{"`, "[]"},
		{"read before the use", "@props %{}\n  def actions, do: @props\n  use W.Base", `%{}@"%{}"/open "%{"`, "[]"},
		{"another attribute", "@x 1\n  use W.Base\n  def actions, do: @x", `1@"1"`, "[file:///w.ex]"},
		{"written in a quoted def", "@other 1\n  use W.Base\n  def actions, do: @other", `1@"1"`, "[file:///w.ex]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files["file:///t.ex"] = "defmodule T do\n  " + tc.body + "\nend\n"
			ws := newWS(t, files)
			r := ws.eval(t, "T")
			if got := render(r.Actions, ws.srcs); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if got := fmt.Sprint(r.Deps); got != tc.deps {
				t.Errorf("deps %s, want %s", got, tc.deps)
			}
		})
	}
}

// TestEvalDefoverridable: after `defoverridable actions: 0`, a later def
// of actions/0 replaces the clauses before it (Elixir runs the new one;
// each row's value checked with elixir 1.14). The reader took the first
// clause, so an offence in the replaced map was reported as certain.
func TestEvalDefoverridable(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"replaced", "  def actions, do: %{a: 1}\n  defoverridable actions: 0\n  def actions, do: %{b: 2}",
			`%{:"b"@"b" => 2@"2"}@"%{b: 2}"/open "%{"`},
		{"in a list", "  def actions, do: %{a: 1}\n  defoverridable [actions: 0]\n  def actions, do: %{b: 2}",
			`%{:"b"@"b" => 2@"2"}@"%{b: 2}"/open "%{"`},
		{"twice", "  def actions, do: %{a: 1}\n  defoverridable actions: 0\n  def actions, do: %{b: 2}\n  defoverridable actions: 0\n  def actions, do: %{c: 3}",
			`%{:"c"@"c" => 3@"3"}@"%{c: 3}"/open "%{"`},
		{"not redefined", "  def actions, do: %{a: 1}\n  defoverridable actions: 0",
			`%{:"a"@"a" => 1@"1"}@"%{a: 1}"/open "%{"`},
		{"a local call", "  def actions, do: %{a: s()}\n  def s, do: 1\n  def o(x), do: x\n  defoverridable s: 0, o: 1\n  def s, do: 2",
			`%{:"a"@"a" => 2@"2"}@"%{a: s()}"/open "%{"`},
		{"another arity", "  def actions, do: %{a: s()}\n  def s, do: 1\n  def s(x), do: x\n  defoverridable s: 1\n  def s(x), do: [x]",
			`%{:"a"@"a" => 1@"1"}@"%{a: s()}"/open "%{"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := evalActions(t, tt.body)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestEvalGuardedClause: a clause whose guard may fail, followed by
// another clause of the function, is not the function's value: Elixir
// runs the later clause when the guard fails (elixir 1.14: each of the
// first three rows returns %{b: 2}), and the reader took the guarded
// clause's map as certain. Such a value is opaque; a guard `true`, or a
// guarded clause with no other (TestEvalDefaultsInAHead), is still read.
func TestEvalGuardedClause(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"attribute guard", "  @flag false\n  def s when @flag, do: %{a: 1}\n  def s, do: %{b: 2}\n  def actions, do: s()",
			`opaque@"def s when @flag, do: %{a: 1}"`},
		{"actions/0", "  def actions when false, do: %{a: 1}\n  def actions, do: %{b: 2}",
			`opaque@"def actions when false, do: %{a: 1}"`},
		{"comparison", "  def actions when 1 == 2, do: %{a: 1}\n  def actions, do: %{b: 2}",
			`opaque@"def actions when 1 == 2, do: %{a: 1}"`},
		{"guard true", "  def actions when true, do: %{a: 1}\n  def actions, do: %{b: 2}",
			`%{:"a"@"a" => 1@"1"}@"%{a: 1}"/open "%{"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := evalActions(t, tt.body)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
