package elixir

import (
	"strconv"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
)

// File is what the reader keeps of one parsed Elixir file: its modules and
// its syntax error. It is immutable after Parse and safe for concurrent
// use. All spans are byte offsets into the
// content that was parsed.
type File struct {
	// URI is the document URI given to Parse, unchanged.
	URI string
	// Modules lists every defmodule in source (pre-)order, nested ones
	// included, each with its full joined name.
	Modules []*Module
	// Errors holds the file's first syntax error, where Elixir's own parser
	// reports it, or nothing (docs/architecture.md "The Elixir reader";
	// Elixir stops at the first error, so there is at most one).
	Errors []SyntaxError

	// sketch is the reading Parse made the File from, kept for
	// FullSketch; nil for a File Parse did not make.
	sketch *Sketch
}

// FullSketch returns the Sketch of the whole document that Parse made f
// from: what NewSketch(f.URI, src, -1) reads (Parse's tokens and parser;
// the two agree, TestSketchMatchesParse), so that a feature walking every
// statement of a document need not read it again. It is nil when f has a
// syntax error (the cursor features then read the document their own
// way, around the cursor) or was not made by Parse.
func (f *File) FullSketch() *Sketch {
	if f == nil || len(f.Errors) > 0 {
		return nil
	}
	return f.sketch
}

// Module returns the module of f named name (the last defmodule of that
// name), or nil.
func (f *File) Module(name string) *Module {
	var found *Module
	for _, m := range f.Modules {
		if m.Name == name {
			found = m // a later defmodule of the name redefines the module
		}
	}
	return found
}

// SyntaxError is a syntax error of a file, where Code.string_to_quoted/2
// reports it (syntax.go): at the unexpected token, at an opener left
// unclosed, or at the opening quote of a string never closed. Span is byte
// offsets into the content, never empty.
type SyntaxError struct {
	// URI is the document the error sits in.
	URI  string
	Span positions.Span
	// At is the byte offset where Code.string_to_quoted/2 reports the
	// error: Span.Start, or, where Span is the opener Elixir names as left
	// unclosed, the token that revealed it or the end of the file.
	At int
	// Message is short and lower-case: `syntax error: unexpected ","`,
	// `syntax error: "[" is missing its terminator "]" (found "end" later)`.
	Message string
}

// Module is one defmodule.
type Module struct {
	// Name is the full module name, nested names joined as Elixir joins
	// them ("App.Tools.Tasks"), without "Elixir.".
	Name string
	// URI is the document the module is written in.
	URI string
	// Span covers the whole defmodule call; NameSpan the name as written.
	Span, NameSpan positions.Span
	// Parent is the enclosing module for a nested defmodule, else nil.
	Parent *Module
	// file holds, for a top-level module, the aliases and imports written
	// at the top level of its file, outside every defmodule: Elixir scopes
	// them lexically, so `alias App.Tools.Weather` at the top of a script
	// is in effect in every defmodule after it (ResolveAlias, ImportedDef).
	// nil for a nested module (its root's is consulted) and for a file
	// without them.
	file *fileScope
	// Tool reports a `use Wymcp.Tool` (with or without options) or a
	// `@behaviour Wymcp.Tool` in the module's own body; ToolSpan is that
	// statement.
	Tool     bool
	ToolSpan positions.Span
	// Attrs lists every module attribute definition `@name value` of the
	// module's own body, in source order (reassignments kept).
	Attrs []*Attr
	// Unfollowed lists, in source order, the attribute writes the reader
	// does not follow: `@name value` inside another statement of the
	// module's own body (an `if`, a `for`, a quote evaluated there), which
	// may run once, never or many times, and every
	// `Module.put_attribute(__MODULE__, :name, value)`. A read after one of
	// them is unknown (AttrKnown).
	Unfollowed []*Attr
	// Registered lists the `Module.register_attribute(__MODULE__, :name,
	// opts)` statements of the module's own body, in source order.
	Registered []*Registration
	// Defs lists every def/defp/defmacro/defmacrop clause of the module's
	// own body, in source order.
	Defs []*Def
	// Aliases lists the aliases in effect somewhere in the module's body, in
	// source order: `alias` statements (also inside def bodies) and the
	// implicit aliases of nested defmodules.
	Aliases []*Alias
	// Imports lists the `import` statements in effect somewhere in the
	// module's body, in source order (also inside def bodies).
	Imports []*Import
	// Calls lists the other call statements of the module's own body, in
	// source order, converted whole with their do-blocks: `use X, opts`,
	// `forward "/mcp", Wymcp.Router, tools: [...]`, `scope "/" do ... end`.
	// Statements that are def/defp/defmacro/defmacrop, defmodule, alias or
	// attributes are not in it.
	Calls []*Expr
}

