package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/listing"
	"github.com/wymcp/wymcp-ls/workspace"
)

var updateListing = flag.Bool("update-listing", false, "rewrite testdata/golden/tools-list*.golden and help-preview*.golden")

// TestListingGolden runs tools-list and help-preview on the fixtures and
// compares stdout with the golden files under testdata/golden.
func TestListingGolden(t *testing.T) {
	inRepo(t)
	tests := []struct {
		golden string
		args   []string
	}{
		{"tools-list.golden", []string{"tools-list", "testdata/example"}},
		{"help-preview.golden", []string{"help-preview", "testdata/example"}},
		{"help-preview-tool.golden", []string{"help-preview", "--tool", "App.Tools.Tasks", "testdata/example"}},
		{"help-preview-action.golden", []string{"help-preview", "testdata/example", "--tool", "App.Tools.Tasks", "--action", "create"}},
		{"tools-list-listing.golden", []string{"tools-list", "testdata/listing"}},
		{"help-preview-listing.golden", []string{"help-preview", "testdata/listing"}},
		{"help-preview-listing-tool.golden", []string{"help-preview", "--tool", "catalog", "testdata/listing"}},
		{"help-preview-listing-action.golden", []string{"help-preview", "--tool", "catalog", "--action", "get", "testdata/listing"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			code, out, errs := runCmd(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %s", code, errs)
			}
			path := filepath.Join("testdata", "golden", tt.golden)
			if *updateListing {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update-listing to create): %v", err)
			}
			if out != string(want) {
				t.Errorf("%s differs (rerun with -update-listing after checking):\n--- got\n%s\n--- want\n%s", path, out, want)
			}
		})
	}
}

func TestListingErrors(t *testing.T) {
	inRepo(t)
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"help-preview", "--action", "create", "testdata/example"}, 2, "wymcp-ls help-preview: --action needs --tool\nRun 'wymcp-ls help-preview --help' for usage.\n"},
		{[]string{"help-preview", "--tool", "nope", "testdata/example"}, 1, "wymcp-ls help-preview: no tool named \"nope\" under testdata/example\n"},
		{[]string{"help-preview", "--tool", "catalog", "--action", "drop", "testdata/listing"}, 1, "wymcp-ls help-preview: Shop.Tools.Catalog declares no action \"drop\" (its actions: get, search)\n"},
		{[]string{"tools-list", "testdata/example", "testdata/listing"}, 2, "wymcp-ls tools-list: one PATH at most, got 2\nRun 'wymcp-ls tools-list --help' for usage.\n"},
		{[]string{"tools-list", "testdata/missing"}, 2, "wymcp-ls tools-list: stat testdata/missing: no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if out != "" {
				t.Errorf("stdout %q", out)
			}
			if first, _, _ := strings.Cut(errs, "usage:"); first != tt.stderr {
				t.Errorf("stderr %q, want %q", first, tt.stderr)
			}
		})
	}
}

// TestListingAgainstElixir compares every answer for testdata/listing and
// testdata/example with the one testdata/listing/reference.exs builds in
// Elixir from the compiled modules and writes as Jason does (map keys in
// the BEAM's own order, floats by :io_lib_format.fwrite_g/1): evaluation,
// key order and number forms are checked against the real VM, not against
// our own reasoning.
func TestListingAgainstElixir(t *testing.T) {
	elixir, err := exec.LookPath("elixir")
	if err != nil {
		t.Skip("elixir not on PATH: the reference comparison needs it (Debian package elixir)")
	}
	inRepo(t)
	for _, tt := range []struct {
		dir     string
		answers int
	}{{"testdata/listing", 7}, {"testdata/example", 12}} {
		t.Run(tt.dir, func(t *testing.T) {
			cmd := exec.Command(elixir, "testdata/listing/reference.exs", tt.dir+"/lib")
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			var stderr strings.Builder
			cmd.Stderr = &stderr
			raw, err := cmd.Output()
			if err != nil {
				t.Fatalf("reference.exs: %v\n%s", err, stderr.String())
			}
			want := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				i := strings.LastIndex(line, " [")
				if j := strings.LastIndex(line, " {"); j > i {
					i = j
				}
				if i < 0 {
					t.Fatalf("reference line without JSON: %q", line)
				}
				want[line[:i]] = line[i+1:]
			}

			ws := workspace.New(workspace.Options{})
			defer ws.Close()
			if err := ws.AddFolder(context.Background(), tt.dir, nil); err != nil {
				t.Fatal(err)
			}
			listed, _ := ws.Listing(context.Background())
			tools := toolsOf(listed)
			got := map[string]string{
				"tools-list": string(listing.ToolsList(tools).Compact()),
				"help-index": string(listing.HelpIndex(tools).Compact()),
			}
			for _, tool := range tools {
				got["help-tool "+tool.Module] = string(listing.HelpTool(tool).Compact())
				for _, a := range listing.ActionNames(tool) {
					ans, err := listing.HelpAction(tool, a)
					if err != nil {
						t.Fatal(err)
					}
					got["help-action "+tool.Module+" "+a] = string(ans.Compact())
				}
			}
			if len(got) != len(want) || len(want) != tt.answers {
				t.Errorf("%d answers, reference %d, want %d", len(got), len(want), tt.answers)
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s\n ours %s\n  ref %s", k, got[k], w)
				}
			}
		})
	}
}

