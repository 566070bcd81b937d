package elixir

import (
	"bytes"
	"math"
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
	tIdent          // foo, foo?, do, end, when, true (text as written)
	tAlias          // Foo (one segment; dots are tOp ".")
	tKey            // keyword key `foo: ` or `"foo": ` (text decoded, span without the colon)
	tAtom           // :foo, :"foo", :+ (text without the colon)
	tString         // "..." """...""" ~s ~S
	tCharlist       // '...' ''' ~c ~C
	tWords          // ~w ~W (no text: its words are in lexed.words)
	tSigil          // any other sigil (opaque, no text)
	tInt            // integer or ?c (text as written)
	tFloat          // float (text as written)
	tOp             // operator or punctuation (text)
	tBad            // a byte no rule reads (text as written)
)

// token is one cursor-lexer token, 20 bytes that hold no pointer, on
// purpose: a Parser keeps its token buffer from file to file (about
// 100,000 tokens for a 535 KB file), and a buffer without pointers is
// never scanned by the garbage collector, while the lexer writes and the
// parser reads a third of the bytes that a token holding its text as a
// string took. So the text is an index into the tables of the lexing
// (read it with lexed.text, cparser.text in the parser, or lexed.name for
// an identifier, alias or operator), and the span
// is two int32 byte offsets into the source (lexInto reads at most
// maxLexBytes of it). TestTokenHoldsNoPointer keeps it so.
type token struct {
	start, end int32 // the span: byte offsets into the source
	col        int32 // the byte column of start on its line
	// text locates the token's text as from says: an index into
	// lexed.names or lexed.strs, or the end offset of a plain string's
	// body; for a tWords token the index of its payload in lexed.words.
	text  int32
	kind  tkind
	from  textFrom
	flags tflags
}

// textFrom says where a token's text is (token.text).
type textFrom uint8

const (
	textName    textFrom = iota // lexed.names[text]: identifiers, keys, atoms, operators; "" at 0
	textDecoded                 // lexed.strs[text]: a decoded string, charlist, quoted atom or key
	textSpan                    // the source of the token's span: numbers, ?c, a bad byte
	textBody                    // src[start+1:text]: the body of a plain string without escapes
	textWords                   // none: text indexes lexed.words
)

// tflags are a token's flags.
type tflags uint8

const (
	fUnknown     tflags = 1 << iota // interpolated
	fHeredoc                        // opened by """ or '''
	fClosed                         // the closing delimiter is present
	fBol                            // the first token on its line
	fSpaced                         // whitespace (or a comment) precedes the token
	fHeader                         // a heredoc whose opening line holds more than spaces and tabs
	fBadEscape                      // a string, charlist or quoted atom with a \x or \u escape Elixir rejects (badEscapeAt)
	fKeyUnspaced                    // a keyword key whose colon is not followed by a space, a tab or a newline
)

func (t *token) unknown() bool { return t.flags&fUnknown != 0 }
func (t *token) heredoc() bool { return t.flags&fHeredoc != 0 }
func (t *token) closed() bool  { return t.flags&fClosed != 0 }
func (t *token) bol() bool     { return t.flags&fBol != 0 }
func (t *token) spaced() bool  { return t.flags&fSpaced != 0 }

// badHeader reports a heredoc whose `"""` is followed by more than spaces
// and tabs before the end of its line (or by the end of the file), which
// Elixir's tokenizer rejects at the heredoc ("heredoc allows only zero or
// more whitespace characters followed by a new line after """").
func (t *token) badHeader() bool { return t.flags&fHeader != 0 }

// keyUnspaced reports a keyword key whose colon (at the token's end) is
// not followed by a space, a tab or a newline, which Elixir's tokenizer
// rejects: `description:"x"` ("keyword argument must be followed by space
// after: description:"), `"a":1` (the colon, then, is an unexpected token).
func (t *token) keyUnspaced() bool { return t.flags&fKeyUnspaced != 0 }

// badEscape reports a string, charlist or quoted atom (or key) holding an
// escape that Elixir's tokenizer rejects (badEscapeAt).
func (t *token) badEscape() bool { return t.flags&fBadEscape != 0 }

// op returns the byte of a one-byte operator token (whose text index is
// its byte, opTexts), or 0.
func (t *token) op() byte {
	if t.kind == tOp && t.text < utf8.RuneSelf {
		return byte(t.text)
	}
	return 0
}

