package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Config says what Generate writes.
type Config struct {
	// Modules is the number of Elixir modules (one `defmodule` per file, in
	// lib/ and test/; mix.exs and test/test_helper.exs come on top). At
	// least 1.
	Modules int
	// Seed makes the output deterministic: the same Seed and Modules give
	// byte-identical projects.
	Seed uint64
	// Out is the project directory. It is created; it must not hold files.
	Out string
}

// Manifest is the content of DIR/expected.json: what was generated and
// every planted offence. Codes are those of docs/rules.md §4.
type Manifest struct {
	Seed           uint64 `json:"seed"`
	Modules        int    `json:"modules"`         // defmodule files written
	ToolModules    int    `json:"tool_modules"`    // modules with use/@behaviour Wymcp.Tool
	SchemasModules int    `json:"schemas_modules"` // Schemas modules read by a tool
	Files          int    `json:"files"`           // .ex/.exs files written, mix.exs included
	Lines          int    `json:"lines"`           // lines of all .ex/.exs files
	// Offences is the number of diagnostics `wymcp-ls check` must report at
	// severity error: len(Items), and the sum of ByCode.
	Offences int `json:"offences"`
	// Findings is the number of `wymcp-ls check --format json` entries,
	// which lists a diagnostic once per affected action: the sum of
	// len(Items[i].Actions).
	Findings int            `json:"findings"`
	ByCode   map[string]int `json:"by_code"`
	// Tools lists the tool modules by name, sorted.
	Tools []string `json:"tools"`
	// Items lists the planted offences sorted by path, line, column.
	Items []Planted `json:"items"`
}

// Planted is one offence the generator wrote on purpose. Path is relative
// to the project directory with forward slashes; Line and Column are
// 1-based, Column counted in characters (every generated file is ASCII),
// and point at the start of the pointer range of docs/rules.md §4 "Ranges"
// (the first character of the offending key, value, entry, group or `%{`).
// Actions lists every action the offence affects, by name without the
// colon, sorted: more than one when it sits in a module attribute shared by
// several actions (still one diagnostic, docs/rules.md §4 "Ranges").
type Planted struct {
	Path    string   `json:"path"`
	Line    int      `json:"line"`
	Column  int      `json:"column"`
	Code    string   `json:"code"`
	Tool    string   `json:"tool"`
	Actions []string `json:"actions"`
}

// Generate writes the project described by cfg and its expected.json, and
// returns the manifest. It fails when cfg.Modules < 1, when cfg.Out
// already holds files, or on an I/O error.
func Generate(cfg Config) (*Manifest, error) {
	if cfg.Modules < 1 {
		return nil, fmt.Errorf("modules must be at least 1, got %d", cfg.Modules)
	}
	if ents, err := os.ReadDir(cfg.Out); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("output directory %s is not empty", cfg.Out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read output directory: %w", err)
	}
	g := newGenerator(cfg.Seed)
	g.plan(cfg.Modules)
	files := g.files()

	m := &Manifest{
		Seed:           cfg.Seed,
		Modules:        cfg.Modules,
		ToolModules:    len(g.tools),
		SchemasModules: g.nSchemas,
		ByCode:         map[string]int{},
		Items:          []Planted{},
	}
	for _, f := range files {
		if f.err != nil {
			return nil, f.err
		}
	}
	for _, f := range files {
		full := filepath.Join(cfg.Out, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, fmt.Errorf("create directory: %w", err)
		}
		text := strings.Join(f.lines, "\n") + "\n"
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.path, err)
		}
		m.Files++
		m.Lines += len(f.lines)
		for _, p := range f.planted {
			p.Path = f.path
			m.Items = append(m.Items, p)
			m.ByCode[p.Code]++
			m.Findings += len(p.Actions)
		}
	}
	for _, t := range g.tools {
		m.Tools = append(m.Tools, t.module)
	}
	sort.Strings(m.Tools)
	sort.Slice(m.Items, func(i, j int) bool {
		a, b := m.Items[i], m.Items[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	m.Offences = len(m.Items)
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode expected.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(cfg.Out, "expected.json"), append(data, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("write expected.json: %w", err)
	}
	return m, nil
}

// newGenerator returns the generator of the project of seed, before its
// plan: Generate and the tests that need each module's kind plan with it.
func newGenerator(seed uint64) *generator {
	return &generator{
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		app: "Shop",
	}
}

// line is one output line and, when it holds a planted offence, the mark
// that locates it.
type line struct {
	text string
	mark *mark
}

// mark names the offence on a line: the token whose first character is the
// pointer start (its first occurrence, or its last with last set).
type mark struct {
	code    string
	token   string
	last    bool
	actions []string
}

// fileBuf accumulates the lines of one file and resolves marks into
// Planted entries as lines are appended.
type fileBuf struct {
	path    string
	tool    string
	lines   []string
	planted []Planted
	err     error // first mark that could not be resolved (a generator bug)
}

// add appends ls, resolving their marks against the final text.
func (b *fileBuf) add(ls ...line) {
	for _, l := range ls {
		b.lines = append(b.lines, l.text)
		if l.mark == nil {
			continue
		}
		i := strings.Index(l.text, l.mark.token)
		if l.mark.last {
			i = strings.LastIndex(l.text, l.mark.token)
		}
		if i < 0 {
			if b.err == nil {
				b.err = fmt.Errorf("%s:%d: planted token %q not on line %q", b.path, len(b.lines), l.mark.token, l.text)
			}
			continue
		}
		acts := append([]string(nil), l.mark.actions...)
		sort.Strings(acts)
		b.planted = append(b.planted, Planted{
			Line: len(b.lines), Column: i + 1, Code: l.mark.code, Tool: b.tool, Actions: acts,
		})
	}
}

// p appends plain lines; each argument may hold several lines.
func (b *fileBuf) p(texts ...string) {
	for _, t := range texts {
		for _, s := range strings.Split(t, "\n") {
			b.lines = append(b.lines, s)
		}
	}
}

// pf appends one formatted text (which may span lines).
func (b *fileBuf) pf(format string, args ...any) { b.p(fmt.Sprintf(format, args...)) }
