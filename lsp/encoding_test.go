package lsp_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// emojiTool is a tool with CRLF line endings whose line 4 has an emoji
// before an unknown key:
// `    %{create: %{description: "🙂 make", exampel: [], properties: %{}}}`.
// `exampel` starts at byte 42 (UTF-16 unit 40: the emoji is 4 bytes, 2
// units) and ends at byte 49 (unit 47).
var emojiTool = strings.Join([]string{
	"defmodule App.Tools.Emoji do",
	`  use Wymcp.Tool; def name, do: "emoji"`,
	"",
	"  def actions do",
	`    %{create: %{description: "🙂 make", exampel: [], properties: %{"t" => %{}}, required: ["t"]}}`,
	"  end",
	"end",
	"",
}, "\r\n")

// TestPositionEncodings runs the same emoji and CRLF document through the
// server in each encoding a client can end up with: the initialize result
// names it, the diagnostic range, an incremental edit, a hover and a
// code action all count characters in it.
func TestPositionEncodings(t *testing.T) {
	tests := []struct {
		name       string
		offered    []string
		want       string
		start, end int // `exampel` on line 4
		t1, t2     int // the two `"t"` after the fix
	}{
		{"none offered", nil, "utf-16", 40, 47, 68, 92},
		{"utf-16 only", []string{"utf-16"}, "utf-16", 40, 47, 68, 92},
		{"utf-8 offered", []string{"utf-16", "utf-8"}, "utf-8", 42, 49, 70, 94},
		{"utf-8 preferred", []string{"utf-8", "utf-16"}, "utf-8", 42, 49, 70, 94},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			caps := map[string]any{}
			if tt.offered != nil {
				caps["general"] = map[string]any{"positionEncodings": tt.offered}
			}
			c, res := startRealWith(t, root, caps)
			ctx := testCtx(t)
			if want := `"positionEncoding":"` + tt.want + `"`; !strings.Contains(string(res), want) {
				t.Errorf("initialize result lacks %s: %s", want, res)
			}
			uri := workspace.PathURI(filepath.Join(root, "lib/emoji.ex"))
			if err := c.Open(uri, 1, emojiTool); err != nil {
				t.Fatal(err)
			}
			p, err := c.WaitVersion(ctx, uri, 1)
			if err != nil {
				t.Fatal(err)
			}
			wantRange := fmt.Sprintf(`{"start":{"line":4,"character":%d},"end":{"line":4,"character":%d}}`, tt.start, tt.end)
			if len(p.Diagnostics) != 1 {
				t.Fatalf("diagnostics: %+v", p.Diagnostics)
			}
			if got, _ := json.Marshal(p.Diagnostics[0].Range); string(got) != wantRange || p.Diagnostics[0].Code != "unknown-key" {
				t.Errorf("diagnostic %s at %s, want unknown-key at %s", p.Diagnostics[0].Code, got, wantRange)
			}

			// The quick fix's edit replaces exactly `exampel`.
			var actions []struct {
				Title string
				Edit  struct {
					Changes map[string][]struct {
						Range   json.RawMessage
						NewText string
					}
				}
			}
			err = c.Request(ctx, "textDocument/codeAction", map[string]any{
				"textDocument": map[string]string{"uri": uri},
				"range":        json.RawMessage(wantRange),
				"context":      map[string]any{"diagnostics": []any{}},
			}, &actions)
			if err != nil {
				t.Fatal(err)
			}
			if len(actions) == 0 || len(actions[0].Edit.Changes[uri]) != 1 {
				t.Fatalf("code actions: %+v", actions)
			}
			if e := actions[0].Edit.Changes[uri][0]; string(e.Range) != wantRange || e.NewText != "examples" {
				t.Errorf("quick fix %q edits %s to %q, want %s to \"examples\"", actions[0].Title, e.Range, e.NewText, wantRange)
			}

			// An incremental edit in the same units fixes the key.
			if err := c.ChangeText(uri, 2, lsptest.Edit(4, tt.start, 4, tt.end, "examples")); err != nil {
				t.Fatal(err)
			}
			if p, err = c.WaitVersion(ctx, uri, 2); err != nil || len(p.Diagnostics) != 0 {
				t.Fatalf("after the edit: %v %+v", err, p.Diagnostics)
			}

			// A hover inside the fixed key answers its range in the same units.
			var h struct{ Range json.RawMessage }
			err = c.Request(ctx, "textDocument/hover", map[string]any{
				"textDocument": map[string]string{"uri": uri},
				"position":     map[string]int{"line": 4, "character": tt.start + 2},
			}, &h)
			if err != nil {
				t.Fatal(err)
			}
			wantHover := fmt.Sprintf(`{"start":{"line":4,"character":%d},"end":{"line":4,"character":%d}}`, tt.start, tt.end+1)
			if string(h.Range) != wantHover {
				t.Errorf("hover range %s, want %s", h.Range, wantHover)
			}

			// References from the second "t", a rename, the outline and a
			// workspace symbol all count in the same units.
			rng := func(a int) string {
				return fmt.Sprintf(`{"start":{"line":4,"character":%d},"end":{"line":4,"character":%d}}`, a, a+3)
			}
			pos := map[string]any{"textDocument": map[string]string{"uri": uri}, "position": map[string]int{"line": 4, "character": tt.t2 + 1}}
			var refs []struct{ Range json.RawMessage }
			if err := c.Request(ctx, "textDocument/references", map[string]any{"textDocument": pos["textDocument"], "position": pos["position"], "context": map[string]bool{"includeDeclaration": true}}, &refs); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, string(r.Range))
			}
			if want := []string{rng(tt.t1), rng(tt.t2)}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("references %v, want %v", got, want)
			}
			var we struct {
				Changes map[string][]struct {
					Range   json.RawMessage
					NewText string
				}
			}
			if err := c.Request(ctx, "textDocument/rename", map[string]any{"textDocument": pos["textDocument"], "position": pos["position"], "newName": "u"}, &we); err != nil {
				t.Fatal(err)
			}
			got = nil
			for _, e := range we.Changes[uri] {
				got = append(got, string(e.Range)+"="+e.NewText)
			}
			if want := []string{rng(tt.t1) + `="u"`, rng(tt.t2) + `="u"`}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("rename edits %v, want %v", got, want)
			}
			var outline []struct {
				Children []struct {
					Children []struct {
						Name           string
						SelectionRange json.RawMessage
					}
				}
			}
			if err := c.Request(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": pos["textDocument"]}, &outline); err != nil {
				t.Fatal(err)
			}
			if len(outline) != 1 || len(outline[0].Children) != 1 || len(outline[0].Children[0].Children) != 1 ||
				string(outline[0].Children[0].Children[0].SelectionRange) != rng(tt.t1) {
				t.Errorf("outline %+v, want property t at %s", outline, rng(tt.t1))
			}
			// Completion inside the schema map of "t": the edit is at the cursor.
			var list struct {
				Items []struct {
					Label    string
					TextEdit struct{ Range json.RawMessage }
				}
			}
			at := tt.t1 + len(`"t" => %{`)
			if err := c.Request(ctx, "textDocument/completion", map[string]any{"textDocument": pos["textDocument"], "position": map[string]int{"line": 4, "character": at}}, &list); err != nil {
				t.Fatal(err)
			}
			wantAt := fmt.Sprintf(`{"start":{"line":4,"character":%d},"end":{"line":4,"character":%d}}`, at, at)
			if len(list.Items) == 0 || string(list.Items[0].TextEdit.Range) != wantAt {
				t.Errorf("completion %+v, want edits at %s", list.Items, wantAt)
			}
			var syms []struct {
				Name     string
				Location struct{ Range json.RawMessage }
			}
			if err := c.Request(ctx, "workspace/symbol", map[string]any{"query": "emoji.create.t"}, &syms); err != nil {
				t.Fatal(err)
			}
			if len(syms) == 0 || syms[0].Name != "t" || string(syms[0].Location.Range) != rng(tt.t1) {
				t.Errorf("workspace symbols %+v, want t at %s first", syms, rng(tt.t1))
			}
		})
	}
}
