package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/authoring"
	"github.com/wymcp/wymcp-ls/workspace"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdataDir, name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// testdataDir is this package's testdata, absolute: tests change directory.
var testdataDir = func() string {
	d, err := filepath.Abs("testdata")
	if err != nil {
		panic(err)
	}
	return d
}()

// copyTree copies the directory src to a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// snapshotTree returns every file's content under dir by relative path.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFixOffences: --fix on a copy of testdata/offences applies every
// preferred fix (the exact lines in testdata/fix_offences.golden), leaves
// only offences without one, never touches the file with a syntax error,
// and a second --fix changes nothing.
func TestFixOffences(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "offences"))
	if err != nil {
		t.Fatal(err)
	}
	dir := copyTree(t, src)
	before := snapshotTree(t, dir)
	t.Chdir(dir)
	code, out, errs := runCmd(t, "check", "--fix", ".")
	if code != 1 || errs != "" {
		t.Errorf("first --fix: exit %d, stderr %q; want 1 and nothing", code, errs)
	}
	golden(t, "fix_offences.golden", out)
	after := snapshotTree(t, dir)
	if after["syntax_error.ex"] != before["syntax_error.ex"] {
		t.Errorf("the file with a syntax error was edited")
	}
	if after["unknown_key.ex"] == before["unknown_key.ex"] {
		t.Errorf("unknown_key.ex was not fixed")
	}
	for name := range after {
		if strings.Contains(name, ".tmp") {
			t.Errorf("temporary file %s left behind", name)
		}
	}

	// What remains has no preferred fix: FixAll finds nothing in any file.
	ws := workspace.New(workspace.Options{})
	defer ws.Close()
	if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range ws.All(context.Background()) {
		snap, err := ws.Snapshot(context.Background(), r.URI)
		if err != nil {
			t.Fatal(err)
		}
		if fixes, _ := authoring.FixAll(context.Background(), snap); len(fixes) > 0 {
			t.Errorf("%s still has a preferred fix after --fix: %q", filepath.Base(r.Path), fixes[0].Title)
		}
	}

	// Idempotence: a second run fixes nothing and changes no byte.
	code2, out2, _ := runCmd(t, "check", "--fix", ".")
	if code2 != 1 || strings.Contains(out2, ": fixed: ") {
		t.Errorf("second --fix: exit %d, output:\n%s", code2, out2)
	}
	_, plain, _ := runCmd(t, "check", ".")
	var held strings.Builder // the fixes --fix leaves, as the first run named them
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.Contains(l, ": left for the editor: ") {
			held.WriteString(l)
		}
	}
	if held.Len() == 0 {
		t.Errorf("the first --fix named no fix it leaves for the editor")
	}
	if want := "syntax_error.ex: not fixed: it has a syntax error\n" + held.String() + plain; out2 != want {
		t.Errorf("second --fix output:\n%s\nwant the syntax-error line, the fixes left for the editor, then the plain check:\n%s", out2, want)
	}
	if again := snapshotTree(t, dir); !equalTrees(again, after) {
		t.Errorf("the second --fix changed files")
	}
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// fixable is a tool with one preferred fix (:example -> :examples).
const fixable = "defmodule T do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{}, example: []}}\nend\n"

// TestFixRefuses: a read-only file, a file changed between read and write,
// and a write that fails half-way are reported, exit 1, and leave the file
// whole (its old content, or the concurrent edit) with no temporary file.
func TestFixRefuses(t *testing.T) {
	edited := strings.Replace(fixable, "\"A\"", "\"edited meanwhile\"", 1)
	for _, tc := range []struct {
		name  string
		mode  os.FileMode
		hook  func(target string) func(f *os.File, data []byte) error
		msg   string
		final string
	}{
		{"read-only", 0o444, nil, "t.ex: not fixed: the file is read-only (1 fix not applied)\n", fixable},
		{"changed between read and write", 0o644, func(target string) func(*os.File, []byte) error {
			return func(f *os.File, data []byte) error {
				if err := os.WriteFile(target, []byte(edited), 0o644); err != nil {
					return err
				}
				_, err := f.Write(data)
				return err
			}
		}, "t.ex: not fixed: the file changed on disk since it was read (1 fix not applied)\n", edited},
		{"failure in the middle of the write", 0o644, func(string) func(*os.File, []byte) error {
			return func(f *os.File, data []byte) error {
				if _, err := f.Write(data[:len(data)/2]); err != nil {
					return err
				}
				return errors.New("no space left on device")
			}
		}, "t.ex: not fixed: write the temporary file: no space left on device (1 fix not applied)\n", fixable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "t.ex")
			if err := os.WriteFile(target, []byte(fixable), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(target, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.hook != nil {
				old := writeData
				writeData = tc.hook(target)
				t.Cleanup(func() { writeData = old })
			}
			t.Chdir(dir)
			code, out, _ := runCmd(t, "check", "--fix", "t.ex")
			if code != 1 || !strings.HasPrefix(out, tc.msg) {
				t.Errorf("exit %d, output:\n%s\nwant 1 and first line %q", code, out, tc.msg)
			}
			got, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.final {
				t.Errorf("file now:\n%s\nwant:\n%s", got, tc.final)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("files left in the directory: %v", entries)
			}
		})
	}
}