// span returns the token's span.
func (t *token) span() positions.Span { return positions.Span{Start: int(t.start), End: int(t.end)} }

// lexed is what the lexer gives for one source: its tokens, ending with
// a tEOF token, and the tables their texts index.
type lexed struct {
	src   []byte    // the source read (spans are offsets into it)
	toks  []token   // ending with tEOF
	names []string  // interned names and operators (textName)
	strs  []string  // decoded texts (textDecoded)
	words []wordsOf // the payloads of the tWords tokens
}

// text returns the text of t, a token of x ("" for tEOF, tWords and
// tSigil). A text taken from the source is a new string at each call.
func (x *lexed) text(t *token) string {
	if t.from == textName {
		return x.names[t.text]
	}
	return x.otherText(t)
}

// isOp reports whether t is the operator op. A one-byte operator's index
// is its byte (opTexts), so with a constant op that is one comparison of
// integers.
func (x *lexed) isOp(t *token, op string) bool {
	if len(op) == 1 {
		return t.op() == op[0]
	}
	return t.kind == tOp && x.names[t.text] == op
}

// isWord reports whether t is the identifier w.
func (x *lexed) isWord(t *token, w string) bool { return t.kind == tIdent && x.names[t.text] == w }

// name is text for a token whose text is a name: an identifier, an
// alias or an operator (the lexer interns all of them), the tokens most
// compared.
func (x *lexed) name(t *token) string { return x.names[t.text] }

// prefixOp reports whether t is a prefix operator (@ ! ^ - + & ~~~ not):
// the tokens the parser's unaryAt reads as an operator applied to what
// follows, and after which the syntax check wants an operand.
func (x *lexed) prefixOp(t *token) bool {
	switch t.kind {
	case tOp:
		switch t.op() {
		case '@', '!', '^', '-', '+', '&':
			return true
		case 0:
			return x.name(t) == "~~~"
		}
	case tIdent:
		return x.name(t) == "not"
	}
	return false
}

// otherText is text for a token whose text is not a name. It is kept
// out of line so that text, called for every name compared, inlines.
//
//go:noinline
func (x *lexed) otherText(t *token) string {
	switch t.from {
	case textDecoded:
		return x.strs[t.text]
	case textSpan:
		return string(x.src[t.start:t.end])
	case textBody:
		return string(x.src[t.start+1 : t.text])
	}
	return ""
}

// names interns the texts of the names (identifiers, aliases, keys,
// atoms) and operators of the files lexed with it: list[k] is the text of
// index k, index the index of each name read. Every table starts with
// opTexts, so that the lexer finds an operator's index without hashing
// (opByte, opAt); a name equal to an operator may be listed twice.
type names struct {
	index map[string]int32
	list  []string
}

// newNames returns a table holding only the operators. Its list shares
// opTexts' array, at full capacity, so that the first name appended
// copies it.
func newNames() *names {
	return &names{index: make(map[string]int32, 256), list: opTexts[:len(opTexts):len(opTexts)]}
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
	strs             []string
	// names interns identifier, key and atom texts (they repeat a lot).
	names *names
}

// name returns the index of src[i:j] in l.names, interning it.
func (l *lexer) name(i, j int) int32 {
	if k, ok := l.names.index[string(l.src[i:j])]; ok {
		return k
	}
	s := string(l.src[i:j])
	k := int32(len(l.names.list))
	l.names.list = append(l.names.list, s)
	l.names.index[s] = k
	return k
}

// decode decodes the body src[start:end] of a quoted token (decodeBody)
// into l.strs and returns its index there, adding fUnknown to *f when it
// is interpolated.
func (l *lexer) decode(start, end int, interps []positions.Span, o strOpts, f *tflags) int32 {
	s, unknown := decodeBody(l.src, start, end, interps, o)
	if unknown {
		*f |= fUnknown
	}
	l.strs = append(l.strs, s)
	return int32(len(l.strs) - 1)
}

// wordsOf is the payload of a tWords token.
type wordsOf struct {
	words []Word
	mod   string
}

// maxLexTokens bounds the tokens of one file (a 2 MiB file has far fewer).
const maxLexTokens = 4 << 20

// maxLexBytes bounds the bytes of a source the lexer reads (a token's
// offsets are int32); the rest is not read. The workspace skips files
// over 2 MiB long before that (workspace.MaxFileSize).
const maxLexBytes = math.MaxInt32 - 1

