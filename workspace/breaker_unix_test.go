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
