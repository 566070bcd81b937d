package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/wymcp/wymcp-ls/validate"
)

// writeFiles writes files (slash paths relative to dir) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSARIF: the log validates against the SARIF 2.1.0 schema go-sarif
// embeds; paths are URIs relative to the run directory; columns are
// 1-based UTF-16 code units, so an emoji (two units) before the offence
// moves it by two.
func TestSARIF(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"lib/my tools/t.ex": "defmodule T do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"🙂\", properties: %{}, example: []}}\nend\n",
		"lib/l.ex":          "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n",
	})
	t.Chdir(dir)
	code, out, errs := runCmd(t, "check", "--format", "sarif", "lib")
	if code != 1 || errs != "" {
		t.Errorf("exit %d stderr %q, want 1 and nothing", code, errs)
	}
	rep, err := sarif.FromString(out)
	if err != nil {
		t.Fatalf("not SARIF: %v\n%s", err, out)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("invalid SARIF 2.1.0: %v", err)
	}
	if rep.Version != "2.1.0" || len(rep.Runs) != 1 {
		t.Fatalf("version %s, %d runs", rep.Version, len(rep.Runs))
	}
	run := rep.Runs[0]
	if n := len(run.Tool.Driver.Rules); n != len(ruleDocs) {
		t.Errorf("%d rules, want one per code: %d", n, len(ruleDocs))
	}
	rule := run.Tool.Driver.Rules[run.GetRuleIndex("unknown-key")]
	if got := *rule.ShortDescription.Text; got != "a key outside the vocabulary (:example; fix suggests :examples); string keys too" {
		t.Errorf("unknown-key short description %q", got)
	}
	if got := *rule.Help.Text; got != "a key outside the vocabulary (:example; fix suggests :examples); string keys too. It points at the key." {
		t.Errorf("unknown-key help %q", got)
	}
	base, ok := run.OriginalUriBaseIds["%SRCROOT%"]
	if !ok || base.URI == nil || *base.URI != "file://"+filepath.ToSlash(dir)+"/" {
		t.Errorf("%%SRCROOT%% = %+v, want file://%s/", base, dir)
	}
	type res struct {
		rule, level, uri, base string
		sl, sc, el, ec         int
	}
	var got []res
	for _, r := range run.Results {
		pl := r.Locations[0].PhysicalLocation
		rg := pl.Region
		got = append(got, res{*r.RuleID, r.Level, *pl.ArtifactLocation.URI, *pl.ArtifactLocation.URIBaseID, *rg.StartLine, *rg.StartColumn, *rg.EndLine, *rg.EndColumn})
	}
	// Line 3 of t.ex: `  def actions, do: %{a: %{description: "🙂", properties: %{}, example: []}}`;
	// "example" starts at code point 62, UTF-16 unit 63 (the emoji is two units).
	want := []res{
		{"lint/unknown-type", "warning", "lib/l.ex", "%SRCROOT%", 3, 78, 3, 83},
		{"unknown-key", "error", "lib/my%20tools/t.ex", "%SRCROOT%", 3, 63, 3, 70},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results\n%v\nwant\n%v", got, want)
	}
	// The text format counts characters: the same offence at column 62.
	_, text, _ := runCmd(t, "check", "lib/my tools/t.ex")
	if !strings.HasPrefix(text, "lib/my tools/t.ex:3:62: error:") {
		t.Errorf("text output %q", text)
	}
}

