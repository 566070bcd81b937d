package elixir

import (
	"slices"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
)

// Sketch is the tolerant reading of one document for the cursor features
// (completion, hover, navigation and rename in half-typed code,
// docs/architecture.md "The Elixir reader"). It is built by the package's
// one lexer and parser, as Parse is, so that an unclosed map, a trailing comma, an unterminated string or a
// keyless item typed mid-map still yield the expressions around the
// cursor: every open container is closed at the next definition first on
// its line, at an `end`, or at the end of the file.
//
// Its File has the same IR as Parse (modules, attributes, definitions,
// aliases, expressions with byte spans), so Evaluate reads it unchanged;
// for well-formed code the spans of maps, lists, strings and keys are
// those Parse gives. Its File.Errors is empty and its error nodes keep the
// parser's own messages: the syntax error Elixir would report is Parse's
// business (syntax.go). A Sketch is immutable and safe for
// concurrent use.
type Sketch struct {
	// File holds the modules read tolerantly.
	File *File
	// Src is the content the sketch reads.
	Src []byte
	// Stmts lists every statement of every module body (nested modules
	// included, each with its own module) and of the top level (Module
	// nil), in source order of the modules.
	Stmts []Stmt

	top []*Expr
	// file holds the top level's aliases and imports, once there is one
	// (Module.file, topLevel).
	file *fileScope
}

// Stmt is one statement of a module body (or of the top level when
// Module is nil).
type Stmt struct {
	Module *Module
	Expr   *Expr
}

// Step is one level of a cursor path (Sketch.PathAt).
type Step struct {
	// Expr is the expression at this level.
	Expr *Expr
	// Pair is set when Expr is the key or the value of a pair of the
	// previous step's map or keyword list; Key tells which.
	Pair *Pair
	Key  bool
}

// NewSketch reads src (any bytes) as the document uri. cursor is the byte
// offset of the editor's cursor, or -1: a plain string that starts on the
// cursor's line before it and is not closed on that line ends with the
// line, so that the rest of the file keeps its meaning while the author
// types `["na`. It never panics; the work is linear in len(src).
func NewSketch(uri string, src []byte, cursor int) *Sketch {
	return newSketch(uri, src, cursor, false)
}

// NewSketchAt is NewSketch for the path at cursor only: the value of a
// map or keyword pair that does not hold cursor is not read and stays an
// opaque expression with its span, so the sketch's modules do not
// evaluate. It is for a cursor feature on a document whose evaluation
// comes from elsewhere (a Parse without syntax error), and costs about the
// lexing of the file.
func NewSketchAt(uri string, src []byte, cursor int) *Sketch {
	return newSketch(uri, src, cursor, true)
}

// NewSketchIn is NewSketchAt reading only the statements written in
// src[from:to] (byte offsets, clamped to the content): for a cursor
// between the definitions of a document whose evaluation and modules come
// from elsewhere, so that the reading costs the window, not the document.
// The sketch's spans stay offsets into src; a container still open at to
// ends there. The window should start at a statement's start or between
// statements.
func NewSketchIn(uri string, src []byte, from, to, cursor int) *Sketch {
	to = max(0, min(to, len(src)))
	return newSketchFrom(uri, src, src[:to], from, cursor, true)
}

func newSketch(uri string, src []byte, cursor int, skim bool) *Sketch {
	return newSketchFrom(uri, src, src, 0, cursor, skim)
}

// newSketchFrom reads win (a prefix of src) from byte offset from.
func newSketchFrom(uri string, src, win []byte, from, cursor int, skim bool) *Sketch {
	s, _ := parseTokens(uri, src, lexFrom(win, from, cursor), cursor, skim, false, false)
	return s
}

