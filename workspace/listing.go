package workspace

import (
	"context"
	"sort"

	"github.com/wymcp/wymcp-ls/listing"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
)

// ListedTool is one tool module as the listing reads it (README.md, "What
// the LLM sees"): the values of its identity callbacks and of actions/0,
// and where they are written.
type ListedTool struct {
	// Tool is what package listing renders.
	Tool listing.Tool
	// URI is the document the module is written in.
	URI string
	// NameSpan is the byte span, in URI, of the value name/0 returns when
	// it is written in the module itself (the hover target); zero when
	// name/0 is not defined or its value is written elsewhere.
	NameSpan positions.Span
	// ActionsSpan is the byte span, in URI, of the actions/0 definition
	// (the code lens target); zero when actions/0 is not defined.
	ActionsSpan positions.Span
	// Offences counts the action-schema offences of actions/0 (wymcp's,
	// severity Error): with one, Wymcp.Router refuses to mount the tool,
	// so its entry is what it would read once fixed.
	Offences int
}

// ListedMount is one place where a router mounts tools; Tools are module
// names in list order.
type ListedMount struct {
	// Module is the router module; URI and Span the mount call.
	Module string
	URI    string
	Span   positions.Span
	Tools  []string
}

// Listing runs Diagnose and returns every tool module of the workspace,
// sorted by module name (then URI), with what the listing reads of each,
// and the mounts that list tools (none are read yet: the router reading
// lands with the tool identity work).
func (w *Workspace) Listing(ctx context.Context) ([]ListedTool, []ListedMount) {
	w.Diagnose(ctx)
	w.mu.Lock()
	ix := w.index
	var mods []*elixir.Module
	roots := map[*elixir.Module]string{}
	for _, ms := range ix {
		for _, m := range ms {
			if m.Tool {
				mods = append(mods, m)
				roots[m] = w.rootOfLocked(m.URI)
			}
		}
	}
	w.mu.Unlock()
	sort.Slice(mods, func(i, j int) bool {
		if mods[i].Name != mods[j].Name {
			return mods[i].Name < mods[j].Name
		}
		return mods[i].URI < mods[j].URI
	})
	out := make([]ListedTool, 0, len(mods))
	for _, m := range mods {
		r := resolver{ix: ix, root: roots[m]}
		lt := listed(ctx, r, m, elixir.Evaluate(ctx, r, m))
		if lt.Tool.Actions != nil {
			lt.Offences = distinct(w.valid.Declaration(lt.Tool.Actions))
		}
		out = append(out, lt)
	}
	return out, nil
}

// Listed returns what the listing reads of tv, a tool of the snapshot.
func (s *Snapshot) Listed(ctx context.Context, tv *ToolView) ListedTool {
	lt := listed(ctx, s.Modules, tv.Module, tv.Result)
	lt.Offences = distinct(tv.Offences)
	return lt
}

// distinct counts the Error offences, one for an offence in a value that
// several actions share (same code, pointer and message), as check does.
func distinct(offs []validate.Offence) int {
	type id struct {
		code, msg string
		ptr       validate.Origin
	}
	seen := map[id]bool{}
	for _, o := range offs {
		if o.Severity == validate.Error {
			seen[id{o.Code, o.Message, o.Pointer}] = true
		}
	}
	return len(seen)
}

// listed reads module m's identity callbacks (name/0, description/0,
// title/0, annotations/0, output_schema/0), evaluated as actions/0 is,
// and whether it defines action_context/2; res is m's evaluated actions/0.
func listed(ctx context.Context, r elixir.Resolver, m *elixir.Module, res *elixir.Result) ListedTool {
	lt := ListedTool{URI: m.URI, Tool: listing.Tool{Module: m.Name}}
	call := func(name string) *validate.Value {
		d := m.Def(name, 0)
		if d == nil || d.Private {
			return nil
		}
		if d.Body == nil {
			return &validate.Value{Kind: validate.Opaque, Origin: positions.Loc{URI: m.URI, Span: d.Span}}
		}
		return elixir.EvaluateExpr(ctx, r, m, d.Body).Actions
	}
	t := &lt.Tool
	t.Name = call("name")
	t.Description = call("description")
	t.Title = call("title")
	t.Annotations = call("annotations")
	t.OutputSchema = call("output_schema")
	t.HasActionContext = m.Def("action_context", 2) != nil
	if t.Name != nil {
		if l, ok := t.Name.Origin.(positions.Loc); ok && l.URI == m.URI && t.Name.Kind == validate.String {
			lt.NameSpan = l.Span
		}
	}
	if res != nil && res.Found {
		t.Actions = res.Actions
		if res.Def != nil {
			lt.ActionsSpan = res.Def.Span
		}
	}
	return lt
}
