package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestGeneratedCompiles compiles with Elixir's own compiler (elixirc, from
// Debian's elixir package) every module of the 300-module project that
// depends on neither Phoenix nor Ecto: the GenServer workers, the helpers
// and the Schemas modules. The others need those libraries (or, for tool
// modules, Ecto structs) and are only parsed, by the differential test
// positions/elixir TestOracle. A worker that defines an operation `sync`
// with a default argument next to a private sync/1 once failed here with
// "defp sync/1 conflicts with defaults from sync/2".
func TestGeneratedCompiles(t *testing.T) {
	elixirc, err := exec.LookPath("elixirc")
	if err != nil {
		t.Skip("elixirc not found on PATH: compiling the generated project needs Debian's `elixir` (apt-get install elixir; .ci/elixir installs it in CI)")
	}
	const modules, seed = 300, 1
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	if _, err := Generate(Config{Modules: modules, Seed: seed, Out: proj}); err != nil {
		t.Fatal(err)
	}
	g := newGenerator(seed)
	g.plan(modules)
	var paths, want []string
	byKind := map[kind]int{}
	for _, m := range g.mods {
		switch m.kind {
		case kindGenServer, kindHelper, kindSchemas:
			paths = append(paths, m.path)
			want = append(want, "Elixir."+m.module+".beam")
			byKind[m.kind]++
		}
	}
	// The 300-module project's plan: 34 workers, 21 helpers, 15 Schemas
	// modules (plan.go).
	if byKind[kindGenServer] != 34 || byKind[kindHelper] != 21 || byKind[kindSchemas] != 15 {
		t.Fatalf("plan changed: %d workers, %d helpers, %d Schemas modules; want 34, 21, 15", byKind[kindGenServer], byKind[kindHelper], byKind[kindSchemas])
	}
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(proj, filepath.FromSlash(p))); err != nil {
			t.Fatalf("planned module file not written: %v", err)
		}
	}
	ebin := filepath.Join(dir, "ebin")
	if err := os.Mkdir(ebin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(elixirc, append([]string{"--ignore-module-conflict", "-o", ebin}, paths...)...)
	cmd.Dir = proj
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("elixirc failed on the generated modules: %v\n%s", err, tail(string(out), 40))
	}
	ents, err := os.ReadDir(ebin)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("compiled modules:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
