package elixir

import (
	"strconv"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
)

// maxExprDepth bounds the nesting the converter follows; deeper
// expressions become ExprOpaque (no stack growth on pathological input).
const maxExprDepth = 500

// converter turns the flattened tree of one file into the IR. Every node is
// looked at once at most: module bodies statement by statement, and full
// expressions only where they can be evaluated (attribute values, zero-arity
// bodies, arguments of alias/use).
type converter struct {
	src   []byte
	n     []rawNode
	g     *grammar
	uri   string
	file  *File
	depth int
}

func (c *converter) run() {
	if len(c.n) == 0 {
		return
	}
	c.statements(0, nil, false)
	c.collectErrors()
}

// ---- flat-tree navigation ----

func (c *converter) kind(i int) symKind { return c.g.kind(&c.n[i]) }

// first returns the first non-extra child of i, or -1.
func (c *converter) first(i int) int {
	end := int(c.n[i].next)
	for j := i + 1; j < end && j < len(c.n); {
		if !c.n[j].extra() || c.n[j].sym == symErrorID {
			return j
		}
		j = c.after(j)
	}
	return -1
}

// sibling returns the next non-extra sibling of child j of i, or -1.
func (c *converter) sibling(i, j int) int {
	end := int(c.n[i].next)
	for j = c.after(j); j < end && j < len(c.n); j = c.after(j) {
		if !c.n[j].extra() || c.n[j].sym == symErrorID {
			return j
		}
	}
	return -1
}

// after returns the index just past j's subtree (always > j).
func (c *converter) after(j int) int {
	if nx := int(c.n[j].next); nx > j {
		return nx
	}
	return j + 1
}

// field returns the first child of i with field f, or -1.
func (c *converter) field(i int, f fieldKind) int {
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.g.field(&c.n[j]) == f {
			return j
		}
	}
	return -1
}

// child returns the first child of i of kind k, or -1.
func (c *converter) child(i int, k symKind) int {
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.kind(j) == k {
			return j
		}
	}
	return -1
}

// rawSpan is node i's byte range as tree-sitter reports it, clamped.
func (c *converter) rawSpan(i int) positions.Span {
	s, e := clampRange(int(c.n[i].start), int(c.n[i].end), len(c.src))
	return positions.Span{Start: s, End: e}
}

// span is node i's byte range, widened to one byte when empty (a missing
// token): the byte after it, or before it at the end of the content.
func (c *converter) span(i int) positions.Span { return c.nonEmpty(c.rawSpan(i)) }

func (c *converter) nonEmpty(s positions.Span) positions.Span {
	if s.Start < s.End {
		return s
	}
	if s.End < len(c.src) {
		s.End++
	} else if s.Start > 0 {
		s.Start--
	}
	return s
}

func (c *converter) text(i int) string {
	s := c.rawSpan(i)
	return string(c.src[s.Start:s.End])
}

// tokenIs reports whether node i is the anonymous token tok.
func (c *converter) tokenIs(i int, tok string) bool {
	n := &c.n[i]
	if n.named() {
		return false
	}
	s := c.rawSpan(i)
	return string(c.src[s.Start:s.End]) == tok
}

func (c *converter) isErr(i int) bool {
	return c.n[i].sym == symErrorID || c.n[i].missing()
}

// ---- syntax errors ----

func (c *converter) errorMessage(i int) string {
	if c.n[i].missing() {
		name := c.g.name(&c.n[i])
		if c.n[i].named() {
			return "syntax error: missing " + name
		}
		return "syntax error: missing " + strconv.Quote(name)
	}
	j := i
	for {
		k := c.first(j)
		if k < 0 {
			break
		}
		j = k
	}
	if j == i && c.n[i].start == c.n[i].end {
		return "syntax error"
	}
	tok := c.text(j)
	if nl := strings.IndexAny(tok, "\r\n"); nl >= 0 {
		tok = tok[:nl]
	}
	if len(tok) > 24 {
		tok = tok[:24] + "…"
	}
	tok = strings.ToValidUTF8(tok, "\uFFFD")
	if strings.TrimSpace(tok) == "" {
		return "syntax error"
	}
	return "syntax error: unexpected " + strconv.Quote(tok)
}

