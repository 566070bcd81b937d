package workspace

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
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
		{"not a bool", "lints:\n  lint/unknown-type: maybe\n", map[string]bool{},
			[]string{`2:22: the value of lint/unknown-type must be true or false, got "maybe"|maybe`}},
		{"unknown key", "lint:\n  lint/unknown-type: false\n", map[string]bool{},
			[]string{`1:1: unknown key "lint" (the known key is "lints")|lint`}},
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
}
