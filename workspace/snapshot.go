package workspace

import (
	"context"
	"fmt"
	"sort"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
)

// Snapshot is a consistent, immutable view of one document for an editor
// feature (completion, hover, code actions ...): its current content and
// parse, the module index as of that content, and every tool whose
// declaration reads the document, freshly evaluated. Spans in it are byte
// offsets into Content (or, for values from other documents, into
// MapperOf(uri).Content()).
type Snapshot struct {
	// URI is the document's exact URI string.
	URI string
	// Version is the overlay version the snapshot was taken at (0 on disk).
	Version int32
	// Content is the document's current text; Mapper converts into it.
	Content []byte
	Mapper  *positions.Mapper
	// File is the parse of Content.
	File *elixir.File
	// Modules resolves module names across the workspace, with this
	// document's modules as they are in Content.
	Modules elixir.Resolver
	// Tools are the tool modules whose declaration reads this document:
	// the ones it defines first (in source order), then the others by name.
	Tools []*ToolView
	// Validator is the rule chain (and its catalogue) the workspace uses.
	Validator *validate.Validator
	// Skipped reports a document over the size limit (2 MiB by default):
	// it is not parsed, and editor features answer nothing for it.
	Skipped bool
	// wrappers are the tool wrapper modules of the last analysis.
	wrappers map[string]bool
	// toolNames maps each tool name to its module, hintSites are the
	// workspace's hints, both as of the last analysis.
	toolNames map[string]string
	hintSites []HintSite
	// hintTools and hintAll are the tools hints were checked against at
	// the last analysis; disabled the lints switched off for URI.
	hintTools map[string]validate.HintTarget
	hintAll   bool
	disabled  map[string]bool

	mappers map[string]*positions.Mapper
	// others are the other documents for Documents; lazy the mappers of
	// those it parsed.
	others []other
	lazy   *lazyMappers
}

// ToolView is one tool module as a Snapshot sees it.
type ToolView struct {
	Module *elixir.Module
	// Result is the evaluation of its actions/0 (Result.Found false when it
	// has none).
	Result *elixir.Result
	// Offences are the rule chain's offences, then the lints that are
	// switched on.
	Offences []validate.Offence
}

// IsTool reports whether m is a tool module (README.md "What counts as a
// tool module"): `use Wymcp.Tool` or `@behaviour Wymcp.Tool` in its body,
// or `use W` for a workspace wrapper W.
func (s *Snapshot) IsTool(m *elixir.Module) bool {
	if s == nil {
		return m != nil && m.Tool
	}
	return isTool(m, s.wrappers)
}

// ToolNamed returns the tool module whose name/0 returns name, as of the
// last analysis, or nil.
func (s *Snapshot) ToolNamed(name string) *elixir.Module {
	if s == nil || s.Modules == nil {
		return nil
	}
	mod, ok := s.toolNames[name]
	if !ok {
		return nil
	}
	return s.Modules.Module(mod)
}

// HintSites returns every hint of the workspace with known tool: and
// action: strings: those of this document read from its current content,
// the others as of the last analysis.
func (s *Snapshot) HintSites(ctx context.Context) []HintSite {
	var out []HintSite
	for _, h := range s.hintSites {
		if h.ActionLoc.URI != s.URI {
			out = append(out, h)
		}
	}
	if s.File != nil {
		for _, m := range s.File.Modules {
			out = append(out, HintSites(ctx, s.Modules, m)...)
		}
	}
	return out
}

// HintOffences returns the offences of the hints written in this
// document (README.md "Tools, routers and hints": hint-not-string,
// lint/hint-unknown-tool, lint/hint-unknown-action, the payload lints),
// read from its current content and checked against the workspace's
// tools as of the last analysis, as the published diagnostics are. The
// lints switched off for the document are left out. Pointers lie in this
// document, or where a value read through an attribute or a call is
// written.
func (s *Snapshot) HintOffences(ctx context.Context) []validate.Offence {
	var out []validate.Offence
	s.checkHints(ctx, nil, func(offs []validate.Offence) bool {
		out = append(out, offs...)
		return true
	})
	return out
}