func (c *converter) syntaxError(i int) SyntaxError {
	return SyntaxError{URI: c.uri, Span: c.span(i), Message: c.errorMessage(i)}
}

// collectErrors lists the outermost ERROR nodes and the missing tokens,
// descending only into subtrees that contain an error.
func (c *converter) collectErrors() {
	for i := 0; i < len(c.n); {
		n := &c.n[i]
		switch {
		case n.sym == symErrorID || n.missing():
			c.file.Errors = append(c.file.Errors, c.syntaxError(i))
			i = c.after(i)
		case !n.hasErr():
			i = c.after(i)
		default:
			i++
		}
	}
}

// errorExpr converts an ERROR node or a missing token; the recovered named
// children of an ERROR node are kept as Args.
func (c *converter) errorExpr(i int) *Expr {
	e := &Expr{Kind: ExprError, Span: c.span(i), Text: c.errorMessage(i)}
	if c.n[i].missing() {
		return e
	}
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.n[j].named() {
			e.Args = append(e.Args, c.expr(j))
		}
	}
	return e
}

// nestedErrors returns the outermost errors inside node i's subtree.
func (c *converter) nestedErrors(i int) []*Expr {
	if !c.n[i].hasErr() {
		return nil
	}
	var errs []*Expr
	end := c.after(i)
	for j := i + 1; j < end; {
		n := &c.n[j]
		switch {
		case n.sym == symErrorID || n.missing():
			errs = append(errs, &Expr{Kind: ExprError, Span: c.span(j), Text: c.errorMessage(j)})
			j = c.after(j)
		case !n.hasErr():
			j = c.after(j)
		default:
			j++
		}
	}
	return errs
}

// ---- module bodies ----

// statements reads the statements that are children of node p (the source,
// a do-block, or an ERROR node that recovered a module body) for module
// mod. inner restricts the reading to nested defmodules (the body of an
// unknown construct such as `describe ... do`).
func (c *converter) statements(p int, mod *Module, inner bool) {
	soup := c.kind(p) == kError && mod != nil && !inner
	for j := c.first(p); j >= 0; {
		nx := c.sibling(p, j)
		if soup && c.kind(j) == kIdentifier {
			if next, ok := c.soupDef(p, j, nx, mod); ok {
				j = next
				continue
			}
		}
		if c.statement(j, nx, mod, inner) && nx >= 0 {
			nx = c.sibling(p, nx)
		}
		j = nx
	}
}

// soupDef recovers a definition from the flat token soup of an ERROR
// node: the identifier `def`/`defp` at j, then its head at nx, then the
// tokens and nodes up to the next definition, attribute or `end`. A
// zero-arity head gets an ExprError body holding the recovered nodes (so a
// half-typed `def actions, do: %{run: %{pro` still has actions/0). It
// returns the sibling to continue with.
func (c *converter) soupDef(p, j, nx int, mod *Module) (int, bool) {
	kw := c.text(j)
	if kw != "def" && kw != "defp" || nx < 0 {
		return 0, false
	}
	var name string
	var nameSpan positions.Span
	arity := 0
	switch c.kind(nx) {
	case kIdentifier:
		name, nameSpan = c.text(nx), c.span(nx)
	case kCall:
		name, nameSpan, arity = c.defHead(nx)
	}
	if name == "" {
		return 0, false
	}
	d := &Def{Name: name, Private: kw == "defp", Arity: arity, NameSpan: nameSpan,
		Span: positions.Span{Start: c.span(j).Start, End: c.span(nx).End}}
	body := &Expr{Kind: ExprError, Text: "syntax error: incomplete definition of " + name}
	k := c.sibling(p, nx)
	for ; k >= 0; k = c.sibling(p, k) {
		if c.stopsSoup(k) {
			break
		}
		if body.Span.End == 0 {
			body.Span.Start = c.span(k).Start
		}
		body.Span.End = c.span(k).End
		if c.n[k].named() {
			body.Args = append(body.Args, c.expr(k))
		}
	}
	if body.Span.End == 0 {
		body.Span = c.nonEmpty(positions.Span{Start: d.Span.End, End: d.Span.End})
	}
	mod.Defs = append(mod.Defs, d)
	if arity == 0 {
		d.Body = body
		d.Span.End = max(d.Span.End, body.Span.End)
	}
	return k, true
}

