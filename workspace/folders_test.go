package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lintTool is a tool whose one property has an unknown type: a
// lint/unknown-type problem in its own file, wherever it is.
const lintTool = "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"

// TestRemoveFolder: RemoveFolder forgets the files below the folder that
// no other root indexes (a root nested in it keeps its files; a root
// inside a directory the outer root skips does not), keeps open buffers
// until they are closed, and reports each forgotten file that had
// problems with an empty list at the next Diagnose. A folder never added,
// or already removed, changes nothing and returns false
// (docs/architecture.md "LSP behaviour").
func TestRemoveFolder(t *testing.T) {
	tests := []struct {
		name    string
		roots   []string // added in order
		open    string   // a file opened (same text) before the removal, "" for none
		remove  []string
		results []bool   // RemoveFolder's answers
		cleared []string // reported with no problems by the Diagnose after
		left    []string // files with problems after (All)
	}{
		{"one of two", []string{"a", "b"}, "", []string{"a"}, []bool{true},
			[]string{"a/l.ex", "a/sub/l.ex"}, []string{"b/l.ex"}},
		{"outer keeps a nested root", []string{"a", "a/sub", "b"}, "", []string{"a"}, []bool{true},
			[]string{"a/l.ex"}, []string{"a/sub/l.ex", "b/l.ex"}},
		{"nested, still under the outer", []string{"a", "a/sub"}, "", []string{"a/sub"}, []bool{true},
			nil, []string{"a/l.ex", "a/sub/l.ex"}},
		{"nested in a skipped dir", []string{"a", "a/deps/x"}, "", []string{"a/deps/x"}, []bool{true},
			[]string{"a/deps/x/l.ex"}, []string{"a/l.ex", "a/sub/l.ex"}},
		{"never added", []string{"a"}, "", []string{"b", "a/sub", "c"}, []bool{false, false, false},
			nil, []string{"a/l.ex", "a/sub/l.ex"}},
		{"twice", []string{"a", "b"}, "", []string{"b", "b"}, []bool{true, false},
			[]string{"b/l.ex"}, []string{"a/l.ex", "a/sub/l.ex"}},
		{"the last one", []string{"b"}, "", []string{"b"}, []bool{true},
			[]string{"b/l.ex"}, nil},
		{"open buffer stays", []string{"a", "b"}, "b/l.ex", []string{"b"}, []bool{true},
			nil, []string{"a/l.ex", "a/sub/l.ex", "b/l.ex"}},
		// A file given as a folder is one too: removing it clears its
		// problems (README.md "Editors"); they stayed, RemoveFolder
		// answering false. A root holding it, removed, keeps it.
		{"a file given as a folder", []string{"a", "b/l.ex"}, "", []string{"b/l.ex", "b/l.ex"}, []bool{true, false},
			[]string{"b/l.ex"}, []string{"a/l.ex", "a/sub/l.ex"}},
		{"a file given as a folder, inside a root", []string{"a", "a/l.ex"}, "", []string{"a/l.ex"}, []bool{true},
			nil, []string{"a/l.ex", "a/sub/l.ex"}},
		{"a root holding a file given as a folder", []string{"b/l.ex", "b"}, "", []string{"b"}, []bool{true},
			nil, []string{"b/l.ex"}},
		{"an open file given as a folder", []string{"a", "b/l.ex"}, "b/l.ex", []string{"b/l.ex"}, []bool{true},
			nil, []string{"a/l.ex", "a/sub/l.ex", "b/l.ex"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			base := t.TempDir()
			for _, d := range []string{"a", "a/sub", "a/deps/x", "b", "c"} {
				if d == "c" {
					continue // never created
				}
				if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(base, d, "l.ex"), []byte(lintTool), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ws := New(Options{})
			defer ws.Close()
			for _, r := range tt.roots {
				if err := ws.AddFolder(ctx, filepath.Join(base, r), nil); err != nil {
					t.Fatal(err)
				}
			}
			ws.Diagnose(ctx)
			openURI := ""
			if tt.open != "" {
				openURI = PathURI(filepath.Join(base, tt.open))
				ws.SetOverlay(openURI, 1, []byte(lintTool))
				ws.Diagnose(ctx)
			}
			var results []bool
			for _, r := range tt.remove {
				results = append(results, ws.RemoveFolder(filepath.Join(base, r)))
			}
			if !slices.Equal(results, tt.results) {
				t.Errorf("RemoveFolder answers %v, want %v", results, tt.results)
			}
			rel := func(r Report) string {
				p, _ := filepath.Rel(base, URIPath(r.URI)) // a forgotten file has no Path
				return filepath.ToSlash(p)
			}
			var cleared []string
			for _, r := range ws.Diagnose(ctx) {
				if len(r.Problems) == 0 {
					cleared = append(cleared, rel(r))
				}
			}
			if !slices.Equal(cleared, tt.cleared) {
				t.Errorf("cleared %q, want %q", cleared, tt.cleared)
			}
			left := func() []string {
				var out []string
				for _, r := range ws.All(ctx) {
					out = append(out, rel(r))
				}
				return out
			}
			if got := left(); !slices.Equal(got, tt.left) {
				t.Errorf("left %q, want %q", got, tt.left)
			}
			if openURI == "" {
				return
			}
			// Closing the buffer of a removed folder forgets it.
			ws.RemoveOverlay(openURI)
			if got := left(); slices.Contains(got, tt.open) {
				t.Errorf("after closing %s: left %q", tt.open, got)
			}
			if _, ok := ws.Mapper(openURI); ok {
				t.Errorf("%s still known after closing it", tt.open)
			}
		})
	}
}

// TestRemoveFolderThenDiskEvents: once its folder is removed, a file there
// changed or created on disk is not read again, even when no root is left;
// adding the folder back indexes it again.
func TestRemoveFolderThenDiskEvents(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	dir := filepath.Join(base, "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "l.ex")
	if err := os.WriteFile(file, []byte(lintTool), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(ctx, dir, nil); err != nil {
		t.Fatal(err)
	}
	if got := len(ws.All(ctx)); got != 1 {
		t.Fatalf("%d reports before the removal, want 1", got)
	}
	if !ws.RemoveFolder(dir) {
		t.Fatal("RemoveFolder: false")
	}
	ws.DiskChanged(PathURI(file))
	if err := os.WriteFile(filepath.Join(dir, "m.ex"), []byte(strings.Replace(lintTool, "L do", "M do", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(filepath.Join(dir, "m.ex")))
	ws.DiskChanged(PathURI(dir))
	if got := ws.All(ctx); len(got) != 0 {
		t.Errorf("after disk events in the removed folder: %d reports, first %s", len(got), got[0].Path)
	}
	if err := ws.AddFolder(ctx, dir, nil); err != nil {
		t.Fatal(err)
	}
	if got := len(ws.All(ctx)); got != 2 {
		t.Errorf("%d reports after adding the folder back, want 2", got)
	}
}

// TestRemoveFolderForgetsItsConfig: the config-error problem of a removed
// folder's .wymcp-ls.yaml is cleared with its files'.
func TestRemoveFolderForgetsItsConfig(t *testing.T) {
	ctx := context.Background()
	ws, dir := setup(t, map[string]string{"l.ex": lintTool, ConfigName: "lints:\n  lint/no-such-lint: false\n"})
	var before []string
	for _, r := range ws.All(ctx) {
		for _, p := range r.Problems {
			before = append(before, filepath.Base(URIPath(r.URI))+" "+p.Code)
		}
	}
	if want := []string{ConfigName + " config-error", "l.ex lint/unknown-type"}; !slices.Equal(before, want) {
		t.Fatalf("before the removal: %q, want %q", before, want)
	}
	if !ws.RemoveFolder(dir) {
		t.Fatal("RemoveFolder: false")
	}
	var cleared []string
	for _, r := range ws.Diagnose(ctx) {
		if len(r.Problems) == 0 {
			cleared = append(cleared, filepath.Base(URIPath(r.URI)))
		}
	}
	if want := []string{ConfigName, "l.ex"}; !slices.Equal(cleared, want) {
		t.Errorf("cleared %q, want %q", cleared, want)
	}
	if got := ws.All(ctx); len(got) != 0 {
		t.Errorf("%d reports left, first %s", len(got), got[0].URI)
	}
}

// TestFolderAddedAfterItsTwin: a folder root added after a first analysis,
// holding a project whose module names another root already has parsed,
// resolves its tools' modules in its own files, not in the other root's
// (a Schemas module is parsed only when a tool reads it); and a
// tool that could resolve a module only in another root picks up a file
// of its own root that defines it later (docs/architecture.md
// "Workspace", multi-root).
func TestFolderAddedAfterItsTwin(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	write := func(rel, src string) { t.Helper(); writeTree(t, base, map[string]string{rel: src}) }
	write("a/run.ex", toolSrc)
	write("a/schemas.ex", schemasBad)
	write("b/run.ex", toolSrc)
	write("b/schemas.ex", schemasGood)
	write("c/run.ex", toolSrc) // no Schemas module of its own yet
	ws := New(Options{})
	defer ws.Close()
	problems := func() []string {
		var out []string
		for _, r := range ws.All(ctx) {
			rel, _ := filepath.Rel(base, URIPath(r.URI))
			for _, p := range r.Problems {
				out = append(out, filepath.ToSlash(rel)+" "+p.Code+" "+p.Tool)
			}
		}
		return out
	}
	if err := ws.AddFolder(ctx, filepath.Join(base, "a"), nil); err != nil {
		t.Fatal(err)
	}
	ws.Diagnose(ctx)
	for _, r := range []string{"b", "c"} {
		if err := ws.AddFolder(ctx, filepath.Join(base, r), nil); err != nil {
			t.Fatal(err)
		}
	}
	// c's tool reads a's Schemas module (the only one it can find).
	want := []string{"a/run.ex undeclared-field App.Tools.Run", "c/run.ex undeclared-field App.Tools.Run"}
	if got := problems(); !slices.Equal(got, want) {
		t.Errorf("with b and c added:\n got %q\nwant %q", got, want)
	}
	ws.Diagnose(ctx)
	write("c/schemas.ex", schemasGood)
	ws.DiskChanged(PathURI(filepath.Join(base, "c/schemas.ex")))
	want = want[:1]
	if got := problems(); !slices.Equal(got, want) {
		t.Errorf("with c's own Schemas module:\n got %q\nwant %q", got, want)
	}
}

// TestFileFolderAddedBackKeepsOpenBuffer: an open buffer whose folder was
// removed, given again as a folder of its own (a file), is in the
// workspace again: closing it falls back to its disk copy, whose problems
// stay, as for a buffer whose directory is added back. It was forgotten
// on close, the file given as a folder then missing from the workspace.
func TestFileFolderAddedBackKeepsOpenBuffer(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "b", "l.ex")
	if err := os.WriteFile(file, []byte(lintTool), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(ctx, filepath.Join(base, "b"), nil); err != nil {
		t.Fatal(err)
	}
	uri := PathURI(file)
	ws.SetOverlay(uri, 1, []byte(lintTool))
	ws.Diagnose(ctx)
	if !ws.RemoveFolder(filepath.Join(base, "b")) {
		t.Fatal("RemoveFolder b: false")
	}
	if err := ws.AddFolder(ctx, file, nil); err != nil {
		t.Fatal(err)
	}
	ws.RemoveOverlay(uri)
	var got []string
	for _, r := range ws.All(ctx) {
		got = append(got, r.URI+" "+strings.Join(codes(r), ","))
	}
	if want := []string{uri + " lint/unknown-type"}; !slices.Equal(got, want) {
		t.Errorf("after close: %q, want %q", got, want)
	}
}

// TestMountsReadTheirOwnRootsTools: two folder roots holding one project
// twice (two worktrees), in which one tool's name differs: each root's
// mount checks its own root's tools, and lint/tool-not-mounted its own
// mounts; a module only the other root defines is still taken from there.
// Before, every mount took, for a module both roots define, the tool of
// the lowest URI: b's duplicate-tool-name was missed, or reported in a's
// router for a clash only b has.
func TestMountsReadTheirOwnRootsTools(t *testing.T) {
	tool := func(mod, name string) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def name, do: \"" + name + "\"\n  def actions, do: %{a: %{description: \"d\", properties: %{}}}\n  def run_action(:a, _, _), do: :ok\nend\n"
	}
	router := func(tools string) string {
		return "defmodule App.Router do\n  use Plug.Router\n  forward \"/mcp\", to: Wymcp.Router, init_opts: [tools: [" + tools + "]]\nend\n"
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"the clash in the second root", map[string]string{
			"a/mix.exs": "", "a/lib/router.ex": router("App.T, App.U"), "a/lib/t.ex": tool("App.T", "t"), "a/lib/u.ex": tool("App.U", "u"),
			"b/mix.exs": "", "b/lib/router.ex": router("App.T, App.U"), "b/lib/t.ex": tool("App.T", "t"), "b/lib/u.ex": tool("App.U", "t"),
		}, []string{"b/lib/router.ex", "  duplicate-tool-name"}},
		{"the clash in the first root", map[string]string{
			"a/mix.exs": "", "a/lib/router.ex": router("App.T, App.U"), "a/lib/t.ex": tool("App.T", "t"), "a/lib/u.ex": tool("App.U", "t"),
			"b/mix.exs": "", "b/lib/router.ex": router("App.T, App.U"), "b/lib/t.ex": tool("App.T", "t"), "b/lib/u.ex": tool("App.U", "u"),
		}, []string{"a/lib/router.ex", "  duplicate-tool-name"}},
		{"a tool the second root does not mount", map[string]string{
			"a/mix.exs": "", "a/lib/router.ex": router("App.T, App.U"), "a/lib/t.ex": tool("App.T", "t"), "a/lib/u.ex": tool("App.U", "u"),
			"b/mix.exs": "", "b/lib/router.ex": router("App.T"), "b/lib/t.ex": tool("App.T", "t"), "b/lib/u.ex": tool("App.U", "u"),
		}, []string{"b/lib/u.ex", "  lint/tool-not-mounted"}},
		{"a module only the other root defines", map[string]string{
			"a/mix.exs": "", "a/lib/t.ex": tool("Core.T", "help"),
			"b/mix.exs": "", "b/lib/router.ex": router("Core.T"),
		}, []string{"b/lib/router.ex", "  reserved-tool-name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			writeTree(t, base, tc.files)
			ws := New(Options{})
			defer ws.Close()
			for _, d := range []string{"a", "b"} {
				if err := ws.AddFolder(context.Background(), filepath.Join(base, d), nil); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, r := range ws.All(context.Background()) {
				rel, _ := filepath.Rel(base, r.Path)
				got = append(got, filepath.ToSlash(rel))
				for _, p := range r.Problems {
					got = append(got, "  "+p.Code)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("reports %q, want %q", got, tc.want)
			}
		})
	}
}