// parseTokens parses the tokens lx of a prefix of src into a Sketch and
// returns its parser too; full is the reading of Parse (cparser.full),
// strict a reading without the column recovery (cparser.strict).
func parseTokens(uri string, src []byte, lx lexed, cursor int, skim, full, strict bool) (*Sketch, *cparser) {
	s := &Sketch{File: &File{URI: uri}, Src: src}
	p := &cparser{lexed: lx, skim: skim && cursor >= 0, cursor: cursor, full: full, strict: strict}
	// At most one expression and one argument list for every two tokens,
	// one pair for every four (Elixir's own source: 0.5 to 0.7 and under
	// 0.1; the generated tools: 0.5 and 0.23).
	p.nodes.expect(len(lx.toks) / 2)
	p.argLists.expect(len(lx.toks) / 2)
	p.pairLists.expect(len(lx.toks) / 4)
	for p.peek().kind != tEOF {
		t := p.peek()
		if p.isWord(t, "end") || p.isOp(t, ";") {
			p.advance()
			continue
		}
		p.stmtCol = t.col
		before := p.pos
		e := p.expr(0, true, false)
		if p.pos == before {
			p.advance()
		}
		if e != nil {
			s.top = append(s.top, e)
		}
	}
	for _, e := range s.top {
		s.Stmts = append(s.Stmts, Stmt{Expr: e})
		s.statement(e, nil)
	}
	return s, p
}

// statement interprets one statement of module mod (nil: top level).
func (s *Sketch) statement(e *Expr, mod *Module) {
	if mod == nil {
		s.topLevel(e, len(s.Src))
		return
	}
	switch {
	case e.Kind == ExprCall && e.Base == nil:
		switch e.Text {
		case "defmodule":
			s.defmodule(e, mod)
			return
		}
		switch e.Text {
		case "def", "defp", "defmacro", "defmacrop":
			s.def(e, mod, e.Text)
		case "defdelegate":
			s.defdelegate(e, mod)
		case "alias":
			aliasFrom(e, mod, mod.Span.End)
		case "import":
			importFrom(e, mod, mod.Span.End)
			mod.Calls = append(mod.Calls, e)
			s.inner(e, mod)
		case "use":
			mod.Calls = append(mod.Calls, e)
			if len(e.Args) > 0 && isToolRef(e.Args[0], mod) {
				markTool(mod, e.Span)
			}
		default:
			if e.Text == "require" {
				aliasFrom(e, mod, mod.Span.End) // require M, as: A
			}
			mod.Calls = append(mod.Calls, e)
			s.inner(e, mod)
		}
	case mod != nil && e.Kind == ExprCall && e.Text == "register_attribute" && e.Base != nil && e.Base.Kind == ExprAlias &&
		len(e.Base.Args) == 0 && mod.ResolveAlias(e.Base.Text, e.Base.Span.Start) == "Module":
		if r := registration(e); r != nil {
			mod.Registered = append(mod.Registered, r)
		}
		s.inner(e, mod)
	case e.Kind == ExprUnary && e.Text == "@" && mod != nil && len(e.Args) == 1 && e.Args[0].Kind == ExprCall && len(e.Args[0].Args) <= 1:
		c := e.Args[0]
		a := &Attr{Name: c.Text, Span: e.Span, NameSpan: c.NameSpan}
		if len(c.Args) > 0 {
			a.Value = c.Args[0]
		} else {
			a.Value = &Expr{Kind: ExprOpaque, Span: e.Span}
		}
		mod.Attrs = append(mod.Attrs, a)
		if a.Name == "behaviour" && isToolRef(a.Value, mod) {
			markTool(mod, a.Span)
		}
	default:
		s.inner(e, mod)
	}
}

// registration reads `Module.register_attribute(__MODULE__, :name, opts)`
// (Module.register_attribute/3), nil when the name is not a known atom.
func registration(e *Expr) *Registration {
	if len(e.Args) < 2 || len(e.Args) > 3 || e.Args[1].Kind != ExprAtom || e.Args[1].Unknown {
		return nil
	}
	r := &Registration{Name: e.Args[1].Text, Span: e.Span}
	if a := e.Args[0]; a.Kind != ExprAlias || a.Text != "__MODULE__" || len(a.Args) > 0 {
		return r // another module's attribute, or one not known: unknown
	}
	r.Known = true
	if len(e.Args) == 3 {
		opts := e.Args[2]
		if opts.Kind != ExprList || len(opts.Args) > 0 {
			r.Known = false
			return r
		}
		for _, p := range opts.Pairs {
			if p.Key.Kind != ExprAtom || p.Key.Unknown {
				r.Known = false
			} else if p.Key.Text == "accumulate" {
				switch {
				case p.Value.Kind == ExprBool || p.Value.Kind == ExprAtom && (p.Value.Text == "true" || p.Value.Text == "false"):
					r.Accumulate = p.Value.Text == "true"
				default:
					r.Known = false
				}
			}
		}
	}
	return r
}

