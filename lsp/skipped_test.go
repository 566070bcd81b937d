package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// bigTool returns a tool module of exactly n bytes (a long comment pads it).
func bigTool(n int) string {
	head := "defmodule App.Tools.Big do\n  use Wymcp.Tool; def name, do: \"big\"\n  def actions, do: %{}\nend\n# "
	return head + strings.Repeat("x", n-len(head)-1) + "\n"
}

// TestSkippedDocumentsAreAnnounced: a disk file over the 2 MiB limit, a
// file that cannot be read (a dangling symbolic link) and an open buffer
// over the limit each get exactly one window/showMessage warning naming
// the path relative to the workspace root; editing the big buffer does not
// repeat it.
func TestSkippedDocumentsAreAnnounced(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a dangling symbolic link")
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	// 3.1 MiB: 3,250,586 bytes.
	if err := os.WriteFile(filepath.Join(root, "app/big.ex"), []byte(bigTool(3250586)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "app/gone.ex"), filepath.Join(root, "app/link.ex")); err != nil {
		t.Fatal(err)
	}
	c := startReal(t, root)
	ctx := testCtx(t)
	messages := func() []string { return shownMessages(t, c, 2) }
	if err := c.WaitFor(ctx, "two warnings", func() bool { return len(messages()) >= 2 }); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"wymcp-ls: app/big.ex not analysed (3.1 MiB, over the 2 MiB limit)",
		"wymcp-ls: app/link.ex not analysed (cannot read it: broken symbolic link: no such file or directory)",
	}
	if got := messages(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	huge := workspace.PathURI(filepath.Join(root, "app/huge.ex"))
	if err := c.Open(huge, 1, bigTool(2621440)); err != nil { // 2.5 MiB
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, huge, 1); err != nil {
		t.Fatal(err)
	}
	if err := c.ChangeText(huge, 2, lsptest.Edit(0, 0, 0, 0, "# more\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, huge, 2); err != nil {
		t.Fatal(err)
	}
	want = append(want, "wymcp-ls: app/huge.ex not analysed (2.5 MiB, over the 2 MiB limit)")
	if got := messages(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings after the buffer:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// shownMessages returns the window/showMessage texts c received, failing
// the test for one whose type is not typ (2 Warning, 3 Info).
func shownMessages(t *testing.T, c *lsptest.Client, typ int) []string {
	t.Helper()
	var out []string
	for _, m := range c.Notifications("window/showMessage") {
		var p struct {
			Type    int
			Message string
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Type != typ {
			t.Errorf("showMessage type %d, want %d: %s", p.Type, typ, p.Message)
		}
		out = append(out, p.Message)
	}
	return out
}
