package workspace

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/validate"
)

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		lints map[string]bool
		errs  []string // "line:col: message", and the text the span selects after "|"
	}{
		{"empty", "", map[string]bool{}, nil},
		{"comment only", "# nothing\n", map[string]bool{}, nil},
		{"switches", "lints:\n  lint/unknown-keyword: false\n  lint/duplicate-key: true\n",
			map[string]bool{"lint/unknown-keyword": false, "lint/duplicate-key": true}, nil},
		{"unknown lint", "lints:\n  lint/nope: false\n  lint/unknown-type: false\n",
			map[string]bool{"lint/unknown-type": false},
			[]string{`2:3: unknown lint "lint/nope" (known: lint/action-without-clause, lint/clause-without-action, lint/default-for-required, lint/duplicate-key, lint/hint-unknown-action, lint/hint-unknown-tool, lint/payload-missing-required, lint/payload-undeclared-key, lint/related-unknown-action, lint/tool-name, lint/tool-not-mounted, lint/unknown-keyword, lint/unknown-tool-module, lint/unknown-type)|lint/nope`}},
		{"a misspelt lint, one without its prefix, an error code", "lints:\n  lint/unknwon-keyword: false\n  unknown-type: false\n  undeclared-field: false\n  reserved-tool-name: false\n", map[string]bool{},
			[]string{`2:3: unknown lint "lint/unknwon-keyword" (did you mean lint/unknown-keyword?)|lint/unknwon-keyword`,
				`3:3: unknown lint "unknown-type" (did you mean lint/unknown-type? every lint code starts with lint/)|unknown-type`,
				`4:3: "undeclared-field" is an error, where Wymcp itself raises, not a lint: it cannot be switched off|undeclared-field`,
				`5:3: "reserved-tool-name" is an error, where Wymcp itself raises, not a lint: it cannot be switched off|reserved-tool-name`}},
		{"not a bool", "lints:\n  lint/unknown-type: maybe\n", map[string]bool{},
			[]string{`2:22: the value of lint/unknown-type must be true or false, got "maybe"|maybe`}},
		{"a YAML 1.1 boolean word", "lints:\n  lint/unknown-type: no\n  lint/duplicate-key: On\n  lint/tool-name: \"yes\"\n", map[string]bool{},
			[]string{`2:22: the value of lint/unknown-type must be true or false, got "no" (a string in YAML 1.2: write false)|no`,
				`3:23: the value of lint/duplicate-key must be true or false, got "On" (a string in YAML 1.2: write true)|On`,
				`4:19: the value of lint/tool-name must be true or false, got "yes"|"yes"`}},
		// A quoted key or value is selected with its quotes (it was cut
		// short by the length of the quotes: `"lint/nop`, `"ye`).
		{"quoted", "lints:\n  \"lint/nope\": false\n  'it''s': true\n  lint/unknown-type: \"yes\"\n  lint/duplicate-key: \"ünï \\\" x\"\n", map[string]bool{},
			[]string{
				`2:3: unknown lint "lint/nope" (known: lint/action-without-clause, lint/clause-without-action, lint/default-for-required, lint/duplicate-key, lint/hint-unknown-action, lint/hint-unknown-tool, lint/payload-missing-required, lint/payload-undeclared-key, lint/related-unknown-action, lint/tool-name, lint/tool-not-mounted, lint/unknown-keyword, lint/unknown-tool-module, lint/unknown-type)|"lint/nope"`,
				`3:3: unknown lint "it's" (known: lint/action-without-clause, lint/clause-without-action, lint/default-for-required, lint/duplicate-key, lint/hint-unknown-action, lint/hint-unknown-tool, lint/payload-missing-required, lint/payload-undeclared-key, lint/related-unknown-action, lint/tool-name, lint/tool-not-mounted, lint/unknown-keyword, lint/unknown-tool-module, lint/unknown-type)|'it''s'`,
				`4:22: the value of lint/unknown-type must be true or false, got "yes"|"yes"`,
				`5:23: the value of lint/duplicate-key must be true or false, got "ünï \" x"|"ünï \" x"`,
			}},
		{"unknown key", "lint:\n  lint/unknown-type: false\n", map[string]bool{},
			[]string{`1:1: unknown key "lint" (the known key is "lints")|lint`}},
		// A switch (or lints:) written twice: the later one is located and
		// ignored. Before, the later silently won.
		{"a switch twice", "lints:\n  lint/unknown-type: false\n  lint/duplicate-key: false\n  lint/unknown-type: true\n",
			map[string]bool{"lint/unknown-type": false, "lint/duplicate-key": false},
			[]string{`4:3: lint/unknown-type is switched twice (first on line 2); only the first applies|lint/unknown-type`}},
		{"lints twice", "lints:\n  lint/unknown-type: false\nlints: {lint/duplicate-key: false, lint/unknown-type: true}\n",
			map[string]bool{"lint/unknown-type": false},
			[]string{`3:1: "lints" is written twice (first on line 1); only the first applies|lints`}},
		{"syntax", "lints:\n  lint/unknown-type: [\n", map[string]bool{},
			[]string{`2:1: yaml: line 2: did not find expected node content|  lint/unknown-type: [`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, errs := ParseConfig([]byte(tc.src))
			if !reflect.DeepEqual(cfg.Lints, tc.lints) {
				t.Errorf("lints = %v, want %v", cfg.Lints, tc.lints)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error()+"|"+tc.src[e.Span.Start:e.Span.End])
			}
			if !reflect.DeepEqual(got, tc.errs) {
				t.Errorf("errors = %q\nwant     %q", got, tc.errs)
			}
		})
	}
}

