package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

// readTree reads every file of a fixture directory, by relative path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// found lists "file:code:text" for every problem, the text being the
// source the range selects.
func found(t *testing.T, ws *Workspace, dir string) []string {
	t.Helper()
	var out []string
	for _, r := range ws.All(context.Background()) {
		rel, _ := filepath.Rel(dir, r.Path)
		src := r.Mapper.Content()
		for _, p := range r.Problems {
			out = append(out, filepath.ToSlash(rel)+":"+p.Code+":"+string(src[p.Span.Start:p.Span.End]))
		}
	}
	return out
}

// TestToolCleanTwinsBreak mutates one clean twin of testdata/toolsclean at a
// time and asserts that exactly the expected finding appears: the clean
// run is clean because each check looked, not because it was blind.
func TestToolCleanTwinsBreak(t *testing.T) {
	base := readTree(t, filepath.Join("..", "testdata", "toolsclean"))
	tests := []struct {
		name, file, old, new string
		want                 []string
	}{
		{"delegated clauses lose the catch-all and :close", "lib/app/actions.ex",
			"  def run(:close, data), do: {:ok, data}\n  def run(_other, _data), do: {:error, :unknown}\n", "",
			[]string{"lib/app/tools/tasks.ex:lint/action-without-clause:close"}},
		{"delegated clause for an undeclared action", "lib/app/actions.ex",
			"  def run(_other, _data), do: {:error, :unknown}\n", "  def run(:reopen, data), do: {:ok, data}\n",
			[]string{"lib/app/actions.ex:lint/clause-without-action::reopen"}},
		{"aliased hint names an unknown action", "lib/app/hints.ex",
			`action: "get"`, `action: "fetch"`,
			[]string{`lib/app/hints.ex:lint/hint-unknown-action:"fetch"`}},
		{"aliased struct hint with an undeclared key", "lib/app/hints.ex",
			`%{text: "again"}`, `%{text: "again", colour: 1}`,
			[]string{`lib/app/hints.ex:lint/payload-undeclared-key:colour`}},
		{"interpolated example misses a required key", "lib/app/tools/notes.ex",
			`%{data: %{text: "call #{"mum"}"}}`, `%{data: %{tags: ["call #{"mum"}"]}}`,
			[]string{`lib/app/tools/notes.ex:lint/payload-missing-required:%{`}},
		{"commented multi-line mount repeats a tool", "lib/app/router.ex",
			"        App.Tools.Tasks\n", "        App.Tools.Tasks,\n        App.Tools.Notes\n",
			[]string{`lib/app/router.ex:duplicate-tool-name:App.Tools.Notes`}},
		{"commented multi-line mount loses a tool", "lib/app/router.ex",
			"        App.Tools.Notes,\n", "",
			[]string{`lib/app/tools/notes.ex:lint/tool-not-mounted:App.Tools.Notes`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			if !strings.Contains(files[tt.file], tt.old) {
				t.Fatalf("%s does not hold %q", tt.file, tt.old)
			}
			files[tt.file] = strings.Replace(files[tt.file], tt.old, tt.new, 1)
			ws, dir := setup(t, files)
			if got := found(t, ws, dir); !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestWrapperCheapScan asserts that a tool two wrappers deep is found even
// though neither its file nor its direct wrapper's file holds "Wymcp.Tool",
// and that a file holding no marker is still not parsed.
func TestWrapperCheapScan(t *testing.T) {
	ws, dir := setup(t, map[string]string{
		"tool.ex":   "defmodule App.Tool do\n  defmacro __using__(_) do\n    quote do\n      @behaviour Wymcp.Tool\n    end\n  end\nend\n",
		"admin.ex":  "defmodule App.AdminTool do\n  defmacro __using__(_) do\n    quote do\n      use App.Tool\n    end\n  end\nend\n",
		"purge.ex":  "defmodule App.Tools.Purge do\n  use App.AdminTool\n  def name, do: \"purge\"\n  def actions, do: %{go: %{description: \"Go\", properties: %{}, examplez: []}}\nend\n",
		"plain.ex":  "defmodule App.Plain do\n  def x, do: 1\nend\n",
		"plain2.ex": "defmodule App.Plain2 do\n  use App.Other\nend\n",
	})
	got := found(t, ws, dir)
	if want := []string{"purge.ex:unknown-key:examplez"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if n := ws.parses.Load(); n != 3 {
		t.Errorf("parsed %d files, want 3 (the two wrappers and the tool)", n)
	}
	infos, mounts := ws.Tools(context.Background())
	if len(infos) != 1 || infos[0].Module != "App.Tools.Purge" || len(mounts) != 0 {
		t.Fatalf("Tools = %+v, %+v", infos, mounts)
	}
	if n, ok := infos[0].NameText(); !ok || n != "purge" {
		t.Errorf("name = %q, %v", n, ok)
	}
}

// TestInjectedDispatchIsUnknown: clauses a wrapper's quote or a
// @before_compile hook may add make the coverage unknown: no
// lint/action-without-clause for a tool whose own clauses miss an action.
func TestInjectedDispatchIsUnknown(t *testing.T) {
	tool := func(use string) string {
		return "defmodule App.Tools.T do\n  " + use + "\n  def name, do: \"t\"\n" +
			"  def actions, do: %{a: %{description: \"A\", properties: %{}}, b: %{description: \"B\", properties: %{}}}\n" +
			"  def run_action(:a, d, _), do: d\nend\n"
	}
	wrapper := "defmodule App.Tool do\n  defmacro __using__(_) do\n    quote do\n      use Wymcp.Tool\n      def run_action(_action, _data, _ctx), do: {:error, :unknown}\n    end\n  end\nend\n"
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"own clauses only", map[string]string{"t.ex": tool("use Wymcp.Tool")}, []string{"t.ex:lint/action-without-clause:b"}},
		{"before_compile", map[string]string{"t.ex": tool("use Wymcp.Tool\n  @before_compile App.Fallback")}, nil},
		{"wrapper injects a clause", map[string]string{"t.ex": tool("use App.Tool"), "w.ex": wrapper}, nil},
		{"a used module outside the workspace", map[string]string{"t.ex": tool("use Wymcp.Tool\n  use Dep.Dispatch")}, nil},
		{"a used module of the workspace that injects nothing", map[string]string{"t.ex": tool("use Wymcp.Tool\n  use App.Helpers"),
			"h.ex": "defmodule App.Helpers do\n  defmacro __using__(_), do: quote(do: import(App.Helpers))\nend\n"}, []string{"t.ex:lint/action-without-clause:b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws, dir := setup(t, tt.files)
			if got := found(t, ws, dir); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEveryToolCodeHasAFixture: every tool-level code appears in the
// tools golden file (an exact range under test).
func TestEveryToolCodeHasAFixture(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "tools.golden"))
	if err != nil {
		t.Fatal(err)
	}
	codes := append(validate.ToolCodes(), validate.LintUnknownToolModule, validate.LintToolNotMounted, validate.LintToolName,
		validate.LintActionWithoutClause, validate.LintClauseWithoutAction, validate.LintHintUnknownTool,
		validate.LintHintUnknownAction, validate.LintPayloadUndeclaredKey, validate.LintPayloadMissingRequired)
	for _, c := range codes {
		if !strings.Contains(string(golden), "["+c+"]") {
			t.Errorf("no fixture for %s in tools.golden", c)
		}
	}
}

// TestToolNotMountedPerProject: in a multi-root workspace the hint needs a
// mount in the tool's own folder root.
func TestToolNotMountedPerProject(t *testing.T) {
	tool := func(mod, name string) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def name, do: \"" + name + "\"\n  def actions, do: %{}\nend\n"
	}
	ws, dir := setup(t, map[string]string{
		"web/router.ex": "defmodule Web.Router do\n  use Phoenix.Router\n  forward \"/mcp\", Wymcp.Router, tools: [Web.Listed]\nend\n",
		"web/listed.ex": tool("Web.Listed", "listed"),
		"web/lonely.ex": tool("Web.Lonely", "lonely"),
		"other/tool.ex": tool("Other.Tool", "other"),
	})
	for _, sub := range []string{"web", "other"} {
		if err := ws.AddFolder(context.Background(), filepath.Join(dir, sub), nil); err != nil {
			t.Fatal(err)
		}
	}
	got := found(t, ws, dir)
	if want := []string{"web/lonely.ex:lint/tool-not-mounted:Web.Lonely"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestGlobalChecksFollowEdits: editing a tool's name/0 (not the router)
// republishes the router's document with the new finding, and fixing it
// republishes the router clean.
func TestGlobalChecksFollowEdits(t *testing.T) {
	tool := func(name string) string {
		return "defmodule App.T do\n  use Wymcp.Tool\n  def name, do: \"" + name + "\"\n  def actions, do: %{}\nend\n"
	}
	ws, dir := setup(t, map[string]string{
		"router.ex": "defmodule App.Router do\n  use Wymcp.Router, tools: [App.T]\nend\n",
		"t.ex":      tool("t"),
	})
	ctx := context.Background()
	router, tu := PathURI(filepath.Join(dir, "router.ex")), PathURI(filepath.Join(dir, "t.ex"))
	codes := func(rs []Report) map[string][]string {
		out := map[string][]string{}
		for _, r := range rs {
			out[r.URI] = []string{}
			for _, p := range r.Problems {
				out[r.URI] = append(out[r.URI], p.Code)
			}
		}
		return out
	}
	if got := codes(ws.Diagnose(ctx)); len(got[router]) != 0 {
		t.Fatalf("first: %v", got)
	}
	ws.SetOverlay(tu, 1, []byte(tool("help")))
	got := codes(ws.Diagnose(ctx))
	if !slices.Equal(got[router], []string{"reserved-tool-name"}) {
		t.Errorf("after naming it help: %v", got)
	}
	ws.SetOverlay(tu, 2, []byte(tool("t")))
	got = codes(ws.Diagnose(ctx))
	if r, ok := got[router]; !ok || len(r) != 0 {
		t.Errorf("after the fix the router must be republished clean: %v", got)
	}
}

// TestWrapperQuotedName: name/0 that a wrapper's quote writes is the
// tool's (Elixir defines it in the module that uses the wrapper): its lint
// sits in the wrapper's file, and an edit there re-checks the tool.
func TestWrapperQuotedName(t *testing.T) {
	wrapper := func(name string) string {
		return "defmodule App.Tool do\n  defmacro __using__(_) do\n    quote do\n      use Wymcp.Tool\n      def name, do: \"" + name + "\"\n    end\n  end\nend\n"
	}
	ws, dir := setup(t, map[string]string{
		"lib/tool.ex": wrapper("bad name"),
		"lib/t.ex":    "defmodule App.T do\n  use App.Tool\n  def actions, do: %{}\nend\n",
	})
	if got, want := found(t, ws, dir), []string{`lib/tool.ex:lint/tool-name:"bad name"`}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	p := filepath.Join(dir, "lib", "tool.ex")
	if err := os.WriteFile(p, []byte(wrapper("good")), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(p))
	if got := found(t, ws, dir); len(got) != 0 {
		t.Errorf("after the wrapper's edit: %q, want nothing", got)
	}
}

// TestHintMultiAliasCheapScan: a file that writes `alias Wymcp.{Hint}`
// (or `alias Wymcp.{Hint, Tool}`) holds no "Wymcp.Hint", yet its
// Hint.new/1 calls are hints: the cheap scan lets it through and they
// are checked.
func TestHintMultiAliasCheapScan(t *testing.T) {
	files := readTree(t, filepath.Join("..", "testdata", "toolsclean"))
	h := files["lib/app/hints.ex"]
	for _, r := range [][2]string{{"alias Wymcp.Hint\n", "alias Wymcp.{Hint}\n"}, {`action: "get"`, `action: "fetch"`}} {
		if !strings.Contains(h, r[0]) {
			t.Fatalf("hints.ex does not hold %q", r[0])
		}
		h = strings.Replace(h, r[0], r[1], 1)
	}
	files["lib/app/hints.ex"] = h
	ws, dir := setup(t, files)
	if got, want := found(t, ws, dir), []string{`lib/app/hints.ex:lint/hint-unknown-action:"fetch"`}; !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
