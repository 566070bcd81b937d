package authoring

import (
	"bytes"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
)

// moduleTarget returns the workspace module that the module name under
// the cursor names, for references and highlights (README.md "Go to
// definition, find references and document highlight"): the name after a
// defmodule, else what moduleAt finds. ok is false elsewhere.
func (c *Cursor) moduleTarget() (*elixir.Module, bool) {
	if c.Resolver != nil {
		var mods []*elixir.Module
		if f := c.Snap.File; f != nil && len(f.Errors) == 0 {
			mods = f.Modules // the parse's, whatever part of the document the sketch read
		} else if c.Sketch != nil {
			mods = c.Sketch.File.Modules
		}
		for _, m := range mods {
			if m.NameSpan.Contains(c.Off) && m.NameSpan.End > m.NameSpan.Start {
				if d := c.Resolver.Module(m.Name); d != nil {
					return d, true // the defmodule of that name the workspace resolves to
				}
				return m, true
			}
		}
	}
	m, _, ok := c.moduleAt()
	return m, ok
}

// moduleUses returns every place a workspace document names the module
// called name, resolved through the aliases in effect there: its
// defmodule names (nested ones as written, relative to the parent),
// aliases in expressions (a remote call's receiver, a `tools:` entry, a
// `use` or `@behaviour` argument, an `alias` statement's name, the later
// uses of its `as:` name; not the `as:` value itself, which the alias is
// not yet in effect for), and the segment of `alias A.{B, C}` that names
// it. Each span (byte offsets, 0-based, into its document) is the name as
// written. Only the documents holding the name's last segment are read
// (workspace.Snapshot.Documents); with here, only the cursor's. Names in
// strings and comments are not read; names in interpolations are.
func (c *Cursor) moduleUses(name string, here bool) []positions.Loc {
	var out []positions.Loc
	word := name[strings.LastIndexByte(name, '.')+1:]
	if here {
		if bytes.Contains(c.Snap.Content, []byte(word)) {
			out = moduleNamesIn(c.Sketch, c.Snap.URI, name)
		}
		return out
	}
	for _, d := range c.Snap.Documents(c.ctx, word) {
		sk := c.Sketch
		if d.URI != c.Snap.URI {
			if sk = d.File.FullSketch(); sk == nil {
				sk = elixir.NewSketch(d.URI, d.Content, -1) // a syntax error: the tolerant reading
			}
		}
		out = append(out, moduleNamesIn(sk, d.URI, name)...)
	}
	return out
}

// moduleNamesIn returns the places of the document uri, read as sk, that
// name the module called name (moduleUses).
func moduleNamesIn(sk *elixir.Sketch, uri, name string) []positions.Loc {
	var out []positions.Loc
	add := func(s positions.Span) { out = append(out, positions.Loc{URI: uri, Span: s}) }
	for _, m := range sk.File.Modules {
		if m.Name == name {
			add(m.NameSpan)
		}
	}
	top := sk.TopLevel() // the top level: its own aliases in effect
	for _, st := range sk.Stmts {
		m := st.Module
		if m == nil {
			m = top
		}
		var visit func(e *elixir.Expr) bool
		visit = func(e *elixir.Expr) bool {
			switch {
			case e.Kind == elixir.ExprCall && e.Base == nil && e.Text == "defmodule":
				return false // its name is the module's NameSpan; its body, statements of their own
			case e.Kind == elixir.ExprCall && e.Base == nil && (e.Text == "alias" || e.Text == "require") && len(e.Args) > 1:
				// The `as:` value is the new name, not a use of the module
				// it spells (`alias App.T, as: U` beside a module U).
				walkInterpolated(sk.Src, e.Args[0], visit)
				for _, a := range e.Args[1:] {
					if a.Kind != elixir.ExprList {
						walkInterpolated(sk.Src, a, visit)
						continue
					}
					for _, p := range a.Pairs {
						if p.Key == nil || p.Key.Kind != elixir.ExprAtom || p.Key.Text != "as" {
							walkInterpolated(sk.Src, p.Value, visit)
						}
					}
				}
				return false
			case e.Struct() != "": // %App.T{...}, %T{t | k: v}
				if n, s, ok := structNameAt(sk.Src, e); ok && m.ResolveAlias(n, s.Start) == name {
					add(s)
				}
			case e.Kind == elixir.ExprAlias && len(e.Args) > 0: // A.{B, C}
				base := m.ResolveAlias(e.Text, e.Span.Start)
				if s := (positions.Span{Start: e.Span.Start, End: e.Span.Start + len(e.Text)}); base == name && e.Text != "__MODULE__" && s.End <= len(sk.Src) && string(sk.Src[s.Start:s.End]) == e.Text {
					add(s)
				}
				for _, a := range e.Args {
					if a.Kind == elixir.ExprAlias && len(a.Args) == 0 && base+"."+a.Text == name {
						add(a.Span)
					}
				}
				return false
			case e.Kind == elixir.ExprAlias && e.Text != "__MODULE__" && m.ResolveAlias(e.Text, e.Span.Start) == name:
				add(e.Span)
			}
			return true
		}
		walkInterpolated(sk.Src, st.Expr, visit)
	}
	return out
}

// structNameAt returns the struct name of the map e (`App.T` of
// `%App.T{...}`, as written) and its span in src, the document e was
// read from; ok is false for no struct, for `%__MODULE__{}` and for a
// name not written right after the `%` (the span would not be its).
func structNameAt(src []byte, e *elixir.Expr) (string, positions.Span, bool) {
	if e == nil {
		return "", positions.Span{}, false
	}
	n := e.Struct()
	s := positions.Span{Start: e.Span.Start + 1, End: e.Span.Start + 1 + len(n)}
	if n == "" || n == "__MODULE__" || s.End > len(src) || string(src[s.Start:s.End]) != n {
		return "", positions.Span{}, false
	}
	return n, s, true
}
