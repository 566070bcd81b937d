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

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Finding is one element of `check --format json` (README.md, "Command
// line"): exactly these fields. Line and Column are 1-based, Column and
// EndColumn counted in characters (code points); EndColumn is exclusive.
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

// checkOptions are the flags of `wymcp-ls check`.
type checkOptions struct {
	format string
	strict bool
	fix    bool
	diff   bool
	config string
	log    logFlags
}

// checkFlags returns the flag set of `wymcp-ls check`, in usage order.
func checkFlags() (*flag.FlagSet, *checkOptions) {
	fs := newFlagSet("wymcp-ls check")
	o := &checkOptions{}
	fs.StringVar(&o.config, "config", "", "use `FILE` as the .wymcp-ls.yaml of every file")
	fs.BoolVar(&o.diff, "diff", false, "like --fix, but print a unified diff of the fixes instead of writing them")
	fs.BoolVar(&o.fix, "fix", false, "apply every preferred quick fix, then report what remains")
	fs.StringVar(&o.format, "format", "text", "output `FORMAT`: text, json, github or sarif")
	o.log.register(fs, "info")
	fs.BoolVar(&o.strict, "strict", false, "exit 1 on lints (warnings, hints) too")
	return fs, o
}

// checkUsage is printed by `wymcp-ls check --help`.
func checkUsage() string {
	fs, _ := checkFlags()
	return `usage: wymcp-ls check [flags] [PATH...]

Print every action-schema offence in the Elixir files under each PATH
(default .), recursively; flags may come before or after the paths.

flags:
` + flagDefaults(fs) + `
Each file takes its lint switches from the nearest .wymcp-ls.yaml at or above
its directory, looking no higher than the first directory holding mix.exs or .git.

Exit status: 0 clean, 1 offences (with --strict, any lint too), a fix that
could not be written, or with --diff a file it would change; 2 usage error or a
PATH that does not exist.
`
}

// runCheck implements `wymcp-ls check` (README.md, "Command line"): it
// returns 0 when nothing at severity error remains (nothing at all with
// --strict), 1 otherwise, when a fix could not be written or, with --diff,
// when a file would be changed, and 2 on a usage error (--fix with --diff
// among them) or a path that does not exist.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const cmd = "wymcp-ls check"
	fs, o := checkFlags()
	paths, code := parseFlags(fs, cmd, args, true, stdout, stderr, checkUsage)
	if code >= 0 {
		return code
	}
	if o.fix && o.diff {
		fmt.Fprintf(stderr, "%s: --fix and --diff cannot be combined: --fix writes the fixes, --diff prints them and writes nothing\n%s", cmd, helpHint(cmd))
		return 2
	}
	switch o.format {
	case "text", "json", "github", "sarif":
	default:
		fmt.Fprintf(stderr, "%s: unknown --format %q (want text, json, github or sarif)\n%s", cmd, o.format, helpHint(cmd))
		return 2
	}
	if o.config != "" {
		abs, err := filepath.Abs(o.config)
		if err == nil {
			var st os.FileInfo
			if st, err = os.Stat(abs); err == nil && st.IsDir() {
				err = fmt.Errorf("%s is a directory", o.config)
			} else if err == nil && !st.Mode().IsRegular() {
				// A named pipe or a device would block or never end.
				err = fmt.Errorf("%s is not a regular file", o.config)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: --config: %v\n", cmd, err)
			return 2
		}
		o.config = abs
	}
	log, done, err := o.log.logger(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n%s", cmd, err, helpHint(cmd))
		return 2
	}
	defer done()
	defer log.Sync() //nolint:errcheck // best effort on exit

	if len(paths) == 0 {
		paths = []string{"."}
	}
	ws := workspace.New(workspace.Options{Logger: log, ConfigFile: o.config})
	defer ws.Close()
	prog := newProgress(stderr)
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
			return 2
		}
		if err := ws.AddFolder(ctx, p, prog.files); err != nil {
			prog.done()
			fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
			return 2
		}
	}
	prog.analysing()
	reports := ws.All(ctx)
	prog.done()
	stats := ws.Stats()
	for _, t := range stats.Tools {
		log.Debug("tool module", zap.String("name", t.Name), zap.String("path", t.Path))
	}
	cwd, _ := os.Getwd()
	failed := 0
	if o.fix || o.diff {
		fixOut := stdout
		if o.format != "text" {
			fixOut = stderr // keep stdout one JSON or SARIF document
		}
		f := &fixer{ws: ws, cwd: cwd, out: fixOut, diff: o.diff, write: writeAtomic, log: log}
		if o.diff {
			f.diffOut = stdout
			if o.format != "text" {
				f.diffOut = stderr
			}
		}
		reports, failed = f.run(ctx, reports)
		stats = ws.Stats()
	}
	rows := collect(cwd, reports)
	switch o.format {
	case "json":
		writeJSON(stdout, findings(rows))
	case "github":
		writeGitHub(stdout, rows)
	case "sarif":
		if err := writeSARIF(stdout, cwd, rows); err != nil {
			fmt.Fprintf(stderr, "wymcp-ls: cannot write the output: %v\n", err) // as run says it for the other formats
			return 2
		}
	default:
		writeText(stdout, rows, stats)
	}
	if len(stats.Tools) == 0 {
		writeNoTools(stderr, strings.Join(paths, " "), stats.FilesRead)
	}
	for _, t := range stats.Tools {
		if len(t.Missing) == 0 {
			continue
		}
		if root := partOfProject(paths, t.Path); root != "" {
			fmt.Fprintf(stderr, "wymcp-ls: %s calls into %s, which no file read defines: the values from there are not checked; run 'wymcp-ls check %s' to check the whole project\n",
				t.Name, strings.Join(t.Missing, ", "), displayPath(cwd, root, ""))
		}
	}
	for _, r := range stats.Routers {
		root := workspace.ProjectRoot(filepath.Dir(r.Path))
		fmt.Fprintf(stderr, "wymcp-ls: %s mounts %s, which no file read defines: %s not checked; run 'wymcp-ls check %s' to check the whole project\n",
			r.Name, strings.Join(r.Missing, ", "), map[bool]string{true: "it is", false: "they are"}[len(r.Missing) == 1], displayPath(cwd, root, ""))
	}
	if failed > 0 {
		return 1
	}
	for _, r := range rows {
		if r.p.Severity == validate.Error || o.strict {
			return 1
		}
	}
	return 0
}

