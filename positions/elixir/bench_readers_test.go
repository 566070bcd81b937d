package elixir

import (
	"context"
	"os"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// BenchmarkReaders is the one run, before tree-sitter left the project,
// of both readers' full analysis (read, evaluate, validate) over the same
// bytes: the generated 1,000-action tool and Elixir's own source
// (WYMCP_ELIXIR_SRC). Its output is recorded in the reader's report.
func BenchmarkReaders(b *testing.B) {
	ctx := context.Background()
	tool := GenerateTool(1000)
	tp := newTSParser()
	defer tp.Close()
	ts := func(uri string, src []byte) *File { return tp.parseTS(ctx, uri, src) }
	np := NewParser()
	tol := func(uri string, src []byte) *File { return np.Parse(ctx, uri, src) }
	v := validate.DefaultValidator()
	analyse := func(b *testing.B, read func(string, []byte) *File, files map[string][]byte, wantTool bool) {
		n := 0
		for _, s := range files {
			n += len(s)
		}
		b.SetBytes(int64(n))
		for b.Loop() {
			for uri, src := range files {
				f := read(uri, src)
				for _, m := range f.Modules {
					res := Evaluate(ctx, nil, m)
					if m.Tool {
						if wantTool && len(res.Actions.Entries) != 1000 {
							b.Fatalf("%d actions", len(res.Actions.Entries))
						}
						v.Declaration(res.Actions)
					}
				}
			}
		}
	}
	gen := map[string][]byte{"file:///gen.ex": tool}
	b.Run("tool/treesitter", func(b *testing.B) { analyse(b, ts, gen, true) })
	b.Run("tool/tolerant", func(b *testing.B) { analyse(b, tol, gen, true) })
	if os.Getenv("WYMCP_ELIXIR_SRC") == "" {
		return
	}
	corpus := map[string][]byte{}
	for _, p := range corpusFiles(b) {
		src, _ := os.ReadFile(p)
		corpus[p] = src
	}
	b.Run("corpus/treesitter", func(b *testing.B) { analyse(b, ts, corpus, false) })
	b.Run("corpus/tolerant", func(b *testing.B) { analyse(b, tol, corpus, false) })
}
