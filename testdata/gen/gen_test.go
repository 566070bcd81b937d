package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// rulesCodes are the offence codes of docs/rules.md §4; every planted code must
// be one of them.
var rulesCodes = map[string]bool{
	"actions-not-map": true, "action-name-not-atom": true, "action-name-newline": true,
	"schema-not-map": true, "unknown-key": true, "missing-key": true, "wrong-type": true,
	"description-newline": true, "duplicate-entry": true, "undeclared-field": true,
	"empty-group": true, "duplicate-group": true, "superset-group": true,
	"property-name-not-string": true, "property-schema-not-map": true,
	"atom-schema-keyword": true, "default-key-not-string": true, "undeclared-default": true,
}

// pointerStart matches, per code, the text that must start at an item's
// line and column (docs/rules.md §4 "Ranges").
var pointerStart = map[string]*regexp.Regexp{
	"unknown-key":             regexp.MustCompile(`^(example|note|require): `),
	"undeclared-field":        regexp.MustCompile(`^"(owner_id|region|priority|currency)"\]`),
	"undeclared-default":      regexp.MustCompile(`^"(sort|silent)" => `),
	"missing-key":             regexp.MustCompile(`^%\{$`),
	"atom-schema-keyword":     regexp.MustCompile(`^items: %\{`),
	"wrong-type":              regexp.MustCompile(`^:[a-z_]+, "`),
	"description-newline":     regexp.MustCompile(`^"""$`),
	"duplicate-entry":         regexp.MustCompile(`^"[a-z_]+"\],?$`),
	"property-schema-not-map": regexp.MustCompile(`^"integer"$`),
	"superset-group":          regexp.MustCompile(`^\["[a-z_]+", "[a-z_]+"\]\],?$`),
}

var (
	defmoduleRe = regexp.MustCompile(`(?m)^defmodule ([A-Za-z0-9_.]+) do$`)
	toolRe      = regexp.MustCompile(`(?m)^  (use Wymcp\.Tool\b|@behaviour Wymcp\.Tool$)`)
)

// project is what a test reads back from a generated directory.
type project struct {
	files   map[string]string // slash path -> content, .ex/.exs only
	modules []string          // defmodule names outside mix.exs
	tools   []string          // modules declaring Wymcp.Tool
	lines   int
}

