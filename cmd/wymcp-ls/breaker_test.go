package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestListingFlagsByConvention: tools-list and help-preview follow the
// same flag conventions as check (README.md, "Command line"): --help and
// -h print the usage to stdout and exit 0; an unknown flag is named as
// typed, with one line pointing at --help, and exits 2.
func TestListingFlagsByConvention(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"tools-list", "--bogus"}, 2, "", "wymcp-ls tools-list: unknown flag --bogus\nRun 'wymcp-ls tools-list --help' for usage.\n"},
		{[]string{"tools-list", ".", "-bogus=1"}, 2, "", "wymcp-ls tools-list: unknown flag -bogus\nRun 'wymcp-ls tools-list --help' for usage.\n"},
		{[]string{"tools-list", "--tool", "x"}, 2, "", "wymcp-ls tools-list: unknown flag --tool\nRun 'wymcp-ls tools-list --help' for usage.\n"},
		{[]string{"help-preview", "--frmat"}, 2, "", "wymcp-ls help-preview: unknown flag --frmat\nRun 'wymcp-ls help-preview --help' for usage.\n"},
		{[]string{"help-preview", "--tool"}, 2, "", "wymcp-ls help-preview: flag needs an argument: --tool\nRun 'wymcp-ls help-preview --help' for usage.\n"},
		{[]string{"help-preview", "--action", "a"}, 2, "", "wymcp-ls help-preview: --action needs --tool\nRun 'wymcp-ls help-preview --help' for usage.\n"},
		{[]string{"tools-list", "a", "b"}, 2, "", "wymcp-ls tools-list: one PATH at most, got 2\nRun 'wymcp-ls tools-list --help' for usage.\n"},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != tc.code || out != tc.out || errs != tc.err {
			t.Errorf("%v:\nexit %d out %q err %q\nwant %d %q %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
		}
	}
	for _, args := range [][]string{{"tools-list", "--help"}, {"tools-list", "-h"}, {"help-preview", "--help"}, {"help-preview", ".", "-h"}, {"help", "tools-list"}, {"help", "help-preview"}} {
		code, out, errs := runCmd(t, args...)
		cmd, other := "tools-list", "help-preview"
		if args[0] == "help-preview" || args[1] == "help-preview" {
			cmd, other = other, cmd
		}
		// Each command's own usage: tools-list's does not describe
		// help-preview, whose --tool and --action it does not take.
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage:\n  wymcp-ls "+cmd+" [flags] [PATH]\n") || strings.Contains(out, "wymcp-ls "+other) {
			t.Errorf("%v: exit %d stderr %q stdout:\n%s\nwant exit 0 and the %s usage alone on stdout", args, code, errs, out, cmd)
		}
		names := []string{"log-file", "log-level"}
		if args[0] == "help-preview" || args[1] == "help-preview" {
			names = append(names, "tool", "action")
		}
		for _, n := range names {
			if !regexp.MustCompile(`(?m)^  --` + n + `\b.*\(default [^)]+\)$`).MatchString(out) {
				t.Errorf("%v: usage lacks --%s with its default:\n%s", args, n, out)
			}
		}
	}
	// The top usage names every subcommand.
	for _, cmd := range []string{"check", "tools-list", "help-preview", "version"} {
		if !strings.Contains(topUsage(), "\n  wymcp-ls "+cmd+" ") {
			t.Errorf("top usage lacks %s:\n%s", cmd, topUsage())
		}
	}
}

// TestConfigNotARegularFile: --config naming a named pipe or a device is a
// usage error, like a directory; reading it hung check forever.
func TestConfigNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := syscall.Mkfifo("pipe.yaml", 0o644); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct{ config, want string }{
		{"pipe.yaml", "wymcp-ls check: --config: pipe.yaml is not a regular file\n"},
		{"/dev/zero", "wymcp-ls check: --config: /dev/zero is not a regular file\n"},
	} {
		code, out, errs := runCmd(t, "check", "--config", tc.config, ".")
		if code != 2 || out != "" || errs != tc.want {
			t.Errorf("--config %s: exit %d out %q err %q, want 2 \"\" %q", tc.config, code, out, errs, tc.want)
		}
	}
}

