package elixir

import (
	"unsafe"

	"github.com/wymcp/wymcp-ls/positions"
)

// The cursor parser: a tolerant recursive-descent reader over the cursor
// lexer's tokens, producing the same IR as Parse (Expr, Module) so that
// Evaluate reads it unchanged. Where a strict parser gives up on a
// half-typed buffer (an unclosed map swallows the module), this one closes every
// open container at the next definition, `end` or the end of the file,
// keeps a keyless item of a map as an error child, and a missing value as
// an empty error, so that a cursor anywhere still has a path of
// expressions above it.

// binary operator precedences (Elixir's table, low to high); right
// associative operators are marked.
var binPrec = map[string]int{
	"->": 1, "::": 3, "|": 3, "when": 4, "<-": 5, "\\\\": 5, "=": 6,
	"||": 7, "|||": 7, "or": 7, "&&": 8, "&&&": 8, "and": 8,
	"==": 9, "!=": 9, "=~": 9, "===": 9, "!==": 9,
	"<": 10, ">": 10, "<=": 10, ">=": 10,
	"|>": 11, "<<<": 11, ">>>": 11, "<<~": 11, "~>>": 11, "<~": 11, "~>": 11, "<~>": 11,
	"in": 12, "not in": 12, "^^^": 13, "//": 14,
	"++": 15, "--": 15, "+++": 15, "---": 15, "..": 15, "<>": 15,
	"+": 16, "-": 16, "*": 17, "/": 17, "**": 18,
}

// precOf returns binPrec[op] and whether op is there, answering the
// punctuation that makes most operator tokens (`,` `:` brackets, `=>`)
// without hashing it.
func precOf(op string) (int, bool) {
	if len(op) == 1 {
		switch op[0] {
		case ',', ':', ';', '(', ')', '[', ']', '{', '}', '.', '%', '@', '&', '^', '!', '~':
			return 0, false
		}
	} else if len(op) == 2 && (op == "%{" || op == "=>") {
		return 0, false
	}
	p, ok := binPrec[op]
	return p, ok
}

// isBinaryOp reports whether op is in binPrec (precOf without the
// precedence).
func isBinaryOp(op string) bool {
	_, ok := precOf(op)
	return ok
}

var rightAssoc = map[string]bool{"|": true, "->": true, "::": true, "when": true, "=": true, "++": true, "--": true, "+++": true, "---": true, "..": true, "<>": true, "//": true, "**": true}

// lineContinues are the operators that continue an expression from the
// start of the next line in a block (a pipeline written one step a line).
var lineContinues = map[string]bool{"|>": true, "<>": true, "++": true, "and": true, "or": true, "when": true, "&&": true, "||": true, ".": true}

// defLike are the identifiers that start a definition: met first on a
// line inside an open container, they close it (the tolerant recovery).
var defLike = map[string]bool{
	"def": true, "defp": true, "defmacro": true, "defmacrop": true, "defmodule": true,
	"defimpl": true, "defprotocol": true, "defdelegate": true, "defstruct": true,
	"defguard": true, "defguardp": true, "defexception": true, "defoverridable": true,
}

// moduleDefs are the definitions whose do-block is a module body.
var moduleDefs = map[string]bool{"defmodule": true, "defimpl": true, "defprotocol": true}

// funDefs are the definitions whose do-block is a function body, where
// Elixir sets no module attribute.
var funDefs = map[string]bool{"def": true, "defp": true, "defmacro": true, "defmacrop": true}

// notCallee are identifiers that never take no-parenthesis arguments.
var notCallee = map[string]bool{
	"do": true, "end": true, "fn": true, "true": true, "false": true, "nil": true,
	"and": true, "or": true, "not": true, "in": true, "when": true,
	"else": true, "after": true, "rescue": true, "catch": true, "__MODULE__": true,
}

// blockSections split a do-block; only the do part is kept as its value.
var blockSections = map[string]bool{"else": true, "after": true, "rescue": true, "catch": true}

// maxParseDepth bounds the parser's recursion; deeper input is opaque.
const maxParseDepth = 400

// node returns a pointer to a copy of e, allocated from a slab (the
// parser builds many small expressions).
//
// The copy is made field by field into the slab's zeroed memory, writing
// only the pointer fields that are set: a whole-struct copy runs the
// garbage collector's bulk write barrier over every pointer word of the
// struct whenever a collection is under way, a tenth of a parse.
// TestNodeCopiesEveryField keeps this list complete.
func (p *cparser) node(e Expr) *Expr {
	x := p.nodes.one()
	x.Kind, x.Unknown, x.Heredoc, x.openLen = e.Kind, e.Unknown, e.Heredoc, e.openLen
	x.Span, x.NameSpan = e.Span, e.NameSpan
	if e.Text != "" {
		x.Text = e.Text
	}
	if e.Base != nil {
		x.Base = e.Base
	}
	if e.Args != nil {
		x.Args = e.Args
	}
	if e.Pairs != nil {
		x.Pairs = e.Pairs
	}
	if e.more != nil {
		x.more = e.more
	}
	if e.Kind == ExprError && p.full {
		p.errs = append(p.errs, x)
	}
	return x
}

// leaf returns a new expression of kind k spanning token t, with text
// and the flags given: node for the scalars (never an error node), the
// most made expressions, without copying a whole Expr in and out.
func (p *cparser) leaf(k ExprKind, t *token, text string, unknown, heredoc bool) *Expr {
	x := p.nodes.one()
	x.Kind, x.Unknown, x.Heredoc = k, unknown, heredoc
	x.Span = t.span()
	if text != "" {
		x.Text = text
	}
	return x
}

// container returns a new empty expression of kind k (a map, list,
// tuple, block or opaque group, never an error node) whose items are read
// next: node without an Expr copied in.
func (p *cparser) container(k ExprKind) *Expr {
	x := p.nodes.one()
	x.Kind = k
	return x
}

// args1 and args2 are the argument lists of one and two expressions
// (operators, attributes, captures), from the parser's slab of argument
// lists.
func (p *cparser) args1(a *Expr) []*Expr {
	s := p.argLists.take(1)
	s[0] = a
	return s
}

func (p *cparser) args2(a, b *Expr) []*Expr {
	s := p.argLists.take(2)
	s[0], s[1] = a, b
	return s
}

