package elixir

// This file keeps, for the tests only, the syntax check as it was before
// its single-pass rewrite (syntax.go), so that TestSyntaxCheckSameAsReference
// and FuzzSyntaxCheckSame can show the two give the same error on any input.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/positions"
)

// The syntax check: it finds the first syntax error of a file where
// Elixir's own parser (Code.string_to_quoted/2) finds it, from the
// tolerant lexer's tokens (docs/architecture.md "The Elixir reader").
// Elixir tokenizes a whole file before it parses it, and its tokenizer
// already matches brackets and do/end, so the check runs in the same two
// phases: first the tokenizer's errors (an unterminated string, heredoc,
// sigil or quoted atom, a closer that does not match the innermost open
// bracket or block, an refOpener left open at the end of the file), then the
// parser's errors that show in the token stream (a missing operand or
// value before a closer or comma, two literals side by side, an
// expression after a keyword list in a container).
//
// Positions follow Elixir's: an error Elixir reports at a token is
// reported at that token. An refOpener Elixir names as missing its
// terminator ("The "[" at line 3 is missing terminator "]"") is reported
// at the refOpener when the token that revealed it sits on a later line, so
// an unclosed `[` is shown at the `[` rather than at the next `end`.

// refSyntaxCheck returns the first syntax error of src, whose tokens (from
// lex, ending with tEOF) are toks, or nil when Elixir would read the
// file. The error's Span is byte offsets into src, never empty.
func refSyntaxCheck(uri string, lx lexed) *SyntaxError {
	c := &refChecker{uri: uri, lexed: lx}
	src := c.src
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return c.err(positions.Span{Start: i, End: i + 1}, "syntax error: invalid UTF-8 (Elixir reads only UTF-8 source)")
	}
	cr := c.loneCR()
	e := c.tokenizer()
	if cr >= 0 && (e == nil || cr < e.At) {
		// Elixir's tokenizer stops at the first carriage return that is
		// not part of a CRLF pair, outside strings and comments: "unexpected
		// token: carriage return (column N, code point U+000D)".
		return c.err(positions.Span{Start: cr, End: cr + 1}, `syntax error: unexpected "\r" (a carriage return not followed by a newline)`)
	}
	if e != nil {
		return e
	}
	return c.parser()
}

// loneCR returns the byte offset of the first carriage return not followed
// by a newline that lies in code (between tokens, outside a comment), or
// -1. Inside strings, charlists, sigils and comments Elixir reads one as
// text; the lexer reads it as a line break for recovery.
func (c *refChecker) loneCR() int {
	prev := 0
	scan := func(from, to int) int {
		for j := from; j < to; j++ {
			switch c.src[j] {
			case '#':
				for j < to && c.src[j] != '\n' {
					j++
				}
			case '\r':
				if j+1 >= len(c.src) || c.src[j+1] != '\n' {
					return j
				}
			}
		}
		return -1
	}
	for i := range c.toks {
		sp := c.toks[i].span()
		if sp.Start > prev {
			if at := scan(prev, min(sp.Start, len(c.src))); at >= 0 {
				return at
			}
		}
		prev = max(prev, sp.End)
	}
	if prev < len(c.src) {
		return scan(prev, len(c.src))
	}
	return -1
}

type refChecker struct {
	uri string
	lexed
}

// refOpener is one open bracket or block of the tokenizer's terminator stack.
type refOpener struct {
	tok   int    // index of the opening token
	text  string // "(", "[", "{", "<<", "do", "fn"
	close string // the terminator that closes it
}

// refCloserOf maps an opening token to its terminator.
var refCloserOf = map[string]string{"(": ")", "[": "]", "{": "}", "<<": ">>", "do": "end", "fn": "end"}