// The figures are labelled with listing.Encoding: the counter the command
// wires in must count that vocabulary.
func TestCounterIsListingEncoding(t *testing.T) {
	if got := newCounter().Encoding(); got != listing.Encoding {
		t.Fatalf("the command counts %s tokens, the figures say %s", got, listing.Encoding)
	}
}

// TestListingNotes: a module a mount lists but the workspace does not
// declare as a tool is named on a comment line of its own, below the
// title, and one defined by no file read of a project read in part with
// the path that reads it all (the title ends with "then help", which that note must not
// follow); a PATH without tool modules says so on stderr, as check does.
func TestListingNotes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"app/lib/t.ex":      "defmodule App.T do\n  use Wymcp.Tool\n  def name, do: \"t\"\n  def description, do: \"T\"\n  def actions, do: %{a: %{description: \"A\", properties: %{}}}\nend\n",
		"app/lib/router.ex": "defmodule App.Router do\n  use Plug.Router\n  forward \"/mcp\", Wymcp.Router, tools: [App.T, App.Missing]\nend\n",
		"empty/lib/x.ex":    "defmodule X do\nend\n",
		// An app of an umbrella listing a sibling app's tool.
		"umb/mix.exs":                "defmodule U.MixProject do\n  def project, do: [apps_path: \"apps\"]\nend\n",
		"umb/apps/web/mix.exs":       "",
		"umb/apps/web/lib/router.ex": "defmodule Web.Router do\n  use Wymcp.Router, tools: [Core.Ping]\nend\n",
		"umb/apps/core/mix.exs":      "",
		// A mount Wymcp.Router.init/1 raises for: a tool named help, a
		// name listed twice, and Wymcp's own help tool listed.
		"refused/lib/tools.ex": "defmodule R.Help do\n  use Wymcp.Tool\n  def name, do: \"help\"\n  def actions, do: %{}\nend\n" +
			"defmodule R.A do\n  use Wymcp.Tool\n  def name, do: \"a\"\n  def actions, do: %{}\nend\n" +
			"defmodule R.B do\n  use Wymcp.Tool\n  def name, do: \"a\"\n  def actions, do: %{}\nend\n",
		"refused/lib/router.ex":     "defmodule R.Router do\n  use Wymcp.Router, tools: [R.Help, R.A, R.B, Wymcp.Help]\nend\n",
		"umb/apps/core/lib/ping.ex": "defmodule Core.Ping do\n  use Wymcp.Tool\n  def name, do: \"ping\"\n  def description, do: \"P\"\n  def actions, do: %{a: %{description: \"A\", properties: %{}}}\nend\n",
	})
	t.Chdir(dir)

	code, out, errs := runCmd(t, "tools-list", "umb/apps/web")
	head, _, _ := strings.Cut(out, "\n[")
	if want := "# mount at umb/apps/web/lib/router.ex:2:3: 0 tools, then help\n# left out of that mount's list, defined by no file read: Core.Ping; run this on umb to read the whole project"; code != 0 || head != want {
		t.Errorf("tools-list on one app of an umbrella: exit %d, stderr %q, head:\n%s\nwant:\n%s", code, errs, head, want)
	}
	code, out, _ = runCmd(t, "tools-list", "refused")
	head, _, _ = strings.Cut(out, "\n[")
	if want := "# mount at refused/lib/router.ex:2:3: 3 tools, then help\n" +
		"# Wymcp.Router.init/1 raises for that mount, so the server does not start: tool name \"help\" is reserved (R.Help); tool name \"a\" is listed twice (R.B); Wymcp.Help is listed (see wymcp-ls check)"; code != 0 || head != want {
		t.Errorf("tools-list on a mount Wymcp refuses: exit %d, head:\n%s\nwant:\n%s", code, head, want)
	}
	// The same tools with no mount: what a mount of them all would raise.
	code, out, _ = runCmd(t, "tools-list", "refused/lib/tools.ex")
	head, _, _ = strings.Cut(out, "\n[")
	if want := "# no mount found: every tool module (3), then help\n" +
		"# R.A, R.B are named \"a\": a mount listing two of them does not start (duplicate-tool-name)\n" +
		"# R.Help is named \"help\", which Wymcp reserves for its own help tool: a mount listing it does not start (reserved-tool-name)"; code != 0 || head != want {
		t.Errorf("tools-list on tools named help and twice, no mount: exit %d, head:\n%s\nwant:\n%s", code, head, want)
	}
	code, out, _ = runCmd(t, "help-preview", "--tool", "help", "refused/lib/tools.ex")
	head, _, _ = strings.Cut(out, "\n{")
	if want := "# help answer for tool R.Help\n" +
		"# R.Help is named \"help\", which Wymcp reserves for its own help tool: a mount listing it does not start (reserved-tool-name); this is the answer it would give under another name"; code != 0 || head != want {
		t.Errorf("help-preview --tool help: exit %d, head:\n%s\nwant:\n%s", code, head, want)
	}
	code, out, _ = runCmd(t, "tools-list", "umb")
	if head, _, _ = strings.Cut(out, "\n["); code != 0 || head != "# mount at umb/apps/web/lib/router.ex:2:3: 1 tool, then help" {
		t.Errorf("tools-list on the umbrella: exit %d, head %q", code, head)
	}

	code, out, errs = runCmd(t, "tools-list", "app")
	head, _, _ = strings.Cut(out, "\n[")
	if want := "# mount at app/lib/router.ex:3:3: 1 tool, then help\n# left out of that mount's list, not tool modules of the workspace: App.Missing"; code != 0 || head != want || errs != "" {
		t.Errorf("tools-list: exit %d, stderr %q, head:\n%s\nwant:\n%s", code, errs, head, want)
	}
	code, out, errs = runCmd(t, "help-preview", "app")
	head, _, _ = strings.Cut(out, "\n[")
	if want := "# help index, mount at app/lib/router.ex:3:3: 1 tool\n# left out of that mount's list, not tool modules of the workspace: App.Missing"; code != 0 || head != want || errs != "" {
		t.Errorf("help-preview: exit %d, stderr %q, head:\n%s\nwant:\n%s", code, errs, head, want)
	}
	for cmd, answer := range map[string]string{"tools-list": `"name": "help"`, "help-preview": "\n[]\n"} {
		code, out, errs := runCmd(t, cmd, "empty")
		if want := "wymcp-ls: no Wymcp tool modules found under empty (1 file read)\n"; code != 0 || errs != want || !strings.Contains(out, answer) {
			t.Errorf("%s on a folder without tools: exit %d, stderr %q (want %q), stdout:\n%s", cmd, code, errs, want, out)
		}
	}
}