// inner looks for nested defmodules anywhere in an unknown statement
// (do-blocks, quote, fn bodies, call arguments) but in the bodies and
// heads of the def family, as testdata/oracle/dump.exs reads Elixir's AST.
func (s *Sketch) inner(e *Expr, mod *Module) {
	n := 0
	if mod != nil {
		n = len(mod.Unfollowed)
	}
	Walk(e, func(x *Expr) bool {
		if mod != nil {
			if w := unfollowedWrite(x, mod); w != nil {
				mod.Unfollowed = append(mod.Unfollowed, w)
			}
		}
		if x.Kind != ExprCall || x.Base != nil {
			return true
		}
		switch x.Text {
		case "def", "defp", "defmacro", "defmacrop":
			return false
		case "defmodule":
			s.defmodule(x, mod)
			return false
		}
		return true
	})
	if mod != nil && len(mod.Unfollowed) > n {
		slices.SortFunc(mod.Unfollowed[n:], func(a, b *Attr) int { return a.Span.Start - b.Span.Start })
	}
}

// unfollowedWrite returns the attribute write x, met inside a statement
// of mod's body that is not itself the write (Module.Unfollowed), or nil:
// `@name value`, or Module.put_attribute(__MODULE__, :name, value).
func unfollowedWrite(x *Expr, mod *Module) *Attr {
	switch {
	case x.Kind == ExprUnary && x.Text == "@" && len(x.Args) == 1 && x.Args[0].Kind == ExprCall && len(x.Args[0].Args) == 1:
		c := x.Args[0]
		return &Attr{Name: c.Text, Span: x.Span, NameSpan: c.NameSpan, Value: c.Args[0]}
	case x.Kind == ExprCall && x.Text == "put_attribute" && len(x.Args) == 3 && x.Base != nil && x.Base.Kind == ExprAlias &&
		len(x.Base.Args) == 0 && mod.ResolveAlias(x.Base.Text, x.Base.Span.Start) == "Module" &&
		x.Args[1].Kind == ExprAtom && !x.Args[1].Unknown:
		return &Attr{Name: x.Args[1].Text, Span: x.Span, NameSpan: x.Args[1].Span, Value: x.Args[2]}
	}
	return nil
}

// doBody returns the body of a call with a do-block or a `do:` keyword.
func doBody(e *Expr) *Expr {
	if len(e.Args) == 0 {
		return nil
	}
	last := e.Args[len(e.Args)-1]
	switch last.Kind {
	case ExprBlock:
		return last
	case ExprList:
		for _, p := range last.Pairs {
			if p.Keyword && p.Key.Text == "do" {
				return p.Value
			}
		}
	}
	return nil
}

// TopLevel returns a module without name standing for the top level of
// the document, outside every defmodule: its ResolveAlias sees the
// top-level aliases in effect at a byte offset (`alias App.Tools.Echo`,
// then `Echo.run()` in a script), which are its Aliases; it has no
// statements of its own. Each call returns a new Module.
func (s *Sketch) TopLevel() *Module {
	top := &Module{URI: s.File.URI}
	if s.file != nil {
		top.Aliases = slices.Clip(s.file.aliases)
	}
	return top
}