// TestVersionTakesNoArguments: `version --bogus` and `version x` are usage
// errors (exit 2, one line pointing at --help); they printed the version.
func TestVersionTakesNoArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"version", "--bogus"}, "wymcp-ls version: unknown flag --bogus\nRun 'wymcp-ls --help' for usage.\n"},
		{[]string{"--version", "-x=1"}, "wymcp-ls version: unknown flag -x\nRun 'wymcp-ls --help' for usage.\n"},
		{[]string{"version", "now"}, "wymcp-ls version: unexpected argument \"now\"\nRun 'wymcp-ls --help' for usage.\n"},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != 2 || out != "" || errs != tc.err {
			t.Errorf("%v: exit %d out %q err %q, want 2 \"\" %q", tc.args, code, out, errs, tc.err)
		}
	}
	if code, out, _ := runCmd(t, "version"); code != 0 || !strings.HasPrefix(out, "wymcp-ls ") {
		t.Errorf("version: exit %d out %q", code, out)
	}
}

// TestFixOneFileUnderTwoPaths: a file reached both directly and through a
// symlink (check --fix lib other, lib/link.ex -> ../other/real.ex) is
// fixed once, under the first path, and the run succeeds. The second path
// reported "the file changed on disk since it was read" and exit 1, the
// change being --fix's own write.
func TestFixOneFileUnderTwoPaths(t *testing.T) {
	dir := t.TempDir()
	tool := "defmodule Real do\n  use Wymcp.Tool\n  def actions do\n    %{a: %{description: \"x\", properties: %{title: %{\"type\" => \"string\"}}, required: [\"title\"]}}\n  end\nend\n"
	writeFiles(t, dir, map[string]string{"mix.exs": "", "other/real.ex": tool, "lib/.keep": ""})
	if err := os.Symlink("../other/real.ex", filepath.Join(dir, "lib", "link.ex")); err != nil {
		t.Skip(err)
	}
	t.Chdir(dir)
	code, out, errs := runCmd(t, "check", "--fix", "lib", "other")
	wantOut := "lib/link.ex:4:44: fixed: Write \"title\" => instead of title: [property-name-not-string]\n"
	if code != 0 || !strings.HasPrefix(out, wantOut) || strings.Contains(out, "not fixed") {
		t.Errorf("exit %d stdout:\n%s\nstderr %q\nwant exit 0 and one fix, starting %q", code, out, errs, wantOut)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "other", "real.ex"))
	if want := strings.Replace(tool, "title: %{", "\"title\" => %{", 1); string(got) != want {
		t.Errorf("other/real.ex:\n%s\nwant:\n%s", got, want)
	}
}

// failingWriter is a stdout that refuses every write, as a full disk or
// a closed stdout does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestOutputWriteFailure: when stdout cannot be written (a full disk, a
// closed stdout), every command says so on stderr and exits 2, whatever
// it found, in the same words for every format. Before, only --format
// sarif did (in words of its own): text, json and github output
// was lost silently with the exit status of a report written (0 for a
// clean check), so a CI step writing its report to a full disk passed
// with no report at all.
func TestOutputWriteFailure(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"mix.exs": "", "lib/t.ex": "defmodule T do\n  use Wymcp.Tool\n  def name, do: \"t\"\n  def actions, do: %{a: %{description: \"d\", properties: %{}, required: [\"q\"]}}\n  def run_action(:a, _, _), do: :ok\nend\n"})
	t.Chdir(dir)
	const msg = "wymcp-ls: cannot write the output: no space left on device\n"
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"check", "."}, msg},
		{[]string{"check", "--format", "json", "."}, msg},
		{[]string{"check", "--format", "github", "."}, msg},
		{[]string{"check", "--format", "sarif", "."}, msg},
		{[]string{"check", "--diff", "."}, msg},
		{[]string{"tools-list", "."}, msg},
		{[]string{"help-preview", "."}, msg},
		{[]string{"version"}, msg},
		{[]string{"help"}, msg},
		{[]string{"check", "--help"}, msg},
	} {
		var errb strings.Builder
		code := run(context.Background(), tc.args, strings.NewReader(""), failingWriter{}, &errb)
		if code != 2 || errb.String() != tc.err {
			t.Errorf("%v: exit %d, stderr %q; want 2, %q", tc.args, code, errb.String(), tc.err)
		}
	}
}
