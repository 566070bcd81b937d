package authoring

import (
	"context"
	"sort"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// TargetKind is what the token under the cursor names.
type TargetKind int

// The targets of hover, definition, references and rename.
const (
	// TargetKey is a vocabulary key of an action schema (`required:`).
	TargetKey TargetKind = iota + 1
	// TargetKeyword is a JSON Schema keyword of a property schema ("type").
	TargetKeyword
	// TargetProperty is a property name: its key in a properties map, or
	// its use in :required, a :required_one_of group or a :defaults key.
	TargetProperty
	// TargetAction is an action name: its key in the action map or a
	// :related entry.
	TargetAction
	// TargetAttr is a module attribute, read (`@name`) or defined.
	TargetAttr
	// TargetCall is a zero-arity function: a call (`Schemas.all()`,
	// `schemas()`) or its definition's name.
	TargetCall
)

// Target is the named thing under the cursor.
type Target struct {
	Kind TargetKind
	// Span is the token in the cursor's document (a string with its
	// quotes, a key without its colon, `@name`, the whole call).
	Span positions.Span
	// Name is the key, keyword, property, action, attribute or function
	// name.
	Name string
	// Role is the container's role (keys, properties, actions).
	Role Role
	// Decl is the properties map declaring a TargetProperty.
	Decl *validate.Value
	// Expr is the expression to evaluate for a hover (an attribute read,
	// a call, an attribute's value or a function body); Module is where it
	// is written.
	Expr   *elixir.Expr
	Module *elixir.Module
	// Attr is a TargetAttr's definition.
	Attr *elixir.Attr
	// Def and DefModule are a TargetCall's definition.
	Def       *elixir.Def
	DefModule *elixir.Module
}

// Target returns the target under the cursor, or ok false.
func (c *Cursor) Target() (Target, bool) {
	if sp, ok := c.Spot(); ok && !sp.Deep && !sp.Keyless && sp.Leaf != nil {
		if t, ok := c.spotTarget(sp); ok {
			return t, true
		}
	}
	if sp, ok := c.Spot(); ok && sp.Leaf == nil && sp.Container.Kind == elixir.ExprWords {
		if t, ok := c.spotTarget(sp); ok {
			return t, true
		}
	}
	return c.exprTarget()
}

func (c *Cursor) spotTarget(sp Spot) (Target, bool) {
	leaf := sp.Leaf
	for _, r := range sp.Roles {
		switch r.Kind {
		case RoleSchema:
			if sp.Key && leaf.Kind == elixir.ExprAtom && sp.Pair.Keyword && !leaf.Unknown {
				return Target{Kind: TargetKey, Span: leaf.Span, Name: leaf.Text, Role: r}, true
			}
		case RolePropSchema:
			if sp.Key && leaf.Kind == elixir.ExprString && !leaf.Unknown {
				return Target{Kind: TargetKeyword, Span: leaf.Span, Name: leaf.Text, Role: r}, true
			}
		case RoleProperties, RoleDefaults:
			if sp.Key && leaf.Kind == elixir.ExprString && !leaf.Unknown {
				return Target{Kind: TargetProperty, Span: leaf.Span, Name: leaf.Text, Role: r, Decl: r.Decl}, true
			}
		case RoleRequired, RoleGroup, RoleRelated:
			kind := TargetProperty
			if r.Kind == RoleRelated {
				kind = TargetAction
			}
			if sp.Container.Kind == elixir.ExprWords {
				for _, w := range sp.Container.Words() {
					if w.Span.Contains(c.Off) {
						return Target{Kind: kind, Span: w.Span, Name: w.Text, Role: r, Decl: r.Decl}, true
					}
				}
				continue
			}
			if sp.Pair == nil && leaf.Kind == elixir.ExprString && !leaf.Unknown {
				return Target{Kind: kind, Span: leaf.Span, Name: leaf.Text, Role: r, Decl: r.Decl}, true
			}
		case RoleActionMap:
			if sp.Key && leaf.Kind == elixir.ExprAtom && !leaf.Unknown {
				return Target{Kind: TargetAction, Span: leaf.Span, Name: leaf.Text, Role: r}, true
			}
		}
	}
	return Target{}, false
}

// exprTarget finds an attribute or a zero-arity call at the cursor.
func (c *Cursor) exprTarget() (Target, bool) {
	leaf, parent := c.Leaf()
	if leaf == nil || c.Module == nil {
		return Target{}, false
	}
	m := c.Module
	for _, d := range m.Defs {
		// The `as:` name or the `to:` module of a zero-arity defdelegate,
		// as a sketch reads it (an `as:` atom or a `to:` alias): the call
		// Elixir defines it to make (elixir.Sketch.defdelegate), as the
		// clean reading's path is.
		if b := d.Body; d.Kind == "defdelegate" && b != nil && len(b.Args) == 0 && d.Span.Contains(c.Off) &&
			(b.NameSpan.Contains(c.Off) || b.Base.Span.Contains(c.Off)) {
			return c.callTarget(b, m)
		}
	}
	if l, p := interpolationLeaf(c.Snap.Content, leaf, c.Off, 0); l != nil && l.Kind == elixir.ExprAttr {
		leaf, parent = l, p // `"up to #{@max}"`: a read like any other
	}
	if leaf.Kind == elixir.ExprUnary && leaf.Text == "@" && c.Off == leaf.Span.Start && len(leaf.Args) == 1 && leaf.Args[0].Kind == elixir.ExprCall {
		// The `@` of a definition `@name value` names it, as the `@` of
		// a read `@name` names the read (its Target span starts there).
		leaf, parent = leaf.Args[0], leaf
	}
	switch leaf.Kind {
	case elixir.ExprAttr:
		a := m.AttrAt(leaf.Text, leaf.Span.Start)
		return Target{Kind: TargetAttr, Span: leaf.Span, Name: leaf.Text, Expr: leaf, Module: m, Attr: a}, true
	case elixir.ExprCall:
		if parent != nil && parent.Kind == elixir.ExprUnary && parent.Text == "@" && (leaf.NameSpan.Contains(c.Off) || c.Off == parent.Span.Start) {
			for _, a := range m.Attrs {
				if a.NameSpan == leaf.NameSpan {
					return Target{Kind: TargetAttr, Span: positions.Span{Start: parent.Span.Start, End: a.NameSpan.End},
						Name: a.Name, Expr: a.Value, Module: m, Attr: a}, true
				}
			}
		}
		if len(leaf.Args) == 0 && leaf.NameSpan.Contains(c.Off) {
			return c.callTarget(leaf, m)
		}
	case elixir.ExprAlias:
		if parent != nil && parent.Kind == elixir.ExprCall && parent.Base == leaf && len(parent.Args) == 0 {
			return c.callTarget(parent, m)
		}
	case elixir.ExprIdent:
		if parent != nil && parent.Kind == elixir.ExprCall && parent.Base == nil && (parent.Text == "def" || parent.Text == "defp") &&
			len(parent.Args) > 0 && parent.Args[0] == leaf {
			if d := m.Def(leaf.Text, 0); d != nil {
				return Target{Kind: TargetCall, Span: leaf.Span, Name: leaf.Text, Expr: d.Body, Module: m, Def: d, DefModule: m}, true
			}
			return Target{}, false
		}
		if d := m.Def(leaf.Text, 0); d != nil {
			return Target{Kind: TargetCall, Span: leaf.Span, Name: leaf.Text, Expr: leaf, Module: m, Def: d, DefModule: m}, true
		}
		if c.Resolver != nil { // a bare name an import provides: its call, as the evaluator reads it
			if tm, d := elixir.ImportedDef(m, leaf.Text, 0, leaf.Span.Start, c.Resolver.Module, c.quotedImports); d != nil {
				return Target{Kind: TargetCall, Span: leaf.Span, Name: leaf.Text, Expr: leaf, Module: m, Def: d, DefModule: tm}, true
			}
		}
	}
	return Target{}, false
}

// callTarget resolves a zero-arity call e written in module m.
func (c *Cursor) callTarget(e *elixir.Expr, m *elixir.Module) (Target, bool) {
	t := Target{Kind: TargetCall, Span: e.Span, Name: e.Text, Expr: e, Module: m}
	if e.Base == nil {
		if d := m.Def(e.Text, 0); d != nil {
			t.Def, t.DefModule = d, m
			return t, true
		}
		if c.Resolver != nil {
			if tm, d := elixir.ImportedDef(m, e.Text, 0, e.Span.Start, c.Resolver.Module, c.quotedImports); d != nil {
				t.Def, t.DefModule = d, tm // `import Schemas` then all()
				return t, true
			}
		}
		return Target{}, false
	}
	if e.Base.Kind != elixir.ExprAlias || len(e.Base.Args) > 0 {
		return Target{}, false
	}
	full := m.ResolveAlias(e.Base.Text, e.Base.Span.Start)
	tm := c.Resolver.Module(full)
	if tm == nil {
		return t, true // unresolved: hover still evaluates (to opaque)
	}
	for _, d := range tm.Defs {
		if d.Name == e.Text && d.Takes(0) && d.Public() {
			t.Def, t.DefModule = d, tm
			break
		}
	}
	return t, true
}

// Definition returns where the target at byte offset off is declared
// (README.md "Go to definition, find references and document highlight"): a property's key in :properties, an action's key in
// the action map, the last `@name` definition before an attribute read,
// the name of a zero-arity function's def, the name of a module's
// defmodule (from a module name such as a mount's `tools: [...]` entry,
// and from that defmodule name itself, nested or not).
// It returns nil when the cursor is on none of these.
func Definition(ctx context.Context, snap *workspace.Snapshot, off int) []positions.Loc {
	if snap == nil || snap.Skipped {
		return nil
	}
	c := NewCursor(ctx, snap, off)
	t, ok := c.Target()
	if ok && c.onUnresolvedReceiver(t) {
		ok = false
	}
	if !ok {
		if a, ok := c.actionAt(); ok { // a run_action/3 clause atom or a hint's action:
			if l, ok := c.actionDeclaration(a); ok {
				return []positions.Loc{l}
			}
		}
		if m, ok := c.moduleTarget(); ok {
			return []positions.Loc{{URI: m.URI, Span: m.NameSpan}}
		}
		return nil
	}
	if l, ok := c.declaration(t); ok {
		return []positions.Loc{l}
	}
	return nil
}

// onUnresolvedReceiver reports whether t is a zero-arity call that the
// workspace defines no function for (`App.Repo.config()`, a name/0 a
// wrapper's __using__ defines) and the cursor is on its receiver, a
// module the workspace defines: the name is then the module's, since the
// call has no declaration to go to.
func (c *Cursor) onUnresolvedReceiver(t Target) bool {
	if t.Kind != TargetCall || t.Def != nil || t.Expr == nil || t.Expr.Base == nil || !t.Expr.Base.Span.Contains(c.Off) {
		return false
	}
	_, _, ok := c.moduleAt()
	return ok
}

// moduleAt returns the module that the module name under the cursor
// names (`App.Tools.Notes` in a mount's `tools: [...]`, `Tools.Notes`
// after `alias App.Tools`, an `as:` name, the name an alias statement
// aliases), resolved through the aliases in effect where it is written,
// and the name's span (bytes) in the cursor's document. ok is false off a module name and for a module the workspace
// does not define. A module name that receives a zero-arity call
// (`Schemas.all()`) names the call instead (Target).
func (c *Cursor) moduleAt() (*elixir.Module, positions.Span, bool) {
	mod := c.Module
	if mod == nil { // the top level of a script: its own aliases in effect
		if fs := c.Snap.File.FullSketch(); fs != nil {
			mod = fs.TopLevel()
		} else if c.Sketch != nil {
			mod = c.Sketch.TopLevel()
		}
	}
	if mod == nil || c.Resolver == nil {
		return nil, positions.Span{}, false
	}
	for _, a := range mod.Aliases { // the name an alias statement aliases (`alias A.{B, C}`: B is A.B)
		if a.Span.Contains(c.Off) {
			m := c.Resolver.Module(a.Target)
			return m, a.Span, m != nil
		}
	}
	leaf, parent := c.Leaf()
	if leaf != nil && leaf.Struct() != "" && leaf.Struct() != "__MODULE__" { // the name of %App.T{...}
		n, s, ok := structNameAt(c.Snap.Content, leaf)
		if !ok || !s.Contains(c.Off) {
			return nil, positions.Span{}, false
		}
		m := c.Resolver.Module(mod.ResolveAlias(n, s.Start))
		return m, s, m != nil
	}
	if leaf == nil || leaf.Kind != elixir.ExprAlias || parent != nil && parent.Kind == elixir.ExprAlias {
		return nil, positions.Span{}, false
	}
	for _, a := range mod.Aliases { // the as: value of an alias statement: the module it names
		if a.As == leaf.Text && a.Span.End <= leaf.Span.Start && leaf.Span.End <= a.Scope.Start {
			m := c.Resolver.Module(a.Target)
			return m, leaf.Span, m != nil
		}
	}
	m := c.Resolver.Module(mod.ResolveAlias(leaf.Text, leaf.Span.Start))
	return m, leaf.Span, m != nil
}

// declaration returns the declaration of t.
func (c *Cursor) declaration(t Target) (positions.Loc, bool) {
	switch t.Kind {
	case TargetProperty:
		if e, ok := declEntry(t.Decl, t.Name); ok {
			return locOfValue(e.Key)
		}
	case TargetAction:
		if k := c.actionKey(t.Role.Tool, t.Name); k != nil {
			return locOfValue(k)
		}
	case TargetAttr:
		if t.Attr != nil {
			return positions.Loc{URI: c.Snap.URI, Span: positions.Span{Start: t.Attr.Span.Start, End: t.Attr.NameSpan.End}}, true
		}
	case TargetCall:
		if t.Def != nil {
			return positions.Loc{URI: t.DefModule.URI, Span: t.Def.NameSpan}, true
		}
	}
	return positions.Loc{}, false
}

// actionKey returns the key value of the action named name in tool t.
func (c *Cursor) actionKey(t *Tool, name string) *validate.Value {
	if t == nil || t.Actions == nil {
		return nil
	}
	for i := len(t.Actions.Entries) - 1; i >= 0; i-- {
		e := t.Actions.Entries[i]
		if e.Key != nil && e.Key.Kind == validate.Atom && e.Key.Text == name {
			return e.Key
		}
	}
	return nil
}

// References returns the declaration (when includeDeclaration) and every
// use of the target at byte offset off (README.md "Go to definition,
// find references and document highlight"), sorted by URI
// and position, without repeats. Uses of a function are looked for in the
// document and in the tool modules that read it; uses of a module name in
// every document of the workspace (moduleUses).
func References(ctx context.Context, snap *workspace.Snapshot, off int, includeDeclaration bool) []positions.Loc {
	decl, hasDecl, uses := references(ctx, snap, off, false)
	var out []positions.Loc
	if includeDeclaration && hasDecl {
		out = append(out, decl)
	}
	return sortLocs(append(out, uses...))
}

// references returns the declaration of the target at byte offset off,
// if it has one, and its uses other than the declaration (unsorted).
// With here, only the uses in snap's document are needed (Highlights);
// uses elsewhere may be left out.
func references(ctx context.Context, snap *workspace.Snapshot, off int, here bool) (decl positions.Loc, hasDecl bool, uses []positions.Loc) {
	if snap == nil || snap.Skipped {
		return positions.Loc{}, false, nil
	}
	c := newCursor(ctx, snap, off, true)
	t, ok := c.Target()
	if ok && c.onUnresolvedReceiver(t) {
		ok = false
	}
	if !ok {
		a, ok := c.actionAt() // a run_action/3 clause atom or a hint's action:
		if !ok {
			m, ok := c.moduleTarget() // a module name: its defmodule name and every place naming it
			if !ok {
				return positions.Loc{}, false, nil
			}
			decl = positions.Loc{URI: m.URI, Span: m.NameSpan}
			for _, l := range c.moduleUses(m.Name, here) {
				if l != decl {
					uses = append(uses, l)
				}
			}
			return decl, true, uses
		}
		t = Target{Kind: TargetAction, Name: a.name, Role: Role{Tool: c.toolOf(a.tool)}}
	}
	decl, hasDecl = c.declaration(t)
	for _, l := range c.uses(t) {
		if !hasDecl || l != decl {
			uses = append(uses, l)
		}
	}
	return decl, hasDecl, uses
}

// Highlight is one occurrence, in the cursor's own document, of what the
// cursor names (LSP 3.17 "textDocument/documentHighlight").
type Highlight struct {
	// Span is byte offsets into the snapshot's content.
	Span positions.Span
	// Write marks the declaration: a property's key in :properties, an
	// action key, an @attr definition, a def's name, a module's defmodule
	// name. Every other occurrence is a read.
	Write bool
}

// Highlights returns the declaration and the uses of the target at byte
// offset off (what References finds, README.md "Go to definition, find
// references and document highlight") that lie in snap's own document,
// in source order without repeats; nil when the cursor names nothing.
func Highlights(ctx context.Context, snap *workspace.Snapshot, off int) []Highlight {
	decl, hasDecl, all := references(ctx, snap, off, true)
	if hasDecl {
		all = append(all, decl)
	}
	var out []Highlight
	for _, l := range sortLocs(all) { // by URI, then position
		if l.URI == snap.URI {
			out = append(out, Highlight{Span: l.Span, Write: hasDecl && l == decl})
		}
	}
	return out
}

func sortLocs(ls []positions.Loc) []positions.Loc {
	sort.Slice(ls, func(i, j int) bool {
		if ls[i].URI != ls[j].URI {
			return ls[i].URI < ls[j].URI
		}
		return ls[i].Span.Start < ls[j].Span.Start
	})
	out := ls[:0]
	for i, l := range ls {
		if i == 0 || l != ls[i-1] {
			out = append(out, l)
		}
	}
	return out
}

// uses returns the uses of t (not its declaration).
func (c *Cursor) uses(t Target) []positions.Loc {
	var out []positions.Loc
	switch t.Kind {
	case TargetProperty:
		for _, r := range c.propertyUses(t) {
			out = append(out, r.loc)
		}
	case TargetAction:
		if t.Role.Tool != nil && t.Role.Tool.Module != nil {
			out = append(out, c.actionUsesElsewhere(t.Role.Tool.Module, t.Name)...)
		}
		for _, r := range c.all {
			if r.Kind != RoleRelated || r.Tool != t.Role.Tool {
				continue
			}
			for _, e := range r.Value.Elems {
				if e != nil && e.Kind == validate.String && !e.Unknown && e.Text == t.Name {
					if l, ok := locOfValue(e); ok {
						out = append(out, l)
					}
				}
			}
		}
	case TargetAttr:
		if t.Attr == nil {
			return nil
		}
		for _, st := range c.Sketch.Stmts {
			if st.Module != t.Module {
				continue
			}
			walkInterpolated(c.Snap.Content, st.Expr, func(e *elixir.Expr) bool {
				if e.Kind == elixir.ExprCall && e.Base == nil && e.Text == "defmodule" {
					return false
				}
				if e.Kind == elixir.ExprAttr && e.Text == t.Name && t.Module.AttrAt(e.Text, e.Span.Start) == t.Attr {
					out = append(out, positions.Loc{URI: c.Snap.URI, Span: e.Span})
				}
				return true
			})
		}
	case TargetCall:
		if t.Def == nil {
			return nil
		}
		for _, st := range c.Sketch.Stmts {
			if st.Module != nil {
				out = append(out, c.callsIn(st.Module, st.Expr, t)...)
				for _, d := range st.Module.Defs {
					// A defdelegate's call is not written as such: its Body.
					if d.Kind == "defdelegate" && d.Span == st.Expr.Span {
						out = append(out, c.callsIn(st.Module, d.Body, t)...)
					}
				}
			}
		}
		for _, tv := range c.Snap.Tools {
			m := tv.Module
			if m == nil || m.URI == c.Snap.URI {
				continue
			}
			for _, a := range m.Attrs {
				out = append(out, c.callsIn(m, a.Value, t)...)
			}
			for _, d := range m.Defs {
				out = append(out, c.callsIn(m, d.Body, t)...)
			}
		}
	}
	return out
}

// callsIn returns the calls of t's function inside e, written in m.
func (c *Cursor) callsIn(m *elixir.Module, e *elixir.Expr, t Target) []positions.Loc {
	var out []positions.Loc
	elixir.Walk(e, func(x *elixir.Expr) bool {
		switch {
		case x.Kind == elixir.ExprCall && x.Base == nil && x.Text == "defmodule":
			return false
		case x.Kind == elixir.ExprCall && x.Text == t.Def.Name && len(x.Args) == 0:
			if x.Base == nil && c.localCallOf(m, x) == t.DefModule.Name ||
				x.Base != nil && x.Base.Kind == elixir.ExprAlias && len(x.Base.Args) == 0 &&
					m.ResolveAlias(x.Base.Text, x.Base.Span.Start) == t.DefModule.Name {
				out = append(out, positions.Loc{URI: m.URI, Span: x.Span})
			}
		case x.Kind == elixir.ExprIdent && x.Text == t.Def.Name && c.localCallOf(m, x) == t.DefModule.Name:
			out = append(out, positions.Loc{URI: m.URI, Span: x.Span})
		}
		return true
	})
	return out
}

// quotedImports returns the imports the `use`d module name's __using__
// quotes (elixir.ImportedDef), nil when the resolver does not find it.
func (c *Cursor) quotedImports(name string) []*elixir.Import {
	return elixir.QuotedImports(c.Resolver.Module(name))
}

// localCallOf returns the module whose function the local zero-arity
// call x, written in m, reaches: m itself when m defines it (or when
// nothing else is known), else the imported module that provides it.
func (c *Cursor) localCallOf(m *elixir.Module, x *elixir.Expr) string {
	if m.Def(x.Text, 0) != nil || c.Resolver == nil {
		return m.Name
	}
	if tm, d := elixir.ImportedDef(m, x.Text, 0, x.Span.Start, c.Resolver.Module, c.quotedImports); d != nil {
		return tm.Name
	}
	return m.Name
}

// propertyRef is one use of a property name: where it is written and the
// role of the container holding it.
type propertyRef struct {
	loc  positions.Loc
	role Role
}

// propertyUses returns every use of t's property: :required and group
// entries and :defaults keys whose declaring map is t.Decl.
func (c *Cursor) propertyUses(t Target) []propertyRef {
	if t.Decl == nil {
		return nil
	}
	var out []propertyRef
	for _, r := range c.all {
		if r.Decl != t.Decl {
			continue
		}
		switch r.Kind {
		case RoleRequired, RoleGroup:
			for _, e := range r.Value.Elems {
				if e != nil && e.Kind == validate.String && !e.Unknown && e.Text == t.Name {
					if l, ok := locOfValue(e); ok {
						out = append(out, propertyRef{loc: l, role: r})
					}
				}
			}
		case RoleDefaults:
			for _, e := range r.Value.Entries {
				if e.Key != nil && e.Key.Kind == validate.String && !e.Key.Unknown && e.Key.Text == t.Name {
					if l, ok := locOfValue(e.Key); ok {
						out = append(out, propertyRef{loc: l, role: r})
					}
				}
			}
		}
	}
	return out
}

// maxInterpolationDepth bounds the literals nested in interpolations that
// interpolationLeaf and walkInterpolated go into.
const maxInterpolationDepth = 16

// interpolationLeaf returns the innermost expression holding byte offset
// off that is written in an interpolation of the literal e (src is the
// document), going into the literals written there, with its parent
// (nil for an interpolation's statement); nil when off is in none.
func interpolationLeaf(src []byte, e *elixir.Expr, off, depth int) (leaf, parent *elixir.Expr) {
	if e == nil || !e.Unknown || depth > maxInterpolationDepth {
		return nil, nil
	}
	for _, x := range elixir.Interpolations(src, e) {
		if !x.Span.Contains(off) {
			continue
		}
		var path []*elixir.Expr
		elixir.Walk(x, func(y *elixir.Expr) bool {
			if !y.Span.Contains(off) {
				return false
			}
			if n := len(path); n > 0 && (y.Span.Start < path[n-1].Span.Start || y.Span.End > path[n-1].Span.End) {
				return false // a sibling touching the cursor too: the first one holds it
			}
			path = append(path, y)
			return true
		})
		if len(path) == 0 {
			continue
		}
		leaf = path[len(path)-1]
		if len(path) > 1 {
			parent = path[len(path)-2]
		}
		if l, p := interpolationLeaf(src, leaf, off, depth+1); l != nil {
			return l, p
		}
		return leaf, parent
	}
	return nil, nil
}

// walkInterpolated is elixir.Walk that also visits the expressions written
// in the interpolations of the literals it meets (src is the document).
func walkInterpolated(src []byte, e *elixir.Expr, fn func(*elixir.Expr) bool) {
	var walk func(e *elixir.Expr, depth int)
	walk = func(e *elixir.Expr, depth int) {
		elixir.Walk(e, func(x *elixir.Expr) bool {
			if !fn(x) {
				return false
			}
			if x.Unknown && depth < maxInterpolationDepth {
				for _, y := range elixir.Interpolations(src, x) {
					walk(y, depth+1)
				}
			}
			return true
		})
	}
	walk(e, 0)
}
