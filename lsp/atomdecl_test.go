package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

const atomDeclared = `defmodule App.Tools.Atoms do
  use Wymcp.Tool; def name, do: "atoms"

  def actions do
    %{
      add: %{description: "Add", properties: %{title: %{"type" => "string"}}, required: ["title"]},
      pick: %{description: "Pick", properties: %{"a" => %{}, b: %{}}, required_one_of: [["a"], ["b"]]},
      keep: %{description: "Keep", properties: %{name: %{}}, defaults: %{"name" => "x"}}
    }
  end
end
`

// TestNameDeclaredAsAtom: a :required or :required_one_of name that
// :properties declares under an atom key says so, relates to the
// property-name-not-string diagnostic of that key, and gets its quick fix;
// a :defaults key is not reported at all then (defaults are checked only
// once the shape is clean, docs/rules.md §4), so nothing misleads there.
func TestNameDeclaredAsAtom(t *testing.T) {
	root := t.TempDir()
	c, _ := startRealWith(t, root, map[string]any{})
	ctx := testCtx(t)
	uri := workspace.PathURI(filepath.Join(root, "lib/atoms.ex"))
	if err := c.Open(uri, 1, atomDeclared); err != nil {
		t.Fatal(err)
	}
	p, err := c.WaitVersion(ctx, uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range p.Diagnostics {
		b, _ := json.Marshal(d)
		got = append(got, string(b))
	}
	rel := func(l, sc, ec int, msg string) string {
		return `"relatedInformation":[{"location":{"uri":"` + uri + `","range":{"start":{"line":` + itoa(l) + `,"character":` + itoa(sc) + `},"end":{"line":` + itoa(l) + `,"character":` + itoa(ec) + `}}},"message":` + jsonString(msg) + `}]`
	}
	want := []string{
		`{"range":{"start":{"line":5,"character":47},"end":{"line":5,"character":52}},"severity":1,"code":"property-name-not-string","source":"wymcp","message":"action :add :properties: property name :title is not a string; fix: write \"title\" =\u003e instead of title:"}`,
		`{"range":{"start":{"line":5,"character":89},"end":{"line":5,"character":96}},"severity":1,"code":"undeclared-field","source":"wymcp","message":"action :add: :required names \"title\", but \"title\" is declared as the atom :title; fix: write \"title\" =\u003e instead of title:",` + rel(5, 47, 52, `"title" is declared here as the atom :title (property-name-not-string)`) + `}`,
		`{"range":{"start":{"line":6,"character":61},"end":{"line":6,"character":62}},"severity":1,"code":"property-name-not-string","source":"wymcp","message":"action :pick :properties: property name :b is not a string; fix: write \"b\" =\u003e instead of b:"}`,
		`{"range":{"start":{"line":6,"character":96},"end":{"line":6,"character":99}},"severity":1,"code":"undeclared-field","source":"wymcp","message":"action :pick: :required_one_of names \"b\", but \"b\" is declared as the atom :b; fix: write \"b\" =\u003e instead of b:",` + rel(6, 61, 62, `"b" is declared here as the atom :b (property-name-not-string)`) + `}`,
		`{"range":{"start":{"line":7,"character":49},"end":{"line":7,"character":53}},"severity":1,"code":"property-name-not-string","source":"wymcp","message":"action :keep :properties: property name :name is not a string; fix: write \"name\" =\u003e instead of name:"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The quick fix at "title" in :required is the one at title:.
	fixAt := func(line, char int) []fixAction {
		t.Helper()
		var out []fixAction
		err := c.Request(ctx, "textDocument/codeAction", map[string]any{
			"textDocument": map[string]string{"uri": uri},
			"range":        map[string]any{"start": map[string]int{"line": line, "character": char}, "end": map[string]int{"line": line, "character": char}},
			"context":      map[string]any{"diagnostics": []any{}},
		}, &out)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	atKey, atName := fixAt(5, 49), fixAt(5, 93)
	if len(atKey) != 1 || len(atName) != 1 {
		t.Fatalf("fixes at title: %+v, at \"title\": %+v", atKey, atName)
	}
	k, _ := json.Marshal(atKey[0].Edit)
	n, _ := json.Marshal(atName[0].Edit)
	if string(k) != string(n) || atName[0].Title != atKey[0].Title || !atName[0].IsPreferred {
		t.Errorf("fix at \"title\" %q %s (preferred %v), want the fix at title: %q %s", atName[0].Title, n, atName[0].IsPreferred, atKey[0].Title, k)
	}
	if fixed := applyLSPEdits(t, atomDeclared, atName[0].Edit.Changes[uri]); !strings.Contains(fixed, `properties: %{"title" => %{"type" => "string"}}, required: ["title"]`) {
		t.Errorf("applied:\n%s", fixed)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