type cparser struct {
	// nodes, argLists and pairLists hold the expressions, argument lists
	// and pair lists of the parse (one allocation for many).
	nodes     slab[Expr]
	argLists  slab[*Expr]
	pairLists slab[Pair]
	// pairStk and argStk hold the pairs and plain items of the containers
	// being read, innermost last (see items and itemsDone).
	pairStk []Pair
	argStk  []*Expr
	// lexed is the source read and its tokens; read their texts with
	// p.text (which shadows lexed.text) or p.name.
	lexed
	pos int
	// stmtCol is the column of the first token of the statement being read
	// (the recovery closes containers at a definition at or left of it).
	stmtCol int32
	depth   int
	// skim: values of pairs that do not hold cursor are not read (an
	// opaque expression keeps their span).
	skim   bool
	cursor int
	// full: the reading of Parse, which settles the error nodes with the
	// syntax check (read.go): errs lists every error node, unclosed every
	// string never closed, and a container holding a missing value or
	// element lists it in its Errs too (so it is partial).
	// pipeDepth is the expression depth of a container item being read,
	// where `|` is the container's (`[h | t]`, `%{m | k: v}`), not an
	// operator (`@type t :: :a | :b`).
	pipeDepth int
	full      bool
	errs      []*Expr
	unclosed  []*Expr
	// strict: no column recovery (stops, block), for a file the syntax
	// check found whole (read.go). recovered: a reading that is not
	// strict met a point where the recovery decided (recovery), so a
	// strict reading of the same tokens may differ from it.
	strict, recovered bool
	// copied holds the texts taken from the source (copyText).
	copied []byte
}

// text returns the text of token t (lexed.text). A text the lexer left
// in the source (a number, a plain string's body) is copied at each call,
// so read it once. For an identifier, alias or operator, whose text is
// always a name, the parser calls lexed.name, the fast case of text.
func (p *cparser) text(t *token) string {
	if t.from == textName {
		return p.names[t.text]
	}
	return p.otherText(t)
}

// otherText is text for a token whose text is not a name (out of line,
// as lexed.otherText).
//
//go:noinline
func (p *cparser) otherText(t *token) string {
	switch t.from {
	case textSpan:
		return p.copyText(int(t.start), int(t.end))
	case textBody:
		return p.copyText(int(t.start)+1, int(t.text))
	}
	return p.lexed.otherText(t)
}

// copyText returns src[i:j] as a string copied into p.copied, many texts
// to one allocation: the chunk is only appended to (a full one is
// replaced, never reused), so the strings it returned stay as they were.
func (p *cparser) copyText(i, j int) string {
	b := p.src[i:j]
	if len(b) == 0 || len(b) > strChunk/8 {
		return string(b)
	}
	if cap(p.copied)-len(p.copied) < len(b) {
		p.copied = make([]byte, 0, strChunk)
	}
	n := len(p.copied)
	p.copied = append(p.copied, b...)
	return unsafe.String(&p.copied[n], len(b))
}

// strChunk is the size of one allocation of stringText.
const strChunk = 8 << 10

func (p *cparser) peek() *token { return &p.toks[p.pos] }

func (p *cparser) peekAt(k int) *token {
	if p.pos+k < len(p.toks) {
		return &p.toks[p.pos+k]
	}
	return &p.toks[len(p.toks)-1]
}

func (p *cparser) advance() *token {
	t := &p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *cparser) prevEnd() int          { return p.toks[max(p.pos-1, 0)].span().End }
func span(start, end int) positions.Span { return positions.Span{Start: start, End: max(start, end)} }
func (p *cparser) missing(at, to int, msg string) *Expr {
	return p.node(Expr{Kind: ExprError, Span: span(at, to), Text: msg})
}
func (p *cparser) opaqueFrom(start int) *Expr {
	return p.node(Expr{Kind: ExprOpaque, Span: span(start, p.prevEnd())})
}
func (p *cparser) closes(t *token, closer string) bool { return closer != "" && p.isOp(t, closer) }

// stops reports whether t closes every open container: `end`, a
// definition first on its line, or an attribute first on its line at or
// left of the statement's column (valuePos: t would be a value).
func (p *cparser) stops(t *token) bool {
	// By kind first, in line: most tokens (keys, strings, punctuation)
	// stop nothing. tEOF and tIdent are the first kinds; a one-byte
	// operator's text is its byte.
	return (t.kind <= tIdent || t.kind == tOp && t.text == '@') && p.stopsTok(t)
}

// stopsTok is stops for the end of the file, an identifier or the
// operator @.
func (p *cparser) stopsTok(t *token) bool {
	switch t.kind {
	case tEOF:
		return true
	case tOp:
		return !p.strict && p.recovery(t.bol() && t.col <= p.stmtCol && p.peekAfter(t).kind == tIdent)
	}
	switch {
	case p.name(t) == "end":
		return true
	case p.strict || !t.bol():
		return false
	case defLike[p.name(t)]:
		return p.recovery(true)
	}
	return p.recovery(t.col <= p.stmtCol && moduleDirective[p.name(t)] && p.peekAfter(t).kind == tAlias)
}

// recovery returns b, noting in p.recovered that the column recovery
// decided where a strict reading (cparser.strict) would not have when b
// is true. Every answer of the recovery passes through it.
func (p *cparser) recovery(b bool) bool {
	if b {
		p.recovered = true
	}
	return b
}

// moduleDirective are the calls that, first on a line at the statement's
// column and followed by a module name, start a new statement of a
// module body (`use Wymcp.Tool` after an unclosed `@x [1, 2`).
var moduleDirective = map[string]bool{"use": true, "alias": true, "import": true, "require": true}

// peekAfter returns the token after t (t must be a token of p.toks).
func (p *cparser) peekAfter(t *token) *token {
	for k := p.pos; k < len(p.toks)-1; k++ {
		if &p.toks[k] == t {
			return &p.toks[k+1]
		}
	}
	return &p.toks[len(p.toks)-1]
}

// startsExpr reports whether t can start an argument of a call written
// without parentheses.
func (p *cparser) startsExpr(t *token) bool {
	if t.kind-tAlias <= tFloat-tAlias { // tAlias to tFloat, in line: a literal, a key or an alias
		return true
	}
	return (t.kind == tIdent || t.kind == tOp) && p.startsExprAt(t)
}

// startsExprAt is startsExpr for an identifier or an operator.
func (p *cparser) startsExprAt(t *token) bool {
	switch t.kind {
	case tIdent:
		if p.name(t) == "not" {
			return !p.isWord(p.peekAfter(t), "in") // `a not in b` is an operator
		}
		s := p.name(t)
		return !notCallee[s] || s == "true" || s == "false" || s == "nil" || s == "fn" || s == "__MODULE__"
	case tAlias, tKey, tAtom, tString, tCharlist, tWords, tSigil, tInt, tFloat:
		return true
	case tOp:
		switch p.name(t) {
		case "%", "[", "{", "(", "@", "&", "!", "^", "<<":
			return true
		case "-", "+":
			// `@x -1`, `foo -x`: a spaced sign glued to its operand is an
			// argument, as Elixir reads it.
			n := p.peekAfter(t)
			return t.spaced() && !n.spaced() && !n.bol() && n.kind != tEOF
		}
	}
	return false
}