// Attr is one module attribute definition `@name value`.
type Attr struct {
	Name string
	// Span covers `@name value`; NameSpan is `name` (after the @).
	Span, NameSpan positions.Span
	// Value is the attribute's value expression.
	Value *Expr
}

// Registration is one `Module.register_attribute(__MODULE__, :name, opts)`.
type Registration struct {
	Name string
	Span positions.Span
	// Accumulate is `accumulate: true` among the options; Known is false
	// when the call cannot be read (another module, an unknown option
	// value), which leaves the attribute's reads unknown.
	Accumulate, Known bool
}

// RegistrationAt returns the last registration of @name in m that ends at
// or before pos, or nil.
func (m *Module) RegistrationAt(name string, pos int) *Registration {
	return lastBefore(m.Registered, name, pos, func(r *Registration) (string, positions.Span) { return r.Name, r.Span })
}

// lastBefore returns the last of xs (in source order) whose name is name
// and whose span ends at or before byte offset pos, or nil: what a use at
// pos reads of an attribute or a registration.
func lastBefore[T any](xs []*T, name string, pos int, of func(*T) (string, positions.Span)) *T {
	var found *T
	for _, x := range xs {
		n, sp := of(x)
		if sp.End > pos {
			break
		}
		if n == name {
			found = x
		}
	}
	return found
}

// Def is one definition (def, defp, defmacro, defmacrop or defdelegate)
// of a module body: one per clause, as Elixir's own AST has one call per
// clause.
type Def struct {
	// Name is the function name; "unquote(…)" for a name computed by
	// `def unquote(name)(...)`, known only when the code runs.
	Name string
	// Kind is "def", "defp", "defmacro", "defmacrop" or "defdelegate".
	Kind string
	// Private is true for defp and defmacrop.
	Private bool
	// Arity is the number of parameters; -1 when the head is not readable.
	Arity int
	// MinArity is Arity less the parameters with a default (`x \\ 1`):
	// Elixir defines the function at every arity from MinArity to Arity
	// (see Takes).
	MinArity int
	// Span covers the whole definition; NameSpan the function name.
	Span, NameSpan positions.Span
	// Params are the head's parameter patterns in order (nil for a
	// zero-arity or unreadable head).
	Params []*Expr
	// Guard is the head's guard, the expression after `when` (several
	// `when`s are one `when` expression, as Elixir reads them); nil for none.
	Guard *Expr
	// Body is the function body of the clause, whatever its arity (a
	// do-block is an ExprBlock whose value is its last expression); nil when
	// the definition has no readable body. A defdelegate's Body is the call
	// Elixir defines it to make (see Sketch.defdelegate): not written as
	// such, its Span is the options (`to: M, as: :f`) and its Args are the
	// head's parameters.
	Body *Expr
}

// Takes reports whether the definition can be called with arity
// arguments: from MinArity to Arity, as Elixir defines a function with
// default arguments at each of those arities (`def f(a, b \\ 1)` is f/1
// and f/2). An unreadable head takes none.
func (d *Def) Takes(arity int) bool { return d.Arity >= 0 && d.MinArity <= arity && arity <= d.Arity }

// Macro reports a defmacro or defmacrop.
func (d *Def) Macro() bool { return d.Kind == "defmacro" || d.Kind == "defmacrop" }

// Public reports a public function: a def, or a defdelegate, which
// defines a public function that calls another module's (Elixir's
// Kernel.defdelegate/2).
func (d *Def) Public() bool { return d.Kind == "def" || d.Kind == "defdelegate" }

// Alias is one alias in effect in a module: `alias A.B` (As "B"),
// `alias A.B, as: C` (As "C"), each name of `alias A.{B, C}`, or the
// implicit alias a nested `defmodule B` creates in its parent.
type Alias struct {
	// As is the short name ("B"); Target the full module name ("A.B").
	As, Target string
	// Span is the aliased name as written (for `alias A.{B, C}`, "B").
	Span positions.Span
	// Scope is where the alias applies: from the end of Span to the end of
	// the enclosing module or def body.
	Scope positions.Span
}

