package elixir

import (
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
)

// The module index: what a module body's statements mean for the IR
// (tool declarations, aliases, nested module names), shared by every
// reading of the parser (cursor.go).

// isToolRef reports whether e names Wymcp.Tool where it is written in
// mod (through mod's aliases).
func isToolRef(e *Expr, mod *Module) bool {
	return e.Kind == ExprAlias && len(e.Args) == 0 && mod.ResolveAlias(e.Text, e.Span.Start) == "Wymcp.Tool"
}

// markTool marks mod as a tool module declared by the statement at s
// (the first declaration wins).
func markTool(mod *Module, s positions.Span) {
	if !mod.Tool {
		mod.Tool = true
		mod.ToolSpan = s
	}
}

// joinModuleName returns the full name of `defmodule name` nested in
// parent, and the target of the alias Elixir defines in the parent for the
// name's first segment ("" for none).
func joinModuleName(parent *Module, name string) (full, alias string) {
	if rest, ok := strings.CutPrefix(name, "Elixir."); ok {
		return rest, ""
	}
	if parent == nil {
		return strings.TrimPrefix(name, "__MODULE__."), ""
	}
	if name == "__MODULE__" {
		return parent.Name, ""
	}
	if rest, ok := strings.CutPrefix(name, "__MODULE__."); ok {
		return parent.Name + "." + rest, ""
	}
	head, _, _ := strings.Cut(name, ".")
	return parent.Name + "." + name, parent.Name + "." + head
}

// aliasFrom records the aliases of an `alias ...` call expression e in mod,
// in effect until scopeEnd.
func aliasFrom(e *Expr, mod *Module, scopeEnd int) {
	if e == nil || e.Kind != ExprCall || e.Base != nil || e.Text != "alias" || len(e.Args) == 0 {
		return
	}
	target := e.Args[0]
	if target.Kind != ExprAlias {
		return
	}
	scope := func(s positions.Span) positions.Span { return positions.Span{Start: s.End, End: max(s.End, scopeEnd)} }
	if len(target.Args) > 0 { // alias A.{B, C}
		base := mod.ResolveAlias(target.Text, target.Span.Start)
		for _, a := range target.Args {
			if a.Kind != ExprAlias || len(a.Args) > 0 {
				continue
			}
			mod.Aliases = append(mod.Aliases, &Alias{
				As: lastSegment(a.Text), Target: base + "." + a.Text, Span: a.Span, Scope: scope(e.Span),
			})
		}
		return
	}
	full := mod.ResolveAlias(target.Text, target.Span.Start)
	as := lastSegment(full)
	if len(e.Args) > 1 && e.Args[1].Kind == ExprList {
		for _, p := range e.Args[1].Pairs {
			if p.Key.Kind == ExprAtom && p.Key.Text == "as" && p.Value.Kind == ExprAlias && !strings.Contains(p.Value.Text, ".") {
				as = p.Value.Text
			}
		}
	}
	mod.Aliases = append(mod.Aliases, &Alias{As: as, Target: full, Span: target.Span, Scope: scope(e.Span)})
}

// lastSegment returns the last dot-separated segment of a module name.
func lastSegment(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}