func TestConfigSwitchesLints(t *testing.T) {
	tool := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	ws, dir := setup(t, map[string]string{"l.ex": tool, ConfigName: "lints:\n  lint/unknown-type: false\n"})
	if rs := ws.All(context.Background()); len(rs) != 0 {
		t.Fatalf("lint switched off in %s still reported: %+v", ConfigName, rs)
	}
	// The client's settings win over the file.
	ws.SetLints(map[string]bool{"lint/unknown-type": false})
	rs := ws.All(context.Background())
	if len(rs) != 1 || len(rs[0].Problems) != 1 || rs[0].Problems[0].Code != "lint/unknown-type" {
		t.Fatalf("client settings turning the lint on: got %+v", rs)
	}
	_ = dir
}

func TestBadConfigIsReportedAndDefaultsApply(t *testing.T) {
	tool := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	ws, dir := setup(t, map[string]string{"l.ex": tool, ConfigName: "lints: [\n"})
	rs := ws.All(context.Background())
	if len(rs) != 2 {
		t.Fatalf("want the config error and the lint, got %+v", rs)
	}
	cfg := rs[0]
	if cfg.Path != filepath.Join(dir, ConfigName) || len(cfg.Problems) != 1 || cfg.Problems[0].Code != CodeConfigError {
		t.Errorf("config report %+v", cfg)
	}
	if l, c := cfg.Mapper.LineCol(cfg.Problems[0].Span.Start); l != 1 || c != 1 {
		t.Errorf("config error at %d:%d, want 1:1", l, c)
	}
	if rs[1].Problems[0].Code != "lint/unknown-type" {
		t.Errorf("defaults not applied: %+v", rs[1].Problems)
	}
	if got, want := cfg.Problems[0].Fix, "correct it; until then the file is ignored and every lint keeps its default"; got != want {
		t.Errorf("fix %q, want %q", got, want)
	}
}