// TestRulesMatchREADME: every row of the README's code tables is a SARIF
// rule with the same texts, and every rule but config-error is a row.
func TestRulesMatchREADME(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rowRE := regexp.MustCompile("(?m)^\\| `([a-z][a-z/-]*)` \\| (.*?) \\| (.*?) \\|$")
	rows := map[string][2]string{}
	for _, m := range rowRE.FindAllStringSubmatch(string(data), -1) {
		rows[m[1]] = [2]string{m[2], m[3]}
	}
	for _, d := range ruleDocs {
		r, ok := rows[d.code]
		if d.code == "config-error" {
			continue
		}
		if !ok {
			t.Errorf("rule %s is not a row of the README's tables", d.code)
			continue
		}
		if r != [2]string{d.where, d.when} {
			t.Errorf("rule %s:\n  ours   %q | %q\n  README %q | %q", d.code, d.where, d.when, r[0], r[1])
		}
		delete(rows, d.code)
	}
	for code := range rows {
		t.Errorf("README row %s has no SARIF rule", code)
	}
}

// TestConfigFound: `check lib`, one file, an umbrella app's own config and
// --config each take the right .wymcp-ls.yaml.
func TestConfigFound(t *testing.T) {
	lint := func(mod string) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	}
	off := "lints:\n  lint/unknown-type: false\n"
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"mix.exs":                   "",
		".wymcp-ls.yaml":            off,
		"lib/app/tools/x.ex":        lint("X"),
		"umb/mix.exs":               "",
		"umb/apps/x/mix.exs":        "",
		"umb/apps/x/.wymcp-ls.yaml": off,
		"umb/apps/x/lib/t.ex":       lint("UX"),
		"umb/apps/y/mix.exs":        "",
		"umb/apps/y/lib/t.ex":       lint("UY"),
		"on.yaml":                   "lints:\n  lint/unknown-type: true\n",
		"bad.yaml":                  "lints:\n  lint/nope: true\n",
		"ok/.wymcp-ls.yaml":         "lints:\n  lint/nope: true\n",
		"ok/lib/t.ex":               "defmodule OK do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{}}}\nend\n",
	})
	t.Chdir(dir)
	const xLint = "lib/app/tools/x.ex:3:78: warning: action :a :properties[\"x\"]: \"type\" \"str\" is not a JSON Schema type; fix: did you mean \"string\"? [lint/unknown-type]\n"
	for _, tc := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"check", "--strict", "lib"}, 0, "wymcp-ls: no offences (1 file read, 1 tool module)\n", ""},
		{[]string{"check", "--strict", "lib/app/tools/x.ex"}, 0, "wymcp-ls: no offences (1 file read, 1 tool module)\n", ""},
		{[]string{"check", "--strict", "umb"}, 1, "umb/apps/y/lib/t.ex:3:78: warning: action :a :properties[\"x\"]: \"type\" \"str\" is not a JSON Schema type; fix: did you mean \"string\"? [lint/unknown-type]\n" +
			"wymcp-ls: 0 offences, 1 warning in 1 file (5 files read, 2 tool modules)\n", ""},
		{[]string{"check", "--strict", "--config", "on.yaml", "lib"}, 1, xLint + "wymcp-ls: 0 offences, 1 warning in 1 file (1 file read, 1 tool module)\n", ""},
		{[]string{"check", "lib", "--config", "nope.yaml"}, 2, "", "wymcp-ls check: --config: stat " + filepath.Join(dir, "nope.yaml") + ": no such file or directory\n"},
		// FILE replaces the folder's own config, mistakes and all, and its
		// own mistakes are reported under its name.
		{[]string{"check", "--strict", "--config", "on.yaml", "ok"}, 0, "wymcp-ls: no offences (1 file read, 1 tool module)\n", ""},
		{[]string{"check", "--strict", "--config", "bad.yaml", "ok"}, 1, "bad.yaml:2:3: warning: bad bad.yaml: unknown lint \"lint/nope\" (known: " + strings.Join(slices.Sorted(maps.Keys(validate.LintCodes())), ", ") + "); fix: correct it; until then this setting is ignored and the file's other settings apply [config-error]\n" +
			"wymcp-ls: 0 offences, 1 warning in 1 file (1 file read, 1 tool module)\n", ""},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != tc.code || out != tc.out || errs != tc.err {
			t.Errorf("%v:\nexit %d out %q err %q\nwant %d %q %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
		}
	}
}

