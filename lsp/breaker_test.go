package lsp_test

import (
	"strings"
	"testing"
)

// TestMalformedCapabilityKeepsTheOthers: a client capability of the wrong
// JSON type (a number among general.positionEncodings, a string where an
// array or a bool belongs) loses only the section it sits in; the rest,
// here pull diagnostics, still applies. Before, one bad value made the
// server assume no capabilities at all, so a pull-only client got
// MethodNotFound for textDocument/diagnostic and no diagnostics.
func TestMalformedCapabilityKeepsTheOthers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		general any
		enc     string
	}{
		{"number among the encodings", map[string]any{"positionEncodings": []any{7, "utf-8"}}, "utf-8"},
		{"null among the encodings", map[string]any{"positionEncodings": []any{nil, "utf-32", "utf-8"}}, "utf-8"},
		{"a string, not an array", map[string]any{"positionEncodings": "utf-8"}, "utf-16"},
		{"general not an object", "utf-8", "utf-16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps := map[string]any{
				"general":      tc.general,
				"window":       map[string]any{"workDoneProgress": "yes"},
				"textDocument": pullCaps["textDocument"],
			}
			c, res := startRealWith(t, t.TempDir(), caps)
			if want := `"positionEncoding":"` + tc.enc + `"`; !strings.Contains(string(res), want) {
				t.Errorf("initialize result lacks %s: %s", want, res)
			}
			const uri = "untitled:caps"
			if err := c.Open(uri, 1, "defmodule A do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"d\", properties: %{}, required: [\"q\"]}}\nend\n"); err != nil {
				t.Fatal(err)
			}
			m, err := c.Call(testCtx(t), "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}})
			if err != nil {
				t.Fatal(err)
			}
			if m.Error != nil || !strings.Contains(string(m.Result), `"code":"undeclared-field"`) || !strings.Contains(string(m.Result), `"start":{"line":2,"character":72}`) {
				t.Errorf("textDocument/diagnostic answered %s, want the undeclared-field report at 2:72", m.Raw)
			}
		})
	}
}
