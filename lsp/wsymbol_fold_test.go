package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWorkspaceSymbolsCaseFolding: a symbol holding a character whose
// lower case is written with more or fewer bytes (the Turkish "İ", two
// bytes, lowers to three; the Kelvin sign "K", three, to one) is matched
// like any other. The lowered text was indexed by the offsets of the
// original one: a query reaching past the shorter of the two panicked,
// and workspace/symbol failed (-32603) for the whole workspace.
func TestWorkspaceSymbolsCaseFolding(t *testing.T) {
	c := startWorkspace(t)
	ctx := testCtx(t)
	docs := map[string]string{
		"untitled:il":     "defmodule T do\n  use Wymcp.Tool\n  def name, do: \"tt\"\n  def actions, do: %{run: %{description: \"x\", properties: %{\"İl\" => %{}}}}\nend\n",
		"untitled:kelvin": "defmodule T2 do\n  use Wymcp.Tool\n  def name, do: \"\u212a\u212a\u212a\u212a\"\n  def actions, do: %{go: %{description: \"x\", properties: %{\"p\" => %{}}}}\nend\n",
	}
	for uri, text := range docs {
		if err := c.Open(uri, 1, text); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitVersion(ctx, uri, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ query, names string }{
		{"l", "tt.run.İl"},
		{"İl", "tt.run.İl"},
		{"go", "\u212a\u212a\u212a\u212a.go \u212a\u212a\u212a\u212a.go.p"},
		{"p", "\u212a\u212a\u212a\u212a.go.p"},
		{"\u212a\u212a", "T2.\u212a\u212a\u212a\u212a \u212a\u212a\u212a\u212a.go \u212a\u212a\u212a\u212a.go.p"},
	} {
		m, err := c.Call(ctx, "workspace/symbol", map[string]any{"query": tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if m.Error != nil {
			t.Errorf("%q: %s", tt.query, m.Raw)
			continue
		}
		var got []struct{ Name, ContainerName string }
		if err := json.Unmarshal(m.Result, &got); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, g := range got {
			names = append(names, g.ContainerName+"."+g.Name)
		}
		if strings.Join(names, " ") != tt.names {
			t.Errorf("%q: results %q, want %s", tt.query, names, tt.names)
		}
	}
}
