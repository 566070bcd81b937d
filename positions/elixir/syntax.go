package elixir

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/positions"
)

// The syntax check: it finds the first syntax error of a file where
// Elixir's own parser (Code.string_to_quoted/2) finds it, from the
// tolerant lexer's tokens (docs/architecture.md "The Elixir reader").
// Elixir tokenizes a whole file before it parses it, and its tokenizer
// already matches brackets and do/end, so the check keeps its two phases'
// order in one pass over the tokens (scan): a tokenizer's error (an
// unterminated string, heredoc, sigil or quoted atom, a closer that does
// not match the innermost open bracket or block, an opener left open at
// the end of the file) wins wherever it is, and only without one does the
// first parser's error that shows in the token stream count (a missing
// operand or value before a closer or comma, two literals side by side,
// an expression after a keyword list in a container).
//
// Positions follow Elixir's: an error Elixir reports at a token is
// reported at that token. An opener Elixir names as missing its
// terminator ("The "[" at line 3 is missing terminator "]"") is reported
// at the opener when the token that revealed it sits on a later line, so
// an unclosed `[` is shown at the `[` rather than at the next `end`.

// syntaxCheck returns the first syntax error of src, whose tokens (from
// lex, ending with tEOF) are toks, or nil when Elixir would read the
// file. The error's Span is byte offsets into src, never empty.
func syntaxCheck(uri string, lx lexed) *SyntaxError {
	c := &checker{uri: uri, lexed: lx}
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
	e, perr := c.scan()
	if cr >= 0 && (e == nil || cr < e.At) {
		// Elixir's tokenizer stops at the first carriage return that is
		// not part of a CRLF pair, outside strings and comments: "unexpected
		// token: carriage return (column N, code point U+000D)".
		return c.err(positions.Span{Start: cr, End: cr + 1}, `syntax error: unexpected "\r" (a carriage return not followed by a newline)`)
	}
	if e != nil {
		return e
	}
	return perr
}

// loneCR returns the byte offset of the first carriage return not followed
// by a newline that lies in code (between tokens, outside a comment), or
// -1. Inside strings, charlists, sigils and comments Elixir reads one as
// text; the lexer reads it as a line break for recovery.
func (c *checker) loneCR() int {
	if !hasLoneCR(c.src) {
		return -1 // the common case: no carriage return, or CRLF pairs only
	}
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

// hasLoneCR reports whether src holds a carriage return not followed by
// a newline anywhere (in code or not).
func hasLoneCR(src []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\r')
		if j < 0 {
			return false
		}
		i += j + 1
		if i >= len(src) || src[i] != '\n' {
			return true
		}
	}
}

// checker holds the tokens of the source checked (its src, toks and
// their texts, lexed.text).
type checker struct {
	uri string
	lexed
}

// opener is one open bracket or block of the tokenizer's terminator stack.
type opener struct {
	tok   int    // index of the opening token
	text  string // "(", "[", "{", "<<", "do", "fn"
	close string // the terminator that closes it
	// keyword: a keyword pair has been met at this level (the parser's
	// "keyword lists come last").
	keyword bool
}

