package lsp_test

import (
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// TestHoverUnknownKey: on a key that is not in the vocabulary, the hover
// says Wymcp refuses it and shows the entry of the key the unknown-key fix
// suggests, or lists the keys when none is near. It showed nothing.
func TestHoverUnknownKey(t *testing.T) {
	cl, docs := curOpen(t, map[string]string{"lib/t.ex": `defmodule App.T do
  use Wymcp.Tool
  def actions do
    %{run: %{descripton: "Run.", properties: %{}, zzzzzz: 1}}
  end
end
`})
	d := docs["lib/t.ex"]
	cat := validate.DefaultCatalogue()
	desc, _ := cat.Key("description")
	h := hoverAt(t, cl, at(t, d, "", "descripton", 3))
	want := "`:descripton` is not a key of an action schema: Wymcp refuses it (`unknown-key`). Did you mean `:description`?\n\n---\n\n" + desc.Markdown()
	if h == nil || h.Contents.Value != want || h.Contents.Kind != "markdown" {
		t.Fatalf("hover on descripton: %+v\nwant %q", h, want)
	}
	if got, wantR := rangeText(h.Range), rangeOf(t, d, "", "descripton", 0, 0); "t.ex:"+got != wantR {
		t.Errorf("range %s, want %s", got, wantR)
	}
	h = hoverAt(t, cl, at(t, d, "", "zzzzzz", 1))
	names := cat.Names()
	if h == nil || !strings.HasPrefix(h.Contents.Value, "`:zzzzzz` is not a key of an action schema: Wymcp refuses it (`unknown-key`). The keys are `:description`, ") ||
		!strings.HasSuffix(h.Contents.Value, "`:"+names[len(names)-1]+"`.") {
		t.Errorf("hover on zzzzzz: %+v", h)
	}
}
