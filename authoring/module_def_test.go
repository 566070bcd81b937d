package authoring

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestModuleNameDefinitionHover: a module name the workspace defines
// (a mount's `tools: [...]` entry, through `alias` and `as:`, the name an
// alias statement aliases) goes to its defmodule name and hovers with
// the module's name and, for a tool, its name/0 and action count; a name
// no module of the workspace has answers nothing, and a module name that
// receives a zero-arity call still names the call.
func TestModuleNameDefinitionHover(t *testing.T) {
	const tool = "file:///w/lib/t.ex"
	const router = "file:///w/lib/router.ex"
	const other = "file:///w/lib/other.ex"
	files := map[string]string{
		tool: "defmodule App.Tools.T do\n  use Wymcp.Tool\n  def name, do: \"t\"\n" +
			"  def actions, do: %{a: %{description: \"A\"}, b: %{description: \"B\"}}\nend\n",
		router: "defmodule App.Router do\n  use Plug.Router\n  alias App.Tools\n  alias App.Tools.T, as: Tee\n  alias App.Tools.{T}\n" +
			"  forward \"/mcp\", Wymcp.Router, tools: [App.Tools.T, Tools.T, Tee]\nend\n",
		other: "defmodule App.Other do\n  def r, do: App.Router\n  def n, do: App.Other.r()\nend\n",
	}
	const toolHover = "**App.Tools.T**\n\nA Wymcp tool module: its name/0 returns \"t\"; 2 actions.\n"
	toolDecl := fmt.Sprintf("[%s:10-21]", tool)
	const callHover = "call" // the zero-arity call's hover (valueHover), not the module's
	tests := []struct {
		uri, before, word string
		def               string
		hover             string // "" for none
	}{
		{router, "tools: [", "App.Tools.T", toolDecl, toolHover},
		{router, "tools: [App.Tools.T, ", "Tools.T", toolDecl, toolHover},
		{router, "Tools.T, Tools.T, ", "Tee", toolDecl, toolHover},
		{router, "alias App.Tools\n  alias ", "App.Tools.T", toolDecl, toolHover},
		{router, "alias App.Tools.{", "T", toolDecl, toolHover},
		{router, "alias ", "App.Tools", "[]", ""},                // no module of that name
		{router, "forward \"/mcp\", ", "Wymcp.Router", "[]", ""}, // not in the workspace
		{other, "def r, do: ", "App.Router", fmt.Sprintf("[%s:10-20]", router), "**App.Router**\n"},
		{other, "def n, do: ", "App.Other", fmt.Sprintf("[%s:%d-%d]", other, strings.Index(files[other], "def r")+4, strings.Index(files[other], "def r")+5), callHover}, // the call r()
	}
	for _, tc := range tests {
		text := files[tc.uri]
		i := strings.Index(text, tc.before)
		if i < 0 || !strings.HasPrefix(text[i+len(tc.before):], tc.word) {
			t.Fatalf("%q then %q not in %s", tc.before, tc.word, tc.uri)
		}
		start := i + len(tc.before)
		snap := editSnap(t, tc.uri, files)
		for _, off := range []int{start, start + len(tc.word) - 1} {
			if got := fmtLocs(Definition(context.Background(), snap, off)); got != tc.def {
				t.Errorf("%s at %d: definition %s, want %s", tc.word, off, got, tc.def)
			}
			h, ok := HoverAt(context.Background(), snap, off)
			if tc.hover == callHover {
				if !ok || strings.HasPrefix(h.Markdown, "**App.Other**") {
					t.Errorf("%s at %d: hover %q, %v, want the call's", tc.word, off, h.Markdown, ok)
				}
				continue
			}
			if got := map[bool]string{true: h.Markdown}[ok]; got != tc.hover {
				t.Errorf("%s at %d: hover %q, want %q", tc.word, off, got, tc.hover)
			}
			if ok && (h.Span.Start != start || h.Span.End != start+len(tc.word)) {
				t.Errorf("%s at %d: hover span %v, want %d-%d", tc.word, off, h.Span, start, start+len(tc.word))
			}
		}
	}
}