// TestBadConfigLineKeepsTheRest: a mistake on one line of a config that
// parses leaves out only that setting; the file's valid switches still
// apply (README.md "Lint switches"; docs/rules.md config-error).
func TestBadConfigLineKeepsTheRest(t *testing.T) {
	tool := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\", \"tpye\" => 1}}}}\nend\n"
	ws, _ := setup(t, map[string]string{"l.ex": tool, ConfigName: "lints:\n  lint/unknown-type: false\n  lint/unknown-keyword: maybe\n"})
	rs := ws.All(context.Background())
	var got []string
	for _, r := range rs {
		for _, p := range r.Problems {
			got = append(got, filepath.Base(r.Path)+" "+p.Code+" | "+p.Fix)
		}
	}
	want := []string{
		ConfigName + " config-error | correct it; until then this setting is ignored and the file's other settings apply",
		`l.ex lint/unknown-keyword | did you mean "type"?`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// writeTree writes files (slash paths relative to dir) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
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

// TestFindConfig: the nearest config at or above a directory, no higher
// than the first directory holding mix.exs or .git (a directory or a file).
func TestFindConfig(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"proj/mix.exs":                                "",
		"proj/" + ConfigName:                          "",
		"proj/lib/app/tools/x.ex":                     "",
		"umbrella/mix.exs":                            "",
		"umbrella/" + ConfigName:                      "",
		"umbrella/apps/x/mix.exs":                     "",
		"umbrella/apps/x/" + ConfigName:               "",
		"umbrella/apps/x/lib/t.ex":                    "",
		"umbrella/apps/y/mix.exs":                     "",
		"umbrella/apps/y/lib/t.ex":                    "",
		"outer/" + ConfigName:                         "",
		"outer/wt/.git":                               "gitdir: /elsewhere\n",
		"outer/wt/lib/t.ex":                           "",
		"nested/" + ConfigName:                        "",
		"nested/deep/" + ConfigName:                   "",
		"nested/deep/lib/t.ex":                        "",
		"nested/deep/lib/sub/" + ConfigName + "/keep": "", // a directory by that name is no config
	})
	for _, tc := range []struct{ from, want string }{
		{"proj/lib/app/tools", "proj/" + ConfigName},
		{"proj/lib", "proj/" + ConfigName},
		{"proj", "proj/" + ConfigName},
		{"umbrella/apps/x/lib", "umbrella/apps/x/" + ConfigName},
		{"umbrella/apps/y/lib", ""}, // apps/y/mix.exs stops the search
		{"umbrella/apps", "umbrella/" + ConfigName},
		{"outer/wt/lib", ""}, // a .git file (a worktree) stops it too
		{"nested/deep/lib", "nested/deep/" + ConfigName},
		{"nested/deep/lib/sub", "nested/deep/" + ConfigName},
	} {
		got := FindConfig(filepath.Join(dir, filepath.FromSlash(tc.from)))
		want := ""
		if tc.want != "" {
			want = filepath.Join(dir, filepath.FromSlash(tc.want))
		}
		if got != want {
			t.Errorf("FindConfig(%s) = %q, want %q", tc.from, got, want)
		}
	}
}

