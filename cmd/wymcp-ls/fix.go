package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/authoring"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

// maxFixRounds bounds `check --fix`: a fix may uncover another (a
// misspelt key renamed, then the key still missing added), so fixes are
// computed again on the fixed text until nothing more applies, at most
// this many times (README.md, "Command line").
const maxFixRounds = 10

// fixer applies `check --fix` (or prints `--diff`) over a checked
// workspace. The edits are authoring.FixAll's, the very function behind
// the editor's fix-all code action.
type fixer struct {
	ws  *workspace.Workspace
	cwd string
	// out receives one line per fix applied, and one per file not fixed.
	out io.Writer
	// diff, when true, prints a unified diff to diffOut instead of writing.
	diff    bool
	diffOut io.Writer
	// write replaces the file at path, whose content was orig when read,
	// with data; writeAtomic outside tests.
	write func(path string, orig, data []byte) error
	log   *zap.Logger
}

// fixDoc is one file --fix works on.
type fixDoc struct {
	uri, path, disp string
	orig, cur       []byte
	lines           []string // one per fix applied, in order
}

// run applies the fixes round by round in the workspace's overlays, then
// writes (or diffs) every changed file. It returns the reports of what
// remains, as on disk after the writes (with --diff: as the fixed text
// would be), and the number of files whose fixes could not be written or,
// with --diff, would be changed (what is on disk is not what the report
// shows: README.md, "Fixing from the command line").
// A file with a syntax error is never edited, nor one changed on disk
// since it was read; both are reported to f.out.
func (f *fixer) run(ctx context.Context, reports []workspace.Report) ([]workspace.Report, int) {
	docs := map[string]*fixDoc{}
	refused := map[string]bool{}
	// real maps each file's path with symlinks resolved to the URI it is
	// fixed under: one file reached under two paths (lib/link.ex ->
	// ../other/real.ex, and other/real.ex) is fixed once, under the first.
	real := map[string]string{}
	var aliases []string // the URIs skipped so: re-read once the files are written
	consider := func(reports []workspace.Report) {
		for _, r := range reports {
			if r.Path == "" || filepath.Base(r.Path) == workspace.ConfigName || docs[r.URI] != nil || refused[r.URI] {
				continue
			}
			key := r.Path
			if p, err := filepath.EvalSymlinks(r.Path); err == nil {
				key = p
			}
			if u, ok := real[key]; ok && u != r.URI {
				f.log.Debug("same file as another path; fixed there", zap.String("path", r.Path), zap.String("as", u))
				refused[r.URI] = true
				aliases = append(aliases, r.URI)
				continue
			}
			real[key] = r.URI
			syntax, other := false, false
			for _, p := range r.Problems {
				if p.Code == workspace.CodeSyntaxError {
					syntax = true
				} else {
					other = true
				}
			}
			if syntax {
				refused[r.URI] = true
				if other {
					fmt.Fprintf(f.out, "%s: not fixed: it has a syntax error\n", displayPath(f.cwd, r.Path, r.URI))
				}
				continue
			}
			docs[r.URI] = &fixDoc{uri: r.URI, path: r.Path, disp: displayPath(f.cwd, r.Path, r.URI)}
		}
	}
	consider(reports)
	for round := 1; round <= maxFixRounds && ctx.Err() == nil; round++ {
		progressed := false
		for _, d := range sortedDocs(docs) {
			snap, err := f.ws.Snapshot(ctx, d.uri)
			if err != nil {
				continue
			}
			if d.orig == nil {
				d.orig, d.cur = snap.Content, snap.Content
			}
			fixes, edits := authoring.FixAll(ctx, snap)
			next := authoring.Apply(snap.Content, d.uri, edits)
			if len(edits) == 0 || bytes.Equal(next, snap.Content) {
				continue
			}
			for _, fx := range fixes {
				l, c := snap.Mapper.LineCol(fx.Span.Start)
				d.lines = append(d.lines, fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.disp, l, c, f.verb(), fx.Title, fx.Code))
			}
			d.cur = next
			f.ws.SetOverlay(d.uri, int32(round), d.cur)
			progressed = true
		}
		if !progressed {
			break
		}
		f.log.Debug("fix round done", zap.Int("round", round))
		consider(f.ws.All(ctx)) // a fix may uncover an offence elsewhere
	}
	failed := 0
	for _, d := range sortedDocs(docs) {
		if d.orig == nil || bytes.Equal(d.orig, d.cur) {
			continue
		}
		if snap, err := f.ws.Snapshot(ctx, d.uri); err == nil && snap.File != nil && len(snap.File.Errors) > 0 {
			// Never expected: FixAll's edits keep the syntax. Refuse anyway.
			fmt.Fprintf(f.out, "%s: not fixed: the fixes would leave a syntax error\n", d.disp)
			f.ws.RemoveOverlay(d.uri)
			failed++
			continue
		}
		if f.diff {
			f.printLines(d)
			f.printDiff(d)
			failed++
			continue // the overlay stays: the report shows what would remain
		}
		if err := f.write(d.path, d.orig, d.cur); err != nil {
			fmt.Fprintf(f.out, "%s: not fixed: %v (%s not applied)\n", d.disp, err, plural(len(d.lines), "fix"))
			failed++
		} else {
			f.printLines(d)
		}
		f.ws.RemoveOverlay(d.uri) // back to disk: the written text, or the untouched one
	}
	if !f.diff {
		for _, u := range aliases {
			f.ws.DiskChanged(u) // the same file, written under its other path
		}
	}
	left := f.ws.All(ctx)
	f.printHeld(ctx, left)
	return left, failed
}

