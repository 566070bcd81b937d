package authoring

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

// modFiles is a workspace naming App.Tools.Notes in every way README.md
// "Go to definition, find references and document highlight" lists, with
// App.Tools (a prefix) and App.Tools.Notes.Sub (a longer name) beside it.
var modFiles = map[string]string{
	"file:///w/lib/notes.ex": "defmodule App.Tools.Notes do\n  use Wymcp.Tool\n  use App.Tools.Base\n  def name, do: \"notes\"\n" +
		"  def actions, do: %{list: %{description: \"L\"}}\nend\n",
	"file:///w/lib/base.ex": "defmodule App.Tools.Base do\n  defmacro __using__(_), do: nil\nend\n",
	"file:///w/lib/tools.ex": "defmodule App.Tools do\n  def all, do: [App.Tools.Notes, __MODULE__.Notes]\n  def get(x), do: Notes.run(x)\n" +
		"  defmodule Notes.Sub do\n    @behaviour App.Tools.Base\n  end\nend\n",
	"file:///w/lib/router.ex": "defmodule App.Router do\n  use Plug.Router\n  alias App.Tools\n  alias App.Tools.Notes, as: N\n" +
		"  # App.Tools.Notes in a comment\n  @doc \"App.Tools.Notes in a string\"\n" +
		"  forward \"/mcp\", Wymcp.Router, tools: [App.Tools.Notes, Tools.Notes, N, Tools, App.Tools.Notes.Sub]\n" +
		"  def list, do: N.actions()\n  def one(x), do: Tools.Notes.run(x)\nend\n",
	"file:///w/lib/multi.ex":      "defmodule App.Multi do\n  alias App.Tools.{Notes, Base}\n  def t, do: {Notes, Base, \"#{Notes}\"}\nend\n",
	"file:///w/lib/web.ex":        "defmodule App.Web do\n  defmodule Api do\n    def ping(x), do: x\n  end\n  def go, do: Api.ping(1)\nend\n",
	"file:///w/test/web_test.exs": "App.Web.Api.ping(2)\ndefmodule App.WebTest do\n  alias App.Web.Api\n  def t, do: Api.ping(3)\nend\n",
}

// mloc is "uri:start-end" of word where it follows the first occurrence of
// before in the file uri of modFiles.
func mloc(t *testing.T, uri, before, word string) string {
	t.Helper()
	s := mstart(t, uri, before, word)
	return fmt.Sprintf("%s:%d-%d", uri, s, s+len(word))
}

func mstart(t *testing.T, uri, before, word string) int {
	t.Helper()
	text := modFiles[uri]
	i := strings.Index(text, before)
	if i < 0 || !strings.HasPrefix(text[i+len(before):], word) {
		t.Fatalf("%q then %q not in %s", before, word, uri)
	}
	return i + len(before)
}