func (c *refChecker) err(s positions.Span, msg string) *SyntaxError {
	if s.End <= s.Start {
		if s.Start < len(c.src) {
			s.End = s.Start + 1
		} else if s.Start > 0 {
			s.Start--
			s.End = len(c.src)
		}
	}
	return &SyntaxError{URI: c.uri, Span: s, Message: msg, At: s.Start}
}

// errAt is err for an error Elixir reports at byte offset at.
func (c *refChecker) errAt(s positions.Span, at int, msg string) *SyntaxError {
	e := c.err(s, msg)
	e.At = at
	return e
}

// line returns the 0-based line of byte offset off.
func (c *refChecker) line(off int) int {
	n := 0
	for i := 0; i < off && i < len(c.src); i++ {
		if c.src[i] == '\n' {
			n++
		}
	}
	return n
}

// tokText is how a message quotes token t: its text as written, cut to
// 24 bytes and to its first line.
func (c *refChecker) tokText(t *token) string {
	s := string(c.src[t.span().Start:t.span().End])
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			s = s[:i]
			break
		}
	}
	if len(s) > 24 {
		s = s[:24] + "…"
	}
	return strconv.Quote(s)
}

// tokenizer reports what Elixir's tokenizer rejects, in the order it
// scans.
func (c *refChecker) tokenizer() *SyntaxError {
	var stack []refOpener
	for i := range c.toks {
		t := &c.toks[i]
		switch t.kind {
		case tString, tCharlist, tAtom, tWords, tSigil, tKey:
			if t.badHeader() {
				return c.errAt(c.openDelim(t), t.span().Start, "syntax error: a heredoc's opening delimiter must end its line (only spaces and tabs may follow it)")
			}
			if t.badEscape() {
				return escapeError(c.uri, c.src, t, c.openDelim(t))
			}
			if t.kind == tKey && t.keyUnspaced() {
				return keyError(c.uri, c.src, t)
			}
			if !c.closedQuote(t) {
				what := "string"
				switch {
				case t.heredoc():
					what = "heredoc"
				case t.kind == tCharlist:
					what = "charlist"
				case t.kind == tAtom:
					what = "atom"
				case t.kind == tWords || t.kind == tSigil || c.src[t.span().Start] == '~':
					what = "sigil"
				}
				return c.errAt(c.openDelim(t), len(c.src), "syntax error: missing terminator: this "+what+" is never closed")
			}
			continue
		case tBad:
			return c.err(t.span(), badMessage(c.src, t.span(), c.tokText(t)))
		case tEOF:
			if n := len(stack); n > 0 {
				o := stack[n-1]
				return c.errAt(c.toks[o.tok].span(), len(c.src), "syntax error: missing terminator: "+strconv.Quote(o.text)+" is never closed by "+strconv.Quote(o.close))
			}
			return nil
		case tOp:
			switch c.text(t) {
			case "(", "[", "{", "<<":
				stack = append(stack, refOpener{tok: i, text: c.text(t), close: refCloserOf[c.text(t)]})
				continue
			case ")", "]", "}", ">>":
			default:
				continue
			}
		case tIdent:
			switch c.text(t) {
			case "do", "fn":
				if c.isKeywordUse(i) {
					continue
				}
				stack = append(stack, refOpener{tok: i, text: c.text(t), close: "end"})
				continue
			case "end":
				if c.isKeywordUse(i) {
					continue
				}
			default:
				continue
			}
		default:
			continue
		}
		// t is a closer.
		if n := len(stack); n > 0 && stack[n-1].close == c.text(t) {
			stack = stack[:n-1]
			continue
		}
		if len(stack) == 0 {
			if c.text(t) == "end" {
				continue // the parser's error (an `end` without a block)
			}
			return c.err(t.span(), "syntax error: unexpected "+c.tokText(t))
		}
		o := stack[len(stack)-1]
		ot := &c.toks[o.tok]
		if c.line(ot.span().Start) < c.line(t.span().Start) && refClosesBelow(stack, c.text(t)) {
			// t closes an outer construct: the innermost refOpener is the
			// one left open, report it where it is written.
			return c.errAt(ot.span(), t.span().Start, "syntax error: "+strconv.Quote(o.text)+" is missing its terminator "+strconv.Quote(o.close)+" (found "+c.tokText(t)+" later)")
		}
		return c.err(t.span(), "syntax error: unexpected "+c.tokText(t)+": "+strconv.Quote(o.text)+" is missing its terminator "+strconv.Quote(o.close))
	}
	return nil
}

