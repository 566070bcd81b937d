package lsp_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// TestBadSettingsWarnOnce: editor settings naming no lint (a code without
// its lint/ prefix, an error code) or giving a switch that is not a
// boolean get one window/showMessage warning naming each (README.md "Lint
// switches"), while the good switch still applies; the same settings
// applied again show nothing more, and different mistakes are shown anew.
func TestBadSettingsWarnOnce(t *testing.T) {
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws})
	ctx := testCtx(t)
	bad := map[string]any{"lints": map[string]any{"unknown-type": false, "undeclared-field": false, "lint/duplicate-key": "no", "lint/unknown-type": false}}
	c.OnRequest(func(method string, _ json.RawMessage) (any, *lsptest.ResponseError) {
		if method == "workspace/configuration" {
			return []any{bad}, nil
		}
		return nil, nil
	})
	if _, err := c.Initialize(ctx, map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}}); err != nil {
		t.Fatal(err)
	}
	const uri = "untitled:settings"
	if err := c.Open(uri, 1, "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"); err != nil {
		t.Fatal(err)
	}
	first := "wymcp-ls: ignoring editor settings wymcp.lints: the value of lint/duplicate-key must be true or false, got \"no\"; " +
		"\"undeclared-field\" is an error, where Wymcp itself raises, not a lint: it cannot be switched off; " +
		"unknown lint \"unknown-type\" (did you mean lint/unknown-type? every lint code starts with lint/)"
	err := c.WaitFor(ctx, "the warning, and lint/unknown-type off", func() bool {
		ps := c.Publishes(uri)
		return len(c.Notifications("window/showMessage")) == 1 && len(ps) > 0 && len(ps[len(ps)-1].Diagnostics) == 0
	})
	if err != nil {
		t.Fatal(err)
	}
	// The same settings pushed again: no second warning. Then others.
	if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wymcp": bad}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wymcp": map[string]any{"lints": map[string]any{"lint/unknwon-type": false}}}}); err != nil {
		t.Fatal(err)
	}
	second := "wymcp-ls: ignoring editor settings wymcp.lints: unknown lint \"lint/unknwon-type\" (did you mean lint/unknown-type?)"
	if err := c.WaitFor(ctx, "the second warning", func() bool { return len(c.Notifications("window/showMessage")) >= 2 }); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := shownMessages(t, c, 2), []string{first, second}; !slices.Equal(got, want) {
		t.Errorf("warnings:\n%q\nwant\n%q", got, want)
	}
}
