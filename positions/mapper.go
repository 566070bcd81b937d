package positions

import (
	"bytes"
	"encoding/binary"
	"sort"
	"unicode/utf8"
)

// Mapper converts between byte offsets in one file's content and
// LSP positions (0-based line, 0-based UTF-16 code units; LSP 3.17
// "Position") or CLI positions (1-based line, 1-based column counted in
// characters, i.e. Unicode code points). A line ends at "\n", "\r\n" or a
// lone "\r" (LSP 3.17 "Text Documents": EOL). Invalid UTF-8 bytes count as
// one code point and one UTF-16 code unit each, so every byte offset maps
// to a position and back.
//
// A "character" below is one decoded code point (utf8.DecodeRune from the
// line start, an invalid byte being a character of its own), except that a
// "\r\n" line ending counts as a single character: the offset of its "\n"
// belongs to the character that starts at the "\r".
//
// Lines that are pure ASCII convert by arithmetic (the ASCII fast path of
// gopls's protocol.Mapper); other lines are decoded on each call.
//
// A Mapper is immutable after NewMapper and safe for concurrent use.
type Mapper struct {
	content    []byte
	lineStarts []int  // byte offset at which each line starts; lineStarts[0] == 0
	ascii      []bool // ascii[i] reports whether line i (without its EOL) is pure ASCII
}

// NewMapper indexes content; it keeps a reference to content, which the
// caller must not modify afterwards. It costs one pass over content and
// never fails: any bytes (empty, invalid UTF-8, binary) are accepted.
func NewMapper(content []byte) *Mapper {
	n := 1 + len(content)/32 // guess: 32 bytes per line
	m := &Mapper{
		content:    content,
		lineStarts: make([]int, 1, n),
		ascii:      make([]bool, 0, n),
	}
	if bytes.IndexByte(content, '\r') < 0 {
		// Lines end at "\n" only (the usual content): find each with
		// IndexByte and test its bytes for ASCII eight at a time.
		start := 0
		for {
			j := bytes.IndexByte(content[start:], '\n')
			if j < 0 {
				break
			}
			m.ascii = append(m.ascii, isASCII(content[start:start+j]))
			start += j + 1
			m.lineStarts = append(m.lineStarts, start)
		}
		m.ascii = append(m.ascii, isASCII(content[start:]))
		return m
	}
	ascii := true
	for i := 0; i < len(content); i++ {
		switch b := content[i]; {
		case b == '\n':
		case b == '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
		default:
			if b >= utf8.RuneSelf {
				ascii = false
			}
			continue
		}
		m.lineStarts = append(m.lineStarts, i+1)
		m.ascii = append(m.ascii, ascii)
		ascii = true
	}
	m.ascii = append(m.ascii, ascii)
	return m
}