// HintFixHeld returns why the quick fix of o, a lint/hint-unknown-tool
// or lint/hint-unknown-action offence of HintOffences with a Suggestion,
// is not the obvious fix: the first offence that a hint whose tool: or
// action: value o points at raises once that value is the suggestion
// ("the fixed hint raises: the hint names action \"list\", which tool
// \"orders\" does not declare"), for a near tool name that does not
// declare the hint's action; "" when every such hint checks clean.
func (s *Snapshot) HintFixHeld(ctx context.Context, o validate.Offence) string {
	if o.Suggestion == "" || o.Code != validate.LintHintUnknownTool && o.Code != validate.LintHintUnknownAction {
		return ""
	}
	fixed := func(v *validate.Value) *validate.Value {
		if v == nil || v.Kind != validate.String || v.Unknown || v.Origin != o.Pointer {
			return nil // not the value the fix rewrites
		}
		c := *v
		c.Text = o.Suggestion
		return &c
	}
	why := ""
	s.checkHints(ctx, fixed, func(offs []validate.Offence) bool {
		if len(offs) > 0 {
			why = "the fixed hint raises: " + offs[0].Message
		}
		return why == ""
	})
	return why
}

// checkHints checks each hint of this document (HintOffences) and hands
// its offences, the switched-off lints left out, to each until it
// returns false. With rewrite, only the hints whose tool: or action:
// value rewrite replaces (a non-nil result) are checked, with that value
// in its place.
func (s *Snapshot) checkHints(ctx context.Context, rewrite func(*validate.Value) *validate.Value, each func([]validate.Offence) bool) {
	if s.File == nil || s.hintTools == nil {
		return
	}
	for _, m := range s.File.Modules {
		for _, h := range elixir.Hints(m) {
			if ctx.Err() != nil {
				return
			}
			tv := elixir.EvalIn(ctx, s.Modules, m, h.Tool)
			av := elixir.EvalIn(ctx, s.Modules, m, h.Action)
			if rewrite != nil {
				ft, fa := rewrite(tv), rewrite(av)
				if ft == nil && fa == nil {
					continue // not this hint
				}
				if ft != nil {
					tv = ft
				}
				if fa != nil {
					av = fa
				}
			}
			data := validate.ExampleData(elixir.EvalIn(ctx, s.Modules, m, h.Example))
			var offs []validate.Offence
			for _, o := range validate.CheckHint(tv, av, data, h.New, s.hintTools, s.hintAll) {
				if !s.disabled[o.Code] {
					offs = append(offs, o)
				}
			}
			if !each(offs) {
				return
			}
		}
	}
}

// MapperOf returns the mapper over the content of uri that the snapshot's
// spans refer to: the snapshot's own for its URI, the last analysed
// content for other documents (the content Documents parsed, for one the
// cheap scan left unparsed), or an empty mapper for an unknown URI.
func (s *Snapshot) MapperOf(uri string) *positions.Mapper {
	if uri == s.URI {
		return s.Mapper
	}
	if m, ok := s.mappers[uri]; ok {
		return m
	}
	if m := s.lazy.get(uri); m != nil {
		return m // a document Documents parsed
	}
	return positions.NewMapper(nil)
}

// overlayIndex resolves names through base as seen from root, with one
// document's modules replaced by those of its current parse.
type overlayIndex struct {
	base index
	file *elixir.File
	root string
}

// Module returns the module named name, preferring the overlaid file.
func (o overlayIndex) Module(name string) *elixir.Module {
	if m := o.file.Module(name); m != nil {
		return m
	}
	return o.base.lookupExcept(name, o.root, o.file.URI)
}