// binaryOp returns the binary operator at the current token, its width
// in tokens ("not in" is two) and what the parser asks of it (opInfos),
// or "" and 0.
func (p *cparser) binaryOp() (string, int, opInfo) {
	t := p.peek()
	switch t.kind {
	case tOp:
		// A tOp token's text is its index in opTexts (opAt, opByte).
		if k := int(t.text); k < len(opTexts) {
			if in := opInfos[k]; in.prec != 0 {
				return opTexts[k], 1, in
			}
			return "", 0, opInfo{}
		}
		if op := p.name(t); isBinaryOp(op) {
			return op, 1, infoOf(op)
		}
	case tIdent:
		switch w := p.name(t); w {
		case "and", "or", "in", "when":
			return w, 1, infoOf(w)
		case "not":
			if n := p.peekAt(1); p.isWord(n, "in") {
				return "not in", 2, infoOf("not in")
			}
		}
	}
	return "", 0, opInfo{}
}

// opInfo is what exprAt asks of a binary operator: its precedence
// (binPrec; 0 for a token that is none), whether it is right associative
// (rightAssoc) and whether it continues a block's line (lineContinues).
type opInfo struct {
	prec        int8
	right, cont bool
}

// infoOf returns the opInfo of op from the tables.
func infoOf(op string) opInfo {
	prec, _ := precOf(op)
	return opInfo{prec: int8(prec), right: rightAssoc[op], cont: lineContinues[op]}
}

// opInfos is infoOf for each text of opTexts, by index: an operator
// token's text is that index, so that the operator after every
// expression is looked up without hashing its text.
// An array, not a slice, so that the look-up after every expression
// loads no slice header; the entries past opTexts are for no operator.
var opInfos = func() (t [256]opInfo) {
	if len(opTexts) > len(t) {
		panic("elixir: opInfos is shorter than opTexts")
	}
	for k, op := range opTexts {
		t[k] = infoOf(op)
	}
	return t
}()

// expr reads an expression whose operators bind at least minPrec. inBlock
// reports a block statement, where a newline ends the expression unless
// the next line starts with a continuing operator.
func (p *cparser) expr(minPrec int, inBlock, noDo bool) *Expr {
	p.depth++
	e := p.exprAt(minPrec, inBlock, noDo)
	p.depth--
	return e
}

// exprAt is expr's work at depth p.depth (without a deferred decrement,
// which cost as much as a map lookup on every expression).
func (p *cparser) exprAt(minPrec int, inBlock, noDo bool) *Expr {
	if p.depth > maxParseDepth {
		start := p.peek().span().Start
		p.skipBalanced()
		return p.opaqueFrom(start)
	}
	// Most expressions start with no prefix operator: postfix is then
	// called from here, as unary would, one stack frame fewer for each
	// nesting level (the memory profiler's sampling unwinds the stack).
	var left *Expr
	if t := p.peek(); p.depth >= maxParseDepth || p.prefixOp(t) {
		left = p.unary(inBlock, noDo)
	} else {
		p.depth++ // unary's level
		left = p.postfix(inBlock, noDo)
		p.depth--
	}
	if left == nil {
		return nil
	}
	for {
		// Most expressions are followed by punctuation (`,` `}` `=>`),
		// not by a binary operator: binaryOp's answer for them, in line.
		if t := p.peek(); t.kind != tIdent && (t.kind != tOp || uint32(t.text) < uint32(len(opInfos)) && opInfos[t.text].prec == 0) {
			return left
		}
		op, width, info := p.binaryOp()
		if width == 0 || op == "|" && p.depth == p.pipeDepth {
			return left
		}
		t := p.peek()
		if inBlock && t.bol() && !info.cont {
			return left
		}
		if t.bol() && (op == "-" || op == "+") && !p.peekAt(1).spaced() {
			return left // `-13` first on a line starts an expression
		}
		prec := int(info.prec)
		if prec < minPrec {
			return left
		}
		for range width {
			p.advance()
		}
		next := prec + 1
		if info.right {
			next = prec
		}
		var right *Expr
		if !p.stops(p.peek()) {
			right = p.expr(next, false, noDo)
		}
		if right == nil {
			right = p.missing(p.prevEnd(), p.prevEnd(), "syntax error: missing operand")
		}
		left = p.node(Expr{Kind: ExprBinary, Text: op, Span: span(left.Span.Start, max(right.Span.End, left.Span.End)), Args: p.args2(left, right)})
	}
}

// unary reads a prefix operator application or a postfix expression.
func (p *cparser) unary(inBlock, noDo bool) *Expr {
	p.depth++
	e := p.unaryAt(inBlock, noDo)
	p.depth--
	return e
}

// unaryAt is unary's work at depth p.depth (see exprAt).
func (p *cparser) unaryAt(inBlock, noDo bool) *Expr {
	t := p.peek()
	start := t.span().Start
	if p.depth > maxParseDepth {
		p.skipBalanced()
		return p.opaqueFrom(start)
	}
	if !p.prefixOp(t) {
		return p.postfix(inBlock, noDo)
	}
	if t.kind == tOp {
		switch p.name(t) {
		case "@":
			return p.attribute(noDo)
		case "!", "^", "-", "+", "~~~":
			p.advance()
			x := p.unary(inBlock, noDo)
			if x == nil {
				x = p.missing(p.prevEnd(), p.prevEnd(), "syntax error: missing operand")
			}
			return p.node(Expr{Kind: ExprUnary, Text: p.name(t), Span: span(start, x.Span.End), Args: p.args1(x)})
		case "&":
			p.advance()
			if n := p.peek(); n.kind == tInt && !n.spaced() {
				// &1: a capture argument, one token to Elixir
				p.advance()
				x := p.node(Expr{Kind: ExprInteger, Span: n.span(), Text: p.text(n)})
				return p.node(Expr{Kind: ExprOpaque, Span: span(start, n.span().End), Args: p.args1(x)})
			}
			x := p.expr(9, inBlock, noDo)
			if x == nil {
				return p.opaqueFrom(start)
			}
			return p.node(Expr{Kind: ExprOpaque, Span: span(start, x.Span.End), Args: p.args1(x)})
		}
	}
	if p.isWord(t, "not") {
		p.advance()
		x := p.unary(inBlock, noDo)
		if x == nil {
			return p.opaqueFrom(start)
		}
		return p.node(Expr{Kind: ExprUnary, Text: "not", Span: span(start, x.Span.End), Args: p.args1(x)})
	}
	return p.postfix(inBlock, noDo)
}

