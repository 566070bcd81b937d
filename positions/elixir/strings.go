package elixir

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/positions"
)

// strOpts says how to decode the body of a string-like literal.
type strOpts struct {
	// heredoc: """ or ''' delimiters; indentation is stripped by the
	// closing delimiter's indentation, as Elixir does.
	heredoc bool
	// raw: an upper-case sigil (~S, ~C, ~W): no escapes and no
	// interpolation, except that a backslash before the closing delimiter
	// yields the delimiter.
	raw bool
	// close is the closing delimiter (for raw escapes).
	close string
}

// decodeBody decodes the literal parts of src[start:end], the body of a
// string, charlist, quoted atom or sigil between its delimiters. interps
// are the spans of the `#{...}` interpolations inside, in order; their
// content is skipped and makes unknown true. Escapes are decoded as the
// Elixir tokenizer does (`\n \t \r \s \e \a \b \d \f \v \0 \xHH \uHHHH
// \u{H..}`, a backslash-newline joins lines, any other escaped character is
// itself). Bad input (unterminated escapes, invalid UTF-8) never fails: the
// bytes are kept as they are.
func decodeBody(src []byte, start, end int, interps []positions.Span, o strOpts) (text string, unknown bool) {
	start, end = clampRange(start, end, len(src))
	indent := 0
	if o.heredoc {
		start, end, indent = heredocBounds(src, start, end)
	}
	if len(interps) == 0 && indent == 0 && bytes.IndexByte(src[start:end], '\\') < 0 &&
		(!o.heredoc || bytes.IndexByte(src[start:end], '\r') < 0) {
		return string(src[start:end]), false
	}
	var b strings.Builder
	b.Grow(end - start)
	lineStart := o.heredoc
	k := 0 // next interpolation
	for i := start; i < end; {
		if lineStart {
			lineStart = false
			for n := 0; n < indent && i < end && (src[i] == ' ' || src[i] == '\t'); n++ {
				i++
			}
			continue
		}
		for k < len(interps) && interps[k].End <= i {
			k++
		}
		if k < len(interps) && interps[k].Start <= i {
			unknown = true
			i = interps[k].End
			k++
			continue
		}
		c := src[i]
		if c == '\r' && o.heredoc && i+1 < end && src[i+1] == '\n' {
			i++ // heredoc lines end in "\n" even in a CRLF file, as in Elixir
			continue
		}
		if c == '\n' {
			b.WriteByte(c)
			i++
			lineStart = o.heredoc
			continue
		}
		if c != '\\' || i+1 >= end {
			b.WriteByte(c)
			i++
			continue
		}
		if o.raw {
			if o.close != "" && strings.HasPrefix(string(src[i+1:end]), o.close) {
				b.WriteString(o.close)
				i += 1 + len(o.close)
				continue
			}
			if src[i+1] == '\\' {
				b.WriteString(`\\`) // a pair: the second backslash escapes nothing after it
				i += 2
				continue
			}
			b.WriteByte(c)
			i++
			continue
		}
		i = decodeEscape(&b, src, i, end)
		if i > 0 && src[i-1] == '\n' {
			lineStart = o.heredoc
		}
	}
	return b.String(), unknown
}

// decodeEscape decodes the escape starting with the backslash at src[i]
// (i+1 < end) into b and returns the offset after it.
func decodeEscape(b *strings.Builder, src []byte, i, end int) int {
	c := src[i+1]
	switch c {
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'd':
		b.WriteByte(127)
	case 'e':
		b.WriteByte(27)
	case 'f':
		b.WriteByte(12)
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 's':
		b.WriteByte(' ')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte(11)
	case '0':
		b.WriteByte(0)
	case '\n':
		// Line continuation: the backslash and the newline vanish.
	case '\r':
		if i+2 < end && src[i+2] == '\n' {
			return i + 3
		}
	case 'x':
		if i+2 < end && src[i+2] == '{' {
			if v, n, ok := hexDigits(src, i+3, end, 6); ok && i+3+n < end && src[i+3+n] == '}' {
				writeRune(b, v)
				return i + 4 + n
			}
		}
		if v, n, ok := hexDigits(src, i+2, end, 2); ok {
			b.WriteByte(byte(v))
			return i + 2 + n
		}
		b.WriteByte('x')
	case 'u':
		if i+2 < end && src[i+2] == '{' {
			if v, n, ok := hexDigits(src, i+3, end, 6); ok && i+3+n < end && src[i+3+n] == '}' {
				writeRune(b, v)
				return i + 4 + n
			}
		} else if v, n, ok := hexDigits(src, i+2, end, 4); ok && n == 4 {
			writeRune(b, v)
			return i + 6
		}
		b.WriteByte('u')
	default:
		// Any other escaped character is itself (\" \\ \# \' ...); a
		// multi-byte character is copied whole.
		_, size := utf8.DecodeRune(src[i+1 : end])
		b.Write(src[i+1 : i+1+size])
		return i + 1 + size
	}
	return i + 2
}