// isKeywordUse reports whether the do/fn/end identifier at i is not a
// block word: a field or function name after a dot (`x.end`).
func (c *refChecker) isKeywordUse(i int) bool {
	if i > 0 {
		if p := &c.toks[i-1]; p.kind == tOp && c.text(p) == "." && p.span().End == c.toks[i].span().Start {
			return true
		}
	}
	return false
}

// closedQuote reports whether the quoted token t has its closing
// delimiter (tokens that are not quoted are closed).
func (c *refChecker) closedQuote(t *token) bool {
	switch t.kind {
	case tString, tCharlist, tWords, tSigil:
		return t.closed()
	case tAtom, tKey:
		s := t.span()
		if s.End > s.Start+1 && (c.src[s.Start] == '"' || c.src[s.Start] == '\'' || c.src[s.Start] == ':' && (c.src[s.Start+1] == '"' || c.src[s.Start+1] == '\'')) {
			return t.closed()
		}
	}
	return true
}

// openDelim is the opening delimiter of a quoted token: `"`, `"""`,
// `:"`, `~s(`.
func (c *refChecker) openDelim(t *token) positions.Span {
	s := t.span().Start
	i := s
	if c.src[i] == ':' {
		i++
	}
	if c.src[i] == '~' {
		i++
		for i < t.span().End && isLetterByte(c.src[i]) {
			i++
		}
	}
	n := 1
	if t.heredoc() {
		n = 3
	}
	return positions.Span{Start: s, End: min(i+n, t.span().End)}
}

// binaryOps are the operators after which an operand must follow.
func (c *refChecker) refIsBinaryOpTok(t *token) bool {
	if t.kind != tOp {
		return false
	}
	if c.text(t) == "|" || c.text(t) == "=>" {
		return true
	}
	_, ok := precOf(c.text(t))
	return ok && c.text(t) != "->"
}

// refIsLiteralTok reports a literal token that can take no argument.
func refIsLiteralTok(t *token) bool {
	switch t.kind {
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil:
		return true
	}
	return false
}

// refStartsOperand reports a token that starts a new operand (for the
// check of two literals side by side).
func (c *refChecker) refStartsOperand(t *token) bool {
	switch t.kind {
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil, tKey, tAlias:
		return true
	case tIdent:
		return !notCallee[c.text(t)] || c.text(t) == "true" || c.text(t) == "false" || c.text(t) == "nil"
	}
	return false
}

// level is one open bracket or block of the reference parser, with
// whether a keyword pair has been met at its level.
type level struct {
	text    string
	keyword bool
}