// attribute reads `@name` (a read) or `@name value` (a definition, kept
// as a unary @ over a call of name with the value as its argument, the
// shape Parse's converter reads).
func (p *cparser) attribute(noDo bool) *Expr {
	at := p.advance()
	n := p.peek()
	if n.kind == tAlias && !n.spaced() {
		// `@Upper`: Elixir's AST is @__aliases__([:Upper]), which its
		// compiler rejects; read as that AST reads.
		a := p.aliasExpr(false, true)
		name := p.node(Expr{Kind: ExprCall, Text: "__aliases__", NameSpan: a.Span, Span: a.Span, Args: p.args1(a)})
		return p.node(Expr{Kind: ExprUnary, Text: "@", Span: span(at.span().Start, a.Span.End), Args: p.args1(name)})
	}
	if n.kind != tIdent && !n.bol() && !n.spaced() && p.startsExpr(n) {
		// @ applied to an expression: `defmacro @{name, meta, args}`.
		x := p.unary(false, noDo)
		if x != nil {
			return p.node(Expr{Kind: ExprUnary, Text: "@", Span: span(at.span().Start, x.Span.End), Args: p.args1(x)})
		}
	}
	if n.kind != tIdent || n.bol() {
		return p.node(Expr{Kind: ExprOpaque, Span: at.span()})
	}
	p.advance()
	name := p.node(Expr{Kind: ExprCall, Text: p.name(n), NameSpan: n.span(), Span: n.span()})
	v := p.peek()
	if p.isOp(v, "(") && !v.spaced() {
		// `@x(value)` defines @x as `@x value` does; `@x()` reads it.
		p.callArgs(name)
		switch len(name.Args) {
		case 0:
			return p.access(noDo, p.node(Expr{Kind: ExprAttr, Text: name.Text, NameSpan: n.span(), Span: span(at.span().Start, name.Span.End)}))
		case 1:
			return p.node(Expr{Kind: ExprUnary, Text: "@", Span: span(at.span().Start, name.Span.End), Args: p.args1(name)})
		}
		return p.node(Expr{Kind: ExprOpaque, Span: span(at.span().Start, name.Span.End), Args: name.Args})
	}
	if !v.bol() && v.spaced() && p.startsExpr(v) && !p.stops(v) {
		val := p.argument(true)
		if val != nil {
			name.Args = p.args1(val)
			name.Span.End = val.Span.End
			if !noDo && p.isWord(p.peek(), "do") {
				// `@foo quote do ... end`: the do-block is @foo's second
				// argument, as Elixir reads it (not an attribute value).
				p.doBlock(name)
			}
			return p.node(Expr{Kind: ExprUnary, Text: "@", Span: span(at.span().Start, val.Span.End), Args: p.args1(name)})
		}
	}
	// `@s.a` and `@s[:a]` read the attribute's field or key: the access
	// applies to the attribute (Elixir's AST is `(@s).a`), an opaque value.
	return p.access(noDo, p.node(Expr{Kind: ExprAttr, Text: p.name(n), NameSpan: n.span(), Span: span(at.span().Start, n.span().End)}))
}

// argument reads one argument of a call: a bare keyword list or an
// expression.
func (p *cparser) argument(noDo bool) *Expr {
	if p.peek().kind == tKey {
		return p.keywords("", noDo)
	}
	return p.expr(0, false, noDo)
}

// keywords reads a bracket-less keyword list `a: 1, b: 2` (a trailing
// call argument) as an ExprList of pairs.
func (p *cparser) keywords(closer string, noDo bool) *Expr {
	e := p.node(Expr{Kind: ExprList, Span: span(p.peek().span().Start, p.peek().span().Start)})
	for p.peek().kind == tKey {
		k, v := p.keyPair(closer, noDo)
		pr := pairOf(k, v, true)
		e.Pairs = append(e.Pairs, pr)
		e.Span.End = pr.Span.End
		if !p.isOp(p.peek(), ",") || p.peekAt(1).kind != tKey {
			break
		}
		p.advance()
	}
	return e
}

// keyExpr converts a tKey token to an atom key.
func (p *cparser) keyExpr(t *token) *Expr {
	return p.leaf(ExprAtom, t, p.text(t), t.unknown(), false)
}

// keyPair reads `key: value` at a tKey token and returns the key and the
// value.
func (p *cparser) keyPair(closer string, noDo bool) (k, v *Expr) {
	k = p.keyExpr(p.advance())
	colonEnd := p.prevEnd() + 1
	if colonEnd > len(p.src) {
		colonEnd = len(p.src)
	}
	return k, p.value(colonEnd, closer, noDo)
}

// pairOf returns the pair k: v (keyword) or k => v, spanning both.
func pairOf(k, v *Expr, keyword bool) Pair {
	return Pair{Key: k, Value: v, Keyword: keyword, Span: span(k.Span.Start, max(k.Span.End, v.Span.End))}
}

// pushPair pushes pairOf(k, v, keyword) on p.pairStk, writing its fields
// in place: appending a whole Pair ran the garbage collector's bulk write
// barrier whenever a collection was under way (see node).
func (p *cparser) pushPair(k, v *Expr, keyword bool) {
	n := len(p.pairStk)
	if n < cap(p.pairStk) {
		p.pairStk = p.pairStk[:n+1]
	} else {
		p.pairStk = append(p.pairStk, Pair{})
	}
	pr := &p.pairStk[n]
	pr.Key, pr.Value, pr.Keyword = k, v, keyword
	pr.Span = span(k.Span.Start, max(k.Span.End, v.Span.End))
}

// value reads the value after a separator ending at sepEnd, or returns a
// missing-value error spanning the blank up to the next token.
//
// items has a copy of it (one stack frame fewer for each nesting level);
// noValue and skimValue are their common parts.
func (p *cparser) value(sepEnd int, closer string, noDo bool) *Expr {
	t := p.peek()
	if p.noValue(t, closer) {
		return p.missing(sepEnd, max(sepEnd, t.span().Start), "syntax error: missing value")
	}
	if p.skim {
		if v := p.skimValue(t, closer); v != nil {
			return v
		}
	}
	v := p.expr(0, false, noDo)
	if v == nil {
		return p.missing(sepEnd, max(sepEnd, t.span().Start), "syntax error: missing value")
	}
	return v
}

// noValue reports whether t, after a pair's separator, starts no value.
func (p *cparser) noValue(t *token, closer string) bool {
	return p.isOp(t, ",") || p.closes(t, closer) || p.stops(t) || !p.startsExpr(t) && t.kind != tOp
}