// stopsSoup reports whether node k of an ERROR token soup starts a new
// statement: a def/defp/defmodule identifier or call, an attribute, `end`.
func (c *converter) stopsSoup(k int) bool {
	switch c.kind(k) {
	case kIdentifier:
		switch c.text(k) {
		case "def", "defp", "defmodule", "defmacro", "defmacrop":
			return true
		}
	case kCall:
		switch c.localCallName(k) {
		case "def", "defp", "defmodule", "alias", "use":
			return true
		}
	case kUnaryOp:
		return true
	case kToken:
		return c.tokenIs(k, "end") || c.tokenIs(k, "@")
	}
	return false
}

// statement reads one statement; it returns true when it consumed the
// next sibling nx too (a defmodule whose body tree-sitter recovered as an
// ERROR node after it).
func (c *converter) statement(j, nx int, mod *Module, inner bool) bool {
	switch c.kind(j) {
	case kCall:
		name := c.localCallName(j)
		switch name {
		case "defmodule":
			return c.defmodule(j, nx, mod)
		case "quote", "":
			return false
		}
		if mod != nil && !inner {
			switch name {
			case "def", "defp":
				return c.def(j, nx, mod, name == "defp")
			case "alias":
				e := c.expr(j)
				c.aliasFrom(e, mod, mod.Span.End)
				return false
			case "use":
				e := c.expr(j)
				if len(e.Args) > 0 && c.isToolRef(e.Args[0], mod) {
					c.markTool(mod, e.Span)
				}
				return false
			}
		}
		if db := c.child(j, kDoBlock); db >= 0 {
			c.statements(db, mod, true)
		}
	case kUnaryOp:
		if mod != nil && !inner {
			c.attribute(j, mod)
		}
	case kError:
		c.statements(j, mod, inner)
	}
	return false
}

// localCallName returns the name of a local call (`defmodule`, `def`,
// `alias`, ...), or "".
func (c *converter) localCallName(j int) string {
	t := c.first(j)
	if t < 0 || c.kind(t) != kIdentifier {
		return ""
	}
	return c.text(t)
}

func (c *converter) isToolRef(e *Expr, mod *Module) bool {
	return e.Kind == ExprAlias && len(e.Args) == 0 && mod.ResolveAlias(e.Text, e.Span.Start) == "Wymcp.Tool"
}

func (c *converter) markTool(mod *Module, s positions.Span) {
	if !mod.Tool {
		mod.Tool = true
		mod.ToolSpan = s
	}
}

