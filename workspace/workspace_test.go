package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

const toolSrc = `defmodule App.Tools.Run do
  use Wymcp.Tool
  alias App.Tools.Schemas

  def actions do
    %{run: %{description: "Run", properties: Schemas.props(), required: ["id"]}}
  end
end
`

const schemasBad = `defmodule App.Tools.Schemas do
  def props, do: %{"name" => %{"type" => "string"}}
end
`

const schemasGood = `defmodule App.Tools.Schemas do
  def props, do: %{"name" => %{"type" => "string"}, "id" => %{"type" => "string"}}
end
`

// setup writes files into a temp dir and indexes it.
func setup(t *testing.T, files map[string]string) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := New(Options{})
	t.Cleanup(ws.Close)
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	return ws, dir
}

// byURI indexes reports.
func byURI(rs []Report) map[string]Report {
	m := map[string]Report{}
	for _, r := range rs {
		m[r.URI] = r
	}
	return m
}

func codes(r Report) []string {
	var out []string
	for _, p := range r.Problems {
		out = append(out, p.Code)
	}
	return out
}

func TestDependentsAreReanalysed(t *testing.T) {
	ctx := context.Background()
	ws, dir := setup(t, map[string]string{"run.ex": toolSrc, "schemas.ex": schemasBad, "other.ex": "defmodule App.Other do\nend\n"})
	toolURI := PathURI(filepath.Join(dir, "run.ex"))
	schemasURI := PathURI(filepath.Join(dir, "schemas.ex"))
	otherURI := PathURI(filepath.Join(dir, "other.ex"))

	first := byURI(ws.Diagnose(ctx))
	r, ok := first[toolURI]
	if !ok || len(r.Problems) != 1 || r.Problems[0].Code != "undeclared-field" {
		t.Fatalf("first Diagnose: want one undeclared-field in run.ex, got %+v", first)
	}
	p := r.Problems[0]
	if got := string(r.Mapper.Content()[p.Span.Start:p.Span.End]); got != `"id"` {
		t.Errorf("range selects %q, want \"id\"", got)
	}
	if p.Message != `action :run: :required names "id", which :properties does not declare` && !strings.Contains(p.Message, `"id"`) {
		t.Errorf("message %q does not name \"id\"", p.Message)
	}

	// An unrelated file changes: the tool is not re-analysed, nothing is reported.
	ws.SetOverlay(otherURI, 1, []byte("defmodule App.Other do\n  def x, do: 1\nend\n"))
	before := ws.evals
	rs := byURI(ws.Diagnose(ctx))
	if ws.evals != before {
		t.Errorf("editing an unrelated file re-evaluated %d tools", ws.evals-before)
	}
	if _, ok := rs[toolURI]; ok {
		t.Errorf("run.ex re-published after an unrelated edit")
	}
	if r, ok := rs[otherURI]; !ok || r.Version != 1 || !r.Overlay || len(r.Problems) != 0 {
		t.Errorf("open buffer other.ex: want an empty publish at version 1, got %+v (present %v)", r, ok)
	}

	// Fixing the Schemas module re-publishes the tool that reads it, clean.
	ws.SetOverlay(schemasURI, 7, []byte(schemasGood))
	before = ws.evals
	rs = byURI(ws.Diagnose(ctx))
	if ws.evals != before+1 {
		t.Errorf("fixing schemas.ex evaluated %d tools, want 1", ws.evals-before)
	}
	if r, ok := rs[toolURI]; !ok || len(r.Problems) != 0 {
		t.Errorf("run.ex: want an empty re-publish after the fix, got %+v (present %v)", r, ok)
	}
	if r := rs[schemasURI]; r.Version != 7 || !r.Overlay {
		t.Errorf("schemas.ex publish carries version %d overlay %v, want 7 true", r.Version, r.Overlay)
	}

	// Breaking it again, then deleting it on disk and closing the buffer:
	// the tool is unresolved (opaque properties), not crashed, and clean.
	ws.SetOverlay(schemasURI, 8, []byte(schemasBad))
	if rs := byURI(ws.Diagnose(ctx)); len(rs[toolURI].Problems) != 1 {
		t.Fatalf("re-broken schemas: want 1 problem in run.ex, got %+v", rs[toolURI])
	}
	if err := os.Remove(filepath.Join(dir, "schemas.ex")); err != nil {
		t.Fatal(err)
	}
	ws.RemoveOverlay(schemasURI)
	ws.DiskChanged(schemasURI)
	rs = byURI(ws.Diagnose(ctx))
	if r, ok := rs[toolURI]; !ok || len(r.Problems) != 0 {
		t.Errorf("after deleting schemas.ex: want run.ex re-published clean, got %+v (present %v)", r, ok)
	}
	if _, ok := ws.Mapper(schemasURI); ok {
		t.Errorf("deleted schemas.ex is still known")
	}
}

