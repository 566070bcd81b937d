package elixir

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/positions"
)

// The lexer: a hand-written Elixir tokenizer for the one tolerant reader
// (Parse and the cursor features' Sketch). It never gives up on a region: every byte ends up in some token, an unterminated
// string at the cursor ends at the end of the cursor's line, and the
// tokens keep their line and column so that the parser can recover an
// unclosed map at the next definition.

// tkind is the kind of a cursor-lexer token.
type tkind uint8

const (
	tEOF      tkind = iota
	tIdent          // foo, foo?, do, end, when, true (Text as written)
	tAlias          // Foo (one segment; dots are tOp ".")
	tKey            // keyword key `foo: ` or `"foo": ` (Text decoded, span without the colon)
	tAtom           // :foo, :"foo", :+ (Text without the colon)
	tString         // "..." """...""" ~s ~S
	tCharlist       // '...' ''' ~c ~C
	tWords          // ~w ~W
	tSigil          // any other sigil (opaque)
	tInt            // integer or ?c
	tFloat          // float
	tOp             // operator or punctuation (Text)
	tBad            // a byte no rule reads
)

// token is one cursor-lexer token. Spans are byte offsets into the source.
type token struct {
	kind tkind
	// unknown: interpolated; heredoc: """ or '''; closed: the closing
	// delimiter is present.
	unknown, heredoc, closed bool
	// lazy: text is src[bodyStart:bodyEnd], not yet taken (tokenText).
	lazy bool
	// bol: first token on its line; spaced: whitespace (or a comment)
	// precedes the token.
	bol, spaced bool
	// col is the token's byte column.
	col  int32
	span positions.Span
	text string
	// extra indexes lexer.words for a tWords token (its words and last
	// modifier).
	extra              int32
	bodyStart, bodyEnd int32
}

// lexer tokenizes src. cursor is the byte offset of the editor's cursor
// (-1 for none): a plain string holding it that is not closed on the
// cursor's line ends there.
type lexer struct {
	src    []byte
	cursor int
	// curStart and curEnd bound the cursor's line (its start, and the
	// offset of the line ending after it); -1 without a cursor in src.
	curStart, curEnd int
	i                int
	line             int
	lstart           int // byte offset of the current line's start
	bol              bool
	spaced           bool
	toks             []token
	words            []wordsOf
	// names interns identifier, key and atom texts (they repeat a lot).
	names map[string]string
}

// name returns src[i:j] as an interned string.
func (l *lexer) name(i, j int) string {
	if s, ok := l.names[string(l.src[i:j])]; ok {
		return s
	}
	s := string(l.src[i:j])
	l.names[s] = s
	return s
}

// wordsOf is the payload of a tWords token.
type wordsOf struct {
	words []Word
	mod   string
}

// maxLexTokens bounds the tokens of one file (a 2 MiB file has far fewer).
const maxLexTokens = 4 << 20

// lex returns the tokens of src, ending with a tEOF token, and the
// payloads of its tWords tokens.
func lex(src []byte, cursor int) ([]token, []wordsOf) {
	return lexFrom(src, 0, cursor)
}

// lexFrom is lex starting at byte offset from of src (clamped to
// [0, len(src)]); the tokens' spans stay offsets into src.
func lexFrom(src []byte, from, cursor int) ([]token, []wordsOf) {
	return lexInto(src, from, cursor, nil, nil)
}