// skimValue returns the opaque value starting at t of a skimming parser
// (cparser.skim) when it does not hold the cursor, past it; nil when the
// value is to be read.
func (p *cparser) skimValue(t *token, closer string) *Expr {
	if end, next, ok := p.skipValue(closer); ok && !(t.span().Start <= p.cursor && p.cursor <= end) {
		p.pos = next
		return p.node(Expr{Kind: ExprOpaque, Span: span(t.span().Start, end)})
	}
	return nil
}

// postfix reads a primary expression with its calls and do-block.
func (p *cparser) postfix(inBlock, noDo bool) *Expr {
	t := p.peek()
	start := t.span().Start
	switch t.kind {
	case tEOF:
		return nil
	case tInt:
		p.advance()
		return p.access(noDo, p.leaf(ExprInteger, t, p.text(t), false, false))
	case tFloat:
		p.advance()
		return p.access(noDo, p.leaf(ExprFloat, t, p.text(t), false, false))
	case tString:
		p.advance()
		e := p.leaf(ExprString, t, p.text(t), t.unknown(), t.heredoc())
		if !t.closed() {
			e.addErrs(p.missing(t.span().End, t.span().End, `syntax error: missing terminator`))
			if p.full {
				p.unclosed = append(p.unclosed, e)
			}
			return e
		}
		return p.access(noDo, e)
	case tCharlist:
		p.advance()
		return p.access(noDo, p.leaf(ExprCharlist, t, p.text(t), t.unknown(), t.heredoc()))
	case tWords:
		p.advance()
		w := p.words[t.text]
		e := p.node(Expr{Kind: ExprWords, Span: t.span(), Text: w.mod, Unknown: t.unknown()})
		if w.words != nil {
			e.extra().words = w.words
		}
		return p.access(noDo, e)
	case tSigil:
		p.advance()
		return p.access(noDo, p.node(Expr{Kind: ExprOpaque, Span: t.span()}))
	case tAtom:
		p.advance()
		return p.access(noDo, p.leaf(ExprAtom, t, p.text(t), t.unknown(), false))
	case tKey:
		return p.keywords("", noDo)
	case tAlias:
		return p.aliasExpr(inBlock, noDo)
	case tIdent:
		return p.identExpr(inBlock, noDo)
	case tBad:
		p.advance()
		return p.node(Expr{Kind: ExprError, Span: t.span(), Text: "syntax error: unexpected " + p.text(t)})
	case tOp:
		switch p.name(t) {
		case "%":
			e, open := p.mapHead()
			if open {
				p.items(e, "}", start)
			}
			return p.access(noDo, e) // %{a: 1}.a, %{a: 1}[:a]
		case "[":
			p.advance()
			e := p.container(ExprList)
			p.items(e, "]", start)
			return p.access(noDo, e)
		case "{":
			p.advance()
			e := p.container(ExprTuple)
			p.items(e, "}", start)
			return p.access(noDo, e)
		case "(":
			p.advance()
			e := p.container(ExprBlock)
			p.items(e, ")", start)
			return p.access(noDo, e)
		case "...":
			p.advance() // `[integer, ...]` in a typespec
			return p.node(Expr{Kind: ExprIdent, Span: t.span(), Text: p.name(t)})
		case "..":
			if n := p.peekAt(1); n.kind == tOp && (p.name(n) == ")" || p.name(n) == "]" || p.name(n) == "," || p.name(n) == "}") {
				p.advance() // `..`, the full range, alone: `x[..]`, `defmacro (..)`
				return p.node(Expr{Kind: ExprIdent, Span: t.span(), Text: p.name(t)})
			}
		case "<<":
			p.advance()
			e := p.container(ExprOpaque)
			p.items(e, ">>", start)
			return e
		}
	}
	return nil
}

// access reads postfix `[key]` access and `.field` on a value (opaque).
// Most values are followed by neither: that is one comparison here, where
// the call is inlined, before accessRest reads them.
func (p *cparser) access(noDo bool, e *Expr) *Expr {
	if t := &p.toks[p.pos]; t.kind == tOp && (t.text == '[' || t.text == '(' || t.text == '.') {
		return p.accessRest(noDo, e) // a one-byte operator's text is its byte (opTexts)
	}
	return e
}

func (p *cparser) accessRest(noDo bool, e *Expr) *Expr {
	for {
		t := p.peek()
		switch {
		case p.isOp(t, "[") && !t.spaced() && !t.bol(): // x\n[k] is two expressions
			p.advance()
			acc := p.container(ExprOpaque)
			p.items(acc, "]", t.span().Start)
			e = p.node(Expr{Kind: ExprOpaque, Text: "[]", Span: span(e.Span.Start, acc.Span.End), Args: p.args2(e, acc)})
		case p.isOp(t, "(") && !t.spaced() && p.pos > 0 && p.isOp(&p.toks[p.pos-1], ")"):
			// A call on a call: `unquote(name)(args)` in a def head.
			call := p.node(Expr{Kind: ExprCall, Base: e, NameSpan: e.Span, Span: e.Span})
			p.callArgs(call)
			if !noDo && p.isWord(p.peek(), "do") {
				p.doBlock(call)
			}
			e = call
		case p.isOp(t, ".") && (p.peekAt(1).kind == tIdent || p.isOp(p.peekAt(1), "(")):
			p.advance()
			n := p.peek()
			if n.kind == tIdent {
				p.advance()
				call := p.node(Expr{Kind: ExprCall, Text: p.name(n), NameSpan: n.span(), Base: e, Span: span(e.Span.Start, n.span().End)})
				p.callRest(call, false, noDo) // x.f(a), x.f a, x.f a do ... end
				text := ""
				if len(call.Args) == 0 && call.Span.End == n.span().End {
					text = "." // x.f: a field, no parentheses
				}
				e = p.node(Expr{Kind: ExprOpaque, Text: text, Span: call.Span, Args: p.args1(call)})
			} else {
				call := p.node(Expr{Kind: ExprCall, Base: e, NameSpan: t.span(), Span: e.Span}) // f.(args): the dot names it
				p.callArgs(call)
				e = p.node(Expr{Kind: ExprOpaque, Span: call.Span, Args: p.args1(call)})
			}
		default:
			return e
		}
	}
}