// parser reports the parser errors the token stream shows, in source
// order (Elixir's parser stops at the first).
func (c *refChecker) parser() *SyntaxError {
	var stack []level
	blocks := 0
	for i := 0; i+1 < len(c.toks); i++ {
		t, n := &c.toks[i], &c.toks[i+1]
		if t.kind == tOp {
			switch c.text(t) {
			case "(", "[", "{", "<<":
				stack = append(stack, level{text: c.text(t)})
			case ")", "]", "}", ">>":
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		} else if t.kind == tIdent && !c.isKeywordUse(i) {
			switch c.text(t) {
			case "do", "fn":
				stack = append(stack, level{text: c.text(t)})
			case "end":
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		}
		if t.kind == tKey && len(stack) > 0 {
			stack[len(stack)-1].keyword = true
		}
		closer := n.kind == tOp && (c.text(n) == ")" || c.text(n) == "]" || c.text(n) == "}" || c.text(n) == ">>" || c.text(n) == ",") ||
			n.kind == tIdent && c.text(n) == "end"
		// needs: t leaves an operand missing before a closer or the end of
		// the file (a comma, a binary, prefix or word operator).
		needs := t.kind == tOp && c.text(t) == "," ||
			c.refIsBinaryOpTok(t) && c.text(t) != ".." && !c.isOperatorName(i) ||
			t.kind == tOp && c.text(t) == ".." && !c.isOperatorName(i) && i > 0 && refEndsOperand(c, &c.toks[i-1]) ||
			t.kind == tOp && (c.text(t) == "!" || c.text(t) == "&" || c.text(t) == "^" || c.text(t) == "@") && !c.isOperatorName(i) ||
			t.kind == tIdent && (c.text(t) == "and" || c.text(t) == "or" || c.text(t) == "in" || c.text(t) == "when" || c.text(t) == "not") && !c.isOperatorName(i)
		switch {
		case c.refBinaryOnly(i+1) && c.refWantsOperand(i, n, stack):
			if c.text(n) == "not" {
				return c.err(positions.Span{Start: n.span().Start, End: c.toks[i+2].span().End}, `syntax error: unexpected "not in"`)
			}
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case t.kind == tOp && c.text(t) == ".." && !n.bol() && (i == 0 || !refEndsOperand(c, &c.toks[i-1])) && c.refRangeOperand(n):
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n)+" after the full range `..`")
		case n.kind == tKey && t.kind == tOp && (c.text(t) == "<<" || c.text(t) == "{" && !(i > 0 && c.toks[i-1].span().End == t.span().Start &&
			(c.toks[i-1].kind != tOp || c.text(&c.toks[i-1]) == ")" || c.text(&c.toks[i-1]) == "%"))):
			return c.err(n.span(), "syntax error: a tuple or bitstring may not start with a keyword list ("+strconv.Quote(string(c.src[n.span().Start:n.span().End])+":")+")")
		case needs && n.kind == tEOF:
			at := t
			if i > 0 && c.text(t) == "in" && c.text(&c.toks[i-1]) == "not" {
				at = &c.toks[i-1]
			}
			return c.err(at.span(), "syntax error: the file ends after "+c.tokText(t))
		case needs && t.kind == tOp && c.text(t) == "," && n.kind == tIdent && c.text(n) == "end":
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case needs && t.kind != tOp && closer:
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case needs && t.kind == tOp && c.text(t) != "," && closer:
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case t.kind == tKey && closer:
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case t.kind == tOp && c.text(t) == "," && n.kind == tOp && c.text(n) == ",":
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case t.kind == tOp && c.text(t) == "," && n.kind == tOp && c.text(n) == ")" && len(stack) > 0 && stack[len(stack)-1].text == "(":
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case t.kind == tOp && c.text(t) == "." && (n.kind == tInt || n.kind == tFloat):
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n)+" after a dot")
		case refIsLiteralTok(t) && c.refStartsOperand(n) && !n.bol():
			return c.err(n.span(), "syntax error: unexpected "+c.tokText(n))
		case t.kind == tOp && c.text(t) == "," && len(stack) > 0 && stack[len(stack)-1].keyword && n.kind != tKey && !closer:
			if l := stack[len(stack)-1].text; l == "(" || l == "[" || l == "{" {
				return c.err(t.span(), "syntax error: unexpected expression after a keyword list (keyword lists come last)")
			}
		}
		if t.kind == tIdent && !c.isKeywordUse(i) {
			switch c.text(t) {
			case "do", "fn":
				blocks++
			case "end":
				if blocks == 0 {
					return c.err(t.span(), "syntax error: unexpected "+c.tokText(t))
				}
				blocks--
			}
		}
	}
	return nil
}