// TestNewUserPaths: what a new user sees first, exactly.
func TestNewUserPaths(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"empty/.keep": "", "notes.txt": "hello\n"})
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"check", "empty"}, 0, "wymcp-ls: no offences (0 files read, 0 tool modules)\n", "wymcp-ls: no Wymcp tool modules found under empty (0 files read)\n"},
		{[]string{"check", "notes.txt"}, 0, "wymcp-ls: no offences (1 file read, 0 tool modules)\n", "wymcp-ls: no Wymcp tool modules found under notes.txt (1 file read)\n"},
		{[]string{"check", "--format", "json", "empty"}, 0, "[]\n", "wymcp-ls: no Wymcp tool modules found under empty (0 files read)\n"},
		{[]string{"check", "--frmat", "json"}, 2, "", "wymcp-ls check: unknown flag --frmat\nRun 'wymcp-ls check --help' for usage.\n"},
		{[]string{"check", "lib", "-frmat=json"}, 2, "", "wymcp-ls check: unknown flag -frmat\nRun 'wymcp-ls check --help' for usage.\n"},
		{[]string{"check", "--format"}, 2, "", "wymcp-ls check: flag needs an argument: --format\nRun 'wymcp-ls check --help' for usage.\n"},
		{[]string{"--frmat"}, 2, "", "wymcp-ls: unknown flag --frmat\nRun 'wymcp-ls --help' for usage.\n"},
		{[]string{"check", "--", "-odd.ex"}, 2, "", "wymcp-ls check: stat -odd.ex: no such file or directory\n"},
		{[]string{"check", "--log-level", "loud"}, 2, "", "wymcp-ls check: --log-level: unrecognized level: \"loud\"\nRun 'wymcp-ls check --help' for usage.\n"},
		{[]string{"serve"}, 2, "", "wymcp-ls: unknown command \"serve\"\nRun 'wymcp-ls --help' for usage.\n"},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != tc.code || out != tc.out || errs != tc.err {
			t.Errorf("%v:\nexit %d out %q err %q\nwant %d %q %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
		}
	}
	// Every help variant prints to stdout and exits 0: the top usage or
	// check's, each exactly as in testdata.
	top, _ := os.ReadFile(filepath.Join(testdataDir, "help.golden"))
	check, _ := os.ReadFile(filepath.Join(testdataDir, "help_check.golden"))
	for _, tc := range []struct {
		args []string
		want []byte
	}{
		{[]string{"--help"}, top}, {[]string{"-h"}, top}, {[]string{"-help"}, top}, {[]string{"help"}, top},
		{[]string{"check", "--help"}, check}, {[]string{"check", "-h"}, check}, {[]string{"check", "lib", "--help"}, check}, {[]string{"help", "check"}, check},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != 0 || out != string(tc.want) || errs != "" {
			t.Errorf("%v: exit %d stderr %q stdout:\n%s\nwant exit 0 and:\n%s", tc.args, code, errs, out, tc.want)
		}
	}
}

// TestHelpGolden keeps testdata/help*.golden equal to the usages, and
// checks each usage names every flag it accepts with its default.
func TestHelpGolden(t *testing.T) {
	golden(t, "help.golden", topUsage())
	golden(t, "help_check.golden", checkUsage())
	sfs, _ := serverFlags()
	cfs, _ := checkFlags()
	for _, tc := range []struct {
		usage string
		names []string
	}{
		{topUsage(), flagNames(sfs)}, {checkUsage(), flagNames(cfs)},
	} {
		for _, n := range tc.names {
			if !regexp.MustCompile(`(?m)^  --` + n + `\b.*\(default [^)]+\)$`).MatchString(tc.usage) {
				t.Errorf("usage lacks --%s with its default:\n%s", n, tc.usage)
			}
		}
	}
}

