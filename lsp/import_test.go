package lsp_test

import (
	"strings"
	"testing"
)

// TestImportedCall: with `import App.Schemas`, the local call all() is
// App.Schemas.all/0: its offences are reported in schemas.ex, definition
// goes to the def, hover shows its value, and the def's references hold
// the call.
func TestImportedCall(t *testing.T) {
	files := map[string]string{
		"lib/tool.ex": `defmodule App.Tool do
  use Wymcp.Tool
  import App.Schemas, only: [all: 0]
  def name, do: "tasks"
  def actions, do: all()
end
`,
		"lib/schemas.ex": `defmodule App.Schemas do
  def all do
    %{list: %{descripton: "List tasks.", properties: %{}}}
  end
end
`,
	}
	got := diagnosticsOf(t, files)
	want := []string{
		`lib/schemas.ex|missing-key|action :list: missing mandatory key :description; fix: add description: "..."`,
		`lib/schemas.ex|unknown-key|action :list: unknown key :descripton; fix: did you mean :description?`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cl, docs := curOpen(t, files)
	tool, schemas := docs["lib/tool.ex"], docs["lib/schemas.ex"]
	allDef := rangeOf(t, schemas, "def ", "all", 0, 0)
	allCall := rangeOf(t, tool, "def actions", "all()", 0, 0)
	call := at(t, tool, "def actions", "all()", 1)
	if got := locsAt(t, cl, "textDocument/definition", call, nil); strings.Join(got, " ") != allDef {
		t.Errorf("definition %q, want %q", got, allDef)
	}
	if h := hoverAt(t, cl, call); h == nil || !strings.Contains(h.Contents.Value, "descripton") {
		t.Errorf("hover %+v, want the value of App.Schemas.all()", h)
	}
	refs := locsAt(t, cl, "textDocument/references", at(t, schemas, "def ", "all", 1), map[string]any{"context": map[string]any{"includeDeclaration": true}})
	if strings.Join(refs, " ") != allDef+" "+allCall {
		t.Errorf("references %q, want %q", refs, []string{allDef, allCall})
	}
}

// TestImportedBareName: a bare imported name (`all`, no parentheses; Elixir
// 1.14 calls it, with a warning) has the call's definition and hover.
func TestImportedBareName(t *testing.T) {
	files := map[string]string{
		"lib/tool.ex": `defmodule App.Tool do
  use Wymcp.Tool
  import App.Schemas
  def actions, do: all
end
`,
		"lib/schemas.ex": `defmodule App.Schemas do
  def all, do: %{list: %{descripton: "List.", properties: %{}}}
end
`,
	}
	cl, docs := curOpen(t, files)
	tool, schemas := docs["lib/tool.ex"], docs["lib/schemas.ex"]
	allDef := rangeOf(t, schemas, "def ", "all", 0, 0)
	name := at(t, tool, "def actions, do: ", "all", 1)
	if got := locsAt(t, cl, "textDocument/definition", name, nil); strings.Join(got, " ") != allDef {
		t.Errorf("definition %q, want %q", got, allDef)
	}
	if h := hoverAt(t, cl, name); h == nil || !strings.Contains(h.Contents.Value, "descripton") {
		t.Errorf("hover %+v, want the value of App.Schemas.all()", h)
	}
}
