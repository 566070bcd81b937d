package elixir

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// TestProjectGolden reads every .ex/.exs file of testdata/project, then
// evaluates every tool module, and compares a rendering of the modules,
// the syntax errors, the evaluated actions (with the source text at each
// Origin, prefixed by the file when it is not the tool's), Deps and
// Result errors with testdata/project.golden. Run with -update to rewrite.
func TestProjectGolden(t *testing.T) {
	root := filepath.Join("testdata", "project")
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".ex") || strings.HasSuffix(path, ".exs")) {
			return err
		}
		b, err := os.ReadFile(path)
		files["file:///"+filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ws := newWS(t, files)
	var out strings.Builder
	for _, uri := range slices.Sorted(maps.Keys(ws.files)) {
		f := ws.files[uri]
		fmt.Fprintf(&out, "== %s\n", uri)
		for _, e := range f.Errors {
			fmt.Fprintf(&out, "syntax error %q: %s\n", slice(files[uri], e.Span), e.Message)
		}
		for _, m := range f.Modules {
			fmt.Fprintf(&out, "module %s tool=%v attrs=%d defs=%d aliases=%d\n", m.Name, m.Tool, len(m.Attrs), len(m.Defs), len(m.Aliases))
			if !m.Tool {
				continue
			}
			r := Evaluate(context.Background(), ws.res, m)
			if !r.Found {
				fmt.Fprintf(&out, "  no actions/0\n")
				continue
			}
			fmt.Fprintf(&out, "  deps %v\n  modules %v\n", r.Deps, r.Modules)
			for _, e := range r.Errors {
				fmt.Fprintf(&out, "  error %s %q: %s\n", e.URI, slice(files[e.URI], e.Span), e.Message)
			}
			v := r.Actions
			if len(v.Entries) == 0 {
				fmt.Fprintf(&out, "  actions %s\n", render(v, ws.srcs))
			}
			entries := append(v.Entries[:0:0], v.Entries...)
			sort.SliceStable(entries, func(i, j int) bool { return entries[i].Key.Text < entries[j].Key.Text })
			for _, e := range entries {
				line := render(e.Key, ws.srcs) + " => " + render(e.Value, ws.srcs)
				fmt.Fprintf(&out, "  %s\n", line)
			}
		}
	}
	golden := filepath.Join("testdata", "project.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Fatalf("output differs from %s (run with -update and review the diff):\n%s", golden, out.String())
	}
}
