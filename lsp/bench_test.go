package lsp_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/workspace"
)

// BenchmarkDidChangeToPublish measures one incremental didChange on a
// 300-line tool module to its publishDiagnostics, through the in-process
// server: "fake" with a Fake analysis (the overhead lsp itself adds),
// "workspace" with the real analysis (docs/architecture.md "Performance targets": median under 5 ms).
// Reports the median and p95.
func BenchmarkDidChangeToPublish(b *testing.B) {
	b.Run("fake", func(b *testing.B) { benchDidChange(b, lsptest.NewFake(), small(), 150) })
	b.Run("workspace", func(b *testing.B) {
		benchDidChange(b, workspace.New(workspace.Options{Logger: zap.NewNop()}), small(), 150)
	})
	// The generated 1,000-action, 13,000-line tool module (docs/architecture.md "Performance targets":
	// median under 300 ms).
	b.Run("workspace-13k-lines", func(b *testing.B) {
		benchDidChange(b, workspace.New(workspace.Options{Logger: zap.NewNop()}), string(elixir.GenerateTool(1000)), 6000)
	})
}

// small is a 300-line tool module.
func small() string {
	var sb strings.Builder
	sb.WriteString("defmodule App.Tools.Bench do\n  use Wymcp.Tool\n  def actions do\n    %{\n")
	for i := 0; i < 293; i++ { // 300 lines in all
		fmt.Fprintf(&sb, "      a%d: %%{description: \"Action %d é\", properties: %%{}},\n", i, i)
	}
	sb.WriteString("    }\n  end\nend\n")
	return sb.String()
}

// benchDidChange opens src and times an insertion at the start of line
// editLine, to the publish of that version.
func benchDidChange(b *testing.B, an lsp.Analyzer, src string, editLine int) {
	c, ctx := openForBench(b, an, benchURI, src)
	uri := benchURI
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		start := time.Now()
		if err := c.ChangeText(uri, v, lsptest.Edit(editLine, 0, editLine, 0, " ")); err != nil {
			b.Fatal(err)
		}
		if _, err := c.WaitVersion(ctx, uri, v); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, times)
}

// benchURI is the document the benchmarks open.
const benchURI = "file:///bench/tool.ex"

// openForBench starts the in-process server over an, initializes it,
// opens src as uri and waits for its first publish.
func openForBench(b *testing.B, an lsp.Analyzer, uri, src string) (*lsptest.Client, context.Context) {
	b.Helper()
	c := lsptest.Start(b, lsp.Options{Analyzer: an, Logger: zap.NewNop()})
	ctx := testCtxB(b)
	if _, err := c.Initialize(ctx, nil); err != nil {
		b.Fatal(err)
	}
	if err := c.Open(uri, 1, src); err != nil {
		b.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, uri, 1); err != nil {
		b.Fatal(err)
	}
	return c, ctx
}

// reportLatency reports the median and p95 of times in microseconds.
func reportLatency(b *testing.B, times []time.Duration) {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds()), "p95-µs")
}

func testCtxB(b *testing.B) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	b.Cleanup(cancel)
	return ctx
}
