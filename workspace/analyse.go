package workspace

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
)

// toolMarker is the cheap scan: a file whose text does not contain it
// declares no tool module (`use Wymcp.Tool` or `@behaviour Wymcp.Tool`).
var toolMarker = []byte("Wymcp.Tool")

// maxLazyRounds bounds the rounds of lazy parsing in one Diagnose.
const maxLazyRounds = 8

// definedNames returns the last segment of every name written after a
// `defmodule` in content, without parsing ("defmodule App.Tools.Schemas do"
// gives "Schemas"): enough to know which ruled-out files to parse when a
// module name is looked up. It may over-approximate, never miss.
func definedNames(content []byte) []string {
	var out []string
	for _, n := range writtenModuleNames(content) {
		out = append(out, lastSegment(n))
	}
	return out
}

// definedNamespaces returns the first segment of each module name written
// after defmodule in content (App of App.Tools.Echo), by the same cheap
// scan as definedNames; a nested defmodule adds its own first segment.
func definedNamespaces(content []byte) []string {
	var out []string
	for _, n := range writtenModuleNames(content) {
		if first, _, _ := strings.Cut(n, "."); first != "" {
			out = append(out, first)
		}
	}
	return out
}

// writtenModuleNames is the cheap scan of definedNames and
// definedNamespaces: every name as written after a `defmodule` in content
// (identifier bytes and dots), without parsing.
func writtenModuleNames(content []byte) []string {
	var out []string
	kw := []byte("defmodule")
	for i := 0; i < len(content); {
		j := bytes.Index(content[i:], kw)
		if j < 0 {
			break
		}
		k := i + j + len(kw)
		for k < len(content) && (content[k] == ' ' || content[k] == '\t' || content[k] == '(') {
			k++
		}
		start := k
		for k < len(content) && (isIdent(content[k]) || content[k] == '.') {
			k++
		}
		if k > start {
			out = append(out, string(content[start:k]))
		}
		i = k
	}
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// lastSegment returns the part of a module name after its last dot.
func lastSegment(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// index maps full module names to every parsed module of that name,
// sorted by URI. An index is built whole and never changed after.
type index map[string][]*elixir.Module

// lookup returns the module named name, preferring one written under the
// folder root (a disk path, "" for none): in a multi-root workspace each
// project resolves its own modules first; else the lowest URI. Of two
// modules of one name in one document, the later is the module (Elixir
// redefines it, as the tools of a document are its last modules).
func (ix index) lookup(name, root string) *elixir.Module {
	return ix.lookupExcept(name, root, "")
}

// lookupExcept is lookup ignoring the modules written in document skip
// (whose current parse a Snapshot overlays).
func (ix index) lookupExcept(name, root, skip string) *elixir.Module {
	var first *elixir.Module
	ms := ix[name]
	for i, m := range ms {
		if m.URI == skip {
			continue
		}
		if i+1 < len(ms) && ms[i+1].URI == m.URI {
			continue // a later defmodule of the document redefines it: that one is the module
		}
		if root == "" || underRoot(URIPath(m.URI), root) {
			return m
		}
		if first == nil {
			first = m
		}
	}
	return first
}

// ownRoot reports whether module m is written under the folder root
// (a disk path); with no root ("") every module is.
func ownRoot(m *elixir.Module, root string) bool {
	return root == "" || underRoot(URIPath(m.URI), root)
}

// resolver is the elixir.Resolver of one tool: the index seen from the
// tool's folder root.
type resolver struct {
	ix   index
	root string
}

// Module returns the module named name as seen from the root, or nil.
func (r resolver) Module(name string) *elixir.Module { return r.ix.lookup(name, r.root) }

// underRoot reports whether the disk path p lies inside the directory root.
func underRoot(p, root string) bool {
	return p != "" && root != "" && (p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator)))
}

// rootOfLocked returns the longest folder root holding uri's disk path,
// or "" (an untitled buffer, a file outside every root). w.mu must be held.
func (w *Workspace) rootOfLocked(uri string) string {
	return w.rootOfPathLocked(URIPath(uri))
}

