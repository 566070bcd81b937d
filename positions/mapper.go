package positions

// Mapper converts between byte offsets in one file's content and
// LSP positions (0-based line, 0-based UTF-16 code units; LSP 3.17
// "Position") or CLI positions (1-based line, 1-based column counted in
// characters, i.e. Unicode code points). A line ends at "\n", "\r\n" or a
// lone "\r" (LSP 3.17 "Text Documents": EOL). Invalid UTF-8 bytes count as
// one code point and one UTF-16 code unit each, so every byte offset maps
// to a position and back.
//
// A Mapper is immutable after NewMapper and safe for concurrent use.
type Mapper struct {
	content    []byte
	lineStarts []int
}

// NewMapper indexes content; it keeps a reference to content, which the
// caller must not modify afterwards.
func NewMapper(content []byte) *Mapper {
	panic("TODO")
}

// Position returns the LSP position (0-based line, UTF-16 code units) of
// byte offset off. An offset inside a multi-byte character maps to the
// start of that character; an offset past the end clamps to the end.
func (m *Mapper) Position(off int) (line, char int) { panic("TODO") }

// Offset returns the byte offset of the LSP position (line, char16).
// A line past the last clamps to the end of the content; a character past
// the end of its line clamps to the line's end, before its "\r\n" or "\n"
// (design.md, text sync).
func (m *Mapper) Offset(line, char int) int { panic("TODO") }

// LineCol returns the 1-based line and the 1-based column, counted in
// characters (code points), of byte offset off: the form `check` prints.
func (m *Mapper) LineCol(off int) (line, col int) { panic("TODO") }
