package lsp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/workspace"
)

// BenchmarkCompletionHover measures completion at a key position, hover
// on `required:` and document highlight on a property name in the middle of a 2,000-line tool module (154
// generated actions), each request through the in-process server over the
// real workspace (docs/architecture.md "Performance targets": median under 5 ms each). Reports
// the median and p95 of each.
func BenchmarkCompletionHover(b *testing.B) {
	src := elixir.GenerateTool(154) // 2,010 lines
	// A key position: just after `description: "...",` of the middle action.
	mid := strings.Index(string(src), "action_0077: %{")
	keyOff := mid + strings.Index(string(src[mid:]), "\n        properties:") + 1
	reqOff := mid + strings.Index(string(src[mid:]), "required:") + 3
	m := positions.NewMapper(src)
	pos := func(off int) lsp.Position {
		l, c := m.Position(off)
		return lsp.Position{Line: l, Character: c}
	}
	b.Run("completion", func(b *testing.B) {
		benchCursor(b, string(src), "textDocument/completion", pos(keyOff), `"label":"required_one_of"`)
	})
	b.Run("hover", func(b *testing.B) {
		benchCursor(b, string(src), "textDocument/hover", pos(reqOff), `Every listed field`)
	})
	// Document highlight, which editors ask for on every cursor move: on
	// the first property name in the middle action's :required, whose
	// declaration in :properties is a write.
	nameOff := mid + strings.Index(string(src[mid:]), "required: [\"") + len("required: [\"") + 1
	b.Run("highlight", func(b *testing.B) {
		benchCursor(b, string(src), "textDocument/documentHighlight", pos(nameOff), `"kind":3`)
	})
	// The same module while a key is half typed (`pro` without a value):
	// the parse has a syntax error, so the whole file is sketched
	// and evaluated again.
	broken := string(src[:keyOff]) + "        pro\n" + string(src[keyOff:])
	bm := positions.NewMapper([]byte(broken))
	l, ch := bm.Position(keyOff + len("        pro"))
	b.Run("completion-half-typed", func(b *testing.B) {
		benchCursor(b, broken, "textDocument/completion", lsp.Position{Line: l, Character: ch}, `"label":"required_one_of"`)
	})
}

// benchCursor opens src and times method at p, checking that each answer
// contains want.
func benchCursor(b *testing.B, src, method string, p lsp.Position, want string) {
	ws := workspace.New(workspace.Options{Logger: zap.NewNop()})
	b.Cleanup(ws.Close)
	const uri = "file:///bench/generated.ex"
	c, ctx := openForBench(b, ws, uri, src)
	params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		msg, err := c.Call(ctx, method, params)
		times = append(times, time.Since(start))
		if err != nil || msg.Error != nil || !strings.Contains(string(msg.Result), want) {
			b.Fatalf("%s: %v %v %.200s", method, err, msg.Error, msg.Result)
		}
	}
	b.StopTimer()
	reportLatency(b, times)
}

// oneLineTool returns a tool module whose actions/0 is written on one
// line: n actions `aI: %{description: "x", properties: %{}}`, then `end`
// on its own line (about 55 bytes per action: 1.1 MB for 20,000).
func oneLineTool(n int) string {
	var b strings.Builder
	b.WriteString("defmodule T do use Wymcp.Tool; def actions, do: %{")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "a%d: %%{description: \"x\", properties: %%{}}", i)
	}
	b.WriteString("}\nend\n")
	return b.String()
}

// BenchmarkCursorOneLine measures hover and completion in a 1.1 MB tool
// module written on one line (20,000 actions), through the in-process
// server over the real workspace: hover on the `description:` key of the
// middle action, completion at a key position of the last action, and
// hover on the `end` line after the long one. Reports the median and p95.
func BenchmarkCursorOneLine(b *testing.B) {
	src := oneLineTool(20000)
	m := positions.NewMapper([]byte(src))
	pos := func(off int) lsp.Position {
		l, c := m.Position(off)
		return lsp.Position{Line: l, Character: c}
	}
	mid := strings.Index(src, "a10000: %{") + len("a10000: %{") + 3
	last := strings.Index(src, "a19999: %{") + len("a19999: %{")
	b.Run("hover", func(b *testing.B) {
		benchCursor(b, src, "textDocument/hover", pos(mid), `description`)
	})
	b.Run("completion", func(b *testing.B) {
		benchCursor(b, src, "textDocument/completion", pos(last), `"label":"required"`)
	})
	b.Run("hover-end-line", func(b *testing.B) {
		benchCursor(b, src, "textDocument/hover", lsp.Position{Line: 1, Character: 1}, `null`)
	})
}
