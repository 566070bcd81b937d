package elixir

import (
	"slices"
	"strconv"
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

// maxModuleName is the longest module name Elixir can make, in bytes: a
// module is the atom "Elixir." + name, an atom holds at most 255
// characters, and an alias is ASCII. An alias to a longer name fails to
// compile (SystemLimitError); the reader drops it, which also bounds the
// names a chain of aliases (`alias A0.A1` after `alias App.A0` ...) builds.
const maxModuleName = 255 - len("Elixir.")

// aliasFrom records the aliases of an `alias ...` call expression e in mod,
// in effect until scopeEnd; also of `require M, as: A`, which defines the
// alias A as `alias M, as: A` does (Kernel.SpecialForms.require/2).
func aliasFrom(e *Expr, mod *Module, scopeEnd int) {
	if e == nil || e.Kind != ExprCall || e.Base != nil || e.Text != "alias" && e.Text != "require" || len(e.Args) == 0 {
		return
	}
	target := e.Args[0]
	if target.Kind != ExprAlias || e.Text == "require" && (len(target.Args) > 0 || !hasAs(e)) {
		return
	}
	scope := func(s positions.Span) positions.Span { return positions.Span{Start: s.End, End: max(s.End, scopeEnd)} }
	if len(target.Args) > 0 { // alias A.{B, C}
		base := mod.ResolveAlias(target.Text, target.Span.Start)
		for _, a := range target.Args {
			if a.Kind != ExprAlias || len(a.Args) > 0 || len(base)+1+len(a.Text) > maxModuleName {
				continue
			}
			mod.Aliases = append(mod.Aliases, &Alias{
				As: lastSegment(a.Text), Target: base + "." + a.Text, Span: a.Span, Scope: scope(e.Span),
			})
		}
		return
	}
	full := mod.ResolveAlias(target.Text, target.Span.Start)
	if full == "" || len(full) > maxModuleName {
		return // `alias __MODULE__` at the top level (nil), or a name Elixir cannot make
	}
	as := lastSegment(full)
	if len(e.Args) > 1 && e.Args[1].Kind == ExprList {
		for _, p := range e.Args[1].Pairs {
			if p.Key.Kind != ExprAtom || p.Key.Text != "as" || p.Value.Kind != ExprAlias {
				continue
			}
			// A simple alias, also written Elixir.E (Elixir allows no other).
			if v := strings.TrimPrefix(p.Value.Text, "Elixir."); v != "" && !strings.Contains(v, ".") {
				as = v
			}
		}
	}
	mod.Aliases = append(mod.Aliases, &Alias{As: as, Target: full, Span: target.Span, Scope: scope(e.Span)})
}

// hasAs reports whether the call e has an `as:` option.
func hasAs(e *Expr) bool {
	if len(e.Args) > 1 && e.Args[1].Kind == ExprList {
		for _, p := range e.Args[1].Pairs {
			if p.Key.Kind == ExprAtom && p.Key.Text == "as" {
				return true
			}
		}
	}
	return false
}

// lastSegment returns the last dot-separated segment of a module name.
func lastSegment(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// Import is one `import M`, `import M, only: [f: 0]`, `import M, except:
// [...]` or `import M, only: :functions` in effect in a module.
type Import struct {
	// Module is the imported module's full name, resolved through the
	// aliases in effect at the statement.
	Module string
	// Span is the import statement; Scope is where it applies, from its
	// end to the end of the enclosing module or def body.
	Span, Scope positions.Span
	// only and except are the name/arity pairs of `only: [...]` and
	// `except: [...]` ("all/0"); onlyKind is the atom of `only: :functions`
	// (or :macros, :sigils); unreadable marks options the reader cannot
	// read, which leave nothing certain.
	only, except []string
	onlyKind     string
	unreadable   bool
}

// Provides reports whether the import makes the function name/arity of
// its module callable without the module's name (Kernel.SpecialForms.import/2:
// only:, except:, only: :functions | :macros | :sigils), and known false
// when the import's options cannot be read.
func (im *Import) Provides(name string, arity int) (provides, known bool) {
	if im.unreadable {
		return false, false
	}
	na := name + "/" + strconv.Itoa(arity)
	switch im.onlyKind {
	case "functions":
	case "macros":
		return false, true
	case "sigils":
		if !strings.HasPrefix(name, "sigil_") {
			return false, true
		}
	}
	if im.only != nil && !slices.Contains(im.only, na) {
		return false, true
	}
	return !slices.Contains(im.except, na), true
}

// importFrom records the `import M` statement e (with its options) in mod,
// applying from its end to scopeEnd.
func importFrom(e *Expr, mod *Module, scopeEnd int) {
	if im := readImport(e, mod, scopeEnd); im != nil {
		mod.Imports = append(mod.Imports, im)
	}
}

// readImport reads the `import M` statement e written in mod, applying
// from its end to scopeEnd; nil when e is no import of a module name.
func readImport(e *Expr, mod *Module, scopeEnd int) *Import {
	if e == nil || e.Kind != ExprCall || e.Base != nil || e.Text != "import" || len(e.Args) == 0 || len(e.Args) > 2 {
		return nil
	}
	target := e.Args[0]
	if target.Kind != ExprAlias || len(target.Args) > 0 {
		return nil
	}
	im := &Import{
		Module: mod.ResolveAlias(target.Text, target.Span.Start),
		Span:   e.Span,
		Scope:  positions.Span{Start: e.Span.End, End: max(e.Span.End, scopeEnd)},
	}
	if len(e.Args) == 2 {
		opts := e.Args[1]
		if opts.Kind != ExprList || len(opts.Args) > 0 {
			im.unreadable = true
		}
		for _, p := range opts.Pairs {
			if !p.Keyword || p.Key == nil || p.Value == nil {
				im.unreadable = true
				continue
			}
			switch v := p.Value; {
			case p.Key.Text == "only" && v.Kind == ExprAtom && !v.Unknown:
				im.onlyKind = v.Text
			case p.Key.Text == "only" || p.Key.Text == "except":
				pairs, ok := nameArities(v)
				if !ok {
					im.unreadable = true
				} else if p.Key.Text == "only" {
					if pairs == nil {
						pairs = []string{} // only: [] imports nothing: non-nil
					}
					im.only = pairs
				} else {
					im.except = pairs
				}
			case p.Key.Text == "warn":
			default:
				im.unreadable = true
			}
		}
	}
	return im
}

// QuotedImports returns the imports a wrapper module w injects into the
// modules that `use` it: the `import M` statements written inside a
// `quote do ... end` of its defmacro __using__/1, M resolved through w's
// aliases (a quote expands aliases where it is written). Their Scope is
// empty: it is the using module's, from its `use` (see ImportedDef).
func QuotedImports(w *Module) []*Import {
	if w == nil {
		return nil
	}
	var out []*Import
	quotedStatements(w, func(st *Expr) {
		if im := readImport(st, w, 0); im != nil {
			im.Scope = positions.Span{}
			out = append(out, im)
		}
	})
	return out
}

// QuotedAliases returns the aliases a wrapper module w writes inside a
// `quote do ... end` of its defmacro __using__/1, which Elixir defines in
// each module that `use`s w (as Phoenix's `use MyAppWeb, :controller`
// aliases its helpers), their targets expanded through w's aliases as
// the quote expands them; Scope is unset. An alias of `__MODULE__...`,
// which names the module using w, is left out.
func QuotedAliases(w *Module) []*Alias {
	if w == nil {
		return nil
	}
	scratch := &Module{Name: w.Name, URI: w.URI, Parent: w.Parent, Aliases: slices.Clone(w.Aliases), file: w.file}
	n := len(scratch.Aliases)
	quotedStatements(w, func(st *Expr) {
		if st.Kind == ExprCall && st.Base == nil && st.Text == "alias" && len(st.Args) > 0 &&
			st.Args[0].Kind == ExprAlias && !strings.HasPrefix(st.Args[0].Text, "__MODULE__") {
			aliasFrom(st, scratch, w.Span.End)
		}
	})
	out := scratch.Aliases[n:]
	for _, a := range out {
		a.Scope = positions.Span{}
	}
	return out
}

// nameArities reads a keyword list of function names and arities
// ([all: 0, get: 1]) as "all/0", "get/1"; ok is false for anything else.
func nameArities(e *Expr) ([]string, bool) {
	if e.Kind != ExprList || len(e.Args) > 0 || e.Base != nil {
		return nil, false
	}
	var out []string
	for _, p := range e.Pairs {
		if !p.Keyword || p.Key == nil || p.Key.Unknown || p.Value == nil || p.Value.Kind != ExprInteger {
			return nil, false
		}
		n, err := strconv.Atoi(strings.ReplaceAll(p.Value.Text, "_", ""))
		if err != nil {
			return nil, false
		}
		out = append(out, p.Key.Text+"/"+strconv.Itoa(n))
	}
	return out, true
}

// ImportedDef returns the public function name/arity that a local call
// written at byte offset pos in m reaches through the imports in effect
// there (in m and its enclosing modules), with its module, looked up
// through module (nil for a module it cannot find). It returns nil when no
// import provides it, when one that might cannot be read or its module
// found (nothing is certain), and when two modules provide it (Elixir
// refuses the call as ambiguous).
//
// Imports a `use W` injects count too: quoted returns them for the
// module named W (QuotedImports of it, nil when the workspace does not
// define it, without making it a module read: most `use` targets,
// Wymcp.Tool or a library's, are outside the workspace); a nil quoted
// leaves them out.
func ImportedDef(m *Module, name string, arity, pos int, module func(string) *Module, quoted func(string) []*Import) (*Module, *Def) {
	var in []*Import // the imports in effect at pos
	for mod := m; mod != nil; mod = mod.Parent {
		imports := mod.Imports
		if mod.Parent == nil && mod.file != nil { // the top level's, before the defmodule
			imports = append(slices.Clip(imports), mod.file.imports...)
		}
		for _, im := range imports {
			if pos >= im.Scope.Start && pos <= im.Scope.End {
				in = append(in, im)
			}
		}
		// `use W` before pos: the imports W's __using__ quotes are
		// written there (a wrapper the workspace does not define
		// injects nothing the reader can know).
		for _, c := range mod.Calls {
			if quoted == nil {
				break
			}
			if c.Kind != ExprCall || c.Base != nil || c.Text != "use" || len(c.Args) == 0 || c.Args[0].Kind != ExprAlias || c.Span.End > pos {
				continue
			}
			for _, qi := range quoted(mod.ResolveAlias(c.Args[0].Text, c.Args[0].Span.Start)) {
				q := *qi
				q.Span, q.Scope = c.Span, positions.Span{Start: c.Span.End, End: mod.Span.End}
				in = append(in, &q)
			}
		}
	}
	var found *Module
	var def *Def
	for _, im := range in {
		// A later import of the same module replaces this one
		// (`import M` then `import M, except: [all: 0]`: all/0 is no
		// longer imported from M).
		if slices.ContainsFunc(in, func(x *Import) bool { return x.Module == im.Module && x.Span.Start > im.Span.Start }) {
			continue
		}
		provides, known := im.Provides(name, arity)
		if !known {
			return nil, nil
		}
		if !provides {
			continue
		}
		tm := module(im.Module)
		if tm == nil {
			return nil, nil // it may define name/arity: not known
		}
		d := tm.First(name, arity, (*Def).Public)
		switch {
		case d == nil:
		case found == nil:
			found, def = tm, d
		case found != tm:
			return nil, nil // ambiguous
		}
	}
	return found, def
}