// TestHelpPreviewSameName: two tool modules whose name/0 is the same
// string make --tool NAME ambiguous: help-preview says which modules and
// exits 1, and the module name still picks one.
func TestHelpPreviewSameName(t *testing.T) {
	dir := t.TempDir()
	sameNameTools(t, dir, "t")
	t.Chdir(dir)
	code, out, errs := runCmd(t, "help-preview", "--tool", "t", ".")
	if want := "wymcp-ls help-preview: 2 tool modules are named \"t\" under . (App.A, App.B): give --tool a module name\n"; code != 1 || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr %q, want exit 1 and %q", code, out, errs, want)
	}
	code, out, errs = runCmd(t, "help-preview", "--tool", "App.B", ".")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "# help answer for tool App.B\n") || !strings.Contains(out, `"description": "B"`) {
		t.Errorf("--tool App.B: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}

// TestHelpPreviewSameNameAsModule: when the name/0 several tool modules
// return is also one's module name, --tool with that module name picks it,
// as README.md "What the LLM sees" advises (give the module name
// instead): it failed with the same message, so App.A could not be shown.
func TestHelpPreviewSameNameAsModule(t *testing.T) {
	dir := t.TempDir()
	sameNameTools(t, dir, "App.A")
	t.Chdir(dir)
	code, out, errs := runCmd(t, "help-preview", "--tool", "App.A", ".")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "# help answer for tool App.A\n") || !strings.Contains(out, `"description": "A"`) {
		t.Errorf("--tool App.A: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}

// sameNameTools writes App.A and App.B into dir, both returning name from
// name/0, with descriptions "A" and "B".
func sameNameTools(t *testing.T, dir, name string) {
	t.Helper()
	files := map[string]string{}
	for _, m := range []string{"A", "B"} {
		files[strings.ToLower(m)+".ex"] = "defmodule App." + m + " do\n  use Wymcp.Tool\n  def name, do: \"" + name + "\"\n  def description, do: \"" + m + "\"\n  def actions, do: %{a: %{description: \"A\", properties: %{}}}\nend\n"
	}
	writeFiles(t, dir, files)
}
