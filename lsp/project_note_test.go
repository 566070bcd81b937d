package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

// TestFolderInsideAProjectIsNoted: a workspace folder that is one app of
// an umbrella gets one window/showMessage note (Info) saying the other
// apps are not read and which folder to open, before the diagnostics; the
// umbrella's own folder, and a folder that is a whole project, get none.
func TestFolderInsideAProjectIsNoted(t *testing.T) {
	root := t.TempDir()
	// A tool with an offence in each folder: its publish comes after the
	// note, if any.
	const tool = "defmodule %s do\n  use Wymcp.Tool\n  def actions, do: Map.merge(Core.Schemas.all(), %%{a: %%{description: \"A\"}})\nend\n"
	files := map[string]string{
		"umb/mix.exs":             "defmodule U.MixProject do\n  def project, do: [apps_path: \"apps\"]\nend\n",
		"umb/apps/web/mix.exs":    "",
		"umb/apps/web/lib/web.ex": strings.Replace(tool, "%s", "Web.Tool", 1),
		"umb/apps/core/mix.exs":   "",
		"solo/mix.exs":            "",
		"solo/lib/t.ex":           strings.Replace(tool, "%s", "T", 1),
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(src, "%%", "%")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	umb := filepath.Join(root, "umb")
	for _, tc := range []struct{ folder, file, want string }{
		{"umb/apps/web", "umb/apps/web/lib/web.ex", "wymcp-ls: the folder " + filepath.Join(umb, "apps", "web") + " is part of the umbrella project at " + umb +
			"; modules defined outside the folder are not read, so values a tool takes from them are not checked. Open " + umb + " as the workspace folder to check them."},
		{"umb", "umb/apps/web/lib/web.ex", ""},
		{"solo", "solo/lib/t.ex", ""},
	} {
		c := startReal(t, filepath.Join(root, filepath.FromSlash(tc.folder)))
		if _, err := c.WaitPublish(testCtx(t), workspace.PathURI(filepath.Join(root, filepath.FromSlash(tc.file))), nil); err != nil {
			t.Fatalf("%s: %v", tc.folder, err)
		}
		if got := shownMessages(t, c, 3); strings.Join(got, "\n") != tc.want {
			t.Errorf("%s: messages %q, want %q", tc.folder, got, tc.want)
		}
	}
}