// partOfProject returns the Mix project (workspace.ProjectRoot: the
// nearest directory holding mix.exs, or its umbrella) of the tool file at
// path when none of paths is that project's
// root or a directory above it, or "" when one is or the file lies in no
// project. Such a check reads only part of the tool's project, so calls
// into its other modules are not evaluated (README.md "Command line").
// Each tool is told of its own project: with several PATHs, a tool of one
// project is not sent to another's root.
func partOfProject(paths []string, path string) string {
	if path == "" {
		return ""
	}
	root := workspace.ProjectRoot(filepath.Dir(path))
	if root == "" {
		return ""
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			continue
		}
		if workspace.ReadsProject(abs, root) {
			return "" // the whole project was read
		}
	}
	return root
}

// row is one problem with its display path and 1-based positions
// (columns in characters), and the mapper and span it came from.
type row struct {
	path                       string
	line, col, endLine, endCol int
	p                          workspace.Problem
	r                          workspace.Report
}

// collect turns reports into rows in path, line, column order; paths are
// relative to cwd when they lie under it.
func collect(cwd string, reports []workspace.Report) []row {
	var out []row
	for _, r := range reports {
		path := displayPath(cwd, r.Path, r.URI)
		for _, p := range r.Problems {
			l, c := r.Mapper.LineCol(p.Span.Start)
			el, ec := r.Mapper.LineCol(p.Span.End)
			out = append(out, row{path: path, line: l, col: c, endLine: el, endCol: ec, p: p, r: r})
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

// findings expands rows into JSON findings: one per problem, tool and
// action, each naming that one tool and action (the message too, as
// wymcp's ArgumentError names one action).
func findings(rows []row) []Finding {
	out := []Finding{}
	for _, r := range rows {
		p := r.p
		tools := p.ToolModules()
		if len(tools) == 0 {
			tools = []string{""}
		}
		for _, tool := range tools {
			base := Finding{
				Path: r.path, Line: r.line, Column: r.col, EndLine: r.endLine, EndColumn: r.endCol,
				Code: p.Code, Severity: p.Severity.String(), Fix: p.Fix,
				Tool: tool, Location: p.Location, Message: p.Message,
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
	}
	return out
}

// displayPath is the path as found, relative to the working directory when
// it lies under it (README.md, "Command line").
func displayPath(cwd, path, uri string) string {
	if path == "" {
		return uri
	}
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, path); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return path
}

// writeText prints `path:line:col: severity: message [code]` lines, one
// per problem (a shared value's actions named in one line), then a
// summary line saying what was found and what was read:
// "wymcp-ls: 3 offences in 2 files (41 files read, 6 tool modules)".
func writeText(w io.Writer, rows []row, st workspace.Stats) {
	counts := map[validate.Severity]int{}
	files := map[string]bool{}
	for _, r := range rows {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", r.path, r.line, r.col, r.p.Severity, r.p.Text(), r.p.Code)
		counts[r.p.Severity]++
		files[r.path] = true
	}
	read := fmt.Sprintf("(%s read, %s)", plural(st.FilesRead, "file"), plural(len(st.Tools), "tool module"))
	if len(rows) == 0 {
		fmt.Fprintf(w, "wymcp-ls: no offences %s\n", read)
		return
	}
	parts := []string{plural(counts[validate.Error], "offence")}
	if n := counts[validate.Warning]; n > 0 {
		parts = append(parts, plural(n, "warning"))
	}
	if n := counts[validate.Hint] + counts[validate.Information]; n > 0 {
		parts = append(parts, plural(n, "hint"))
	}
	fmt.Fprintf(w, "wymcp-ls: %s in %s %s\n", strings.Join(parts, ", "), plural(len(files), "file"), read)
}

// plural returns "1 file" or "n files" ("n fixes" for a word ending in
// x, s, ch or sh).
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if strings.HasSuffix(word, "x") || strings.HasSuffix(word, "s") || strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "sh") {
		return fmt.Sprintf("%d %ses", n, word)
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

// progress prints a one-line progress indicator on a terminal (README.md,
// "Command line": a progress line on a terminal, not when piped); on
// anything else it prints nothing.
type progress struct {
	w       io.Writer
	on      bool
	last    time.Time
	printed bool
}

func newProgress(stderr io.Writer) *progress {
	f, ok := stderr.(*os.File)
	return &progress{w: stderr, on: ok && isCharDevice(f)}
}

// isCharDevice reports whether f is a character device: a terminal or
// console, where the progress line is seen. Pipes and regular files are
// not, so piped or redirected output gets no progress line. /dev/null is a
// character device too; a progress line written there is lost, which does
// no harm. The standard library's file mode says this on every platform
// (Windows reports a console as a character device), so no terminal
// package is needed, and a fresh clone compiles one dependency fewer.
func isCharDevice(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
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
