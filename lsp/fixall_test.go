package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

const fixAllBefore = `defmodule App.Tools.Repair do
  use Wymcp.Tool; def name, do: "repair"

  def actions do
    %{
      run: %{descripton: "Run it", properties: %{"n" => %{"type" => "integer"}}},
      stop: %{description: "Stop", properties: %{}, exampel: []},
      move: %{description: "Move", properties: %{to: %{"type" => "string"}}}
    }
  end
end
`

const fixAllAfter = `defmodule App.Tools.Repair do
  use Wymcp.Tool; def name, do: "repair"

  def actions do
    %{
      run: %{description: "Run it", properties: %{"n" => %{"type" => "integer"}}},
      stop: %{description: "Stop", properties: %{}, examples: []},
      move: %{description: "Move", properties: %{"to" => %{"type" => "string"}}}
    }
  end
end
`

type lspEdit struct {
	Range   lsp.Range `json:"range"`
	NewText string    `json:"newText"`
}

type fixAction struct {
	Title       string            `json:"title"`
	Kind        string            `json:"kind"`
	IsPreferred bool              `json:"isPreferred"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
	Edit        struct {
		Changes map[string][]lspEdit `json:"changes"`
	} `json:"edit"`
}

// applyLSPEdits applies non-overlapping LSP edits (UTF-16 positions) to text.
func applyLSPEdits(t *testing.T, text string, edits []lspEdit) string {
	t.Helper()
	m := positions.NewMapper([]byte(text))
	type sp struct {
		s    positions.Span
		text string
	}
	var spans []sp
	for _, e := range edits {
		r := e.Range
		spans = append(spans, sp{m.Span(positions.Range{StartLine: r.Start.Line, StartChar: r.Start.Character, EndLine: r.End.Line, EndChar: r.End.Character}), e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].s.Start > spans[j].s.Start })
	for i := 1; i < len(spans); i++ {
		if spans[i].s.End > spans[i-1].s.Start {
			t.Fatalf("overlapping edits: %+v", spans)
		}
	}
	for _, e := range spans {
		text = text[:e.s.Start] + e.text + text[e.s.End:]
	}
	return text
}

// TestFixAllCodeAction: source.fixAll.wymcp is advertised, answers only
// when asked for (by its kind or a parent kind), and its one edit is the
// edits of the document's preferred quick fixes, which applied give the
// fixed text; on the fixed text there is nothing left to offer.
func TestFixAllCodeAction(t *testing.T) {
	root := t.TempDir()
	c, res := startRealWith(t, root, map[string]any{})
	ctx := testCtx(t)
	if !strings.Contains(string(res), `"codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll.wymcp"]}`) {
		t.Errorf("initialize result: %s", res)
	}
	uri := workspace.PathURI(filepath.Join(root, "lib/repair.ex"))
	if err := c.Open(uri, 1, fixAllBefore); err != nil {
		t.Fatal(err)
	}
	p, err := c.WaitVersion(ctx, uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range p.Diagnostics {
		codes = append(codes, d.Code)
	}
	if got := strings.Join(codes, ","); got != "missing-key,unknown-key,unknown-key,property-name-not-string" {
		t.Fatalf("diagnostics before: %s", got)
	}
	actions := func(only []string) []fixAction {
		t.Helper()
		params := map[string]any{
			"textDocument": map[string]string{"uri": uri},
			"range":        map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 11, "character": 0}},
			"context":      map[string]any{"diagnostics": []any{}},
		}
		if only != nil {
			params["context"].(map[string]any)["only"] = only
		}
		var out []fixAction
		if err := c.Request(ctx, "textDocument/codeAction", params, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Without "only", quick fixes alone (the light bulb).
	var preferred []lspEdit
	for _, a := range actions(nil) {
		if a.Kind != "quickfix" {
			t.Errorf("unasked-for action %q of kind %s", a.Title, a.Kind)
		}
		if a.IsPreferred {
			preferred = append(preferred, a.Edit.Changes[uri]...)
		}
	}
	for _, only := range [][]string{{"source.fixAll.wymcp"}, {"source.fixAll"}, {"source"}} {
		got := actions(only)
		if len(got) != 1 || got[0].Kind != "source.fixAll.wymcp" {
			t.Fatalf("only %v: %+v", only, got)
		}
		a := got[0]
		if a.Title != "Fix all wymcp problems (3 fixes)" || len(a.Diagnostics) != 3 || len(a.Edit.Changes) != 1 {
			t.Errorf("only %v: title %q, %d diagnostics, %d documents", only, a.Title, len(a.Diagnostics), len(a.Edit.Changes))
		}
		if fixed := applyLSPEdits(t, fixAllBefore, a.Edit.Changes[uri]); fixed != fixAllAfter {
			t.Errorf("only %v: the fix-all edit gives\n%s\nwant\n%s", only, fixed, fixAllAfter)
		}
		// The same edits as the preferred quick fixes (the missing-key fix
		// waits: renaming descripton supplies the key).
		want, _ := json.Marshal(sortedEdits(preferredExcept(preferred, `description: \"\"`)))
		if gotJSON, _ := json.Marshal(sortedEdits(a.Edit.Changes[uri])); string(gotJSON) != string(want) {
			t.Errorf("fix-all edits %s\nwant the quick fixes' %s", gotJSON, want)
		}
	}
	if got := actions([]string{"quickfix"}); len(got) == 0 || got[0].Kind != "quickfix" {
		t.Errorf("only quickfix: %+v", got)
	}
	if got := actions([]string{"refactor"}); len(got) != 0 {
		t.Errorf("only refactor: %+v", got)
	}

	// Apply it: the document is clean, and fix-all has nothing to offer.
	if err := c.ChangeText(uri, 2, lsptest.Full(fixAllAfter)); err != nil {
		t.Fatal(err)
	}
	if p, err = c.WaitVersion(ctx, uri, 2); err != nil || len(p.Diagnostics) != 0 {
		t.Fatalf("after fix-all: %v %+v", err, p.Diagnostics)
	}
	if got := actions([]string{"source.fixAll.wymcp"}); len(got) != 0 {
		t.Errorf("fix-all on a clean document: %+v", got)
	}
}

func preferredExcept(es []lspEdit, skip string) []lspEdit {
	var out []lspEdit
	for _, e := range es {
		b, _ := json.Marshal(e.NewText)
		if !strings.Contains(string(b), skip) {
			out = append(out, e)
		}
	}
	return out
}

func sortedEdits(es []lspEdit) []lspEdit {
	out := append([]lspEdit(nil), es...)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Character < b.Character
	})
	return out
}
