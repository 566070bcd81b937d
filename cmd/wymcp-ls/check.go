package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Finding is one element of `check --format json` (README.md "Command line"): exactly
// these fields. Line and Column are 1-based, Column and EndColumn counted in
// characters; EndColumn is exclusive.
type Finding struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Code      string `json:"code"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Fix       string `json:"fix"`
	Tool      string `json:"tool"`
	Action    string `json:"action"`
	Location  string `json:"location"`
}

// runCheck implements `wymcp-ls check` (docs/architecture.md "check"): it returns 0
// when nothing at severity error was found (or nothing at all with
// --strict), 1 otherwise, and 2 on a usage error or a path that cannot be
// read.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wymcp-ls check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	format := fs.String("format", "text", "output `FORMAT`: text, json or github")
	strict := fs.Bool("strict", false, "exit 1 on lints (warnings, hints) too")
	var lf logFlags
	lf.register(fs, "info")
	// Flags may come before or after the paths (`check lib --format json`):
	// parse, take one path, parse the rest again.
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch *format {
	case "text", "json", "github":
	default:
		fmt.Fprintf(stderr, "wymcp-ls check: unknown --format %q (want text, json or github)\n", *format)
		return 2
	}
	log, done, err := lf.logger(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wymcp-ls check: %v\n", err)
		return 2
	}
	defer done()

	if len(paths) == 0 {
		paths = []string{"."}
	}
	ws := workspace.New(workspace.Options{Logger: log})
	defer ws.Close()
	prog := newProgress(stderr)
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(stderr, "wymcp-ls check: %v\n", err)
			return 2
		}
		if err := ws.AddFolder(ctx, p, prog.files); err != nil {
			prog.done()
			fmt.Fprintf(stderr, "wymcp-ls check: %v\n", err)
			return 2
		}
	}
	prog.analysing()
	reports := ws.All(ctx)
	prog.done()
	rows := collect(reports)
	switch *format {
	case "json":
		writeJSON(stdout, findings(rows))
	case "github":
		writeGitHub(stdout, rows)
	default:
		writeText(stdout, rows)
	}
	for _, r := range rows {
		if r.p.Severity == validate.Error || *strict {
			return 1
		}
	}
	return 0
}

// row is one problem with its display path and 1-based positions.
type row struct {
	path                       string
	line, col, endLine, endCol int
	p                          workspace.Problem
}

// collect turns reports into rows in path, line, column order.
func collect(reports []workspace.Report) []row {
	cwd, _ := os.Getwd()
	var out []row
	for _, r := range reports {
		path := displayPath(cwd, r.Path, r.URI)
		for _, p := range r.Problems {
			l, c := r.Mapper.LineCol(p.Span.Start)
			el, ec := r.Mapper.LineCol(p.Span.End)
			out = append(out, row{path: path, line: l, col: c, endLine: el, endCol: ec, p: p})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.path != b.path {
			return a.path < b.path
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.col < b.col
	})
	return out
}

// findings expands rows into JSON findings: one per problem and action,
// each message naming that one action, as wymcp's ArgumentError does.
func findings(rows []row) []Finding {
	out := []Finding{}
	for _, r := range rows {
		p := r.p
		base := Finding{
			Path: r.path, Line: r.line, Column: r.col, EndLine: r.endLine, EndColumn: r.endCol,
			Code: p.Code, Severity: p.Severity.String(), Fix: p.Fix,
			Tool: p.Tool, Location: p.Location, Message: p.Message,
		}
		if len(p.Actions) == 0 {
			out = append(out, base)
			continue
		}
		for _, a := range p.Actions {
			f := base
			f.Action = a
			f.Message = workspace.Prefix([]string{a}, p.Location) + p.Offence
			out = append(out, f)
		}
	}
	return out
}

// displayPath is the path as found, relative to the working directory when
// it lies under it (docs/architecture.md "check").
func displayPath(cwd, path, uri string) string {
	if path == "" {
		return uri
	}
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return path
}

// writeText prints `path:line:col: severity: message [code]` lines, one
// per problem (a shared value's actions named in one line), then a
// summary line.
func writeText(w io.Writer, rows []row) {
	counts := map[validate.Severity]int{}
	files := map[string]bool{}
	for _, r := range rows {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", r.path, r.line, r.col, r.p.Severity, r.p.Text(), r.p.Code)
		counts[r.p.Severity]++
		files[r.path] = true
	}
	if len(rows) == 0 {
		fmt.Fprintln(w, "wymcp-ls: no offences")
		return
	}
	parts := []string{plural(counts[validate.Error], "offence")}
	if n := counts[validate.Warning]; n > 0 {
		parts = append(parts, plural(n, "warning"))
	}
	if n := counts[validate.Hint] + counts[validate.Information]; n > 0 {
		parts = append(parts, plural(n, "hint"))
	}
	fmt.Fprintf(w, "wymcp-ls: %s in %s\n", strings.Join(parts, ", "), plural(len(files), "file"))
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeJSON prints one JSON array (never null).
func writeJSON(w io.Writer, fs []Finding) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(fs)
}

// writeGitHub prints GitHub Actions workflow commands, one per problem
// (`::error file=...,line=...,col=...::message`): error for offences,
// warning for warnings, notice for hints.
func writeGitHub(w io.Writer, rows []row) {
	for _, r := range rows {
		cmd := "error"
		switch r.p.Severity {
		case validate.Warning:
			cmd = "warning"
		case validate.Hint, validate.Information:
			cmd = "notice"
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			cmd, ghProp(r.path), r.line, r.col, r.endLine, r.endCol, ghProp("wymcp "+r.p.Code), ghData(r.p.Text()))
	}
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command's property value.
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// progress prints a one-line progress indicator on a terminal (docs/architecture.md
// "check": a progress line on a terminal, not when piped); on
// anything else it prints nothing.
type progress struct {
	w       io.Writer
	on      bool
	last    time.Time
	printed bool
}

func newProgress(stderr io.Writer) *progress {
	f, ok := stderr.(*os.File)
	return &progress{w: stderr, on: ok && term.IsTerminal(int(f.Fd()))}
}

// files reports done of total files read, at most every 50 ms.
func (p *progress) files(done, total int) {
	if !p.on || (done != total && time.Since(p.last) < 50*time.Millisecond) {
		return
	}
	p.last = time.Now()
	p.printed = true
	fmt.Fprintf(p.w, "\r\x1b[Kwymcp-ls: reading %d/%d files", done, total)
}

// analysing says the analysis has started.
func (p *progress) analysing() {
	if p.on {
		p.printed = true
		fmt.Fprint(p.w, "\r\x1b[Kwymcp-ls: analysing")
	}
}

// done erases the progress line.
func (p *progress) done() {
	if p.on && p.printed {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