// Clauses returns every def/defp clause (not a macro) of m named name
// with the given arity, in source order (a multi-clause function such as
// run_action/3).
func (m *Module) Clauses(name string, arity int) []*Def {
	var out []*Def
	for _, d := range m.Defs {
		if d.Name == name && d.Takes(arity) && !d.Macro() && !m.headOnly(d) {
			out = append(out, d)
		}
	}
	return out
}

// headOnly reports a bodiless function head (`def f(a \\ 1)`, which
// Elixir requires to hold the defaults of a multi-clause function) that a
// later clause of the same name and arity gives a body: the clauses run,
// not the head.
func (m *Module) headOnly(h *Def) bool {
	if h.Body != nil || h.Kind == "defdelegate" {
		return false
	}
	for _, d := range m.Defs {
		if d.Name == h.Name && d.Arity == h.Arity && d.Body != nil && d.Kind == h.Kind {
			return true
		}
	}
	return false
}

// First returns the clause a call of name/arity to m runs among the
// definitions ok accepts: the first that takes arity, past a bodiless
// head; the head (whose value is unknown) when the call leaves defaults
// to fill in and several clauses may match them.
func (m *Module) First(name string, arity int, ok func(*Def) bool) *Def {
	var head, found *Def
	n := 0
	from := m.overriddenBefore(name, arity)
	for _, d := range m.Defs {
		if d.Name != name || !d.Takes(arity) || !ok(d) || d.Span.Start < from {
			continue
		}
		if m.headOnly(d) {
			if head == nil {
				head = d
			}
			continue
		}
		if found == nil {
			found = d
		}
		if d.Arity == found.Arity {
			n++
		}
	}
	if head != nil && (found == nil || n > 1 && arity < found.Arity) {
		return head
	}
	return found
}

// Def returns the first public or private function (def or defp, not a
// macro) of m named name with the given arity, or nil.
// overriddenBefore returns the end of the last `defoverridable name:
// arity` statement of m's body (also in a list, `defoverridable [name:
// arity]`) that a def of name/arity follows, or 0: Elixir makes the
// clauses before it overridable and the def after it replaces them, so
// the function is the clauses written after it.
func (m *Module) overriddenBefore(name string, arity int) int {
	from := 0
	for _, c := range m.Calls {
		if c.Kind != ExprCall || c.Base != nil || c.Text != "defoverridable" || len(c.Args) != 1 || c.Args[0].Kind != ExprList {
			continue
		}
		covers := false
		for _, p := range c.Args[0].Pairs {
			if p.Key != nil && p.Key.Kind == ExprAtom && !p.Key.Unknown && p.Key.Text == name && p.Value != nil &&
				p.Value.Kind == ExprInteger && integerValue(p.Value.Text) == strconv.Itoa(arity) {
				covers = true
			}
		}
		if !covers {
			continue
		}
		for _, d := range m.Defs {
			if d.Name == name && d.Takes(arity) && d.Span.Start >= c.Span.End {
				from = c.Span.End
				break
			}
		}
	}
	return from
}

func (m *Module) Def(name string, arity int) *Def {
	return m.First(name, arity, func(d *Def) bool { return !d.Macro() })
}

// Actions returns the public `actions/0` definition of m, or nil
// (docs/architecture.md "The Elixir reader": the declaration is actions/0).
func (m *Module) Actions() *Def {
	return m.First("actions", 0, (*Def).Public)
}

// AttrAt returns the definition of @name that a use at byte offset pos
// reads: the last definition in m that ends at or before pos, or nil.
func (m *Module) AttrAt(name string, pos int) *Attr {
	return lastBefore(m.Attrs, name, pos, func(a *Attr) (string, positions.Span) { return a.Name, a.Span })
}

// AttrKnown reports whether a read of @name at byte offset pos reads
// what AttrAt returns (or, after an accumulating registration, the
// definitions since it): false when a write the reader does not follow
// (Unfollowed) lies between them, as in `@x %{}` then `for ... do @x ...
// end` (docs/rules.md §5: an offence only where wymcp would certainly
// raise).
func (m *Module) AttrKnown(name string, pos int) bool {
	w := lastBefore(m.Unfollowed, name, pos, func(a *Attr) (string, positions.Span) { return a.Name, a.Span })
	if w == nil {
		return true
	}
	if r := m.RegistrationAt(name, pos); r != nil && r.Span.Start >= w.Span.End {
		return true
	}
	a := m.AttrAt(name, pos)
	return a != nil && a.Span.Start >= w.Span.End
}