// rootOfPathLocked is rootOfLocked for a disk path. w.mu must be held.
func (w *Workspace) rootOfPathLocked(p string) string {
	best := ""
	for r := range w.roots {
		if underRoot(p, r) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// parseJob is one file content to parse, taken under the lock.
type parseJob struct {
	f       *file
	gen     int
	uri     string
	content []byte
	version int32 // the overlay version content was read at
	skip    bool  // unreadable or too big: nothing to parse
	done    bool  // result already parsed (by a Snapshot)
	result  *elixir.File
}

// Diagnose analyses every tool affected by changes since the previous call
// and returns one Report per document whose problem list may have changed,
// including documents whose problems have all gone (empty Problems), and
// every open document that changed (so its publish carries the analysed
// version). The first call analyses everything. Calls are serialised.
// The reports are sorted by URI, those of documents no longer known first.
func (w *Workspace) Diagnose(ctx context.Context) []Report {
	w.diagMu.Lock()
	defer w.diagMu.Unlock()

	// 1. Take the changed files.
	w.mu.Lock()
	var jobs []*parseJob
	changed := map[string]bool{}
	lazyDefines := map[string]bool{} // last segments defined by changed, unparsed files
	for uri := range w.dirty {
		changed[uri] = true
		f := w.files[uri]
		if f == nil {
			continue
		}
		content := f.content()
		if f.parsed != nil && f.pgen == f.gen {
			// Already parsed at this content by a Snapshot.
			jobs = append(jobs, &parseJob{f: f, gen: f.gen, uri: uri, content: content, version: f.version, result: f.parsed, done: true})
			continue
		}
		if !f.open && !f.wanted && !mayMatter(content, w.wrapNames) {
			// The cheap scan rules the file out: no tool can be declared in
			// it. It is parsed later only if a tool looks up a module it
			// defines (lazy rounds below).
			f.parsed, f.pgen, f.mapper = nil, f.gen, nil
			f.defines = definedNames(content)
			for _, d := range f.defines {
				lazyDefines[d] = true
			}
			continue
		}
		tooBig := len(content) > w.opts.MaxFileSize
		if tooBig && f.open {
			w.log.Info("skipping large buffer", zap.String("uri", uri), zap.Int("bytes", len(content)), zap.Int("limit", w.opts.MaxFileSize))
		}
		jobs = append(jobs, &parseJob{f: f, gen: f.gen, uri: uri, content: content, version: f.version, skip: f.readErr != nil || f.tooBig || tooBig})
	}
	for uri := range w.gone {
		changed[uri] = true
	}
	bumped := len(w.dirty) > 0 || len(w.gone) > 0 || w.lintGen != w.lintSeen
	if bumped {
		w.era++ // another document (or a setting) changed: snapshots may differ
	}
	w.dirty, w.gone = map[string]bool{}, map[string]bool{}
	lintChanged := w.lintGen != w.lintSeen
	w.lintSeen = w.lintGen
	w.mu.Unlock()

	// 2. Parse them on all cores, one parser per goroutine.
	w.parseAll(ctx, jobs)

	// 3. Install the parses, rebuild the module index, find affected tools.
	w.mu.Lock()
	versions := map[string]int32{}
	for _, j := range jobs {
		f := w.files[j.uri]
		if f != j.f {
			continue // removed or re-keyed meanwhile
		}
		if f.gen != j.gen {
			w.dirty[j.uri] = true // changed again while parsing: next round
		}
		if !j.done {
			f.parsed, f.pgen = j.result, j.gen
			f.mapper = positions.NewMapper(j.content)
		}
		if f.open {
			// The version parsed, not f.version: a didChange while parsing
			// has a newer version, and labelling these problems with it
			// would publish the old text's problems as the new text's
			// (the server drops a report of an older version as stale).
			versions[j.uri] = j.version
		}
	}
	ix, owners := w.buildIndex()
	// 3a. Tools behind wrappers: a module that became a wrapper makes the
	// ruled-out files that `use` it worth parsing (bounded: each round
	// parses new files only).
	ws := wrapperSet(ix)
	wrappersChanged := !sameKeys(ws, w.wrappers)
	for round := 0; wrappersChanged && round < elixir.MaxWrapperDepth && ctx.Err() == nil; round++ {
		names := wrapperNames(ws)
		more := w.unparsedLocked(func(f *file) bool { return mayMatter(f.content(), names) })
		if len(more) == 0 {
			break
		}
		w.parseInstallLocked(ctx, more)
		ix, owners = w.buildIndex()
		ws = wrapperSet(ix)
	}
	w.index = ix
	moved := movedNames(owners, w.owners)
	all := w.first || wrappersChanged
	w.owners = owners
	w.wrappers, w.wrapNames = ws, wrapperNames(ws)

	type evalJob struct {
		key    string
		module *elixir.Module
		root   string
		res    *elixir.Result
		offs   []validate.Offence
		lints  []validate.Offence
	}
	var evals []*evalJob
	var gone []string // tools whose module is no longer there (removed in step 5)
	removedTools := false
	oldProblems := map[string]bool{} // URIs that held problems of re-analysed or removed tools
	present := map[string]*elixir.Module{}
	for _, f := range w.files {
		if f.parsed == nil {
			continue
		}
		for _, m := range f.parsed.Modules {
			if isTool(m, ws) {
				present[toolKey(f.uri, m.Name)] = m
			}
		}
	}
	for key, t := range w.tools {
		m, ok := present[key]
		affected := !ok || lintChanged || all
		for dep := range t.deps {
			if changed[dep] {
				affected = true
				break
			}
		}
		for name := range t.names {
			if moved[name] {
				affected = true
				break
			}
		}
		for d := range t.missing {
			if lazyDefines[d] {
				affected = true // a file that may define what it missed appeared
				break
			}
		}
		if !affected {
			continue
		}
		for uri := range t.problems {
			oldProblems[uri] = true
		}
		// The old entry stays until step 5 replaces or removes it: the
		// lock is released while evaluating, and a Snapshot taken meanwhile
		// must see the tools of the last analysis, not none.
		removedTools = true
		if ok {
			evals = append(evals, &evalJob{key: key, module: m})
		} else {
			gone = append(gone, key)
		}
	}
	queued := map[string]bool{}
	for _, e := range evals {
		queued[e.key] = true
	}
	for key, m := range present {
		if _, ok := w.tools[key]; ok || queued[key] {
			continue
		}
		evals = append(evals, &evalJob{key: key, module: m})
	}
	for _, e := range evals {
		e.root = w.rootOfLocked(e.module.URI)
	}
	w.first = false
	w.mu.Unlock()

	// 4. Evaluate and validate outside the lock: module IR is immutable.
	analyse := func(ix index, e *evalJob) {
		defer func() {
			if r := recover(); r != nil {
				w.log.Error("analysis panicked", zap.String("tool", e.module.Name), zap.Any("panic", r), zap.Stack("stack"))
				e.res, e.offs, e.lints = nil, nil, nil
			}
		}()
		e.res = elixir.Evaluate(ctx, resolver{ix, e.root}, e.module)
		e.offs, e.lints = nil, nil
		if e.res != nil && e.res.Found && e.res.Actions != nil {
			e.offs = w.valid.Declaration(e.res.Actions)
			e.lints = w.valid.Lints(e.res.Actions)
		}
		if e.res != nil {
			// Switched off or not by the config of the file each is
			// reported in (toolProblems), not the tool's.
			e.lints = append(e.lints, toolLints(resolver{ix, e.root}, e.module, e.res, e.offs)...)
		}
	}
	run := func(ix index, evals []*evalJob) {
		if len(evals) == 1 || w.opts.Parallelism == 1 {
			// One tool to analyse (the usual didChange): on this goroutine.
			for _, e := range evals {
				analyse(ix, e)
			}
			return
		}
		var wg sync.WaitGroup
		sem := make(chan struct{}, w.opts.Parallelism)
		for _, e := range evals {
			wg.Add(1)
			sem <- struct{}{}
			go func(e *evalJob) {
				defer func() { <-sem; wg.Done() }()
				analyse(ix, e)
			}(e)
		}
		wg.Wait()
	}
	run(ix, evals)

	// 4b. Lazy rounds: parse the ruled-out files that define a module some
	// tool looked up without finding it, then evaluate those tools again.
	// Bounded: each round parses at least one new file, and a Schemas
	// module may read another module in turn.
	// A module found only in another folder root counts as not found for
	// the files of the tool's own root: one of them may define it (a
	// folder added after its twin, whose Schemas module is parsed already).
	for round := 0; round < maxLazyRounds && ctx.Err() == nil; round++ {
		unresolved := map[string]bool{}
		foreign := map[string][]string{} // last segment -> roots that found it only elsewhere
		var redo []*evalJob
		for _, e := range evals {
			missing := false
			if e.res != nil {
				for _, n := range e.res.Modules {
					switch m := ix.lookup(n, e.root); {
					case m == nil:
						unresolved[lastSegment(n)] = true
						missing = true
					case !ownRoot(m, e.root):
						foreign[lastSegment(n)] = append(foreign[lastSegment(n)], e.root)
						missing = true
					}
				}
			}
			if missing {
				redo = append(redo, e)
			}
		}
		if len(unresolved) == 0 && len(foreign) == 0 {
			break
		}
		w.mu.Lock()
		lazy := w.unparsedLocked(func(f *file) bool {
			if definesAny(f, unresolved) {
				return true
			}
			for _, d := range f.defines {
				for _, r := range foreign[d] {
					if underRoot(f.path, r) {
						return true
					}
				}
			}
			return false
		})
		w.mu.Unlock()
		if len(lazy) == 0 {
			break
		}
		w.parseAll(ctx, lazy)
		w.mu.Lock()
		w.installLocked(lazy)
		ix, w.owners = w.buildIndex()
		w.index = ix
		w.mu.Unlock()
		run(ix, redo)
	}

	// 5. Store the results and build the reports.
	w.mu.Lock()
	defer w.mu.Unlock()
	candidates := map[string]bool{}
	for uri := range changed {
		candidates[uri] = true
	}
	for uri := range oldProblems {
		candidates[uri] = true
	}
	for _, key := range gone {
		delete(w.tools, key)
	}
	if len(evals) > 0 || removedTools {
		w.toolsGen++
	}
	if bumped || len(evals) > 0 || removedTools {
		// A Snapshot taken while this analysis ran saw the old index and
		// tools under the new era: end that era so it is not reused.
		w.era++
	}
	for uri := range w.newConfigs {
		candidates[uri] = true
	}
	w.newConfigs = map[string]bool{}
	for _, e := range evals {
		m := e.module
		t := &tool{key: e.key, uri: m.URI, name: m.Name, module: m, res: e.res, deps: map[string]bool{m.URI: true}, names: map[string]bool{}, missing: map[string]bool{}}
		if e.res != nil {
			t.info = toolInfo(m, e.res)
			t.skip = shapeBad(e.offs)
			for _, d := range e.res.Deps {
				t.deps[d] = true
			}
			for _, n := range e.res.Modules {
				t.names[n] = true
				// Missing too when found only in another root: a file of
				// its own root defining it later is picked up.
				if m := w.index.lookup(n, e.root); m == nil || !ownRoot(m, e.root) {
					t.missing[lastSegment(n)] = true
				}
			}
			t.problems = w.toolProblems(m, e.res, append(e.offs, e.lints...))
		}
		for uri := range t.problems {
			candidates[uri] = true
		}
		w.tools[e.key] = t
		w.evals++
	}
	for uri := range w.global {
		candidates[uri] = true
	}
	// The workspace-wide checks, with lazy rounds of their own: a tools list
	// read through a module of a ruled-out file parses that file.
	for round := 0; ; round++ {
		global, miss := w.globalSafeLocked(ctx)
		w.global = global
		if len(miss) == 0 || round >= maxLazyRounds || ctx.Err() != nil {
			break
		}
		lazy := w.unparsedLocked(func(f *file) bool { return definesAny(f, miss) })
		if len(lazy) == 0 {
			break
		}
		w.parseInstallLocked(ctx, lazy)
		w.index, w.owners = w.buildIndex()
	}
	for uri := range w.global {
		candidates[uri] = true
	}
	var reports []Report
	for uri := range candidates {
		r := w.reportLocked(uri)
		fp := fingerprint(r.Problems)
		_, isOpen := versions[uri]
		f := w.files[uri]
		open := f != nil && f.open
		emit := fp != w.last[uri] || (changed[uri] && (open || isOpen || w.shown[uri]))
		if !emit {
			continue
		}
		if v, ok := versions[uri]; ok {
			r.Version, r.Overlay = v, true
		} else if open && f.pgen == f.gen {
			r.Version, r.Overlay = f.version, true
		}
		w.last[uri] = fp
		if len(r.Problems) > 0 || r.Overlay {
			w.shown[uri] = true
		} else {
			delete(w.shown, uri)
		}
		if fp == "" {
			delete(w.last, uri)
		}
		reports = append(reports, r)
	}
	// By URI, but the documents no longer known first: a buffer opened
	// under another URI of a file on disk (a client's "my%2Bproj" for
	// "my+proj") takes the file over, and a client that reads both URIs as
	// one resource (VS Code) keeps what comes last, which must not be the
	// old URI's empty report.
	sort.Slice(reports, func(i, j int) bool {
		gi, gj := w.files[reports[i].URI] == nil, w.files[reports[j].URI] == nil
		if gi != gj {
			return gi
		}
		return reports[i].URI < reports[j].URI
	})
	return reports
}

// All runs Diagnose and returns a Report for every known document that has
// at least one problem, sorted by URI: the whole-workspace view `check` prints.
func (w *Workspace) All(ctx context.Context) []Report {
	w.Diagnose(ctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []Report
	uris := slices.Sorted(maps.Keys(w.files))
	for uri := range w.configs {
		if _, ok := w.files[uri]; !ok {
			uris = append(uris, uri)
		}
	}
	for _, uri := range uris {
		if r := w.reportLocked(uri); len(r.Problems) > 0 {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}

// reportLocked gathers every current problem located in uri. w.mu must be held.
func (w *Workspace) reportLocked(uri string) Report {
	r := Report{URI: uri, Problems: []Problem{}}
	if ps, m, path, ok := w.configProblems(uri); ok {
		r.Path, r.Mapper = path, m
		r.Problems = append(r.Problems, ps...)
	}
	f := w.files[uri]
	var fileSyntax []Problem
	if f != nil && r.Mapper == nil { // a config's problems come with their own
		r.Path = f.path
		r.Mapper = f.mapper
		if f.readErr != nil {
			r.Problems = append(r.Problems, Problem{
				Code:     CodeSyntaxError,
				Severity: w.opts.SyntaxSeverity,
				Message:  fmt.Sprintf("cannot read file: %v", f.readErr),
			})
		}
		fileSyntax = w.toolFileSyntax(f)
	}
	if r.Mapper == nil {
		r.Mapper = positions.NewMapper(nil)
	}
	seen := map[positions.Span]bool{}
	for _, t := range w.tools {
		for _, p := range t.problems[uri] {
			if p.Code == CodeSyntaxError {
				seen[p.Span] = true
			}
		}
	}
	for _, p := range fileSyntax {
		if !seen[p.Span] {
			r.Problems = append(r.Problems, p)
		}
	}
	for _, p := range w.global[uri] {
		p.Related = append([]Related(nil), p.Related...)
		for i := range p.Related {
			p.Related[i].Mapper = w.mapperOfLocked(p.Related[i].URI)
		}
		r.Problems = append(r.Problems, p)
	}
	// Two tools reading one Schemas module see the same offence: show it
	// once, naming both tools, with both in the related information.
	merged := map[string]int{}
	for _, key := range slices.Sorted(maps.Keys(w.tools)) {
		t := w.tools[key]
		for _, p := range t.problems[uri] {
			k := fmt.Sprintf("%d|%d|%s|%s", p.Span.Start, p.Span.End, p.Code, p.Text())
			if i, ok := merged[k]; ok {
				q := &r.Problems[i]
				if !strings.Contains(", "+q.Tool+", ", ", "+p.Tool+", ") {
					q.Tool += ", " + p.Tool
				}
				for _, rel := range p.Related {
					dup := false
					for _, have := range q.Related {
						if have.URI == rel.URI && have.Span == rel.Span {
							dup = true
						}
					}
					if !dup {
						rel.Mapper = w.mapperOfLocked(rel.URI)
						q.Related = append(q.Related, rel)
					}
				}
				continue
			}
			merged[k] = len(r.Problems)
			p.Related = append([]Related(nil), p.Related...)
			for i := range p.Related {
				p.Related[i].Mapper = w.mapperOfLocked(p.Related[i].URI)
			}
			r.Problems = append(r.Problems, p)
		}
	}
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Message < b.Message
	})
	return r
}

// toolFileSyntax returns the syntax errors of a file that declares (or
// tries to declare) a tool and that no evaluation reported: errors inside a
// tool module, and errors outside every module (a tool declaration that
// a stray bracket or `end` cut short). Without them
// such a file would pass `check` clean (docs/rules.md §4 "syntax-error": a syntax error inside a
// tool declaration is reported). Each span is cut to its first line, so a
// file-wide error is never shown over the whole file.
func (w *Workspace) toolFileSyntax(f *file) []Problem {
	if f.parsed == nil || len(f.parsed.Errors) == 0 {
		return nil
	}
	content := f.content()
	if f.mapper != nil {
		content = f.mapper.Content()
	}
	if !bytes.Contains(content, toolMarker) {
		return nil
	}
	var out []Problem
	for _, e := range f.parsed.Errors {
		inTool, inModule := false, false
		for _, m := range f.parsed.Modules {
			if m.Span.Start <= e.Span.Start && e.Span.End <= m.Span.End {
				inModule = true
				inTool = inTool || m.Tool
			}
		}
		if inModule && !inTool {
			continue
		}
		sp := e.Span
		if sp.Start >= 0 && sp.Start < len(content) && sp.End <= len(content) {
			if i := bytes.IndexByte(content[sp.Start:sp.End], '\n'); i > 0 {
				sp.End = sp.Start + i
			}
		}
		msg := e.Message
		if !inModule {
			msg += " (the tool module does not parse: look for an unterminated string, heredoc, sigil or bracket)"
		}
		out = append(out, Problem{Span: sp, Code: CodeSyntaxError, Severity: w.opts.SyntaxSeverity, Message: msg, Offence: msg})
	}
	return out
}

// unparsedLocked returns a parse job for every file the cheap scan ruled
// out (not parsed, readable, within the size limit) for which want is
// true, and marks each as wanted. w.mu must be held.
func (w *Workspace) unparsedLocked(want func(*file) bool) []*parseJob {
	var jobs []*parseJob
	for uri, f := range w.files {
		if f.parsed != nil || f.readErr != nil || f.tooBig || !want(f) {
			continue
		}
		f.wanted = true
		c := f.content()
		jobs = append(jobs, &parseJob{f: f, gen: f.gen, uri: uri, content: c, skip: len(c) > w.opts.MaxFileSize})
	}
	return jobs
}

// definesAny reports whether the cheap scan saw f define one of names
// (last segments of module names).
func definesAny(f *file, names map[string]bool) bool {
	for _, d := range f.defines {
		if names[d] {
			return true
		}
	}
	return false
}

// parseInstallLocked parses jobs outside the lock and installs them
// (installLocked). w.mu must be held; it is released while parsing.
func (w *Workspace) parseInstallLocked(ctx context.Context, jobs []*parseJob) {
	w.mu.Unlock()
	w.parseAll(ctx, jobs)
	w.mu.Lock()
	w.installLocked(jobs)
}

// installLocked stores the parses of jobs whose file has not changed
// since it was read. w.mu must be held.
func (w *Workspace) installLocked(jobs []*parseJob) {
	for _, j := range jobs {
		if f := w.files[j.uri]; f == j.f && f.gen == j.gen {
			f.parsed, f.pgen, f.mapper = j.result, j.gen, positions.NewMapper(j.content)
		}
	}
}

// mapperOfLocked returns the mapper of the analysed content of uri, or an
// empty one. w.mu must be held.
func (w *Workspace) mapperOfLocked(uri string) *positions.Mapper {
	if f := w.files[uri]; f != nil && f.mapper != nil {
		return f.mapper
	}
	return positions.NewMapper(nil)
}

// fingerprint identifies a problem list, to skip publishing an unchanged one.
func fingerprint(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%d:%d:%s:%d:%s:%s|", p.Span.Start, p.Span.End, p.Code, p.Severity, p.Text(), p.Tool)
		for _, r := range p.Related {
			fmt.Fprintf(&b, "%s:%d:%d;", r.URI, r.Span.Start, r.Span.End)
		}
	}
	return b.String()
}

// sameKeys reports whether a and b hold the same keys.
func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// toolKey names one tool module of one document.
func toolKey(uri, name string) string { return uri + "\x00" + name }

// parseAll parses jobs on Parallelism goroutines, each with its own pooled
// Parser (docs/architecture.md "The Elixir reader": a Parser keeps buffers
// between files, so one per goroutine).
func (w *Workspace) parseAll(ctx context.Context, jobs []*parseJob) {
	if len(jobs) == 0 {
		return
	}
	pending := 0
	for _, j := range jobs {
		if !j.done {
			pending++
		}
	}
	n := min(w.opts.Parallelism, pending)
	if n <= 1 {
		// One file to parse (the usual didChange) or one core: on this
		// goroutine, without a goroutine and a channel hop per analysis
		// (and without growing a new goroutine's stack for the parser).
		if pending > 0 {
			p := w.parser()
			defer w.release(p)
			for _, j := range jobs {
				if !j.done {
					j.result = w.parseOne(ctx, p, j)
				}
			}
		}
		return
	}
	next := make(chan *parseJob)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := w.parser()
			defer w.release(p)
			for j := range next {
				j.result = w.parseOne(ctx, p, j)
			}
		}()
	}
	for _, j := range jobs {
		if !j.done {
			next <- j
		}
	}
	close(next)
	wg.Wait()
}

