package lsp_test

import (
	"strings"
	"testing"
)

// delegateFiles is a tool whose actions/0 and name/0 are defdelegates
// into another file, which holds a typo.
var delegateFiles = map[string]string{
	"lib/tool.ex": `defmodule App.Tool do
  use Wymcp.Tool
  alias App.Schemas
  defdelegate name, to: Schemas, as: :tool_name
  def description, do: "Tasks."
  defdelegate actions, to: Schemas, as: :all
  def run_action(_a, _p, _c), do: {:ok, %{}}
end
`,
	"lib/schemas.ex": `defmodule App.Schemas do
  def tool_name, do: "tasks"
  def all do
    %{list: %{descripton: "List tasks.", properties: %{}}}
  end
end
`,
}

// TestDefdelegateActions: an actions/0 written as a defdelegate is
// checked like the def it defines, and the cursor features follow it.
func TestDefdelegateActions(t *testing.T) {
	got := diagnosticsOf(t, delegateFiles)
	want := []string{
		`lib/schemas.ex|missing-key|action :list: missing mandatory key :description; fix: add description: "..."`,
		`lib/schemas.ex|unknown-key|action :list: unknown key :descripton; fix: did you mean :description?`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	cl, docs := curOpen(t, delegateFiles)
	tool, schemas := docs["lib/tool.ex"], docs["lib/schemas.ex"]
	allDef := rangeOf(t, schemas, "def ", "all", 0, 0)
	if got := locsAt(t, cl, "textDocument/definition", at(t, tool, "defdelegate actions", ":all", 2), nil); strings.Join(got, " ") != allDef {
		t.Errorf("definition at as: :all %q, want %q", got, allDef)
	}
	h := hoverAt(t, cl, at(t, tool, "defdelegate actions", ":all", 2))
	if h == nil || !strings.Contains(h.Contents.Value, "descripton") {
		t.Errorf("hover at as: :all: %+v, want the value of Schemas.all()", h)
	}
}

// TestDefdelegateReferences: the `as:` and `to:` of a defdelegate are
// the call it defines wherever the cursor reads the document as a sketch
// (references, a document that does not parse), and references of the
// def list a delegate written in the def's own document.
func TestDefdelegateReferences(t *testing.T) {
	files := map[string]string{
		"lib/tool.ex": `defmodule App.Tool do
  use Wymcp.Tool
  def name, do: "tasks"
  def description, do: "Tasks."
  defdelegate actions, to: App.Schemas, as: :all
  def run_action(_a, _p, _c), do: {:ok, %{}}
end

defmodule App.Schemas do
  def all, do: %{list: %{description: "List tasks."}}
end
`,
		"lib/broken.ex": `defmodule App.Other do
  use Wymcp.Tool
  def name, do: "other"
  defdelegate actions, to: App.Schemas, as: :all
  def run_action(_a, _p, _c), do: {:ok, %{}
end
`,
	}
	cl, docs := curOpen(t, files)
	tool, broken := docs["lib/tool.ex"], docs["lib/broken.ex"]
	allDef := rangeOf(t, tool, "def all", "all", 0, 0)
	toolUse := rangeOf(t, tool, "defdelegate actions, ", "to: App.Schemas, as: :all", 0, 0)
	brokenUse := rangeOf(t, broken, "defdelegate actions, ", "to: App.Schemas, as: :all", 0, 0)
	refs := map[string]any{"context": map[string]any{"includeDeclaration": true}}
	for _, tc := range []struct {
		name       string
		d          *curDoc
		definition string
		refs       string
	}{
		{"the def", at(t, tool, "def all", "all", 1), allDef, strings.Join([]string{brokenUse, toolUse, allDef}, " ")},
		{"as:", at(t, tool, "defdelegate actions", ":all", 2), allDef, strings.Join([]string{brokenUse, toolUse, allDef}, " ")},
		{"to:", at(t, tool, "defdelegate actions", "Schemas", 2), allDef, strings.Join([]string{brokenUse, toolUse, allDef}, " ")},
		{"as: in a document with a syntax error", at(t, broken, "defdelegate actions", ":all", 2), allDef, strings.Join([]string{brokenUse, allDef}, " ")},
	} {
		if got := locsAt(t, cl, "textDocument/definition", tc.d, nil); strings.Join(got, " ") != tc.definition {
			t.Errorf("%s: definition %q, want %q", tc.name, got, tc.definition)
		}
		if got := locsAt(t, cl, "textDocument/references", tc.d, refs); strings.Join(got, " ") != tc.refs {
			t.Errorf("%s: references %q, want %q", tc.name, got, tc.refs)
		}
	}
}