func TestOverlayWinsAndCloseFallsBackToDisk(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule T do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	good := strings.Replace(bad, `descripton: "A", `, "", 1)
	ws, dir := setup(t, map[string]string{"t.ex": bad})
	uri := PathURI(filepath.Join(dir, "t.ex"))
	if rs := byURI(ws.Diagnose(ctx)); len(rs[uri].Problems) != 1 {
		t.Fatalf("disk content: want 1 problem, got %+v", rs[uri])
	}
	ws.SetOverlay(uri, 3, []byte(good))
	rs := byURI(ws.Diagnose(ctx))
	if r := rs[uri]; len(r.Problems) != 0 || r.Version != 3 {
		t.Errorf("overlay: want [] at version 3, got %+v", r)
	}
	// Closing: the disk still has the offence, so it is published again, without a version.
	ws.RemoveOverlay(uri)
	rs = byURI(ws.Diagnose(ctx))
	if r := rs[uri]; len(r.Problems) != 1 || r.Overlay {
		t.Errorf("after close: want the disk offence again without version, got %+v", r)
	}
}

func TestUntitledBufferAndClose(t *testing.T) {
	ctx := context.Background()
	ws := New(Options{})
	defer ws.Close()
	uri := "untitled:Untitled-1"
	ws.SetOverlay(uri, 1, []byte("defmodule U do\n  @behaviour Wymcp.Tool\n  def actions, do: %{a: %{properties: %{}}}\nend\n"))
	rs := byURI(ws.Diagnose(ctx))
	if got := codes(rs[uri]); len(got) != 1 || got[0] != "missing-key" {
		t.Fatalf("untitled: want [missing-key], got %v", got)
	}
	ws.RemoveOverlay(uri)
	rs = byURI(ws.Diagnose(ctx))
	if r, ok := rs[uri]; !ok || len(r.Problems) != 0 {
		t.Errorf("closing an untitled buffer: want an empty publish, got %+v (present %v)", r, ok)
	}
}

func TestSharedAttributeIsOneProblem(t *testing.T) {
	ws, dir := setup(t, map[string]string{"s.ex": "defmodule S do\n  use Wymcp.Tool\n  @base %{description: \"R\", properties: %{}, exampels: []}\n  def actions, do: %{read: @base, peek: @base, scan: @base}\nend\n"})
	rs := ws.All(context.Background())
	if len(rs) != 1 || len(rs[0].Problems) != 1 {
		t.Fatalf("want one problem, got %+v", rs)
	}
	p := rs[0].Problems[0]
	if got := strings.Join(p.Actions, " "); got != ":peek :read :scan" {
		t.Errorf("actions = %q, want :peek :read :scan", got)
	}
	if !strings.HasPrefix(p.Message, "actions :peek, :read, :scan: ") {
		t.Errorf("message %q does not name the three actions", p.Message)
	}
	if rs[0].URI != PathURI(filepath.Join(dir, "s.ex")) {
		t.Errorf("uri %s", rs[0].URI)
	}
}

func TestSyntaxSeverityAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.ex")
	if err := os.WriteFile(p, []byte("defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"a\" => }}}\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := New(Options{SyntaxSeverity: validate.Warning})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	rs := ws.All(context.Background())
	if len(rs) != 1 {
		t.Fatalf("want one report, got %d", len(rs))
	}
	found := false
	for _, pr := range rs[0].Problems {
		if pr.Code == CodeSyntaxError {
			found = true
			if pr.Severity != validate.Warning {
				t.Errorf("syntax-error severity %v, want warning", pr.Severity)
			}
			if pr.Span.Len() <= 0 {
				t.Errorf("syntax-error span %+v is empty", pr.Span)
			}
		}
	}
	if !found {
		t.Errorf("no syntax-error in %+v", rs[0].Problems)
	}
}

func TestLargeFileSkipped(t *testing.T) {
	big := "defmodule Big do\n  use Wymcp.Tool\n  def actions, do: %{a: %{properties: %{}}}\nend\n" + strings.Repeat("# padding\n", 300000)
	ws, _ := setup(t, map[string]string{"big.ex": big})
	if rs := ws.All(context.Background()); len(rs) != 0 {
		t.Errorf("a file over 2 MiB must be skipped, got %+v", rs)
	}
}

// TestURIPath pins the file: URI to disk path conversion the server uses
// for workspace folders and watched files.
func TestURIPath(t *testing.T) {
	tests := []struct {
		uri, want string
		ok        bool
	}{
		{"file:///w/proj", "/w/proj", true},
		{"file:///w/two%20words", "/w/two words", true},
		{"FILE:///w/x", "/w/x", true},
		{"untitled:Untitled-1", "", false},
		{"file://", "", false},
		{"not a uri%%", "", false},
		{"", "", false},
	}
	if runtime.GOOS == "windows" {
		t.Skip("paths below are POSIX")
	}
	for _, tt := range tests {
		got := URIPath(tt.uri)
		if ok := got != ""; got != tt.want || ok != tt.ok {
			t.Errorf("URIPath(%q) = %q, %v; want %q, %v", tt.uri, got, ok, tt.want, tt.ok)
		}
	}
}

func TestURIs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("paths below are POSIX (TestURIsUnderWindowsRules has Windows's)")
	}
	for _, tc := range []struct{ path, uri string }{
		{"/a/b.ex", "file:///a/b.ex"},
		{"/a b/c#d.ex", "file:///a%20b/c%23d.ex"},
	} {
		if got := PathURI(tc.path); got != tc.uri {
			t.Errorf("PathURI(%q) = %q, want %q", tc.path, got, tc.uri)
		}
		if got := URIPath(tc.uri); got != tc.path {
			t.Errorf("URIPath(%q) = %q, want %q", tc.uri, got, tc.path)
		}
	}
	for _, uri := range []string{"untitled:Untitled-1", "not a uri", "https://x/y.ex"} {
		if got := URIPath(uri); got != "" {
			t.Errorf("URIPath(%q) = %q, want \"\"", uri, got)
		}
	}
}

// TestNewModuleReanalysesOnlyItsReaders: a module appearing in a new file
// re-evaluates the tools that looked its name up, not every tool.
func TestNewModuleReanalysesOnlyItsReaders(t *testing.T) {
	ctx := context.Background()
	other := "defmodule App.Tools.Other do\n  use Wymcp.Tool\n  def actions, do: %{o: %{description: \"O\", properties: %{}}}\nend\n"
	ws, dir := setup(t, map[string]string{"run.ex": toolSrc, "other.ex": other})
	toolURI := PathURI(filepath.Join(dir, "run.ex"))
	ws.Diagnose(ctx)
	before := ws.evals
	// Schemas does not exist yet: the reader's properties are opaque, no offence.
	ws.SetOverlay("untitled:unrelated", 1, []byte("defmodule App.Unrelated do\nend\n"))
	ws.Diagnose(ctx)
	if ws.evals != before {
		t.Errorf("a new unrelated module re-evaluated %d tools, want 0", ws.evals-before)
	}
	ws.SetOverlay(PathURI(filepath.Join(dir, "schemas.ex")), 1, []byte(schemasBad))
	rs := byURI(ws.Diagnose(ctx))
	if ws.evals != before+1 {
		t.Errorf("the new Schemas module re-evaluated %d tools, want 1 (its reader)", ws.evals-before)
	}
	if got := codes(rs[toolURI]); len(got) != 1 || got[0] != "undeclared-field" {
		t.Errorf("run.ex after Schemas appeared: %v", got)
	}
}