// TestModuleReferences: on a module name the workspace defines (its
// defmodule name, a `tools:` entry, a `use`, an alias statement, an `as:`
// name, `Tools.Notes` after `alias App.Tools`, a segment of `alias
// A.{B, C}`, a nested defmodule written relative to its parent),
// references list its defmodule name (with includeDeclaration) and every
// place in every document that names it, each as written; a prefix
// (App.Tools), a longer name (App.Tools.Notes.Sub) and names in strings
// and comments are not references.
func TestModuleReferences(t *testing.T) {
	const notes, base, tools, router, multi = "file:///w/lib/notes.ex", "file:///w/lib/base.ex", "file:///w/lib/tools.ex", "file:///w/lib/router.ex", "file:///w/lib/multi.ex"
	const web, webTest = "file:///w/lib/web.ex", "file:///w/test/web_test.exs"
	notesDecl := mloc(t, notes, "defmodule ", "App.Tools.Notes")
	notesRefs := []string{
		mloc(t, multi, "alias App.Tools.{", "Notes"),
		mloc(t, multi, "def t, do: {", "Notes"),
		mloc(t, multi, "Base, \"#{", "Notes"),
		notesDecl,
		mloc(t, router, "Tools\n  alias ", "App.Tools.Notes"),
		mloc(t, router, "tools: [", "App.Tools.Notes"),
		mloc(t, router, "tools: [App.Tools.Notes, ", "Tools.Notes"),
		mloc(t, router, " Tools.Notes, ", "N"),
		mloc(t, router, "def list, do: ", "N"),
		mloc(t, router, "def one(x), do: ", "Tools.Notes"),
		mloc(t, tools, "def all, do: [", "App.Tools.Notes"),
		mloc(t, tools, "App.Tools.Notes, ", "__MODULE__.Notes"),
	}
	baseDecl := mloc(t, base, "defmodule ", "App.Tools.Base")
	baseRefs := []string{
		baseDecl,
		mloc(t, multi, "alias App.Tools.{Notes, ", "Base"),
		mloc(t, multi, "t, do: {Notes, ", "Base"),
		mloc(t, notes, "Tool\n  use ", "App.Tools.Base"),
		mloc(t, tools, "@behaviour ", "App.Tools.Base"),
	}
	toolsDecl := mloc(t, tools, "defmodule ", "App.Tools")
	toolsRefs := []string{
		mloc(t, multi, "alias ", "App.Tools"),
		mloc(t, router, "alias ", "App.Tools"),
		mloc(t, router, "N, ", "Tools"),
		toolsDecl,
	}
	apiDecl := mloc(t, web, "  defmodule ", "Api")
	apiRefs := []string{
		apiDecl,
		mloc(t, web, "def go, do: ", "Api"),
		mloc(t, webTest, "", "App.Web.Api"),
		mloc(t, webTest, "alias ", "App.Web.Api"),
		mloc(t, webTest, "def t, do: ", "Api"),
	}
	tests := []struct {
		name, uri, before, word string
		decl                    string
		refs                    []string // in References' order, the declaration included
	}{
		{"defmodule name", notes, "defmodule ", "App.Tools.Notes", notesDecl, notesRefs},
		{"tools: entry", router, "tools: [", "App.Tools.Notes", notesDecl, notesRefs},
		{"Tools.Notes after alias App.Tools", router, "tools: [App.Tools.Notes, ", "Tools.Notes", notesDecl, notesRefs},
		{"as: name", router, " Tools.Notes, ", "N", notesDecl, notesRefs},
		{"alias statement", router, "Tools\n  alias ", "App.Tools.Notes", notesDecl, notesRefs},
		{"segment of alias A.{B, C}", multi, "alias App.Tools.{", "Notes", notesDecl, notesRefs},
		{"use", notes, "Tool\n  use ", "App.Tools.Base", baseDecl, baseRefs},
		{"@behaviour", tools, "@behaviour ", "App.Tools.Base", baseDecl, baseRefs},
		{"prefix module", router, "N, ", "Tools", toolsDecl, toolsRefs},
		{"nested defmodule", web, "  defmodule ", "Api", apiDecl, apiRefs},
		{"remote call's receiver", web, "def go, do: ", "Api", apiDecl, apiRefs},
		{"alias in a script", webTest, "alias ", "App.Web.Api", apiDecl, apiRefs},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := mstart(t, tc.uri, tc.before, tc.word)
			snap := editSnap(t, tc.uri, modFiles)
			for _, off := range []int{start, start + len(tc.word) - 1} {
				want := "[" + strings.Join(tc.refs, " ") + "]"
				if got := fmtLocs(References(context.Background(), snap, off, true)); got != want {
					t.Errorf("at %d: references\n%s\nwant\n%s", off, got, want)
				}
				var without []string
				for _, r := range tc.refs {
					if r != tc.decl {
						without = append(without, r)
					}
				}
				want = "[" + strings.Join(without, " ") + "]"
				if got := fmtLocs(References(context.Background(), snap, off, false)); got != want {
					t.Errorf("at %d: references without the declaration\n%s\nwant\n%s", off, got, want)
				}
				if got := fmtLocs(Definition(context.Background(), snap, off)); got != "["+tc.decl+"]" {
					t.Errorf("at %d: definition %s, want [%s]", off, got, tc.decl)
				}
			}
		})
	}
}