// Snapshot returns a fresh view of uri. It parses the current content if
// the last analysis has not (the result is kept for the next Diagnose) and
// evaluates the tools that read the document. It fails only when the
// workspace does not know uri.
func (w *Workspace) Snapshot(ctx context.Context, uri string) (*Snapshot, error) {
	w.mu.Lock()
	f := w.files[uri]
	if f == nil {
		w.mu.Unlock()
		return nil, fmt.Errorf("workspace: unknown document %s", uri)
	}
	if c := w.snaps[uri]; c != nil && c.gen == f.gen && c.era == w.era {
		w.mu.Unlock()
		return c.snap, nil // nothing it depends on changed since
	}
	era := w.era
	gen, content, version := f.gen, f.content(), f.version
	if !f.open {
		version = 0
	}
	parsed, mapper := f.parsed, f.mapper
	fresh := parsed != nil && f.pgen == gen
	w.mu.Unlock()

	skipped := len(content) > w.opts.MaxFileSize
	if !fresh {
		if skipped {
			parsed = &elixir.File{URI: uri}
		} else {
			p := w.parser()
			parsed = w.parseOne(ctx, p, &parseJob{uri: uri, content: content})
			w.release(p)
		}
		mapper = positions.NewMapper(content)
	}

	w.mu.Lock()
	if !fresh && f == w.files[uri] && f.gen == gen {
		f.parsed, f.pgen, f.mapper = parsed, gen, mapper
	}
	root := w.rootOfLocked(uri)
	ix := overlayIndex{base: w.index, file: parsed, root: root}
	// Lint switches per document, each from its nearest config (README.md,
	// "How the config is found"): this document's, where the lints shown
	// here are reported, and the other tools' for the rest.
	disabled := map[string]map[string]bool{uri: w.disabledLocked(uri)}
	var others []string
	for _, t := range w.tools {
		if t.uri != uri && t.deps[uri] {
			others = append(others, t.name)
			if _, ok := disabled[t.uri]; !ok {
				disabled[t.uri] = w.disabledLocked(t.uri)
			}
		}
	}
	wrappers, toolNames, hintSites := w.wrappers, w.toolNames, w.hintSites
	hintTools, hintAll := w.hintTools, w.hintAll
	mappers, docs := w.othersLocked(uri)
	w.mu.Unlock()

	s := &Snapshot{URI: uri, Version: version, Content: content, Mapper: mapper, File: parsed, Modules: ix, Validator: w.valid, Skipped: skipped, mappers: mappers, wrappers: wrappers, toolNames: toolNames, hintSites: hintSites,
		hintTools: hintTools, hintAll: hintAll, disabled: disabled[uri], others: docs, lazy: &lazyMappers{}}
	if skipped {
		return s, nil
	}
	var mods []*elixir.Module
	for _, m := range parsed.Modules {
		if isTool(m, wrappers) {
			mods = append(mods, m)
		}
	}
	sort.Strings(others)
	for _, name := range others {
		if m := ix.Module(name); m != nil && isTool(m, wrappers) && m.URI != uri {
			mods = append(mods, m)
		}
	}
	for _, m := range mods {
		tv := &ToolView{Module: m, Result: elixir.Evaluate(ctx, ix, m)}
		if tv.Result != nil && tv.Result.Found && tv.Result.Actions != nil {
			tv.Offences = w.valid.Declaration(tv.Result.Actions)
			for _, l := range w.valid.Lints(tv.Result.Actions) {
				at := m.URI // where the lint is reported: its config switches it
				if loc, ok := positions.LocOf(l.Pointer); ok {
					at = loc.URI
				}
				if !disabledFor(disabled, at, m.URI, uri)[l.Code] {
					tv.Offences = append(tv.Offences, l)
				}
			}
		}
		s.Tools = append(s.Tools, tv)
	}
	w.mu.Lock()
	if f == w.files[uri] && f.gen == gen && w.era == era {
		w.snaps[uri] = &cachedSnapshot{gen: gen, era: era, snap: s}
	}
	w.mu.Unlock()
	return s, nil
}

// cachedSnapshot is the last Snapshot of a document, valid while the
// document's content (gen) and everything else (era) are unchanged.
type cachedSnapshot struct {
	gen, era int
	snap     *Snapshot
}

// disabledFor returns the lint switches taken for a lint reported in the
// document uri by the tool module written in tool: uri's, else (a document
// not seen under the lock) the tool's, else those of the snapshot's
// document self (a tool module known to the index but not yet analysed).
func disabledFor(byURI map[string]map[string]bool, uri, tool, self string) map[string]bool {
	for _, u := range []string{uri, tool} {
		if d, ok := byURI[u]; ok {
			return d
		}
	}
	return byURI[self]
}