// parseOne parses one job, never letting a reader panic escape.
func (w *Workspace) parseOne(ctx context.Context, p *elixir.Parser, j *parseJob) (f *elixir.File) {
	empty := &elixir.File{URI: j.uri}
	if j.skip {
		return empty
	}
	defer func() {
		if r := recover(); r != nil {
			w.log.Error("parse panicked", zap.String("uri", j.uri), zap.Any("panic", r), zap.Stack("stack"))
			f = empty
		}
	}()
	w.parses.Add(1)
	if w.parseHook != nil {
		w.parseHook(j.uri)
	}
	return p.Parse(ctx, j.uri, j.content)
}

func (w *Workspace) parser() *elixir.Parser {
	select {
	case p := <-w.parsers:
		return p
	default:
		return elixir.NewParser()
	}
}

func (w *Workspace) release(p *elixir.Parser) {
	if w.closed.Load() {
		p.Close()
		return
	}
	select {
	case w.parsers <- p:
	default:
		p.Close()
	}
}

// buildIndex maps every module name to the modules of that name, and
// each name to the URIs defining it (to detect moves). w.mu must be held.
func (w *Workspace) buildIndex() (index, map[string]string) {
	ix := index{}
	for _, f := range w.files {
		if f.parsed == nil {
			continue
		}
		for _, m := range f.parsed.Modules {
			ix[m.Name] = append(ix[m.Name], m)
		}
	}
	owners := make(map[string]string, len(ix))
	for name, ms := range ix {
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].URI < ms[j].URI })
		var uris []string
		for _, m := range ms {
			uris = append(uris, m.URI)
		}
		owners[name] = strings.Join(uris, "\n")
	}
	return ix, owners
}

