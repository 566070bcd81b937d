package elixir

import (
	"context"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// BenchmarkReader measures, in one run and over the same bytes (the
// generated 1,000-action tool module, about 13,000 lines and 535 KB):
//
//	lex       the lexer alone (the floor)
//	read      Parse: lexer, tolerant parser and syntax check
//	analysis  the full analysis: Parse + Evaluate + validate Declaration
//
// Target (docs/architecture.md "The Elixir reader"): analysis at most 2.5x
// lex.
func BenchmarkReader(b *testing.B) {
	src := GenerateTool(1000)
	ctx := context.Background()
	b.Run("lex", func(b *testing.B) {
		// The buffer and the interning map are kept from run to run, as a
		// Parser keeps them from file to file (read.go), so that lex is the
		// lexer exactly as the analysis below runs it.
		var buf []token
		names := newNames()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			buf = lexInto(src, 0, -1, buf, names).toks
		}
	})
	b.Run("read", func(b *testing.B) {
		p := NewParser()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if f := p.Parse(ctx, "file:///gen.ex", src); len(f.Modules) != 1 || len(f.Errors) != 0 {
				b.Fatal("not read")
			}
		}
	})
	b.Run("analysis", func(b *testing.B) {
		p := NewParser()
		v := validate.DefaultValidator()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			f := p.Parse(ctx, "file:///gen.ex", src)
			res := Evaluate(ctx, nil, f.Modules[0])
			if len(res.Actions.Entries) != 1000 {
				b.Fatalf("%d actions", len(res.Actions.Entries))
			}
			if offs := v.Declaration(res.Actions); len(offs) != 0 {
				b.Fatalf("offences on the generated tool: %v", offs[0])
			}
		}
	})
}

// BenchmarkReaderSmall is the full analysis (Parse + Evaluate + validate)
// of a 300-line tool module (23 generated actions), the size of the LSP's
// "median under 5 ms" target.
func BenchmarkReaderSmall(b *testing.B) {
	src := GenerateTool(23)
	ctx := context.Background()
	p := NewParser()
	v := validate.DefaultValidator()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		f := p.Parse(ctx, "file:///gen.ex", src)
		res := Evaluate(ctx, nil, f.Modules[0])
		if offs := v.Declaration(res.Actions); len(offs) != 0 {
			b.Fatalf("offences on the generated tool: %v", offs[0])
		}
	}
}