// TestVersionOf: the module version, else the VCS revision with its date
// and dirty mark, else the stamp, else a sentence; never "devel".
func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"}, {Key: "vcs.time", Value: "2026-12-01T06:30:00Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		name  string
		bi    *debug.BuildInfo
		stamp string
		want  string
	}{
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: vcs}, "9.9.9", "v1.2.3"},
		{"VCS, dirty", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "9.9.9", "v0.0.0-20261201063000-a1b2c3d4e5f6+dirty"},
		{"VCS, clean", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs[:2]}, "", "v0.0.0-20261201063000-a1b2c3d4e5f6"},
		{"stamped", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "1.4.0", "1.4.0"},
		{"nothing", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "unknown (built without a module version, VCS information or -ldflags -X main.stampedVersion)"},
		{"no build info", nil, "", "unknown (built without a module version, VCS information or -ldflags -X main.stampedVersion)"},
	} {
		if got := versionOf(tc.bi, tc.stamp); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func flagNames(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, f.Name) })
	return out
}

// builds caches buildBinary's binaries by flags, for the whole test run.
var builds = struct {
	sync.Mutex
	dir  string
	bins map[string]string
}{bins: map[string]string{}}

// TestMain removes the binaries buildBinary made.
func TestMain(m *testing.M) {
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// buildBinary builds the command with extra go build flags, once per set
// of flags in a test run, and returns the binary's path.
func buildBinary(t *testing.T, flags ...string) string {
	t.Helper()
	builds.Lock()
	defer builds.Unlock()
	key := strings.Join(flags, "\x00")
	if bin, ok := builds.bins[key]; ok {
		return bin
	}
	if builds.dir == "" {
		d, err := os.MkdirTemp("", "wymcp-ls-test-bin-")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir = d
	}
	bin := filepath.Join(builds.dir, fmt.Sprintf("wymcp-ls-%d", len(builds.bins)))
	args := append(append([]string{"build"}, flags...), "-o", bin, ".")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, out)
	}
	builds.bins[key] = bin
	return bin
}

