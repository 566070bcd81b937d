package elixir

import (
	"context"
	"slices"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// This file reads, from the IR, what Wymcp itself reads of a tool and of
// the modules around it (README.md "What counts as a tool module",
// README.md "Tools, routers and hints"): the identity callbacks, the
// wrappers that make a module a tool, the router mounts, the runtime
// registrations, the hints, and the run_action/3 clauses.

// IdentityCallbacks are the zero-arity callbacks whose values Wymcp puts
// into a tool's tools/list entry, in the order Evaluate reads them.
var IdentityCallbacks = []string{"name", "description", "title", "annotations", "output_schema"}

// Callback is one evaluated identity callback of a tool module.
type Callback struct {
	// Def is the public zero-arity definition; Value what it returns
	// (validate.Opaque where it cannot be evaluated: never guessed).
	Def   *Def
	Value *validate.Value
}

// evalCallbacks evaluates the identity callbacks m defines into res: its
// own definitions, else those a wrapper it `use`s defines for it
// (wrapperCallback).
func (ev *evaluator) evalCallbacks(m *Module, res *Result) {
	for _, name := range IdentityCallbacks {
		var cb Callback
		if d := m.First(name, 0, (*Def).Public); d != nil {
			cb = Callback{Def: d, Value: ev.def(m, d, m, d.Span)}
		} else if w, d := ev.wrapperCallback(m, name); d != nil {
			cb = Callback{Def: d, Value: ev.quotedDef(w, d, m)}
		} else {
			continue
		}
		if res.Callbacks == nil {
			res.Callbacks = map[string]Callback{}
		}
		res.Callbacks[name] = cb
	}
	if m.Def("action_context", 2) != nil { // a clause, without collecting them all
		res.HasActionContext = true
	}
}

// wrapperCallback returns the public zero-arity definition named name
// that a module m `use`s (in the workspace) writes in its __using__
// quote (QuotedDefs), with that module: Elixir defines it in m, which
// does not define it itself. The first `use` that gives one wins.
func (ev *evaluator) wrapperCallback(m *Module, name string) (*Module, *Def) {
	for _, u := range Uses(m) {
		var w *Module
		if ev.r != nil {
			w = ev.r.Module(u.Module)
		}
		if w == nil {
			continue
		}
		defs, ok := ev.quotedDefs[w.Name]
		if !ok {
			defs = QuotedDefs(w)
			if ev.quotedDefs == nil {
				ev.quotedDefs = map[string][]*Def{}
			}
			ev.quotedDefs[w.Name] = defs // every callback asks for them
		}
		for _, d := range defs {
			if d.Name == name && d.Public() && d.Takes(0) && d.Body != nil {
				return w, d
			}
		}
	}
	return nil, nil
}

// quotedDef evaluates the definition d that the wrapper w's quote writes
// into module m. Quoted code runs in m: a module attribute, a local call
// or an unquote there names m's, or the macro's arguments, and __MODULE__
// names m, so such a body is opaque; one built of literals and remote calls
// is evaluated in w, whose aliases the quote expands. The wrapper's file is
// a dependency.
func (ev *evaluator) quotedDef(w *Module, d *Def, m *Module) *validate.Value {
	if w.URI != ev.root.URI {
		ev.dep(w.URI)
	}
	local := false
	Walk(d.Body, func(e *Expr) bool {
		switch {
		case e.Kind == ExprAttr, e.Kind == ExprIdent, e.Kind == ExprCall && e.Base == nil:
			local = true
		case e.Kind == ExprAlias && (e.Text == "__MODULE__" || strings.HasPrefix(e.Text, "__MODULE__.")):
			local = true // the module using w, where the quote expands
		}
		return !local
	})
	if local {
		return ev.opaque(w, d.Body.Span)
	}
	return ev.def(w, d, m, d.Span)
}

// QuotedDefs returns the definitions a wrapper module w writes inside a
// `quote do ... end` of its defmacro __using__/1, which Elixir defines in
// each module that `use`s w, read as a module's own definitions are; their
// spans are offsets into w's document.
func QuotedDefs(w *Module) []*Def {
	if w == nil {
		return nil
	}
	scratch := &Module{Name: w.Name, URI: w.URI, Parent: w.Parent}
	sk := &Sketch{}
	quotedStatements(w, func(st *Expr) {
		if st.Kind == ExprCall && st.Base == nil {
			switch st.Text {
			case "def", "defp", "defmacro", "defmacrop":
				sk.def(st, scratch, st.Text)
			}
		}
	})
	return scratch.Defs
}

// MaxWrapperDepth bounds the chain of wrapper modules followed (`use A`
// whose __using__ quotes `use B` whose __using__ quotes `use Wymcp.Tool`).
const MaxWrapperDepth = 8

// QuotedUses returns the module names a wrapper module m injects into the
// modules that `use` it: the targets of `use X` and `@behaviour X` written
// inside a `quote do ... end` of m's defmacro __using__/1, resolved through
// m's aliases. Each name is paired with the statement's span.
func QuotedUses(m *Module) []Ref {
	var out []Ref
	quotedStatements(m, func(st *Expr) {
		if r, ok := usedModule(m, st); ok {
			out = append(out, r)
		}
	})
	return out
}

// QuotedAttrWrites returns the names of the attributes a wrapper module w
// writes inside a `quote do ... end` of its defmacro __using__/1 (`@name
// value`, also inside an `if` there, and Module.put_attribute/3 with a
// literal name; not inside a quoted def), which Elixir writes into each
// module that `use`s w, at the `use`.
func QuotedAttrWrites(w *Module) []string {
	if w == nil {
		return nil
	}
	var out []string
	quotedStatements(w, func(st *Expr) {
		Walk(st, func(x *Expr) bool {
			if x.Kind == ExprCall && x.Base == nil {
				switch x.Text {
				case "def", "defp", "defmacro", "defmacrop", "defmodule":
					return false
				}
			}
			if a := unfollowedWrite(x, w); a != nil && !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
			return true
		})
	})
	return out
}

// writtenByUse reports whether a `use W` of m's body between the
// definition a read of @name at pos would read (or the accumulating
// registration) and pos is of a workspace wrapper W whose __using__
// writes @name (QuotedAttrWrites): Elixir reads W's value there, which the
// reader does not follow, so the read is opaque. Each wrapper consulted
// is a dependency of the evaluation.
func (ev *evaluator) writtenByUse(m *Module, name string, pos int) bool {
	from := -1
	if a := m.AttrAt(name, pos); a != nil {
		from = a.Span.End
	}
	if r := m.RegistrationAt(name, pos); r != nil {
		from = max(from, r.Span.End)
	}
	if from < 0 || ev.r == nil {
		return false // no definition: opaque already
	}
	for _, u := range Uses(m) {
		if u.Span.Start < from || u.Span.End > pos {
			continue
		}
		w := ev.r.Module(u.Module)
		if w == nil {
			continue
		}
		names, ok := ev.quotedAttrs[w.Name]
		if !ok {
			names = QuotedAttrWrites(w)
			if ev.quotedAttrs == nil {
				ev.quotedAttrs = map[string][]string{}
			}
			ev.quotedAttrs[w.Name] = names
		}
		if w.URI != ev.root.URI {
			ev.dep(w.URI) // an edit there may add or take back the write
		}
		if slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// quotedStatements calls f with each statement written inside a `quote
// do ... end` of m's defmacro __using__/1 (which `use m` calls, and
// whose quote is written into the using module).
func quotedStatements(m *Module, f func(st *Expr)) {
	for _, d := range m.Defs {
		if !d.Macro() || d.Name != "__using__" || !d.Takes(1) || d.Body == nil { // `use W` calls __using__/1
			continue
		}
		Walk(d.Body, func(e *Expr) bool {
			if e.Kind != ExprCall || e.Base != nil || e.Text != "quote" {
				return true
			}
			body := doBody(e)
			if body == nil {
				return false
			}
			stmts := []*Expr{body}
			if body.Kind == ExprBlock {
				stmts = body.Args
			}
			for _, st := range stmts {
				f(st)
			}
			return false
		})
	}
}

// Uses returns the modules m's own body `use`s (`use X` and `use X, opts`),
// resolved through m's aliases, with the statement's span.
func Uses(m *Module) []Ref {
	var out []Ref
	for _, c := range m.Calls {
		if c.Kind == ExprCall && c.Base == nil && c.Text == "use" {
			if r, ok := usedModule(m, c); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// usedModule reads `use X` or `@behaviour X` (statement st of module m).
func usedModule(m *Module, st *Expr) (Ref, bool) {
	switch {
	case st.Kind == ExprCall && st.Base == nil && st.Text == "use" && len(st.Args) > 0:
		a := st.Args[0]
		if a.Kind == ExprAlias && len(a.Args) == 0 {
			return Ref{Module: m.ResolveAlias(a.Text, a.Span.Start), URI: m.URI, Span: st.Span}, true
		}
	case st.Kind == ExprUnary && st.Text == "@" && len(st.Args) == 1:
		c := st.Args[0]
		if c.Kind == ExprCall && c.Base == nil && c.Text == "behaviour" && len(c.Args) == 1 && c.Args[0].Kind == ExprAlias {
			return Ref{Module: m.ResolveAlias(c.Args[0].Text, c.Args[0].Span.Start), URI: m.URI, Span: st.Span}, true
		}
	}
	return Ref{}, false
}

// Ref is a module named somewhere: Module the full name, Span where the
// reference (or the statement holding it) is written in document URI.
type Ref struct {
	Module string
	URI    string
	Span   positions.Span
}

// Bodies returns the expressions of m's own code that run: every def,
// defp and defmacro body and every call statement of the module body.
func Bodies(m *Module) []*Expr {
	var out []*Expr
	for _, d := range m.Defs {
		if d.Body != nil {
			out = append(out, d.Body)
		}
	}
	out = append(out, m.Calls...)
	return out
}

// Mount is one place where a router mounts Wymcp tools: Phoenix.Router's
// `forward "/mcp", Wymcp.Router, tools: [...]` (also with `init_opts:
// [tools: ...]`), Plug.Router's `forward "/mcp", to: Wymcp.Router,
// init_opts: [tools: ...]` (or `tools:` beside `to:`) and its routes
// `post "/mcp", to: Wymcp.Router, init_opts: [tools: ...]`, Plug.Builder's
// `plug Wymcp.Router, tools: [...]`, anywhere in a module body including
// scope blocks, or `use Wymcp.Router, tools: [...]`.
type Mount struct {
	// Module is the module the mount is written in; Span the whole
	// forward/use call.
	Module *Module
	Span   positions.Span
	// Tools is the value of the tools: option, nil when the call gives none.
	Tools *Expr
}

// Mounts returns every mount written in m's body, in source order.
func Mounts(m *Module) []Mount {
	var out []Mount
	for _, c := range m.Calls {
		Walk(c, func(e *Expr) bool {
			if e.Kind != ExprCall || e.Base != nil {
				return true
			}
			switch e.Text {
			case "forward":
				switch {
				case len(e.Args) >= 2 && isModule(m, e.Args[1], "Wymcp.Router"): // Phoenix.Router
					// forward(path, plug, plug_opts, router_opts): the plug's
					// options are the third argument, not the router's last.
					out = append(out, Mount{Module: m, Span: e.Span, Tools: toolsOption(e.Args[2:min(3, len(e.Args))])})
				case len(e.Args) == 2 && e.Args[1].Kind == ExprList && isModule(m, keyword(e.Args[1], "to"), "Wymcp.Router"): // Plug.Router
					out = append(out, Mount{Module: m, Span: e.Span, Tools: plugToolsOption(e.Args[1])})
				}
				return false
			case "get", "post", "put", "patch", "delete", "options", "head", "match":
				// Plug.Router's `post "/mcp", to: Wymcp.Router, init_opts:
				// [...]`: Plug calls Wymcp.Router.init/1 on init_opts: alone
				// (default []), unlike forward, and a do: body or do-block
				// takes the place of to: (Plug.Router.match/3).
				if len(e.Args) == 2 && e.Args[1].Kind == ExprList && keyword(e.Args[1], "do") == nil && isModule(m, keyword(e.Args[1], "to"), "Wymcp.Router") {
					var tools *Expr
					if keyword(e.Args[1], "init_opts") != nil {
						tools = plugToolsOption(e.Args[1])
					}
					out = append(out, Mount{Module: m, Span: e.Span, Tools: tools})
					return false
				}
			case "use":
				if len(e.Args) >= 1 && isModule(m, e.Args[0], "Wymcp.Router") {
					out = append(out, Mount{Module: m, Span: e.Span, Tools: toolsOption(e.Args[1:])})
				}
				return false
			case "plug":
				// Plug.Builder's (and a Phoenix endpoint's) `plug
				// Wymcp.Router, tools: [...]`: the options go to
				// Wymcp.Router.init/1 as written.
				if len(e.Args) >= 1 && len(e.Args) <= 2 && isModule(m, e.Args[0], "Wymcp.Router") {
					var tools *Expr
					if len(e.Args) == 2 && e.Args[1].Kind == ExprList {
						tools = keyword(e.Args[1], "tools")
					}
					out = append(out, Mount{Module: m, Span: e.Span, Tools: tools})
					return false
				}
			}
			return true
		})
	}
	return out
}

// isModule reports whether e is a module reference naming full in m.
func isModule(m *Module, e *Expr, full string) bool {
	return e != nil && e.Kind == ExprAlias && len(e.Args) == 0 && m.ResolveAlias(e.Text, e.Span.Start) == full
}

// toolsOption finds `tools: v` or `init_opts: [tools: v]` in the trailing
// keyword list of args.
func toolsOption(args []*Expr) *Expr {
	if len(args) == 0 {
		return nil
	}
	kw := args[len(args)-1]
	if kw.Kind != ExprList {
		return nil
	}
	if v := keyword(kw, "tools"); v != nil {
		return v
	}
	if io := keyword(kw, "init_opts"); io != nil && io.Kind == ExprList {
		return keyword(io, "tools")
	}
	return nil
}

// plugToolsOption finds the tools: option of Plug.Router's `forward
// "/mcp", to: Wymcp.Router, ...`, whose keyword list is kw: Plug hands the
// plug its init_opts: when they are given, else the options other than
// :to, :via, :host, :private and :assigns (Plug.Router.forward/2).
func plugToolsOption(kw *Expr) *Expr {
	if io := keyword(kw, "init_opts"); io != nil {
		if io.Kind != ExprList {
			return nil
		}
		return keyword(io, "tools")
	}
	return keyword(kw, "tools")
}

// keyword returns the value of the keyword `key:` of the list or map e, or nil.
func keyword(e *Expr, key string) *Expr {
	if e == nil {
		return nil
	}
	for _, p := range e.Pairs {
		if p.Key != nil && p.Key.Kind == ExprAtom && !p.Key.Unknown && p.Key.Text == key {
			return p.Value
		}
	}
	return nil
}

// ToolList reads a mount's tools list, written in module m: a literal list
// of module names, a module attribute holding one, or a zero-arity local
// or remote call returning one (through r), followed to a bounded depth.
// It returns the module references in list order, each with the span of
// the entry as written, and complete=false when some part of the list is
// not readable (an opaque element, a `++` with an unknown operand).
func ToolList(r Resolver, m *Module, e *Expr) (refs []Ref, complete bool) {
	complete = true
	var read func(m *Module, e *Expr, depth int)
	read = func(m *Module, e *Expr, depth int) {
		if e == nil || depth > maxChain {
			complete = false
			return
		}
		switch e.Kind {
		case ExprList:
			for _, a := range e.Args {
				if a.Kind == ExprAlias && len(a.Args) == 0 {
					refs = append(refs, Ref{Module: m.ResolveAlias(a.Text, a.Span.Start), URI: m.URI, Span: a.Span})
				} else {
					complete = false
				}
			}
			if len(e.Pairs) > 0 || e.Base != nil || len(e.Errs()) > 0 {
				complete = false
			}
		case ExprBinary:
			if e.Text == "++" && len(e.Args) == 2 {
				read(m, e.Args[0], depth+1)
				read(m, e.Args[1], depth+1)
				return
			}
			complete = false
		case ExprAttr:
			if a := m.AttrAt(e.Text, e.Span.Start); a != nil && m.AttrKnown(e.Text, e.Span.Start) {
				read(m, a.Value, depth+1)
				return
			}
			complete = false
		case ExprIdent:
			if d := m.Def(e.Text, 0); d != nil && d.Body != nil {
				read(m, blockValue(d.Body), depth+1)
				return
			}
			complete = false
		case ExprCall:
			if len(e.Args) != 0 {
				complete = false
				return
			}
			if e.Base == nil {
				if d := m.Def(e.Text, 0); d != nil && d.Body != nil {
					read(m, blockValue(d.Body), depth+1)
					return
				}
				if r != nil { // `import App.MCP` then `tools: tools()`
					if tm, d := ImportedDef(m, e.Text, 0, e.Span.Start, r.Module, nil); d != nil && d.Body != nil {
						read(tm, blockValue(d.Body), depth+1)
						return
					}
				}
				complete = false
				return
			}
			if e.Base.Kind == ExprAlias && r != nil {
				if tm := r.Module(m.ResolveAlias(e.Base.Text, e.Base.Span.Start)); tm != nil {
					for _, d := range tm.Defs {
						if d.Name == e.Text && d.Takes(0) && !d.Private && d.Body != nil {
							read(tm, blockValue(d.Body), depth+1)
							return
						}
					}
				}
			}
			complete = false
		default:
			complete = false
		}
	}
	read(m, e, 0)
	return refs, complete
}

// blockValue is the value expression of a body: the last statement of a
// block, or the body itself.
func blockValue(e *Expr) *Expr {
	if e != nil && e.Kind == ExprBlock {
		if len(e.Args) == 0 || len(e.Errs()) > 0 {
			return nil
		}
		return e.Args[len(e.Args)-1]
	}
	return e
}

// Registrations returns the `Wymcp.Session.register_tool(pid, Module)`
// calls written in m's code whose module argument is a literal module
// name: the named module, with the span of that argument.
func Registrations(m *Module) []Ref {
	regs, _ := RegistrationsAndHints(m)
	return regs
}

// Hint is one `Wymcp.Hint.new(...)` call or `%Wymcp.Hint{...}` struct
// written in a module's code, with its options as expressions.
type Hint struct {
	// Module is the module it is written in; Span the whole call or map.
	Module *Module
	Span   positions.Span
	// New reports the Hint.new/1 form (which raises on a non-string
	// tool: or action:), as against the struct literal.
	New bool
	// Tool, Action and Example are the values of the tool:, action: and
	// example: options; nil when absent.
	Tool, Action, Example *Expr
}

// Hints returns every hint written in m's code, in source order (inside
// def bodies, including helper modules that `alias Wymcp.Hint`).
func Hints(m *Module) []Hint {
	_, hints := RegistrationsAndHints(m)
	return hints
}

// RegistrationsAndHints is Registrations and Hints in one walk of m's code.
func RegistrationsAndHints(m *Module) (regs []Ref, hints []Hint) {
	for _, b := range Bodies(m) {
		Walk(b, func(e *Expr) bool {
			switch {
			case e.Kind == ExprCall && e.Text == "register_tool" && len(e.Args) == 2 && isModule(m, e.Base, "Wymcp.Session"):
				if a := e.Args[1]; a.Kind == ExprAlias && len(a.Args) == 0 {
					regs = append(regs, Ref{Module: m.ResolveAlias(a.Text, a.Span.Start), URI: m.URI, Span: a.Span})
				}
			case e.Kind == ExprCall && e.Text == "new" && len(e.Args) == 1 && isModule(m, e.Base, "Wymcp.Hint"):
				opts := e.Args[0]
				if opts.Kind == ExprList || opts.Kind == ExprMap && opts.Struct() == "" {
					hints = append(hints, Hint{Module: m, Span: e.Span, New: true,
						Tool: keyword(opts, "tool"), Action: keyword(opts, "action"), Example: keyword(opts, "example")})
				}
			case e.Kind == ExprMap && e.Struct() != "" && e.Base == nil && m.ResolveAlias(e.Struct(), e.Span.Start) == "Wymcp.Hint":
				hints = append(hints, Hint{Module: m, Span: e.Span,
					Tool: keyword(e, "tool"), Action: keyword(e, "action"), Example: keyword(e, "example")})
			}
			return true
		})
	}
	return regs, hints
}

// EvalIn evaluates e written in m, as Evaluate does (attributes, <>,
// zero-arity calls through r); nil for a nil e.
func EvalIn(ctx context.Context, r Resolver, m *Module, e *Expr) *validate.Value {
	if e == nil {
		return nil
	}
	return EvaluateExpr(ctx, r, m, e).Actions
}

// MaxDispatchDepth bounds the delegations followed from run_action/3
// (`def run_action(action, data, ctx), do: Actions.run(action, data)`).
const MaxDispatchDepth = 4

// Dispatch is what the clauses of a tool's run_action/3 accept as action.
type Dispatch struct {
	// Known is false when some clause's first argument is neither a
	// literal atom nor a variable, when run_action/3 is not defined in the
	// module, or when a delegation leads outside the workspace: then
	// nothing is certain and no finding may be made.
	Known bool
	// CatchAll reports a clause whose first argument is a variable or `_`
	// that no guard limits to literal atoms (see Guarded).
	CatchAll bool
	// Atoms are the literal atoms of the clauses, each with its Origin at
	// the atom as written (possibly in another module).
	Atoms []*validate.Value
	// Guarded are the atoms a clause whose first argument is a variable
	// admits by its guard (`when action in [:a, :b]`, `when action == :a`,
	// `or` and several `when`s for a union): such a clause matches those
	// actions only. A guard read no other way makes the clause CatchAll.
	Guarded []*validate.Value
	// Cased are the atoms of the patterns of a `case v do` on the variable
	// v of a clause (`:create -> ...`, also `a when a in [...]`): they name
	// actions as a clause atom does, but what the clause takes is its head's
	// business (a `_ ->` may follow), so they are for navigation and
	// rename, not for the dispatch lints.
	Cased []*validate.Value
	// Modules are the module names looked up through the Resolver, found
	// or not; URIs the documents of the other modules whose clauses were
	// read (a change to either may change the result).
	Modules, URIs []string
}

// DispatchOf reads the run_action/3 clauses of m, following a single
// clause that hands its action variable on as the first argument of a
// workspace function into that function's clauses (through r).
func DispatchOf(r Resolver, m *Module) Dispatch {
	clauses := m.Clauses("run_action", 3)
	if len(clauses) == 0 {
		return Dispatch{}
	}
	var looked, uris []string
	d := dispatchClauses(r, m, clauses, 0, &looked, &uris)
	d.Modules, d.URIs = looked, uris
	return d
}

func dispatchClauses(r Resolver, m *Module, clauses []*Def, depth int, looked, uris *[]string) Dispatch {
	if len(clauses) == 1 && depth < MaxDispatchDepth {
		if tm, target, ok := delegation(r, m, clauses[0], looked, uris); ok {
			if target == nil {
				return Dispatch{} // hands on to a function the workspace does not define
			}
			return dispatchClauses(r, tm, target, depth+1, looked, uris)
		}
	}
	d := Dispatch{Known: true}
	for _, c := range clauses {
		if len(c.Params) == 0 {
			return Dispatch{}
		}
		p := c.Params[0]
		switch {
		case p.Kind == ExprAtom && !p.Unknown && p.Text != "true" && p.Text != "false" && p.Text != "nil":
			d.Atoms = append(d.Atoms, guardAtom{p.Text, p.Span}.value(m))
		case p.Kind == ExprIdent:
			for _, a := range caseAtoms(c.Body, p.Text) {
				d.Cased = append(d.Cased, a.value(m))
			}
			if atoms, ok := guardAtoms(c.Guard, p.Text); ok && p.Text != "_" {
				for _, a := range atoms {
					d.Guarded = append(d.Guarded, a.value(m))
				}
				continue
			}
			d.CatchAll = true
		default:
			return Dispatch{}
		}
	}
	return d
}

// caseAtoms returns the atoms of the clause patterns of every `case v do`
// in body: a literal atom pattern, and the atoms a guard admits for a
// variable pattern (`a when a in [:x, :y]`, see guardAtoms).
func caseAtoms(body *Expr, v string) []guardAtom {
	var out []guardAtom
	Walk(body, func(e *Expr) bool {
		if e.Kind != ExprCall || e.Base != nil || e.Text != "case" || len(e.Args) != 2 ||
			e.Args[0].Kind != ExprIdent || e.Args[0].Text != v || e.Args[1].Kind != ExprBlock {
			return true
		}
		for _, cl := range e.Args[1].Args {
			if cl.Kind != ExprBinary || cl.Text != "->" || len(cl.Args) != 2 {
				continue
			}
			switch pat := cl.Args[0]; {
			case pat.Kind == ExprAtom && !pat.Unknown && pat.Text != "true" && pat.Text != "false" && pat.Text != "nil":
				out = append(out, guardAtom{text: pat.Text, span: pat.Span})
			case pat.Kind == ExprBinary && pat.Text == "when" && len(pat.Args) == 2 && pat.Args[0].Kind == ExprIdent:
				if atoms, ok := guardAtoms(pat.Args[1], pat.Args[0].Text); ok {
					out = append(out, atoms...)
				}
			}
		}
		return true
	})
	return out
}

// guardAtom is an atom a clause names (its argument, a guard, a case
// pattern), with the span it is written at.
type guardAtom struct {
	text string
	span positions.Span
}

// value returns a as the atom Value Dispatch holds, its Origin where a is
// written in m.
func (a guardAtom) value(m *Module) *validate.Value {
	return &validate.Value{Kind: validate.Atom, Text: a.text, Origin: positions.OriginOf(loc(m, a.span))}
}

// guardAtoms returns the atoms guard g admits for the variable v when g
// limits v to literal atoms: `v in [:a, :b]`, `v in ~w(a b)a`, `v == :a`
// or `:a == v` (also ===), and the union of such guards joined by `or` or
// `when` (Elixir: a clause with several guards matches when one of them
// holds), in parentheses or not; for `and`, the atoms of its sides that
// are read so (a superset of what it admits). ok is false for a nil g and
// for any other guard: what it admits is not known.
func guardAtoms(g *Expr, v string) (atoms []guardAtom, ok bool) {
	if g == nil {
		return nil, false
	}
	if g.Kind == ExprBlock && len(g.Args) == 1 {
		return guardAtoms(g.Args[0], v)
	}
	if g.Kind != ExprBinary || len(g.Args) != 2 {
		return nil, false
	}
	l, r := g.Args[0], g.Args[1]
	isVar := func(e *Expr) bool { return e != nil && e.Kind == ExprIdent && e.Text == v }
	atom := func(e *Expr) (guardAtom, bool) {
		if e == nil || e.Kind != ExprAtom || e.Unknown || e.Text == "true" || e.Text == "false" || e.Text == "nil" {
			return guardAtom{}, false
		}
		return guardAtom{text: e.Text, span: e.Span}, true
	}
	switch g.Text {
	case "or", "when":
		a, okA := guardAtoms(l, v)
		b, okB := guardAtoms(r, v)
		return append(a, b...), okA && okB
	case "and":
		a, okA := guardAtoms(l, v)
		b, okB := guardAtoms(r, v)
		return append(a, b...), okA || okB
	case "==", "===":
		if isVar(r) {
			l, r = r, l
		}
		if a, ok := atom(r); ok && isVar(l) {
			return []guardAtom{a}, true
		}
	case "in":
		if !isVar(l) {
			return nil, false
		}
		switch {
		case r.Kind == ExprList && r.Base == nil && len(r.Pairs) == 0 && len(r.Errs()) == 0:
			for _, e := range r.Args {
				a, ok := atom(e)
				if !ok {
					return nil, false
				}
				atoms = append(atoms, a)
			}
			return atoms, true
		case r.Kind == ExprWords && r.Text == "a" && !r.Unknown:
			for _, w := range r.Words() {
				atoms = append(atoms, guardAtom{text: w.Text, span: w.Span})
			}
			return atoms, true
		}
	}
	return nil, false
}

// subjectForms are the special forms and Kernel macros whose first
// argument is a subject, not an argument handed on: a body `case action
// do ... end` is not a delegation to a function case/2.
var subjectForms = map[string]bool{"case": true, "if": true, "unless": true, "with": true, "for": true, "receive": true, "try": true, "cond": true}

// delegation recognises `def f(action, ...), do: g(action, ...)` (the
// body's value a call whose first argument is the clause's first
// parameter variable) and returns g's module and clauses of that arity,
// or nil when the call target is not a workspace function; ok reports
// that the clause is such a delegation at all. The documents of the other
// modules consulted go to uris, whether they define the target or not: an
// edit there that adds it changes the dispatch.
func delegation(r Resolver, m *Module, c *Def, looked, uris *[]string) (*Module, []*Def, bool) {
	if len(c.Params) == 0 || c.Params[0].Kind != ExprIdent || c.Params[0].Text == "" || c.Params[0].Text[0] == '_' {
		return nil, nil, false
	}
	v := c.Params[0].Text
	call := blockValue(c.Body)
	if call == nil || call.Kind != ExprCall || len(call.Args) == 0 {
		return nil, nil, false
	}
	if a := call.Args[0]; a.Kind != ExprIdent || a.Text != v {
		return nil, nil, false
	}
	if call.Base == nil && subjectForms[call.Text] {
		return nil, nil, false // `case action do ... end`: the clause itself dispatches
	}
	arity := len(call.Args)
	if call.Base == nil {
		if cs := m.Clauses(call.Text, arity); len(cs) > 0 {
			return m, cs, true
		}
		if r != nil { // a function an import brings in
			lookup := func(name string) *Module {
				*looked = append(*looked, name)
				tm := r.Module(name)
				if tm != nil && tm != m {
					*uris = append(*uris, tm.URI)
				}
				return tm
			}
			if tm, _ := ImportedDef(m, call.Text, arity, call.Span.Start, lookup, nil); tm != nil {
				var cs []*Def
				for _, d := range tm.Clauses(call.Text, arity) {
					if d.Public() {
						cs = append(cs, d)
					}
				}
				return tm, cs, true
			}
		}
		return nil, nil, true
	}
	if call.Base.Kind != ExprAlias || r == nil {
		return nil, nil, true
	}
	name := m.ResolveAlias(call.Base.Text, call.Base.Span.Start)
	*looked = append(*looked, name)
	tm := r.Module(name)
	if tm == nil {
		return nil, nil, true
	}
	if tm != m {
		*uris = append(*uris, tm.URI)
	}
	var cs []*Def
	for _, d := range tm.Clauses(call.Text, arity) {
		if !d.Private {
			cs = append(cs, d)
		}
	}
	if len(cs) == 0 {
		return nil, nil, true
	}
	return tm, cs, true
}
