package elixir

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/wymcp/wymcp-ls/positions"
)

// fixtureFiles returns every .ex/.exs file under the repository's Elixir
// fixtures, keyed by a file: URI.
func fixtureFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, root := range []string{filepath.Join("testdata", "project"), filepath.Join("..", "..", "testdata")} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".ex") || strings.HasSuffix(path, ".exs")) {
				return err
			}
			b, err := os.ReadFile(path)
			files["file:///"+filepath.ToSlash(path)] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %d fixture files found", len(files))
	}
	return files
}

// TestSketchMatchesParse evaluates every tool of every fixture file twice,
// over Parse's IR and over the Sketch's, and requires the same values at
// the same spans: the cursor features find the evaluator's Origins in the
// sketch's expressions. Files with syntax errors are skipped (there Parse
// settles the error nodes with the syntax check, the sketch keeps its own).
func TestSketchMatchesParse(t *testing.T) {
	files := fixtureFiles(t)
	p := NewParser()
	defer p.Close()
	parsed := map[string]*File{}
	sketched := map[string]*File{}
	srcs := map[string][]byte{}
	for uri, src := range files {
		parsed[uri] = p.Parse(context.Background(), uri, src)
		sketched[uri] = NewSketch(uri, src, -1).File
		srcs[uri] = src
	}
	tsRes := resolverOf(filesOf(parsed)...)
	skRes := resolverOf(filesOf(sketched)...)
	compared := 0
	for uri, f := range parsed {
		if len(f.Errors) > 0 {
			continue
		}
		sk := sketched[uri]
		if len(sk.Modules) != len(f.Modules) {
			t.Errorf("%s: sketch has %d modules, parse %d", uri, len(sk.Modules), len(f.Modules))
			continue
		}
		for i, m := range f.Modules {
			sm := sk.Modules[i]
			if sm.Name != m.Name || sm.Tool != m.Tool || sm.Span != m.Span || len(sm.Attrs) != len(m.Attrs) || len(sm.Defs) != len(m.Defs) || len(sm.Aliases) != len(m.Aliases) {
				t.Errorf("%s: module %s: sketch (%s tool=%v %v attrs=%d defs=%d aliases=%d) differs from parse (tool=%v %v attrs=%d defs=%d aliases=%d)",
					uri, m.Name, sm.Name, sm.Tool, sm.Span, len(sm.Attrs), len(sm.Defs), len(sm.Aliases), m.Tool, m.Span, len(m.Attrs), len(m.Defs), len(m.Aliases))
				continue
			}
			if !m.Tool {
				continue
			}
			want := Evaluate(context.Background(), tsRes, m)
			got := Evaluate(context.Background(), skRes, sm)
			if want.Found != got.Found {
				t.Errorf("%s: %s: Found %v, parse %v", uri, m.Name, got.Found, want.Found)
				continue
			}
			if !want.Found {
				continue
			}
			if w, g := render(want.Actions, srcs), render(got.Actions, srcs); w != g {
				t.Errorf("%s: %s: sketch evaluates\n%s\nparse evaluates\n%s", uri, m.Name, g, w)
			}
			compared++
		}
	}
	if compared < 5 {
		t.Errorf("only %d tools compared", compared)
	}
}