// printHeld prints one line per offence left that has quick fixes but no
// preferred one, which --fix therefore leaves (README.md "Fixing from the
// command line"), at its place in the text as it now is: the first fix
// the editor offers and why a check held it back (`lib/t.ex:5:97: left
// for the editor: Write "limit" [wrong-type] (the fixed value raises:
// ...)`), or, when no check held any, every fix offered, alternatives to
// choose from (`Declare "id" in :properties or remove "id" from
// :required`).
func (f *fixer) printHeld(ctx context.Context, reports []workspace.Report) {
	for _, r := range reports {
		if len(r.Problems) == 0 || r.Path == "" {
			continue
		}
		snap, err := f.ws.Snapshot(ctx, r.URI)
		if err != nil || snap.File == nil || len(snap.File.Errors) > 0 {
			continue // --fix edits no file with a syntax error: it says so
		}
		type diag struct {
			code string
			span positions.Span
		}
		var order []diag
		seen, preferred, titles, held := map[diag]bool{}, map[diag]bool{}, map[diag][]string{}, map[diag]string{}
		for _, fx := range authoring.CodeActions(ctx, snap, positions.Span{Start: 0, End: len(snap.Content)}) {
			d := diag{fx.Code, fx.Span}
			if !seen[d] {
				seen[d] = true
				order = append(order, d)
			}
			preferred[d] = preferred[d] || fx.Preferred
			if len(fx.Edits) > 0 && !slices.Contains(titles[d], fx.Title) {
				titles[d] = append(titles[d], fx.Title)
				if held[d] == "" {
					held[d] = fx.Held
				}
			}
		}
		slices.SortStableFunc(order, func(a, b diag) int { return cmp.Compare(a.span.Start, b.span.Start) })
		disp := displayPath(f.cwd, r.Path, r.URI)
		for _, d := range order {
			if ts := titles[d]; !preferred[d] && len(ts) > 0 {
				l, c := snap.Mapper.LineCol(d.span.Start)
				what, why := ts[0], ""
				switch {
				case held[d] != "": // the first fix, and why the check held it
					why = " (" + held[d] + ")"
				case len(ts) > 1: // alternatives, none better: all of them
					for _, t := range ts[1:] {
						what += " or " + strings.ToLower(t[:1]) + t[1:]
					}
					why = fmt.Sprintf(" (%d fixes, none preferred: the choice is yours)", len(ts))
				}
				fmt.Fprintf(f.out, "%s:%d:%d: left for the editor: %s [%s]%s\n", disp, l, c, what, d.code, why)
			}
		}
	}
}

// verb names what happens to a fix: applied, or only shown by --diff.
func (f *fixer) verb() string {
	if f.diff {
		return "would fix"
	}
	return "fixed"
}

func (f *fixer) printLines(d *fixDoc) {
	for _, l := range d.lines {
		fmt.Fprintln(f.out, l)
	}
}

// printDiff prints the unified diff (3 lines of context) of one file,
// with a/ and b/ prefixes as `git diff` does.
func (f *fixer) printDiff(d *fixDoc) {
	path := filepath.ToSlash(d.disp)
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: diffLines(d.orig), B: diffLines(d.cur),
		FromFile: "a/" + path, ToFile: "b/" + path, Context: 3,
	})
	if err != nil {
		fmt.Fprintf(f.out, "%s: cannot diff: %v\n", d.disp, err)
		return
	}
	fmt.Fprint(f.diffOut, text)
}

// diffLines splits text into lines that keep their "\n" (difflib's
// SplitLines would add an empty last line to text ending in a newline).
// A last line without a newline carries the marker line of the unified
// format, "\\ No newline at end of file", which difflib prints after it,
// so that patch and git apply write exactly what --fix writes; the marker
// also keeps "end" unequal to "end\n" when a fix adds or removes the
// file's last newline.
func diffLines(text []byte) []string {
	lines := strings.SplitAfter(string(text), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}

func sortedDocs(m map[string]*fixDoc) []*fixDoc {
	out := make([]*fixDoc, 0, len(m))
	for _, d := range m {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].disp < out[j].disp })
	return out
}

// Errors of writeAtomic that --fix reports as such.
var (
	errReadOnly = errors.New("the file is read-only")
	errChanged  = errors.New("the file changed on disk since it was read")
)

// writeData writes the new content into the temporary file; a test
// replaces it to force a failure in the middle of a write.
var writeData = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// writeAtomic replaces the file at path (a symlink is followed: its target
// is replaced) with data, atomically: a temporary file in the same
// directory, written, given the file's mode, synced, then renamed over it.
// It refuses, leaving the file as it is, when the file is read-only (no
// write bit, or it cannot be opened for writing) or when its content is no
// longer orig (changed on disk since it was read: checked before writing
// and again just before the rename). On any failure the temporary file is
// removed and the file is untouched. The owner is not kept: the file
// belongs to whoever runs --fix.
func writeAtomic(path string, orig, data []byte) (err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o222 == 0 {
		return errReadOnly
	}
	if fh, err := os.OpenFile(real, os.O_WRONLY, 0); err != nil {
		return fmt.Errorf("%w: %v", errReadOnly, err)
	} else {
		fh.Close()
	}
	same := func() error {
		cur, err := os.ReadFile(real)
		if err != nil {
			return err
		}
		if !bytes.Equal(cur, orig) {
			return errChanged
		}
		return nil
	}
	if err := same(); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".wymcp-ls-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = writeData(tmp, data); err != nil {
		return fmt.Errorf("write the temporary file: %w", err)
	}
	if err = tmp.Chmod(st.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = same(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), real)
}