// defmodule reads `defmodule Name do ... end` (or `, do: ...`).
func (c *converter) defmodule(j, nx int, parent *Module) bool {
	args := c.child(j, kArguments)
	if args < 0 {
		return false
	}
	nameIdx := c.first(args)
	if nameIdx < 0 || c.isErr(nameIdx) {
		return false
	}
	nameExpr := c.expr(nameIdx)
	if nameExpr.Kind != ExprAlias || len(nameExpr.Args) > 0 {
		return false
	}
	full, implicit := joinModuleName(parent, nameExpr.Text)
	m := &Module{Name: full, URI: c.uri, Span: c.span(j), NameSpan: nameExpr.Span, Parent: parent}
	body, doValue, consumed := -1, -1, false
	if db := c.child(j, kDoBlock); db >= 0 {
		body = db
	} else if kw := c.child(args, kKeywords); kw >= 0 {
		doValue = c.keywordValue(kw, "do")
	} else if nx >= 0 && c.kind(nx) == kError {
		if d := c.first(nx); d >= 0 && c.tokenIs(d, "do") {
			body, consumed = nx, true
			m.Span.End = c.span(nx).End
		}
	}
	if parent != nil && implicit != "" {
		head, _, _ := strings.Cut(nameExpr.Text, ".")
		parent.Aliases = append(parent.Aliases, &Alias{
			As: head, Target: implicit, Span: nameExpr.Span,
			Scope: positions.Span{Start: nameExpr.Span.End, End: parent.Span.End},
		})
	}
	c.file.Modules = append(c.file.Modules, m)
	switch {
	case body >= 0:
		c.statements(body, m, false)
	case doValue >= 0:
		if c.kind(doValue) == kBlock {
			c.statements(doValue, m, false)
		} else {
			c.statement(doValue, -1, m, false)
		}
	}
	return consumed
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

// keywordValue returns the value node of the pair `key: ...` in the
// keywords node kw, or -1.
func (c *converter) keywordValue(kw int, key string) int {
	for p := c.first(kw); p >= 0; p = c.sibling(kw, p) {
		if c.kind(p) != kPair {
			continue
		}
		k := c.field(p, fKey)
		if k >= 0 && c.kind(k) == kKeyword && keywordName(c.text(k)) == key {
			return c.field(p, fValue)
		}
	}
	return -1
}

// def reads a def/defp; the body is converted only for zero arity. A
// zero-arity head without a body followed by an ERROR node that starts
// with "," or "do" (a half-typed `def actions, do: %{...`) takes that ERROR
// node as its body, and def reports that it consumed the next sibling nx.
func (c *converter) def(j, nx int, mod *Module, private bool) bool {
	args := c.child(j, kArguments)
	if args < 0 {
		return false
	}
	head := c.first(args)
	if head < 0 {
		return false
	}
	name, nameSpan, arity := c.defHead(head)
	if name == "" {
		return false
	}
	d := &Def{Name: name, Kind: map[bool]string{false: "def", true: "defp"}[private], Private: private, Arity: arity, Span: c.span(j), NameSpan: nameSpan}
	mod.Defs = append(mod.Defs, d)
	if arity != 0 {
		return false
	}
	consumed := false
	if db := c.child(j, kDoBlock); db >= 0 {
		d.Body = c.blockExpr(db)
	} else if kw := c.child(args, kKeywords); kw >= 0 {
		if v := c.keywordValue(kw, "do"); v >= 0 {
			d.Body = c.expr(v)
		}
	} else if nx >= 0 && c.kind(nx) == kError {
		if t := c.first(nx); t >= 0 && (c.tokenIs(t, ",") || c.tokenIs(t, "do")) {
			d.Body = c.errorExpr(nx)
			d.Span.End = d.Body.Span.End
			consumed = true
		}
	}
	if d.Body != nil && d.Body.Kind == ExprBlock {
		for _, st := range d.Body.Args {
			c.aliasFrom(st, mod, d.Span.End)
		}
	}
	return consumed
}

// defHead reads a function head: `name`, `name(args)`, `name(args) when g`.
func (c *converter) defHead(h int) (string, positions.Span, int) {
	switch c.kind(h) {
	case kIdentifier:
		return c.text(h), c.span(h), 0
	case kCall:
		t := c.first(h)
		if t < 0 || c.kind(t) != kIdentifier {
			return "", positions.Span{}, -1
		}
		arity := 0
		if a := c.child(h, kArguments); a >= 0 {
			for k := c.first(a); k >= 0; k = c.sibling(a, k) {
				if c.n[k].named() && !c.isErr(k) {
					arity++
				}
			}
		}
		return c.text(t), c.span(t), arity
	case kBinaryOp:
		if l := c.field(h, fLeft); l >= 0 && c.opText(h) == "when" {
			return c.defHead(l)
		}
	}
	return "", positions.Span{}, -1
}

// aliasFrom records the aliases of an `alias ...` call expression e in mod,
// in effect until scopeEnd.
func (c *converter) aliasFrom(e *Expr, mod *Module, scopeEnd int) {
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

func lastSegment(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// attribute reads `@name value` in a module body.
func (c *converter) attribute(j int, mod *Module) {
	op := c.field(j, fOperator)
	operand := c.field(j, fOperand)
	if op < 0 || operand < 0 || !c.tokenIs(op, "@") {
		return
	}
	switch c.kind(operand) {
	case kUnaryOp: // a bare `@` line above `@name value`
		c.attribute(operand, mod)
		return
	case kCall:
	default:
		return
	}
	t := c.first(operand)
	if t < 0 || c.kind(t) != kIdentifier {
		return
	}
	a := &Attr{Name: c.text(t), Span: c.span(j), NameSpan: c.span(t)}
	if args := c.child(operand, kArguments); args >= 0 {
		if v := c.first(args); v >= 0 {
			a.Value = c.argExpr(v)
		}
	}
	if a.Value == nil {
		a.Value = &Expr{Kind: ExprOpaque, Span: a.Span}
	}
	mod.Attrs = append(mod.Attrs, a)
	if a.Name == "behaviour" && c.isToolRef(a.Value, mod) {
		c.markTool(mod, a.Span)
	}
}

// ---- expressions ----

// argExpr converts an argument or element: a trailing keywords node
// becomes one keyword list.
func (c *converter) argExpr(i int) *Expr {
	if c.kind(i) == kKeywords {
		e := &Expr{Kind: ExprList, Span: c.span(i)}
		c.keywordPairs(i, e)
		return e
	}
	return c.expr(i)
}

// expr converts the expression at node i.
func (c *converter) expr(i int) *Expr {
	if c.n[i].missing() || c.n[i].sym == symErrorID {
		return c.errorExpr(i)
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxExprDepth {
		return c.opaque(i)
	}
	switch c.kind(i) {
	case kMap:
		return c.mapExpr(i)
	case kList:
		return c.listExpr(i)
	case kTuple:
		return c.tupleExpr(i)
	case kAtom:
		t := c.text(i)
		return &Expr{Kind: ExprAtom, Span: c.span(i), Text: strings.TrimPrefix(t, ":")}
	case kQuotedAtom:
		return c.quoted(i, ExprAtom)
	case kKeyword:
		return c.keywordKey(i)
	case kQuotedKeyword:
		return c.quotedKeywordKey(i)
	case kString:
		return c.quoted(i, ExprString)
	case kCharlist:
		return c.quoted(i, ExprCharlist)
	case kSigil:
		return c.sigil(i)
	case kInteger, kChar:
		return &Expr{Kind: ExprInteger, Span: c.span(i), Text: c.text(i)}
	case kFloat:
		return &Expr{Kind: ExprFloat, Span: c.span(i), Text: c.text(i)}
	case kBoolean:
		return &Expr{Kind: ExprBool, Span: c.span(i), Text: c.text(i)}
	case kNil:
		return &Expr{Kind: ExprNil, Span: c.span(i), Text: "nil"}
	case kAlias:
		return &Expr{Kind: ExprAlias, Span: c.span(i), Text: stripSpace(c.text(i))}
	case kIdentifier:
		t := c.text(i)
		if t == "__MODULE__" {
			return &Expr{Kind: ExprAlias, Span: c.span(i), Text: t}
		}
		return &Expr{Kind: ExprIdent, Span: c.span(i), Text: t}
	case kDot:
		return c.dotExpr(i)
	case kUnaryOp:
		return c.unaryExpr(i)
	case kBinaryOp:
		return c.binaryExpr(i)
	case kCall:
		return c.callExpr(i)
	case kBlock:
		return c.blockExpr(i)
	case kKeywords:
		return c.argExpr(i)
	}
	return c.opaque(i)
}

func (c *converter) opaque(i int) *Expr {
	return &Expr{Kind: ExprOpaque, Span: c.span(i), Errs: c.nestedErrors(i)}
}

func stripSpace(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}

// addErr appends the error node j to e.Errs and reports whether j was one.
func (c *converter) addErr(e *Expr, j int) bool {
	if !c.isErr(j) {
		return false
	}
	e.Errs = append(e.Errs, c.errorExpr(j))
	return true
}

func (c *converter) mapExpr(i int) *Expr {
	e := &Expr{Kind: ExprMap, Span: c.span(i)}
	openEnd := -1
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.addErr(e, j) {
			continue
		}
		switch c.kind(j) {
		case kToken:
			if openEnd < 0 && c.tokenIs(j, "{") {
				openEnd = int(c.n[j].end)
			}
		case kStruct:
			e.Struct = stripSpace(c.text(j))
		case kMapContent:
			c.mapContent(j, e)
		}
	}
	start := e.Span.Start
	if openEnd <= start {
		openEnd = start + 1
	}
	e.Open = positions.Span{Start: start, End: min(openEnd, e.Span.End)}
	return e
}

func (c *converter) mapContent(mc int, e *Expr) {
	firstItem := true
	for j := c.first(mc); j >= 0; j = c.sibling(mc, j) {
		if c.addErr(e, j) {
			continue
		}
		switch c.kind(j) {
		case kBinaryOp:
			op := c.opText(j)
			l, r := c.field(j, fLeft), c.field(j, fRight)
			switch {
			case op == "=>" && l >= 0 && r >= 0:
				e.Pairs = append(e.Pairs, c.arrowPair(j, l, r))
			case op == "|" && firstItem && l >= 0:
				e.Base = c.expr(l)
				if r >= 0 {
					c.updatePairs(r, e)
				}
			default:
				e.Errs = append(e.Errs, c.nestedErrors(j)...)
			}
		case kKeywords:
			c.keywordPairs(j, e)
		}
		firstItem = false
	}
}

// updatePairs reads the right side of `%{base | ...}`.
func (c *converter) updatePairs(r int, e *Expr) {
	switch c.kind(r) {
	case kKeywords:
		c.keywordPairs(r, e)
	case kBinaryOp:
		if c.opText(r) == "=>" {
			l, rr := c.field(r, fLeft), c.field(r, fRight)
			if l >= 0 && rr >= 0 {
				e.Pairs = append(e.Pairs, c.arrowPair(r, l, rr))
			}
		}
	default:
		c.addErr(e, r)
	}
}

func (c *converter) arrowPair(b, l, r int) Pair {
	k, v := c.expr(l), c.expr(r)
	return Pair{Key: k, Value: v, Span: positions.Span{Start: k.Span.Start, End: max(k.Span.Start+1, v.Span.End)}}
}

// keywordPairs appends the pairs of a keywords node to e.Pairs.
func (c *converter) keywordPairs(kw int, e *Expr) {
	for p := c.first(kw); p >= 0; p = c.sibling(kw, p) {
		if c.addErr(e, p) || c.kind(p) != kPair {
			continue
		}
		var key, val *Expr
		for k := c.first(p); k >= 0; k = c.sibling(p, k) {
			switch c.g.field(&c.n[k]) {
			case fKey:
				key = c.expr(k)
			case fValue:
				val = c.expr(k)
			default:
				c.addErr(e, k)
			}
		}
		if key == nil {
			continue
		}
		if val == nil {
			ps := c.span(p)
			val = &Expr{Kind: ExprError, Span: c.nonEmpty(positions.Span{Start: ps.End, End: ps.End}), Text: "syntax error: missing value"}
			e.Errs = append(e.Errs, val)
		}
		e.Pairs = append(e.Pairs, Pair{Key: key, Value: val, Keyword: true,
			Span: positions.Span{Start: key.Span.Start, End: max(key.Span.End, val.Span.End)}})
	}
}

// keywordName returns the key of a keyword token "name: " as its name.
func keywordName(t string) string {
	t = strings.TrimRight(t, " \t\r\n")
	return strings.TrimSuffix(t, ":")
}

// keywordKey converts a `name: ` keyword to an atom spanning `name` only.
func (c *converter) keywordKey(i int) *Expr {
	s := c.rawSpan(i)
	name := keywordName(string(c.src[s.Start:s.End]))
	return &Expr{Kind: ExprAtom, Span: c.nonEmpty(positions.Span{Start: s.Start, End: s.Start + len(name)}), Text: name}
}

// quotedKeywordKey converts `"a b": ` to an atom spanning `"a b"`.
func (c *converter) quotedKeywordKey(i int) *Expr {
	e := c.quoted(i, ExprAtom)
	if qe := c.field(i, fQuotedEnd); qe >= 0 && !c.n[qe].missing() {
		e.Span = c.nonEmpty(positions.Span{Start: e.Span.Start, End: int(c.n[qe].end)})
	}
	return e
}

// quoted converts a string, charlist, quoted atom or quoted keyword.
func (c *converter) quoted(i int, kind ExprKind) *Expr {
	e := &Expr{Kind: kind, Span: c.span(i)}
	body := c.quotedBody(i, e)
	e.Text, e.Unknown = decodeBody(c.src, body.start, body.end, body.interps, strOpts{heredoc: e.Heredoc})
	return e
}

type quotedParts struct {
	start, end int
	interps    []positions.Span
	open       string
	close      string
	name, mods string
}

// quotedBody finds the delimiters and interpolations of a quoted node,
// records a missing closing delimiter in e.Errs and sets e.Heredoc.
func (c *converter) quotedBody(i int, e *Expr) quotedParts {
	q := quotedParts{start: -1, end: -1}
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.n[j].missing() {
			e.Errs = append(e.Errs, c.errorExpr(j))
		}
		switch c.g.field(&c.n[j]) {
		case fQuotedStart:
			q.start = int(c.n[j].end)
			q.open = c.text(j)
			continue
		case fQuotedEnd:
			q.end = int(c.n[j].start)
			q.close = c.text(j)
			continue
		}
		switch c.kind(j) {
		case kInterpolation:
			q.interps = append(q.interps, c.rawSpan(j))
		case kSigilName:
			q.name = c.text(j)
		case kSigilModifiers:
			q.mods = c.text(j)
		case kError:
			e.Errs = append(e.Errs, c.errorExpr(j))
		}
	}
	if q.start < 0 {
		q.start = int(c.n[i].start)
	}
	if q.end < q.start {
		q.end = int(c.n[i].end)
	}
	e.Heredoc = q.open == `"""` || q.open == `'''`
	return q
}

func (c *converter) sigil(i int) *Expr {
	e := &Expr{Span: c.span(i)}
	q := c.quotedBody(i, e)
	raw := q.name != "" && q.name[0] >= 'A' && q.name[0] <= 'Z'
	closeDelim := q.close
	if closeDelim == "" {
		closeDelim = q.open
	}
	o := strOpts{heredoc: e.Heredoc, raw: raw, close: closeDelim}
	if raw {
		q.interps = nil // #{ is literal text in upper-case sigils
	}
	switch q.name {
	case "s", "S":
		e.Kind = ExprString
		e.Text, e.Unknown = decodeBody(c.src, q.start, q.end, q.interps, o)
	case "c", "C":
		e.Kind = ExprCharlist
		e.Text, e.Unknown = decodeBody(c.src, q.start, q.end, q.interps, o)
	case "w", "W":
		e.Kind = ExprWords
		e.Unknown = len(q.interps) > 0
		e.Words = splitWords(c.src, q.start, q.end, o)
		e.Text = ""
		if m := q.mods; m != "" {
			e.Text = m[len(m)-1:]
		}
	default:
		e.Kind = ExprOpaque
	}
	return e
}

// opText returns the operator of a binary or unary operator node.
func (c *converter) opText(i int) string {
	if op := c.field(i, fOperator); op >= 0 {
		return stripSpace(c.text(op))
	}
	return ""
}

func (c *converter) binaryExpr(i int) *Expr {
	e := &Expr{Kind: ExprBinary, Span: c.span(i), Text: c.opText(i)}
	l, r := c.field(i, fLeft), c.field(i, fRight)
	if l < 0 || r < 0 {
		e.Kind = ExprOpaque
		e.Errs = c.nestedErrors(i)
		return e
	}
	e.Args = []*Expr{c.expr(l), c.expr(r)}
	return e
}

func (c *converter) unaryExpr(i int) *Expr {
	op, operand := c.field(i, fOperator), c.field(i, fOperand)
	if op < 0 || operand < 0 {
		return c.opaque(i)
	}
	opText := stripSpace(c.text(op))
	if opText == "@" {
		if c.kind(operand) == kIdentifier {
			return &Expr{Kind: ExprAttr, Span: c.span(i), Text: c.text(operand), NameSpan: c.span(operand)}
		}
		return c.opaque(i)
	}
	return &Expr{Kind: ExprUnary, Span: c.span(i), Text: opText, Args: []*Expr{c.expr(operand)}}
}

// aliasName returns the module reference written at node i ("A.B",
// "__MODULE__.X"), or "" when i is not one.
func (c *converter) aliasName(i int) string {
	switch c.kind(i) {
	case kAlias:
		return stripSpace(c.text(i))
	case kIdentifier:
		if t := c.text(i); t == "__MODULE__" {
			return t
		}
	case kDot:
		l, r := c.field(i, fLeft), c.field(i, fRight)
		if l >= 0 && r >= 0 && c.kind(r) == kAlias {
			if ln := c.aliasName(l); ln != "" {
				return ln + "." + stripSpace(c.text(r))
			}
		}
	}
	return ""
}

// dotExpr converts `A.B` on a non-alias left (`__MODULE__.B`) and the
// multi-alias `A.{B, C}`; other dots are opaque.
func (c *converter) dotExpr(i int) *Expr {
	if name := c.aliasName(i); name != "" {
		return &Expr{Kind: ExprAlias, Span: c.span(i), Text: name}
	}
	l, r := c.field(i, fLeft), c.field(i, fRight)
	if l >= 0 && r >= 0 && c.kind(r) == kTuple {
		if ln := c.aliasName(l); ln != "" {
			e := &Expr{Kind: ExprAlias, Span: c.span(i), Text: ln}
			for k := c.first(r); k >= 0; k = c.sibling(r, k) {
				if c.addErr(e, k) {
					continue
				}
				if n := c.aliasName(k); n != "" {
					e.Args = append(e.Args, &Expr{Kind: ExprAlias, Span: c.span(k), Text: n})
				}
			}
			return e
		}
	}
	return c.opaque(i)
}

func (c *converter) callExpr(i int) *Expr {
	e := &Expr{Kind: ExprCall, Span: c.span(i)}
	t := c.field(i, fTarget)
	if t < 0 {
		return c.opaque(i)
	}
	switch c.kind(t) {
	case kIdentifier:
		e.Text, e.NameSpan = c.text(t), c.span(t)
	case kDot:
		l, r := c.field(t, fLeft), c.field(t, fRight)
		if l < 0 || r < 0 || c.kind(r) != kIdentifier {
			return c.opaque(i)
		}
		e.Base = c.expr(l)
		e.Text, e.NameSpan = c.text(r), c.span(r)
	default:
		return c.opaque(i)
	}
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.addErr(e, j) {
			continue
		}
		switch c.kind(j) {
		case kArguments:
			for k := c.first(j); k >= 0; k = c.sibling(j, k) {
				if c.addErr(e, k) || !c.n[k].named() {
					continue
				}
				e.Args = append(e.Args, c.argExpr(k))
			}
		case kDoBlock:
			e.Args = append(e.Args, c.blockExpr(j))
		}
	}
	return e
}

// blockExpr converts a do-block or a parenthesised block: the statements
// in order (the do-block's else/after/rescue/catch parts are not kept).
func (c *converter) blockExpr(i int) *Expr {
	e := &Expr{Kind: ExprBlock, Span: c.span(i)}
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.addErr(e, j) {
			continue
		}
		if !c.n[j].named() || c.kind(j) == kOther && strings.HasSuffix(c.g.name(&c.n[j]), "_block") {
			continue
		}
		e.Args = append(e.Args, c.expr(j))
	}
	return e
}

func (c *converter) listExpr(i int) *Expr {
	e := &Expr{Kind: ExprList, Span: c.span(i)}
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.addErr(e, j) || !c.n[j].named() {
			continue
		}
		switch {
		case c.kind(j) == kKeywords:
			c.keywordPairs(j, e)
		case c.kind(j) == kBinaryOp && c.opText(j) == "|":
			l, r := c.field(j, fLeft), c.field(j, fRight)
			if l >= 0 {
				e.Args = append(e.Args, c.expr(l))
			}
			if r >= 0 {
				e.Base = c.expr(r)
			}
		default:
			e.Args = append(e.Args, c.expr(j))
		}
	}
	return e
}

func (c *converter) tupleExpr(i int) *Expr {
	e := &Expr{Kind: ExprTuple, Span: c.span(i)}
	for j := c.first(i); j >= 0; j = c.sibling(i, j) {
		if c.addErr(e, j) || !c.n[j].named() {
			continue
		}
		e.Args = append(e.Args, c.argExpr(j))
	}
	return e
}
