//go:build unix

package workspace

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestSymlinkedDirectoriesAreRead: a symbolic link to a directory inside
// a folder is read under the link's path, as Mix compiles what it holds
// (Path.wildcard follows links); a link that loops, or that leads back
// into the folder, adds nothing twice; a link named like a skipped
// directory (deps) is skipped. Before, no link was followed, and the
// offences of a tool in a linked lib/shared were never reported.
func TestSymlinkedDirectoriesAreRead(t *testing.T) {
	const tool = "defmodule App.Shared.T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: 42}}\nend\n"
	const dep = "defmodule Dep.T do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"R\", properties: %{}, notes: 43}}\nend\n"
	base := t.TempDir()
	dir := filepath.Join(base, "app")
	writeTree(t, base, map[string]string{
		"app/mix.exs":            "",
		"app/lib/own.ex":         "defmodule App.Own do\nend\n",
		"shared/lib/tools/t.ex":  tool,
		"shared/lib/tools/x.txt": "",
		"elsewhere/dep/t.ex":     dep,
	})
	symlinks(t, base, map[string]string{
		"app/lib/shared":  "../../shared/lib",    // followed
		"app/lib/again":   "../../shared/lib",    // the same directory again: not twice
		"app/lib/loop":    "..",                  // back into app: not again
		"app/lib/up":      "../..",               // above app: not at all
		"app/lib/deps":    "../../elsewhere/dep", // a skipped name
		"app/lib/nowhere": "../../missing",       // dangling
	})
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	got := relReports(t, ws, dir)
	// lib/again comes before lib/shared in the walk's lexical order; the
	// loop, up and deps links add no file (Dep.T's offence would show).
	want := []string{"lib/again/tools/t.ex", "  wrong-type"}
	if !slices.Equal(got, want) {
		t.Errorf("reports %q, want %q", got, want)
	}
}
