//go:build unix

package workspace

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialConfigFileIsNotRead: a .wymcp-ls.yaml that is a named pipe,
// or a symlink to /dev/zero, is reported as a config error and never
// read. Reading it blocked forever (a FIFO with no writer) or without end
// (/dev/zero), with the workspace lock held, so the analysis and every
// editor request waited on it.
func TestSpecialConfigFileIsNotRead(t *testing.T) {
	tool := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	for _, tc := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file but a named pipe"},
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file but a device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"mix.exs": "", "lib/l.ex": tool})
			cfg := filepath.Join(dir, ConfigName)
			if err := tc.make(cfg); err != nil {
				t.Skip(err)
			}
			done := make(chan []Report, 1)
			go func() {
				ws := New(Options{})
				defer ws.Close()
				if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
					t.Error(err)
				}
				done <- ws.All(context.Background())
			}()
			var rs []Report
			select {
			case rs = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the analysis is still reading the config after 10 s")
			}
			if len(rs) != 2 || rs[0].Path != cfg || len(rs[0].Problems) != 1 || rs[0].Problems[0].Code != CodeConfigError {
				t.Fatalf("want the config error then the lint, got %+v", rs)
			}
			if got, want := rs[0].Problems[0].Message, "bad .wymcp-ls.yaml: cannot read "+cfg+": "+tc.want; got != want {
				t.Errorf("config error %q, want %q", got, want)
			}
			if rs[1].Problems[0].Code != "lint/unknown-type" {
				t.Errorf("defaults not applied: %+v", rs[1].Problems)
			}
		})
	}
}

// TestWatchedNonElixirPathIsNotRead: a watched event for a path that is
// not an .ex or .exs file (a README.md or t.ex.orig holding a tool, a
// dangling link, a link loop or a named pipe without the extension) is
// ignored, as indexing ignores such a path. Before, the event read it as
// Elixir: a README.md got the tool's diagnostics and defined its module a
// second time, and the others got a syntax-error (and, in the editor, a
// "not analysed" warning) for files that are not Elixir at all.
func TestWatchedNonElixirPathIsNotRead(t *testing.T) {
	ctx := context.Background()
	bad := "defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{descripton: \"A\", description: \"A\", properties: %{}}}\nend\n"
	ws, dir := setup(t, map[string]string{"mix.exs": "", "lib/x.ex": bad})
	if rs := ws.Diagnose(ctx); len(rs) != 1 {
		t.Fatalf("before: %+v", rs)
	}
	writeTree(t, dir, map[string]string{"README.md": bad, "lib/x.ex.orig": bad})
	if err := os.Symlink("nowhere", filepath.Join(dir, "lib", "gone")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "lib", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "lib", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"README.md", "lib/x.ex.orig", "lib/gone", "lib/loop", "lib/fifo"} {
		ws.DiskChanged(PathURI(filepath.Join(dir, filepath.FromSlash(rel))))
	}
	for _, r := range ws.Diagnose(ctx) {
		t.Errorf("%s reported: %v", r.URI, codes(r))
	}
	if sk := ws.Skipped(); len(sk) != 0 {
		t.Errorf("skipped: %+v", sk)
	}
}
