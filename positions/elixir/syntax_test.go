package elixir

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var updateSyntax = flag.Bool("update-syntax", false, "rewrite testdata/syntax/positions.golden")

// lineCol returns the 1-based line and column (in bytes; the fixtures
// are ASCII, so bytes are Elixir's characters) of byte offset off.
func lineCol(src []byte, off int) (int, int) {
	line, col := 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// TestSyntaxErrorsWhereElixirReports reads every broken fixture of
// testdata/syntax and checks its one syntax error (README.md, the
// `syntax-error` code) against the positions pinned in positions.golden and,
// where elixir is installed, against Elixir's own parser: the error sits
// at the line:column Code.string_to_quoted/2 reports, or, for an opener
// Elixir names as left unclosed on an earlier line, on that opener's line
// (an unclosed `[` is shown at the `[`).
func TestSyntaxErrorsWhereElixirReports(t *testing.T) {
	files, _ := filepath.Glob("testdata/syntax/*.ex")
	sort.Strings(files)
	if len(files) < 15 {
		t.Fatalf("only %d fixtures", len(files))
	}
	var golden bytes.Buffer
	got := map[string][4]int{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := parse(t, string(src))
		if len(f.Errors) != 1 {
			t.Errorf("%s: %d syntax errors, want 1: %v", path, len(f.Errors), f.Errors)
			continue
		}
		e := f.Errors[0]
		if e.Span.Start >= e.Span.End {
			t.Errorf("%s: empty span %v", path, e.Span)
		}
		l, c := lineCol(src, e.Span.Start)
		al, ac := lineCol(src, e.At)
		got[filepath.Base(path)] = [4]int{l, c, al, ac}
		fmt.Fprintf(&golden, "%s %d:%d %q %s (Elixir: %d:%d)\n", filepath.Base(path), l, c, src[e.Span.Start:e.Span.End], e.Message, al, ac)
		// The tool module is still read, so its other offences are found.
		if len(f.Modules) == 0 || !f.Modules[0].Tool {
			t.Errorf("%s: the tool module is not read", path)
		}
	}
	gpath := filepath.Join("testdata", "syntax", "positions.golden")
	if *updateSyntax {
		if err := os.WriteFile(gpath, golden.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(gpath)
	if err != nil {
		t.Fatal(err)
	}
	if golden.String() != string(want) {
		t.Errorf("positions differ from %s (rerun with -update-syntax after checking against Elixir):\n%s", gpath, golden.String())
	}

	elixir, err := exec.LookPath("elixir")
	if err != nil {
		t.Skip("elixir is not installed: positions checked against positions.golden only (apt-get install elixir to compare with Elixir's parser)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*60e9)
	defer cancel()
	out, err := exec.CommandContext(ctx, elixir, append([]string{filepath.Join("testdata", "syntax", "elixir_errors.exs")}, files...)...).Output()
	if err != nil {
		t.Fatalf("elixir: %v", err)
	}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), " ", 4)
		if len(fields) < 2 {
			continue
		}
		name := fields[0]
		if fields[1] == "ok" {
			t.Errorf("%s: Elixir reads it: not a broken fixture", name)
			continue
		}
		seen++
		lc := strings.SplitN(fields[1], ":", 2)
		el, _ := strconv.Atoi(lc[0])
		ec, _ := strconv.Atoi(lc[1])
		opener, _ := strconv.Atoi(fields[2])
		g, ok := got[name]
		if !ok {
			continue
		}
		atElixir := g[0] == el && (ec == 0 || g[1] == ec)
		atOpener := opener > 0 && opener < el && g[0] == opener
		if !atElixir && !atOpener {
			t.Errorf("%s: error at %d:%d, Elixir reports %d:%d (opener line %s): %s", name, g[0], g[1], el, ec, fields[2], fields[3])
		}
		if g[2] != el || ec != 0 && g[3] != ec {
			t.Errorf("%s: SyntaxError.At is %d:%d, Elixir reports %d:%d", name, g[2], g[3], el, ec)
		}
	}
	if seen != len(files) {
		t.Errorf("Elixir reported %d of %d fixtures:\n%s", seen, len(files), out)
	}
}

// TestBadEscapesWhereElixirReports: Elixir's tokenizer rejects a `\x` or
// `\u` escape without its hex digits, or naming no valid code point, in a
// string, charlist, quoted atom or key (not in a sigil, whose escapes are
// read when it compiles); the reader decoded `"\x"` as "x" and reported
// nothing. The error is where Code.string_to_quoted/2 puts it (each row's
// want was checked with elixir 1.14: after the opening quote, at the
// token for a quoted atom or a heredoc), and it is the tokenizer's, so it
// wins over the parser's error `[1 2]` on the line before. The range runs
// to the end of the bad escape's `\x` or `\u`.
func TestBadEscapesWhereElixirReports(t *testing.T) {
	for _, tt := range []struct{ src, at, text string }{
		{`"\x"`, "2:6", `\x`},
		{`"abc\xg"`, "2:6", `abc\x`},
		{`"\x{}"`, "2:6", `\x`},
		{`"\x{FFFFFFF}"`, "2:6", `\x`},
		{`"\x{110000}"`, "2:6", `\x`},
		{`"\u12"`, "2:6", `\u`},
		{`"\u{}"`, "2:6", `\u`},
		{`"\u{D800}"`, "2:6", `\u`},
		{`"\uD800"`, "2:6", `\u`},
		{`"\u{41"`, "2:6", `\u`},
		{`'a\x'`, "2:6", `a\x`},
		{`:"a\x"`, "2:5", `:"a\x`},
		{`["a\x": 1]`, "2:7", `a\x`},
		{`"a#{1}\x"`, "2:6", `a#{1}\x`},
		{"\"\"\"\n  ab\\x\n  \"\"\"", "2:5", `"`},
		{`"\xF"`, "", ""},
		{`"\x{41}"`, "", ""},
		{`"\u0041"`, "", ""},
		{`"\u{1F600}"`, "", ""},
		{`"a\\x"`, "", ""},
		{`~s(a\x)`, "", ""},
		{`~c(\u)`, "", ""},
	} {
		src := "x = [1 2]\ny = " + tt.src + "\n"
		f := parse(t, src)
		if len(f.Errors) != 1 {
			t.Errorf("%s: errors %v, want one", tt.src, f.Errors)
			continue
		}
		e := f.Errors[0]
		l, c := lineCol([]byte(src), e.At)
		if tt.at == "" {
			if l != 1 {
				t.Errorf("%s: error at %d:%d (%s), want the parser's at 1:8", tt.src, l, c, e.Message)
			}
			continue
		}
		if got := fmt.Sprintf("%d:%d", l, c); got != tt.at || e.Span.Start != e.At || slice(src, e.Span) != tt.text {
			t.Errorf("%s: error at %s over %q (%s), want %s over %q", tt.src, got, slice(src, e.Span), e.Message, tt.at, tt.text)
		}
	}
}

// TestNumberAfterADot: a dot takes a name or a parenthesised call, never a
// number, so `1.0.0` and `x.1` are the parser's error at the number (each
// row's position checked with elixir 1.14's Code.string_to_quoted/2); the
// reader read them without an error.
func TestNumberAfterADot(t *testing.T) {
	for _, tt := range []struct{ src, at string }{
		{"y = x.1", "1:7"},
		{"y = x . 1", "1:9"},
		{"y = x.\n1", "2:1"},
		{"y = Foo.1", "1:9"},
		{`y = "a".1`, "1:9"},
		{"y = 1.0.0", "1:9"},
		{"y = x.1.0", "1:7"},
		{"y = x.?a", "1:7"},
		{"y = x.0x1", "1:7"},
		{"y = x.(1)", ""},
		{"y = 1..2", ""},
	} {
		src := tt.src + "\n"
		if got, errs := firstErrorAt(t, src); got != tt.at {
			t.Errorf("%q: error at %q (%v), want %q", tt.src, got, errs, tt.at)
		}
	}
}

// TestKeywordKeyNeedsASpace: Elixir's tokenizer rejects a keyword key
// whose colon no space, tab or newline follows (`description:"x"`, at the
// key: "keyword argument must be followed by space"; after a quoted key,
// or at the end of the file, the colon is an unexpected token), and a form
// feed or a vertical tab in code. Being the tokenizer's, the error wins
// over the parser's `[1 2]` on the line before. Each row's position was
// checked with elixir 1.14's Code.string_to_quoted/2; the reader read
// them all without an error.
func TestKeywordKeyNeedsASpace(t *testing.T) {
	for _, tt := range []struct{ src, at string }{
		{`%{a:1}`, "2:7"},
		{`%{description:"x"}`, "2:7"},
		{`[a:b]`, "2:6"},
		{`f(a:1)`, "2:7"},
		{"%{a:\v1}", "2:7"},
		{"%{a:\f 1}", "2:7"},
		{"%{a:# c\n1}", "2:7"},
		{"%{a:\u00a01}", "2:7"},
		{`[a:]`, "2:6"},
		{`%{"a":1}`, "2:10"},
		{`%{"a b":1}`, "2:12"},
		{"[a:", "2:7"},
		{"1\f", "2:6"},
		{"\f1", "2:5"},
		{"%{a:\t1}", "1:8"},
		{"%{a:\n1}", "1:8"},
		{"%{a:\r\n1}", "1:8"},
		{"%{a::b}", "1:8"},
	} {
		src := "x = [1 2]\ny = " + tt.src
		if !strings.HasSuffix(src, ":") {
			src += "\n"
		}
		if got, errs := firstErrorAt(t, src); got != tt.at {
			t.Errorf("%q: error at %q (%v), want %q", tt.src, got, errs, tt.at)
		}
	}
}

// TestIdentifierCharacters: Elixir's tokenizer rejects `a@b` ("invalid
// character "@" in identifier"), an alias ending in ? or ! (`Abc?`) and
// an alias that is not ASCII (`Á`), at the token, before the parser's
// error `[1 2]` on the line before; the same as atoms and keys are fine.
// Each row's position was checked with elixir 1.14; the reader read them
// without an error, and `:a@b` as `:a` and `@b`.
func TestIdentifierCharacters(t *testing.T) {
	for _, tt := range []struct{ src, at string }{
		{"a@b", "2:5"},
		{"Abc@d", "2:5"},
		{"Abc?", "2:5"},
		{"Abc!", "2:5"},
		{"Foo.Abc?", "2:9"},
		{"Abc?()", "2:5"},
		{"\u00c1", "2:5"},
		{"\u00c9a", "2:5"},
		{"Foo.bar?", "1:8"},
		{":a@b", "1:8"},
		{"a @b", "1:8"},
		{"a\u00c1", "1:8"},
		{":\u00c1", "1:8"},
		{"[\u00c1: 1]", "1:8"},
		{"%{Abc?: 1}", "1:8"},
		// Keys with @ and the key % are fine (Elixir's own
		// string_tokenizer_test.exs and map_test.exs write them).
		{"[a@b: 1]", "1:8"},
		{"[\u00f3l@!: 0]", "1:8"},
		{"[a@@!: 1]", "1:8"},
		{"[\u00c1@: 1]", "1:8"},
		{"[%: :%{}]", "1:8"},
		{"a@b: 1", "1:8"},
	} {
		src := "x = [1 2]\ny = " + tt.src + "\n"
		if got, errs := firstErrorAt(t, src); got != tt.at {
			t.Errorf("%q: error at %q (%v), want %q", tt.src, got, errs, tt.at)
		}
	}
}

// firstErrorAt parses src and returns the 1-based line:column of its
// syntax error ("" for none), with the errors.
func firstErrorAt(t *testing.T, src string) (string, []SyntaxError) {
	t.Helper()
	f := parse(t, src)
	if len(f.Errors) == 0 {
		return "", nil
	}
	l, c := lineCol([]byte(src), f.Errors[0].At)
	return fmt.Sprintf("%d:%d", l, c), f.Errors
}

// TestOperandMissingAtTheEnd: a comma, or a binary, prefix or word
// operator (lexed.prefixOp's), before a closer, an `end` or the end of the file leaves an
// operand missing. Elixir reports it at the closer or `end`, and, at the
// end of the file, at the comma or operator itself (`x not in` at its
// not); each row's position was checked with elixir 1.14's
// Code.string_to_quoted/2 (columns are 1-based). A trailing comma in a
// list and a word after a dot (`x.in`) are no error. Before, all of these
// were read as whole files.
func TestOperandMissingAtTheEnd(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // line:column, "" for none
	}{
		{"foo x,", "1:6"},
		{"x and", "1:3"},
		{"x not in", "1:3"},
		{"x ||", "1:3"},
		{"x when", "1:3"},
		{"foo x,\nend", "2:1"},
		{"f(x and)", "1:8"},
		{"[x or]", "1:6"},
		{"f(!)", "1:4"},
		{"{1, not}", "1:8"},
		{"defmodule A do\n  def f(x) do\n    x = &\n  end\nend\n", "4:3"},
		{"defmodule A do\n  def f(x) do\n    ^\n  end\nend\n", "4:3"},
		{"[a: 1,]", ""},
		{"f(x.in)", ""},
		{"x..", "1:2"},
		{"f(x..)", "1:6"},
		{"f(..)", ""},
		{"[1, ..]", ""},
	} {
		if got := checkAt(tc.src); got != tc.want {
			t.Errorf("%q: error at %q, want %q", tc.src, got, tc.want)
		}
	}
}

// checkAt returns where the syntax check puts src's error, as the
// 1-based line:column of SyntaxError.At, or "" when it finds none.
func checkAt(src string) string {
	e := syntaxCheck("file:///x.ex", lex([]byte(src), -1))
	if e == nil {
		return ""
	}
	l, c := lineCol([]byte(src), e.At)
	return fmt.Sprintf("%d:%d", l, c)
}

// TestOperandMissingBeforeAnOperator: an operator that takes a left
// operand, met where none was written (after an opening bracket, a comma,
// a keyword key or another operator), is itself the error Elixir reports
// (`f(x, in)` at the in, `x = not in y` at the not), a keyword list
// cannot open a tuple or bitstring (`{a: 1}` at the key), and the full
// range `..` takes no operand (`f(..y)` at the y). Operators named with
// their arity (`h(== / 2)`), captures, a stab clause in parentheses and
// maps or structs stay readable. Each want is Elixir 1.14's
// Code.string_to_quoted/2 position; where elixir is installed the test
// asks it again.
func TestOperandMissingBeforeAnOperator(t *testing.T) {
	cases := []struct {
		src  string
		want string // line:column, "" when Elixir reads it
	}{
		{"f(x, in)", "1:6"},
		{"f(x, and)", "1:6"},
		{"[1, when]", "1:5"},
		{"%{a: in}", "1:6"},
		{"{a, ->}", "1:5"},
		{"(* 2)", "1:2"},
		{"f(x,\n |> y)", "2:2"},
		{"x + * y", "1:5"},
		{"%{=> 1}", "1:3"},
		{"%{| a: 1}", "1:3"},
		{"x = == y", "1:5"},
		{"[->]", "1:2"},
		{"f(->)", "1:3"},
		{"f(do: ->)", "1:7"},
		{"f(x, \\\\ 1)", "1:6"},
		{"<<when>>", "1:3"},
		{"x = not in y", "1:5"},
		{"a and or b", "1:7"},
		{"f(x, .y)", "1:6"},
		{"x |>\n  .y", "2:3"},
		{"{a: 1}", "1:2"},
		{"f({a: 1})", "1:4"},
		{"x = {\n a: 1\n}", "2:2"},
		{"<<a: 1>>", "1:3"},
		{"f(x, ..y)", "1:8"},
		{"x = .. 1", "1:8"},
		{"f(..%{})", "1:5"},
		{"f(when / when)", "1:10"},
		{"f(x, / 2)", "1:6"},
		{"f(x in)", "1:7"},
		{"x = in", "1:5"},
		{"&*/2", ""},
		{"Kernel.*(1, 2)", ""},
		{"f(&+/2, &and/2)", ""},
		{"h(== / 2)", ""},
		{"f(not in / 2)", ""},
		{"f(x, == /2)", ""},
		{"x not in y", ""},
		{"x = -1", ""},
		{"f(x, not y)", ""},
		{"(-> 1)", ""},
		{"fn () -> 1 end", ""},
		{"fn -> 1 end", ""},
		{"foo do: -> end", "1:12"},
		{"x.and", ""},
		{"import Kernel, except: [+: 2]", ""},
		{"%{a | b: 1}", ""},
		{"%S{a: 1}", ""},
		{"%m{a: 1}", ""},
		{"%S.T{a: 1}", ""},
		{"%unquote(s){a: 1}", ""},
		{"%:\"Elixir.S\"{a: 1}", ""},
		{"{1, a: 1}", ""},
		{"f(..)", ""},
		{"f(..[1])", ""},
		{"[.., 1]", ""},
		{"x = ..", ""},
		{"f(x, ...)", ""},
		{"fn x when x > 0 -> x end", ""},
		{"def f(a, b \\\\ 1), do: 1", ""},
	}
	for _, tc := range cases {
		if got := checkAt(tc.src + "\n"); got != tc.want {
			t.Errorf("%q: error at %q, want %q", tc.src, got, tc.want)
		}
	}

	elixir, err := exec.LookPath("elixir")
	if err != nil {
		t.Skip("elixir is not installed: positions checked against the table only")
	}
	dir := t.TempDir()
	var files []string
	for i, tc := range cases {
		f := filepath.Join(dir, fmt.Sprintf("case%02d.ex", i))
		if err := os.WriteFile(f, []byte(tc.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*60e9)
	defer cancel()
	out, err := exec.CommandContext(ctx, elixir, append([]string{filepath.Join("testdata", "syntax", "elixir_errors.exs")}, files...)...).Output()
	if err != nil {
		t.Fatalf("elixir: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("elixir printed %d lines for %d cases:\n%s", len(lines), len(cases), out)
	}
	for i, line := range lines {
		fields := strings.Fields(line)
		want := ""
		if fields[1] != "ok" {
			want = fields[1]
		}
		if want != cases[i].want {
			t.Errorf("%q: Elixir reports %q, the table says %q", cases[i].src, want, cases[i].want)
		}
	}
}