// mapHead reads the head of %{...} or %Struct{...} up to its `{`, and
// returns the map, whose items are then read from start (postfix calls
// items itself, one stack frame fewer for each nesting level), and true;
// an opaque expression and false when no `{` follows.
func (p *cparser) mapHead() (*Expr, bool) {
	pct := p.advance()
	start := pct.span().Start
	e := p.container(ExprMap)
	if n := p.peek(); (n.kind == tAlias || p.isWord(n, "__MODULE__")) && !n.spaced() {
		e.extra().structName = p.aliasName()
	} else if n.kind == tIdent && !n.spaced() && p.isOp(p.peekAt(1), "{") && !p.peekAt(1).spaced() {
		e.extra().structName = p.name(p.advance()) // %module{}: the struct named by a variable
	}
	if o := p.peek(); !p.isOp(o, "{") || (o.spaced() && e.Struct() == "") {
		return p.node(Expr{Kind: ExprOpaque, Span: span(start, p.prevEnd())}), false
	}
	open := p.advance()
	e.openLen = int32(open.span().End - start) // Open() starts at start, as e.Span (items)
	return e, true
}

// aliasName reads Foo.Bar.Baz (or __MODULE__.Foo) and returns it.
func (p *cparser) aliasName() string {
	name := p.name(p.advance())
	for p.isOp(p.peek(), ".") && p.peekAt(1).kind == tAlias && !p.peekAt(1).bol() {
		p.advance()
		name += "." + p.name(p.advance())
	}
	return name
}

// aliasExpr reads a module reference, a multi-alias A.{B, C}, or a remote
// call A.f(...).
func (p *cparser) aliasExpr(inBlock, noDo bool) *Expr {
	start := p.peek().span().Start
	name := p.aliasName()
	e := p.node(Expr{Kind: ExprAlias, Text: name, Span: span(start, p.prevEnd())})
	return p.remote(e, inBlock, noDo)
}

// remote reads `.f(...)`, `.f args` or `.{B, C}` after a module reference.
func (p *cparser) remote(e *Expr, inBlock, noDo bool) *Expr {
	if !p.isOp(p.peek(), ".") {
		return p.access(noDo, e)
	}
	n := p.peekAt(1)
	switch {
	case p.isOp(n, "{"):
		p.advance()
		p.advance()
		tup := p.container(ExprTuple)
		p.items(tup, "}", n.span().Start)
		multi := p.node(Expr{Kind: ExprAlias, Text: e.Text, Span: span(e.Span.Start, tup.Span.End)})
		for _, a := range tup.Args {
			if a.Kind == ExprAlias && len(a.Args) == 0 {
				multi.Args = append(multi.Args, a)
			}
		}
		return multi
	case n.kind == tIdent:
		p.advance()
		fn := p.advance()
		call := p.node(Expr{Kind: ExprCall, Text: p.name(fn), NameSpan: fn.span(), Base: e, Span: span(e.Span.Start, fn.span().End)})
		p.callRest(call, inBlock, noDo)
		return p.access(noDo, call)
	}
	return p.access(noDo, e)
}

// identExpr reads an identifier: a literal (true, false, nil), fn ... end,
// a variable, or a local call with or without parentheses.
func (p *cparser) identExpr(inBlock, noDo bool) *Expr {
	t := p.advance()
	switch p.name(t) {
	case "true", "false":
		return p.access(noDo, p.leaf(ExprBool, t, p.name(t), false, false))
	case "nil":
		return p.access(noDo, p.node(Expr{Kind: ExprNil, Span: t.span(), Text: "nil"})) // nil[:a] is nil
	case "__MODULE__":
		e := p.node(Expr{Kind: ExprAlias, Text: "__MODULE__", Span: t.span()})
		if p.isOp(p.peek(), ".") && p.peekAt(1).kind == tAlias {
			for p.isOp(p.peek(), ".") && p.peekAt(1).kind == tAlias {
				p.advance()
				e.Text += "." + p.name(p.advance())
			}
			e.Span.End = p.prevEnd()
		}
		return p.remote(e, inBlock, noDo)
	case "fn":
		body := p.block(p.stmtCol, "", false, false)
		x := p.node(Expr{Kind: ExprOpaque, Span: span(t.span().Start, body.Span.End), Args: body.Args})
		x.addErrs(body.Errs()...)
		return x
	case "do", "end", "else", "after", "rescue", "catch":
		return p.node(Expr{Kind: ExprError, Span: t.span(), Text: "syntax error: unexpected " + p.name(t)})
	}
	call := p.node(Expr{Kind: ExprCall, Text: p.name(t), NameSpan: t.span(), Span: t.span()})
	n := p.peek()
	switch {
	case p.isOp(n, "(") && !n.spaced():
		p.callRest(call, inBlock, noDo)
		return p.access(noDo, call)
	case !n.bol() && n.spaced() && p.startsExpr(n) && !notCallee[p.name(t)] && !p.stops(n):
		p.callRest(call, inBlock, noDo)
		return call
	}
	if !noDo && p.isWord(n, "do") {
		p.callRest(call, inBlock, noDo)
		return call
	}
	return p.access(noDo, p.node(Expr{Kind: ExprIdent, Text: p.name(t), Span: t.span()}))
}

// callRest reads a call's arguments (in parentheses or not) and its
// do-block.
func (p *cparser) callRest(call *Expr, inBlock, noDo bool) {
	n := p.peek()
	switch {
	case p.isOp(n, "(") && !n.spaced():
		p.callArgs(call)
	case !n.bol() && n.spaced() && p.startsExpr(n) && !p.stops(n):
		for {
			a := p.argument(true)
			if a == nil {
				break
			}
			call.Args = append(call.Args, a)
			call.Span.End = max(call.Span.End, a.Span.End)
			if !p.isOp(p.peek(), ",") || p.stops(p.peekAt(1)) {
				break
			}
			p.advance()
		}
		if !noDo && p.isWord(p.peek(), "do") {
			p.doBlock(call)
		}
		return
	}
	if !noDo && p.isWord(p.peek(), "do") {
		p.doBlock(call)
	}
}

// callArgs reads `(args)`.
func (p *cparser) callArgs(call *Expr) {
	open := p.advance()
	args := &Expr{Kind: ExprList} // read as a list, kept only in call (on the stack)
	p.items(args, ")", open.span().Start)
	var kw *Expr
	if len(args.Pairs) > 0 {
		kw = p.node(Expr{Kind: ExprList, Pairs: args.Pairs, Span: span(args.Pairs[0].Span.Start, args.Pairs[len(args.Pairs)-1].Span.End)})
	}
	call.Args = p.joinArgs(call.Args, args.Args, kw)
	call.addErrs(args.Errs()...)
	call.Span.End = max(call.Span.End, args.Span.End)
}

// doBlock reads `do ... end` after a call and appends it as a block
// argument.
func (p *cparser) doBlock(call *Expr) {
	b := p.block(p.stmtCol, "do", funDefs[call.Text] && call.Base == nil, moduleDefs[call.Text] && call.Base == nil)
	call.Args = append(call.Args, b)
	call.Span.End = max(call.Span.End, b.Span.End)
}

