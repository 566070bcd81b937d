package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/wymcp/wymcp-ls/workspace"
)

// TestAnalysisFindsExactlyThePlantedOffences runs the workspace analysis
// over a generated project and compares every problem (path, 1-based line
// and column, code, tool, actions) with the manifest.
func TestAnalysisFindsExactlyThePlantedOffences(t *testing.T) {
	for _, seed := range []uint64{1, 7} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			dir := t.TempDir()
			man, err := Generate(Config{Modules: 300, Seed: seed, Out: dir})
			if err != nil {
				t.Fatal(err)
			}
			ws := workspace.New(workspace.Options{})
			defer ws.Close()
			if err := ws.AddFolder(context.Background(), dir, nil); err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, r := range ws.All(context.Background()) {
				rel, _ := filepath.Rel(dir, r.Path)
				for _, p := range r.Problems {
					l, c := r.Mapper.LineCol(p.Span.Start)
					got = append(got, fmt.Sprintf("%s:%d:%d %s %s %v", filepath.ToSlash(rel), l, c, p.Code, p.Tool, p.Actions))
				}
			}
			for _, it := range man.Items {
				var acts []string
				for _, a := range it.Actions {
					acts = append(acts, ":"+a) // the manifest names actions bare
				}
				sort.Strings(acts)
				want = append(want, fmt.Sprintf("%s:%d:%d %s %s %v", it.Path, it.Line, it.Column, it.Code, it.Tool, acts))
			}
			sort.Strings(got)
			sort.Strings(want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("problems differ from the planted offences\n got %d: %q\nwant %d: %q", len(got), got, len(want), want)
			}
			if len(want) < 10 {
				t.Errorf("only %d planted offences", len(want))
			}
		})
	}
}
