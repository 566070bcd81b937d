package elixir

import (
	"context"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// BenchmarkDeclarationGenerated times validate's Declaration alone on the
// values the reader evaluates from the generated 1,000-action tool (the
// bytes of BenchmarkReader), read and evaluated once: the validate share
// of BenchmarkReader/analysis, on values laid out as the evaluator lays
// them out.
func BenchmarkDeclarationGenerated(b *testing.B) {
	ctx := context.Background()
	f := NewParser().Parse(ctx, "file:///gen.ex", GenerateTool(1000))
	res := Evaluate(ctx, nil, f.Modules[0])
	v := validate.DefaultValidator()
	b.ReportAllocs()
	for b.Loop() {
		if offs := v.Declaration(res.Actions); len(offs) != 0 {
			b.Fatalf("offences on the generated tool: %v", offs[0])
		}
	}
}