// lexInto is lexFrom writing the tokens into buf (reused when it is large
// enough: a Parser keeps its buffer between files) and interning names in
// names (nil for a new map; a Parser keeps its map between files, so an
// edited file's names are found again instead of allocated anew).
func lexInto(src []byte, from, cursor int, buf []token, names map[string]string) ([]token, []wordsOf) {
	from = max(0, min(from, len(src)))
	if names == nil {
		names = map[string]string{}
	}
	l := &lexer{src: src, cursor: cursor, bol: true, names: names, curStart: -1, curEnd: -1}
	if from > 0 {
		l.i = from
		l.lstart = bytes.LastIndexAny(src[:from], "\r\n") + 1
		l.bol = atLineStartAfterSpace(src, from)
	}
	if cursor >= 0 && cursor <= len(src) {
		// Once, not per string: a long line must not be rescanned for
		// each of its strings.
		l.curStart = bytes.LastIndexAny(src[:cursor], "\r\n") + 1
		l.curEnd = lineEnd(src, cursor)
	}
	if need := (len(src)-from)/5 + 8; cap(buf) >= need {
		l.toks = buf[:0]
	} else {
		l.toks = make([]token, 0, need)
	}
	for l.i < len(src) && len(l.toks) < maxLexTokens {
		l.next()
	}
	l.toks = append(l.toks, token{kind: tEOF, span: positions.Span{Start: len(src), End: len(src)}, bol: l.bol, col: int32(len(src) - l.lstart), spaced: l.spaced})
	return l.toks, l.words
}

func (l *lexer) newline(at int) {
	l.line++
	l.lstart = at
	l.bol = true
}

func (l *lexer) emit(t token) {
	t.bol, t.spaced = l.bol, l.spaced
	t.col = int32(t.span.Start - l.lstart)
	l.bol, l.spaced = false, false
	l.toks = append(l.toks, t)
}

// countLines advances the line counter over src[from:to].
func (l *lexer) countLines(from, to int) {
	for j := from; j < to; j++ {
		switch l.src[j] {
		case '\n':
			l.line++
			l.lstart = j + 1
		case '\r':
			if j+1 < to && l.src[j+1] == '\n' {
				continue
			}
			l.line++
			l.lstart = j + 1
		}
	}
}

