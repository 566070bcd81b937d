package authoring

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Fix is one quick fix (LSP 3.17 CodeAction of kind "quickfix") for one
// diagnostic of the snapshot's document.
type Fix struct {
	// Title is the action's title as the editor lists it.
	Title string
	// Preferred marks the one obvious fix of its diagnostic (isPreferred).
	Preferred bool
	// Held says, for a fix that is not preferred, why, when one check
	// found it: "the fixed value raises: ..." (the first offence the edit
	// would add), "the value is also read where this offence is not", or
	// a misspelt key that may be the one meant; "" otherwise.
	Held string
	// Edits are the text edits, sorted by URI then offset, never
	// overlapping; they may touch other documents than the snapshot's
	// (a value written in another file is fixed where it is written).
	Edits []Edit

	// Code, Span, Severity and Message describe the diagnostic the fix
	// removes, as the workspace publishes it: Span is bytes into the
	// snapshot's Content, Message the full text (actions, location,
	// offence and "; fix: ..."; workspace.Problem.Text).
	Code     string
	Span     positions.Span
	Severity validate.Severity
	Message  string
}

// CodeActions returns the quick fixes for the offences (and lints) of the
// snapshot's fresh analysis whose range in snap.URI touches span (bytes,
// end inclusive: a cursor just after a key counts), in offence order. An
// offence gets a fix only where the reader evaluated a literal that the
// edit can change (docs/rules.md §4 Ranges: the pointer is the narrowest
// source the fix edits); values built by calls or read from opaque code
// get none. A value written once and read by several actions is fixed
// once, where it is written. It never fails: an odd span gives nil.
func CodeActions(ctx context.Context, snap *workspace.Snapshot, span positions.Span) []Fix {
	if snap == nil || snap.Skipped {
		return nil
	}
	if span.End < span.Start {
		span.Start, span.End = span.End, span.Start
	}
	type key struct {
		code, msg, fix, location string
		sp                       positions.Span
	}
	type group struct {
		f       *fixer
		actions []string
	}
	var groups []*group
	byKey := map[key]*group{}
	add := func(tv *workspace.ToolView, o validate.Offence) {
		loc, ok := locOf(o.Pointer)
		if !ok || loc.URI != snap.URI || loc.Span.Start > span.End || span.Start > loc.Span.End {
			return
		}
		k := key{o.Code, o.Message, o.Fix, o.Location, loc.Span}
		g := byKey[k]
		if g == nil {
			g = &group{f: &fixer{snap: snap, tv: tv, o: o, loc: loc}}
			byKey[k] = g
			groups = append(groups, g)
		}
		if o.Action != "" {
			g.actions = appendUnique(g.actions, o.Action)
		}
	}
	for _, tv := range snap.Tools {
		for _, o := range tv.Offences {
			add(tv, o)
		}
	}
	// The hints' offences belong to no tool's declaration (tv nil): only
	// the ones a fix can name are worth checking the hints again for.
	for _, o := range snap.HintOffences(ctx) {
		if o.Code == validate.LintHintUnknownTool || o.Code == validate.LintHintUnknownAction {
			add(nil, o)
		}
	}
	var out []Fix
	for _, g := range groups {
		if ctx.Err() != nil {
			return nil
		}
		o := g.f.o
		sort.Strings(g.actions)
		msg := workspace.Problem{Message: workspace.Prefix(g.actions, o.Location) + o.Message, Fix: o.Fix}.Text()
		sev := o.Severity
		if sev == 0 {
			sev = validate.Error
		}
		for _, fx := range g.f.fixes(ctx) {
			sortEdits(fx.Edits)
			if len(fx.Edits) == 0 || !disjoint(fx.Edits) || !g.f.inBounds(fx.Edits) {
				continue
			}
			fx.Code, fx.Span, fx.Severity, fx.Message = o.Code, g.f.loc.Span, sev, msg
			out = append(out, fx)
		}
	}
	// Preferred fixes of one place that disagree (a @tool attribute two
	// hints read, each nearest a tool of its own action) are alternatives:
	// neither is the obvious one, and check --fix applies neither.
	rival := make([]bool, len(out))
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[i].Preferred && out[j].Preferred && out[i].Code == out[j].Code && out[i].Span == out[j].Span && clash(out[i].Edits, out[j].Edits) {
				rival[i], rival[j] = true, true
			}
		}
	}
	for i := range out {
		if rival[i] {
			out[i].Preferred = false
		}
	}
	return out
}

