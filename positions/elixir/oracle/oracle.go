// Package oracle runs Elixir's own parser over files for the differential
// tests (docs/architecture.md "The Elixir reader"): the script
// positions/elixir/testdata/oracle/dump.exs, run once by Debian's `elixir`,
// dumps what Code.string_to_quoted/2 sees in each file. It is test support:
// only tests import it.
package oracle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dump is one line of dump.exs's output: the facts Elixir sees in File (the
// path as given), or Message and the error's position in Facts when Elixir
// rejects it; LastEnd is the line of the file's last top-level `end`.
type Dump struct {
	File    string   `json:"file"`
	Facts   []string `json:"facts"`
	Message string   `json:"message"`
	LastEnd int      `json:"last_end"`
}

// NeedElixir returns the path of the elixir executable, or skips t with a
// message saying how to install it.
func NeedElixir(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("elixir")
	if err != nil {
		t.Skip("elixir not found on PATH: the differential test against Elixir's parser needs Debian's `elixir` (apt-get install elixir; .ci/elixir installs it in CI)")
	}
	return p
}

// Script returns the absolute path of dump.exs, and reads it so that its
// content is part of go test's cache key. It fails t when the script is
// missing.
func Script(t testing.TB) string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("oracle: cannot locate dump.exs")
	}
	p := filepath.Join(filepath.Dir(here), "..", "testdata", "oracle", "dump.exs")
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Run runs dump.exs once with the elixir executable over paths and returns
// the dumps by path. It fails t when Elixir fails or dumps a different
// number of files.
func Run(t testing.TB, elixir string, paths []string) map[string]Dump {
	t.Helper()
	cmd := exec.Command(elixir, Script(t))
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dump.exs: %v\n%s", err, stderr.String())
	}
	dumps := map[string]Dump{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var d Dump
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("dump.exs output: %v: %.200s", err, sc.Text())
		}
		dumps[d.File] = d
	}
	if len(dumps) != len(paths) {
		t.Fatalf("dump.exs dumped %d files of %d\n%s", len(dumps), len(paths), stderr.String())
	}
	return dumps
}