func filesOf(m map[string]*File) []*File {
	var out []*File
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// checkSketch verifies the invariants of a sketch of src: every span of
// every expression lies in [0, len(src)], with Start <= End, and every
// step of PathAt(off) holds off.
func checkSketch(t *testing.T, name string, s *Sketch, src []byte, off int) {
	t.Helper()
	bad := func(sp positions.Span) bool { return sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End }
	for _, st := range s.Stmts {
		Walk(st.Expr, func(e *Expr) bool {
			if bad(e.Span) {
				t.Fatalf("%s: span %v out of [0,%d] (%s)", name, e.Span, len(src), e.Kind)
			}
			return true
		})
	}
	for _, m := range s.File.Modules {
		if bad(m.Span) || bad(m.NameSpan) {
			t.Fatalf("%s: module %s spans %v %v", name, m.Name, m.Span, m.NameSpan)
		}
	}
	for _, st := range s.PathAt(off) {
		if !st.Expr.Span.Contains(off) {
			t.Fatalf("%s: path step %s %v does not hold %d", name, st.Expr.Kind, st.Expr.Span, off)
		}
	}
}

// TestSketchEveryPrefix reads every prefix of every fixture file (every
// byte for small files, every 7th for larger ones) with the cursor at its
// end, as an author typing the file from the top would: no panic, spans
// in range, the path holding the cursor.
func TestSketchEveryPrefix(t *testing.T) {
	files := fixtureFiles(t)
	files["odd"] = []byte("defmodule A do\n  @x \"\"\"\n  a #{\"b\"}\n  \"\"\"\n  @y ~w(a b)a ++ ~s[c] <> ?\" <> 'd'\n  def actions, do: %{\"a b\": 1, :\"c\" => [1 | t], m: %{m | k: fn x -> x end}, z: <<1, 2>>}\n  # \"comment\n  def f(x) when x > 1, do: x |> g() |> h.()\nend\nend\n\xff\xfe")
	for uri, src := range files {
		step := 1
		if len(src) > 3000 {
			step = 7
		}
		for n := 0; n <= len(src); n += step {
			checkSketch(t, uri, NewSketch(uri, src[:n], n), src[:n], n)
			checkSketch(t, uri, NewSketchAt(uri, src[:n], n), src[:n], n)
		}
	}
}

// TestSketchPathological reads deep nesting, long operator chains, an
// unterminated interpolation and odd bytes without exhausting the stack or
// hanging.
func TestSketchPathological(t *testing.T) {
	for name, src := range map[string]string{
		"deep lists":         strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000),
		"deep maps":          "defmodule A do\n def actions, do: " + strings.Repeat("%{a: ", 50_000),
		"unary chain":        strings.Repeat("-", 100_000) + "1",
		"binary chain":       strings.Repeat("1 <> ", 50_000) + "1",
		"interpolation":      `"a #{"b #{"c #{`,
		"stray closers":      strings.Repeat(")]}>> end ", 10_000),
		"operators only":     strings.Repeat("=> | , ; :: \\\\ ", 5000),
		"nul and high bytes": "\x00\x01\xff" + strings.Repeat("\xc3", 1000),
	} {
		s := NewSketch("file:///p.ex", []byte(src), len(src)/2)
		checkSketch(t, name, s, []byte(src), len(src)/2)
	}
}

// TestSketchRecovery checks the tolerant reading of half-typed buffers:
// the path at the cursor and the definitions still read after it.
func TestSketchRecovery(t *testing.T) {
	tests := []struct {
		name, src string
		// path is the kinds along PathAt(cursor) below the defmodule call,
		// "|"-joined; defs the module's definitions.
		path, defs string
	}{
		{"keyless item in an unclosed map at the end of the file",
			"defmodule A do\n  use Wymcp.Tool\n  def actions, do: %{run: %{pro‸",
			"block|call|list|map|map|error|ident", "actions/0"},
		{"unclosed attribute map closed by the next def",
			"defmodule A do\n  use Wymcp.Tool\n  @run %{description: \"x\", ‸\n  def actions, do: %{run: @run}\nend\n",
			"block|unary|call|map", "actions/0"},
		{"unterminated string ends with the cursor's line",
			"defmodule A do\n  def actions, do: %{run: %{required: [\"na‸\n  def other, do: 1\nend\n",
			"block|call|list|map|map|list|string", "actions/0 other/0"},
		{"trailing comma before end",
			"defmodule A do\n  def actions do\n    %{run: %{description: \"x\",‸\n  end\n  def b, do: 2\nend\n",
			"block|call|block|map|map", "actions/0 b/0"},
		{"missing value", "defmodule A do\n  def actions, do: %{run: %{description: ‸}}\nend\n",
			"block|call|list|map|map|error", "actions/0"},
		{"after an interpolated bitstring",
			"defmodule A do\n  @l \"Item #{<<c>>} and #{\"n#{1}\"}\"\n  def actions, do: %{run: %{pr‸}}\nend\n",
			"block|call|list|map|map|error|ident", "actions/0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := strings.Index(tt.src, "‸")
			src := []byte(tt.src[:off] + tt.src[off+len("‸"):])
			s := NewSketch("file:///r.ex", src, off)
			checkSketch(t, tt.name, s, src, off)
			m := s.ModuleAt(off)
			if m == nil {
				t.Fatal("no module at the cursor")
			}
			var defs []string
			for _, d := range m.Defs {
				defs = append(defs, fmt.Sprintf("%s/%d", d.Name, d.Arity))
			}
			if got := strings.Join(defs, " "); got != tt.defs {
				t.Errorf("defs %q, want %q", got, tt.defs)
			}
			var kinds []string
			for _, st := range s.PathAt(off)[1:] { // below the defmodule call
				kinds = append(kinds, st.Expr.Kind.String())
			}
			if got := strings.Join(kinds, "|"); got != tt.path {
				t.Errorf("path %q, want %q", got, tt.path)
			}
		})
	}
}