// fileScope is the top level of one file: the aliases of its `alias`
// (and `require M, as: A`) statements and its `import` statements outside
// every defmodule, in source order, each with the Scope it is in effect in
// (to the end of the file, or of the block it is written in).
type fileScope struct {
	aliases []*Alias
	imports []*Import
}

// ResolveAlias expands a module reference written at byte offset pos in m
// ("Schemas", "B.C", "__MODULE__.Schemas", "Elixir.Foo") to a full module
// name, through the aliases in effect at pos in m, its enclosing modules
// and the top level of its file (an `alias` before its defmodule).
func (m *Module) ResolveAlias(name string, pos int) string {
	if rest, ok := strings.CutPrefix(name, "Elixir."); ok {
		return rest
	}
	if name == "__MODULE__" {
		return m.Name
	}
	if rest, ok := strings.CutPrefix(name, "__MODULE__."); ok {
		if m.Name == "" { // the top level, where __MODULE__ is nil: Module.concat(nil, X) is X
			return rest
		}
		return m.Name + "." + rest
	}
	head, tail, _ := strings.Cut(name, ".")
	resolve := func(aliases []*Alias) (string, bool) {
		for i := len(aliases) - 1; i >= 0; i-- {
			a := aliases[i]
			if a.As == head && a.Span.End <= pos && a.Scope.Start <= pos && pos <= a.Scope.End {
				if tail == "" {
					return a.Target, true
				}
				return a.Target + "." + tail, true
			}
		}
		return "", false
	}
	for mod := m; mod != nil; mod = mod.Parent {
		if full, ok := resolve(mod.Aliases); ok {
			return full
		}
		if mod.Parent == nil && mod.file != nil {
			if full, ok := resolve(mod.file.aliases); ok {
				return full
			}
		}
	}
	return name
}

// ExprKind is the syntactic kind of an Expr.
type ExprKind uint8

// The expression kinds of the IR. Anything the reader does not model is
// ExprOpaque and keeps only its span.
const (
	// ExprOpaque is any expression the reader does not model, but two:
	// Text "[]" is the bracket access x[k] (Args x and the bracket, whose
	// Args are what it holds), Text "." the field x.f (Args the call f
	// whose Base is x).
	ExprOpaque ExprKind = iota
	// ExprError is a point where the tolerant parser recovered (a missing
	// value, a keyless map item, an unexpected token): Args the recovered
	// children, Text the message. In a File of Parse, Text is empty (the
	// point is not reported) except on the one syntax error the syntax
	// check found, attached where Elixir reports it.
	ExprError
	// ExprMap is %{...} or %Struct{...}: Pairs in order, Open the opener,
	// Struct the struct name as written, Base the map of %{base | ...}.
	ExprMap
	// ExprList is [...]: Args the plain elements, then Pairs the trailing
	// keyword elements ([a: 1] is a list of one {:a, 1} tuple). Base is the
	// tail of [h | tail].
	ExprList
	// ExprTuple is {...}: Args the elements.
	ExprTuple
	// ExprAtom is :a, :"a b" or a keyword key: Text the decoded name,
	// Unknown when interpolated.
	ExprAtom
	// ExprBool is true or false (Text).
	ExprBool
	// ExprNil is nil.
	ExprNil
	// ExprInteger is an integer or a ?c character literal (Text as written).
	ExprInteger
	// ExprFloat is a float literal (Text as written).
	ExprFloat
	// ExprString is a string, heredoc or ~s/~S sigil: Text the decoded
	// literal parts, Unknown when interpolated.
	ExprString
	// ExprCharlist is 'x', a ''' heredoc, or ~c/~C: Text decoded.
	ExprCharlist
	// ExprWords is ~w(...)/~W(...): Words, Text the modifier ("", "a", "s", "c").
	ExprWords
	// ExprAlias is a module reference (Foo.Bar, __MODULE__.X): Text as
	// written, without spaces. For the multi-alias A.{B, C} Text is "A" and
	// Args are the inner aliases B and C.
	ExprAlias
	// ExprAttr is a module attribute read @name: Text the name, NameSpan.
	ExprAttr
	// ExprIdent is a bare identifier (a variable or a zero-arity local call
	// without parentheses): Text.
	ExprIdent
	// ExprCall is a call: Text the function name, NameSpan, Base the
	// receiver of a remote call (nil for a local call), Args the arguments
	// (a trailing keyword list is one ExprList argument), and a do-block as
	// a last ExprBlock argument.
	ExprCall
	// ExprBinary is a binary operator: Text the operator, Args [left, right].
	ExprBinary
	// ExprUnary is a unary operator: Text the operator, Args [operand].
	ExprUnary
	// ExprBlock is a do-block or (a; b): Args the statements.
	ExprBlock
)

