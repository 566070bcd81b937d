package elixir

import "testing"

// BenchmarkSyntaxCheck measures the syntax check alone over the tokens of
// the generated 1,000-action tool module (BenchmarkReader's file, which
// Elixir reads without an error), next to the lexer over the same bytes and to the check before its
// single-pass rewrite (reference).
func BenchmarkSyntaxCheck(b *testing.B) {
	src := GenerateTool(1000)
	lx := lex(src, -1)
	b.Run("lex", func(b *testing.B) {
		var buf []token
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			buf = lexInto(src, 0, -1, buf, nil).toks
		}
	})
	b.Run("reference", func(b *testing.B) { // the check before its rewrite (syntax_ref_test.go)
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if e := refSyntaxCheck("file:///gen.ex", lx); e != nil {
				b.Fatal(e.Message)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if e := syntaxCheck("file:///gen.ex", lx); e != nil {
				b.Fatal(e.Message)
			}
		}
	})
}