// TestLexTokens pins the lexer on the tokens Elixir reads differently
// from a naive scan.
func TestLexTokens(t *testing.T) {
	tests := []struct{ src, want string }{
		{`%{"a b": 1, c: :d}`, `op:% op:{ key:a b int:1 op:, key:c atom:d op:}`},
		{`x :: t \\ y`, `ident:x op::: ident:t op:\\ ident:y`},
		{`?" <> "a#{"}"}b"`, `int:?" op:<> string:a#{...}b`},
		{"~w(a b)a ~s[x] ~r/y/", `words:a,b/a string:x sigil:`},
		{"# \"not a string\n'c'", `charlist:c`},
		{`:"a b" :+ :<>`, `atom:a b atom:+ atom:<>`},
		{"\"\"\"\n  h\n  \"\"\" 1", `string:h\n int:1`},
		{`1.5e3 0x1F 1..2`, `float:1.5e3 int:0x1F int:1 op:.. int:2`},
		{"Foo.bar? do end", `alias:Foo op:. ident:bar? ident:do ident:end`},
		// Numbers as Elixir 1.14's tokenizer reads them: a base prefix
		// only before a digit of its base, `_` only between digits, an
		// exponent only after a fraction; a decimal number followed by a
		// letter or `_` is one bad token (the tokenizer's "invalid
		// character after number").
		{`0x1G 0x1_ 0b12 0o78 0xFF_ff`, `int:0x1 alias:G int:0x1 ident:_ int:0b1 int:2 int:0o7 int:8 int:0xFF_ff`},
		{`1F 1_ 1__0 0x 0b2 0o 1.0e 1e3 1.0x 12ab`, `bad:1F bad:1_ bad:1_ ident:_0 bad:0x bad:0b int:2 bad:0o bad:1.0e bad:1e int:3 bad:1.0x bad:12a ident:b`},
		// A colon starts an atom only before a letter, `_`, a quote or an
		// operator (`:.`, `:~~~`, `:::` too); any other colon is
		// Elixir's tokenizer error (a bad token in the full reading).
		{`:. :~~~ ::: :a1 :_x x :: y`, `atom:. atom:~~~ atom::: atom:a1 atom:_x ident:x op::: ident:y`},
		// An atom takes @ (an Erlang node name); an identifier or an alias
		// followed by @, an alias ending in ? or !, or one not ASCII, is
		// Elixir's tokenizer error (a bad token); as keys they are fine.
		{`:a@b :a@ a@b Abc? Á [Á: 1, Abc?: 2]`, `atom:a@b atom:a@ bad:a@ ident:b bad:Abc? bad:Á op:[ key:Á int:1 op:, key:Abc? int:2 op:]`},
		// A keyword key takes @ anywhere after its first character, and %
		// is an operator key.
		{`[a@b: 1, ól@!: 2, %: 3]`, `op:[ key:a@b int:1 op:, key:ól@! int:2 op:, key:% int:3 op:]`},
		{`[a : 1, :1, :]`, `op:[ ident:a bad:: int:1 op:, bad:: int:1 op:, bad:: op:]`},
		{`1.0e1_0 1_000.5_5e-1_0 1.e3 1.0e3.5`, `float:1.0e1_0 float:1_000.5_5e-1_0 int:1 op:. ident:e3 float:1.0e3 op:. int:5`},
	}
	names := map[tkind]string{tIdent: "ident", tAlias: "alias", tKey: "key", tAtom: "atom", tString: "string", tCharlist: "charlist",
		tWords: "words", tSigil: "sigil", tInt: "int", tFloat: "float", tOp: "op", tBad: "bad"}
	for _, tt := range tests {
		lx := lex([]byte(tt.src), -1)
		var got []string
		for _, tk := range lx.toks {
			if tk.kind == tEOF {
				break
			}
			text := lx.text(&tk)
			switch tk.kind {
			case tString, tCharlist:
				if tk.unknown() {
					text = strings.Replace(text, "b", "#{...}b", 1)
				}
				text = strings.ReplaceAll(text, "\n", `\n`)
			case tWords:
				var ws []string
				for _, w := range lx.words[tk.text].words {
					ws = append(ws, w.Text)
				}
				text = strings.Join(ws, ",") + "/" + lx.words[tk.text].mod
			case tInt, tFloat, tBad:
				text = tt.src[tk.start:tk.end]
			}
			got = append(got, names[tk.kind]+":"+text)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("lex %q:\n got %s\nwant %s", tt.src, g, tt.want)
		}
	}
}