// isASCII reports whether b holds only bytes below utf8.RuneSelf.
func isASCII(b []byte) bool {
	const high = 0x8080808080808080 // the top bit of each of 8 bytes
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&high != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Content returns the content the Mapper indexes (not a copy: the caller
// must not modify it).
func (m *Mapper) Content() []byte { return m.content }

// LineCount returns the number of lines: one more than the number of line
// endings, so "" has 1 line, "a" has 1 and "a\n" has 2 (the last empty).
func (m *Mapper) LineCount() int { return len(m.lineStarts) }

// lineOf returns the 0-based line holding byte offset off, which must lie
// in [0, len(content)].
func (m *Mapper) lineOf(off int) int {
	// First line starting after off, minus one.
	return sort.Search(len(m.lineStarts), func(i int) bool { return m.lineStarts[i] > off }) - 1
}

// lineBounds returns the byte offsets of the start of line l and of its end
// before its line ending; l must be a valid line index.
func (m *Mapper) lineBounds(l int) (start, end int) {
	start = m.lineStarts[l]
	if l+1 < len(m.lineStarts) {
		end = m.lineStarts[l+1] - eolLen(m.content[:m.lineStarts[l+1]])
	} else {
		end = len(m.content)
	}
	return start, end
}

// eolLen returns the length in bytes (0, 1 or 2) of the line ending that
// ends b.
func eolLen(b []byte) int {
	n := len(b)
	switch {
	case n >= 2 && b[n-2] == '\r' && b[n-1] == '\n':
		return 2
	case n >= 1 && (b[n-1] == '\n' || b[n-1] == '\r'):
		return 1
	}
	return 0
}

// locate clamps off to [0, len(content)], snaps it to the start of its
// character, and returns its line, the line's start and the snapped offset.
func (m *Mapper) locate(off int) (line, start, snapped int) {
	off = max(0, min(off, len(m.content)))
	line = m.lineOf(off)
	start, end := m.lineBounds(line)
	if off > end { // the "\n" of a "\r\n"
		return line, start, end
	}
	if !m.ascii[line] {
		off = start + charStart(m.content[start:end], off-start)
	}
	return line, start, off
}

// Position returns the LSP position (0-based line, UTF-16 code units) of
// byte offset off. An offset inside a multi-byte character (or on the "\n"
// of a "\r\n") maps to the start of that character; an offset below 0
// clamps to 0 and one past the end clamps to the end (LSP 3.17 "Position").
func (m *Mapper) Position(off int) (line, char int) {
	line, start, off := m.locate(off)
	if m.ascii[line] {
		return line, off - start
	}
	return line, utf16Len(m.content[start:off])
}

// Offset returns the byte offset of the LSP position (line, char16).
// A line past the last clamps to the end of the content; a character past
// the end of its line clamps to the line's end, before its "\r\n" or "\n"
// (docs/architecture.md "LSP behaviour", text sync); a character in the middle of a surrogate pair
// maps to the start of that character. A negative line maps to 0 and a
// negative character to the start of its line.
func (m *Mapper) Offset(line, char int) int {
	switch {
	case line < 0:
		return 0
	case line >= len(m.lineStarts):
		return len(m.content)
	}
	start, end := m.lineBounds(line)
	if m.ascii[line] {
		return start + max(0, min(char, end-start))
	}
	return start + charOffset(m.content[start:end], char)
}

// LineCol returns the 1-based line and the 1-based column, counted in
// characters (code points), of byte offset off: the form `check` prints.
// off is clamped and snapped as by Position.
func (m *Mapper) LineCol(off int) (line, col int) {
	line, start, off := m.locate(off)
	if m.ascii[line] {
		return line + 1, off - start + 1
	}
	return line + 1, runeCount(m.content[start:off]) + 1
}

// Range returns the LSP range (UTF-16 code units) of byte span s, each end
// converted as by Position.
func (m *Mapper) Range(s Span) Range {
	var r Range
	r.StartLine, r.StartChar = m.Position(s.Start)
	r.EndLine, r.EndChar = m.Position(s.End)
	return r
}

// Span returns the byte span of LSP range r, each end converted as by
// Offset. An inverted range yields an empty span at its start, as
// ApplyChanges treats it.
func (m *Mapper) Span(r Range) Span {
	s := Span{Start: m.Offset(r.StartLine, r.StartChar), End: m.Offset(r.EndLine, r.EndChar)}
	s.End = max(s.End, s.Start)
	return s
}

// decode returns the width in bytes and in UTF-16 code units of the
// character at the start of b (non-empty). An invalid byte is one
// character of width 1 and 1 unit.
func decode(b []byte) (size, units int) {
	if b[0] < utf8.RuneSelf {
		return 1, 1
	}
	r, size := utf8.DecodeRune(b)
	if r >= 0x10000 {
		return size, 2
	}
	return size, 1
}

// charStart returns the byte offset, within line (no line ending), of the
// start of the character holding byte offset off (0 <= off <= len(line)).
func charStart(line []byte, off int) int {
	i := 0
	for i < off {
		size, _ := decode(line[i:])
		if i+size > off {
			break
		}
		i += size
	}
	return i
}

// charOffset returns the byte offset, within line (no line ending), of
// UTF-16 offset char: clamped to [0, len(line)], and snapped to the start
// of a character when char falls inside a surrogate pair.
func charOffset(line []byte, char int) int {
	i, units := 0, 0
	for i < len(line) {
		size, w := decode(line[i:])
		if units+w > char {
			break
		}
		i += size
		units += w
	}
	return i
}

// utf16Len returns the number of UTF-16 code units of b, an invalid byte
// counting as one.
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		size, w := decode(b[i:])
		i += size
		n += w
	}
	return n
}

// runeCount returns the number of characters of b, an invalid byte
// counting as one (as utf8.RuneCount does).
func runeCount(b []byte) int { return utf8.RuneCount(b) }