// movedNames returns the module names defined in a different document (or
// only in one) of the two owner maps: a tool that looked one of them up
// must be evaluated again, since the name now resolves differently.
func movedNames(now, before map[string]string) map[string]bool {
	out := map[string]bool{}
	for k, v := range now {
		if before[k] != v {
			out[k] = true
		}
	}
	for k := range before {
		if _, ok := now[k]; !ok {
			out[k] = true
		}
	}
	return out
}

// toolProblems turns one tool's offences into problems grouped by document,
// leaving out the lints that the config of their document switches off.
// w.mu must be held. Offences with the same code, pointer and message (a shared value such as
// a module attribute used by several actions) become one problem naming
// every affected action (docs/rules.md §4 "Ranges": shown once, where it is written).
func (w *Workspace) toolProblems(m *elixir.Module, res *elixir.Result, offs []validate.Offence) map[string][]Problem {
	out := map[string][]Problem{}
	type group struct {
		p    *Problem
		uri  string
		seen map[string]bool
	}
	var groups []*group
	byKey := map[string]*group{}
	disabled := map[string]map[string]bool{} // by document, as needed
	for _, o := range offs {
		loc, ok := positions.LocOf(o.Pointer)
		if !ok {
			loc = positions.Loc{URI: m.URI, Span: m.NameSpan}
		}
		if strings.HasPrefix(o.Code, "lint/") {
			// A lint follows the config of the file it is reported in
			// (README.md "How the config is found"), whichever tool reads it.
			d, ok := disabled[loc.URI]
			if !ok {
				d = w.disabledLocked(loc.URI)
				disabled[loc.URI] = d
			}
			if d[o.Code] {
				continue
			}
		}
		key := fmt.Sprintf("%s|%s|%d|%d|%s|%s", o.Code, loc.URI, loc.Span.Start, loc.Span.End, o.Message, o.Fix)
		g := byKey[key]
		if g == nil {
			sev := o.Severity
			if sev == 0 {
				sev = validate.Error
			}
			p := &Problem{Span: loc.Span, Code: o.Code, Severity: sev, Message: o.Message, Offence: o.Message, Fix: o.Fix, Tool: m.Name, Location: o.Location}
			if loc.URI != m.URI {
				p.Related = append(p.Related, Related{URI: m.URI, Span: m.NameSpan, Message: "read by tool " + m.Name})
			}
			if rl, ok := positions.LocOf(o.Related); ok {
				msg := o.RelatedMessage
				if msg == "" {
					msg = "first occurrence"
				}
				p.Related = append(p.Related, Related{URI: rl.URI, Span: rl.Span, Message: msg})
			}
			g = &group{p: p, uri: loc.URI, seen: map[string]bool{}}
			byKey[key] = g
			groups = append(groups, g)
		}
		if o.Action != "" && !g.seen[o.Action] {
			g.seen[o.Action] = true
			g.p.Actions = append(g.p.Actions, o.Action)
		}
	}
	for _, g := range groups {
		p := *g.p
		sort.Strings(p.Actions)
		p.Message = Prefix(p.Actions, p.Location) + p.Message
		out[g.uri] = append(out[g.uri], p)
	}
	for _, e := range res.Errors {
		uri := e.URI
		if uri == "" {
			uri = m.URI
		}
		p := Problem{Span: e.Span, Code: CodeSyntaxError, Severity: w.opts.SyntaxSeverity, Message: e.Message, Offence: e.Message, Tool: m.Name}
		if uri != m.URI {
			p.Related = append(p.Related, Related{URI: m.URI, Span: m.NameSpan, Message: "read by tool " + m.Name})
		}
		out[uri] = append(out[uri], p)
	}
	return out
}

// Prefix returns the head of a problem message naming actions (as written,
// ":create") and location ("" for the schema itself), as in wymcp's
// ArgumentError lines (docs/rules.md §6): "action :create :properties[\"o\"]: ",
// or "" when both are empty.
func Prefix(actions []string, location string) string {
	var b strings.Builder
	switch len(actions) {
	case 0:
	case 1:
		b.WriteString("action " + actions[0])
	default:
		b.WriteString("actions " + strings.Join(actions, ", "))
	}
	if location != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(location)
	}
	if b.Len() == 0 {
		return ""
	}
	return b.String() + ": "
}
