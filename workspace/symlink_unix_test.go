//go:build unix

package workspace

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
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

// TestOverlayThroughAFolderLinkTakesTheFileOver: a folder opened through
// a symbolic link (~/proj leading to /data/proj, macOS's /tmp leading to
// /private/tmp) and a buffer opened under the file's other path, or the
// other way round, are one file: the buffer takes the indexed file over,
// as one under another URI spelling does, and is closed back to its disk
// content under the buffer's URI. Before, the file was analysed twice:
// its module defined twice, and the disk copy's problems still shown
// under the folder's path after the buffer fixed them.
func TestOverlayThroughAFolderLinkTakesTheFileOver(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	good := strings.Replace(bad, `descripton: "A", `, "", 1)
	for _, tc := range []struct {
		name         string
		folder, open string // the folder added and the directory the buffer is opened under
	}{
		{"folder through the link", "link", "real"},
		{"buffer through the link", "real", "link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			writeTree(t, base, map[string]string{"real/mix.exs": "", "real/lib/x.ex": bad})
			symlinks(t, base, map[string]string{"link": "real"})
			ws := New(Options{})
			defer ws.Close()
			if err := ws.AddFolder(ctx, filepath.Join(base, tc.folder), nil); err != nil {
				t.Fatal(err)
			}
			rel := func(uri string) string {
				r, _ := filepath.Rel(base, URIPath(uri))
				return r
			}
			reports := func() string {
				var out []string
				for _, r := range ws.Diagnose(ctx) {
					out = append(out, fmt.Sprint(rel(r.URI), " ", codes(r)))
				}
				slices.Sort(out)
				return strings.Join(out, " ")
			}
			indexed := filepath.Join(tc.folder, "lib", "x.ex")
			opened := filepath.Join(tc.open, "lib", "x.ex")
			if got, want := reports(), indexed+" [unknown-key]"; got != want {
				t.Fatalf("indexed: %s, want %s", got, want)
			}
			buf := PathURI(filepath.Join(base, opened))
			ws.SetOverlay(buf, 1, []byte(good))
			both := []string{indexed + " []", opened + " []"}
			slices.Sort(both)
			if got, want := reports(), strings.Join(both, " "); got != want {
				t.Errorf("open: %s, want %s", got, want)
			}
			if tools := ws.Stats().Tools; len(tools) != 1 {
				t.Errorf("open: %d tool modules, want 1: %+v", len(tools), tools)
			}
			ws.RemoveOverlay(buf)
			if got, want := reports(), opened+" [unknown-key]"; got != want {
				t.Errorf("closed: %s, want %s", got, want)
			}
			if tools := ws.Stats().Tools; len(tools) != 1 {
				t.Errorf("closed: %d tool modules, want 1: %+v", len(tools), tools)
			}
		})
	}
}