// TestCheapScanSkipsOrdinaryModules: files that declare no tool are parsed
// only when a tool looks up a module they define (docs/architecture.md "Workspace").
func TestCheapScanSkipsOrdinaryModules(t *testing.T) {
	files := map[string]string{"run.ex": toolSrc, "schemas.ex": schemasBad}
	for i := 0; i < 5; i++ {
		files[fmt.Sprintf("plain%d.ex", i)] = fmt.Sprintf("defmodule App.Plain%d do\n  use GenServer\n  def init(s), do: {:ok, s}\nend\n", i)
	}
	ws, _ := setup(t, files)
	rs := ws.All(context.Background())
	if len(rs) != 1 || rs[0].Problems[0].Code != "undeclared-field" {
		t.Fatalf("want the one offence through the lazily parsed Schemas, got %+v", rs)
	}
	if n := ws.parses.Load(); n != 2 {
		t.Errorf("parsed %d files, want 2 (the tool and the Schemas module it reads)", n)
	}
}

// TestSwallowedToolIsASyntaxError: an unterminated string or heredoc that
// swallows the whole tool module is reported on its first line, not passed
// as clean; a stray bracket after a declaration is reported too.
func TestSwallowedToolIsASyntaxError(t *testing.T) {
	ws, _ := setup(t, map[string]string{
		"a.ex": "defmodule Q do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"x, properties: %{}, bogus: 1}}\nend\n",
		"b.ex": "defmodule H do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"\"\"\n abc\n",
		"c.ex": "defmodule E do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"x\", properties: %{}}}}}\nend\n",
		"d.ex": "defmodule Plain do\n  def broken, do: %{a: }\nend\n",
	})
	var got []string
	for _, r := range ws.All(context.Background()) {
		for _, p := range r.Problems {
			l, c := r.Mapper.LineCol(p.Span.Start)
			el, ec := r.Mapper.LineCol(p.Span.End)
			got = append(got, fmt.Sprintf("%s %d:%d-%d:%d %s", filepath.Base(r.Path), l, c, el, ec, p.Code))
		}
	}
	// Where Elixir reports them: the string and the heredoc never closed
	// are shown at their opening quotes (Elixir: "missing terminator ...
	// starting at line 3"), the stray brace at itself.
	want := []string{"a.ex 3:42-3:43 syntax-error", "b.ex 3:42-3:45 syntax-error", "c.ex 3:64-3:65 syntax-error"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestRecreatedModuleIsPickedUp: a Schemas module deleted and later
// created again on disk (a branch switch, a save by delete-and-create) is
// read again by the tool that looks it up.
func TestRecreatedModuleIsPickedUp(t *testing.T) {
	ctx := context.Background()
	ws, dir := setup(t, map[string]string{"run.ex": toolSrc, "schemas.ex": schemasBad})
	run := PathURI(filepath.Join(dir, "run.ex"))
	if rs := byURI(ws.Diagnose(ctx)); len(rs[run].Problems) != 1 {
		t.Fatalf("start: %+v", rs[run])
	}
	path := filepath.Join(dir, "schemas.ex")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(path))
	if rs := byURI(ws.Diagnose(ctx)); len(rs[run].Problems) != 0 {
		t.Fatalf("after delete: %+v", rs[run])
	}
	// Created again, under another file name.
	other := filepath.Join(dir, "lib_other.ex")
	if err := os.WriteFile(other, []byte(schemasBad), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(other))
	if rs := byURI(ws.Diagnose(ctx)); len(rs[run].Problems) != 1 {
		t.Errorf("after re-creating the module: want the offence back, got %+v", rs[run])
	}
}