// block reads statements after the opener (do or fn) up to the matching
// `end`; a definition first on a line at or left of col closes it as
// unclosed, and so does an attribute definition in a function's body
// (fnBody). A module's body (modBody) is closed at its own column only by
// another module definition: its defs may be written at the column of its
// defmodule (unindented code), and a half-typed one must not end it. Args are the statements of the do part (its value is the
// last); each else/after/rescue/catch section is a Pair of Pairs, its key
// the section word (an ExprIdent), its value an ExprBlock.
func (p *cparser) block(col int32, opener string, fnBody, modBody bool) *Expr {
	start := p.peek().span().Start
	if opener != "" {
		start = p.advance().span().Start
	}
	b := p.node(Expr{Kind: ExprBlock, Span: span(start, p.prevEnd())})
	cur := b // the section read: the do part, or an else/rescue/... block
	saved := p.stmtCol
	defer func() { p.stmtCol = saved }()
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			b.Span.End = t.span().Start
			return b
		case p.isWord(t, "end"):
			p.advance()
			b.Span.End = t.span().End
			return b
		case !p.strict && t.bol() && t.kind == tIdent && defLike[p.name(t)] && (t.col < col || t.col == col && (!modBody || moduleDefs[p.name(t)])):
			p.recovered = true
			b.Span.End = t.span().Start
			return b
		case !p.strict && fnBody && p.attrDefAt(t, col):
			// Elixir sets no attribute inside a function: `@doc "..."`
			// there is the next statement of the module, after a body
			// left unclosed (README.md, "Completion").
			p.recovered = true
			b.Span.End = t.span().Start
			return b
		case p.isOp(t, ";"):
			p.advance()
			continue
		case t.kind == tIdent && blockSections[p.name(t)]:
			p.advance()
			cur = p.node(Expr{Kind: ExprBlock, Span: t.span()})
			key := p.node(Expr{Kind: ExprIdent, Span: t.span(), Text: p.name(t)})
			b.Pairs = append(b.Pairs, Pair{Key: key, Value: cur, Span: t.span()})
			continue
		}
		p.stmtCol = t.col
		before := p.pos
		s := p.expr(0, true, false)
		if s == nil || p.pos == before {
			p.advance() // a stray closer or operator
			if s == nil {
				continue
			}
		}
		cur.Args = append(cur.Args, s)
		if cur != b {
			cur.Span.End = max(cur.Span.End, s.Span.End)
			b.Pairs[len(b.Pairs)-1].Span.End = cur.Span.End
		}
		b.Span.End = max(b.Span.End, s.Span.End)
	}
}

// attrDefAt reports whether t starts an attribute definition (`@name
// value`, the value on the same line) first on its line, at or left of
// col.
func (p *cparser) attrDefAt(t *token, col int32) bool {
	if !t.bol() || t.col > col || !p.isOp(t, "@") {
		return false
	}
	k := p.pos + 1
	if k+1 >= len(p.toks) || p.toks[k].kind != tIdent {
		return false
	}
	v := &p.toks[k+1]
	return v.kind != tEOF && !v.bol()
}

// items reads the items of a container up to closer into e (a map, list,
// tuple, block or argument list), starting at start. Keyword and `=>`
// pairs go to Pairs, plain items to Args (to Errs for a map), `|` to Base.
// An unclosed container ends before the token that stopped it.
func (p *cparser) items(e *Expr, closer string, start int) {
	pairs, args := len(p.pairStk), len(p.argStk) // for itemsDone, at each return (no defer)
	e.Span = span(start, p.prevEnd())
	first := true
	for {
		t := p.peek()
		if p.closes(t, closer) {
			p.advance()
			e.Span.End = t.span().End
			p.itemsDone(e, pairs, args)
			return
		}
		if p.stops(t) || p.isOp(t, ")") || p.isOp(t, "]") || p.isOp(t, "}") || p.isOp(t, ">>") {
			// Unclosed (or closed by the wrong bracket): end before t.
			e.Span.End = max(e.Span.End, t.span().Start)
			if t.kind == tEOF {
				e.Span.End = t.span().Start
			}
			e.addErrs(p.missing(t.span().Start, t.span().Start, "syntax error: missing "+closer))
			p.itemsDone(e, pairs, args)
			return
		}
		if p.isOp(t, ",") || p.isOp(t, ";") {
			p.advance()
			continue
		}
		before := p.pos
		// key is a pair's key, whose value, after a separator ending at
		// sepEnd, is read below (keyPair and value, in line: one stack
		// frame for each nesting level rather than three).
		var key *Expr
		keyword, sepEnd := false, 0
		if t.kind == tKey {
			key, keyword = p.keyExpr(p.advance()), true
			sepEnd = min(p.prevEnd()+1, len(p.src)) // after the colon
		} else {
			saved := p.pipeDepth
			if e.Kind == ExprMap || closer == "]" {
				p.pipeDepth = p.depth + 1 // `|` at this item's level is the container's
			} else {
				p.pipeDepth = -1
			}
			x := p.plainString()
			if x == nil {
				x = p.expr(0, false, false)
			}
			p.pipeDepth = saved
			switch {
			case x == nil:
			case p.isOp(p.peek(), "=>"):
				key, sepEnd = x, p.advance().span().End
			case p.isOp(p.peek(), "|") && (e.Kind == ExprMap && first || e.Kind == ExprList):
				p.advance()
				if e.Kind == ExprMap {
					e.Base = x
				} else {
					var tail *Expr
					if !p.stops(p.peek()) && !p.closes(p.peek(), closer) {
						tail = p.expr(0, false, false)
					}
					if tail != nil && p.isOp(p.peek(), ",") {
						// `[a | b, c]`: not a tail, an element `a | b`.
						p.argStk = append(p.argStk, p.node(Expr{Kind: ExprBinary, Text: "|", Span: span(x.Span.Start, tail.Span.End), Args: p.args2(x, tail)}))
					} else {
						p.argStk = append(p.argStk, x)
						e.Base = tail
					}
				}
			case e.Kind == ExprMap:
				e.addErrs(p.node(Expr{Kind: ExprError, Span: x.Span, Text: "syntax error: a map item needs a key", Args: p.args1(x)}))
			default:
				p.argStk = append(p.argStk, x)
				p.partial(e, x)
			}
		}
		if key != nil {
			vt := p.peek()
			var v *Expr
			switch {
			case vt.kind-tAlias > tFloat-tAlias && p.noValue(vt, closer): // a literal is a value
			case p.skim:
				if v = p.skimValue(vt, closer); v == nil {
					v = p.expr(0, false, false)
				}
			default:
				if v = p.plainString(); v == nil {
					v = p.expr(0, false, false)
				}
			}
			if v == nil {
				v = p.missing(sepEnd, max(sepEnd, vt.span().Start), "syntax error: missing value")
			}
			p.pushPair(key, v, keyword)
			p.partial(e, v)
		}
		first = false
		if p.pos == before {
			bad := p.advance()
			e.addErrs(p.node(Expr{Kind: ExprError, Span: bad.span(), Text: "syntax error: unexpected " + p.text(bad)}))
		}
		e.Span.End = max(e.Span.End, p.prevEnd())
	}
}