// TestVersionOfBuilds: `version` of a -buildvcs=false build, and of a
// stamped one, exactly; the server's serverInfo.version is the same string.
func TestVersionOfBuilds(t *testing.T) {
	plain := buildBinary(t, "-buildvcs=false")
	stamped := buildBinary(t, "-buildvcs=false", "-ldflags", "-X main.stampedVersion=1.4.0")
	for _, tc := range []struct{ bin, want string }{
		{plain, "wymcp-ls unknown (built without a module version, VCS information or -ldflags -X main.stampedVersion)\n"},
		{stamped, "wymcp-ls 1.4.0\n"},
	} {
		out, err := exec.Command(tc.bin, "version").Output()
		if err != nil || string(out) != tc.want {
			t.Errorf("version: %q (%v), want %q", out, err, tc.want)
		}
		init := initialize(t, tc.bin)
		var res struct {
			Result struct {
				ServerInfo struct{ Name, Version string } `json:"serverInfo"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(init.response), &res); err != nil {
			t.Fatalf("initialize response %q: %v", init.response, err)
		}
		if got := "wymcp-ls " + res.Result.ServerInfo.Version + "\n"; got != tc.want {
			t.Errorf("serverInfo.version %q, want the version's %q", res.Result.ServerInfo.Version, tc.want)
		}
	}
}

// serverRun is what one initialize, shutdown, exit session printed.
type serverRun struct {
	response string // the initialize response body
	stderr   string
}

// initialize runs the server binary through initialize, shutdown and exit.
func initialize(t *testing.T, bin string, args ...string) serverRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(body string) { fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body) }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	r := bufio.NewReader(stdout)
	var n int
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the response: %v", err)
		}
		if line == "\r\n" {
			break
		}
		fmt.Sscanf(line, "Content-Length: %d", &n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	done := make(chan error, 1)
	go func() { _, _ = io.Copy(io.Discard, r); done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the server did not exit")
	}
	return serverRun{response: string(body), stderr: errb.String()}
}

// TestLogs: the server is quiet at its default level and says it serves
// at info; check --log-level debug names each file read or skipped, why,
// and each tool module found.
func TestLogs(t *testing.T) {
	bin := buildBinary(t, "-buildvcs=false")
	if got := initialize(t, bin).stderr; got != "" {
		t.Errorf("server stderr at the default level: %q, want nothing", got)
	}
	if got := initialize(t, bin, "--log-level", "info").stderr; !strings.Contains(got, "wymcp-ls serving on stdio") {
		t.Errorf("server stderr at info lacks the start-up line: %q", got)
	}

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"lib/t.ex":          "defmodule App.T do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{}}}\nend\n",
		"lib/helper.ex":     "defmodule App.Helper do\nend\n",
		"README.txt":        "hello\n",
		"deps/dep/lib/d.ex": "defmodule D do\nend\n",
		"big.ex":            strings.Repeat("# padding\n", 300_000),
	})
	t.Chdir(dir)
	code, _, errs := runCmd(t, "check", "--log-level", "debug", ".")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{
		`read file	{"path": "` + filepath.Join(dir, "lib", "t.ex") + `", "bytes": 102}`,
		`read file	{"path": "` + filepath.Join(dir, "lib", "helper.ex") + `", "bytes": 28}`,
		`skipping file	{"path": "` + filepath.Join(dir, "README.txt") + `", "why": "not Elixir (.ex or .exs)"}`,
		`skipping directory	{"path": "` + filepath.Join(dir, "deps") + `", "why": "a directory never indexed (deps)"}`,
		`skipping large file	{"path": "` + filepath.Join(dir, "big.ex") + `", "bytes": 3000000, "limit": 2097152}`,
		`tool module	{"name": "App.T", "path": "` + filepath.Join(dir, "lib", "t.ex") + `"}`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("debug log lacks %q:\n%s", want, errs)
		}
	}
}

// TestSARIFExample: the example project's log validates, and an offence
// in a Schemas module points at the tool that reads it as a related
// location.
func TestSARIFExample(t *testing.T) {
	inRepo(t)
	code, out, _ := runCmd(t, "check", "--format", "sarif", "testdata/example")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	rep, err := sarif.FromString(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("invalid SARIF 2.1.0: %v", err)
	}
	// A test binary carries no version: the driver then gives none, not
	// the sentence `wymcp-ls version` prints.
	if d := rep.Runs[0].Tool.Driver; version() != "" && strings.HasPrefix(version(), "unknown") && d.Version != nil {
		t.Errorf("driver.version %q for a build without a version", *d.Version)
	}
	var got []string
	for _, r := range rep.Runs[0].Results {
		pl := r.Locations[0].PhysicalLocation
		line := fmt.Sprintf("%s %s:%d:%d-%d:%d", *r.RuleID, *pl.ArtifactLocation.URI, *pl.Region.StartLine, *pl.Region.StartColumn, *pl.Region.EndLine, *pl.Region.EndColumn)
		for _, rl := range r.RelatedLocations {
			rp := rl.PhysicalLocation
			line += fmt.Sprintf(" related %s:%d:%d %q", *rp.ArtifactLocation.URI, *rp.Region.StartLine, *rp.Region.StartColumn, *rl.Message.Text)
		}
		got = append(got, line)
	}
	want := []string{
		"unknown-key testdata/example/lib/app/tools/notes.ex:17:5-17:12",
		`undeclared-default testdata/example/lib/app/tools/schemas.ex:18:48-18:56 related testdata/example/lib/app/tools/tasks.ex:1:11 "read by tool App.Tools.Tasks"`,
		`undeclared-field testdata/example/lib/app/tools/schemas.ex:29:16-29:23 related testdata/example/lib/app/tools/tasks.ex:1:11 "read by tool App.Tools.Tasks"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
