package authoring

import (
	"context"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// WorkspaceSymbol is one entry of the workspace symbol index (LSP 3.17
// "workspace/symbol"): a tool, an action or a property, located where its
// name is written, in bytes of that document.
type WorkspaceSymbol struct {
	// Name is the tool's name (ToolName), the action name without its
	// colon ("create"), or the property name without quotes ("title").
	Name string
	Kind SymbolKind
	// Container is what holds the symbol: the module name for a tool
	// ("App.Tools.Tasks"), the tool name for an action ("tasks"), and the
	// tool, action and enclosing object properties joined with dots for a
	// property ("tasks.create", "tasks.create.opts").
	Container string
	// URI is the document the name is written in (a Schemas module for an
	// action declared there); Span the name as written (for a tool, the
	// module name after defmodule).
	URI  string
	Span positions.Span
}

// ToolName returns the name a tool is known by: what its name/0 returns,
// from res, the evaluation of the tool module (README.md "What counts as a
// tool module"), with known true. When name/0 is absent or does not
// evaluate to a literal string it returns "", false: the name is never
// guessed. Every feature naming a tool goes through here.
func ToolName(res *elixir.Result) (name string, known bool) {
	if res == nil {
		return "", false
	}
	if cb, ok := res.Callbacks["name"]; ok && cb.Value != nil && cb.Value.Kind == validate.String && !cb.Value.Unknown {
		return cb.Value.Text, true
	}
	return "", false
}

// maxWorkspaceSymbols bounds the workspace symbol index.
const maxWorkspaceSymbols = 500_000

// WorkspaceSymbols returns the symbols of every tool of tools (as
// workspace.Workspace.Evaluated gives them): the tool, then each action of
// its evaluated actions/0 map, then their properties, nested through
// "properties" and "items", in map order. A key is listed where it is
// written (another document for a schema read from a Schemas module); a
// key without a source location (computed) is left out, and a value
// shared by several actions is listed once per tool. A tool is named by
// ToolName, or by its module name when name/0 does not evaluate. It stops
// early when ctx ends.
func WorkspaceSymbols(ctx context.Context, tools []*workspace.ToolView) []WorkspaceSymbol {
	var out []WorkspaceSymbol
	for _, tv := range tools {
		if ctx.Err() != nil || len(out) >= maxWorkspaceSymbols {
			return out
		}
		m := tv.Module
		if m == nil {
			continue
		}
		name, known := ToolName(tv.Result)
		if !known {
			name = m.Name // the module is listed under its own name, not a guessed tool name
		}
		out = append(out, WorkspaceSymbol{Name: name, Kind: SymbolModule, Container: m.Name, URI: m.URI, Span: m.NameSpan})
		if tv.Result == nil || !tv.Result.Found || tv.Result.Actions == nil || tv.Result.Actions.Kind != validate.Map {
			continue
		}
		w := &wsWalker{out: out, seen: map[positions.Loc]bool{}}
		for _, e := range tv.Result.Actions.Entries {
			if e.Key == nil || e.Value == nil {
				continue
			}
			act, ok := w.add(e.Key, SymbolAction, name)
			if !ok {
				act = symbolName(e.Key)
			}
			if e.Value.Kind == validate.Map {
				w.properties(e.Value.GetAtom("properties"), name+"."+act, 0)
			}
		}
		out = w.out
	}
	return out
}

// wsWalker collects the symbols of one tool.
type wsWalker struct {
	out  []WorkspaceSymbol
	seen map[positions.Loc]bool
}

// add appends the symbol of key k when its name is written somewhere,
// returning its name.
func (w *wsWalker) add(k *validate.Value, kind SymbolKind, container string) (string, bool) {
	l, ok := locOf(k.Origin)
	if !ok || l.URI == "" || len(w.out) >= maxWorkspaceSymbols {
		return "", false
	}
	name := symbolName(k)
	if w.seen[l] {
		return name, true
	}
	w.seen[l] = true
	w.out = append(w.out, WorkspaceSymbol{Name: name, Kind: kind, Container: container, URI: l.URI, Span: l.Span})
	return name, true
}

// properties adds the entries of a properties map, then those of each
// entry's own "properties" and single-schema "items".
func (w *wsWalker) properties(props *validate.Value, container string, depth int) {
	if props == nil || props.Kind != validate.Map || depth > 64 {
		return
	}
	for _, e := range props.Entries {
		if e.Key == nil || e.Value == nil {
			continue
		}
		name, ok := w.add(e.Key, SymbolProperty, container)
		if !ok {
			name = symbolName(e.Key)
		}
		w.schema(e.Value, container+"."+name, depth+1)
	}
}

func (w *wsWalker) schema(s *validate.Value, container string, depth int) {
	if s == nil || s.Kind != validate.Map || depth > 64 {
		return
	}
	w.properties(s.Get("properties"), container, depth+1)
	if it := s.Get("items"); it != nil && it.Kind == validate.Map {
		w.schema(it, container, depth+1)
	}
}

// symbolName is a key's name as the outline shows it: an atom or string
// key's text, else its inspected form.
func symbolName(k *validate.Value) string {
	if (k.Kind == validate.Atom || k.Kind == validate.String) && !k.Unknown && k.Text != "" {
		return k.Text
	}
	return validate.Inspect(k, 40)
}