// plainString reads, as expr(0, false, false) would, a closed string
// followed by a token that does not continue the expression (no access, no
// binary operator: `,` `}` `=>` mostly), the most common item, key and
// value of a container, without expr's calls; nil (nothing read) for any
// other expression.
func (p *cparser) plainString() *Expr {
	t := p.peek()
	// expr reads a string at depth+2 (expr's and unary's levels), past
	// the bound as an opaque group.
	if t.kind != tString || !t.closed() || p.depth+2 > maxParseDepth || p.pos+1 >= len(p.toks) {
		return nil
	}
	n := &p.toks[p.pos+1]
	if n.kind == tIdent || n.kind == tOp && (uint32(n.text) >= uint32(len(opInfos)) || opInfos[n.text].prec != 0 ||
		n.text == '[' || n.text == '(' || n.text == '.') {
		return nil // may continue: expr reads it
	}
	p.advance()
	return p.leaf(ExprString, t, p.text(t), t.unknown(), t.heredoc())
}

// itemsDone moves the pairs and plain items that items pushed on the
// parser's stacks since pairs and args (their lengths when it started) to
// e, each in a slice of the exact size carved from a slab (appending to e
// directly regrew the slices of a large map several times), then makes trailing
// keywords of a tuple one element.
func (p *cparser) itemsDone(e *Expr, pairs, args int) {
	if len(p.pairStk) > pairs {
		out := p.pairLists.take(len(e.Pairs) + len(p.pairStk) - pairs)
		k := 0
		if len(e.Pairs) > 0 { // mostly none: a copy of none still calls the runtime
			k = copy(out, e.Pairs)
		}
		copy(out[k:], p.pairStk[pairs:])
		e.Pairs = out
		p.pairStk = p.pairStk[:pairs] // the stale pairs live no longer than p
	}
	if len(p.argStk) > args {
		out := p.argLists.take(len(e.Args) + len(p.argStk) - args)
		k := 0
		if len(e.Args) > 0 {
			k = copy(out, e.Args)
		}
		copy(out[k:], p.argStk[args:])
		e.Args = out
		p.argStk = p.argStk[:args]
	}
	if e.Kind == ExprTuple && len(e.Pairs) > 0 {
		p.tupleKeywords(e)
	}
}

// tupleKeywords makes the trailing keyword pairs of a tuple one keyword
// list element, as Elixir reads `{:id, :binary_id, autogenerate: true}`
// (a tuple of three).
func (p *cparser) tupleKeywords(e *Expr) {
	if e.Kind != ExprTuple || len(e.Pairs) == 0 {
		return
	}
	kw := p.node(Expr{Kind: ExprList, Pairs: e.Pairs, Span: span(e.Pairs[0].Span.Start, e.Pairs[len(e.Pairs)-1].Span.End)})
	e.Args = p.joinArgs(e.Args, nil, kw)
	e.Pairs = nil
}

// joinArgs returns a followed by b and then last (when not nil), in one
// slice from the slab of argument lists; a when that is empty.
func (p *cparser) joinArgs(a, b []*Expr, last *Expr) []*Expr {
	n := len(a) + len(b)
	if last != nil {
		n++
	}
	if n == 0 {
		return a
	}
	out := p.argLists.take(n)
	k := copy(out, a)
	k += copy(out[k:], b)
	if last != nil {
		out[k] = last
	}
	return out
}

// partial lists the error node x, an item of container e, in e.Errs() for
// the full reading (a missing value makes its map partial).
func (p *cparser) partial(e, x *Expr) {
	if p.full && x.Kind == ExprError && (e.Kind == ExprMap || e.Kind == ExprList || e.Kind == ExprTuple) {
		e.addErrs(x)
	}
}

// skipBalanced skips one token or bracketed group (past the depth bound).
func (p *cparser) skipBalanced() {
	depth := 0
	for {
		t := p.advance()
		if t.kind == tEOF {
			return
		}
		if t.kind == tOp {
			switch p.name(t) {
			case "(", "[", "{", "<<":
				depth++
			case ")", "]", "}", ">>":
				depth--
			}
		}
		if depth <= 0 {
			return
		}
	}
}

// skipValue finds the end of the value starting at the current token
// without reading it: the first `,`, closer or stopping token at bracket
// and block depth 0. It returns the value's end offset and the index of
// the token after it; ok is false for an empty value.
func (p *cparser) skipValue(closer string) (end, next int, ok bool) {
	depth := 0
	k := p.pos
	for ; k < len(p.toks); k++ {
		t := &p.toks[k]
		if t.kind == tEOF {
			break
		}
		if depth == 0 && (p.isOp(t, ",") || p.closes(t, closer) || p.isOp(t, ")") || p.isOp(t, "]") || p.isOp(t, "}") || p.isOp(t, ">>") ||
			(k > p.pos && p.stopsAt(k))) {
			break
		}
		switch {
		case t.kind == tOp:
			switch p.name(t) {
			case "(", "[", "{", "<<":
				depth++
			case ")", "]", "}", ">>":
				depth--
			}
		case t.kind == tIdent && (p.name(t) == "do" || p.name(t) == "fn"):
			depth++
		case t.kind == tIdent && p.name(t) == "end":
			depth--
		}
		if depth < 0 {
			break
		}
	}
	if k == p.pos {
		return 0, 0, false
	}
	return p.toks[k-1].span().End, k, true
}

// stopsAt is stops for the token at index k.
func (p *cparser) stopsAt(k int) bool {
	t := &p.toks[k]
	switch {
	case t.kind == tIdent && p.name(t) == "end":
		return true
	case p.strict:
		return false
	case t.bol() && t.kind == tIdent && defLike[p.name(t)]:
		return p.recovery(true)
	case t.bol() && p.isOp(t, "@") && t.col <= p.stmtCol && k+1 < len(p.toks) && p.toks[k+1].kind == tIdent:
		return p.recovery(true)
	case t.bol() && t.kind == tIdent && t.col <= p.stmtCol && moduleDirective[p.name(t)] && k+1 < len(p.toks) && p.toks[k+1].kind == tAlias:
		return p.recovery(true)
	}
	return false
}
