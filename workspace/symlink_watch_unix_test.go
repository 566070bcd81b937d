//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// symlinks makes each link (a path under base) point at its target,
// making the link's parent directories first.
func symlinks(t *testing.T, base string, links map[string]string) {
	t.Helper()
	for link, target := range links {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(base, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
}

// relReports lists each report's path relative to dir, each followed by
// its problems' codes, indented.
func relReports(t *testing.T, ws *Workspace, dir string) []string {
	t.Helper()
	var got []string
	for _, r := range ws.All(context.Background()) {
		rel, _ := filepath.Rel(dir, r.Path)
		got = append(got, filepath.ToSlash(rel))
		for _, p := range r.Problems {
			got = append(got, "  "+p.Code)
		}
	}
	return got
}

// TestLinkAboveAnEarlierLinkIsRead: a link to shared/lib read after a
// link to shared/lib/tools reads the rest of shared/lib (README.md: a link
// is skipped only when it leads back to a directory already read), and
// skips the tools already read; a link to a directory named like an
// Elixir file (lib/more.ex) is followed too. Before, which files were read
// hung on the links' names: lib/b was skipped whole, as "above" lib/a,
// and the offence in other/o.ex never reported; lib/more.ex was reported
// as a syntax-error "not a regular file but a directory".
func TestLinkAboveAnEarlierLinkIsRead(t *testing.T) {
	tool := func(mod string, n int) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: " + string(rune('0'+n)) + "}}\nend\n"
	}
	base := t.TempDir()
	dir := filepath.Join(base, "app")
	writeTree(t, base, map[string]string{
		"app/mix.exs":           "",
		"shared/lib/tools/t.ex": tool("S.T", 1),
		"shared/lib/other/o.ex": tool("S.O", 2),
		"extra/e.ex":            tool("S.E", 3),
	})
	symlinks(t, base, map[string]string{
		"app/lib/a":       "../../shared/lib/tools",
		"app/lib/b":       "../../shared/lib",
		"app/lib/more.ex": "../../extra",
	})
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	got := relReports(t, ws, dir)
	want := []string{"lib/a/t.ex", "  wrong-type", "lib/b/other/o.ex", "  wrong-type", "lib/more.ex/e.ex", "  wrong-type"}
	if !slices.Equal(got, want) {
		t.Errorf("reports %q, want %q", got, want)
	}
}

// TestCreatedLinkFollowsTheIndexingRules: a directory link created while
// the server runs (workspace/didChangeWatchedFiles) is read only as
// indexing the folder reads it (workspace.go addTree): not when it leads
// back into the folder or above it, not when named deps, and a link inside
// a folder moved in that leads back into the folder is not followed
// either. Before, each was walked from the link: the whole folder read a
// second time under lib/loop, lib/sub under lib/moved/back, the folder's parent under
// lib/up (a link to / read the whole disk), and Dep.T under lib/deps.
func TestCreatedLinkFollowsTheIndexingRules(t *testing.T) {
	const own = "defmodule App.Own do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: 42}}\nend\n"
	const dep = "defmodule Dep.T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: 43}}\nend\n"
	base := t.TempDir()
	dir := filepath.Join(base, "app")
	writeTree(t, base, map[string]string{
		"app/mix.exs":        "",
		"app/lib/own.ex":     own,
		"elsewhere/dep/t.ex": dep,
		"app/lib/sub/s.ex":   strings.Replace(own, "App.Own", "App.Sub", 1),
		"moved/m.ex":         dep,
	})
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	symlinks(t, base, map[string]string{
		"app/lib/loop": "..",
		"app/lib/up":   "../..",
		"app/lib/deps": "../../elsewhere/dep",
		"moved/back":   "../sub", // app/lib/sub once moved in
	})
	if err := os.Rename(filepath.Join(base, "moved"), filepath.Join(dir, "lib/moved")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"lib/loop", "lib/up", "lib/deps", "lib/moved"} {
		ws.DiskChanged(PathURI(filepath.Join(dir, p)))
	}
	got := relReports(t, ws, dir)
	want := []string{"lib/moved/m.ex", "  wrong-type", "lib/own.ex", "  wrong-type", "lib/sub/s.ex", "  wrong-type"}
	if !slices.Equal(got, want) {
		t.Errorf("reports %q, want %q", got, want)
	}
}

// TestDeletedLinkReadsTheLinkItHid: when the link a directory was read
// through is deleted, a link (or a directory inside one) skipped as
// leading there is read in its place, once; deleting any other file reads
// nothing again. Before, the tools lib/a had read vanished with it, though
// lib/b/tools and lib/c still led to them.
func TestDeletedLinkReadsTheLinkItHid(t *testing.T) {
	const tool = "defmodule S.T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: 1}}\nend\n"
	base := t.TempDir()
	dir := filepath.Join(base, "app")
	writeTree(t, base, map[string]string{
		"app/mix.exs":           "",
		"app/lib/gone.ex":       "defmodule Gone do\nend\n",
		"shared/lib/tools/t.ex": tool,
	})
	symlinks(t, base, map[string]string{
		"app/lib/a": "../../shared/lib/tools",
		"app/lib/b": "../../shared/lib",
		"app/lib/c": "../../shared/lib/tools",
	})
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := relReports(t, ws, dir), []string{"lib/a/t.ex", "  wrong-type"}; !slices.Equal(got, want) {
		t.Fatalf("reports %q, want %q", got, want)
	}
	gone := filepath.Join(dir, "lib/gone.ex")
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(gone))
	if got, want := relReports(t, ws, dir), []string{"lib/a/t.ex", "  wrong-type"}; !slices.Equal(got, want) {
		t.Errorf("after deleting lib/gone.ex: reports %q, want %q", got, want)
	}
	for _, step := range []struct{ link, want string }{{"lib/a", "lib/b/tools/t.ex"}, {"lib/b", "lib/c/t.ex"}} {
		p := filepath.Join(dir, step.link)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		ws.DiskChanged(PathURI(p))
		if got, want := relReports(t, ws, dir), []string{step.want, "  wrong-type"}; !slices.Equal(got, want) {
			t.Errorf("after deleting %s: reports %q, want %q", step.link, got, want)
		}
	}
}
