package authoring

import (
	"context"
	"sort"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// SymbolKind is what a Symbol stands for; lsp maps it to an LSP
// SymbolKind (LSP 3.17 "SymbolKind").
type SymbolKind int

// The symbol kinds of the outline (README.md "Outline (document symbols)").
const (
	// SymbolModule is a tool module (LSP Module, 2), or the module of this
	// document that holds schemas of a tool defined elsewhere.
	SymbolModule SymbolKind = iota + 1
	// SymbolAction is an action (LSP Method, 6).
	SymbolAction
	// SymbolProperty is a property of an action or of an object property
	// (LSP Property, 7).
	SymbolProperty
)

// Symbol is one entry of the document outline (LSP 3.17 DocumentSymbol),
// in bytes of the snapshot's Content.
type Symbol struct {
	// Name is the module name, the action name without its colon
	// ("create"), or the property name without quotes ("name").
	Name string
	// Detail is the action's description, a property's "type", or for a
	// module that only holds schemas "schemas of <Tool>"; "" if unknown.
	Detail string
	Kind   SymbolKind
	// Span is the whole declaration (the defmodule, the `key: value` pair);
	// NameSpan the name as written, inside Span.
	Span, NameSpan positions.Span
	// Children are nested symbols, sorted by position, each inside Span.
	Children []Symbol
}

// maxSymbols bounds the outline of one document.
const maxSymbols = 20_000

// DocumentSymbols returns the outline of the snapshot's document: each
// tool module defined in it, with its actions, each with its properties
// (properties nested below the object property declaring them, through
// "properties" and "items"). Actions and properties come from the
// evaluated actions/0 value and are kept only when their key is written in
// this document; one written inside an attribute or a function outside the
// declaration is listed under the module that holds it (a child is always
// inside its parent's range, as editors expect). A value shared by several
// actions is listed once. A document without a tool gives nil.
func DocumentSymbols(ctx context.Context, snap *workspace.Snapshot) []Symbol {
	if snap == nil || snap.Skipped || snap.File == nil {
		return nil
	}
	b := &symBuilder{snap: snap, mods: map[*elixir.Module]*symNode{}}
	for _, tv := range snap.Tools {
		if ctx.Err() != nil {
			return nil
		}
		if tv.Module != nil && tv.Module.URI == snap.URI {
			b.module(tv.Module, toolDetail(tv))
		}
		if tv.Result == nil || tv.Result.Actions == nil || tv.Result.Actions.Kind != validate.Map {
			continue
		}
		b.tool = tv
		b.actions(tv.Result.Actions)
	}
	return b.finish()
}

// symNode is a symbol being built: its wanted parent may not contain it, in
// which case it is placed under the nearest ancestor that does.
type symNode struct {
	sym    Symbol
	parent *symNode
	kids   []*symNode
}

type symBuilder struct {
	snap  *workspace.Snapshot
	tool  *workspace.ToolView
	mods  map[*elixir.Module]*symNode
	order []*symNode // modules in creation order
	seen  map[positions.Span]bool
	pairs map[positions.Span]positions.Span // pair span by key span
	count int
}

// module returns the node of module m, creating it.
func (b *symBuilder) module(m *elixir.Module, detail string) *symNode {
	if n := b.mods[m]; n != nil {
		return n
	}
	n := &symNode{sym: Symbol{Name: m.Name, Detail: detail, Kind: SymbolModule, Span: m.Span, NameSpan: m.NameSpan}}
	b.mods[m] = n
	b.order = append(b.order, n)
	return n
}

// home returns the node of the innermost module of this document holding
// sp, creating it (with a "schemas of" detail) when it is not a tool.
func (b *symBuilder) home(sp positions.Span) *symNode {
	var best *elixir.Module
	for _, m := range b.snap.File.Modules {
		if m.Span.Start <= sp.Start && sp.End <= m.Span.End && (best == nil || m.Span.Len() <= best.Span.Len()) {
			best = m
		}
	}
	if best == nil {
		return nil
	}
	detail := ""
	if b.tool != nil && b.tool.Module != nil && b.tool.Module != best {
		detail = "schemas of " + b.tool.Module.Name
	}
	return b.module(best, detail)
}

// here returns the span of o when it is in this document.
func (b *symBuilder) here(o validate.Origin) (positions.Span, bool) {
	l, ok := locOf(o)
	if !ok || l.URI != b.snap.URI || l.Span.Start < 0 || l.Span.End > len(b.snap.Content) {
		return positions.Span{}, false
	}
	return l.Span, true
}

// add creates the symbol of key k (in this document) under parent; span is
// the declaration around it.
func (b *symBuilder) add(parent *symNode, k *validate.Value, kind SymbolKind, detail string) *symNode {
	ks, ok := b.here(k.Origin)
	if !ok || b.count >= maxSymbols {
		return nil
	}
	sp := b.declaration(ks)
	if b.seen == nil {
		b.seen = map[positions.Span]bool{}
	}
	if b.seen[ks] {
		return nil // a shared value, listed once
	}
	b.seen[ks] = true
	b.count++
	name := k.Text
	if k.Kind != validate.Atom && k.Kind != validate.String || k.Unknown || name == "" {
		name = validate.Inspect(k, 40)
	}
	n := &symNode{sym: Symbol{Name: name, Detail: detail, Kind: kind, Span: sp, NameSpan: ks}}
	for parent != nil && !spanInside(parent.sym.Span, sp) {
		parent = parent.parent
	}
	if parent == nil {
		parent = b.home(sp)
	}
	n.parent = parent
	if parent != nil {
		parent.kids = append(parent.kids, n)
	}
	return n
}

// declaration returns the span of the map pair whose key is written at ks
// (`key: value`, `"key" => value`), or ks itself. The pairs of the
// document are indexed on first use.
func (b *symBuilder) declaration(ks positions.Span) positions.Span {
	if b.pairs == nil {
		b.pairs = map[positions.Span]positions.Span{}
		for _, m := range b.snap.File.Modules {
			for _, a := range m.Attrs {
				indexPairs(b.pairs, a.Value, 0)
			}
			for _, d := range m.Defs {
				indexPairs(b.pairs, d.Body, 0)
			}
		}
	}
	if sp, ok := b.pairs[ks]; ok {
		return sp
	}
	return ks
}

// indexPairs records the span of every map pair below e by its key's span.
func indexPairs(dst map[positions.Span]positions.Span, e *elixir.Expr, depth int) {
	if e == nil || depth > maxFindDepth {
		return
	}
	if e.Kind == elixir.ExprMap {
		for _, p := range e.Pairs {
			if p.Key != nil {
				dst[p.Key.Span] = p.Span
			}
		}
	}
	indexPairs(dst, e.Base, depth+1)
	for _, a := range e.Args {
		indexPairs(dst, a, depth+1)
	}
	for _, p := range e.Pairs {
		indexPairs(dst, p.Key, depth+1)
		indexPairs(dst, p.Value, depth+1)
	}
}

func spanInside(outer, inner positions.Span) bool {
	return outer.Start <= inner.Start && inner.End <= outer.End
}

// actions adds the actions of an evaluated actions map.
func (b *symBuilder) actions(acts *validate.Value) {
	var parent *symNode
	if b.tool.Module != nil && b.tool.Module.URI == b.snap.URI {
		parent = b.mods[b.tool.Module]
	}
	for _, e := range acts.Entries {
		if e.Key == nil || e.Value == nil {
			continue
		}
		detail := ""
		if e.Value.Kind == validate.Map {
			if d := e.Value.GetAtom("description"); d != nil && d.Kind == validate.String && !d.Unknown {
				detail = d.Text
			}
		}
		n := b.add(parent, e.Key, SymbolAction, detail)
		if e.Value.Kind == validate.Map {
			if p := e.Value.GetAtom("properties"); p != nil {
				b.properties(n, p, 0)
			}
		}
	}
}

// properties adds the entries of a properties map below parent (which may
// be nil: the entries then go under their module).
func (b *symBuilder) properties(parent *symNode, props *validate.Value, depth int) {
	if props == nil || props.Kind != validate.Map || depth > 64 {
		return
	}
	for _, e := range props.Entries {
		if e.Key == nil || e.Value == nil {
			continue
		}
		detail := ""
		if e.Value.Kind == validate.Map {
			if t := e.Value.Get("type"); t != nil && t.Kind == validate.String && !t.Unknown {
				detail = t.Text
			}
		}
		n := b.add(parent, e.Key, SymbolProperty, detail)
		if n == nil {
			n = parent // not written here: its properties hoist to the parent
		}
		b.schema(n, e.Value, depth+1)
	}
}

// schema adds the properties a property schema declares: its "properties"
// and those of its single-schema "items".
func (b *symBuilder) schema(parent *symNode, s *validate.Value, depth int) {
	if s == nil || s.Kind != validate.Map || depth > 64 {
		return
	}
	b.properties(parent, s.Get("properties"), depth+1)
	if it := s.Get("items"); it != nil && it.Kind == validate.Map {
		b.schema(parent, it, depth+1)
	}
}

// finish converts the nodes to symbols sorted by position.
func (b *symBuilder) finish() []Symbol {
	for m, n := range b.mods {
		for p := m.Parent; p != nil; p = p.Parent {
			if pn := b.mods[p]; pn != nil {
				n.parent = pn
				pn.kids = append(pn.kids, n)
				break
			}
		}
	}
	var out []Symbol
	for _, n := range b.order {
		if n.parent == nil {
			out = append(out, n.symbol())
		}
	}
	sortSymbols(out)
	return out
}

func (n *symNode) symbol() Symbol {
	s := n.sym
	s.Children = make([]Symbol, 0, len(n.kids))
	for _, k := range n.kids {
		s.Children = append(s.Children, k.symbol())
	}
	sortSymbols(s.Children)
	return s
}

func sortSymbols(ss []Symbol) {
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].Span.Start != ss[j].Span.Start {
			return ss[i].Span.Start < ss[j].Span.Start
		}
		return ss[i].Span.End > ss[j].Span.End
	})
}

// toolDetail is a tool module's symbol detail: the name Wymcp publishes,
// what its name/0 returns (README.md "What counts as a tool module").
func toolDetail(tv *workspace.ToolView) string {
	if tv.Result != nil {
		if cb, ok := tv.Result.Callbacks["name"]; ok && cb.Value != nil && cb.Value.Kind == validate.String && !cb.Value.Unknown {
			return "tool " + validate.InspectString(cb.Value.Text)
		}
	}
	return "tool (name/0 not known)"
}
