package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// startWorkspace starts the server on a real workspace with no folder and
// initializes it.
func startWorkspace(t *testing.T) *lsptest.Client {
	t.Helper()
	ws := workspace.New(workspace.Options{Logger: zap.NewNop()})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Logger: zap.NewNop()})
	if _, err := c.Initialize(testCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHoverFloodWithCancellation sends 1,000 hover requests on a real
// tool module and cancels every other one: each request gets exactly one
// answer, a hover result or -32800 (docs/architecture.md "Robustness").
func TestHoverFloodWithCancellation(t *testing.T) {
	c := startWorkspace(t)
	ctx := testCtx(t)
	const uri = "untitled:flood"
	if err := c.Open(uri, 1, small()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, uri, 1); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	chans := make([]<-chan *lsptest.Message, n)
	for i := 0; i < n; i++ {
		params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 4 + i%290, "character": 7}}
		ch, err := c.Send(json.RawMessage(fmt.Sprint(i+100)), "textDocument/hover", params)
		if err != nil {
			t.Fatal(err)
		}
		chans[i] = ch
		if i%2 == 1 {
			if err := c.Notify("$/cancelRequest", map[string]any{"id": i + 100}); err != nil {
				t.Fatal(err)
			}
		}
	}
	results, cancelled := 0, 0
	for i, ch := range chans {
		select {
		case m := <-ch:
			switch {
			case m.Error != nil && m.Error.Code == -32800:
				if i%2 == 0 {
					t.Errorf("request %d was not cancelled but got -32800", i+100)
				}
				cancelled++
			case m.Error != nil:
				t.Errorf("request %d: error %v", i+100, m.Error)
			default:
				if !strings.Contains(string(m.Result), `"contents"`) {
					t.Errorf("request %d: result %s", i+100, m.Result)
				}
				results++
			}
		case <-ctx.Done():
			t.Fatalf("request %d never answered", i+100)
		}
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if o := c.Orphans(); len(o) != 0 {
		t.Errorf("%d answers with no pending request (duplicates): %s", len(o), o[0].Raw)
	}
	if results < n/2 || results+cancelled != n {
		t.Errorf("%d results and %d cancelled of %d", results, cancelled, n)
	}
	t.Logf("%d answered, %d cancelled", results, cancelled)
}

// TestFiftyMiBMessage: a 50 MiB didOpen (over the 2 MiB analysis limit) is
// read, skipped by the analysis with a log line, and the server keeps
// answering (docs/architecture.md "Robustness").
func TestFiftyMiBMessage(t *testing.T) {
	ws := workspace.New(workspace.Options{Logger: zap.NewNop()})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Logger: zap.NewNop()})
	// Moving 50 MiB through JSON takes seconds under the race detector.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := c.Initialize(ctx, nil); err != nil {
		t.Fatal(err)
	}
	big := "defmodule Big do\n  use Wymcp.Tool\n  def actions, do: %{a: %{properties: %{}}}\nend\n" + strings.Repeat("# 50 MiB of padding ......................................................\n", 50<<20/72)
	if err := c.Open("untitled:big", 1, big); err != nil {
		t.Fatal(err)
	}
	p, err := c.WaitVersion(ctx, "untitled:big", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 0 {
		t.Errorf("a buffer over the size limit was analysed: %+v", p.Diagnostics)
	}
	m, err := c.Call(ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "untitled:big"}, "position": map[string]any{"line": 2, "character": 8}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Error != nil {
		t.Errorf("hover after the 50 MiB message: %v", m.Error)
	}
}
