package elixir

import (
	"context"
	"testing"
)

// BenchmarkEvaluate times Evaluate alone on the generated tool modules of
// BenchmarkReader (1,000 actions) and BenchmarkReaderSmall (23 actions),
// each read once: the evaluator's share of the analysis, with its
// allocations (-benchmem), on the expressions the parser lays out.
func BenchmarkEvaluate(b *testing.B) {
	for _, c := range []struct {
		name    string
		actions int
	}{{"1000", 1000}, {"23", 23}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			src := GenerateTool(c.actions)
			f := NewParser().Parse(ctx, "file:///gen.ex", src)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if res := Evaluate(ctx, nil, f.Modules[0]); len(res.Actions.Entries) != c.actions {
					b.Fatalf("%d actions", len(res.Actions.Entries))
				}
			}
		})
	}
}
