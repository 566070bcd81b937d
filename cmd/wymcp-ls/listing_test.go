package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"help-preview", "--action", "create", "testdata/example"}, 2, "wymcp-ls help-preview: --action needs --tool\n"},
		{[]string{"help-preview", "--tool", "nope", "testdata/example"}, 1, "wymcp-ls help-preview: no tool named \"nope\" under testdata/example\n"},
		{[]string{"help-preview", "--tool", "catalog", "--action", "drop", "testdata/listing"}, 1, "wymcp-ls help-preview: Shop.Tools.Catalog declares no action \"drop\" (its actions: get, search)\n"},
		{[]string{"tools-list", "testdata/example", "testdata/listing"}, 2, "wymcp-ls tools-list: one PATH at most, got 2\n"},
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
