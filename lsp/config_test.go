package lsp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

// TestConfigPerDocument: the server takes each document's lint switches
// from its nearest .wymcp-ls.yaml (README.md, "How the config is found"):
// an umbrella app's own config, one created later (a watched-file event),
// and the config of a project opened outside every workspace folder.
func TestConfigPerDocument(t *testing.T) {
	lint := func(mod string) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	}
	off := "lints:\n  lint/unknown-type: false\n"
	root, solo := t.TempDir(), t.TempDir()
	for path, text := range map[string]string{
		filepath.Join(root, "mix.exs"):                      "",
		filepath.Join(root, "apps/x/mix.exs"):               "",
		filepath.Join(root, "apps/x", workspace.ConfigName): off,
		filepath.Join(root, "apps/x/lib/t.ex"):              lint("X"),
		filepath.Join(root, "apps/y/mix.exs"):               "",
		filepath.Join(root, "apps/y/lib/t.ex"):              lint("Y"),
		filepath.Join(solo, "mix.exs"):                      "",
		filepath.Join(solo, workspace.ConfigName):           off,
		filepath.Join(solo, "lib/t.ex"):                     lint("Solo"),
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startReal(t, root)
	ctx := testCtx(t)
	x := workspace.PathURI(filepath.Join(root, "apps/x/lib/t.ex"))
	y := workspace.PathURI(filepath.Join(root, "apps/y/lib/t.ex"))
	p, err := c.WaitPublish(ctx, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "lint/unknown-type" {
		t.Fatalf("apps/y (no config of its own): %+v", p.Diagnostics)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Publishes(x) {
		if len(p.Diagnostics) != 0 {
			t.Errorf("apps/x switched the lint off, yet: %+v", p.Diagnostics)
		}
	}

	// A config created in apps/y switches its lint off too.
	cfg := filepath.Join(root, "apps/y", workspace.ConfigName)
	if err := os.WriteFile(cfg, []byte(off), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": workspace.PathURI(cfg), "type": 1}}}); err != nil {
		t.Fatal(err)
	}
	err = c.WaitFor(ctx, "apps/y clean after its config appeared", func() bool {
		ps := c.Publishes(y)
		return len(ps[len(ps)-1].Diagnostics) == 0
	})
	if err != nil {
		t.Fatal(err)
	}

	// A document outside every folder takes its own project's config.
	soloURI := workspace.PathURI(filepath.Join(solo, "lib/t.ex"))
	if err := c.Open(soloURI, 1, lint("Solo")); err != nil {
		t.Fatal(err)
	}
	if p, err = c.WaitVersion(ctx, soloURI, 1); err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 0 {
		t.Errorf("a buffer outside the folders ignored its project's config: %+v", p.Diagnostics)
	}
}