func isIdentChar(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (l *lexer) rune(at int) (rune, int) {
	if at >= len(l.src) {
		return 0, 0
	}
	if c := l.src[at]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(l.src[at:])
}

// identEnd returns the end of the identifier starting at i (letters,
// digits, _, then an optional ? or !).
func (l *lexer) identEnd(i int) int {
	for i < len(l.src) {
		r, n := l.rune(i)
		if !isIdentChar(r) {
			break
		}
		i += n
	}
	if i < len(l.src) && (l.src[i] == '?' || l.src[i] == '!') {
		i++
	}
	return i
}

// keyColon reports whether a keyword colon follows at i: `:` not followed
// by another `:`.
func (l *lexer) keyColon(i int) bool {
	return i < len(l.src) && l.src[i] == ':' && (i+1 >= len(l.src) || l.src[i+1] != ':')
}

// singleOps are the one-byte operators and punctuation.
const singleOps = "+-*/=<>!&|^.,;()[]{}@%~`"

// opStrings interns the one-byte operator texts.
var opStrings = func() [256]string {
	var t [256]string
	for i := 0; i < len(singleOps); i++ {
		t[singleOps[i]] = singleOps[i : i+1]
	}
	t[':'] = ":"
	return t
}()

// opAt returns the operator of two or three bytes starting at i
// (longest match), or "".
func opAt(src []byte, i int) string {
	if i >= len(src) || strings.IndexByte(opStarts, src[i]) < 0 {
		return ""
	}
	if i+3 <= len(src) {
		switch op := string(src[i : i+3]); op {
		case "===", "!==", "<<<", ">>>", "<<~", "~>>", "<~>", "|||", "&&&", "^^^", "+++", "---", "...":
			return lexOp3[op]
		}
	}
	if i+2 <= len(src) {
		switch op := string(src[i : i+2]); op {
		case "==", "!=", "<=", ">=", "&&", "||", "|>", "<>", "++", "--", "..", "//", "<-", "->", "=>", "::",
			"<<", ">>", "=~", "**", "<~", "~>", "\\\\":
			return lexOp2[op]
		}
	}
	return ""
}

// lexOp3 and lexOp2 intern the operator texts opAt returns.
var (
	lexOp3 = interned("===", "!==", "<<<", ">>>", "<<~", "~>>", "<~>", "|||", "&&&", "^^^", "+++", "---", "...")
	lexOp2 = interned("==", "!=", "<=", ">=", "&&", "||", "|>", "<>", "++", "--", "..", "//", "<-", "->", "=>", "::",
		"<<", ">>", "=~", "**", "<~", "~>", "\\\\")
)

func interned(ops ...string) map[string]string {
	m := make(map[string]string, len(ops))
	for _, o := range ops {
		m[o] = o
	}
	return m
}

// atomOpAt returns the operator names that only appear as atoms
// (`:<<>>`, `:%{}`, `:{}`, `:..//`, `:...`) starting at i, or "".
func atomOpAt(src []byte, i int) string {
	if i >= len(src) {
		return ""
	}
	// One candidate per first byte ("..//" before "..."): this runs at
	// every punctuation byte.
	var op string
	switch src[i] {
	case '<':
		op = "<<>>"
	case '%':
		op = "%{}"
	case '{':
		op = "{}"
	case '.':
		if bytes.HasPrefix(src[i:], []byte("..//")) {
			return "..//"
		}
		op = "..."
	case '\\':
		op = `\\`
	default:
		return ""
	}
	if bytes.HasPrefix(src[i:], []byte(op)) {
		return op
	}
	return ""
}

// spacedBefore reports whether i follows a space, a line start or an
// opening bracket or comma: where a keyword key can start.
func (l *lexer) spacedBefore(i int) bool {
	if i == 0 {
		return false
	}
	switch l.src[i-1] {
	case ' ', '\t', '\n', '[', '(', '{', ',':
		return false
	}
	return true
}

// opStarts are the first bytes of the multi-byte operators.
const opStarts = "=!<>~|&^+-./*:\\"

func (l *lexer) next() {
	src, i := l.src, l.i
	c := src[i]
	switch {
	case c == '\n':
		l.i++
		l.newline(l.i)
		return
	case c == '\r':
		l.i++
		if l.i < len(src) && src[l.i] == '\n' {
			l.i++
		}
		l.newline(l.i)
		return
	case c == ' ' || c == '\t' || c == '\f' || c == '\v':
		l.i++
		l.spaced = true
		return
	case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
		l.i++ // a line continuation
		l.spaced = true
		return
	case c == '#':
		// A comment runs to "\n" or "\r\n": a lone "\r" is comment text,
		// as in Elixir's tokenizer.
		for l.i < len(src) && src[l.i] != '\n' && (src[l.i] != '\r' || l.i+1 < len(src) && src[l.i+1] != '\n') {
			l.i++
		}
		l.spaced = true
		return
	case c == '"' || c == '\'':
		l.quoted(i, i, "", "")
		return
	case c == '~' && i+1 < len(src) && isLetterByte(src[i+1]):
		l.sigil(i)
		return
	case c == ':' && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\''):
		l.quoted(i, i+1, "atom", "")
		return
	case c == ':' && i+1 < len(src) && src[i+1] != ':':
		if r, _ := l.rune(i + 1); isIdentChar(r) {
			end := l.identEnd(i + 1)
			l.emit(token{kind: tAtom, span: positions.Span{Start: i, End: end}, text: l.name(i+1, end)})
			l.i = end
			return
		}
		if op := atomOpAt(src, i+1); op != "" {
			end := i + 1 + len(op)
			l.emit(token{kind: tAtom, span: positions.Span{Start: i, End: end}, text: op})
			l.i = end
			return
		}
		if op := opAt(src, i+1); op != "" {
			end := i + 1 + len(op)
			l.emit(token{kind: tAtom, span: positions.Span{Start: i, End: end}, text: op})
			l.i = end
			return
		}
		if i+1 < len(src) && strings.IndexByte("+-*/<>=!&|^@%", src[i+1]) >= 0 {
			l.emit(token{kind: tAtom, span: positions.Span{Start: i, End: i + 2}, text: string(src[i+1 : i+2])})
			l.i = i + 2
			return
		}
	case c == '?' && i+1 < len(src):
		end := i + 2
		if src[i+1] == '\\' && i+2 < len(src) {
			end = i + 3
		} else if src[i+1] >= utf8.RuneSelf {
			_, n := utf8.DecodeRune(src[i+1:])
			end = i + 1 + n
		}
		l.emit(token{kind: tInt, span: positions.Span{Start: i, End: min(end, len(src))}, text: string(src[i:min(end, len(src))])})
		l.i = min(end, len(src))
		return
	case c >= '0' && c <= '9':
		l.number(i)
		return
	}
	if r, n := l.rune(i); isIdentChar(r) {
		end := l.identEnd(i)
		kind := tIdent
		if unicode.IsUpper(r) && !l.keyColon(end) {
			kind = tAlias
			if end > i+n && (src[end-1] == '?' || src[end-1] == '!') {
				end-- // aliases take no ? or !
			}
		}
		if l.keyColon(end) && (end+1 >= len(src) || src[end+1] != ':') {
			l.emit(token{kind: tKey, span: positions.Span{Start: i, End: end}, text: l.name(i, end)})
			l.i = end + 1
			return
		}
		l.emit(token{kind: kind, span: positions.Span{Start: i, End: end}, text: l.name(i, end)})
		l.i = end
		return
	}
	if op := atomOpAt(src, i); op != "" {
		if end := i + len(op); l.keyColon(end) && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\n') && !l.spacedBefore(i) {
			l.emit(token{kind: tKey, span: positions.Span{Start: i, End: end}, text: op})
			l.i = end + 1
			return
		}
	}
	if op := opAt(src, i); op != "" {
		if end := i + len(op); l.keyColon(end) && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\n') && !l.spacedBefore(i) {
			// An operator keyword key: `&&&: 2`.
			l.emit(token{kind: tKey, span: positions.Span{Start: i, End: end}, text: op})
			l.i = end + 1
			return
		}
		l.emit(token{kind: tOp, span: positions.Span{Start: i, End: i + len(op)}, text: op})
		l.i = i + len(op)
		return
	}
	if op := opStrings[c]; op != "" {
		if end := i + 1; strings.IndexByte("+-*/=<>!&|^@", c) >= 0 && l.keyColon(end) && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\n') && !l.spacedBefore(i) {
			l.emit(token{kind: tKey, span: positions.Span{Start: i, End: end}, text: op})
			l.i = end + 1
			return
		}
		l.emit(token{kind: tOp, span: positions.Span{Start: i, End: i + 1}, text: op})
		l.i = i + 1
		return
	}
	_, n := l.rune(i)
	n = max(n, 1)
	l.emit(token{kind: tBad, span: positions.Span{Start: i, End: i + n}, text: string(src[i : i+n])})
	l.i = i + n
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (l *lexer) number(i int) {
	src := l.src
	j := i
	kind := tInt
	if src[j] == '0' && j+1 < len(src) && (src[j+1] == 'x' || src[j+1] == 'o' || src[j+1] == 'b') {
		j += 2
		for j < len(src) && (isHex(src[j]) || src[j] == '_') {
			j++
		}
	} else {
		for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
			j++
		}
		if j+1 < len(src) && src[j] == '.' && src[j+1] >= '0' && src[j+1] <= '9' {
			kind = tFloat
			j++
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
				j++
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && src[k] >= '0' && src[k] <= '9' {
					j = k
					for j < len(src) && src[j] >= '0' && src[j] <= '9' {
						j++
					}
				}
			}
		}
	}
	l.emit(token{kind: kind, span: positions.Span{Start: i, End: j}, text: string(src[i:j])})
	l.i = j
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// closeOf returns the closing delimiter of a sigil opener.
func closeOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// sigil reads ~name<delim>...<delim>mods.
func (l *lexer) sigil(i int) {
	src := l.src
	j := i + 1
	for j < len(src) && (isLetterByte(src[j]) || (j > i+1 && src[j] >= '0' && src[j] <= '9')) {
		j++
	}
	name := string(src[i+1 : j])
	if j >= len(src) || strings.IndexByte(`/|"'([{<`, src[j]) < 0 {
		l.emit(token{kind: tOp, span: positions.Span{Start: i, End: i + 1}, text: "~"})
		l.i = i + 1
		return
	}
	l.quoted(i, j, "sigil", name)
}