// TestConfigDiscoveredPerFile: a folder added below the project root
// (`check lib`) or a single file still takes the project's switches; each
// app of an umbrella its own; Options.ConfigFile overrides them all.
func TestConfigDiscoveredPerFile(t *testing.T) {
	lint := func(mod string) string {
		return "defmodule " + mod + " do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	}
	dir := t.TempDir()
	off := "lints:\n  lint/unknown-type: false\n"
	writeTree(t, dir, map[string]string{
		"proj/mix.exs":             "",
		"proj/" + ConfigName:       off,
		"proj/lib/app/tools/x.ex":  lint("X"),
		"umb/mix.exs":              "",
		"umb/apps/x/mix.exs":       "",
		"umb/apps/x/" + ConfigName: off,
		"umb/apps/x/lib/t.ex":      lint("UX"),
		"umb/apps/y/mix.exs":       "",
		"umb/apps/y/lib/t.ex":      lint("UY"),
		"other/on.yaml":            "lints:\n  lint/unknown-type: true\n",
		"other/bad.yaml":           "lints:\n  lint/nope: true\n",
		"bad/mix.exs":              "",
		"bad/" + ConfigName:        "lints:\n  lint/nope: true\n",
		"bad/lib/t.ex":             "defmodule B do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{}}}\nend\n",
		// A tool in one app whose schemas come from another: each lint
		// follows the config of the file it is reported in.
		"cross/mix.exs":                   "",
		"cross/apps/core/mix.exs":         "",
		"cross/apps/core/" + ConfigName:   off,
		"cross/apps/core/lib/schemas.ex":  "defmodule Core.Schemas do\n  def all, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n",
		"cross/apps/web/mix.exs":          "",
		"cross/apps/web/lib/tool.ex":      "defmodule Web.Tool do\n  use Wymcp.Tool\n  def actions, do: Map.merge(Core.Schemas.all(), %{b: %{description: \"B\", properties: %{\"y\" => %{\"type\" => \"strin\"}}}})\nend\n",
		"cross2/mix.exs":                  "",
		"cross2/apps/core/mix.exs":        "",
		"cross2/apps/core/lib/schemas.ex": "defmodule Core.Schemas do\n  def all, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n",
		"cross2/apps/web/mix.exs":         "",
		"cross2/apps/web/" + ConfigName:   off,
		"cross2/apps/web/lib/tool.ex":     "defmodule Web.Tool do\n  use Wymcp.Tool\n  def actions, do: Core.Schemas.all()\nend\n",
	})
	codes := func(opts Options, paths ...string) []string {
		ws := New(opts)
		defer ws.Close()
		for _, p := range paths {
			if err := ws.AddFolder(context.Background(), filepath.Join(dir, filepath.FromSlash(p)), nil); err != nil {
				t.Fatal(err)
			}
		}
		var out []string
		for _, r := range ws.All(context.Background()) {
			rel, _ := filepath.Rel(dir, r.Path)
			for _, p := range r.Problems {
				out = append(out, filepath.ToSlash(rel)+" "+p.Code)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		opts  Options
		paths []string
		want  []string
	}{
		{"lib", Options{}, []string{"proj/lib"}, nil},
		{"one file", Options{}, []string{"proj/lib/app/tools/x.ex"}, nil},
		{"umbrella", Options{}, []string{"umb"}, []string{"umb/apps/y/lib/t.ex lint/unknown-type"}},
		{"--config", Options{ConfigFile: filepath.Join(dir, "other", "on.yaml")}, []string{"proj/lib", "umb"},
			[]string{"proj/lib/app/tools/x.ex lint/unknown-type", "umb/apps/x/lib/t.ex lint/unknown-type", "umb/apps/y/lib/t.ex lint/unknown-type"}},
		{"a lint in another app's file, switched off there", Options{}, []string{"cross"}, []string{"cross/apps/web/lib/tool.ex lint/unknown-type"}},
		{"a lint in another app's file, switched off in the tool's app only", Options{}, []string{"cross2"}, []string{"cross2/apps/core/lib/schemas.ex lint/unknown-type"}},
		{"--config missing", Options{ConfigFile: filepath.Join(dir, "nope.yaml")}, []string{"proj/lib"},
			[]string{"nope.yaml config-error", "proj/lib/app/tools/x.ex lint/unknown-type"}},
		// The folder's own config is not the config then: its mistakes are
		// not reported, those of FILE are, even when no lint fires.
		{"--config over a bad project config", Options{ConfigFile: filepath.Join(dir, "other", "on.yaml")}, []string{"bad"}, nil},
		{"--config bad, no lint needing it", Options{ConfigFile: filepath.Join(dir, "other", "bad.yaml")}, []string{"bad"}, []string{"other/bad.yaml config-error"}},
		{"--config bad, one file", Options{ConfigFile: filepath.Join(dir, "other", "bad.yaml")}, []string{"bad/lib/t.ex"}, []string{"other/bad.yaml config-error"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := codes(tc.opts, tc.paths...); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
		})
	}
}

// TestConfigCreatedBelowRoot: a config file that appears in a nested
// project switches its tools' lints at the next Diagnose.
func TestConfigCreatedBelowRoot(t *testing.T) {
	tool := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	ws, dir := setup(t, map[string]string{"apps/x/mix.exs": "", "apps/x/lib/l.ex": tool})
	if rs := ws.All(context.Background()); len(rs) != 1 {
		t.Fatalf("want the lint before the config exists, got %+v", rs)
	}
	cfg := filepath.Join(dir, "apps", "x", ConfigName)
	if err := os.WriteFile(cfg, []byte("lints:\n  lint/unknown-type: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(cfg))
	if rs := ws.All(context.Background()); len(rs) != 0 {
		t.Fatalf("lint still reported after %s appeared: %+v", cfg, rs)
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(cfg))
	if rs := ws.All(context.Background()); len(rs) != 1 {
		t.Fatalf("want the lint back after %s went, got %+v", cfg, rs)
	}
}

// TestMixExsCreatedStopsTheSearch: a mix.exs created below the config's
// directory makes a new project root, so the config above no longer
// applies to the files below it.
func TestMixExsCreatedStopsTheSearch(t *testing.T) {
	tool := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"
	ws, dir := setup(t, map[string]string{ConfigName: "lints:\n  lint/unknown-type: false\n", "apps/x/lib/l.ex": tool})
	if rs := ws.All(context.Background()); len(rs) != 0 {
		t.Fatalf("the config above should switch the lint off: %+v", rs)
	}
	mix := filepath.Join(dir, "apps", "x", "mix.exs")
	if err := os.WriteFile(mix, []byte("defmodule X.MixProject do\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.DiskChanged(PathURI(mix))
	if rs := ws.All(context.Background()); len(rs) != 1 || rs[0].Problems[0].Code != "lint/unknown-type" {
		t.Fatalf("after apps/x/mix.exs appeared, want the lint: %+v", rs)
	}
}

// TestUnreadableConfigIsIgnoredWhole: a config that cannot be read (here
// over the size limit) sets nothing, so its fix says the file is ignored,
// as for one that does not parse (docs/rules.md config-error): it said
// "this setting is ignored and the file's other settings apply".
func TestUnreadableConfigIsIgnoredWhole(t *testing.T) {
	ws, dir := setup(t, map[string]string{"l.ex": lintTool, ConfigName: "lints:\n  lint/unknown-type: false\n" + strings.Repeat("#", 3<<20)})
	var got []string
	for _, r := range ws.All(context.Background()) {
		for _, p := range r.Problems {
			got = append(got, filepath.Base(r.Path)+" "+p.Code+" | "+p.Message+" | "+p.Fix)
		}
	}
	want := []string{
		ConfigName + " config-error | bad " + ConfigName + ": cannot read " + filepath.Join(dir, ConfigName) + ": 3145762 bytes, over the 2097152-byte limit | correct it; until then the file is ignored and every lint keeps its default",
		`l.ex lint/unknown-type | action :a :properties["x"]: "type" "str" is not a JSON Schema type | did you mean "string"?`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestOpenConfigIsReadAsItStands: the mistakes of an open .wymcp-ls.yaml
// are those of its buffer, located in the buffer's text and carrying its
// version, not the disk file's mapped through the buffer; closed again,
// the file's own come back.
func TestOpenConfigIsReadAsItStands(t *testing.T) {
	ws, dir := setup(t, map[string]string{ConfigName: "lints:\n  lint/unknown-type: false\n\n\tlint/x: true\n"})
	uri := PathURI(filepath.Join(dir, ConfigName))
	problems := func(rs []Report) []string {
		var out []string
		for _, r := range rs {
			if r.URI != uri {
				continue
			}
			for _, p := range r.Problems {
				l, c := r.Mapper.LineCol(p.Span.Start)
				out = append(out, fmt.Sprintf("v%d %d:%d %s", r.Version, l, c, p.Message))
			}
		}
		return out
	}
	disk := problems(ws.All(context.Background()))
	if len(disk) != 1 || !strings.Contains(disk[0], "found a tab character") {
		t.Fatalf("the file's mistake: %q", disk)
	}
	ws.SetOverlay(uri, 3, []byte("lints:\n  lint/nope: true\n"))
	got := problems(ws.Diagnose(context.Background()))
	want := []string{`v3 2:3 bad .wymcp-ls.yaml: unknown lint "lint/nope" (known: ` + strings.Join(slices.Sorted(maps.Keys(validate.LintCodes())), ", ") + ")"}
	if !slices.Equal(got, want) {
		t.Errorf("open buffer: %q, want %q", got, want)
	}
	ws.RemoveOverlay(uri)
	if got := problems(ws.Diagnose(context.Background())); !slices.Equal(got, disk) {
		t.Errorf("closed again: %q, want %q", got, disk)
	}
}
