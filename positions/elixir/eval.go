package elixir

import (
	"cmp"
	"context"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// Resolver finds a module by its full name ("App.Tools.Schemas", without
// "Elixir.") anywhere in the workspace; it returns nil when the name is
// unknown. Evaluate calls it from one goroutine; it may be called many
// times with the same name.
type Resolver interface {
	Module(name string) *Module
}

// Result is the outcome of evaluating a tool module's actions/0.
type Result struct {
	// Actions is the evaluated value of actions/0; nil when Found is false.
	Actions *validate.Value
	// Found reports that the module defines a public actions/0.
	Found bool
	// Def is the actions/0 definition (nil when Found is false).
	Def *Def
	// Deps are the URIs of the other files whose modules were read,
	// deduplicated and sorted.
	Deps []string
	// Modules are the full names of every module looked up through the
	// Resolver, found or not, deduplicated and sorted: a change to a file
	// defining one of them may change the result.
	Modules []string
	// Errors are the syntax errors (ERROR nodes, missing tokens) met inside
	// the evaluated code, each in the file it sits in; the value there is
	// opaque. Sorted by URI then position, deduplicated.
	Errors []SyntaxError
	// Callbacks are the identity callbacks the module defines (name/0,
	// description/0, title/0, annotations/0, output_schema/0: see
	// IdentityCallbacks), by name, evaluated like actions/0; a callback the
	// module does not define is absent. Set by Evaluate only.
	Callbacks map[string]Callback
	// HasActionContext reports a def of action_context/2 (help's
	// "context", README.md "What the LLM sees").
	HasActionContext bool
}

// Evaluation bounds: past them a value is opaque (docs/architecture.md "The Elixir reader": cycles and
// deep chains end as opaque, never as a hang).
const (
	// maxChain bounds nested attribute and function indirections.
	maxChain = 64
	// maxEvalDepth bounds the evaluator's recursion.
	maxEvalDepth = 2000
	// maxSteps bounds the expressions evaluated in one Evaluate.
	maxSteps = 4_000_000
	// maxElems bounds the size of one list or map built by ++ or Map calls.
	maxElems = 1_000_000
)

// Evaluate evaluates m's public actions/0 (docs/architecture.md "The Elixir reader",
// "What evaluates"), following attributes, local and remote zero-arity
// calls (through r) and the pure Map functions. Every value it returns
// carries a positions.Loc Origin where the value is written; a value shared
// through an attribute or a function is the same *validate.Value each
// time it is used, so it must not be modified. Anything else is
// validate.Opaque with the span of the expression. It never panics or
// hangs; when ctx is done, what is left becomes opaque.
func Evaluate(ctx context.Context, r Resolver, m *Module) *Result {
	res := &Result{}
	if m == nil {
		return res
	}
	ev := newEvaluator(ctx, r, m)
	ev.evalCallbacks(m, res)
	if d := m.Actions(); d != nil {
		res.Found, res.Def = true, d
		res.Actions = ev.def(m, d, m, d.Span)
	}
	ev.finish(res)
	return res
}

// EvaluateExpr evaluates the expression e, written in module m, as
// Evaluate does; the Result's Actions holds its value and Found is false.
// Hover uses it for `@attr` and `Schemas.all()`.
func EvaluateExpr(ctx context.Context, r Resolver, m *Module, e *Expr) *Result {
	res := &Result{}
	if m == nil || e == nil {
		return res
	}
	ev := newEvaluator(ctx, r, m)
	res.Actions = ev.eval(m, e)
	ev.finish(res)
	return res
}

type evaluator struct {
	ctx  context.Context
	r    Resolver
	root *Module
	// key is the interned key of the document keyURI, the last one origin
	// built an Origin in, for the module keyMod.
	key    validate.DocKey
	keyURI string
	keyMod *Module
	// deps, looked, errSeen and memo are made on their first use (most
	// evaluations have no other module, and no error).
	deps   map[string]struct{}
	looked map[string]*Module
	// quoted are the imports each `use`d module's __using__ quotes, by
	// name (ImportedDef), read once per evaluation.
	quoted map[string][]*Import
	// quotedDefs are the definitions each `use`d module's __using__
	// quotes (QuotedDefs), by module name, read once per evaluation.
	quotedDefs map[string][]*Def
	// quotedAliases are the aliases each `use`d module's __using__
	// quotes (QuotedAliases), by module name, read once per evaluation.
	quotedAliases map[string][]*Alias
	// quotedAttrs are the attributes each `use`d module's __using__
	// writes (QuotedAttrWrites), by module name, read once per evaluation.
	quotedAttrs map[string][]string
	errs        []SyntaxError
	errSeen     map[positions.Loc]struct{}
	// memo holds the value of each attribute and function definition
	// evaluated, and nil for one being evaluated (a use of it then is a
	// cycle).
	memo map[any]*validate.Value
	// vars are the variables in scope where an expression is evaluated,
	// by name: the parameters of the function whose body it is, each with
	// its default, which a zero-arity call binds (Elixir defines f/0 as
	// f(default, ...)), and the names an earlier statement of the block
	// matches, with a nil Expr (opaque: the reader does not follow a
	// match). A variable is never the zero-arity function of its name.
	// nil for an attribute's value or a function without parameters.
	vars      map[string]*Expr
	chain     int
	depth     int
	steps     int
	cancelled bool
	// vals, elemLists and entryLists hold the values, element lists and
	// map entries of the evaluation (one allocation for many).
	vals       slab[validate.Value]
	elemLists  slab[*validate.Value]
	entryLists slab[validate.Entry]
}

// newValue returns a zeroed Value from the evaluator's slab: one
// allocation for many values instead of one per value (the values of an
// analysis live as long as its result anyway). It is vals.one with its
// common case (room left in the last allocation) written out for
// validate.Value, which costs a third of the generic method's call.
func (ev *evaluator) newValue() *validate.Value {
	s := &ev.vals
	if s.used < len(s.buf) {
		x := &s.buf[s.used]
		s.used++
		return x
	}
	return s.one()
}

// scalar returns a new value of kind k (a string, charlist, atom, number,
// boolean or nil) with text t, whose Origin is o: Bool is set for the
// Boolean "true", Unknown as given. Only the fields a scalar has are
// written into the slab's zeroed memory, the text only when set: a
// whole-struct copy runs the garbage collector's bulk write barrier over
// every pointer word of the value whenever a collection is under way (see
// cparser.node). TestValuesWriteTheirFields checks them.
func (ev *evaluator) scalar(k validate.Kind, t string, unknown bool, o validate.Origin) *validate.Value {
	x := ev.newValue()
	x.Kind, x.Unknown = k, unknown
	if k == validate.Boolean {
		x.Bool = t == "true"
	}
	if t != "" {
		x.Text = t
	}
	x.Origin = o
	return x
}

// leaf is scalar for the string or integer e of module m (k its kind),
// with e's text and an Origin at e's span: the values most made, with
// newValue's and origin's common cases written out (one call, not three).
func (ev *evaluator) leaf(k validate.Kind, m *Module, e *Expr, unknown bool) *validate.Value {
	var x *validate.Value
	if s := &ev.vals; s.used < len(s.buf) {
		x = &s.buf[s.used]
		s.used++
	} else {
		x = s.one()
	}
	x.Kind, x.Unknown = k, unknown
	if e.Text != "" {
		x.Text = e.Text
	}
	x.Origin = ev.keyOf(m).Origin32(int32(e.Span.Start), int32(e.Span.End))
	return x
}

// node returns a new map, list or tuple value with no entries or elements
// yet, whose Origin is o (and, for a map, whose Open is the first open
// bytes of o; 0 for none).
func (ev *evaluator) node(k validate.Kind, partial bool, o validate.Origin, open int) *validate.Value {
	x := ev.newValue()
	x.Kind, x.Partial = k, partial
	x.Origin = o
	if open > 0 {
		x.SetOpen(open)
	}
	return x
}

// elems returns a slice of length n for the elements of a list or tuple,
// from a slab (nil for n == 0), to be filled by index: the literal's
// element count is known before its elements are evaluated.
func (ev *evaluator) elems(n int) []*validate.Value {
	if n == 0 {
		return nil
	}
	return ev.elemLists.take(n)
}

// entries is elems for the entries of a map literal: an empty slice, not
// nil, for n == 0 (a literal `%{}` has no entries, but has them).
func (ev *evaluator) entries(n int) []validate.Entry {
	if n == 0 {
		return []validate.Entry{}
	}
	return ev.entryLists.take(n)
}

func newEvaluator(ctx context.Context, r Resolver, root *Module) *evaluator {
	ev := &evaluator{ctx: ctx, r: r, root: root}
	// Small first allocations: most evaluations of an attribute, a hint
	// or a callback make a few values (a 2 KiB first chunk of each slab,
	// the default, was mostly zeroed and never used); a large evaluation
	// reaches full-size chunks after a few more doublings.
	ev.vals.first, ev.elemLists.first, ev.entryLists.first = 4, 8, 8
	// At most one value for every ten bytes of the module, one element or
	// entry for every twenty (the generated tool's actions/0: 11 and 23).
	if n := root.Span.End - root.Span.Start; n > 0 {
		ev.vals.expect(n / 10)
		ev.elemLists.expect(n / 20)
		ev.entryLists.expect(n / 20)
	}
	return ev
}

func (ev *evaluator) finish(res *Result) {
	if len(ev.deps) > 0 { // nil when there is none
		res.Deps = make([]string, 0, len(ev.deps))
		for u := range ev.deps {
			res.Deps = append(res.Deps, u)
		}
		slices.Sort(res.Deps)
	}
	if len(ev.looked) > 0 {
		res.Modules = make([]string, 0, len(ev.looked))
		for name := range ev.looked {
			res.Modules = append(res.Modules, name)
		}
		slices.Sort(res.Modules)
	}
	slices.SortStableFunc(ev.errs, func(a, b SyntaxError) int {
		return cmp.Or(strings.Compare(a.URI, b.URI), cmp.Compare(a.Span.Start, b.Span.Start), cmp.Compare(a.Span.End, b.Span.End))
	})
	res.Errors = ev.errs
}

func loc(m *Module, s positions.Span) positions.Loc { return positions.Loc{URI: m.URI, Span: s} }

// origin returns the positions.Loc of span s in module m as a
// validate.Origin (positions.OriginOf: a plain value, no allocation).
func (ev *evaluator) origin(m *Module, s positions.Span) validate.Origin {
	// The reader's offsets fit int32 (maxLexBytes): positions.OriginIn
	// without its clamp, as the many values of one evaluation take it.
	return ev.keyOf(m).Origin32(int32(s.Start), int32(s.End))
}

// keyOf returns the interned key of m's document (small enough to be
// inlined where values are made).
func (ev *evaluator) keyOf(m *Module) validate.DocKey {
	if m != ev.keyMod {
		ev.rekey(m)
	}
	return ev.key
}

// rekey makes ev.key the interned key of m's document.
func (ev *evaluator) rekey(m *Module) {
	if m.URI != ev.keyURI || ev.keyURI == "" {
		ev.key, ev.keyURI = positions.DocKeyOf(m.URI), m.URI
	}
	ev.keyMod = m
}

func (ev *evaluator) opaque(m *Module, s positions.Span) *validate.Value {
	x := ev.newValue()
	x.Origin = ev.origin(m, s)
	return x
}

// recordErr records the syntax error e; an error without a message is a
// recovery point of the reader that the syntax check does not report
// (it still makes the value around it partial).
func (ev *evaluator) recordErr(m *Module, e *Expr) {
	if e.Text == "" {
		return
	}
	l := loc(m, e.Span)
	if _, ok := ev.errSeen[l]; ok {
		return
	}
	if ev.errSeen == nil {
		ev.errSeen = map[positions.Loc]struct{}{}
	}
	ev.errSeen[l] = struct{}{}
	ev.errs = append(ev.errs, SyntaxError{URI: m.URI, Span: e.Span, Message: e.Text})
}

// module looks a module up through the Resolver, once per name.
func (ev *evaluator) module(name string) *Module {
	if m, ok := ev.looked[name]; ok {
		return m
	}
	var m *Module
	if ev.r != nil {
		m = ev.r.Module(name)
	}
	if ev.looked == nil {
		ev.looked = map[string]*Module{}
	}
	ev.looked[name] = m
	return m
}

// eval evaluates e, written in module m.
func (ev *evaluator) eval(m *Module, e *Expr) *validate.Value {
	ev.steps++
	if ev.steps&1023 == 0 && ev.ctx.Err() != nil {
		ev.cancelled = true
	}
	for _, x := range e.Errs() {
		ev.recordErr(m, x)
	}
	if ev.cancelled || ev.steps > maxSteps || ev.depth > maxEvalDepth {
		return ev.opaque(m, e.Span)
	}
	// The most common kinds are read here, as evalKind reads them, one
	// call fewer for each: strings, integers and atoms, which read no
	// depth, and maps and lists, one stack frame fewer for each nesting
	// level.
	var v *validate.Value
	switch e.Kind {
	case ExprString:
		return ev.leaf(validate.String, m, e, e.Unknown)
	case ExprInteger:
		return ev.leaf(validate.Integer, m, e, false)
	case ExprAtom:
		if !e.Unknown && e.Text != "true" && e.Text != "false" && e.Text != "nil" { // as evalKind reads them
			return ev.leaf(validate.Atom, m, e, false)
		}
		ev.depth++
		v = ev.evalKind(m, e)
	case ExprMap:
		ev.depth++
		v = ev.mapLit(m, e)
	case ExprList:
		ev.depth++
		v = ev.list(m, e)
	default:
		ev.depth++
		v = ev.evalKind(m, e)
	}
	ev.depth--
	return v
}

// evalKind is eval's work for each kind of expression, at depth ev.depth
// (a deferred decrement cost 4% of a whole analysis).
func (ev *evaluator) evalKind(m *Module, e *Expr) *validate.Value {
	switch e.Kind {
	case ExprError:
		ev.recordErr(m, e)
		return ev.opaque(m, e.Span)
	case ExprMap:
		return ev.mapLit(m, e)
	case ExprList:
		return ev.list(m, e)
	case ExprTuple:
		v := ev.node(validate.Tuple, len(e.Errs()) > 0, ev.origin(m, e.Span), 0)
		if xs := ev.elems(len(e.Args)); xs != nil {
			for i, a := range e.Args {
				xs[i] = ev.eval(m, a)
			}
			v.Elems = xs
		}
		return v
	case ExprAtom:
		if e.Unknown {
			return ev.opaque(m, e.Span)
		}
		switch e.Text {
		case "true", "false":
			return ev.scalar(validate.Boolean, e.Text, false, ev.origin(m, e.Span))
		case "nil":
			return ev.scalar(validate.Nil, "nil", false, ev.origin(m, e.Span))
		}
		return ev.scalar(validate.Atom, e.Text, false, ev.origin(m, e.Span))
	case ExprBool:
		return ev.scalar(validate.Boolean, e.Text, false, ev.origin(m, e.Span))
	case ExprNil:
		return ev.scalar(validate.Nil, "nil", false, ev.origin(m, e.Span))
	case ExprInteger:
		return ev.scalar(validate.Integer, e.Text, false, ev.origin(m, e.Span))
	case ExprFloat:
		return ev.scalar(validate.Float, e.Text, false, ev.origin(m, e.Span))
	case ExprString:
		return ev.scalar(validate.String, e.Text, e.Unknown, ev.origin(m, e.Span))
	case ExprCharlist:
		if e.Unknown {
			return ev.opaque(m, e.Span)
		}
		return ev.scalar(validate.Charlist, e.Text, false, ev.origin(m, e.Span))
	case ExprWords:
		return ev.words(m, e)
	case ExprAttr:
		if !m.AttrKnown(e.Text, e.Span.Start) || ev.writtenByUse(m, e.Text, e.Span.Start) {
			return ev.opaque(m, e.Span)
		}
		if r := m.RegistrationAt(e.Text, e.Span.Start); r != nil && (!r.Known || r.Accumulate) {
			return ev.accumulated(m, r, e)
		}
		a := m.AttrAt(e.Text, e.Span.Start)
		if a == nil {
			return ev.opaque(m, e.Span)
		}
		return ev.attr(m, a, e.Span)
	case ExprIdent:
		if x, ok := ev.vars[e.Text]; ok { // a variable, not a call
			if x == nil {
				return ev.opaque(m, e.Span)
			}
			return ev.shared(x, m, e.Span, func() *validate.Value { return ev.inFrame(nil, m, x) })
		}
		if d := m.Def(e.Text, 0); d != nil {
			return ev.def(m, d, m, e.Span)
		}
		if tm, d := ev.imported(m, e); d != nil { // `all` is all() there too, as elixirc warns
			return ev.def(tm, d, m, e.Span)
		}
		return ev.opaque(m, e.Span)
	case ExprOpaque:
		switch {
		case e.Text == "[]" && len(e.Args) == 2 && len(e.Args[1].Args) == 1 && len(e.Args[1].Pairs) == 0:
			return ev.access(m, ev.eval(m, e.Args[0]), ev.eval(m, e.Args[1].Args[0]), e.Span)
		case e.Text == "." && len(e.Args) == 1 && e.Args[0].Base != nil:
			return ev.field(m, ev.eval(m, e.Args[0].Base), e.Args[0].Text, e.Span)
		}
	case ExprCall:
		return ev.call(m, e, nil, e.Span)
	case ExprBinary:
		return ev.binary(m, e)
	case ExprUnary:
		return ev.unary(m, e)
	case ExprBlock:
		if len(e.Args) == 0 {
			if len(e.Errs()) > 0 {
				return ev.opaque(m, e.Span)
			}
			return ev.scalar(validate.Nil, "nil", false, ev.origin(m, e.Span))
		}
		vars, own := ev.vars, false
		for _, st := range e.Args[:len(e.Args)-1] {
			for _, x := range st.Errs() {
				ev.recordErr(m, x)
			}
			if st.Kind == ExprError {
				ev.recordErr(m, st)
			}
			// `x = ...` makes x a variable for the statements after it
			// (a chain `a = b = ...` binds each).
			for x := st; x.Kind == ExprBinary && x.Text == "=" && len(x.Args) == 2; x = x.Args[1] {
				if !own {
					vars, own = maps.Clone(ev.vars), true
				}
				vars = patternVars(vars, x.Args[0])
			}
		}
		v := ev.inFrame(vars, m, e.Args[len(e.Args)-1])
		if len(e.Errs()) > 0 {
			return ev.opaque(m, e.Span)
		}
		return v
	}
	return ev.opaque(m, e.Span)
}

// imported returns the function that the local zero-arity call e, written
// in m, reaches through an import (ImportedDef), also one a `use`d
// wrapper's __using__ writes. Every imported module consulted is a
// dependency, found providing the function or not: an edit that adds it
// there changes the call (as for a remote call); a wrapper is one when the
// workspace defines it.
func (ev *evaluator) imported(m *Module, e *Expr) (*Module, *Def) {
	dep := func(tm *Module) *Module {
		if tm != nil && tm.URI != ev.root.URI {
			ev.dep(tm.URI)
		}
		return tm
	}
	return ImportedDef(m, e.Text, 0, e.Span.Start, func(name string) *Module { return dep(ev.module(name)) },
		func(name string) []*Import { // a `use` target: a dependency only when the workspace defines it
			if qs, ok := ev.quoted[name]; ok {
				return qs
			}
			var qs []*Import
			if ev.r != nil {
				qs = QuotedImports(dep(ev.r.Module(name)))
			}
			if ev.quoted == nil {
				ev.quoted = map[string][]*Import{}
			}
			ev.quoted[name] = qs // its __using__ walked once per evaluation
			return qs
		})
}

// attr evaluates the attribute definition a of module m (memoised: every
// use shares the value and its Origins).
func (ev *evaluator) attr(m *Module, a *Attr, use positions.Span) *validate.Value {
	return ev.shared(a, m, use, func() *validate.Value { return ev.inFrame(nil, m, a.Value) })
}

// accumulated evaluates the read e of an attribute that the registration
// r makes accumulate: the list of its definitions since r, the latest
// first (Module.register_attribute/3; [] for none); opaque when r cannot
// be read.
func (ev *evaluator) accumulated(m *Module, r *Registration, e *Expr) *validate.Value {
	if !r.Known {
		return ev.opaque(m, e.Span)
	}
	var defs []*Attr
	for _, a := range m.Attrs {
		if a.Span.End > e.Span.Start {
			break
		}
		if a.Name == e.Text && a.Span.Start >= r.Span.End {
			defs = append(defs, a)
		}
	}
	if len(defs) > maxElems {
		return ev.opaque(m, e.Span)
	}
	v := ev.node(validate.List, false, ev.origin(m, e.Span), 0)
	if xs := ev.elems(len(defs)); xs != nil {
		for i, a := range defs {
			xs[len(defs)-1-i] = ev.attr(m, a, e.Span)
		}
		v.Elems = xs
	}
	return v
}

// inFrame evaluates e in m with the variables vars, restoring the
// caller's afterwards: a function body (or an attribute's value, or a
// default) sees no variable of the body that reached it.
func (ev *evaluator) inFrame(vars map[string]*Expr, m *Module, e *Expr) *validate.Value {
	outer := ev.vars
	ev.vars = vars
	v := ev.eval(m, e)
	ev.vars = outer
	return v
}

// defaultVars returns the variables of d's parameters as a zero-arity
// call binds them (evaluator.vars): `name \\ default` to its default, a
// name inside any other pattern to nil (opaque); nil for none.
func defaultVars(d *Def) map[string]*Expr {
	if d.Kind == "defdelegate" {
		return nil
	}
	var vars map[string]*Expr
	for _, p := range d.Params {
		if p.Kind == ExprBinary && p.Text == `\\` && len(p.Args) == 2 && p.Args[0].Kind == ExprIdent {
			if vars == nil {
				vars = map[string]*Expr{}
			}
			vars[p.Args[0].Text] = p.Args[1]
			continue
		}
		vars = patternVars(vars, p)
	}
	return vars
}

// patternVars adds to vars (made when nil) every name the pattern p may
// bind, each opaque (nil): a variable, or any identifier inside p.
func patternVars(vars map[string]*Expr, p *Expr) map[string]*Expr {
	if p == nil {
		return vars
	}
	if p.Kind == ExprIdent {
		if vars == nil {
			vars = map[string]*Expr{}
		}
		vars[p.Text] = nil
		return vars
	}
	if p.Kind == ExprBinary && p.Text == `\\` && len(p.Args) == 2 {
		return patternVars(vars, p.Args[0]) // a default is no pattern
	}
	vars = patternVars(vars, p.Base)
	for _, a := range p.Args {
		vars = patternVars(vars, a)
	}
	for _, pr := range p.Pairs {
		vars = patternVars(vars, pr.Key)
		vars = patternVars(vars, pr.Value)
	}
	return vars
}

// def evaluates the zero-arity function d of module m (memoised); the
// call is at use in module from.
func (ev *evaluator) def(m *Module, d *Def, from *Module, use positions.Span) *validate.Value {
	if m.URI != ev.root.URI {
		ev.dep(m.URI)
	}
	if d.Body == nil {
		return ev.opaque(m, d.Span)
	}
	if g := d.Guard; g != nil && (g.Kind != ExprBool || g.Text != "true") && laterClause(m, d) {
		// `def s when @flag, do: ...` then `def s, do: ...`: when the
		// guard fails the later clause runs, and which one does is not
		// known without running the guard. (With no other clause, a
		// failing guard raises: the body is what can be validated.)
		return ev.opaque(m, d.Span)
	}
	return ev.shared(d, from, use, func() *validate.Value { return ev.inFrame(defaultVars(d), m, d.Body) })
}

// laterClause reports whether m defines another clause of d's function
// (its name and arity, with a body) after d.
func laterClause(m *Module, d *Def) bool {
	for _, x := range m.Defs {
		if x != d && x.Name == d.Name && x.Arity == d.Arity && x.Body != nil && x.Span.Start > d.Span.Start {
			return true
		}
	}
	return false
}

// shared memoises the value of an attribute or function definition and
// turns cycles and over-long chains into opaque values at the use (in
// module from).
func (ev *evaluator) shared(key any, from *Module, use positions.Span, f func() *validate.Value) *validate.Value {
	v, ok := ev.memo[key]
	if v != nil {
		return v
	}
	if ok || ev.chain >= maxChain { // ok: a cycle
		return ev.opaque(from, use)
	}
	if ev.memo == nil {
		ev.memo = map[any]*validate.Value{}
	}
	ev.memo[key] = nil
	ev.chain++
	v = f()
	ev.chain--
	ev.memo[key] = v
	return v
}

// dep records that the evaluation read the document uri.
func (ev *evaluator) dep(uri string) {
	if ev.deps == nil {
		ev.deps = map[string]struct{}{}
	}
	ev.deps[uri] = struct{}{}
}

func (ev *evaluator) words(m *Module, e *Expr) *validate.Value {
	if e.Unknown {
		return ev.opaque(m, e.Span)
	}
	kind := validate.String
	switch e.Text {
	case "", "s":
	case "a":
		kind = validate.Atom
	case "c":
		kind = validate.Charlist
	default: // `~w(a b)as`: Kernel.sigil_w raises "modifier must be one of: s, a, c"
		return ev.opaque(m, e.Span)
	}
	v := ev.node(validate.List, len(e.Errs()) > 0, ev.origin(m, e.Span), 0)
	if xs := ev.elems(len(e.Words())); xs != nil {
		for i, w := range e.Words() {
			xs[i] = ev.scalar(kind, w.Text, false, ev.origin(m, w.Span))
		}
		v.Elems = xs
	}
	return v
}

func (ev *evaluator) list(m *Module, e *Expr) *validate.Value {
	v := ev.node(validate.List, len(e.Errs()) > 0, ev.origin(m, e.Span), 0)
	if xs := ev.elems(len(e.Args) + len(e.Pairs)); xs != nil {
		for i, a := range e.Args {
			xs[i] = ev.eval(m, a)
		}
		for i, p := range e.Pairs {
			kv := ev.elems(2)
			kv[0] = ev.eval(m, p.Key)
			kv[1] = ev.eval(m, p.Value)
			t := ev.node(validate.Tuple, false, ev.origin(m, p.Span), 0)
			t.Elems = kv
			xs[len(e.Args)+i] = t
		}
		v.Elems = xs
	}
	if e.Base != nil {
		tail := ev.eval(m, e.Base)
		switch tail.Kind {
		case validate.List:
			v.Elems = append(v.Elems, tail.Elems...)
			v.Partial = v.Partial || tail.Partial
		case validate.Opaque:
			v.Partial = true
		default:
			return ev.opaque(m, e.Span) // an improper list
		}
	}
	return v
}

func (ev *evaluator) mapLit(m *Module, e *Expr) *validate.Value {
	partial := len(e.Errs()) > 0 || e.Struct() != ""
	if e.Base == nil {
		v := ev.node(validate.Map, partial, ev.origin(m, e.Span), int(e.openLen))
		es := ev.entries(len(e.Pairs))
		for i, p := range e.Pairs {
			es[i] = validate.Entry{Key: ev.eval(m, p.Key), Value: ev.eval(m, p.Value)}
		}
		v.Entries = es
		return v
	}
	base := ev.eval(m, e.Base)
	switch base.Kind {
	case validate.Map:
		partial = partial || base.Partial
	case validate.Opaque:
		partial = true
	default:
		return ev.opaque(m, e.Span) // BadMapError
	}
	entries := ev.entryCopy(base.Entries, len(e.Pairs)) // with room for the updates
	for _, p := range e.Pairs {
		k := ev.eval(m, p.Key)
		if k.Kind == validate.Opaque {
			return ev.opaque(m, e.Span)
		}
		entries = putEntry(entries, validate.Entry{Key: k, Value: ev.eval(m, p.Value)})
	}
	v := ev.node(validate.Map, partial, ev.origin(m, e.Span), int(e.openLen))
	if entries != nil {
		v.Entries = entries
	}
	return v
}

// sameKey reports whether two evaluated keys are certainly the same term.
// access evaluates c[k] (Access.get/2, written at site): the value of the
// last entry of the map c whose key is k, nil when there is none; for a
// keyword list, the value of its first {k, v}; nil for c nil. It is opaque
// when c or k is, for a partial map (more keys may exist; a struct, which
// is partial, raises), when a key may be missing from a partial list, and
// for a list that is not a keyword list or any other term (Access raises).
func (ev *evaluator) access(m *Module, c, k *validate.Value, site positions.Span) *validate.Value {
	none := func() *validate.Value { return ev.scalar(validate.Nil, "nil", false, ev.origin(m, site)) }
	if k.Kind == validate.Opaque || k.Unknown {
		return ev.opaque(m, site)
	}
	switch c.Kind {
	case validate.Nil:
		return none()
	case validate.Map:
		if c.Partial {
			break // more keys may exist, and a struct raises for Access
		}
		for i := len(c.Entries) - 1; i >= 0; i-- {
			if sameKey(c.Entries[i].Key, k) {
				return c.Entries[i].Value
			}
		}
		return none()
	case validate.List:
		if k.Kind != validate.Atom {
			break // Access.get raises for a list and any other key
		}
		for _, el := range c.Elems {
			if el.Kind != validate.Tuple || len(el.Elems) != 2 || el.Partial || el.Elems[0].Kind != validate.Atom || el.Elems[0].Unknown {
				return ev.opaque(m, site)
			}
			if el.Elems[0].Text == k.Text {
				return el.Elems[1]
			}
		}
		if !c.Partial {
			return none()
		}
	}
	return ev.opaque(m, site)
}

// field evaluates c.name (a map's atom key, written at site): the value of
// the last entry of the map c whose key is :name; opaque when c is not a
// known map or has no such key (Elixir raises KeyError).
func (ev *evaluator) field(m *Module, c *validate.Value, name string, site positions.Span) *validate.Value {
	if c.Kind == validate.Map {
		for i := len(c.Entries) - 1; i >= 0; i-- {
			if k := c.Entries[i].Key; k != nil && k.Kind == validate.Atom && !k.Unknown && k.Text == name {
				return c.Entries[i].Value
			}
		}
	}
	return ev.opaque(m, site)
}

func sameKey(a, b *validate.Value) bool {
	if a == nil || b == nil || a.Kind != b.Kind || a.Unknown || b.Unknown {
		return false
	}
	switch a.Kind {
	case validate.Atom, validate.String, validate.Charlist, validate.Nil:
		return a.Text == b.Text
	case validate.Integer: // 97, ?a, 0x61 and 0_97 are one key
		return a.Text == b.Text || integerValue(a.Text) == integerValue(b.Text)
	case validate.Boolean:
		return a.Bool == b.Bool
	}
	return false
}

// putEntry replaces the entries whose key is en.Key by en (in place of the
// first one), or appends en: Map.put and Map.merge semantics. It works in
// the array of entries, which must be the caller's own (a copy, never the
// Entries of a value), so that a chain of updates copies the map once.
func putEntry(entries []validate.Entry, en validate.Entry) []validate.Entry {
	at := -1
	for i, x := range entries {
		if sameKey(x.Key, en.Key) {
			at = i
			break
		}
	}
	if at < 0 {
		return append(entries, en)
	}
	entries[at] = en
	out := entries[:at+1]
	for _, x := range entries[at+1:] {
		if !sameKey(x.Key, en.Key) {
			out = append(out, x)
		}
	}
	return out
}

func (ev *evaluator) binary(m *Module, e *Expr) *validate.Value {
	o := ev.origin(m, e.Span)
	switch e.Text {
	case "|>":
		right := e.Args[1]
		if right.Kind != ExprCall {
			return ev.opaque(m, e.Span)
		}
		return ev.call(m, right, ev.eval(m, e.Args[0]), e.Span)
	case "<>":
		l, r := ev.eval(m, e.Args[0]), ev.eval(m, e.Args[1])
		if l.Kind != validate.String || r.Kind != validate.String {
			return ev.opaque(m, e.Span)
		}
		return ev.scalar(validate.String, l.Text+r.Text, l.Unknown || r.Unknown, o)
	case "++":
		l, r := ev.eval(m, e.Args[0]), ev.eval(m, e.Args[1])
		if l.Kind == validate.Charlist && r.Kind == validate.Charlist {
			return ev.scalar(validate.Charlist, l.Text+r.Text, false, o)
		}
		// Checked first, so that the list is built only when it is one, and
		// at its length.
		n, partial := 0, false
		for _, x := range [2]*validate.Value{l, r} {
			switch x.Kind {
			case validate.List:
				n += len(x.Elems)
				partial = partial || x.Partial
			case validate.Opaque:
				partial = true
			default:
				return ev.opaque(m, e.Span)
			}
		}
		if l.Kind == validate.Opaque && r.Kind == validate.Opaque || n > maxElems {
			return ev.opaque(m, e.Span)
		}
		v := ev.node(validate.List, partial, o, 0)
		if xs := ev.elems(n); xs != nil {
			at := 0
			for _, x := range [2]*validate.Value{l, r} {
				if x.Kind == validate.List {
					at += copy(xs[at:], x.Elems)
				}
			}
			v.Elems = xs
		}
		return v
	}
	ev.scanErrors(m, e)
	return ev.opaque(m, e.Span)
}

func (ev *evaluator) unary(m *Module, e *Expr) *validate.Value {
	if e.Text != "-" && e.Text != "+" {
		ev.scanErrors(m, e)
		return ev.opaque(m, e.Span)
	}
	x := ev.eval(m, e.Args[0])
	if x.Kind == validate.Integer || x.Kind == validate.Float {
		t := x.Text
		if e.Text == "-" {
			t = "-" + t
		}
		return ev.scalar(x.Kind, t, false, ev.origin(m, e.Span))
	}
	return ev.opaque(m, e.Span)
}

// call evaluates a call; piped is the value piped into it as its first
// argument, or nil; site is the whole expression (the pipe when piped),
// the Origin of a value the call builds.
func (ev *evaluator) call(m *Module, e *Expr, piped *validate.Value, site positions.Span) *validate.Value {
	arity := len(e.Args)
	if piped != nil {
		arity++
	}
	if e.Base == nil {
		if arity == 0 {
			if d := m.Def(e.Text, 0); d != nil {
				return ev.def(m, d, m, e.Span)
			}
			if tm, d := ev.imported(m, e); d != nil {
				return ev.def(tm, d, m, e.Span)
			}
		}
		ev.scanErrors(m, e)
		return ev.opaque(m, site)
	}
	if e.Base.Kind != ExprAlias || len(e.Base.Args) > 0 {
		ev.scanErrors(m, e)
		return ev.opaque(m, site)
	}
	full := m.ResolveAlias(e.Base.Text, e.Base.Span.Start)
	if full == e.Base.Text {
		full = ev.quotedAlias(m, e.Base.Text, e.Base.Span.Start)
	}
	if full == "Map" {
		var buf [3]*validate.Value // the Map functions take at most 3
		args := buf[:0]
		if piped != nil {
			args = append(args, piped)
		}
		for _, a := range e.Args {
			args = append(args, ev.eval(m, a))
		}
		return ev.mapCall(m, e, args, site)
	}
	if arity != 0 {
		ev.scanErrors(m, e)
		return ev.opaque(m, site)
	}
	tm := ev.module(full)
	if tm == nil {
		return ev.opaque(m, site)
	}
	if tm.URI != ev.root.URI {
		ev.dep(tm.URI)
	}
	if d := tm.First(e.Text, 0, (*Def).Public); d != nil {
		return ev.def(tm, d, m, e.Span)
	}
	return ev.opaque(m, site)
}

// quotedAlias expands the module reference name, written at pos in m
// where no alias of m's applies, through the aliases that the wrappers m
// `use`s before pos write into it (QuotedAliases; the last one wins), or
// returns it as it is. Each wrapper consulted is a dependency.
func (ev *evaluator) quotedAlias(m *Module, name string, pos int) string {
	head, tail, _ := strings.Cut(name, ".")
	full := name
	for _, u := range Uses(m) {
		if u.Span.End > pos {
			break
		}
		var w *Module // a `use` target: a dependency only when the workspace defines it, as in imported
		if ev.r != nil {
			w = ev.r.Module(u.Module)
		}
		if w == nil {
			continue
		}
		qs, ok := ev.quotedAliases[w.Name]
		if !ok {
			qs = QuotedAliases(w)
			if ev.quotedAliases == nil {
				ev.quotedAliases = map[string][]*Alias{}
			}
			ev.quotedAliases[w.Name] = qs
		}
		if w.URI != ev.root.URI {
			ev.dep(w.URI) // an alias added to its quote changes the call
		}
		for _, a := range qs {
			if a.As == head {
				full = a.Target
				if tail != "" {
					full += "." + tail
				}
			}
		}
	}
	return full
}

// scanErrors records the syntax errors inside an expression that is not
// evaluated (the arguments of an unknown call), without evaluating it: no
// module lookups, no dependencies.
func (ev *evaluator) scanErrors(m *Module, e *Expr) {
	if e == nil || ev.steps > maxSteps {
		return
	}
	ev.steps++
	if e.Kind == ExprError {
		ev.recordErr(m, e)
		return
	}
	for _, x := range e.Errs() {
		ev.recordErr(m, x)
	}
	ev.scanErrors(m, e.Base)
	for _, a := range e.Args {
		ev.scanErrors(m, a)
	}
	for _, p := range e.Pairs {
		ev.scanErrors(m, p.Key)
		ev.scanErrors(m, p.Value)
	}
}

// mapCall evaluates Map.put/3, merge/2, delete/2, drop/2, take/2 and
// new/1; the result's Origin and Open are the call.
func (ev *evaluator) mapCall(m *Module, e *Expr, args []*validate.Value, site positions.Span) *validate.Value {
	o := ev.origin(m, site)
	built := func(entries []validate.Entry, partial bool) *validate.Value {
		if len(entries) > maxElems {
			return ev.opaque(m, site)
		}
		v := ev.node(validate.Map, partial, o, site.Len())
		if entries != nil {
			v.Entries = entries
		}
		return v
	}
	// base returns the entries of a map argument, the argument's own (to
	// be read, not written: entryCopy copies them where they change); ok
	// is false when the argument is certainly not a map.
	base := func(v *validate.Value) (entries []validate.Entry, partial, ok bool) {
		switch v.Kind {
		case validate.Map:
			return v.Entries, v.Partial, true
		case validate.Opaque:
			return nil, true, true
		}
		return nil, false, false
	}
	switch {
	case e.Text == "put" && len(args) == 3:
		entries, partial, ok := base(args[0])
		if !ok || args[1].Kind == validate.Opaque {
			return ev.opaque(m, site)
		}
		return built(putEntry(ev.entryCopy(entries, 1), validate.Entry{Key: args[1], Value: args[2]}), partial)
	case e.Text == "merge" && len(args) == 2:
		entries, partial, ok := base(args[0])
		more, partial2, ok2 := base(args[1])
		if !ok || !ok2 || args[0].Kind == validate.Opaque && args[1].Kind == validate.Opaque {
			return ev.opaque(m, site)
		}
		entries = ev.entryCopy(entries, len(more))
		if partial2 {
			ev.opaqueValues(entries)
		}
		for _, en := range more {
			entries = putEntry(entries, en)
		}
		return built(entries, partial || partial2)
	case e.Text == "delete" && len(args) == 2:
		entries, partial, ok := base(args[0])
		if !ok || args[0].Kind == validate.Opaque || args[1].Kind == validate.Opaque {
			return ev.opaque(m, site)
		}
		return built(ev.dropKeys(entries, []*validate.Value{args[1]}), partial)
	case (e.Text == "drop" || e.Text == "take") && len(args) == 2:
		entries, partial, ok := base(args[0])
		keys := args[1]
		if !ok || args[0].Kind == validate.Opaque || keys.Kind != validate.List || keys.Partial {
			return ev.opaque(m, site)
		}
		for _, k := range keys.Elems {
			if k.Kind == validate.Opaque || k.Unknown {
				return ev.opaque(m, site)
			}
		}
		if e.Text == "drop" {
			return built(ev.dropKeys(entries, keys.Elems), partial)
		}
		var kept []validate.Entry // nil when nothing is kept
		for _, en := range entries {
			for _, k := range keys.Elems {
				if sameKey(en.Key, k) {
					if kept == nil { // at most every entry (a key may be written twice)
						kept = ev.entryLists.take(len(entries))[:0]
					}
					kept = append(kept, en)
					break
				}
			}
		}
		return built(kept, partial)
	case e.Text == "new" && len(args) == 1:
		src := args[0]
		switch src.Kind {
		case validate.Map:
			return src
		case validate.List:
			var entries []validate.Entry // nil for an empty list
			if len(src.Elems) > 0 {
				entries = ev.entryLists.take(len(src.Elems))[:0]
			}
			for _, t := range src.Elems {
				if t.Kind != validate.Tuple || len(t.Elems) != 2 || t.Partial {
					return ev.opaque(m, site)
				}
				if t.Elems[0].Kind == validate.Opaque {
					return ev.opaque(m, site)
				}
				entries = putEntry(entries, validate.Entry{Key: t.Elems[0], Value: t.Elems[1]})
			}
			if src.Partial {
				ev.opaqueValues(entries)
			}
			return built(entries, src.Partial)
		}
	case e.Text == "new" && len(args) == 0:
		return built(nil, false)
	}
	return ev.opaque(m, site)
}

// opaqueValues makes the value of each entry opaque in place, at the same
// Origin, keeping the keys: entries that unseen ones may replace (the first
// map of Map.merge/2 when the second is opaque or partial, the known pairs
// of Map.new/1 over a partial list, where a later pair wins) keep their keys,
// since nothing removes one, but not their values (docs/rules.md §5).
func (ev *evaluator) opaqueValues(entries []validate.Entry) {
	for i := range entries {
		x := ev.newValue()
		x.Origin = entries[i].Value.Origin
		entries[i].Value = x
	}
}

// entryCopy returns a copy of entries with room for n more (for the
// updates of Map.put and Map.merge, which putEntry makes in place), from
// the evaluator's slab; nil when both are zero.
func (ev *evaluator) entryCopy(entries []validate.Entry, n int) []validate.Entry {
	if len(entries)+n == 0 {
		return nil
	}
	out := ev.entryLists.take(len(entries) + n)[:len(entries)]
	copy(out, entries)
	return out
}

// dropKeys returns the entries whose key is none of keys, in a new
// slice (entries is left as it is); nil when entries is empty.
func (ev *evaluator) dropKeys(entries []validate.Entry, keys []*validate.Value) []validate.Entry {
	if len(entries) == 0 {
		return nil
	}
	out := ev.entryLists.take(len(entries))[:0]
	for _, en := range entries {
		drop := false
		for _, k := range keys {
			if sameKey(en.Key, k) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, en)
		}
	}
	return out
}