// quoted reads a string, charlist, quoted atom, sigil or quoted keyword
// key whose token starts at start and whose opening delimiter is at open.
// what is "" (string or charlist by delimiter), "atom" or "sigil".
func (l *lexer) quoted(start, open int, what, sigilName string) {
	src := l.src
	d := src[open]
	heredoc := (d == '"' || d == '\'') && open+2 < len(src) && src[open+1] == d && src[open+2] == d
	closeD := closeOf(d)
	raw := what == "sigil" && sigilName != "" && sigilName[0] >= 'A' && sigilName[0] <= 'Z'
	bodyStart := open + 1
	if heredoc {
		bodyStart = open + 3
	}
	t := token{heredoc: heredoc}
	var interps []positions.Span
	j := bodyStart
	bodyEnd, end := -1, -1
	cursorLineEnd := -1
	if l.cursor > start && !heredoc && l.curStart >= 0 && start >= l.curStart {
		// The string starts on the cursor's line, before the cursor.
		cursorLineEnd = l.curEnd
	}
	for j < len(src) {
		c := src[j]
		if heredoc {
			if c == '\\' && !raw {
				j += 2
				continue
			}
			if c == d && j+2 < len(src) && src[j+1] == d && src[j+2] == d && atLineStartAfterSpace(src, j) {
				bodyEnd, end = j, j+3
				break
			}
		} else {
			if cursorLineEnd >= 0 && j >= cursorLineEnd && l.cursor <= cursorLineEnd {
				break // unterminated at the cursor: it ends with the cursor's line
			}
			if c == '\\' {
				if raw {
					if j+1 < len(src) && src[j+1] == closeD {
						j += 2
						continue
					}
					j++
					continue
				}
				j += 2
				continue
			}
			if c == closeD {
				bodyEnd, end = j, j+1
				break
			}
		}
		if c == '#' && !raw && j+1 < len(src) && src[j+1] == '{' {
			k := l.interpolationEnd(j + 2)
			interps = append(interps, positions.Span{Start: j, End: k})
			j = k
			continue
		}
		j++
	}
	if end < 0 {
		if cursorLineEnd >= 0 && j >= cursorLineEnd && l.cursor <= cursorLineEnd {
			bodyEnd, end = cursorLineEnd, cursorLineEnd
		} else {
			bodyEnd, end = len(src), len(src)
		}
	} else {
		t.closed = true
	}
	bodyEnd = min(max(bodyEnd, bodyStart), len(src))
	bodyStart = min(bodyStart, bodyEnd)
	mods := ""
	if what == "sigil" && t.closed {
		for end < len(src) && isLetterByte(src[end]) {
			end++
		}
		if heredoc {
			mods = string(src[bodyEnd+3 : end])
		} else {
			mods = string(src[bodyEnd+1 : end])
		}
	}
	t.span = positions.Span{Start: start, End: min(end, len(src))}
	o := strOpts{heredoc: heredoc, raw: raw, close: string(closeD)}
	if heredoc {
		o.close = string([]byte{d, d, d})
	}
	if raw {
		interps = nil
	}
	switch {
	case what == "atom":
		t.kind = tAtom
		t.text, t.unknown = decodeBody(src, bodyStart, bodyEnd, interps, o)
	case what == "sigil":
		switch sigilName {
		case "s", "S":
			t.kind = tString
			t.text, t.unknown = decodeBody(src, bodyStart, bodyEnd, interps, o)
		case "c", "C":
			t.kind = tCharlist
			t.text, t.unknown = decodeBody(src, bodyStart, bodyEnd, interps, o)
		case "w", "W":
			t.kind = tWords
			t.unknown = len(interps) > 0
			w := wordsOf{words: splitWords(src, bodyStart, bodyEnd, o)}
			if mods != "" {
				w.mod = mods[len(mods)-1:]
			}
			t.extra = int32(len(l.words))
			l.words = append(l.words, w)
		default:
			t.kind = tSigil
		}
	case d == '\'':
		t.kind = tCharlist
		t.text, t.unknown = decodeBody(src, bodyStart, bodyEnd, interps, o)
	default:
		t.kind = tString
		if len(interps) == 0 && !heredoc && bytes.IndexByte(src[bodyStart:bodyEnd], '\\') < 0 {
			// Plain content: the parser takes the text when it reads it.
			t.lazy = true
			t.bodyStart, t.bodyEnd = int32(bodyStart), int32(bodyEnd)
		} else {
			t.text, t.unknown = decodeBody(src, bodyStart, bodyEnd, interps, o)
		}
	}
	if t.lazy && what == "" && !heredoc && t.closed && l.keyColon(t.span.End) {
		t.text, t.lazy = l.name(bodyStart, bodyEnd), false
	}
	// A quoted keyword key: "a b": (not for sigils or heredocs).
	if what == "" && !heredoc && t.closed && l.keyColon(t.span.End) {
		t.kind = tKey
		l.emit(t)
		l.countLines(start, t.span.End)
		l.i = t.span.End + 1
		return
	}
	l.emit(t)
	l.countLines(start, t.span.End)
	l.i = max(t.span.End, start+1)
}

