package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// inRepo runs the test from the repository root, so paths print as the
// README shows them.
func inRepo(t *testing.T) {
	t.Helper()
	t.Chdir(filepath.Join("..", ".."))
}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExampleText(t *testing.T) {
	inRepo(t)
	code, out, _ := runCmd(t, "check", "testdata/example")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := `testdata/example/lib/app/tools/notes.ex:17:5: error: actions :archived, :pinned, :recent: unknown key :example; fix: did you mean :examples? [unknown-key]
testdata/example/lib/app/tools/schemas.ex:18:48: error: action :create :defaults["opts"]: default key "silent" is not declared by :properties["opts"]["properties"]; fix: declare "silent" in :properties["opts"]["properties"] or remove it from :defaults["opts"] [undeclared-default]
testdata/example/lib/app/tools/schemas.ex:29:16: error: action :list: :required names "state", which :properties does not declare; fix: did you mean "status"? else declare "state" in :properties or remove it from :required [undeclared-field]
wymcp-ls: 3 offences in 2 files (6 files read, 3 tool modules)
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestCheckExampleJSON(t *testing.T) {
	inRepo(t)
	code, out, _ := runCmd(t, "check", "--format", "json", "testdata/example")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not one JSON array: %v\n%s", err, out)
	}
	if len(raw) != 5 {
		t.Fatalf("want 5 findings (3 actions share one offence), got %d", len(raw))
	}
	wantKeys := []string{"action", "code", "column", "endColumn", "endLine", "fix", "line", "location", "message", "path", "severity", "tool"}
	for _, el := range raw {
		var keys []string
		for k := range el {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !reflect.DeepEqual(keys, wantKeys) {
			t.Errorf("fields %v, want exactly %v", keys, wantKeys)
		}
	}
	var fs []Finding
	if err := json.Unmarshal([]byte(out), &fs); err != nil {
		t.Fatal(err)
	}
	want := Finding{
		Path: "testdata/example/lib/app/tools/schemas.ex", Line: 18, Column: 48, EndLine: 18, EndColumn: 56,
		Code: "undeclared-default", Severity: "error",
		Message:  `action :create :defaults["opts"]: default key "silent" is not declared by :properties["opts"]["properties"]`,
		Fix:      `declare "silent" in :properties["opts"]["properties"] or remove it from :defaults["opts"]`,
		Tool:     "App.Tools.Tasks",
		Action:   ":create",
		Location: `:defaults["opts"]`,
	}
	if fs[3] != want {
		t.Errorf("finding 3 = %+v\nwant        %+v", fs[3], want)
	}
	var actions []string
	for _, f := range fs[:3] {
		actions = append(actions, f.Action)
		if f.Code != "unknown-key" || f.Line != 17 || f.Column != 5 || f.EndColumn != 12 || f.Message != "action "+f.Action+": unknown key :example" {
			t.Errorf("shared offence finding %+v", f)
		}
	}
	if got := strings.Join(actions, " "); got != ":archived :pinned :recent" {
		t.Errorf("actions %q", got)
	}
}

func TestCheckGitHub(t *testing.T) {
	inRepo(t)
	code, out, _ := runCmd(t, "check", "--format", "github", "testdata/example/lib/app/tools/notes.ex")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := "::error file=testdata/example/lib/app/tools/notes.ex,line=17,col=5,endLine=17,endColumn=12,title=wymcp unknown-key::actions :archived, :pinned, :recent: unknown key :example; fix: did you mean :examples?\n"
	if out != want {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}

func TestCheckExitCodes(t *testing.T) {
	inRepo(t)
	for _, tc := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"check", "testdata/clean"}, 0, "wymcp-ls: no offences (2 files read, 2 tool modules)\n", ""},
		{[]string{"check", "--format", "json", "testdata/clean"}, 0, "[]\n", ""},
		// One file of a Mix project: its tool's calls into the project's
		// other files are named, with the command that checks them.
		{[]string{"check", "testdata/example/lib/app/tools/tasks.ex"}, 0, "wymcp-ls: no offences (1 file read, 1 tool module)\n",
			"wymcp-ls: App.Tools.Tasks calls into App.Tasks, App.Tools.Schemas, which no file read defines: the values from there are not checked; run 'wymcp-ls check testdata/example' to check the whole project\n"},
		{[]string{"check", "--format", "github", "testdata/example/lib/app/tools/tasks.ex", "testdata/example/lib/app/tools/schemas.ex"}, 1,
			"::error file=testdata/example/lib/app/tools/schemas.ex,line=18,col=48,endLine=18,endColumn=56,title=wymcp undeclared-default::action :create :defaults[\"opts\"]: default key \"silent\" is not declared by :properties[\"opts\"][\"properties\"]; fix: declare \"silent\" in :properties[\"opts\"][\"properties\"] or remove it from :defaults[\"opts\"]\n" +
				"::error file=testdata/example/lib/app/tools/schemas.ex,line=29,col=16,endLine=29,endColumn=23,title=wymcp undeclared-field::action :list: :required names \"state\", which :properties does not declare; fix: did you mean \"status\"? else declare \"state\" in :properties or remove it from :required\n",
			"wymcp-ls: App.Tools.Tasks calls into App.Tasks, which no file read defines: the values from there are not checked; run 'wymcp-ls check testdata/example' to check the whole project\n"},
		// lib/ holds every module the tools call: nothing to say.
		{[]string{"check", "--format", "json", "testdata/example/lib/app/tasks.ex"}, 0, "[]\n", "wymcp-ls: no Wymcp tool modules found under testdata/example/lib/app/tasks.ex (1 file read)\n"},
		{[]string{"check", "testdata/does-not-exist"}, 2, "", "wymcp-ls check: stat testdata/does-not-exist: no such file or directory\n"},
		{[]string{"check", "--format", "xml", "testdata/clean"}, 2, "", "wymcp-ls check: unknown --format \"xml\" (want text, json, github or sarif)\nRun 'wymcp-ls check --help' for usage.\n"},
		{[]string{"frobnicate"}, 2, "", "wymcp-ls: unknown command \"frobnicate\"\nRun 'wymcp-ls --help' for usage.\n"},
		// Every command has its usage, also version (COMMAND --help, -h, and help COMMAND).
		{[]string{"version", "--help"}, 0, versionUsage, ""},
		{[]string{"version", "-h"}, 0, versionUsage, ""},
		{[]string{"help", "version"}, 0, versionUsage, ""},
		{[]string{"help", "nosuch"}, 2, "", "wymcp-ls help: unknown command \"nosuch\"\nRun 'wymcp-ls --help' for usage.\n"},
		{[]string{"help", "help"}, 0, topUsage(), ""},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != tc.code || out != tc.out || errs != tc.err {
			t.Errorf("%v: exit %d out %q err %q; want %d %q %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
		}
	}
}

func TestCheckSyntaxErrorAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	src := "defmodule X do\n  use Wymcp.Tool\n  def actions do\n    %{a: %{description: \"A\", properties: %{\"a\" => }},\n      b: %{descripton: \"B\", description: \"B\", properties: %{}}}\n  end\nend\n"
	if err := os.WriteFile(filepath.Join(dir, "x.ex"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop.ex", filepath.Join(dir, "loop.ex")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent/target.ex", filepath.Join(dir, "dangling.ex")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.ex"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, _ := runCmd(t, "check", ".")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := `dangling.ex:1:1: error: cannot read file: broken symbolic link: stat ` + filepath.Join(dir, "dangling.ex") + `: no such file or directory [syntax-error]
fifo.ex:1:1: error: cannot read file: not a regular file but a named pipe [syntax-error]
loop.ex:1:1: error: cannot read file: stat ` + filepath.Join(dir, "loop.ex") + `: too many levels of symbolic links [syntax-error]
x.ex:4:51: error: syntax error: unexpected "}" [syntax-error]
x.ex:5:12: error: action :b: unknown key :descripton; fix: did you mean :description? [unknown-key]
wymcp-ls: 5 offences in 4 files (1 file read, 1 tool module)
`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "--version"} {
		code, out, _ := runCmd(t, arg)
		if code != 0 || !strings.HasPrefix(out, "wymcp-ls ") {
			t.Errorf("%s: exit %d out %q", arg, code, out)
		}
	}
}

func TestCheckFlagsAfterPaths(t *testing.T) {
	inRepo(t)
	code, out, errs := runCmd(t, "check", "testdata/example/lib/app/tools/notes.ex", "--format", "github", "--log-level", "error")
	if code != 1 || errs != "" || !strings.HasPrefix(out, "::error file=testdata/example/lib/app/tools/notes.ex,line=17,col=5,") {
		t.Errorf("flags after the path: exit %d out %q err %q", code, out, errs)
	}
}

func TestProgressOnlyOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	if p := newProgress(&buf); p.on {
		t.Errorf("progress on for a non-terminal writer")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if newProgress(w).on {
		t.Errorf("progress on for a pipe")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if newProgress(f).on {
		t.Errorf("progress on for a regular file")
	}
	if runtime.GOOS != "windows" {
		// A character device, as a terminal is (see isCharDevice).
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		if !newProgress(null).on {
			t.Errorf("progress off for the character device %s", os.DevNull)
		}
	}
	p := &progress{w: &buf, on: true}
	p.files(1, 3)
	p.files(2, 3) // within 50 ms: skipped
	p.files(3, 3) // the last one always prints
	p.analysing()
	p.done()
	want := "\r\x1b[Kwymcp-ls: reading 1/3 files\r\x1b[Kwymcp-ls: reading 3/3 files\r\x1b[Kwymcp-ls: analysing\r\x1b[K"
	if buf.String() != want {
		t.Errorf("progress output %q, want %q", buf.String(), want)
	}
}

// TestExitWithStdinOpen: `exit` ends the server process even while the
// client keeps stdin open (a read blocked on the inherited, blocking stdin
// is not interrupted by closing it), with exit code 0 after shutdown.
func TestExitWithStdinOpen(t *testing.T) {
	bin := buildBinary(t, "-buildvcs=false")
	for _, tc := range []struct {
		bodies []string
		code   int
	}{
		{[]string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`}, 0},
		{[]string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`, `{"jsonrpc":"2.0","method":"exit"}`}, 1},
	} {
		cmd := exec.Command(bin, "--log-level", "error")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for _, body := range tc.bodies {
			fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Errorf("exit code %d, want %d", got, tc.code)
			}
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatal("the server did not exit while stdin stayed open")
		}
		stdin.Close()
	}
}

// TestCheckWrappedTool: `check` finds the schema offence of a tool that is
// one only through workspace wrappers (testdata/tools: App.Tools.Wrapped
// through App.Tool, App.Tools.Admin through App.AdminTool and App.Tool),
// whose files do not name Wymcp.Tool.
func TestCheckWrappedTool(t *testing.T) {
	inRepo(t)
	code, out, _ := runCmd(t, "check", "testdata/tools")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"testdata/tools/lib/app/tools/wrapped.ex:8:53: error: action :list: unknown key :example; fix: did you mean :examples? [unknown-key]\n",
		"testdata/tools/lib/app/tools/admin.ex:7:88: warning: action :purge :properties[\"all\"]: \"type\" \"boolen\" is not a JSON Schema type; fix: did you mean \"boolean\"? [lint/unknown-type]\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		word string
		want string
	}{
		{1, "fix", "1 fix"},
		{5, "fix", "5 fixes"},
		{0, "file", "0 files"},
		{2, "offence", "2 offences"},
		{3, "match", "3 matches"},
	} {
		if got := plural(tc.n, tc.word); got != tc.want {
			t.Errorf("plural(%d, %q) = %q, want %q", tc.n, tc.word, got, tc.want)
		}
	}
}

// TestCheckPartOfSeveralProjects: with several PATHs, each tool that
// calls into modules no file read defines is sent to its own Mix
// project's root, and a tool whose project root is itself a PATH gets no
// note (README.md "Command line"): the note named the project of the
// first PATH for every tool, so PB.Tool was told to run 'wymcp-ls check pa'
// and PA.Tool, read whole through PATH pa, 'wymcp-ls check pb'.
func TestCheckPartOfSeveralProjects(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"pa", "pb"} {
		m := strings.ToUpper(p)
		if err := os.MkdirAll(filepath.Join(dir, p, "lib"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p, "mix.exs"), []byte("defmodule "+m+".MixProject do\nend\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		src := "defmodule " + m + ".Tool do\n  use Wymcp.Tool\n  def name, do: \"t" + p + "\"\n  def description, do: \"T\"\n  def actions, do: " + m + ".Schemas.all()\nend\n"
		if err := os.WriteFile(filepath.Join(dir, p, "lib", "t.ex"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	note := func(m, p string) string {
		return "wymcp-ls: " + m + ".Tool calls into " + m + ".Schemas, which no file read defines: the values from there are not checked; run 'wymcp-ls check " + p + "' to check the whole project\n"
	}
	for _, tc := range []struct {
		args []string
		out  string
		err  string
	}{
		{[]string{"check", "pa/lib/t.ex", "pb/lib/t.ex"}, "wymcp-ls: no offences (2 files read, 2 tool modules)\n", note("PA", "pa") + note("PB", "pb")},
		{[]string{"check", "pa", "pb/lib/t.ex"}, "wymcp-ls: no offences (3 files read, 2 tool modules)\n", note("PB", "pb")},
		{[]string{"check", "pb/lib", "pa"}, "wymcp-ls: no offences (3 files read, 2 tool modules)\n", note("PB", "pb")},
		{[]string{"check", "."}, "wymcp-ls: no offences (4 files read, 2 tool modules)\n", ""},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != 0 || out != tc.out || errs != tc.err {
			t.Errorf("%v: exit %d out %q err %q; want 0 %q %q", tc.args, code, out, errs, tc.out, tc.err)
		}
	}
}

// TestCheckSymlinkedDirectory: a PATH that is a symbolic link to a
// directory is read through the link, with or without a trailing slash,
// and its offences fail the run (README.md "Command line": exit 1 on
// offences). The walk did not follow a root link: "0 files read", exit 0,
// so a CI step checking a linked tree passed whatever it held.
func TestCheckSymlinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "real", "lib", "t.ex"), []byte(fixable), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, p := range []string{"link", "link/", "link/lib"} {
		code, out, errs := runCmd(t, "check", p)
		want := "link/lib/t.ex:3:62: error: action :a: unknown key :example; fix: did you mean :examples? [unknown-key]\n" +
			"wymcp-ls: 1 offence in 1 file (1 file read, 1 tool module)\n"
		if code != 1 || out != want || errs != "" {
			t.Errorf("check %s: exit %d, stdout %q, stderr %q", p, code, out, errs)
		}
	}
}

// TestCheckUmbrellaApp: checking one app of an umbrella names what it
// cannot check (a tool's calls into a sibling app, a mount listing a
// sibling's tool) with the command that reads the umbrella, and gives no
// false lint/unknown-tool-module; checking the umbrella finds the offence.
func TestCheckUmbrellaApp(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"mix.exs":                    "defmodule Umb.MixProject do\n  use Mix.Project\n  def project, do: [apps_path: \"apps\", version: \"0.1.0\"]\nend\n",
		"apps/core/mix.exs":          "defmodule Core.MixProject do\n  use Mix.Project\n  def project, do: [app: :core]\nend\n",
		"apps/core/lib/schemas.ex":   "defmodule Core.Schemas do\n  def all, do: %{ping: %{description: \"Ping\", properties: %{}, required: [\"y\"]}}\nend\n",
		"apps/web/mix.exs":           "defmodule Web.MixProject do\n  use Mix.Project\n  def project, do: [app: :web]\nend\n",
		"apps/web/lib/web/ping.ex":   "defmodule Web.Tools.Ping do\n  use Wymcp.Tool\n  def name, do: \"ping\"\n  def actions, do: Core.Schemas.all()\nend\n",
		"apps/web/lib/web/router.ex": "defmodule Web.Router do\n  use Wymcp.Router, tools: [Web.Tools.Ping, Core.Tools.Echo]\nend\n",
	}
	writeFiles(t, dir, files)
	t.Chdir(dir)
	code, out, errs := runCmd(t, "check", "apps/web")
	if want := "wymcp-ls: no offences (3 files read, 1 tool module)\n"; code != 0 || out != want {
		t.Errorf("check apps/web: exit %d out %q, want 0 %q", code, out, want)
	}
	wantErr := "wymcp-ls: Web.Tools.Ping calls into Core.Schemas, which no file read defines: the values from there are not checked; run 'wymcp-ls check .' to check the whole project\n" +
		"wymcp-ls: Web.Router mounts Core.Tools.Echo, which no file read defines: it is not checked; run 'wymcp-ls check .' to check the whole project\n"
	if errs != wantErr {
		t.Errorf("check apps/web stderr:\n got %q\nwant %q", errs, wantErr)
	}
	code, out, errs = runCmd(t, "check", ".")
	wantOut := "apps/core/lib/schemas.ex:2:75: error: action :ping: :required names \"y\", which :properties does not declare; fix: declare \"y\" in :properties or remove it from :required [undeclared-field]\n" +
		"apps/web/lib/web/router.ex:2:45: warning: Core.Tools.Echo is not a module of this workspace; fix: list tool modules only [lint/unknown-tool-module]\n" +
		"wymcp-ls: 1 offence, 1 warning in 2 files (6 files read, 1 tool module)\n"
	if code != 1 || out != wantOut || errs != "" {
		t.Errorf("check .: exit %d\nout %q\nerr %q\nwant out %q", code, out, errs, wantOut)
	}
	// The apps directory holds all of an umbrella's code: no note, the
	// same findings (the files at the root are mix.exs only).
	code, out, errs = runCmd(t, "check", "apps")
	wantApps := strings.ReplaceAll(wantOut, "6 files read", "5 files read")
	if code != 1 || out != wantApps || errs != "" {
		t.Errorf("check apps: exit %d\nout %q\nerr %q\nwant out %q", code, out, errs, wantApps)
	}
}

// TestCheckJSONSharedByTwoTools: an offence in a Schemas module that two
// tools read is one element per tool and action in JSON, each naming its
// own tool (the text output names both on one line).
func TestCheckJSONSharedByTwoTools(t *testing.T) {
	dir := t.TempDir()
	tool := func(n string) string {
		return "defmodule App." + n + " do\n  use Wymcp.Tool\n  def actions, do: App.Schemas.all()\nend\n"
	}
	writeFiles(t, dir, map[string]string{
		"schemas.ex": "defmodule App.Schemas do\n  def all, do: %{a: %{description: \"A\", properties: %{}, required: [\"x\"]}, b: %{description: \"B\", properties: %{}, required: [\"x\"]}}\nend\n",
		"a.ex":       tool("A"),
		"b.ex":       tool("B"),
	})
	t.Chdir(dir)
	code, out, _ := runCmd(t, "check", "--format", "json", ".")
	var fs []Finding
	if err := json.Unmarshal([]byte(out), &fs); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %d:%d %s %s %s", f.Path, f.Line, f.Column, f.Code, f.Tool, f.Action))
	}
	want := []string{
		"schemas.ex 2:69 undeclared-field App.A :a", "schemas.ex 2:69 undeclared-field App.B :a",
		"schemas.ex 2:127 undeclared-field App.A :b", "schemas.ex 2:127 undeclared-field App.B :b",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