// TestFixKeepsModeAndPrintsOneLinePerFix: a fixed file keeps its mode; the
// output is the fix line, then the report of what remains.
func TestFixKeepsModeAndPrintsOneLinePerFix(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.ex")
	if err := os.WriteFile(target, []byte(fixable), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, errs := runCmd(t, "check", "--fix", "t.ex")
	want := "t.ex:3:62: fixed: Rename example to :examples [unknown-key]\nwymcp-ls: no offences (1 file read, 1 tool module)\n"
	if code != 0 || out != want || errs != "" {
		t.Errorf("exit %d out %q err %q; want 0 %q", code, out, errs, want)
	}
	st, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	if got, _ := os.ReadFile(target); string(got) != strings.Replace(fixable, "example:", "examples:", 1) {
		t.Errorf("fixed file:\n%s", got)
	}
}

// TestFixDiff: --diff prints the unified diff and writes nothing; the
// report shows what would remain, and it exits 1: the file on disk still
// holds what the diff fixes.
func TestFixDiff(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.ex")
	if err := os.WriteFile(target, []byte(fixable), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, _ := runCmd(t, "check", "--diff", "t.ex")
	want := `t.ex:3:62: would fix: Rename example to :examples [unknown-key]
--- a/t.ex
+++ b/t.ex
@@ -1,4 +1,4 @@
 defmodule T do
   use Wymcp.Tool
-  def actions, do: %{a: %{description: "A", properties: %{}, example: []}}
+  def actions, do: %{a: %{description: "A", properties: %{}, examples: []}}
 end
wymcp-ls: no offences (1 file read, 1 tool module)
`
	if code != 1 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, []byte(fixable)) {
		t.Errorf("--diff wrote the file")
	}
}

// TestFixDiffNoFinalNewline: in a file that does not end in a newline,
// --diff marks the last line "\\ No newline at end of file", as diff -u
// and git diff do, whether it is changed or context; without the marker
// patch and git apply refuse the diff, or would add a newline --fix does
// not write.
func TestFixDiffNoFinalNewline(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"the last line is changed",
			"defmodule T do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{}, example: []}} end",
			`--- a/t.ex
+++ b/t.ex
@@ -1,3 +1,3 @@
 defmodule T do
   use Wymcp.Tool
-  def actions, do: %{a: %{description: "A", properties: %{}, example: []}} end
\ No newline at end of file
+  def actions, do: %{a: %{description: "A", properties: %{}, examples: []}} end
\ No newline at end of file
`},
		{"the last line is context",
			strings.TrimSuffix(fixable, "\n"),
			`--- a/t.ex
+++ b/t.ex
@@ -1,4 +1,4 @@
 defmodule T do
   use Wymcp.Tool
-  def actions, do: %{a: %{description: "A", properties: %{}, example: []}}
+  def actions, do: %{a: %{description: "A", properties: %{}, examples: []}}
 end
\ No newline at end of file
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "t.ex"), []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			code, out, _ := runCmd(t, "check", "--diff", "t.ex")
			want := "t.ex:3:62: would fix: Rename example to :examples [unknown-key]\n" + tc.want +
				"wymcp-ls: no offences (1 file read, 1 tool module)\n"
			if code != 1 || out != want {
				t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
			}
		})
	}
}

// With a machine-readable format, --diff's lines and diff go to stderr and
// stdout holds only the report (README.md, "Fixing from the command line").
func TestFixDiffMachineFormats(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.ex"), []byte(fixable), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, textOut, _ := runCmd(t, "check", "--diff", "t.ex")
	diff := strings.TrimSuffix(textOut, "wymcp-ls: no offences (1 file read, 1 tool module)\n")
	for _, format := range []string{"json", "github", "sarif"} {
		code, out, errs := runCmd(t, "check", "--diff", "--format", format, "t.ex")
		if code != 1 || errs != diff {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant:\n%s", format, code, errs, diff)
		}
		if strings.Contains(out, "would fix") || strings.Contains(out, "+++ b/t.ex") {
			t.Errorf("%s: stdout holds the diff:\n%s", format, out)
		}
	}
	if code, out, _ := runCmd(t, "check", "--diff", "--format", "json", "t.ex"); code != 1 || out != "[]\n" {
		t.Errorf("json: exit %d, stdout %q", code, out)
	}
}

// TestFixDiffClean: --diff on a file with nothing to fix prints nothing
// and exits from what it reports (0 here); --fix with --diff is a usage
// error that leaves the file alone.
func TestFixDiffClean(t *testing.T) {
	dir := t.TempDir()
	clean := strings.Replace(fixable, "example:", "examples:", 1)
	if err := os.WriteFile(filepath.Join(dir, "t.ex"), []byte(fixable), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "clean.ex"), []byte(strings.Replace(clean, "defmodule T", "defmodule C", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if code, out, errs := runCmd(t, "check", "--diff", "clean.ex"); code != 0 || out != "wymcp-ls: no offences (1 file read, 1 tool module)\n" || errs != "" {
		t.Errorf("--diff on a clean file: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs := runCmd(t, "check", "--fix", "--diff", "t.ex")
	if want := "wymcp-ls check: --fix and --diff cannot be combined: --fix writes the fixes, --diff prints them and writes nothing\n"; code != 2 || out != "" || !strings.HasPrefix(errs, want) {
		t.Errorf("--fix --diff: exit %d, stdout %q, stderr %q, want exit 2 and %q", code, out, errs, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "t.ex")); string(got) != fixable {
		t.Errorf("--fix --diff wrote the file:\n%s", got)
	}
}

// TestFixHintBothKinds: check --fix on hints with a misspelt action and
// a misspelt tool: each fix that leaves its hint clean is written, the
// tool of a hint whose action only a far tool declares is left for the
// editor with the reason, and the lint stays.
func TestFixHintBothKinds(t *testing.T) {
	dir := t.TempDir()
	tools := "defmodule App.Orders do\n  use Wymcp.Tool\n  def name, do: \"orders\"\n  def description, do: \"O\"\n" +
		"  def actions, do: %{create: %{description: \"C\", properties: %{}}}\nend\n" +
		"defmodule App.Listings do\n  use Wymcp.Tool\n  def name, do: \"listings\"\n  def description, do: \"L\"\n" +
		"  def actions, do: %{list: %{description: \"L\", properties: %{}}}\nend\n" +
		"defmodule App.Router do\n  use Wymcp.Router, tools: [App.Orders, App.Listings]\nend\n"
	hints := "defmodule App.Hints do\n  def a, do: Wymcp.Hint.new(tool: \"orders\", action: \"craete\")\n" +
		"  def b, do: Wymcp.Hint.new(tool: \"ordres\", action: \"create\")\n" +
		"  def c, do: Wymcp.Hint.new(tool: \"ordres\", action: \"list\")\nend\n"
	for name, text := range map[string]string{"tools.ex": tools, "hints.ex": hints} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	code, out, _ := runCmd(t, "check", "--fix", ".")
	want := `hints.ex:2:53: fixed: Change to "create" [lint/hint-unknown-action]
hints.ex:3:35: fixed: Change to "orders" [lint/hint-unknown-tool]
hints.ex:4:35: left for the editor: Change to "orders" [lint/hint-unknown-tool] (the fixed hint raises: the hint names action "list", which tool "orders" does not declare)
hints.ex:4:35: warning: the hint names tool "ordres", which no tool of the workspace is named; fix: did you mean "orders"? [lint/hint-unknown-tool]
wymcp-ls: 0 offences, 1 warning in 1 file (2 files read, 2 tool modules)
`
	if code != 0 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}
	wantText := strings.Replace(strings.Replace(hints, `"craete"`, `"create"`, 1), `"ordres", action: "create"`, `"orders", action: "create"`, 1)
	if got, _ := os.ReadFile(filepath.Join(dir, "hints.ex")); string(got) != wantText {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, wantText)
	}
}
