package positions

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

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
// A ranged change alone costs one scan of the content up to its end line
// plus one copy. A run of changes as editors send a multi-cursor edit or a
// replace-all, each wholly before the previous one (bottom to top, so that
// each applies unshifted: applyDescending) or each on a line below the text
// the previous one left (top to bottom: applyAscending), costs one line
// index and one copy for the whole run.
func ApplyChanges(content []byte, changes []Change) []byte {
	return ApplyChangesIn(UTF16, content, changes)
}

// ApplyChangesIn is ApplyChanges with the changes' character offsets
// counted in enc (the position encoding negotiated with the client,
// LSP 3.17 "PositionEncodingKind"); positions clamp as Mapper.OffsetIn does.
func ApplyChangesIn(enc Encoding, content []byte, changes []Change) []byte {
	for len(changes) > 0 {
		if n := runLen(changes); n > 1 {
			var done int
			if before(changes[1].Range, changes[0].Range) {
				content, done = applyDescending(enc, content, changes[:n])
			} else {
				content, done = applyAscending(enc, content, changes[:n])
			}
			changes = changes[done:]
			continue
		}
		content = applyOne(enc, content, changes[0])
		changes = changes[1:]
	}
	return content
}

// runLen returns how many changes from the first on, as written, may form
// one run of applyDescending (each ends before the start of the one before
// it) or of applyAscending (each starts on a line after the one the change
// before it ends on once applied): at least 1. An inverted range counts as
// empty at its start.
func runLen(changes []Change) int {
	if len(changes) < 2 || changes[0].Range == nil || changes[1].Range == nil {
		return 1
	}
	down := before(changes[1].Range, changes[0].Range)
	n := 1
	for n < len(changes) {
		prev, r := changes[n-1].Range, changes[n].Range
		if r == nil {
			break
		}
		if down && !before(r, prev) || !down && r.StartLine <= prev.StartLine+lineBreaks(changes[n-1].Text) {
			break
		}
		n++
	}
	return n
}

// before reports whether the range r, inverted taken as empty at its
// start, ends strictly before the start of prev, by positions as written.
func before(r, prev *Range) bool {
	endLine, endChar := r.EndLine, r.EndChar
	if endLine < r.StartLine || endLine == r.StartLine && endChar < r.StartChar {
		endLine, endChar = r.StartLine, r.StartChar
	}
	return endLine < prev.StartLine || endLine == prev.StartLine && endChar < prev.StartChar
}

// lineBreaks returns the number of line endings in s: "\n", "\r\n" or a
// lone "\r" (LSP 3.17 "Text Documents": EOL).
func lineBreaks(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			n++
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		}
	}
	return n
}

// applyDescending applies, in one copy, the longest prefix of changes (a
// run of runLen, bottom to top) whose byte spans, resolved in content,
// each end strictly before the previous one's start, and returns the new
// content and how many changes it applied (at least one). Each change of
// such a prefix touches only text after its successor's end, so every
// position resolves the same in content as in the text the changes before
// it left: the result is the one applyOne gives change by change.
func applyDescending(enc Encoding, content []byte, changes []Change) ([]byte, int) {
	m := NewMapper(content)
	spans := make([]Span, 0, len(changes))
	for _, c := range changes {
		s := resolve(enc, m, c.Range)
		if n := len(spans); n > 0 && (s.End >= spans[n-1].Start || !runeEndsAt(content, spans[n-1].Start)) {
			// A position clamped onto the previous change, or a character
			// the previous change may complete: applyOne resolves this one
			// in the text that change leaves.
			break
		}
		spans = append(spans, s)
	}
	slices.Reverse(spans)
	texts := make([]string, len(spans))
	for i := range texts {
		texts[i] = changes[len(spans)-1-i].Text
	}
	return splice(content, spans, texts), len(spans)
}

// applyAscending is applyDescending for a run top to bottom, each change's
// positions counted in the text the changes before it leave: the longest
// prefix of changes each starting on a line after the one where the text
// the previous change inserted ends. Those lines are lines of content
// moved by the line endings the changes before removed and inserted, so
// each position resolves in content once its line is moved back. The run
// ends after a change whose edges may join a "\r" and a "\n" into one
// line ending, which would move the lines below by one less.
func applyAscending(enc Encoding, content []byte, changes []Change) ([]byte, int) {
	m := NewMapper(content)
	spans := make([]Span, 0, len(changes))
	shift := 0 // a line of the current text below the last change, less that line in content
	last := -1 // the line of the current text where the last change's text ends
	for _, c := range changes {
		r := *c.Range
		if len(spans) > 0 && r.StartLine <= last {
			break
		}
		r.StartLine -= shift
		r.EndLine -= shift
		sp := resolve(enc, m, &r)
		spans = append(spans, sp)
		endLine := m.lineOf(sp.End)
		last = m.lineOf(sp.Start) + shift + lineBreaks(c.Text)
		shift = last - endLine
		if joins(content, sp, c.Text) {
			break
		}
	}
	texts := make([]string, len(spans))
	for i := range texts {
		texts[i] = changes[i].Text
	}
	return splice(content, spans, texts), len(spans)
}

// joins reports whether replacing span s of content by text may put a
// "\r" just before a "\n", making one line ending of two.
func joins(content []byte, s Span, text string) bool {
	crBefore := s.Start > 0 && content[s.Start-1] == '\r'
	lfAfter := s.End < len(content) && content[s.End] == '\n'
	if text == "" {
		return crBefore && lfAfter
	}
	return crBefore && text[0] == '\n' || lfAfter && text[len(text)-1] == '\r'
}

// splice returns content with each span of spans (in order, none
// overlapping the next) replaced by the text of the same index, in one
// copy.
func splice(content []byte, spans []Span, texts []string) []byte {
	size := len(content)
	for i, s := range spans {
		size += len(texts[i]) - (s.End - s.Start)
	}
	out := make([]byte, 0, size)
	at := 0
	for i, s := range spans {
		out = append(out, content[at:s.Start]...)
		out = append(out, texts[i]...)
		at = s.End
	}
	return append(out, content[at:]...)
}

// runeEndsAt reports whether no UTF-8 sequence begun before byte offset
// at is cut off there: the characters before at then decode the same
// whatever bytes follow it (a lone lead byte such as "\xf0" is one
// character of its own only while no continuation bytes follow).
func runeEndsAt(content []byte, at int) bool {
	for j := max(0, at-3); j < at; j++ {
		if !utf8.FullRune(content[j:at]) {
			return false
		}
	}
	return true
}

// resolve returns the byte span in m's content of the range r, its
// characters counted in enc, as applyOne resolves it: each end clamped as
// by Mapper.OffsetIn, an inverted range empty at its start.
func resolve(enc Encoding, m *Mapper, r *Range) Span {
	start := m.OffsetIn(enc, r.StartLine, r.StartChar)
	end := start
	if r.EndLine > r.StartLine || (r.EndLine == r.StartLine && r.EndChar > r.StartChar) {
		end = max(m.OffsetIn(enc, r.EndLine, r.EndChar), start)
	}
	return Span{Start: start, End: end}
}

// applyOne applies one change to content and returns the new content,
// which never aliases content.
func applyOne(enc Encoding, content []byte, c Change) []byte {
	if c.Range == nil {
		return []byte(c.Text)
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
	return append(out, content[end:]...)
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
