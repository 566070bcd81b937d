package lsp_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// TestPushedSettingsWinOverAnOlderPull: settings pushed with
// didChangeConfiguration while the server's workspace/configuration
// request is still unanswered are newer than that answer: the late answer
// is not applied over them (docs/architecture.md "LSP behaviour": only the
// newest answer applies). It was, and switched the lint back off.
func TestPushedSettingsWinOverAnOlderPull(t *testing.T) {
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws})
	ctx := testCtx(t)
	asked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c.OnRequest(func(method string, _ json.RawMessage) (any, *lsptest.ResponseError) {
		if method != "workspace/configuration" {
			return nil, nil
		}
		once.Do(func() { close(asked) })
		<-release
		return []any{map[string]any{"lints": map[string]bool{"lint/unknown-type": false}}}, nil
	})
	if _, err := c.Initialize(ctx, map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}}); err != nil {
		t.Fatal(err)
	}
	const uri = "untitled:race"
	if err := c.Open(uri, 1, "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-asked:
	case <-ctx.Done():
		t.Fatal("the server never asked for its settings")
	}
	on := func() bool {
		ps := c.Publishes(uri)
		return len(ps) > 0 && len(ps[len(ps)-1].Diagnostics) == 1 && ps[len(ps)-1].Diagnostics[0].Code == "lint/unknown-type"
	}
	if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wymcp": map[string]any{"lints": map[string]bool{"lint/unknown-type": true}}}}); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "lint on", on); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the late answer, were it applied, would publish by now
	if !on() {
		ps := c.Publishes(uri)
		t.Errorf("the older pulled settings won over the pushed ones: last publish %+v", ps[len(ps)-1])
	}
}