var exprKindNames = [...]string{"opaque", "error", "map", "list", "tuple", "atom", "bool", "nil", "integer", "float", "string", "charlist", "words", "alias", "attr", "ident", "call", "binary", "unary", "block"}

// String returns the kind's lower-case name.
func (k ExprKind) String() string {
	if int(k) < len(exprKindNames) {
		return exprKindNames[k]
	}
	return "exprkind?"
}

// Expr is one expression of the reader's IR. Spans are byte offsets,
// never empty, within the parsed content. See ExprKind for which fields
// each kind uses; what few expressions have (a map's opener and struct
// name, a ~w sigil's words, the syntax errors inside) is read through the
// methods Open, Struct, Words and Errs, so that the parser's many small
// expressions stay small (120 bytes instead of 192 on 64-bit machines).
type Expr struct {
	Kind ExprKind
	// Unknown marks interpolated strings, charlists, atoms and words.
	Unknown bool
	// Heredoc marks a """ or ''' string, charlist or sigil.
	Heredoc bool
	// openLen is the byte length of a map's opener (see Open).
	openLen int32
	// Span is the whole expression as written.
	Span positions.Span
	// Text depends on Kind (see ExprKind).
	Text string
	// NameSpan is a call's function name or an attribute read's name.
	NameSpan positions.Span
	// Base is a map update's base, a remote call's receiver, or a list tail.
	Base  *Expr
	Args  []*Expr
	Pairs []Pair
	// more holds the rarely set fields; nil when they are all empty.
	more *exprMore
}

// exprMore holds the fields of an Expr that few expressions set.
type exprMore struct {
	structName string
	words      []Word
	errs       []*Expr
}

// Open returns a map's opener, `%{` (2 bytes) or `%Struct{`, which starts
// where the map starts; the zero Span for every other kind.
func (e *Expr) Open() positions.Span {
	if e.openLen == 0 {
		return positions.Span{}
	}
	return positions.Span{Start: e.Span.Start, End: e.Span.Start + int(e.openLen)}
}

// Struct returns a struct map's name as written ("App.Hint", or the
// variable of %module{}); "" for a plain map and every other kind.
func (e *Expr) Struct() string {
	if e.more == nil {
		return ""
	}
	return e.more.structName
}

// Words returns the words of a ~w sigil (ExprWords) in order; nil for
// every other kind.
func (e *Expr) Words() []Word {
	if e.more == nil {
		return nil
	}
	return e.more.words
}

// Errs returns the syntax errors (ExprError) met directly inside the
// expression (an ERROR child of a map, a missing closing token), in the
// order they were met; nil for none.
func (e *Expr) Errs() []*Expr {
	if e.more == nil {
		return nil
	}
	return e.more.errs
}

// extra returns e.more, allocating it first.
func (e *Expr) extra() *exprMore {
	if e.more == nil {
		e.more = &exprMore{}
	}
	return e.more
}

// addErrs appends xs to e's Errs (nothing is allocated for none).
func (e *Expr) addErrs(xs ...*Expr) {
	if len(xs) > 0 {
		m := e.extra()
		m.errs = append(m.errs, xs...)
	}
}

// Pair is one key-value pair of a map or keyword list.
type Pair struct {
	// Key is an ExprAtom for keyword syntax (its Span is the tight key: no
	// colon, no trailing space; a quoted key keeps its quotes), or any
	// expression before `=>`.
	Key, Value *Expr
	// Keyword reports keyword syntax (`key: value`).
	Keyword bool
	// Span covers the key through the value.
	Span positions.Span
}

// Word is one word of a ~w sigil.
type Word struct {
	// Text is the decoded word; Span the word as written.
	Text string
	Span positions.Span
}