// TestModuleHighlights: document highlight on a module name marks the
// places of the cursor's document that name the module, its defmodule
// name as a write and the others as reads; a prefix module's name is not
// one of them.
func TestModuleHighlights(t *testing.T) {
	const notes, router, web = "file:///w/lib/notes.ex", "file:///w/lib/router.ex", "file:///w/lib/web.ex"
	span := func(uri, before, word string, write bool) string {
		s := mstart(t, uri, before, word)
		return fmt.Sprintf("{{%d %d} %v}", s, s+len(word), write)
	}
	tests := []struct {
		name, uri, before, word string
		want                    []string
	}{
		{"defmodule name alone in its file", notes, "defmodule ", "App.Tools.Notes", []string{span(notes, "defmodule ", "App.Tools.Notes", true)}},
		{"uses in a router", router, " Tools.Notes, ", "N", []string{
			span(router, "Tools\n  alias ", "App.Tools.Notes", false),
			span(router, "tools: [", "App.Tools.Notes", false),
			span(router, "tools: [App.Tools.Notes, ", "Tools.Notes", false),
			span(router, " Tools.Notes, ", "N", false),
			span(router, "def list, do: ", "N", false),
			span(router, "def one(x), do: ", "Tools.Notes", false),
		}},
		{"prefix module", router, "N, ", "Tools", []string{
			span(router, "alias ", "App.Tools", false),
			span(router, "N, ", "Tools", false),
		}},
		{"nested defmodule and its use", web, "def go, do: ", "Api", []string{
			span(web, "  defmodule ", "Api", true),
			span(web, "def go, do: ", "Api", false),
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := editSnap(t, tc.uri, modFiles)
			off := mstart(t, tc.uri, tc.before, tc.word)
			want := "[" + strings.Join(tc.want, " ") + "]"
			if got := fmt.Sprint(Highlights(context.Background(), snap, off)); got != want {
				t.Errorf("highlights\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestModuleReferencesSyntaxError: a syntax error further down, in the
// cursor's document or in another, leaves the module's references where
// the tolerant reading finds them.
func TestModuleReferencesSyntaxError(t *testing.T) {
	const notes, multi = "file:///w/lib/notes.ex", "file:///w/lib/multi.ex"
	const broken = "defmodule B do\n  def x(, do: 1\nend\n"
	files := map[string]string{notes: modFiles[notes] + broken, multi: modFiles[multi] + broken}
	want := fmt.Sprintf("[%s:42-47 %s:69-74 %s:85-90 %s:10-25]", multi, multi, multi, notes)
	for _, uri := range []string{notes, multi} {
		snap := editSnap(t, uri, files)
		if len(snap.File.Errors) == 0 {
			t.Fatalf("%s parses without error", uri)
		}
		off := strings.Index(files[uri], "Notes")
		if got := fmtLocs(References(context.Background(), snap, off, true)); got != want {
			t.Errorf("from %s: references %s, want %s", uri, got, want)
		}
	}
}

// TestModuleReferencesStruct: a struct literal or update names its
// module (`%App.T{}`, `%T{t | k: v}` after `alias App.T`, a pattern
// `%App.T{} = t`): references from anywhere list its name as written, and
// references from that name are the module's.
func TestModuleReferencesStruct(t *testing.T) {
	const tl, r = "file:///w/lib/t.ex", "file:///w/lib/r.ex"
	files := map[string]string{
		tl: "defmodule App.T do\n  defstruct [:x]\n  def new, do: %__MODULE__{}\nend\n",
		r:  "defmodule R do\n  alias App.T\n  def a, do: %App.T{}\n  def b(t), do: %T{t | x: 1}\n  def c(%App.T{} = t), do: t\nend\n",
	}
	want := fmt.Sprintf("[%s:23-28 %s:43-48 %s:68-69 %s:89-94 %s:10-15]", r, r, r, r, tl)
	for _, off := range []int{10, 23, 43, 48, 68, 69, 89} {
		uri := r
		if off == 10 {
			uri = tl
		}
		snap := editSnap(t, uri, files)
		if got := fmtLocs(References(context.Background(), snap, off, true)); got != want {
			t.Errorf("at %s:%d: references\n%s\nwant\n%s", uri, off, got, want)
		}
	}
	snap := editSnap(t, r, files)
	if got, want := fmt.Sprint(Highlights(context.Background(), snap, 44)), "[{{23 28} false} {{43 48} false} {{68 69} false} {{89 94} false}]"; got != want {
		t.Errorf("highlights %s, want %s", got, want)
	}
	if got, want := fmtLocs(Definition(context.Background(), snap, 68)), "["+tl+":10-15]"; got != want {
		t.Errorf("definition %s, want %s", got, want)
	}
}

// TestModuleReferencesAsValue: the `as:` value of an alias statement is
// the new name, not a use of a module so named: `alias App.T, as: U`
// beside a module U is no reference of U, and from that value references
// are App.T's (its later uses, not the value itself).
func TestModuleReferencesAsValue(t *testing.T) {
	const tl, u, r = "file:///w/lib/t.ex", "file:///w/lib/u.ex", "file:///w/lib/r.ex"
	files := map[string]string{
		tl: "defmodule App.T do\nend\n",
		u:  "defmodule U do\nend\n",
		r:  "defmodule R do\n  alias App.T, as: U\n  def a, do: U\n  require App.T, as: U\nend\n",
	}
	snap := editSnap(t, u, files)
	if got, want := fmtLocs(References(context.Background(), snap, 10, true)), "["+u+":10-11]"; got != want {
		t.Errorf("references of U %s, want %s", got, want)
	}
	snap = editSnap(t, r, files)
	want := fmt.Sprintf("[%s:23-28 %s:49-50 %s:61-66 %s:10-15]", r, r, r, tl)
	for _, off := range []int{34, 35} {
		if got := fmtLocs(References(context.Background(), snap, off, true)); got != want {
			t.Errorf("at %d: references %s, want %s", off, got, want)
		}
	}
}

// TestModuleReferencesUnresolvedCall: on the receiver of a zero-arity
// call that no workspace def answers (`App.T.nope()`, as a name/0 that a
// wrapper's __using__ defines), the name is the module's: definition goes
// to its defmodule and references list its uses, as on any other module
// name; on a call the workspace defines (`App.T.name()`) it stays the
// call's, and on the function's name there is nothing.
func TestModuleReferencesUnresolvedCall(t *testing.T) {
	const tl, r = "file:///w/lib/t.ex", "file:///w/lib/r.ex"
	files := map[string]string{
		tl: "defmodule App.T do\n  def name, do: \"t\"\nend\n",
		r:  "defmodule R do\n  def a, do: App.T.nope()\n  def b, do: App.T.name()\nend\n",
	}
	snap := editSnap(t, r, files)
	mods := fmt.Sprintf("[%s:28-33 %s:54-59 %s:10-15]", r, r, tl)
	tests := []struct {
		off        int
		def, refs  string
		highlights string
	}{
		{28, "[" + tl + ":10-15]", mods, "[{{28 33} false} {{54 59} false}]"},
		{33, "[" + tl + ":10-15]", mods, "[{{28 33} false} {{54 59} false}]"},
		{35, "[]", "[]", "[]"},
		{54, "[" + tl + ":25-29]", fmt.Sprintf("[%s:54-66 %s:25-29]", r, tl), "[{{54 66} false}]"},
	}
	for _, tc := range tests {
		checkDefRefs(t, snap, tc.off, tc.def, tc.refs)
		if got := fmt.Sprint(Highlights(context.Background(), snap, tc.off)); got != tc.highlights {
			t.Errorf("at %d: highlights %s, want %s", tc.off, got, tc.highlights)
		}
	}
}

// TestModuleReferencesModuleBase: `alias __MODULE__.{Sub}` names the
// module's Sub, not the module itself: its `__MODULE__` is no reference
// of the module, as a bare `__MODULE__` elsewhere is not.
func TestModuleReferencesModuleBase(t *testing.T) {
	const tl = "file:///w/lib/t.ex"
	text := "defmodule App.T do\n  alias __MODULE__.{Sub}\n  def x, do: __MODULE__\n  def y, do: Sub\n  defmodule Sub do\n  end\nend\n"
	snap := editSnap(t, tl, map[string]string{tl: text})
	if got, want := fmtLocs(References(context.Background(), snap, 10, true)), "["+tl+":10-15]"; got != want {
		t.Errorf("references of App.T %s, want %s", got, want)
	}
	if got, want := fmtLocs(References(context.Background(), snap, 39, true)), fmt.Sprintf("[%s:39-42 %s:81-84 %s:97-100]", tl, tl, tl); got != want {
		t.Errorf("references of App.T.Sub %s, want %s", got, want)
	}
}

// TestModuleReferencesTopLevelAlias: an alias written at the top level of
// a script is in effect after it, at the top level and in the defmodules
// after it (Elixir's aliases are lexical): `T.run()` and `def a, do: T`
// after `alias App.T` name App.T, and so does the alias statement; a `T`
// before the alias does not.
func TestModuleReferencesTopLevelAlias(t *testing.T) {
	const tl, s = "file:///w/lib/t.ex", "file:///w/s.exs"
	script := "T.early()\nalias App.T\nT.run()\ndefmodule S do\n  def a, do: T\nend\n"
	files := map[string]string{tl: "defmodule App.T do\nend\n", s: script}
	at := func(before, word string) string {
		i := strings.Index(script, before+word) + len(before)
		return fmt.Sprintf("%s:%d-%d", s, i, i+len(word))
	}
	want := "[" + strings.Join([]string{tl + ":10-15", at("alias ", "App.T"), at("App.T\n", "T"), at("do: ", "T")}, " ") + "]"
	snap := editSnap(t, tl, files)
	if got := fmtLocs(References(context.Background(), snap, 10, true)); got != want {
		t.Errorf("references of App.T %s, want %s", got, want)
	}
	// From the script's top level, the same names lead to App.T; the T
	// written before the alias is no module of the workspace.
	snap = editSnap(t, s, files)
	for _, tc := range []struct {
		off       int
		def, refs string
	}{
		{strings.Index(script, "App.T") + 1, "[" + tl + ":10-15]", want},
		{strings.Index(script, "T.run"), "[" + tl + ":10-15]", want},
		{0, "[]", "[]"},
	} {
		checkDefRefs(t, snap, tc.off, tc.def, tc.refs)
	}
}

// checkDefRefs checks what Definition and References (declaration
// included) answer at byte offset off of snap's document, as fmtLocs
// prints them.
func checkDefRefs(t *testing.T, snap *workspace.Snapshot, off int, def, refs string) {
	t.Helper()
	if got := fmtLocs(Definition(context.Background(), snap, off)); got != def {
		t.Errorf("at %d: definition %s, want %s", off, got, def)
	}
	if got := fmtLocs(References(context.Background(), snap, off, true)); got != refs {
		t.Errorf("at %d: references %s, want %s", off, got, refs)
	}
}
