package positions

// Change is one content change of a textDocument/didChange notification
// (LSP 3.17 TextDocumentContentChangeEvent). A nil Range replaces the whole
// text. Range positions are in UTF-16 code units.
type Change struct {
	Range *Range
	Text  string
}

// Range is an LSP range: 0-based lines, UTF-16 code units, end exclusive.
type Range struct {
	StartLine, StartChar, EndLine, EndChar int
}

// ApplyChanges applies changes to content in order, each against the
// result of the previous one (LSP 3.17: "the changes ... describe single
// state changes"), and returns the new content. Positions clamp as
// Mapper.Offset does; an inverted range is treated as empty at its start.
// content is not modified.
func ApplyChanges(content []byte, changes []Change) []byte { panic("TODO") }
