package elixir

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDecode checks the decoded text of string-like literals, read as the
// value of an attribute, against what Elixir produces.
func TestDecode(t *testing.T) {
	tests := []struct {
		name, lit string
		kind      ExprKind
		text      string
		unknown   bool
	}{
		{"plain", `"abc"`, ExprString, "abc", false},
		{"empty", `""`, ExprString, "", false},
		{"escapes", `"a\nb\tc\rd\se\\f\"g\#{h}\'"`, ExprString, "a\nb\tc\rd e\\f\"g#{h}'", false},
		{"control escapes", `"\a\b\d\e\f\v\0"`, ExprString, "\a\b\x7f\x1b\f\v\x00", false},
		{"hex", `"\x41\xff\x{1F600}"`, ExprString, "A\xff😀", false},
		{"unicode", `"\u00e9\u{1F600}\u{41}"`, ExprString, "é😀A", false},
		// Elixir's tokenizer rejects "\u{110000}" (TestBadEscapesWhereElixirReports),
		// not in a sigil, whose escapes are read when it compiles.
		{"bad unicode", `~s(\u{110000})`, ExprString, "\uFFFD", false},
		{"unknown escape is the char", `"\z\é"`, ExprString, "zé", false},
		{"line continuation", "\"a\\\nb\"", ExprString, "ab", false},
		{"literal newline", "\"a\nb\"", ExprString, "a\nb", false},
		{"invalid utf8 kept", "\"\xff\xfe\"", ExprString, "\xff\xfe", false},
		{"interpolation", `"a#{x}b"`, ExprString, "ab", true},
		{"interpolation keeps newline", `"a\n#{x}"`, ExprString, "a\n", true},
		{"nested interpolation", `"Item #{<<c>>} and #{"n#{1}"}"`, ExprString, "Item  and ", true},
		{"heredoc", "\"\"\"\n    one\n      two\n    \"\"\"", ExprString, "one\n  two\n", false},
		{"heredoc joins", "\"\"\"\n    one \\\n    two\n    \"\"\"", ExprString, "one two\n", false},
		{"heredoc less indented line", "\"\"\"\n  one\n    two\n    \"\"\"", ExprString, "one\ntwo\n", false},
		{"heredoc tabs", "\"\"\"\n\tone\n\t\"\"\"", ExprString, "one\n", false},
		{"heredoc blank line", "\"\"\"\n  a\n\n  b\n  \"\"\"", ExprString, "a\n\nb\n", false},
		{"heredoc interpolation", "\"\"\"\n  a #{x}\n  b\n  \"\"\"", ExprString, "a \nb\n", true},
		{"heredoc escapes", "\"\"\"\n  a\\tb\n  \"\"\"", ExprString, "a\tb\n", false},
		{"heredoc crlf", "\"\"\"\r\n  a\r\n  b \\\r\n  c\r\n  \"\"\"", ExprString, "a\nb c\n", false},
		{"string crlf kept", "\"a\r\nb\"", ExprString, "a\r\nb", false},
		{"heredoc at column 0", "\"\"\"\nx\n\"\"\"", ExprString, "x\n", false},
		{"sigil s", `~s(a\)b\n#{1})`, ExprString, "a)b\n", true},
		{"sigil s brackets", `~s[a "b"]`, ExprString, `a "b"`, false},
		{"sigil S raw", `~S(a\nb#{1})`, ExprString, `a\nb#{1}`, false},
		{"sigil S escaped delimiter", `~S(a\)b)`, ExprString, `a)b`, false},
		// A backslash pairs with the byte after it in a raw sigil too: `\\`
		// is two backslashes and escapes no delimiter after it (elixir:
		// ~S(a\\) is "a\\\\", ~S(\\\)) is "\\\\)").
		{"raw backslash pair", `~S(a\\)`, ExprString, `a\\`, false},
		{"raw pair then escaped delimiter", `~S(\\\))`, ExprString, `\\)`, false},
		{"raw charlist pair", `~C(a\\)`, ExprCharlist, `a\\`, false},
		{"sigil S heredoc", "~S\"\"\"\n  x\\n\n  \"\"\"", ExprString, "x\\n\n", false},
		{"sigil s heredoc", "~s\"\"\"\n  x\\n\n  \"\"\"", ExprString, "x\n\n", false},
		{"charlist", `'a\nb'`, ExprCharlist, "a\nb", false},
		{"charlist heredoc", "'''\n  ab\n  '''", ExprCharlist, "ab\n", false},
		{"sigil c", `~c"x\n"`, ExprCharlist, "x\n", false},
		{"sigil C", `~C"x\n"`, ExprCharlist, `x\n`, false},
		{"quoted atom", `:"a\nb"`, ExprAtom, "a\nb", false},
		{"quoted atom single", `:'a b'`, ExprAtom, "a b", false},
		{"interpolated atom", `:"a#{1}"`, ExprAtom, "a", true},
		{"atom", `:ok?`, ExprAtom, "ok?", false},
		{"operator atom", `:+`, ExprAtom, "+", false},
		{"other sigil", `~r/a/`, ExprOpaque, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "@s " + tt.lit + "\n"
			src = "defmodule A do\n" + src + "end\n"
			f := parse(t, src)
			if len(f.Modules) != 1 || len(f.Modules[0].Attrs) != 1 {
				t.Fatalf("no attribute in %q", src)
			}
			e := f.Modules[0].Attrs[0].Value
			if e.Kind != tt.kind || e.Text != tt.text || e.Unknown != tt.unknown {
				t.Fatalf("%s %q unknown=%v, want %s %q unknown=%v", e.Kind, e.Text, e.Unknown, tt.kind, tt.text, tt.unknown)
			}
			if got := slice(src, e.Span); got != tt.lit {
				t.Fatalf("span %q, want %q", got, tt.lit)
			}
			// Elixir rejects a file that is not UTF-8: one error, at the
			// first invalid byte; every other literal reads clean.
			if want := !utf8.ValidString(src); (len(f.Errors) == 1) != want || len(f.Errors) > 1 {
				t.Fatalf("syntax errors %v", f.Errors)
			}
		})
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		lit, mod string
		words    []string // "text@span text"
		unknown  bool
	}{
		{`~w(a b  c)`, "", []string{"a@a", "b@b", "c@c"}, false},
		{`~w(a b)a`, "a", []string{"a@a", "b@b"}, false},
		{`~w(a b)s`, "s", []string{"a@a", "b@b"}, false},
		{`~w(a b)c`, "c", []string{"a@a", "b@b"}, false},
		{`~w(a b)as`, "as", []string{"a@a", "b@b"}, false}, // Kernel.sigil_w raises: TestEvalLiterals
		{"~w\"\"\"\n  a\n  b\n  \"\"\"", "", []string{"a@a", "b@b"}, false},
		{`~w(a\sb c)`, "", []string{`a@a\sb`, `b@a\sb`, "c@c"}, false},
		{`~W(a\sb c)`, "", []string{`a\sb@a\sb`, "c@c"}, false},
		{`~w(a#{x} b)`, "", []string{"a#{x}@a#{x}", "b@b"}, true},
		{`~w()`, "", nil, false},
		// A backslash-CRLF joins the lines, as a backslash-newline does.
		{"~w(p\\\nq r)", "", []string{"pq@p\\\nq", "r@r"}, false},
		{"~w(p\\\r\nq r)", "", []string{"pq@p\\\r\nq", "r@r"}, false},
		// String.split/1 keeps the non-breaking spaces inside a word.
		{"~w(a\u00a0b c\u2003d e\u202ff\u2007g)", "", []string{"a\u00a0b@a\u00a0b", "c@c\u2003d", "d@c\u2003d", "e\u202ff\u2007g@e\u202ff\u2007g"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.lit, func(t *testing.T) {
			src := "defmodule A do\n  @s " + tt.lit + "\nend\n"
			f := parse(t, src)
			e := f.Modules[0].Attrs[0].Value
			if e.Kind != ExprWords || e.Text != tt.mod || e.Unknown != tt.unknown {
				t.Fatalf("%s mod %q unknown %v", e.Kind, e.Text, e.Unknown)
			}
			var got []string
			for _, w := range e.Words() {
				got = append(got, w.Text+"@"+slice(src, w.Span))
			}
			if strings.Join(got, "|") != strings.Join(tt.words, "|") {
				t.Fatalf("words %q, want %q", got, tt.words)
			}
		})
	}
}