// topLevel reads e, a statement of the top level or an expression inside
// one, in one walk: it records its aliases (`alias`, `require M, as: A`)
// and imports, each in effect from its end to scopeEnd, in every top-level
// module there (Module.file), and reads its defmodules (also those inside
// a quote), in source order. Elixir scopes them lexically: a do-block's sections, a
// `->` clause (of a case, a fn ...), a fn and a for or with (generators
// and clauses included) each end them (topBody), so that an
// alias inside `if Code.ensure_loaded?(Plug) do ... end` is in effect in
// the defmodules of that block and not after it, while a parenthesised
// block `(alias A.B; nil)` does not. Nothing inside a defmodule, a def or
// a quote counts: the first two are module bodies, read as such, and a
// quote runs elsewhere.
func (s *Sketch) topLevel(e *Expr, scopeEnd int) {
	if e == nil {
		return
	}
	switch {
	case e.Kind == ExprCall:
		if e.Base == nil {
			switch e.Text {
			case "alias", "require", "import":
				s.topStatement(e, scopeEnd)
				return
			case "defmodule":
				s.defmodule(e, nil)
				return
			case "quote": // none of its aliases counts here, its defmodules do
				s.inner(e, nil)
				return
			case "def", "defp", "defmacro", "defmacrop":
				return
			case "for", "with": // their generators and clauses are their own
				scopeEnd = e.Span.End
			}
		}
		s.topLevel(e.Base, scopeEnd)
		for i, a := range e.Args {
			if i == len(e.Args)-1 && (a.Kind == ExprBlock || a.Kind == ExprList) {
				s.topSections(a, scopeEnd)
				continue
			}
			s.topLevel(a, scopeEnd)
		}
	case e.Kind == ExprOpaque && isFn(s.Src, e.Span.Start):
		scopeEnd = e.Span.End
		s.topLevel(e.Base, scopeEnd)
		s.topBody(e.Args, scopeEnd)
	default:
		s.topLevel(e.Base, scopeEnd)
		for _, a := range e.Args {
			s.topLevel(a, scopeEnd)
		}
	}
	s.topPairs(e, scopeEnd)
}

// topPairs reads e's pairs and the syntax errors inside it (the rest of
// what Walk visits) in the scope ending at scopeEnd.
func (s *Sketch) topPairs(e *Expr, scopeEnd int) {
	for _, p := range e.Pairs {
		s.topLevel(p.Key, scopeEnd)
		s.topLevel(p.Value, scopeEnd)
	}
	for _, x := range e.Errs() {
		s.topLevel(x, scopeEnd)
	}
}

// isFn reports whether the expression at byte offset i of src is a fn:
// the keyword fn, then no identifier byte.
func isFn(src []byte, i int) bool {
	return i+2 <= len(src) && src[i] == 'f' && src[i+1] == 'n' && (i+2 == len(src) || !isIdentChar(rune(src[i+2])))
}

// topSections reads the last argument a of a top-level call: a do-block
// (its statements, then its else/after/rescue/catch sections as Pairs) or
// a keyword list (`do: ...`, `else: ...`), each section its own scope.
func (s *Sketch) topSections(a *Expr, scopeEnd int) {
	section := func(k *Expr) bool {
		return k != nil && (k.Kind == ExprAtom || k.Kind == ExprIdent) &&
			(k.Text == "do" || k.Text == "else" || k.Text == "after" || k.Text == "rescue" || k.Text == "catch")
	}
	if a.Kind == ExprBlock {
		end := a.Span.End
		if len(a.Pairs) > 0 && a.Pairs[0].Key != nil {
			end = a.Pairs[0].Key.Span.Start
		}
		s.topBody(a.Args, end)
		for _, p := range a.Pairs {
			s.topSection(p.Value)
		}
		for _, x := range a.Errs() {
			s.topLevel(x, scopeEnd)
		}
		return
	}
	s.topLevel(a.Base, scopeEnd)
	for _, x := range a.Args {
		s.topLevel(x, scopeEnd)
	}
	for _, p := range a.Pairs {
		if section(p.Key) {
			s.topSection(p.Value)
			continue
		}
		s.topLevel(p.Key, scopeEnd)
		s.topLevel(p.Value, scopeEnd)
	}
	for _, x := range a.Errs() {
		s.topLevel(x, scopeEnd)
	}
}

// topSection reads v, one section of a do-block or a `do:` keyword list,
// as a scope of its own.
func (s *Sketch) topSection(v *Expr) {
	if v == nil {
		return
	}
	if v.Kind == ExprBlock {
		s.topBody(v.Args, v.Span.End)
		for _, p := range v.Pairs {
			s.topSection(p.Value)
		}
		for _, x := range v.Errs() {
			s.topLevel(x, v.Span.End)
		}
		return
	}
	s.topLevel(v, v.Span.End)
}

// topBody reads the statements of one scope ending at end. Where they are
// `->` clauses (of a case, a fn, a rescue ...), each clause is a scope of
// its own: the reader keeps a clause's first body statement in the `->`
// and the next ones after it, up to the next clause.
func (s *Sketch) topBody(stmts []*Expr, end int) {
	clauseEnd := end
	for i, st := range stmts {
		if st.Kind == ExprBinary && st.Text == "->" {
			clauseEnd = end
			for _, next := range stmts[i+1:] {
				if next.Kind == ExprBinary && next.Text == "->" {
					clauseEnd = next.Span.Start
					break
				}
			}
		}
		s.topLevel(st, clauseEnd)
	}
}

