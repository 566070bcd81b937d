package workspace_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/workspace"
)

// BenchmarkDiagnoseSmall times one Diagnose after an edit of the
// 300-line tool module of lsp's BenchmarkDidChangeToPublish: the
// analysis part of a didChange, without the protocol around it.
func BenchmarkDiagnoseSmall(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("defmodule App.Tools.Bench do\n  use Wymcp.Tool\n  def actions do\n    %{\n")
	for i := 0; i < 293; i++ {
		fmt.Fprintf(&sb, "      a%d: %%{description: \"Action %d é\", properties: %%{}},\n", i, i)
	}
	sb.WriteString("    }\n  end\nend\n")
	src := []byte(sb.String())
	w := workspace.New(workspace.Options{Logger: zap.NewNop()})
	defer w.Close()
	const uri = "file:///bench/tool.ex"
	ctx := context.Background()
	w.SetOverlay(uri, 1, src)
	w.Diagnose(ctx)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.SetOverlay(uri, int32(i+2), src)
		w.Diagnose(ctx)
	}
}