// TestSpansAfterInterpolation checks that ranges after an interpolated
// bitstring and nested strings stay exact (docs/rules.md §4 "Ranges").
func TestSpansAfterInterpolation(t *testing.T) {
	src := "defmodule T do\n  use Wymcp.Tool\n  @x \"Item #{<<c>>} and #{\"n#{1}\"}\"\n  def actions, do: %{run: %{descripton: @x, properties: %{\"é🙂\" => %{}}}}\nend\n"
	ws := newWS(t, map[string]string{"file:///t.ex": src})
	r := ws.eval(t, "T")
	schema := r.Actions.Entries[0].Value
	checks := map[string]string{
		slice(src, spanOf(schema.Entries[0].Key.Origin)):                  "descripton",
		slice(src, spanOf(schema.Entries[0].Value.Origin)):                `"Item #{<<c>>} and #{"n#{1}"}"`,
		slice(src, spanOf(schema.Entries[1].Value.Entries[0].Key.Origin)): `"é🙂"`,
	}
	for got, want := range checks {
		if got != want {
			t.Errorf("span %q, want %q", got, want)
		}
	}
	if v := schema.Entries[0].Value; !v.Unknown || v.Text != "Item  and " {
		t.Errorf("interpolated value %q unknown=%v", v.Text, v.Unknown)
	}
}