// topStatement records the alias or import statement e met at the top
// level, in effect from its end to scopeEnd (topLevel).
func (s *Sketch) topStatement(e *Expr, scopeEnd int) {
	if s.file == nil {
		s.file = &fileScope{}
	}
	top := s.TopLevel()
	if e.Text == "import" {
		if im := readImport(e, top, scopeEnd); im != nil {
			s.file.imports = append(s.file.imports, im)
		}
		return
	}
	n := len(top.Aliases)
	aliasFrom(e, top, scopeEnd)
	s.file.aliases = append(s.file.aliases, top.Aliases[n:]...)
}

func (s *Sketch) defmodule(e *Expr, parent *Module) {
	if len(e.Args) == 0 || e.Args[0].Kind != ExprAlias || len(e.Args[0].Args) > 0 {
		return
	}
	nameExpr := e.Args[0]
	full, implicit := joinModuleName(parent, nameExpr.Text)
	if parent == nil && s.file != nil && !strings.HasPrefix(nameExpr.Text, "Elixir.") && !strings.HasPrefix(nameExpr.Text, "__MODULE__") {
		// A top-level defmodule expands its name through the top level's
		// aliases: after `alias App.Tools.Weather`, `defmodule
		// Weather.Inner` defines App.Tools.Weather.Inner (a nested one
		// does not: it joins its parent's name).
		full = s.TopLevel().ResolveAlias(nameExpr.Text, nameExpr.Span.Start)
	}
	m := &Module{Name: full, URI: s.File.URI, Span: e.Span, NameSpan: nameExpr.Span, Parent: parent}
	if parent == nil {
		m.file = s.file
	}
	if parent != nil && implicit != "" {
		head := nameExpr.Text
		if i := indexByte(head, '.'); i >= 0 {
			head = head[:i]
		}
		parent.Aliases = append(parent.Aliases, &Alias{
			As: head, Target: implicit, Span: nameExpr.Span,
			Scope: positions.Span{Start: nameExpr.Span.End, End: parent.Span.End},
		})
	}
	s.File.Modules = append(s.File.Modules, m)
	body := doBody(e)
	if body == nil {
		return
	}
	stmts := []*Expr{body}
	if body.Kind == ExprBlock {
		stmts = body.Args
	}
	for _, st := range stmts {
		s.Stmts = append(s.Stmts, Stmt{Module: m, Expr: st})
		s.statement(st, m)
	}
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// defHeadOf reads a function head: `name`, `name(args)`, `name(args) when g`.
func defHeadOf(h *Expr) (string, positions.Span, int) {
	switch h.Kind {
	case ExprIdent:
		return h.Text, h.Span, 0
	case ExprCall:
		if h.Base != nil && h.Text == "" && h.Base.Kind == ExprCall && h.Base.Base == nil && h.Base.Text == "unquote" {
			// def unquote(name)(args): the name is only known when the
			// code runs; it is kept as written.
			n := 0
			for _, a := range h.Args {
				if a.Kind != ExprError {
					n++
				}
			}
			return "unquote(…)", h.Base.Span, n
		}
		if h.Base == nil {
			n := 0
			for _, a := range h.Args {
				if a.Kind != ExprError {
					n++
				}
			}
			return h.Text, h.NameSpan, n
		}
	case ExprBinary:
		if h.Text == "when" && len(h.Args) == 2 {
			return defHeadOf(h.Args[0])
		}
		if h.Text == "//" && len(h.Args) == 2 && h.Args[0].Kind == ExprBinary && h.Args[0].Text == ".." {
			return "..//", h.Span, 3 // defmacro first..last//step
		}
		if len(h.Args) == 2 { // def left &&& right: an operator
			return h.Text, h.Span, 2
		}
	case ExprUnary:
		if len(h.Args) == 1 { // def -value, defmacro @{...}
			return h.Text, h.Span, 1
		}
	case ExprBlock:
		if len(h.Args) == 1 { // defmacro (..)
			return defHeadOf(h.Args[0])
		}
	case ExprAlias:
		if h.Text == "__MODULE__" { // defmacro __MODULE__
			return h.Text, h.Span, 0
		}
	case ExprAttr: // defmacro @expr
		return "@", h.Span, 1
	}
	return "", positions.Span{}, -1
}

// defParamsOf returns the parameters of a function head (`name(a, b)`,
// `name(a, b) when g`); nil for a bare name.
func defParamsOf(h *Expr) []*Expr {
	switch h.Kind {
	case ExprCall:
		if h.Base == nil {
			var out []*Expr
			for _, a := range h.Args {
				if a.Kind != ExprError {
					out = append(out, a)
				}
			}
			return out
		}
	case ExprBinary:
		if h.Text == "when" && len(h.Args) == 2 {
			return defParamsOf(h.Args[0])
		}
	}
	return nil
}

func (s *Sketch) def(e *Expr, mod *Module, kind string) {
	private := kind == "defp" || kind == "defmacrop"
	if len(e.Args) == 0 {
		return
	}
	name, nameSpan, arity := defHeadOf(e.Args[0])
	if name == "" {
		return
	}
	params := defParamsOf(e.Args[0])
	d := &Def{Name: name, Kind: kind, Private: private, Arity: arity, MinArity: minArity(arity, params), Span: e.Span, NameSpan: nameSpan, Params: params}
	if h := e.Args[0]; h.Kind == ExprBinary && h.Text == "when" && len(h.Args) == 2 {
		d.Guard = h.Args[1]
	}
	// The defaults of one clause (or the head) apply to all of them: the
	// clauses just before this one with its name and arity (Elixir wants a
	// function's clauses together), found from the end, so that a module
	// of many functions is not scanned once per definition.
	if arity >= 0 {
		for i := len(mod.Defs) - 1; i >= 0 && mod.Defs[i].Name == name && mod.Defs[i].Arity == arity; i-- {
			d.MinArity = min(d.MinArity, mod.Defs[i].MinArity)
		}
		for i := len(mod.Defs) - 1; i >= 0 && mod.Defs[i].Name == name && mod.Defs[i].Arity == arity; i-- {
			mod.Defs[i].MinArity = d.MinArity
		}
	}
	mod.Defs = append(mod.Defs, d)
	body := doBody(e)
	d.Body = body
	if body != nil && body.Kind == ExprBlock {
		for _, st := range body.Args {
			aliasFrom(st, mod, d.Span.End)
			importFrom(st, mod, d.Span.End)
		}
	}
}

// minArity is the arity of a head less its parameters with a default
// (`x \\ 1`): Def.MinArity.
func minArity(arity int, params []*Expr) int {
	n := arity
	for _, p := range params {
		if p.Kind == ExprBinary && p.Text == `\\` && len(p.Args) == 2 {
			n--
		}
	}
	return n
}

// defdelegate reads `defdelegate head, to: M` (with `as: :name`) as the
// public function Elixir defines for it (Kernel.defdelegate/2): a Def of
// Kind "defdelegate" whose Body is the call it makes, M.name(params), with
// the head's name when there is no `as:`. The call's Span is the options,
// its NameSpan the `as:` value (else M). A defdelegate without a readable
// `to:` has no Body; its value is then unknown, as Elixir refuses it.
func (s *Sketch) defdelegate(e *Expr, mod *Module) {
	if len(e.Args) != 2 {
		return
	}
	name, nameSpan, arity := defHeadOf(e.Args[0])
	if name == "" {
		return
	}
	params := defParamsOf(e.Args[0])
	d := &Def{Name: name, Kind: "defdelegate", Arity: arity, MinArity: minArity(arity, params), Span: e.Span, NameSpan: nameSpan, Params: params}
	mod.Defs = append(mod.Defs, d)
	opts := e.Args[1]
	if opts.Kind != ExprList || len(opts.Args) > 0 {
		return
	}
	// The first `to:` and `as:` count, as Elixir reads the options with
	// Keyword.fetch/Keyword.get.
	var to, as *Expr
	for _, p := range opts.Pairs {
		switch {
		case !p.Keyword || p.Key == nil:
		case p.Key.Text == "to" && to == nil:
			to = p.Value
		case p.Key.Text == "as" && as == nil:
			as = p.Value
		}
	}
	if to == nil {
		return
	}
	call := &Expr{Kind: ExprCall, Text: name, Span: opts.Span, NameSpan: to.Span, Base: to}
	if as != nil {
		if as.Kind != ExprAtom || as.Unknown {
			return
		}
		call.Text, call.NameSpan = as.Text, as.Span
	}
	for _, p := range params {
		if p.Kind == ExprBinary && p.Text == `\\` && len(p.Args) == 2 { // a default
			p = p.Args[0]
		}
		call.Args = append(call.Args, p)
	}
	d.Body = call
}

// ModuleAt returns the innermost module whose span holds byte offset off
// (end inclusive), or nil.
func (s *Sketch) ModuleAt(off int) *Module {
	var found *Module
	for _, m := range s.File.Modules {
		if m.Span.Contains(off) {
			found = m
		}
	}
	return found
}

// PathAt returns the expressions that hold byte offset off, from a
// top-level statement down to the innermost one (ends inclusive: a
// cursor just after a token is on it). Between the items of a container
// the path ends at the container. It returns nil when off is outside
// every statement.
func (s *Sketch) PathAt(off int) []Step {
	var root *Expr
	for _, e := range s.top {
		if e.Span.Contains(off) {
			root = e
			if e.Span.Start < off && off < e.Span.End {
				break
			}
		}
	}
	return PathIn(root, off)
}

// PathIn is PathAt below one expression: the expressions that hold byte
// offset off from root (the first step) down to the innermost one, for
// an expression tree read by Parse or by a sketch. It returns nil when
// root is nil or does not hold off.
func PathIn(root *Expr, off int) []Step {
	if root == nil || !root.Span.Contains(off) {
		return nil
	}
	path := []Step{{Expr: root}}
	for cur, depth := root, 0; depth < maxParseDepth*2; depth++ {
		next, ok := childAt(cur, off)
		if !ok || next.Expr == nil {
			break
		}
		path = append(path, next)
		cur = next.Expr
	}
	return path
}

// childAt returns the child of e holding off, preferring one that holds
// it strictly inside.
func childAt(e *Expr, off int) (Step, bool) {
	var best Step
	found := false
	consider := func(st Step, sp positions.Span) bool {
		if !sp.Contains(off) {
			return false
		}
		if sp.Start < off && off < sp.End {
			best, found = st, true
			return true
		}
		if !found {
			best, found = st, true
		}
		return false
	}
	if e.Base != nil && consider(Step{Expr: e.Base}, e.Base.Span) {
		return best, true
	}
	for _, a := range e.Args {
		if consider(Step{Expr: a}, a.Span) {
			return best, true
		}
	}
	for i := range e.Pairs {
		p := &e.Pairs[i]
		if !p.Span.Contains(off) && !(p.Value != nil && p.Value.Span.Contains(off)) {
			continue
		}
		if p.Key != nil && consider(Step{Expr: p.Key, Pair: p, Key: true}, p.Key.Span) {
			return best, true
		}
		if p.Value != nil && consider(Step{Expr: p.Value, Pair: p}, p.Value.Span) {
			return best, true
		}
	}
	for _, x := range e.Errs() {
		if x.Kind == ExprError && len(x.Args) == 0 && x.Span.Start == x.Span.End {
			continue // a missing token: nothing to be on
		}
		if consider(Step{Expr: x}, x.Span) {
			return best, true
		}
	}
	return best, found
}

// Walk calls fn for e and every expression below it, in source order,
// until fn returns false for a subtree (which is then skipped).
func Walk(e *Expr, fn func(*Expr) bool) {
	walkDepth(e, fn, 0)
}

func walkDepth(e *Expr, fn func(*Expr) bool, depth int) {
	if e == nil || depth > maxParseDepth*2 || !fn(e) {
		return
	}
	if e.Base != nil {
		walkDepth(e.Base, fn, depth+1)
	}
	for _, a := range e.Args {
		walkDepth(a, fn, depth+1)
	}
	for _, p := range e.Pairs {
		walkDepth(p.Key, fn, depth+1)
		walkDepth(p.Value, fn, depth+1)
	}
	for _, x := range e.Errs() {
		walkDepth(x, fn, depth+1)
	}
}