// lex returns the tokens of src with their texts.
func lex(src []byte, cursor int) lexed {
	return lexFrom(src, 0, cursor)
}

// lexFrom is lex starting at byte offset from of src (clamped to
// [0, len(src)]); the tokens' spans stay offsets into src.
func lexFrom(src []byte, from, cursor int) lexed {
	return lexInto(src, from, cursor, nil, nil)
}

// lexInto is lexFrom writing the tokens into buf (reused when it is large
// enough: a Parser keeps its buffer between files) and interning names in
// nm (nil for a new table; a Parser keeps its table between files, so an
// edited file's names are found again instead of allocated anew).
func lexInto(src []byte, from, cursor int, buf []token, nm *names) lexed {
	if len(src) > maxLexBytes {
		src = src[:maxLexBytes]
	}
	from = max(0, min(from, len(src)))
	if nm == nil {
		nm = newNames()
	}
	l := &lexer{src: src, cursor: cursor, bol: true, names: nm, curStart: -1, curEnd: -1}
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
	l.emit(tEOF, len(src), len(src), textName, 0, 0)
	return lexed{src: src, toks: l.toks, names: nm.list, strs: l.strs, words: l.words}
}

func (l *lexer) newline(at int) {
	l.line++
	l.lstart = at
	l.bol = true
}

// emit appends a token of kind spanning [start, end) whose text is as
// from and text say, with the flags f and those of the lexer's position.
func (l *lexer) emit(kind tkind, start, end int, from textFrom, text int32, f tflags) {
	if l.bol {
		f |= fBol
	}
	if l.spaced {
		f |= fSpaced
	}
	l.bol, l.spaced = false, false
	l.toks = append(l.toks, token{start: int32(start), end: int32(end), col: int32(start - l.lstart), text: text, kind: kind, from: from, flags: f})
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

// atKeyEnd returns where the colon of a keyword key with @ in it is
// (`a@b:`, `a@!:`, `a@@:`) when the identifier read up to end goes on
// with @ (not after a ? or !) into such a key; else end.
func (l *lexer) atKeyEnd(end int) int {
	src := l.src
	k := end
	for k < len(src) && src[k] == '@' && k > 0 && src[k-1] != '?' && src[k-1] != '!' {
		k = l.identEnd(k + 1)
	}
	if k == end || !l.keyColon(k) {
		return end
	}
	return k
}

// keyColon reports whether a keyword colon follows at i: `:` not followed
// by another `:`.
func (l *lexer) keyColon(i int) bool {
	return i < len(l.src) && l.src[i] == ':' && (i+1 >= len(l.src) || l.src[i+1] != ':')
}

// keyFlags are the flags of a keyword key whose colon is at i:
// fKeyUnspaced unless a space, a tab or a newline follows it.
func (l *lexer) keyFlags(i int) tflags {
	if j := i + 1; j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t' || l.src[j] == '\n' ||
		l.src[j] == '\r' && j+1 < len(l.src) && l.src[j+1] == '\n') {
		return 0
	}
	return fKeyUnspaced
}

// singleOps are the one-byte operators and punctuation.
const singleOps = "+-*/=<>!&|^.,;()[]{}@%~`"

// The operators' texts: opTexts lists them at the start of every names
// table, each one-byte operator at the index of its byte (the others ""),
// then the longer ones; opByte is the index of each one-byte operator (0
// for none) and opIndex the index of each text.
var (
	opTexts = func() []string {
		t := make([]string, utf8.RuneSelf)
		for _, c := range []byte(singleOps + ":") {
			t[c] = string(c)
		}
		t = append(t, lexOps3...)
		t = append(t, lexOps2...)
		return append(t, "<<>>", "%{}", "{}", "..//", "~~~") // atomOpAt's ("..." and `\\` are above)
	}()
	opIndex = func() map[string]int32 {
		m := make(map[string]int32, len(opTexts))
		for k, o := range opTexts {
			m[o] = int32(k)
		}
		return m
	}()
	opByte = func() [256]int32 {
		var t [256]int32
		for k, o := range opTexts {
			if len(o) == 1 {
				t[o[0]] = int32(k)
			}
		}
		return t
	}()
)