// TestTokenHoldsNoPointer keeps the token small and without pointers, so
// that a Parser's token buffer is never scanned by the garbage collector
// (the doc comment of token).
func TestTokenHoldsNoPointer(t *testing.T) {
	if n := unsafe.Sizeof(token{}); n > 20 {
		t.Errorf("a token is %d bytes, want at most 20", n)
	}
	typ := reflect.TypeFor[token]()
	for i := range typ.NumField() {
		switch f := typ.Field(i); f.Type.Kind() {
		case reflect.Int32, reflect.Uint8:
		default:
			t.Errorf("token.%s is a %s: a token holds only integers", f.Name, f.Type)
		}
	}
}

// TestSketchAttributeClosesBody: an attribute definition first on its line
// at the column of an unclosed `def ... do` closes that body as a `def`
// there does, for the container at the cursor too (positions/elixir
// cursor_parse.go block): the body's value stays the map being typed, and
// `@doc "b"` stays an attribute of the module. The body used to run on,
// its value the attribute, and completion offered nothing there.
func TestSketchAttributeClosesBody(t *testing.T) {
	src := "defmodule A do\n  def actions do\n    %{run: %{required: [‸\n  @doc \"b\"\n  def b, do: 2\nend\n"
	off := strings.Index(src, "‸")
	b := []byte(src[:off] + src[off+len("‸"):])
	s := NewSketch("file:///r.ex", b, off)
	checkSketch(t, "attribute", s, b, off)
	m := s.ModuleAt(off)
	if m == nil {
		t.Fatal("no module at the cursor")
	}
	var got []string
	for _, a := range m.Attrs {
		got = append(got, "@"+a.Name)
	}
	for _, d := range m.Defs {
		got = append(got, fmt.Sprintf("%s/%d %d-%d", d.Name, d.Arity, d.Span.Start, d.Span.End))
	}
	at := strings.Index(string(b), "@doc")
	want := fmt.Sprintf("@doc actions/0 17-%d b/0 %d-%d", at, at+11, at+23)
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got %q, want %q", g, want)
	}
	var kinds []string
	for _, st := range s.PathAt(off)[1:] {
		kinds = append(kinds, st.Expr.Kind.String())
	}
	if g := strings.Join(kinds, "|"); g != "block|call|block|map|map|list" {
		t.Errorf("path %q", g)
	}
}

// TestKindRanges keeps the order of the token kinds that the parser's
// in-line tests read as ranges: stops takes the kinds up to tIdent for
// tEOF and tIdent, startsExpr those from tAlias to tFloat for the literals,
// keys and aliases.
func TestKindRanges(t *testing.T) {
	for k := tEOF; k <= tBad; k++ {
		if got, want := k <= tIdent, k == tEOF || k == tIdent; got != want {
			t.Errorf("kind %d: k <= tIdent is %v", k, got)
		}
		literal := false
		switch k {
		case tAlias, tKey, tAtom, tString, tCharlist, tWords, tSigil, tInt, tFloat:
			literal = true
		}
		if got := k-tAlias <= tFloat-tAlias; got != literal {
			t.Errorf("kind %d: in the range tAlias..tFloat is %v", k, got)
		}
	}
}

// TestPlainStringAtDepthBound: a string item read by plainString, without
// expr, reads as expr reads a charlist at the same place, whatever the
// nesting, around maxParseDepth too (where expr makes an opaque group).
func TestPlainStringAtDepthBound(t *testing.T) {
	shape := func(src string) []string {
		var out []string
		for _, st := range NewSketch("file:///a.ex", []byte(src), -1).Stmts {
			Walk(st.Expr, func(x *Expr) bool {
				k := x.Kind
				if k == ExprCharlist {
					k = ExprString
				}
				out = append(out, fmt.Sprintf("%d %v %q", k, x.Span, x.Text))
				return true
			})
		}
		return out
	}
	opaque := 0
	for n := maxParseDepth/2 - 3; n <= maxParseDepth/2+3; n++ {
		for _, items := range []string{`"s", "t"`, `%{"k" => "v", "w" => 1}`, `"s" | "t"`, `"s"[0]`} {
			// A level is two depths; -[ makes the items' depth odd.
			for _, open := range []string{"[", "-["} {
				str := strings.Repeat("[", n) + open + items + "]" + strings.Repeat("]", n)
				chars := strings.ReplaceAll(str, `"`, `'`)
				got, want := shape(str), shape(chars)
				if !slices.Equal(got, want) {
					t.Fatalf("depth %d, %s%s: strings read\n%v\ncharlists\n%v", n, open, items, got, want)
				}
				for _, s := range got {
					if strings.HasPrefix(s, fmt.Sprintf("%d ", ExprOpaque)) {
						opaque++
					}
				}
			}
		}
	}
	if opaque == 0 {
		t.Fatal("no nesting reached the depth bound")
	}
}
