package elixir

import "testing"

// BenchmarkSketch reads the generated 2,000-line tool module (154
// actions) with the cursor lexer alone and with the whole sketch.
func BenchmarkSketch(b *testing.B) {
	src := GenerateTool(154)
	b.Run("lex", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			lex(src, -1)
		}
	})
	b.Run("sketch", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			NewSketch("file:///g.ex", src, -1)
		}
	})
	b.Logf("%d bytes, %d tokens", len(src), len(lex(src, -1).toks))
}

// BenchmarkSketchAt is BenchmarkSketch for the skimming reader, with the
// cursor in the middle action.
func BenchmarkSketchAt(b *testing.B) {
	src := GenerateTool(154)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		NewSketchAt("file:///g.ex", src, len(src)/2)
	}
}
