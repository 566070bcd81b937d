package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// copyTree copies testdata/<name> into a temp dir the test may change.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "testdata", name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestEndToEndWrappedTool: a tool module that is one only through `use
// App.Tool` (a workspace wrapper whose __using__ quotes `use Wymcp.Tool`)
// has its schema offence published at the exact range; editing the
// wrapper in a buffer so that it no longer injects Wymcp.Tool withdraws
// it, and undoing the edit publishes it again.
func TestEndToEndWrappedTool(t *testing.T) {
	root := copyTree(t, "tools")
	c := startReal(t, root)
	ctx := testCtx(t)
	wrapped := workspace.PathURI(filepath.Join(root, "lib/app/tools/wrapped.ex"))
	wrapper := workspace.PathURI(filepath.Join(root, "lib/app/tool.ex"))

	p, err := c.WaitPublish(ctx, wrapped, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"range":{"start":{"line":7,"character":52},"end":{"line":7,"character":59}},"severity":1,"code":"unknown-key","source":"wymcp","message":"action :list: unknown key :example; fix: did you mean :examples?"}]`
	if got := diagJSON(t, p); got != want {
		t.Fatalf("wrapped.ex diagnostics:\n got %s\nwant %s", got, want)
	}

	disk, err := os.ReadFile(filepath.Join(root, "lib/app/tool.ex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(wrapper, 1, string(disk)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, wrapper, 1); err != nil {
		t.Fatal(err)
	}
	n := len(c.Publishes(wrapped))
	// Line 3 (0-based) is `      use Wymcp.Tool`: make it `      use Wymcp.Tols`.
	if !strings.Contains(strings.Split(string(disk), "\n")[3], "use Wymcp.Tool") {
		t.Fatalf("fixture changed: %q", strings.Split(string(disk), "\n")[3])
	}
	if err := c.ChangeText(wrapper, 2, lsptest.Edit(3, 16, 3, 20, "Tols")); err != nil {
		t.Fatal(err)
	}
	err = c.WaitFor(ctx, "wrapped.ex withdrawn", func() bool {
		ps := c.Publishes(wrapped)
		return len(ps) > n && len(ps[len(ps)-1].Diagnostics) == 0
	})
	if err != nil {
		t.Fatal(err)
	}
	n = len(c.Publishes(wrapped))
	if err := c.ChangeText(wrapper, 3, lsptest.Edit(3, 16, 3, 20, "Tool")); err != nil {
		t.Fatal(err)
	}
	err = c.WaitFor(ctx, "wrapped.ex published again", func() bool {
		ps := c.Publishes(wrapped)
		return len(ps) > n && diagJSON(t, ps[len(ps)-1]) == want
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHoverWrappedTool: the action hover of a tool behind a wrapper names
// the tool by its name/0, in a clean buffer and in a half-typed one.
func TestHoverWrappedTool(t *testing.T) {
	wrapper := "defmodule App.Tool do\n  defmacro __using__(_opts) do\n    quote do\n      use Wymcp.Tool\n    end\n  end\nend\n"
	tool := "defmodule App.Tools.Wrapped do\n  use App.Tool\n  @name \"wrapped\"\n  def name, do: @name\n\n  def actions do\n    %{list: %{description: \"List\", properties: %{}}}\n  end\nend\n"
	want := "```text\nlist: List\n```\n\nThe line `tools/list` publishes for this action and the help index lists.\n\nHelp: `help {tool: \"wrapped\", action: \"list\"}`\n"
	for _, src := range []string{tool, strings.Replace(tool, "properties: %{}}}", "properties: %{", 1)} {
		cl, docs := curOpen(t, map[string]string{"lib/tool.ex": wrapper, "lib/wrapped.ex": src})
		h := hoverAt(t, cl, at(t, docs["lib/wrapped.ex"], "%{", "list:", 1))
		if h == nil || h.Contents.Value != want {
			t.Errorf("hover on %q:\n%+v\nwant %q", src, h, want)
		}
	}
}
