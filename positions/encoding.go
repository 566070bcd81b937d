package positions

// Encoding is the unit in which an LSP position counts the characters of
// a line (LSP 3.17 "PositionEncodingKind"). The zero value is UTF16, the
// encoding every client supports; UTF8 is chosen when the client offers it
// in general.positionEncodings (docs/architecture.md, "LSP behaviour").
type Encoding int

const (
	// UTF16 counts UTF-16 code units ("utf-16"), the LSP default.
	UTF16 Encoding = iota
	// UTF8 counts bytes of the UTF-8 text ("utf-8").
	UTF8
)

// String returns the LSP PositionEncodingKind: "utf-16" or "utf-8".
func (e Encoding) String() string {
	if e == UTF8 {
		return "utf-8"
	}
	return "utf-16"
}

// ParseEncoding returns the Encoding of an LSP PositionEncodingKind
// ("utf-8" or "utf-16"), and false for any other string ("utf-32" is not
// supported).
func ParseEncoding(kind string) (Encoding, bool) {
	switch kind {
	case "utf-8":
		return UTF8, true
	case "utf-16":
		return UTF16, true
	}
	return UTF16, false
}

// PositionIn returns the LSP position of byte offset off, its character
// counted in enc: for UTF16 it is Position; for UTF8 the byte offset from
// the line start. Clamping and snapping are those of Position.
func (m *Mapper) PositionIn(enc Encoding, off int) (line, char int) {
	if enc != UTF8 {
		return m.Position(off)
	}
	line, start, off := m.locate(off)
	return line, off - start
}

// OffsetIn returns the byte offset of the LSP position (line, char), char
// counted in enc: for UTF16 it is Offset; for UTF8 a byte count from the
// line start, clamped to the line's end before its line ending and snapped
// to the start of the character it falls inside. A negative line maps to 0,
// a line past the last to the end of the content.
func (m *Mapper) OffsetIn(enc Encoding, line, char int) int {
	if enc != UTF8 {
		return m.Offset(line, char)
	}
	switch {
	case line < 0:
		return 0
	case line >= len(m.lineStarts):
		return len(m.content)
	}
	start, end := m.lineBounds(line)
	return start + charOffsetIn(UTF8, m.content[start:end], char)
}

// RangeIn returns the LSP range of byte span s in enc, each end converted
// as by PositionIn.
func (m *Mapper) RangeIn(enc Encoding, s Span) Range {
	var r Range
	r.StartLine, r.StartChar = m.PositionIn(enc, s.Start)
	r.EndLine, r.EndChar = m.PositionIn(enc, s.End)
	return r
}

// SpanIn returns the byte span of LSP range r in enc, each end converted
// as by OffsetIn; an inverted range yields an empty span at its start.
func (m *Mapper) SpanIn(enc Encoding, r Range) Span {
	s := Span{Start: m.OffsetIn(enc, r.StartLine, r.StartChar), End: m.OffsetIn(enc, r.EndLine, r.EndChar)}
	s.End = max(s.End, s.Start)
	return s
}

// charOffsetIn returns the byte offset, within line (no line ending), of
// character offset char counted in enc, clamped to [0, len(line)] and
// snapped to the start of the character it falls inside.
func charOffsetIn(enc Encoding, line []byte, char int) int {
	if enc != UTF8 {
		return charOffset(line, char)
	}
	return charStart(line, max(0, min(char, len(line))))
}