// refBinaryOnly reports whether token i needs a left operand: a binary
// operator that is not also a prefix one (not `..`, alone the full range,
// nor `//`), `.`, `->`, `=>`, a word operator, or the not of `not in`.
func (c *refChecker) refBinaryOnly(i int) bool {
	n := &c.toks[i]
	s := c.text(n)
	// slash: the operator is named with its arity, `h(== / 2)`.
	slash := func(k int) bool { return k < len(c.toks) && c.toks[k].kind == tOp && c.text(&c.toks[k]) == "/" }
	switch n.kind {
	case tOp:
		switch s {
		case "..", "//", "+", "-":
			return false
		case ".", "=>":
			return true
		case "->", "|":
			return !slash(i + 1)
		}
		_, ok := precOf(s)
		return ok && !slash(i+1)
	case tIdent:
		switch s {
		case "not":
			return i+1 < len(c.toks) && c.toks[i+1].kind == tIdent && c.text(&c.toks[i+1]) == "in" && !slash(i+2)
		case "in":
			if i > 0 && c.toks[i-1].kind == tIdent && c.text(&c.toks[i-1]) == "not" {
				return false
			}
			return !c.isKeywordUse(i) && !slash(i+1)
		case "and", "or", "when":
			return !c.isKeywordUse(i) && !slash(i+1)
		}
	}
	return false
}

// refWantsOperand reports whether token k leaves an operand missing before
// n: an opening bracket, a comma, a keyword key, a binary or word operator
// not used as a name. `->` may follow a grouping `(`, a `<<`, and a key
// outside brackets.
func (c *refChecker) refWantsOperand(k int, n *token, stack []level) bool {
	t := &c.toks[k]
	arrow := n.kind == tOp && c.text(n) == "->"
	switch t.kind {
	case tKey:
		return !arrow || len(stack) > 0 && stack[len(stack)-1].text != "do" && stack[len(stack)-1].text != "fn" && stack[len(stack)-1].text != "<<"
	case tOp:
		switch c.text(t) {
		case ",", "[", "{", "%{":
			return true
		case "(":
			if !arrow {
				return true
			}
			if k == 0 || c.toks[k-1].span().End != t.span().Start {
				return false
			}
			b := &c.toks[k-1]
			s := c.text(b)
			return b.kind == tIdent && (s != "not" && s != "and" && s != "or" && s != "in" && s != "when" || c.isKeywordUse(k-1)) ||
				b.kind == tOp && (s == "." || s == ")")
		case "<<":
			return !arrow
		case "..", "//", "...":
			return false
		}
		return c.refIsBinaryOpTok(t) && !c.isOperatorName(k) && !(n.kind == tOp && c.text(n) == "/")
	case tIdent:
		switch c.text(t) {
		case "and", "or", "in", "when":
			return !c.isKeywordUse(k) && !c.isOperatorName(k) && !(n.kind == tOp && c.text(n) == "/")
		}
	}
	return false
}

// refRangeOperand reports a token that Elixir refuses right after the
// full range `..`: a literal, a name, `(`, `{`, `%`, `%{` or `<<`.
func (c *refChecker) refRangeOperand(n *token) bool {
	switch n.kind {
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil, tAlias:
		return true
	case tIdent:
		switch c.text(n) {
		case "and", "or", "in", "when", "not", "end", "do":
			return false
		}
		return true
	case tOp:
		switch c.text(n) {
		case "(", "{", "%", "<<", "%{":
			return true
		}
	}
	return false
}

// refEndsOperand reports whether p may end an operand: a literal, a name
// other than a word operator, or a closing bracket.
func refEndsOperand(c *refChecker, p *token) bool {
	switch p.kind {
	case tOp:
		t := c.text(p)
		return t == ")" || t == "]" || t == "}" || t == ">>"
	case tKey, tEOF:
		return false
	case tIdent:
		t := c.text(p)
		return t != "and" && t != "or" && t != "in" && t != "when" && t != "not"
	}
	return true
}