// opAt returns the index in opTexts of the operator of two or three
// bytes starting at i (longest match), or 0.
func opAt(src []byte, i int) int32 {
	if i >= len(src) || strings.IndexByte(opStarts, src[i]) < 0 {
		return 0
	}
	if i+3 <= len(src) {
		switch op := string(src[i : i+3]); op {
		case "===", "!==", "<<<", ">>>", "<<~", "~>>", "<~>", "|||", "&&&", "^^^", "+++", "---", "...":
			return opIndex[op]
		}
	}
	if i+2 <= len(src) {
		switch op := string(src[i : i+2]); op {
		case "==", "!=", "<=", ">=", "&&", "||", "|>", "<>", "++", "--", "..", "//", "<-", "->", "=>", "::",
			"<<", ">>", "=~", "**", "<~", "~>", "\\\\":
			return opIndex[op]
		}
	}
	return 0
}

// lexOps3 and lexOps2 are the operators of three and two bytes (opAt).
var (
	lexOps3 = []string{"===", "!==", "<<<", ">>>", "<<~", "~>>", "<~>", "|||", "&&&", "^^^", "+++", "---", "..."}
	lexOps2 = []string{"==", "!=", "<=", ">=", "&&", "||", "|>", "<>", "++", "--", "..", "//", "<-", "->", "=>", "::",
		"<<", ">>", "=~", "**", "<~", "~>", "\\\\"}
)

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
	case '~':
		op = "~~~"
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
		if c != ' ' && c != '\t' && l.cursor < 0 {
			// Elixir's tokenizer reads a form feed or a vertical tab in
			// code as an unexpected token; the cursor reading skips it as
			// a space.
			l.emit(tBad, i, i+1, textSpan, 0, 0)
			l.i = i + 1
			return
		}
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
	case c == ':' && i+2 < len(src) && src[i+1] == ':' && src[i+2] == ':':
		l.emit(tAtom, i, i+3, textName, opIndex["::"], 0) // :::, the atom :"::"
		l.i = i + 3
		return
	case c == ':' && (i+1 >= len(src) || src[i+1] != ':'):
		if i+1 >= len(src) {
			break
		}
		if r, _ := l.rune(i + 1); isIdentChar(r) && (r < '0' || r > '9') {
			end := l.identEnd(i + 1)
			for end < len(src) && src[end] == '@' && src[end-1] != '?' && src[end-1] != '!' {
				end = l.identEnd(end + 1) // :a@b, :"a@b" unquoted (an Erlang node name)
			}
			l.emit(tAtom, i, end, textName, l.name(i+1, end), 0)
			l.i = end
			return
		}
		if op := atomOpAt(src, i+1); op != "" {
			end := i + 1 + len(op)
			l.emit(tAtom, i, end, textName, opIndex[op], 0)
			l.i = end
			return
		}
		if op := opAt(src, i+1); op != 0 {
			end := i + 1 + len(opTexts[op])
			l.emit(tAtom, i, end, textName, op, 0)
			l.i = end
			return
		}
		if i+1 < len(src) && strings.IndexByte("+-*/<>=!&|^@%.", src[i+1]) >= 0 {
			l.emit(tAtom, i, i+2, textName, opByte[src[i+1]], 0)
			l.i = i + 2
			return
		}
		if l.cursor < 0 {
			// A colon that starts no atom (`a : 1`, `:1`, `[:]`) is
			// Elixir's tokenizer error "unexpected token: ":"". The
			// cursor reading keeps it an operator: `[:` is typed on the
			// way to `[:name]`.
			l.emit(tBad, i, i+1, textSpan, 0, 0)
			l.i = i + 1
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
		l.emit(tInt, i, min(end, len(src)), textSpan, 0, 0)
		l.i = min(end, len(src))
		return
	case c >= '0' && c <= '9':
		l.number(i)
		return
	}
	if r, n := l.rune(i); isIdentChar(r) {
		end := l.identEnd(i)
		if k := end; k < len(src) && src[k] == '@' {
			k = l.atKeyEnd(end)
			if k > end {
				// `a@b: 1`, `ól@!: 0`: Elixir's tokenizer reads each @ into
				// the identifier and takes it as a keyword key before a colon.
				l.emit(tKey, i, k, textName, l.name(i, k), l.keyFlags(k))
				l.i = k + 1
				return
			}
		}
		kind := tIdent
		if unicode.IsUpper(r) && !l.keyColon(end) {
			kind = tAlias
			if l.cursor < 0 && (r >= utf8.RuneSelf || end > i+n && (src[end-1] == '?' || src[end-1] == '!')) {
				// Elixir's tokenizer rejects an alias that is not ASCII
				// (`Á`, unexpected token) or ends in ? or ! (`Abc?`); a
				// key (`Á: 1`, `Abc?: 1`) and an atom are fine.
				if r >= utf8.RuneSelf {
					end = i + n
				}
				l.emit(tBad, i, end, textSpan, 0, 0)
				l.i = end
				return
			}
			if end > i+n && (src[end-1] == '?' || src[end-1] == '!') {
				end-- // aliases take no ? or !
			}
		}
		if l.cursor < 0 && end < len(src) && src[end] == '@' && !l.keyColon(end) {
			// `a@b`: Elixir's tokenizer reads the @ into the identifier
			// (as in the atom :a@b) and rejects it there.
			l.emit(tBad, i, end+1, textSpan, 0, 0)
			l.i = end + 1
			return
		}
		if l.keyColon(end) && (end+1 >= len(src) || src[end+1] != ':') {
			l.emit(tKey, i, end, textName, l.name(i, end), l.keyFlags(end))
			l.i = end + 1
			return
		}
		l.emit(kind, i, end, textName, l.name(i, end), 0)
		l.i = end
		return
	}
	if op := atomOpAt(src, i); op != "" {
		if end := i + len(op); l.keyColon(end) && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\n') && !l.spacedBefore(i) {
			l.emit(tKey, i, end, textName, opIndex[op], 0)
			l.i = end + 1
			return
		}
	}
	if op := opAt(src, i); op != 0 {
		end := i + len(opTexts[op])
		if l.keyColon(end) && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\n') && !l.spacedBefore(i) {
			// An operator keyword key: `&&&: 2`.
			l.emit(tKey, i, end, textName, op, 0)
			l.i = end + 1
			return
		}
		l.emit(tOp, i, end, textName, op, 0)
		l.i = end
		return
	}
	if op := opByte[c]; op != 0 {
		if end := i + 1; strings.IndexByte("+-*/=<>!&|^@%", c) >= 0 && l.keyColon(end) && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\n') && !l.spacedBefore(i) {
			l.emit(tKey, i, end, textName, op, 0)
			l.i = end + 1
			return
		}
		l.emit(tOp, i, i+1, textName, op, 0)
		l.i = i + 1
		return
	}
	_, n := l.rune(i)
	n = max(n, 1)
	l.emit(tBad, i, i+n, textSpan, 0, 0)
	l.i = i + n
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// number reads a number token at i as Elixir 1.14's tokenizer does: 0x,
// 0o and 0b only when a digit of their base follows; an underscore only
// between two digits; a fraction only after a decimal integer; an exponent
// only after a fraction. A decimal number followed by an ASCII letter or
// an underscore is the tokenizer's error "invalid character ... after
// number", reported at the number: the number and that byte are one tBad
// token, so the syntax check reports it wherever the file's parser errors
// are (docs/rules.md §4 "syntax-error").
func (l *lexer) number(i int) {
	src := l.src
	digits := func(j int, ok func(byte) bool) int {
		for j < len(src) && ok(src[j]) || j+1 < len(src) && src[j] == '_' && ok(src[j+1]) {
			j++
		}
		return j
	}
	if src[i] == '0' && i+2 < len(src) {
		var ok func(byte) bool
		switch src[i+1] {
		case 'x':
			ok = isHex
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		case 'b':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		}
		if ok != nil && ok(src[i+2]) {
			j := digits(i+2, ok)
			l.emit(tInt, i, j, textSpan, 0, 0)
			l.i = j
			return
		}
	}
	kind := tInt
	j := digits(i, isDigit)
	if j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]) {
		kind = tFloat
		j = digits(j+1, isDigit)
		if j+1 < len(src) && (src[j] == 'e' || src[j] == 'E') {
			k := j + 1
			if k+1 < len(src) && (src[k] == '+' || src[k] == '-') {
				k++
			}
			if isDigit(src[k]) {
				j = digits(k, isDigit)
			}
		}
	}
	if j < len(src) && (isLetterByte(src[j]) || src[j] == '_') {
		l.emit(tBad, i, j+1, textSpan, 0, 0)
		l.i = j + 1
		return
	}
	l.emit(kind, i, j, textSpan, 0, 0)
	l.i = j
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

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
		l.emit(tOp, i, i+1, textName, opByte['~'], 0)
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
	var f tflags
	if heredoc {
		f = fHeredoc
		k := bodyStart
		for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
			k++
		}
		if !(k < len(src) && src[k] == '\n' || k+1 < len(src) && src[k] == '\r' && src[k+1] == '\n') {
			f |= fHeader
		}
	}
	var interps []positions.Span
	j := bodyStart
	bodyEnd, end := -1, -1
	cursorLineEnd := -1
	if l.cursor > start && !heredoc && l.curStart >= 0 && start >= l.curStart {
		// The string starts on the cursor's line, before the cursor.
		cursorLineEnd = l.curEnd
	}
	escaped := false // a backslash or an interpolation in the body: only then can an escape be bad
	for j < len(src) {
		c := src[j]
		if heredoc {
			if c == '\\' && !raw {
				escaped = true
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
				// A backslash and the byte after it are one pair, also in
				// a raw sigil (where only `\` before the delimiter loses
				// its backslash): `~S(\\)` ends at its `)`, as Elixir's
				// tokenizer reads it.
				escaped = true
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
			escaped = true // its code may hold strings: scan the body whole, as before
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
		f |= fClosed
	}
	bodyEnd = min(max(bodyEnd, bodyStart), len(src))
	bodyStart = min(bodyStart, bodyEnd)
	if escaped && what != "sigil" && badEscapeAt(src, bodyStart, bodyEnd) >= 0 {
		f |= fBadEscape
	}
	mods := ""
	if what == "sigil" && f&fClosed != 0 {
		for end < len(src) && isLetterByte(src[end]) {
			end++
		}
		if heredoc {
			mods = string(src[bodyEnd+3 : end])
		} else {
			mods = string(src[bodyEnd+1 : end])
		}
	}
	end = min(end, len(src))
	o := strOpts{heredoc: heredoc, raw: raw, close: string(closeD)}
	if heredoc {
		o.close = string([]byte{d, d, d})
	}
	if raw {
		interps = nil
	}
	var kind tkind
	from, text := textDecoded, int32(0)
	switch {
	case what == "atom":
		kind = tAtom
		text = l.decode(bodyStart, bodyEnd, interps, o, &f)
	case what == "sigil":
		name := sigilName
		if mods != "" && (name == "s" || name == "S" || name == "c" || name == "C") {
			name = "" // `~s(a)x`: Kernel.sigil_s takes no modifier (it raises): an opaque sigil
		}
		switch name {
		case "s", "S":
			kind = tString
			text = l.decode(bodyStart, bodyEnd, interps, o, &f)
		case "c", "C":
			kind = tCharlist
			text = l.decode(bodyStart, bodyEnd, interps, o, &f)
		case "w", "W":
			kind = tWords
			if len(interps) > 0 {
				f |= fUnknown
			}
			w := wordsOf{words: splitWords(src, bodyStart, bodyEnd, o)}
			w.mod = mods // Kernel.sigil_w takes one of s, a, c (or none)
			from, text = textWords, int32(len(l.words))
			l.words = append(l.words, w)
		default:
			kind, from = tSigil, textName
		}
	case d == '\'':
		kind = tCharlist
		text = l.decode(bodyStart, bodyEnd, interps, o, &f)
	default:
		kind = tString
		if len(interps) == 0 && !heredoc && bytes.IndexByte(src[bodyStart:bodyEnd], '\\') < 0 {
			// Plain content: the parser takes the text when it reads it
			// (bodyStart is start+1).
			from, text = textBody, int32(bodyEnd)
		} else {
			text = l.decode(bodyStart, bodyEnd, interps, o, &f)
		}
	}
	// A quoted keyword key: "a b": (not for sigils or heredocs).
	if what == "" && !heredoc && f&fClosed != 0 && l.keyColon(end) {
		if from == textBody {
			from, text = textName, l.name(bodyStart, bodyEnd)
		}
		l.emit(tKey, start, end, from, text, f|l.keyFlags(end))
		l.countLines(start, end)
		l.i = end + 1
		return
	}
	l.emit(kind, start, end, from, text, f)
	l.countLines(start, end)
	l.i = max(end, start+1)
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