// badEscapeAt returns the offset of the first `\x` or `\u` escape in
// src[start:end] that Elixir's tokenizer rejects in a string, charlist or
// quoted atom (not in a sigil, whose escapes Kernel reads when it
// compiles), or -1: `\x` needs a hex digit, or 1 to 6 in braces; `\u`
// needs 4 hex digits, or 1 to 6 in braces; either must name a valid code
// point (no surrogate, at most U+10FFFF).
func badEscapeAt(src []byte, start, end int) int {
	start, end = clampRange(start, end, len(src))
	for i := start; i+1 < end; i++ {
		if src[i] != '\\' {
			continue
		}
		c := src[i+1]
		if c != 'x' && c != 'u' {
			i++ // \\ and any other escape: skip the escaped byte
			continue
		}
		ok := false
		if i+2 < end && src[i+2] == '{' {
			v, n, digits := hexDigits(src, i+3, end, 7)
			ok = digits && n <= 6 && i+3+n < end && src[i+3+n] == '}' && utf8.ValidRune(v)
		} else if c == 'x' {
			_, _, ok = hexDigits(src, i+2, end, 2)
		} else {
			v, n, _ := hexDigits(src, i+2, end, 4)
			ok = n == 4 && utf8.ValidRune(v)
		}
		if !ok {
			return i
		}
		i++
	}
	return -1
}

// hexDigits reads up to max hex digits at src[i:end].
func hexDigits(src []byte, i, end, max int) (v rune, n int, ok bool) {
	for n < max && i+n < end {
		d := unhex(src[i+n])
		if d < 0 {
			break
		}
		v = v<<4 | rune(d)
		n++
	}
	return v, n, n > 0
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func writeRune(b *strings.Builder, r rune) {
	if !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	b.WriteRune(r)
}

// heredocBounds narrows a heredoc body to its content lines: it drops the
// rest of the opening line and the closing line's indentation, and returns
// that indentation (the number of spaces or tabs each line loses).
func heredocBounds(src []byte, start, end int) (int, int, int) {
	if nl := bytes.IndexByte(src[start:end], '\n'); nl >= 0 {
		start += nl + 1
	} else {
		return end, end, 0
	}
	i := end
	for i > start && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i == start || src[i-1] == '\n' {
		return start, i, end - i
	}
	return start, end, 0
}

// splitWords splits the raw body of a ~w sigil at whitespace and decodes
// each word (unless raw).
func splitWords(src []byte, start, end int, o strOpts) []Word {
	start, end = clampRange(start, end, len(src))
	var words []Word
	for i := start; i < end; {
		for i < end && isSpace(src[i]) {
			i++
		}
		j := i
		for j < end && !isSpace(src[j]) {
			if src[j] == '\\' && j+1 < end {
				j++
				if src[j] == '\r' && j+1 < end && src[j+1] == '\n' {
					j++ // a backslash-CRLF joins the lines, as a backslash-newline does
				}
			}
			j++
		}
		if j > end {
			j = end
		}
		if j > i {
			// Lower-case ~w unescapes before splitting (Kernel.sigil_w), so
			// an escaped space splits a word; the pieces keep the raw span.
			text, _ := decodeBody(src, i, j, nil, strOpts{raw: o.raw, close: o.close})
			for _, w := range strings.FieldsFunc(text, isWordSpace) {
				words = append(words, Word{Text: w, Span: positions.Span{Start: i, End: j}})
			}
		}
		i = j
	}
	return words
}

// isWordSpace reports whether r separates the words of a ~w sigil:
// Kernel.sigil_w splits with String.split/1, at Unicode whitespace except
// the non-breaking spaces (U+00A0, U+2007, U+202F).
func isWordSpace(r rune) bool {
	return unicode.IsSpace(r) && r != '\u00a0' && r != '\u2007' && r != '\u202f'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func clampRange(start, end, n int) (int, int) {
	start = max(0, min(start, n))
	end = max(start, min(end, n))
	return start, end
}