// isOperatorName reports whether the operator at i is used as a name: in
// a capture `&+/2`, after a dot (`Kernel.+`), or as a call `+(a, b)`.
func (c *refChecker) isOperatorName(i int) bool {
	if i > 0 {
		p := &c.toks[i-1]
		if p.kind == tOp && (c.text(p) == "&" || c.text(p) == ".") {
			return true
		}
	}
	return false
}

// refClosesBelow reports whether closer matches an refOpener of the stack below
// its top (so the top is the one left unclosed, not closer the stray one).
func refClosesBelow(stack []refOpener, closer string) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		if stack[i].close == closer {
			return true
		}
	}
	return false
}

// sameSyntax reports whether the syntax check and the reference give the
// same error (or none) on src, and describes the difference.
func sameSyntax(src []byte) (bool, string) {
	lx := lex(src, -1)
	got := syntaxCheck("file:///x.ex", lx)
	want := refSyntaxCheck("file:///x.ex", lx)
	if (got == nil) != (want == nil) || got != nil && *got != *want {
		return false, fmt.Sprintf("syntaxCheck = %+v, reference = %+v", got, want)
	}
	return true, ""
}

// TestSyntaxCheckSameAsReference compares the syntax check with the
// reference on the repository's Elixir test files, every prefix of each
// and each with one byte removed (which breaks them in every way a byte
// can), on the generated tools and, with WYMCP_ELIXIR_CORPUS set, on
// every file of Elixir's own source.
func TestSyntaxCheckSameAsReference(t *testing.T) {
	files := repoCorpus(t)
	var srcs [][]byte
	for _, f := range files {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	if len(srcs) < 20 {
		t.Fatalf("only %d repository files", len(srcs))
	}
	variants := 0
	for k, src := range srcs {
		if len(src) > 16<<10 || testing.Short() {
			continue
		}
		for n := 0; n <= len(src); n++ {
			variants++
			if ok, diff := sameSyntax(src[:n]); !ok {
				t.Fatalf("%s, prefix of %d bytes: %s", files[k].Key, n, diff)
			}
			if n < len(src) {
				cut := append(append([]byte{}, src[:n]...), src[n+1:]...)
				if ok, diff := sameSyntax(cut); !ok {
					t.Fatalf("%s without byte %d: %s", files[k].Key, n, diff)
				}
			}
		}
	}
	srcs = append(srcs, GenerateTool(23), GenerateTool(1000))
	srcs = append(srcs, elixirCorpusSources(t)...)
	for _, src := range srcs {
		if ok, diff := sameSyntax(src); !ok {
			t.Fatalf("%.60q: %s", src, diff)
		}
	}
	t.Logf("%d files, %d broken variants", len(srcs), variants)
}

// FuzzSyntaxCheckSame checks that the syntax check and the reference give
// the same error on any bytes. Its seeds are FuzzParse's.
func FuzzSyntaxCheckSame(f *testing.F) {
	addSyntaxSeeds(f)
	f.Add([]byte("a\r b\r\n[1,, 2]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if ok, diff := sameSyntax(src); !ok {
			t.Fatalf("%q: %s", src, diff)
		}
	})
}

// elixirCorpusSources returns the contents of the Elixir files under
// WYMCP_ELIXIR_CORPUS (Elixir's own source, set by .ci/elixir); none when
// it is not set.
func elixirCorpusSources(t *testing.T) [][]byte {
	dir := os.Getenv("WYMCP_ELIXIR_CORPUS")
	if dir == "" {
		return nil
	}
	var srcs [][]byte
	for _, f := range collectElixirFiles(t, dir, "elixir:", nil) {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	return srcs
}

// addSyntaxSeeds adds the broken fixtures of testdata/syntax to the seed
// corpus of f.
func addSyntaxSeeds(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "syntax", "*.ex"))
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
}