// TestMultiRootResolvesEachRootsOwnModules: two copies of a project, each
// its own folder root: each tool reads the Schemas module of its own root,
// and each root's .wymcp-ls.yaml switches lints for its own tools only.
func TestMultiRootResolvesEachRootsOwnModules(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	lint := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	for name, files := range map[string]map[string]string{
		"mr1":  {"run.ex": toolSrc, "schemas.ex": schemasBad, "l.ex": lint, ConfigName: "lints:\n  lint/unknown-type: false\n"},
		"mr 2": {"run.ex": toolSrc, "schemas.ex": schemasGood, "l.ex": lint},
	} {
		for f, src := range files {
			if err := os.MkdirAll(filepath.Join(base, name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(base, name, f), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	ws := New(Options{})
	defer ws.Close()
	for _, root := range []string{"mr1", "mr 2"} {
		if err := ws.AddFolder(ctx, filepath.Join(base, root), nil); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range ws.All(ctx) {
		rel, _ := filepath.Rel(base, r.Path)
		for _, p := range r.Problems {
			got = append(got, filepath.ToSlash(rel)+" "+p.Code)
		}
	}
	want := []string{"mr 2/l.ex lint/unknown-type", "mr1/run.ex undeclared-field"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestTwoToolsReadingOneModuleShareTheProblem: the same offence seen by
// two tools that read one Schemas module is one problem naming both.
func TestTwoToolsReadingOneModuleShareTheProblem(t *testing.T) {
	schemas := "defmodule App.Tools.Schemas do\n  def all, do: %{run: %{descripton: \"R\", description: \"R\", properties: %{}}}\nend\n"
	tool := func(n string) string {
		return "defmodule App.Tools." + n + " do\n  use Wymcp.Tool\n  alias App.Tools.Schemas\n  def actions, do: Schemas.all()\nend\n"
	}
	ws, _ := setup(t, map[string]string{"schemas.ex": schemas, "a.ex": tool("A"), "b.ex": tool("B")})
	rs := ws.All(context.Background())
	if len(rs) != 1 || len(rs[0].Problems) != 1 {
		t.Fatalf("want one problem, got %+v", rs)
	}
	p := rs[0].Problems[0]
	if p.Tool != "App.Tools.A, App.Tools.B" || len(p.Related) != 2 || p.Related[0].Message != "read by tool App.Tools.A" || p.Related[1].Message != "read by tool App.Tools.B" {
		t.Errorf("merged problem: tool %q related %+v", p.Tool, p.Related)
	}
}

// TestWatchedEventsFollowTheIndexingRules: a file created under deps/ or
// outside every root is not analysed; a folder created on disk is read; a
// folder deleted on disk takes its files' problems with it.
func TestWatchedEventsFollowTheIndexingRules(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	ws, dir := setup(t, map[string]string{"mix.exs": "defmodule P.MixProject do\nend\n"})
	ws.Diagnose(ctx)
	write := func(rel string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ws.DiskChanged(PathURI(write("deps/x/lib/x.ex")))
	outside := filepath.Join(t.TempDir(), "o.ex")
	if err := os.WriteFile(outside, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(outside))
	if rs := ws.Diagnose(ctx); len(rs) != 0 {
		t.Errorf("files under deps/ or outside the root were analysed: %+v", rs)
	}
	write("lib/tools/a.ex")
	write("lib/tools/b.ex")
	ws.DiskChanged(PathURI(filepath.Join(dir, "lib")))
	if rs := ws.Diagnose(ctx); len(rs) != 2 {
		t.Fatalf("a created folder: want its 2 files reported, got %d", len(rs))
	}
	if err := os.RemoveAll(filepath.Join(dir, "lib")); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(filepath.Join(dir, "lib")))
	rs := ws.Diagnose(ctx)
	if len(rs) != 2 || len(rs[0].Problems)+len(rs[1].Problems) != 0 {
		t.Errorf("a deleted folder: want 2 empty reports, got %+v", rs)
	}
}

// TestEditDuringParseKeepsTheParsedVersion: a didChange that lands while
// Diagnose parses the previous text (its lock released, workspace/analyse.go
// step 2) must not lend its version to that text's problems: the report
// carries the version parsed, which the server drops as stale, and the next
// Diagnose reports the new text at the new version.
func TestEditDuringParseKeepsTheParsedVersion(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule T do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	good := strings.Replace(bad, `descripton: "A", `, "", 1)
	ws := New(Options{})
	defer ws.Close()
	uri := "untitled:Untitled-1"
	ws.SetOverlay(uri, 1, []byte(bad))
	once := false
	ws.parseHook = func(string) {
		if !once {
			once = true
			ws.SetOverlay(uri, 2, []byte(good))
		}
	}
	r := byURI(ws.Diagnose(ctx))[uri]
	if got := fmt.Sprint(r.Version, r.Overlay, codes(r)); got != "1 true [unknown-key]" {
		t.Errorf("the analysis of version 1: got version, overlay, codes %s; want 1 true [unknown-key]", got)
	}
	r = byURI(ws.Diagnose(ctx))[uri]
	if got := fmt.Sprint(r.Version, r.Overlay, codes(r)); got != "2 true []" {
		t.Errorf("the next analysis: got %s; want 2 true []", got)
	}
}

// TestFileReplacedByDirectory: a file x.ex that becomes a directory
// named x.ex (and back) is forgotten as a deleted file, whichever event
// the watcher sends for the path (changed, deleted or created, as it saw
// the path or its new kind); the files read below the directory are
// forgotten when it becomes a file again. Before, the old file stayed in
// the analysis beside the directory's: its problems, and its module
// defined twice.
func TestFileReplacedByDirectory(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	inner := strings.Replace(bad, "X do", "Y do", 1)
	for _, event := range []string{"changed", "deleted then created"} {
		t.Run(event, func(t *testing.T) {
			ws, dir := setup(t, map[string]string{"mix.exs": "", "lib/x.ex": bad})
			x := filepath.Join(dir, "lib", "x.ex")
			ys := filepath.Join(x, "y.ex")
			reports := func() string {
				var out []string
				for _, r := range ws.Diagnose(ctx) {
					rel, _ := filepath.Rel(dir, URIPath(r.URI))
					out = append(out, fmt.Sprint(filepath.ToSlash(rel), " ", codes(r))) // lib\x.ex on Windows
				}
				slices.Sort(out)
				return strings.Join(out, " ")
			}
			notify := func() {
				ws.DiskChanged(PathURI(x))
				if event != "changed" {
					ws.DiskChanged(PathURI(x))
				}
			}
			if got, want := reports(), "lib/x.ex [unknown-key]"; got != want {
				t.Fatalf("before: %s, want %s", got, want)
			}
			if err := os.Remove(x); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(x, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(ys, []byte(inner), 0o644); err != nil {
				t.Fatal(err)
			}
			notify()
			if got, want := reports(), "lib/x.ex [] lib/x.ex/y.ex [unknown-key]"; got != want {
				t.Errorf("a directory now: %s, want %s", got, want)
			}
			if err := os.RemoveAll(x); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(x, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			notify()
			if got, want := reports(), "lib/x.ex [unknown-key] lib/x.ex/y.ex []"; got != want {
				t.Errorf("a file again: %s, want %s", got, want)
			}
		})
	}
}

// TestClosedBufferNoFolderReadsIsForgotten: a buffer of a file no folder
// indexes (outside every folder, under deps/, or not an .ex/.exs file)
// is forgotten when closed, as the open buffer of a removed folder is:
// an empty report clears its diagnostics and its tool leaves the
// workspace. Before, closing it read its disk content into the analysis
// for good: its diagnostics stayed on a file the editor no longer had
// open, and its tool module joined the workspace's.
func TestClosedBufferNoFolderReadsIsForgotten(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	for _, rel := range []string{"", "deps/x/lib/x.ex", "README.md"} {
		t.Run("at "+rel, func(t *testing.T) {
			ws, dir := setup(t, map[string]string{"mix.exs": ""})
			path := filepath.Join(t.TempDir(), "x.ex")
			if rel != "" {
				path = filepath.Join(dir, filepath.FromSlash(rel))
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			uri := PathURI(path)
			ws.SetOverlay(uri, 1, []byte(bad))
			if r := byURI(ws.Diagnose(ctx))[uri]; fmt.Sprint(codes(r)) != "[unknown-key]" {
				t.Fatalf("open: %v, want [unknown-key]", codes(r))
			}
			ws.RemoveOverlay(uri)
			r, ok := byURI(ws.Diagnose(ctx))[uri]
			if !ok || len(r.Problems) != 0 || r.Overlay {
				t.Errorf("closed: report %+v (reported %v), want an empty one", r, ok)
			}
			if tools := ws.Stats().Tools; len(tools) != 0 {
				t.Errorf("closed: tools %+v, want none", tools)
			}
		})
	}
}