func readProject(t *testing.T, dir string) project {
	t.Helper()
	p := project{files: map[string]string{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".ex" && ext != ".exs" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		p.files[rel] = string(data)
		p.lines += strings.Count(string(data), "\n")
		if rel == "mix.exs" {
			return nil
		}
		mods := defmoduleRe.FindAllStringSubmatch(string(data), -1)
		if len(mods) > 1 {
			t.Errorf("%s: %d defmodules, want one per file", rel, len(mods))
		}
		for _, m := range mods {
			p.modules = append(p.modules, m[1])
			if toolRe.MatchString(string(data)) {
				p.tools = append(p.tools, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(p.tools)
	return p
}

func readManifest(t *testing.T, dir string) Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	return m
}

// checkConsistent asserts that the files on disk, the returned manifest
// and expected.json agree.
func checkConsistent(t *testing.T, dir string, n int, got *Manifest) project {
	t.Helper()
	p := readProject(t, dir)
	disk := readManifest(t, dir)
	if !reflect.DeepEqual(disk, *got) {
		t.Errorf("expected.json differs from the returned manifest:\n%+v\n%+v", disk, *got)
	}
	if len(p.modules) != n || got.Modules != n {
		t.Errorf("modules: %d on disk, manifest %d, want %d", len(p.modules), got.Modules, n)
	}
	if len(p.files) != n+2 || got.Files != n+2 {
		t.Errorf("files: %d on disk, manifest %d, want %d (modules + mix.exs + test_helper.exs)",
			len(p.files), got.Files, n+2)
	}
	if p.lines != got.Lines {
		t.Errorf("lines: %d on disk, manifest %d", p.lines, got.Lines)
	}
	if !reflect.DeepEqual(p.tools, got.Tools) || len(p.tools) != got.ToolModules {
		t.Errorf("tools on disk %v, manifest %v (%d)", p.tools, got.Tools, got.ToolModules)
	}
	seen := map[string]bool{}
	for _, m := range p.modules {
		if seen[m] {
			t.Errorf("module %s defined twice", m)
		}
		seen[m] = true
	}
	schemas := 0
	for _, m := range p.modules {
		if strings.HasSuffix(m, ".Schemas") {
			schemas++
			if !seen[strings.TrimSuffix(m, ".Schemas")] {
				t.Errorf("%s has no tool module", m)
			}
		}
	}
	if schemas != got.SchemasModules {
		t.Errorf("schemas modules: %d on disk, manifest %d", schemas, got.SchemasModules)
	}

	sum := 0
	for code, c := range got.ByCode {
		if !rulesCodes[code] {
			t.Errorf("code %q is not in docs/rules.md §4", code)
		}
		sum += c
	}
	byCode := map[string]int{}
	findings := 0
	for _, it := range got.Items {
		byCode[it.Code]++
		findings += len(it.Actions)
		text, ok := p.files[it.Path]
		if !ok {
			t.Errorf("item %+v: no such file", it)
			continue
		}
		lines := strings.Split(text, "\n")
		if it.Line < 1 || it.Line > len(lines) || it.Column < 1 || it.Column > len(lines[it.Line-1]) {
			t.Errorf("item %+v: position outside the file", it)
			continue
		}
		at := lines[it.Line-1][it.Column-1:]
		if re := pointerStart[it.Code]; re == nil || !re.MatchString(at) {
			t.Errorf("item %+v: text at position is %q", it, at)
		}
		if !seen[it.Tool] || len(it.Actions) == 0 {
			t.Errorf("item %+v: unknown tool or no action", it)
		}
	}
	if findings != got.Findings {
		t.Errorf("findings = %d, want %d", got.Findings, findings)
	}
	if sum != got.Offences || len(got.Items) != got.Offences || !reflect.DeepEqual(byCode, got.ByCode) {
		t.Errorf("offences %d, sum of by_code %d, items %d (by code %v vs %v)",
			got.Offences, sum, len(got.Items), byCode, got.ByCode)
	}
	return p
}

func TestGenerateSmall(t *testing.T) {
	dir := t.TempDir()
	m, err := Generate(Config{Modules: 40, Seed: 1, Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, dir, 40, m)
	if m.ToolModules != 4 || m.SchemasModules != 2 {
		t.Errorf("tool/schemas modules = %d/%d, want 4/2", m.ToolModules, m.SchemasModules)
	}
	if m.Offences != 2 {
		t.Errorf("offences = %d, want 2 (half of the 4 tools)", m.Offences)
	}
}

// TestGenerateEveryKind generates enough tools that every planted kind
// occurs, including the one in a shared attribute that names two actions.
func TestGenerateEveryKind(t *testing.T) {
	dir := t.TempDir()
	m, err := Generate(Config{Modules: 240, Seed: 3, Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	checkConsistent(t, dir, 240, m)
	want := map[string]int{}
	for i := range (m.ToolModules + 1) / 2 {
		want[codeOf(plantKinds[i%len(plantKinds)])]++
	}
	if !reflect.DeepEqual(m.ByCode, want) {
		t.Errorf("by_code = %v, want %v", m.ByCode, want)
	}
	shared := 0
	for _, it := range m.Items {
		if it.Code == "atom-schema-keyword" {
			shared++
			if len(it.Actions) < 2 {
				t.Errorf("shared attribute offence %+v names fewer than two actions", it)
			}
		}
	}
	if shared == 0 {
		t.Error("no offence in a shared attribute")
	}
	if avg := m.Lines / m.Modules; avg < 120 || avg > 180 {
		t.Errorf("%d lines per module on average, want about 150", avg)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	gen := func(seed uint64) map[string]string {
		dir := t.TempDir()
		if _, err := Generate(Config{Modules: 60, Seed: seed, Out: dir}); err != nil {
			t.Fatal(err)
		}
		return readProject(t, dir).files
	}
	a, b, c := gen(5), gen(5), gen(6)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different projects")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("different seeds gave the same project")
	}
}

func TestGenerateTiny(t *testing.T) {
	for _, n := range []int{1, 2, 3, 9, 11} {
		dir := t.TempDir()
		m, err := Generate(Config{Modules: n, Seed: 1, Out: dir})
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		checkConsistent(t, dir, n, m)
		if m.ToolModules < 1 {
			t.Errorf("N=%d: no tool module", n)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	if _, err := Generate(Config{Modules: 0, Out: t.TempDir()}); err == nil {
		t.Error("Modules 0: no error")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(Config{Modules: 5, Out: dir}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("non-empty dir: err = %v", err)
	}
}

func TestRunUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-modules", "3"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage") {
		t.Errorf("no -out: code %d, stderr %q", code, errb.String())
	}
	dir := filepath.Join(t.TempDir(), "p")
	out.Reset()
	if code := run([]string{"-modules", "20", "-out", dir, "-seed", "2"}, &out, &errb); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errb.String())
	}
	m := readManifest(t, dir)
	want := "wrote " + dir + ": 20 modules (2 tool, 1 schemas), 22 files, "
	if !strings.HasPrefix(out.String(), want) || m.Modules != 20 || m.Seed != 2 {
		t.Errorf("stdout %q, manifest %+v", out.String(), m)
	}
}

func BenchmarkGenerate2000(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(Config{Modules: 2000, Seed: 1, Out: b.TempDir()}); err != nil {
			b.Fatal(err)
		}
	}
}
