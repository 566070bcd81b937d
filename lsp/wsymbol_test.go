package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

// TestWorkspaceSymbols queries workspace/symbol over the example project
// with an open buffer holding one more tool: exact symbols (kind, range,
// container) with the best match first.
func TestWorkspaceSymbols(t *testing.T) {
	root := copyExample(t)
	c := startReal(t, root)
	ctx := testCtx(t)
	notes := workspace.PathURI(filepath.Join(root, "lib/app/tools/notes.ex"))
	schemas := workspace.PathURI(filepath.Join(root, "lib/app/tools/schemas.ex"))
	tasks := workspace.PathURI(filepath.Join(root, "lib/app/tools/tasks.ex"))
	if _, err := c.WaitPublish(ctx, notes, nil); err != nil {
		t.Fatal(err)
	}
	// A buffer never saved: its tool is found too.
	draft := workspace.PathURI(filepath.Join(root, "lib/app/tools/draft.ex"))
	if err := c.Open(draft, 1, "defmodule App.Tools.Draft do\n  use Wymcp.Tool\n  def name, do: \"drafts\"\n  def actions, do: %{create_draft: %{description: \"d\", properties: %{\"title\" => %{\"type\" => \"string\"}}}}\nend\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, draft, 1); err != nil {
		t.Fatal(err)
	}
	loc := func(uri string, l, sc, ec int) string {
		return `{"uri":"` + uri + `","range":{"start":{"line":` + itoa(l) + `,"character":` + itoa(sc) + `},"end":{"line":` + itoa(l) + `,"character":` + itoa(ec) + `}}}`
	}
	createAction := `{"name":"create","kind":6,"location":` + loc(schemas, 31, 17, 23) + `,"containerName":"tasks"}`
	tests := []struct {
		query string
		first []string // the first results, exactly
		names string   // every result's container.name, in order ("" to skip)
	}{
		{"tasks.create", []string{createAction}, ""},
		{"create", []string{createAction, `{"name":"create_draft","kind":6,"location":` + loc(draft, 3, 21, 33) + `,"containerName":"drafts"}`}, ""},
		{"TASKS", []string{`{"name":"tasks","kind":2,"location":` + loc(tasks, 0, 10, 25) + `,"containerName":"App.Tools.Tasks"}`}, ""},
		{"App.Tools.Notes", []string{`{"name":"notes","kind":2,"location":` + loc(notes, 0, 10, 25) + `,"containerName":"App.Tools.Notes"}`}, ""},
		{"notify", []string{`{"name":"notify","kind":7,"location":` + loc(schemas, 13, 26, 34) + `,"containerName":"tasks.create.opts"}`}, "tasks.create.opts.notify"},
		{"title", []string{`{"name":"title","kind":7,"location":` + loc(draft, 3, 69, 76) + `,"containerName":"drafts.create_draft"}`}, "drafts.create_draft.title"},
		{"srchq", nil, "search.query search.query.q search.query.filters"},
		{"zzz", nil, ""},
	}
	for _, tt := range tests {
		m, err := c.Call(ctx, "workspace/symbol", map[string]any{"query": tt.query})
		if err != nil {
			t.Fatal(err)
		}
		if m.Error != nil {
			t.Fatalf("%q: %s", tt.query, m.Raw)
		}
		var got []json.RawMessage
		if err := json.Unmarshal(m.Result, &got); err != nil {
			t.Fatal(err)
		}
		if tt.query == "zzz" && string(m.Result) != "[]" {
			t.Errorf("%q: %s, want []", tt.query, m.Result)
		}
		for i, want := range tt.first {
			if i >= len(got) || string(got[i]) != want {
				t.Errorf("%q result %d:\n got %s\nwant %s", tt.query, i, nth(got, i), want)
			}
		}
		if tt.names != "" {
			var names []string
			for _, g := range got {
				var s struct{ Name, ContainerName string }
				_ = json.Unmarshal(g, &s)
				names = append(names, s.ContainerName+"."+s.Name)
			}
			if strings.Join(names, " ") != tt.names {
				t.Errorf("%q: results %v, want %s", tt.query, names, tt.names)
			}
		}
	}
}

func nth(ms []json.RawMessage, i int) string {
	if i < len(ms) {
		return string(ms[i])
	}
	return "(none)"
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
