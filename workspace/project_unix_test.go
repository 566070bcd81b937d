//go:build unix

package workspace

import (
	"context"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestProjectRootFIFO: an umbrella mix.exs that is a named pipe is not
// read (the read would block, under the workspace's lock): the app keeps
// its own root.
func TestProjectRootFIFO(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"umb/apps/web/mix.exs": "", "umb/apps/web/lib/t.ex": ""})
	if err := syscall.Mkfifo(filepath.Join(dir, "umb", "mix.exs"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := ProjectRoot(filepath.Join(dir, "umb", "apps", "web", "lib")), filepath.Join(dir, "umb", "apps", "web"); got != want {
		t.Errorf("ProjectRoot = %q, want %q", got, want)
	}
}

// TestUmbrellaAppearsOnDisk: the project roots are cached until a mix.exs
// changes: once the umbrella's mix.exs gains apps_path, a mounted module
// no file read defines is no longer certainly absent from one app's folder.
func TestUmbrellaAppearsOnDisk(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"umb/mix.exs":                    "defmodule U.MixProject do\n  def project, do: [app: :u]\nend\n",
		"umb/apps/web/mix.exs":           "",
		"umb/apps/web/lib/web/router.ex": "defmodule Web.Router do\n  use Wymcp.Router, tools: [Web.Gone]\nend\n",
	})
	ws := New(Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), filepath.Join(dir, "umb", "apps", "web"), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := found(t, ws, dir), []string{"umb/apps/web/lib/web/router.ex:lint/unknown-tool-module:Web.Gone"}; !slices.Equal(got, want) {
		t.Fatalf("before: %q, want %q", got, want)
	}
	writeTree(t, dir, map[string]string{"umb/mix.exs": "defmodule U.MixProject do\n  def project, do: [apps_path: \"apps\"]\nend\n"})
	ws.DiskChanged(PathURI(filepath.Join(dir, "umb", "mix.exs")))
	if got := found(t, ws, dir); len(got) != 0 {
		t.Errorf("after the umbrella's apps_path: %q, want nothing", got)
	}
}