// integerValue returns the decimal value of an integer literal as written:
// 1_000, 0x1F, 0o17, 0b101, ?a, ?\n.
func integerValue(text string) string {
	if c, ok := strings.CutPrefix(text, "?"); ok {
		return strconv.Itoa(int(charValue(c)))
	}
	t := strings.ReplaceAll(text, "_", "")
	sign := ""
	if rest, ok := strings.CutPrefix(t, "-"); ok {
		sign, t = "-", rest
	}
	base := 10
	if len(t) > 2 && t[0] == '0' {
		switch t[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			t = t[2:]
		}
	}
	var n big.Int
	if _, ok := n.SetString(sign+t, base); !ok {
		return "bad(" + text + ")"
	}
	return n.String()
}

// charValue decodes the text after `?` of a character literal.
func charValue(c string) rune {
	if !strings.HasPrefix(c, `\`) || len(c) < 2 {
		r, _ := utf8.DecodeRuneInString(c)
		return r
	}
	switch c[1] {
	case '0':
		return 0
	case 'a':
		return 7
	case 'b':
		return 8
	case 'd':
		return 127
	case 'e':
		return 27
	case 'f':
		return 12
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 's':
		return ' '
	case 't':
		return '\t'
	case 'v':
		return 11
	}
	r, _ := utf8.DecodeRuneInString(c[1:])
	return r
}