func (c *checker) err(s positions.Span, msg string) *SyntaxError {
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
func (c *checker) errAt(s positions.Span, at int, msg string) *SyntaxError {
	e := c.err(s, msg)
	e.At = at
	return e
}

// line returns the 0-based line of byte offset off.
func (c *checker) line(off int) int {
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
func (c *checker) tokText(t *token) string {
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

// scan walks the tokens once, in source order, and returns the first
// error of Elixir's tokenizer (tokErr) and the first error of its parser
// that the token stream shows (parseErr, which counts only when tokErr is
// nil: Elixir tokenizes a whole file before it parses it, so a tokenizer
// error anywhere wins over a parser error before it). After the first
// parser error the walk goes on for the tokenizer's errors only.
//
// One stack of open brackets and blocks serves both: up to the first
// tokenizer error every closer matches the innermost opener, so the
// parser's stack is the tokenizer's, and an `end` closes a block exactly
// when the stack is not empty.
func (c *checker) scan() (tokErr, parseErr *SyntaxError) {
	var fixed [64]opener // no allocation for the usual nesting depth
	stack := fixed[:0]
	toks := c.toks
	for i := range toks {
		t := &toks[i]
		if parseErr == nil && i > 0 {
			if p := &toks[i-1]; c.mayPair(p, t) {
				parseErr = c.pair(i, p, t, stack)
			}
		}
		switch t.kind {
		case tString, tCharlist, tAtom, tWords, tSigil, tKey:
			if t.badHeader() {
				return c.errAt(c.openDelim(t), t.span().Start, "syntax error: a heredoc's opening delimiter must end its line (only spaces and tabs may follow it)"), nil
			}
			if t.badEscape() {
				return escapeError(c.uri, c.src, t, c.openDelim(t)), nil
			}
			if t.kind == tKey && t.keyUnspaced() {
				return keyError(c.uri, c.src, t), nil
			}
			if !t.closed() && !c.closedQuote(t) {
				return c.unterminated(t), nil
			}
			if t.kind == tKey && len(stack) > 0 {
				if parseErr == nil && !stack[len(stack)-1].keyword && stack[len(stack)-1].tok == i-1 && c.opensTupleOrBits(i-1) {
					// `{a: 1}`, `<<a: 1>>`: a keyword list may end a tuple's
					// elements (`{1, a: 1}`), never be the first.
					parseErr = c.err(t.span(), "syntax error: a tuple or bitstring may not start with a keyword list ("+strconv.Quote(string(c.src[t.span().Start:t.span().End])+":")+")")
				}
				stack[len(stack)-1].keyword = true
			}
			continue
		case tBad:
			return c.err(t.span(), badMessage(c.src, t.span(), c.tokText(t))), nil
		case tEOF:
			if n := len(stack); n > 0 {
				o := stack[n-1]
				return c.errAt(c.toks[o.tok].span(), len(c.src), "syntax error: missing terminator: "+strconv.Quote(o.text)+" is never closed by "+strconv.Quote(o.close)), nil
			}
			if parseErr == nil && i > 0 && c.needsOperand(i-1) {
				// `x and`, `foo x,` at the end of the file: Elixir reports the
				// operator or comma itself (`x not in` at its not).
				k := i - 1
				if k > 0 && c.name(&toks[k]) == "in" && c.name(&toks[k-1]) == "not" {
					k--
				}
				parseErr = c.err(toks[k].span(), "syntax error: the file ends after "+c.tokText(&toks[i-1]))
			}
			return nil, parseErr
		case tOp:
			// One-byte operators compare as bytes (token.op); of the longer
			// ones only << and >> open or close.
			switch t.op() {
			case '.', '|', '*', '/', '=', '<', '>':
				if parseErr == nil && i > 0 && mayWantOperand(&toks[i-1]) {
					parseErr = c.leftMissing(i, t, stack)
				}
				continue
			case '(':
				stack = append(stack, opener{tok: i, text: "(", close: ")"})
				continue
			case '[':
				stack = append(stack, opener{tok: i, text: "[", close: "]"})
				continue
			case '{':
				stack = append(stack, opener{tok: i, text: "{", close: "}"})
				continue
			case ')', ']', '}':
			case 0:
				switch c.name(t) {
				case "<<":
					stack = append(stack, opener{tok: i, text: "<<", close: ">>"})
					continue
				case ">>":
				default:
					if parseErr == nil && i > 0 && mayWantOperand(&toks[i-1]) {
						parseErr = c.leftMissing(i, t, stack)
					}
					continue
				}
			default:
				continue
			}
		case tIdent:
			if n := c.name(t); len(n) < 2 || len(n) > 3 || n[0] != 'd' && n[0] != 'f' && n[0] != 'e' {
				// The common case: not a block word; maybe a word operator.
				if parseErr == nil && len(n) >= 2 && len(n) <= 4 && (n[0] == 'a' || n[0] == 'o' || n[0] == 'i' || n[0] == 'w' || n[0] == 'n') && i > 0 && mayWantOperand(&toks[i-1]) {
					parseErr = c.leftMissing(i, t, stack)
				}
				continue
			}
			switch c.name(t) {
			case "do", "fn":
				if !c.isKeywordUse(i) {
					stack = append(stack, opener{tok: i, text: c.name(t), close: "end"})
				}
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
		if n := len(stack); n > 0 && stack[n-1].close == c.name(t) {
			stack = stack[:n-1]
			continue
		}
		if len(stack) == 0 {
			if c.name(t) == "end" {
				// The parser's error: an `end` without a block.
				if parseErr == nil {
					parseErr = c.err(t.span(), "syntax error: unexpected "+c.tokText(t))
				}
				continue
			}
			return c.err(t.span(), "syntax error: unexpected "+c.tokText(t)), nil
		}
		o := stack[len(stack)-1]
		ot := &c.toks[o.tok]
		if c.line(ot.span().Start) < c.line(t.span().Start) && closesBelow(stack, c.name(t)) {
			// t closes an outer construct: the innermost opener is the
			// one left open, report it where it is written.
			return c.errAt(ot.span(), t.span().Start, "syntax error: "+strconv.Quote(o.text)+" is missing its terminator "+strconv.Quote(o.close)+" (found "+c.tokText(t)+" later)"), nil
		}
		return c.err(t.span(), "syntax error: unexpected "+c.tokText(t)+": "+strconv.Quote(o.text)+" is missing its terminator "+strconv.Quote(o.close)), nil
	}
	return nil, parseErr
}

// badMessage is the message of the tBad token at s, quoted: the byte no
// rule reads, or a number and the letter or underscore that follows it
// (cursor_lex.go, number), with Elixir's wording for the latter.
func badMessage(src []byte, s positions.Span, quoted string) string {
	if b := src[s.Start:s.End]; len(b) > 1 && isDigit(b[0]) {
		return "syntax error: invalid character " + strconv.Quote(string(b[len(b)-1:])) + " after number " + string(b[:len(b)-1])
	} else if len(b) > 1 && bytes.IndexByte([]byte("?!@"), b[len(b)-1]) >= 0 {
		return "syntax error: invalid character " + strconv.Quote(string(b[len(b)-1:])) + " in " + quoted
	}
	return "syntax error: unexpected " + quoted
}

// escapeError is the tokenizer's error for the string, charlist or
// quoted atom t, opened by open, that holds an escape Elixir rejects
// (token.badEscape). Elixir reports it at the token for a heredoc or a
// quoted atom, after the opening quote otherwise; the range runs from
// there to the end of the bad escape's `\x` or `\u` when that is on the
// same line.
func escapeError(uri string, src []byte, t *token, open positions.Span) *SyntaxError {
	at := t.span().Start
	if !t.heredoc() && src[at] != ':' {
		at = open.End
	}
	end := at + 1
	if b := badEscapeAt(src, open.End, t.span().End); b >= at && !bytes.ContainsAny(src[at:b], "\r\n") {
		end = b + 2
	}
	return &SyntaxError{URI: uri, Span: positions.Span{Start: at, End: end}, At: at,
		Message: `syntax error: invalid escape (\x needs hex digits, \u four or {1 to 6}, naming a valid code point)`}
}

// keyError is the tokenizer's error for the keyword key t whose colon
// no space, tab or newline follows (token.keyUnspaced): Elixir reports an
// identifier key at the key (`a:1`), and the colon itself after a quoted
// key or at the end of the file, where it starts no keyword.
func keyError(uri string, src []byte, t *token) *SyntaxError {
	colon := t.span().End
	if c := src[t.span().Start]; c != '"' && c != '\'' && colon+1 < len(src) {
		return &SyntaxError{URI: uri, Span: positions.Span{Start: t.span().Start, End: colon + 1}, At: t.span().Start,
			Message: "syntax error: a keyword key must be followed by a space (`" + string(src[t.span().Start:colon]) + ": value`)"}
	}
	return &SyntaxError{URI: uri, Span: positions.Span{Start: colon, End: colon + 1}, At: colon, Message: `syntax error: unexpected ":"`}
}

// unterminated is the tokenizer's error for the quoted token t that is
// never closed.
func (c *checker) unterminated(t *token) *SyntaxError {
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

// isKeywordUse reports whether the do/fn/end identifier at i is not a
// block word: a field or function name after a dot (`x.end`).
func (c *checker) isKeywordUse(i int) bool {
	if i > 0 {
		if p := &c.toks[i-1]; c.isOp(p, ".") && p.span().End == c.toks[i].span().Start {
			return true
		}
	}
	return false
}

// closedQuote reports whether the quoted token t has its closing
// delimiter (tokens that are not quoted are closed).
func (c *checker) closedQuote(t *token) bool {
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
func (c *checker) openDelim(t *token) positions.Span {
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
func (c *checker) isBinaryOpTok(t *token) bool {
	if t.kind != tOp {
		return false
	}
	s := c.name(t)
	if s == "|" || s == "=>" {
		return true
	}
	_, ok := precOf(s)
	return ok && s != "->"
}

// isLiteralTok reports a literal token that can take no argument.
func isLiteralTok(t *token) bool {
	switch t.kind {
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil:
		return true
	}
	return false
}

// startsOperand reports a token that starts a new operand (for the
// check of two literals side by side).
func (c *checker) startsOperand(t *token) bool {
	switch t.kind {
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil, tKey, tAlias:
		return true
	case tIdent:
		s := c.name(t)
		return !notCallee[s] || s == "true" || s == "false" || s == "nil"
	}
	return false
}

// pair returns the parser error that the tokens i-1 and i show side by
// side, or nil: a missing operand or value before a closer or comma
// (`a +)`, `[a: ]`, `[1,, 2]`, `f(a,)`), two literals side by side on one
// line, an expression after a keyword list in a container. t is token i,
// p token i-1; stack is the open brackets and blocks after p.
func (c *checker) pair(i int, p, t *token, stack []opener) *SyntaxError {
	if c.closes(t) {
		// t closes something or separates: p must have ended an operand.
		switch p.kind {
		case tKey:
		case tIdent: // a word operator, which mayPair lets through
			if !c.needsOperand(i - 1) {
				return nil
			}
		case tOp:
			if c.isOp(p, ",") {
				if c.isOp(t, ",") || c.isOp(t, ")") && len(stack) > 0 && stack[len(stack)-1].text == "(" || t.kind == tIdent {
					break // `,,`, `f(a,)`, `foo x,` before end
				}
				return nil
			}
			switch p.op() {
			case '(', ')', '[', ']', '{', '}':
				return nil // the usual neighbours of a closer, never binary
			}
			if !c.needsOperand(i - 1) {
				return nil
			}
		default:
			return nil
		}
		return c.err(t.span(), "syntax error: unexpected "+c.tokText(t))
	}
	switch {
	case p.op() == 0 && p.kind == tOp && c.name(p) == "..":
		if !t.bol() && c.nullaryRange(i-1) && c.rangeOperand(t) {
			// `..y`, `x = .. 1`: alone (after no operand) `..` is the full
			// range, which takes no operand; an access `..[1]` is read.
			return c.err(t.span(), "syntax error: unexpected "+c.tokText(t)+" after the full range `..`")
		}
	case c.isOp(p, ".") && (t.kind == tInt || t.kind == tFloat):
		// `x.1`, `1.0.0`, `x.?a`: a dot takes a name, never a number.
		return c.err(t.span(), "syntax error: unexpected "+c.tokText(t)+" after a dot")
	case isLiteralTok(p):
		if !t.bol() && c.startsOperand(t) {
			return c.err(t.span(), "syntax error: unexpected "+c.tokText(t))
		}
	case c.isOp(p, ",") && len(stack) > 0 && stack[len(stack)-1].keyword && t.kind != tKey:
		if e := c.leftMissing(i, t, stack); e != nil {
			return e // `[a: 1, in]`: Elixir reports the in
		}
		if l := stack[len(stack)-1].text; l == "(" || l == "[" || l == "{" {
			return c.err(p.span(), "syntax error: unexpected expression after a keyword list (keyword lists come last)")
		}
	}
	return nil
}

// mayWantOperand is wantsOperand's test of the token's kind alone,
// small enough to inline where scan meets an operator: only an operator,
// a keyword key or a word operator leaves an operand to be written.
func mayWantOperand(p *token) bool {
	return p.kind == tOp || p.kind == tKey || p.kind == tIdent
}

// leftMissing returns the error of the token t at i when it is a
// binaryOnly operator met where its left operand is missing (wantsOperand;
// stack is the open brackets and blocks before t), or nil: `f(x, in)`,
// `[a: when]`, `x = == y`. Elixir reports the operator (`not in` at its
// not), before a comma's error at the same place (`[a: 1, in]` at the
// in, see pair). scan calls it for the operators and the identifiers
// that may be one.
func (c *checker) leftMissing(i int, t *token, stack []opener) *SyntaxError {
	if i == 0 || !c.binaryOnly(i) || !c.wantsOperand(i-1, t, stack) {
		return nil
	}
	if t.kind == tIdent && c.name(t) == "not" {
		return c.err(positions.Span{Start: t.span().Start, End: c.toks[i+1].span().End}, `syntax error: unexpected "not in"`)
	}
	return c.err(t.span(), "syntax error: unexpected "+c.tokText(t))
}

// binaryOnly reports whether token i is an operator that needs a left
// operand: a binary operator that is not also a prefix one, `.`, `->`,
// `when`, `and`, `or`, `in`, or the `not` that starts `not in`. `..`
// (alone the full range) and `//` (Elixir reads `(// 2)`) are not such
// operators, nor one named with its arity (arityAfter).
func (c *checker) binaryOnly(i int) bool {
	t := &c.toks[i]
	switch t.kind {
	case tOp:
		switch t.op() {
		case '.':
			return true
		case '|', '*', '/', '=', '<', '>':
			return !c.arityAfter(i + 1)
		case 0:
			s := c.name(t)
			if s == ".." || s == "//" {
				return false
			}
			if s == "=>" {
				return true
			}
			if _, ok := precOf(s); ok || s == "->" {
				return !c.arityAfter(i + 1)
			}
		}
	case tIdent:
		s := c.name(t)
		if len(s) > 4 || len(s) < 2 {
			return false
		}
		if s == "not" && i+1 < len(c.toks) && c.toks[i+1].kind == tIdent && c.name(&c.toks[i+1]) == "in" {
			return !c.arityAfter(i + 2)
		}
		if wordOps[s] && !c.isKeywordUse(i) {
			if s == "in" && i > 0 && c.toks[i-1].kind == tIdent && c.name(&c.toks[i-1]) == "not" {
				return false // `not in`, met at its not
			}
			return !c.arityAfter(i + 1)
		}
	}
	return false
}

// arityAfter reports whether token k is a `/`: an operator before it is
// named with its arity (`h(== / 2)`, Elixir's reading of `op / arity`),
// which every binary operator but `=>` and `.` allows.
func (c *checker) arityAfter(k int) bool {
	return k < len(c.toks) && c.toks[k].kind == tOp && c.toks[k].op() == '/'
}

// wantsOperand reports whether token k leaves an operand to be written
// before t, a binaryOnly operator: an opening bracket, a comma, a keyword
// key, or a binary operator that is not used as a name (`&+/2`,
// `&and/2`); stack is the open brackets and blocks after k. `..` stands
// alone as the full range. `->` may open a stab clause: after a `(` that
// groups (`(-> 1)`, not a call's `f(->)`), after a keyword key outside
// brackets (`foo do: -> end`) and after `<<` Elixir reads it otherwise.
func (c *checker) wantsOperand(k int, t *token, stack []opener) bool {
	p := &c.toks[k]
	switch p.kind {
	case tKey:
		if c.name(t) == "->" {
			if n := len(stack); n == 0 || stack[n-1].close == "end" || stack[n-1].close == ">>" {
				return false
			}
		}
		return true
	case tOp:
		switch p.op() {
		case ',', '[', '{':
			return true
		case '(':
			return c.name(t) != "->" || c.callParen(k)
		case ')', ']', '}', '.', ';', '@', '&', '^', '!', '%', ':':
			return false
		}
		switch s := c.name(p); s {
		case "%{":
			return true
		case "<<":
			return c.name(t) != "->"
		case "..", "//", "...":
			return false
		}
		// Before a `/` the operator is named with its arity (arityAfter).
		return c.isBinaryOpTok(p) && !c.isOperatorName(k) && !c.arityAfter(k+1)
	case tIdent:
		return wordOps[c.name(p)] && !c.isKeywordUse(k) && !c.isOperatorName(k) && !c.arityAfter(k+1)
	}
	return false
}

// nullaryRange reports whether the `..` at k stands alone, the full
// range: no operand ends before it.
func (c *checker) nullaryRange(k int) bool {
	return k == 0 || !c.endsOperand(&c.toks[k-1])
}

// rangeOperand reports whether t, after a `..` on its line, starts an
// operand that Elixir refuses there: a literal, a name, or a `(`, `{`,
// `%` or `<<` (not the `[` of an access, nor an operator).
func (c *checker) rangeOperand(t *token) bool {
	switch t.kind {
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil, tAlias:
		return true
	case tIdent:
		return !wordOps[c.name(t)] && !c.prefixOp(t) && c.name(t) != "end" && c.name(t) != "do"
	case tOp:
		switch t.op() {
		case '(', '{', '%':
			return true
		case 0:
			return c.name(t) == "<<" || c.name(t) == "%{"
		}
	}
	return false
}

// opensTupleOrBits reports whether token k opens a tuple or a
// bitstring: a `<<`, or a `{` that is not a map's or a struct's (`%{`,
// `%S{`, `%m{`, `%:"Elixir.S"{`, where the name touches the brace).
func (c *checker) opensTupleOrBits(k int) bool {
	p := &c.toks[k]
	if p.kind != tOp {
		return false
	}
	if p.op() == 0 {
		return c.name(p) == "<<"
	}
	if p.op() != '{' {
		return false
	}
	if k > 0 {
		n := &c.toks[k-1]
		if n.span().End == p.span().Start && (n.kind != tOp || c.isOp(n, ")") || c.isOp(n, "%")) {
			return false
		}
	}
	return true
}

// callParen reports whether the `(` at k opens a call's arguments: it
// touches the name before it (`f(`, `f.(`, `unquote(name)(`).
func (c *checker) callParen(k int) bool {
	if k == 0 {
		return false
	}
	n := &c.toks[k-1]
	if n.span().End != c.toks[k].span().Start {
		return false
	}
	switch n.kind {
	case tIdent:
		return !c.prefixOp(n) && !wordOps[c.name(n)] || c.isKeywordUse(k-1)
	case tOp:
		return n.op() == '.' || n.op() == ')'
	}
	return false
}

// wordOps are the binary operators written as words (not, a prefix
// operator, is lexed.prefixOp's).
var wordOps = map[string]bool{"and": true, "or": true, "in": true, "when": true}

// needsOperand reports whether token k, met before a closer or the end of
// the file, leaves an operand missing: a comma, a binary operator (`..`
// only after an operand: alone it is the full range, `f(..)`), a prefix
// operator or a word operator, unless it is used as a name (`&+/2`,
// `Kernel.+`, `x.in`).
func (c *checker) needsOperand(k int) bool {
	t := &c.toks[k]
	switch t.kind {
	case tOp:
		if c.isOp(t, ",") {
			return true
		}
		if c.isOperatorName(k) {
			return false
		}
		if c.isOp(t, "..") {
			return k > 0 && c.endsOperand(&c.toks[k-1])
		}
		return c.isBinaryOpTok(t) || c.prefixOp(t)
	case tIdent:
		return (wordOps[c.name(t)] || c.prefixOp(t)) && !c.isOperatorName(k)
	}
	return false
}

// endsOperand reports whether t may end an operand: a literal, a name or
// a closing bracket (not an operator, a comma, an opener or a key).
func (c *checker) endsOperand(t *token) bool {
	switch t.kind {
	case tOp:
		switch t.op() {
		case ')', ']', '}':
			return true
		case 0:
			return c.name(t) == ">>"
		}
		return false
	case tKey, tEOF:
		return false
	case tIdent:
		return !wordOps[c.name(t)] && !c.prefixOp(t)
	}
	return true
}

// closes reports whether t closes something or separates: `)`, `]`,
// `}`, `,`, `>>` or `end`.
func (c *checker) closes(t *token) bool {
	switch t.kind {
	case tOp:
		switch t.op() {
		case ')', ']', '}', ',':
			return true
		case 0:
			return c.name(t) == ">>"
		}
	case tIdent:
		return c.name(t) == "end"
	}
	return false
}

// mayPair reports whether pair can find an error at the tokens p and t
// side by side, so that scan calls it only then: before a closer, pair
// reports one only after a keyword key or an operator; elsewhere only
// after a dot, after a comma, or after a literal followed on its line by
// something that is not an operator (isLiteralTok, startsOperand).
func (c *checker) mayPair(p, t *token) bool {
	switch p.kind {
	case tKey:
		return c.closes(t)
	case tOp:
		if b := p.op(); b == '.' || b == ',' || b == 0 && p.end-p.start == 2 && c.src[p.start] == '.' && c.src[p.start+1] == '.' {
			return true // `..` for the full range's operand
		}
		return c.closes(t)
	case tInt, tFloat, tString, tCharlist, tAtom, tWords, tSigil:
		return t.kind != tOp && !t.bol()
	case tIdent:
		return c.closes(t) && (wordOps[c.name(p)] || c.prefixOp(p))
	}
	return false
}

// isOperatorName reports whether the operator at i is used as a name: in
// a capture `&+/2`, after a dot (`Kernel.+`), or as a call `+(a, b)`.
func (c *checker) isOperatorName(i int) bool {
	if i > 0 {
		p := &c.toks[i-1]
		if c.isOp(p, "&") || c.isOp(p, ".") {
			return true
		}
	}
	return false
}

// closesBelow reports whether closer matches an opener of the stack below
// its top (so the top is the one left unclosed, not closer the stray one).
func closesBelow(stack []opener, closer string) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		if stack[i].close == closer {
			return true
		}
	}
	return false
}