// interpolationEnd returns the offset just past the `}` that closes an
// interpolation whose content starts at i, skipping nested strings,
// charlists and braces; len(src) when it is not closed.
func (l *lexer) interpolationEnd(i int) int {
	src := l.src
	depth := 0
	for i < len(src) {
		switch c := src[i]; c {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i + 1
			}
			depth--
		case '"', '\'':
			i = l.skipQuoted(i)
			continue
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case '?':
			i += 2
			continue
		}
		i++
	}
	return len(src)
}

// skipQuoted returns the end of the string or charlist starting at i
// (heredocs and nested interpolations included), or len(src).
func (l *lexer) skipQuoted(i int) int {
	src := l.src
	d := src[i]
	if i+2 < len(src) && src[i+1] == d && src[i+2] == d {
		k := bytes.Index(src[i+3:], []byte{d, d, d})
		if k < 0 {
			return len(src)
		}
		return i + 3 + k + 3
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case d:
			return j + 1
		case '#':
			if j+1 < len(src) && src[j+1] == '{' {
				j = l.interpolationEnd(j+2) - 1
			}
		}
	}
	return len(src)
}

// atLineStartAfterSpace reports whether only spaces or tabs precede i on
// its line (where a heredoc's closing delimiter must stand).
func atLineStartAfterSpace(src []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch src[j] {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return true
		}
		return false
	}
	return true
}

// lineEnd returns the offset of the line ending after i (or len(src)).
func lineEnd(src []byte, i int) int {
	i = max(0, min(i, len(src)))
	if k := bytes.IndexAny(src[i:], "\r\n"); k >= 0 {
		return i + k
	}
	return len(src)
}

// tokenText returns a string token's decoded text.
func tokenText(src []byte, t *token) string {
	if t.lazy {
		return string(src[t.bodyStart:t.bodyEnd])
	}
	return t.text
}
