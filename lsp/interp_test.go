package lsp_test

import (
	"strings"
	"testing"
)

// TestAttributeInInterpolation: an attribute read written in a string's
// interpolation (`"up to #{@max}"`, also in a heredoc and in a string
// nested in an interpolation) is a read like any other: definition goes
// to its definition, references and document highlight list it, hover
// shows its value.
func TestAttributeInInterpolation(t *testing.T) {
	const src = `defmodule App.Tools.Notes do
  use Wymcp.Tool
  @max 50

  def name, do: "notes"
  def description, do: "Notes, #{@max} at most"

  def actions do
    %{
      list: %{
        description: """
        List up to #{@max} notes
        """,
        properties: %{"q" => %{"type" => "string", "description" => "#{"max #{@max}"}"}}
      }
    }
  end

  def run_action(_, _, _), do: :ok
end
`
	cl, docs := curOpen(t, map[string]string{"lib/notes.ex": src})
	d := docs["lib/notes.ex"]
	def := rangeOf(t, d, "", "@max", 0, 0)
	reads := []string{
		rangeOf(t, d, "Notes, #{", "@max", 0, 0),
		rangeOf(t, d, "List up to #{", "@max", 0, 0),
		rangeOf(t, d, `"max #{`, "@max", 0, 0),
	}
	for name, start := range map[string]*curDoc{
		"in a string":        at(t, d, "Notes, #{", "@max", 2),
		"in a heredoc":       at(t, d, "List up to #{", "max", 1),
		"in a nested string": at(t, d, `"max #{`, "@max", 0),
		"the definition":     at(t, d, "", "@max", 1),
	} {
		if got := locsAt(t, cl, "textDocument/definition", start, nil); strings.Join(got, " ") != def {
			t.Errorf("%s: definition %q, want %s", name, got, def)
		}
		refs := locsAt(t, cl, "textDocument/references", start, map[string]any{"context": map[string]any{"includeDeclaration": true}})
		if want := append([]string{def}, reads...); strings.Join(refs, " ") != strings.Join(want, " ") {
			t.Errorf("%s: references %q, want %q", name, refs, want)
		}
		hl := highlightsAt(t, cl, start)
		if want := def + " write " + strings.Join(reads, " read ") + " read"; strings.Join(hl, " ") != want {
			t.Errorf("%s: highlights %q, want %s", name, hl, want)
		}
	}
	if h := hoverAt(t, cl, at(t, d, "List up to #{", "@max", 1)); h == nil || !strings.Contains(h.Contents.Value, "50") {
		t.Errorf("hover %+v, want the value 50", h)
	}
	// Text that only looks like a read is not one.
	for _, start := range []*curDoc{at(t, d, "List up to", "up", 0), at(t, d, "notes\"", "notes", 1)} {
		if got := locsAt(t, cl, "textDocument/definition", start, nil); len(got) != 0 {
			t.Errorf("definition at %v: %q, want none", start.pos, got)
		}
	}
}
