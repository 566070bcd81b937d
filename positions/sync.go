package positions

import "bytes"

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
// content is not modified; the result never aliases content unless
// changes is empty, in which case content itself is returned.
//
// Each ranged change costs one scan of the content up to its end line plus
// one copy; no line index is built.
func ApplyChanges(content []byte, changes []Change) []byte {
	return ApplyChangesIn(UTF16, content, changes)
}

// ApplyChangesIn is ApplyChanges with the changes' character offsets
// counted in enc (the position encoding negotiated with the client,
// LSP 3.17 "PositionEncodingKind"); positions clamp as Mapper.OffsetIn does.
func ApplyChangesIn(enc Encoding, content []byte, changes []Change) []byte {
	for _, c := range changes {
		if c.Range == nil {
			content = []byte(c.Text)
			continue
		}
		r := c.Range
		startLine, startLineOff := 0, 0
		start := 0
		if r.StartLine >= 0 {
			off, ok := seekLine(content, 0, 0, r.StartLine)
			if ok {
				startLine, startLineOff = r.StartLine, off
				start = off + charOffsetIn(enc, lineAt(content, off), r.StartChar)
			} else {
				start = len(content)
			}
		}
		end := start
		if r.EndLine > r.StartLine || (r.EndLine == r.StartLine && r.EndChar > r.StartChar) {
			// The end is never before the start line: resume the scan there.
			switch off, ok := seekLine(content, startLineOff, startLine, r.EndLine); {
			case r.EndLine < 0:
				end = 0
			case ok:
				end = off + charOffsetIn(enc, lineAt(content, off), r.EndChar)
			default:
				end = len(content)
			}
		}
		end = max(end, start)
		out := make([]byte, 0, len(content)-(end-start)+len(c.Text))
		out = append(out, content[:start]...)
		out = append(out, c.Text...)
		out = append(out, content[end:]...)
		content = out
	}
	return content
}

// seekLine returns the byte offset of the start of line (0-based) in
// content, scanning forward from byte offset from, which must be the start
// of line fromLine <= line. ok is false when content has no such line.
func seekLine(content []byte, from, fromLine, line int) (off int, ok bool) {
	off = from
	if bytes.IndexByte(content[off:], '\r') < 0 {
		// No carriage return ahead (the usual content): lines end at
		// '\n' only, found with IndexByte rather than IndexAny per line.
		for l := fromLine; l < line; l++ {
			i := bytes.IndexByte(content[off:], '\n')
			if i < 0 {
				return 0, false
			}
			off += i + 1
		}
		return off, true
	}
	for l := fromLine; l < line; l++ {
		i := bytes.IndexAny(content[off:], "\r\n")
		if i < 0 {
			return 0, false
		}
		off += i + 1
		if content[off-1] == '\r' && off < len(content) && content[off] == '\n' {
			off++
		}
	}
	return off, true
}

// lineAt returns the line of content starting at byte offset start,
// without its line ending.
func lineAt(content []byte, start int) []byte {
	line := content[start:]
	if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	return line
}