// clash reports whether the edits a and b rewrite overlapping text
// differently (two insertions at one point do not clash).
func clash(a, b []Edit) bool {
	for _, x := range a {
		for _, y := range b {
			if x.URI == y.URI && x.Span.Start < y.Span.End && y.Span.Start < x.Span.End && x != y {
				return true
			}
		}
	}
	return false
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// fixer computes the fixes of one offence.
type fixer struct {
	snap *workspace.Snapshot
	tv   *workspace.ToolView
	o    validate.Offence
	loc  positions.Loc
	// held is why the fix being built is not preferred, set by the check
	// that found it (clean, readBeyond, misspelt) and taken by one.
	held string
}

func (f *fixer) fixes(ctx context.Context) []Fix {
	switch f.o.Code {
	case validate.CodeUnknownKey:
		return f.unknownKey()
	case validate.CodeMissingKey:
		return f.missingKey()
	case validate.CodeUndeclaredField:
		if rel, ok := locOf(f.o.Related); ok {
			// The name is declared as an atom key: the fix is that key's
			// property-name-not-string fix, `title:` -> `"title" =>`.
			g := *f
			g.loc = rel
			g.o.Pointer, g.o.Code = f.o.Related, validate.CodePropertyNameNotString
			return g.stringKey()
		}
		return f.undeclaredField()
	case validate.CodeDuplicateEntry:
		return f.removeEntry(fmt.Sprintf("Remove the second %s", f.pointerText()), true)
	case validate.CodeDuplicateGroup:
		return f.removeGroup("Remove the duplicate group %s")
	case validate.CodeSupersetGroup:
		return f.removeGroup("Remove the superset group %s")
	case validate.CodeEmptyGroup:
		return f.removeGroup("Remove the empty group %s")
	case validate.CodeDescriptionNewline:
		return f.joinLines()
	case validate.CodeWrongType:
		return f.toString()
	case validate.CodePropertyNameNotString, validate.CodeDefaultKeyNotString, validate.CodeAtomSchemaKeyword:
		return f.stringKey()
	case validate.CodeUndeclaredDefault:
		title := fmt.Sprintf("Remove %s from %s", f.pointerText(), orSchema(f.o.Location))
		if sug := f.o.Suggestion; sug != "" {
			// A misspelt key ("limt" beside "limit"): removing it would
			// lose the default meant for sug, so neither fix is preferred
			// and check --fix leaves the choice
			// (README.md "Quick fixes (code actions)").
			why := fmt.Sprintf("%s may be a misspelling of %s: removing it would lose its value", f.pointerText(), validate.InspectString(sug))
			out := f.suggestString()
			for i := range out {
				out[i].Preferred, out[i].Held = false, why
			}
			f.held = why
			return append(out, f.removePair(f.loc, title, false)...)
		}
		return f.removePair(f.loc, title, true)
	case validate.LintDuplicateKey:
		rel, ok := locOf(f.o.Related)
		if !ok || rel.URI != f.loc.URI {
			return nil
		}
		return f.removePair(rel, fmt.Sprintf("Remove the earlier %s", f.pointerText()), true)
	case validate.LintDefaultForRequired:
		// Never preferred: removing the name from :required is as good a
		// fix (the diagnostic's fix names both), so check --fix says so
		// (README.md "Fixing from the command line").
		f.held = fmt.Sprintf("removing %s from :required instead is as good a fix: the choice is yours", f.pointerText())
		return f.removePair(f.loc, fmt.Sprintf("Remove %s from :defaults", f.pointerText()), false)
	case validate.LintUnknownType, validate.LintUnknownKeyword, validate.LintRelatedUnknownAction:
		return f.suggestString()
	case validate.LintHintUnknownTool, validate.LintHintUnknownAction:
		fx := f.suggestString()
		if why := f.snap.HintFixHeld(ctx, f.o); why != "" && len(fx) == 1 {
			fx[0].Preferred, fx[0].Held = false, why // a near tool that lacks the hint's action
		}
		return fx
	}
	return nil
}

// inBounds reports whether every edit lies within its document's content.
func (f *fixer) inBounds(es []Edit) bool {
	for _, e := range es {
		n := len(f.content(e.URI))
		if e.Span.Start < 0 || e.Span.End < e.Span.Start || e.Span.End > n {
			return false
		}
	}
	return true
}

func (f *fixer) content(uri string) []byte {
	if uri == f.snap.URI {
		return f.snap.Content
	}
	return f.snap.MapperOf(uri).Content()
}

// pointerText is the pointer's source text, shortened for a title.
func (f *fixer) pointerText() string {
	c := f.content(f.loc.URI)
	if f.loc.Span.Start < 0 || f.loc.Span.End > len(c) || f.loc.Span.Start > f.loc.Span.End {
		return "it"
	}
	return titleText(string(c[f.loc.Span.Start:f.loc.Span.End]))
}

var spaceRun = regexp.MustCompile(`\s+`)

// titleText flattens s to one line of at most 40 characters for a title.
func titleText(s string) string {
	s = spaceRun.ReplaceAllString(strings.TrimSpace(s), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	return s
}

func orSchema(loc string) string {
	if loc == "" {
		return "the action schema"
	}
	return loc
}

func (f *fixer) one(title string, preferred bool, es ...Edit) []Fix {
	fx := Fix{Title: title, Preferred: preferred, Edits: es}
	if !preferred {
		fx.Held = f.held
	}
	f.held = ""
	return []Fix{fx}
}

// ---- value context ----

// valueStep is one value on the way from an action schema to the pointer.
type valueStep struct {
	v   *validate.Value
	via *validate.Value // the key of the entry holding v; nil for list elements and the schema
}

// valuePath returns the values from the offence's action schema down to
// the value (or map key) whose Origin is the pointer, or nil.
func (f *fixer) valuePath() []valueStep {
	acts := f.tv.Result
	if acts == nil || acts.Actions == nil || acts.Actions.Kind != validate.Map {
		return nil
	}
	budget := 1 << 16
	var path []valueStep
	var dfs func(v, via *validate.Value, depth int) bool
	dfs = func(v, via *validate.Value, depth int) bool {
		budget--
		if v == nil || budget < 0 || depth > 200 {
			return false
		}
		path = append(path, valueStep{v: v, via: via})
		if v.Origin == f.o.Pointer {
			return true
		}
		switch v.Kind {
		case validate.Map:
			for _, e := range v.Entries {
				if e.Key != nil && e.Key.Origin == f.o.Pointer {
					path = append(path, valueStep{v: e.Key})
					return true
				}
				if dfs(e.Value, e.Key, depth+1) {
					return true
				}
			}
		case validate.List, validate.Tuple:
			for _, el := range v.Elems {
				if dfs(el, nil, depth+1) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	for _, e := range acts.Actions.Entries {
		if e.Key == nil || e.Value == nil || inspectActionName(e.Key) != f.o.Action {
			continue
		}
		path = path[:0]
		if dfs(e.Value, nil, 0) {
			return path
		}
	}
	return nil
}

// inspectActionName is the action name as written, Elixir-inspected, as
// validate.Offence.Action spells it.
func inspectActionName(k *validate.Value) string {
	if k.Kind == validate.Atom && !k.Unknown {
		return validate.InspectAtom(k.Text)
	}
	return validate.Inspect(k, 60)
}

// schemaKey returns the action-schema key (atom name) under which a
// value path runs ("required"), or "".
func schemaKey(path []valueStep) string {
	if len(path) < 2 {
		return ""
	}
	if k := path[1].via; k != nil && k.Kind == validate.Atom && !k.Unknown {
		return k.Text
	}
	return ""
}

// ---- the fixes ----

// unknownKey renames the key to its suggestion (docs/rules.md §4 unknown-key:
// the fix suggests the nearest known key), unless the schema has that key.
func (f *fixer) unknownKey() []Fix {
	sug := f.o.Suggestion
	if sug == "" {
		return nil
	}
	s, ok := locateExpr(f.snap, f.tv, f.loc, nil)
	if !ok || s.parent == nil || s.parent.Kind != elixir.ExprMap || s.pair < 0 || !s.key || f.updateKey(s) {
		return nil
	}
	for i, p := range s.parent.Pairs {
		if i != s.pair && p.Key.Kind == elixir.ExprAtom && !p.Key.Unknown && p.Key.Text == sug {
			return nil
		}
	}
	path := f.valuePath()
	if len(path) < 2 || path[len(path)-2].v.GetAtom(sug) != nil {
		return nil
	}
	p := s.parent.Pairs[s.pair]
	text := validate.InspectAtom(sug)
	if p.Keyword {
		text = strings.TrimSuffix(validate.KeywordKey(sug), ":")
	}
	title := fmt.Sprintf("Rename %s to %s", f.pointerText(), validate.InspectAtom(sug))
	if s.node.Kind == elixir.ExprString {
		title = fmt.Sprintf("Write %s as an atom key", validate.InspectAtom(sug))
	}
	key := path[len(path)-1].v
	preferred := f.clean(map[*validate.Value]*validate.Value{key: withKind(key, validate.Atom, sug)})
	return f.one(title, preferred, Edit{URI: s.uri, Span: s.node.Span, NewText: text})
}

// maxSimulate bounds the values a simulation copies; past it the fix is
// not checked and keeps the preference it was given.
const maxSimulate = 200_000

// clean reports whether the fix that turns each value of repl (by
// pointer) into its replacement leaves the tool with no offence or lint
// that it does not have now (compared by code, action, location and
// message). It copies the evaluated actions with the replacements (a
// shared value is replaced wherever it is read, as the edit changes it
// there) and runs the rule chain and the lints again. A fix that is not
// clean, such as `require: "x"` renamed to `required: "x"` (a wrong-type),
// or `:x` written "x" in a :required that already names "x" (a duplicate),
// is still offered, but not as the preferred fix.
func (f *fixer) clean(repl map[*validate.Value]*validate.Value) bool {
	acts := f.tv.Result.Actions
	if acts == nil {
		return true
	}
	budget := maxSimulate
	memo := map[*validate.Value]*validate.Value{}
	var cp func(v *validate.Value, depth int) *validate.Value
	cp = func(v *validate.Value, depth int) *validate.Value {
		if v == nil {
			return nil
		}
		if r, ok := repl[v]; ok {
			return r
		}
		if c, ok := memo[v]; ok {
			return c
		}
		budget--
		if depth > 200 || budget < 0 || (v.Kind != validate.Map && v.Kind != validate.List && v.Kind != validate.Tuple) {
			return v
		}
		memo[v] = v // a cycle (none expected) reads the original
		changed := false
		entries := make([]validate.Entry, len(v.Entries))
		for i, e := range v.Entries {
			entries[i] = validate.Entry{Key: cp(e.Key, depth+1), Value: cp(e.Value, depth+1)}
			changed = changed || entries[i] != e
		}
		elems := make([]*validate.Value, len(v.Elems))
		for i, el := range v.Elems {
			elems[i] = cp(el, depth+1)
			changed = changed || elems[i] != el
		}
		if !changed {
			return v // nothing below is replaced: keep the original
		}
		c := *v
		if v.Entries != nil {
			c.Entries = entries
		}
		if v.Elems != nil {
			c.Elems = elems
		}
		memo[v] = &c
		return &c
	}
	if acts.Kind != validate.Map {
		return true
	}
	// Only the actions whose schema changes are checked again; the others
	// keep their names (lints read them) with an opaque, unchecked schema.
	base := &validate.Value{Kind: validate.Map, Partial: acts.Partial, Entries: make([]validate.Entry, len(acts.Entries))}
	sim := &validate.Value{Kind: validate.Map, Partial: acts.Partial, Entries: make([]validate.Entry, len(acts.Entries))}
	for i, e := range acts.Entries {
		c := cp(e.Value, 1)
		if c == e.Value {
			skip := &validate.Value{Kind: validate.Opaque}
			base.Entries[i] = validate.Entry{Key: e.Key, Value: skip}
			sim.Entries[i] = validate.Entry{Key: e.Key, Value: skip}
			continue
		}
		base.Entries[i] = e
		sim.Entries[i] = validate.Entry{Key: e.Key, Value: c}
	}
	if budget < 0 {
		return true
	}
	key := func(o validate.Offence) string { return o.Code + "|" + o.Action + "|" + o.Location + "|" + o.Message }
	v := f.snap.Validator
	now := map[string]int{}
	for _, o := range append(v.Declaration(base), v.Lints(base)...) {
		now[key(o)]++
	}
	for _, o := range append(v.Declaration(sim), v.Lints(sim)...) {
		if now[key(o)]--; now[key(o)] < 0 {
			f.held = "the fixed value raises: " + o.Message
			return false
		}
	}
	return true
}

// removalClean reports whether removing the list element or map entry
// (by its key) written at loc is clean (see clean): every evaluated list
// or map holding it is replaced by a copy without it.
func (f *fixer) removalClean(loc positions.Loc) bool {
	acts := f.tv.Result.Actions
	repl := map[*validate.Value]*validate.Value{}
	seen := map[*validate.Value]bool{}
	at := func(o validate.Origin) bool { l, ok := locOf(o); return ok && l == loc }
	// (Removing the earlier of two equal keys, lint/duplicate-key, at
	// another place than the pointer, changes no value.)
	if loc == f.loc && f.readBeyond(loc) {
		return false
	}
	budget := maxSimulate
	var walk func(v *validate.Value, depth int)
	walk = func(v *validate.Value, depth int) {
		if v == nil || seen[v] || depth > 200 || budget <= 0 {
			return
		}
		seen[v] = true
		budget--
		switch v.Kind {
		case validate.Map:
			var kept []validate.Entry
			for _, e := range v.Entries {
				if e.Key != nil && at(e.Key.Origin) {
					continue
				}
				kept = append(kept, e)
				walk(e.Value, depth+1)
			}
			if len(kept) < len(v.Entries) {
				c := *v
				c.Entries = kept
				repl[v] = &c
			}
		case validate.List, validate.Tuple:
			var kept []*validate.Value
			for _, el := range v.Elems {
				if el != nil && at(el.Origin) {
					continue
				}
				kept = append(kept, el)
				walk(el, depth+1)
			}
			if len(kept) < len(v.Elems) {
				c := *v
				c.Elems = kept
				repl[v] = &c
			}
		}
	}
	walk(acts, 0)
	return len(repl) == 0 || f.clean(repl)
}

// readBeyond reports whether the value (or key) written at loc, the
// offence's pointer, is also read where this offence is not: by an action
// without it there, or, in the offence's own action, under another
// action-schema key (`@help` as both :description and :notes). A fix
// there (a shared `@defaults` losing a key another action declares, a
// `@rest` tail of another :required, :notes joined into one line) would
// change that place too, beyond the fix, so it is not preferred.
func (f *fixer) readBeyond(loc positions.Loc) bool {
	res := f.tv.Result
	if res == nil || res.Actions == nil || res.Actions.Kind != validate.Map {
		return false
	}
	at := func(o validate.Origin) bool { l, ok := locOf(o); return ok && l == loc }
	mine := map[string]bool{}
	for _, o := range f.tv.Offences {
		if o.Code == f.o.Code && at(o.Pointer) {
			mine[o.Action] = true
		}
	}
	top := schemaKey(f.valuePath())
	budget := maxSimulate
	var holds func(v *validate.Value, depth int) bool
	holds = func(v *validate.Value, depth int) bool {
		if v == nil || depth > 200 || budget <= 0 {
			return false
		}
		budget--
		if at(v.Origin) {
			return true
		}
		for _, e := range v.Entries {
			if (e.Key != nil && at(e.Key.Origin)) || holds(e.Value, depth+1) {
				return true
			}
		}
		for _, el := range v.Elems {
			if holds(el, depth+1) {
				return true
			}
		}
		return false
	}
	for _, a := range res.Actions.Entries {
		if a.Key == nil || a.Value == nil {
			continue
		}
		name := inspectActionName(a.Key)
		if !mine[name] {
			if holds(a.Value, 0) {
				f.held = "the value is also read by action " + name
				return true
			}
			continue
		}
		if name != f.o.Action || top == "" || a.Value.Kind != validate.Map {
			continue
		}
		for _, e := range a.Value.Entries {
			k := ""
			if e.Key != nil && e.Key.Kind == validate.Atom && !e.Key.Unknown {
				k = e.Key.Text
			}
			if k != top && ((e.Key != nil && at(e.Key.Origin)) || holds(e.Value, 1)) {
				f.held = "the value is also read as :" + k + " of action " + name
				if k == "" {
					f.held = "the value is also read elsewhere in action " + name
				}
				return true
			}
		}
	}
	return false
}

// additionClean reports whether adding the missing key name, with an
// empty value of its type, to the pointed schema is clean (see clean):
// with :properties present the :defaults are checked, and may turn out
// undeclared.
func (f *fixer) additionClean(name string) bool {
	acts := f.tv.Result.Actions
	if acts == nil || acts.Kind != validate.Map {
		return true
	}
	empty := &validate.Value{Kind: validate.String}
	if name == "properties" {
		empty = &validate.Value{Kind: validate.Map}
	}
	repl := map[*validate.Value]*validate.Value{}
	for _, e := range acts.Entries {
		if s := e.Value; s != nil && s.Kind == validate.Map && s.Open() == f.o.Pointer {
			c := *s
			c.Entries = append(append([]validate.Entry(nil), s.Entries...), validate.Entry{Key: &validate.Value{Kind: validate.Atom, Text: name}, Value: empty})
			repl[s] = &c
		}
	}
	return len(repl) == 0 || f.clean(repl)
}

// withKind returns a copy of v as a value of kind k named text.
func withKind(v *validate.Value, k validate.Kind, text string) *validate.Value {
	c := *v
	c.Kind, c.Text, c.Unknown = k, text, false
	return &c
}

// placeholder strips LSP snippet placeholders ($1, ${1:x}, $0) from a
// catalogue snippet.
var placeholder = regexp.MustCompile(`\$\{\d+(:[^}]*)?\}|\$\d+`)

// missingKey inserts the absent mandatory key with an empty value taken
// from the catalogue snippet (`description: ""`, `properties: %{}`) as the
// first entry of the schema's map literal. Keyword syntax unless the map
// has `=>` pairs, which keyword pairs may not precede.
func (f *fixer) missingKey() []Fix {
	kd, ok := f.snap.Validator.Catalogue().Key(f.o.Suggestion)
	if !ok {
		return nil
	}
	s, ok := locateOpen(f.snap, f.tv, f.loc)
	if !ok || s.node.Base != nil || len(s.node.Errs()) > 0 || s.node.Struct() != "" {
		return nil
	}
	entry := placeholder.ReplaceAllString(kd.Snippet, "")
	name, value, ok := strings.Cut(entry, ": ")
	if !ok {
		return nil
	}
	for _, p := range s.node.Pairs {
		if !p.Keyword {
			entry = validate.InspectAtom(name) + " => " + value
			break
		}
	}
	preferred := f.additionClean(kd.Name) && !f.misspelt(kd.Name, s.node)
	return f.one("Add "+entry, preferred, insertFirst(s.uri, s.content, s.node, entry))
}

// misspelt reports whether a key of the map literal m is an unknown key
// whose suggestion is name (`descripton:` for a missing :description):
// then the rename is the fix, and adding the key beside the typo is
// offered but not preferred (docs/rules.md §4 unknown-key, missing-key).
func (f *fixer) misspelt(name string, m *elixir.Expr) bool {
	for _, o := range f.tv.Offences {
		if o.Code != validate.CodeUnknownKey || o.Suggestion != name {
			continue
		}
		l, ok := locOf(o.Pointer)
		if !ok || l.URI != f.snap.URI {
			continue
		}
		for _, p := range m.Pairs {
			if p.Key != nil && p.Key.Span == l.Span {
				f.held = "the map has a misspelt key that may be the one meant: " + o.Message
				return true
			}
		}
	}
	return false
}

// undeclaredField offers to declare the name in the schema's :properties
// map literal (`"id" => %{}`) and to remove it from its list.
func (f *fixer) undeclaredField() []Fix {
	path := f.valuePath()
	if len(path) < 3 {
		return nil
	}
	el := path[len(path)-1].v
	if el.Kind != validate.String || el.Unknown {
		return nil
	}
	var out []Fix
	// A near miss of a declared name ("state" for "status") comes first,
	// one choice among the others, so never preferred.
	for _, fx := range f.suggestString() {
		fx.Preferred = false
		out = append(out, fx)
	}
	if props := path[0].v.GetAtom("properties"); props != nil && props.Kind == validate.Map {
		if pl, ok := locOf(props.Origin); ok {
			s, ok := locateExpr(f.snap, f.tv, pl, func(e *elixir.Expr) bool {
				return e.Kind == elixir.ExprMap && e.Base == nil && len(e.Errs()) == 0 && e.Struct() == ""
			})
			if ok {
				entry := validate.InspectString(el.Text) + " => %{}"
				ed := insertLast(s.uri, s.content, s.node, entry)
				for i, p := range s.node.Pairs {
					if p.Keyword {
						ed = insertBefore(s.uri, s.content, s.node, i, entry)
						break
					}
				}
				out = append(out, Fix{Title: fmt.Sprintf("Declare %s in :properties", validate.InspectString(el.Text)), Edits: []Edit{ed}})
			}
		}
	}
	key := schemaKey(path)
	switch {
	case key == "required" && len(path) == 3:
		out = append(out, f.removeEntry(fmt.Sprintf("Remove %s from :required", validate.InspectString(el.Text)), false)...)
	case key == "required_one_of" && len(path) == 4:
		out = append(out, f.removeFromGroup(path, el)...)
	}
	return out
}

// removeFromGroup removes el from its :required_one_of group, or the whole
// group when el is its only element, unless the smaller group would equal,
// contain or be contained in another group (a new offence).
func (f *fixer) removeFromGroup(path []valueStep, el *validate.Value) []Fix {
	groups, g := path[1].v, path[2].v
	rest := map[string]bool{}
	for _, x := range g.Elems {
		if x == nil || x.Kind != validate.String || x.Unknown {
			return nil
		}
		if x.Text != el.Text {
			rest[x.Text] = true
		}
	}
	title := fmt.Sprintf("Remove %s from the :required_one_of group", validate.InspectString(el.Text))
	if len(rest) == 0 {
		gl, ok := locOf(g.Origin)
		if !ok {
			return nil
		}
		return f.removeArg(gl, fmt.Sprintf("Remove the group %s", titleText(validate.Inspect(g, 40))), false)
	}
	for _, h := range groups.Elems {
		if h == g || h == nil || h.Kind != validate.List {
			continue
		}
		other := map[string]bool{}
		for _, x := range h.Elems {
			if x != nil && x.Kind == validate.String && !x.Unknown {
				other[x.Text] = true
			}
		}
		if nameSubset(rest, other) || nameSubset(other, rest) {
			return nil
		}
	}
	return f.removeEntry(title, false)
}

func nameSubset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// removeEntry removes the pointer from its list literal or ~w sigil, with
// its separator.
func (f *fixer) removeEntry(title string, preferred bool) []Fix {
	s, ok := locateExpr(f.snap, f.tv, f.loc, nil)
	if !ok || s.parent == nil {
		return nil
	}
	switch {
	case s.word >= 0 && s.parent.Kind == elixir.ExprWords:
		return f.one(title, preferred && f.removalClean(f.loc), Edit{URI: s.uri, Span: removeItem(s.content, itemSpans(s.parent), s.word)})
	case s.arg >= 0 && s.parent.Kind == elixir.ExprList && !loneHead(s.parent):
		return f.one(title, preferred && f.removalClean(f.loc), Edit{URI: s.uri, Span: removeItem(s.content, itemSpans(s.parent), s.arg)})
	}
	return nil
}

// updateKey reports a map key that no fix may rename, rewrite or remove
// because of a map update (`%{base | k => v}`): Elixir raises KeyError
// when an update names a key its base lacks. So a key of an update is
// never edited (a rewritten `b:` as `"b" =>` breaks the call; removing the
// pair leaves the key the base holds, and a lone pair leaves `%{base | }`,
// which Elixir refuses), nor a key of s.uri that a map update there names
// (`@d %{"zz" => 0}` read by `%{@d | "zz" => 1}`), as the base may be it.
func (f *fixer) updateKey(s exprSite) bool {
	if !s.key || s.parent == nil || s.parent.Kind != elixir.ExprMap {
		return false
	}
	if s.parent.Base != nil {
		return true
	}
	k := s.node
	if k == nil || k.Unknown {
		return false
	}
	d, ok := irOf(f.snap, f.tv, s.uri)
	if !ok {
		return false
	}
	found := false
	for _, r := range d.roots {
		elixir.Walk(r, func(e *elixir.Expr) bool {
			if e.Kind == elixir.ExprMap && e.Base != nil {
				for _, p := range e.Pairs {
					if p.Key != nil && p.Key.Kind == k.Kind && !p.Key.Unknown && p.Key.Text == k.Text {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// loneHead reports a list `[x | tail]` with one head element, which cannot
// lose it without becoming invalid.
func loneHead(l *elixir.Expr) bool { return l.Base != nil && len(l.Args)+len(l.Pairs) == 1 }

// removeArg removes the list element written at loc from its list literal.
func (f *fixer) removeArg(loc positions.Loc, title string, preferred bool) []Fix {
	s, ok := locateExpr(f.snap, f.tv, loc, nil)
	if !ok || s.parent == nil || s.parent.Kind != elixir.ExprList || s.arg < 0 || loneHead(s.parent) {
		return nil
	}
	return f.one(title, preferred && f.removalClean(loc), Edit{URI: s.uri, Span: removeItem(s.content, itemSpans(s.parent), s.arg)})
}

// removeGroup removes the pointed :required_one_of group.
func (f *fixer) removeGroup(format string) []Fix {
	return f.removeArg(f.loc, fmt.Sprintf(format, f.pointerText()), true)
}

// removePair removes the map pair whose key is written at loc; never a
// pair of a map update (see updateKey).
func (f *fixer) removePair(loc positions.Loc, title string, preferred bool) []Fix {
	s, ok := locateExpr(f.snap, f.tv, loc, nil)
	if !ok || s.parent == nil || s.parent.Kind != elixir.ExprMap || s.pair < 0 || !s.key || f.updateKey(s) {
		return nil
	}
	return f.one(title, preferred && f.removalClean(loc), Edit{URI: s.uri, Span: removeItem(s.content, itemSpans(s.parent), s.pair)})
}

// joinLines rewrites a literal :description with its line breaks (and the
// blanks around them) as single spaces, as a one-line string.
func (f *fixer) joinLines() []Fix {
	s, ok := locateExpr(f.snap, f.tv, f.loc, func(e *elixir.Expr) bool {
		return e.Kind == elixir.ExprString && !e.Unknown
	})
	if !ok || s.node == nil {
		return nil
	}
	one := strings.TrimSpace(lineBreaks.ReplaceAllString(s.node.Text, " "))
	return f.one("Join :description into one line", !f.readBeyond(f.loc), Edit{URI: s.uri, Span: s.node.Span, NewText: validate.InspectString(one)})
}

var lineBreaks = regexp.MustCompile(`[ \t]*(\r?\n)+[ \t]*`)

// toString turns a charlist or atom written where a string belongs (a
// :description, :notes, :required, :related or :required_one_of entry)
// into that string; words of ~w(...)a or ~w(...)c lose their modifier.
func (f *fixer) toString() []Fix {
	path := f.valuePath()
	if len(path) < 2 {
		return nil
	}
	v := path[len(path)-1].v
	key := schemaKey(path)
	if len(path) == 2 && (key == "required" || key == "related") && !v.Unknown &&
		(v.Kind == validate.String || v.Kind == validate.Atom || v.Kind == validate.Charlist) {
		return f.wrapInList(v)
	}
	if (v.Kind != validate.Atom && v.Kind != validate.Charlist) || v.Unknown {
		return nil
	}
	switch {
	case len(path) == 2 && (key == "description" || key == "notes"):
	case len(path) == 3 && (key == "required" || key == "related") && path[1].v.Kind == validate.List:
	case len(path) == 4 && key == "required_one_of" && path[2].v.Kind == validate.List:
	default:
		return nil
	}
	s, ok := locateExpr(f.snap, f.tv, f.loc, func(e *elixir.Expr) bool {
		return (e.Kind == elixir.ExprAtom || e.Kind == elixir.ExprCharlist) && !e.Unknown
	})
	if !ok {
		return nil
	}
	if s.word >= 0 {
		w := s.parent
		if w.Text != "a" && w.Text != "c" {
			return nil
		}
		repl := map[*validate.Value]*validate.Value{}
		for _, el := range path[len(path)-2].v.Elems {
			if l, ok := locOf(el.Origin); ok && el.Kind == v.Kind && l.URI == s.uri && spanInside(w.Span, l.Span) {
				repl[el] = withKind(el, validate.String, el.Text)
			}
		}
		end := w.Span.End
		return f.one("Write the words as strings (drop the "+w.Text+" modifier)", f.clean(repl),
			Edit{URI: s.uri, Span: positions.Span{Start: end - 1, End: end}})
	}
	if s.key {
		return nil
	}
	q := validate.InspectString(s.node.Text)
	return f.one("Write "+q, f.clean(map[*validate.Value]*validate.Value{v: withKind(v, validate.String, v.Text)}) && !f.readBeyond(f.loc),
		Edit{URI: s.uri, Span: s.node.Span, NewText: q})
}

// wrapInList writes the one name given where a list of names belongs
// (`required: "id"`, `related: :list`) as that list: `["id"]`, the name a
// string.
func (f *fixer) wrapInList(v *validate.Value) []Fix {
	s, ok := locateExpr(f.snap, f.tv, f.loc, func(e *elixir.Expr) bool {
		return (e.Kind == elixir.ExprString || e.Kind == elixir.ExprAtom || e.Kind == elixir.ExprCharlist) && !e.Unknown
	})
	if !ok || s.key || s.word >= 0 {
		return nil
	}
	list := &validate.Value{Kind: validate.List, Elems: []*validate.Value{withKind(v, validate.String, v.Text)}, Origin: v.Origin}
	q := "[" + validate.InspectString(s.node.Text) + "]"
	return f.one("Write "+q, f.clean(map[*validate.Value]*validate.Value{v: list}) && !f.readBeyond(f.loc),
		Edit{URI: s.uri, Span: s.node.Span, NewText: q})
}

// stringKey turns an atom or charlist map key into a string key: `name:`
// becomes `"name" =>`, `:name =>` and `'name' =>` become `"name" =>`. A
// keyword pair preceded by another keyword pair is moved before the first
// keyword pair of the map, since keyword pairs must come last.
func (f *fixer) stringKey() []Fix {
	s, ok := locateExpr(f.snap, f.tv, f.loc, nil)
	if !ok || s.parent == nil || s.parent.Kind != elixir.ExprMap || s.pair < 0 || !s.key || f.updateKey(s) {
		return nil
	}
	k := s.node
	if (k.Kind != elixir.ExprAtom && k.Kind != elixir.ExprCharlist) || k.Unknown {
		return nil
	}
	for _, pp := range s.parent.Pairs {
		if pp.Key.Kind == elixir.ExprString && !pp.Key.Unknown && pp.Key.Text == k.Text {
			return nil // the map has that string key already: which one wins would change
		}
	}
	preferred := true
	if path := f.valuePath(); len(path) > 0 {
		kv := path[len(path)-1].v
		preferred = f.clean(map[*validate.Value]*validate.Value{kv: withKind(kv, validate.String, kv.Text)})
	}
	q := validate.InspectString(k.Text)
	title := fmt.Sprintf("Write %s => instead of %s", q, f.pointerText())
	p := s.parent.Pairs[s.pair]
	if !p.Keyword {
		return f.one(title, preferred, Edit{URI: s.uri, Span: k.Span, NewText: q})
	}
	title = fmt.Sprintf("Write %s => instead of %s:", q, f.pointerText())
	c := s.content
	if k.Span.End >= len(c) || c[k.Span.End] != ':' {
		return nil
	}
	firstKw := -1
	for i, pp := range s.parent.Pairs[:s.pair] {
		if pp.Keyword {
			firstKw = i
			break
		}
	}
	if firstKw < 0 {
		return f.one(title, preferred, Edit{URI: s.uri, Span: positions.Span{Start: k.Span.Start, End: k.Span.End + 1}, NewText: q + " =>"})
	}
	entry := q + " => " + string(c[p.Value.Span.Start:p.Value.Span.End])
	return f.one(title, preferred,
		insertBefore(s.uri, c, s.parent, firstKw, entry),
		Edit{URI: s.uri, Span: removeItem(c, itemSpans(s.parent), s.pair)})
}

// suggestString replaces a string literal (a "type" value, a property
// schema key, a :related entry or ~w word) by the lint's suggestion.
func (f *fixer) suggestString() []Fix {
	sug := f.o.Suggestion
	if sug == "" {
		return nil
	}
	s, ok := locateExpr(f.snap, f.tv, f.loc, func(e *elixir.Expr) bool {
		return e.Kind == elixir.ExprString && !e.Unknown
	})
	if !ok || f.updateKey(s) {
		return nil
	}
	q := validate.InspectString(sug)
	if s.word >= 0 {
		if !plainWord.MatchString(sug) || s.parent.Text != "" && s.parent.Text != "s" {
			return nil
		}
		return f.one("Change to "+q, true, Edit{URI: s.uri, Span: s.parent.Words()[s.word].Span, NewText: sug})
	}
	if s.key && s.parent != nil {
		for i, p := range s.parent.Pairs {
			if i != s.pair && p.Key.Kind == elixir.ExprString && !p.Key.Unknown && p.Key.Text == sug {
				return nil
			}
		}
	}
	return f.one("Change to "+q, true, Edit{URI: s.uri, Span: s.node.Span, NewText: q})
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_.\-]+$`)
