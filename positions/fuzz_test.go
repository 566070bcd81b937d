package positions

import (
	"regexp"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// The reference model: a deliberately naive re-implementation that splits
// lines with a regexp, decodes each line to runes and expands every rune to
// its UTF-16 code units (utf16.Encode), recording for each unit the byte
// offset of the character it belongs to. It shares no code with mapper.go
// or sync.go.

// eolRE matches one line ending (LSP 3.17 "Text Documents": EOL).
var eolRE = regexp.MustCompile(`\r\n|\r|\n`)

// refLine is one line of a refDoc.
type refLine struct {
	start, end int   // bytes, end before the line ending
	next       int   // start of the next line (len(content) for the last line)
	units      []int // byte offset of the character of each UTF-16 unit, then end
	chars      []int // byte offset of each character, then end
}

// refDoc is the reference model of a document.
type refDoc struct {
	size  int
	lines []refLine
}

func newRefDoc(content []byte) refDoc {
	d := refDoc{size: len(content)}
	start := 0
	eols := eolRE.FindAllIndex(content, -1)
	eols = append(eols, []int{len(content), len(content)})
	for _, eol := range eols {
		l := refLine{start: start, end: eol[0], next: eol[1]}
		for i := l.start; i < l.end; {
			r, size := utf8.DecodeRune(content[i:l.end])
			n := 1 // an invalid byte is one unit
			if !(r == utf8.RuneError && size == 1) {
				n = len(utf16.Encode([]rune{r}))
			}
			for range n {
				l.units = append(l.units, i)
			}
			l.chars = append(l.chars, i)
			i += size
		}
		l.units = append(l.units, l.end)
		l.chars = append(l.chars, l.end)
		d.lines = append(d.lines, l)
		start = eol[1]
	}
	return d
}

// refPos is what the reference model says about one byte offset.
type refPos struct {
	line, char, col int // 0-based line, UTF-16 units, 0-based characters
	snapped         int // start of the offset's character
}

// position returns the reference answer for byte offset off.
func (d refDoc) position(off int) refPos {
	off = max(0, min(off, d.size))
	for i, l := range d.lines {
		if off >= l.next && i < len(d.lines)-1 {
			continue
		}
		if off > l.end { // inside "\r\n"
			off = l.end
		}
		p := refPos{line: i}
		for c, s := range l.chars {
			if s <= off {
				p.col, p.snapped = c, s
			}
		}
		for u, s := range l.units {
			if s == p.snapped {
				p.char = u
				break
			}
		}
		return p
	}
	panic("unreachable")
}

// offset returns the reference byte offset of LSP position (line, char).
func (d refDoc) offset(line, char int) int {
	switch {
	case line < 0:
		return 0
	case line >= len(d.lines):
		return d.size
	}
	l := d.lines[line]
	char = max(0, min(char, len(l.units)-1))
	return l.units[char]
}

// refApply is the reference implementation of ApplyChanges.
func refApply(content []byte, changes []Change) []byte {
	s := string(content)
	for _, c := range changes {
		if c.Range == nil {
			s = c.Text
			continue
		}
		d := newRefDoc([]byte(s))
		start := d.offset(c.Range.StartLine, c.Range.StartChar)
		end := max(start, d.offset(c.Range.EndLine, c.Range.EndChar))
		s = s[:start] + c.Text + s[end:]
	}
	return []byte(s)
}

// FuzzMapper checks that no input panics and that every conversion agrees
// with the reference model: on the given offset, on every offset and
// position of short inputs (<= 64 bytes), and on a position derived from off.
func FuzzMapper(f *testing.F) {
	for _, c := range roundTripContents {
		f.Add([]byte(c), 3)
	}
	f.Fuzz(func(t *testing.T, content []byte, off int) {
		m := NewMapper(content)
		ref := newRefDoc(content)
		want := ref.position(off)
		line, char := m.Position(off)
		if line != want.line || char != want.char {
			t.Fatalf("Position(%d) = %d:%d, want %d:%d", off, line, char, want.line, want.char)
		}
		if got := m.Offset(line, char); got != want.snapped {
			t.Fatalf("Offset(Position(%d)) = %d, want the character start %d", off, got, want.snapped)
		}
		if l, c := m.LineCol(off); l != want.line+1 || c != want.col+1 {
			t.Fatalf("LineCol(%d) = %d:%d, want %d:%d", off, l, c, want.line+1, want.col+1)
		}
		if len(content) <= 64 { // exhaustive, yet cheap enough to keep minimization quick
			checkMapper(t, content)
		}
		// A position derived from off, possibly out of range.
		pl := off%(m.LineCount()+2) - 1
		pc := (off/7)%(len(content)+3) - 1
		if got, w := m.Offset(pl, pc), ref.offset(pl, pc); got != w {
			t.Fatalf("Offset(%d, %d) = %d, want %d", pl, pc, got, w)
		}
	})
}

// fuzzTexts are the inserted texts FuzzApplyChanges picks from.
var fuzzTexts = []string{
	"", "x", "é", "🙂", "\r", "\n", "\r\n", "\t", "\xff", "\xf0\x9f",
	"a\r\nb", "🙂\n🙂", "日本\r", "\x99\x82",
}

// decodeChanges turns fuzz bytes into at most 16 changes, 6 bytes each:
// kind (0 mod 8: whole text), start line, start char, end line, end char,
// text. Lines range over [-1, 6], characters over [-1, 14].
func decodeChanges(ops []byte) []Change {
	var cs []Change
	for len(ops) >= 6 && len(cs) < 16 {
		b := ops[:6]
		ops = ops[6:]
		c := Change{Text: fuzzTexts[int(b[5])%len(fuzzTexts)]}
		if b[0]%8 != 0 {
			c.Range = &Range{
				StartLine: int(b[1]%8) - 1, StartChar: int(b[2]%16) - 1,
				EndLine: int(b[3]%8) - 1, EndChar: int(b[4]%16) - 1,
			}
		} else if b[5]%2 == 0 {
			c.Text = string(b[1:5]) // any bytes, as a full text
		}
		cs = append(cs, c)
	}
	return cs
}

// FuzzApplyChanges checks ApplyChanges against refApply (also on runs of
// changes each before the previous, which applyRun takes in one copy), and
// that every
// ranged change also agrees with Mapper.Span over the intermediate text.
func FuzzApplyChanges(f *testing.F) {
	f.Add([]byte("@a 1\r\n@b 2\r\n"), []byte{1, 1, 15, 1, 15, 1})
	f.Add([]byte(emojiLine), []byte{1, 1, 6, 1, 9, 0})
	f.Add([]byte("abc\ndef"), []byte{1, 2, 1, 2, 4, 3, 1, 1, 2, 1, 3, 0, 1, 1, 1, 1, 1, 6})
	f.Add([]byte("x\ry"), []byte{8, 0, 0, 0, 0, 10, 1, 2, 2, 1, 1, 4})
	f.Fuzz(func(t *testing.T, content, ops []byte) {
		changes := decodeChanges(ops)
		orig := string(content)
		got := ApplyChanges(content, changes)
		if string(content) != orig {
			t.Fatalf("ApplyChanges modified its input: %q -> %q", orig, content)
		}
		if want := refApply(content, changes); string(got) != string(want) {
			t.Fatalf("ApplyChanges(%q, %s) = %q, want %q", content, fmtChanges(changes), got, want)
		}
		cur := content
		for _, c := range changes {
			next := ApplyChanges(cur, []Change{c})
			if c.Range != nil {
				s := NewMapper(cur).Span(*c.Range)
				viaSpan := string(cur[:s.Start]) + c.Text + string(cur[s.End:])
				if string(next) != viaSpan {
					t.Fatalf("change %v on %q: ApplyChanges = %q, via Mapper.Span %v = %q", *c.Range, cur, next, s, viaSpan)
				}
			}
			cur = next
		}
		if string(cur) != string(got) {
			t.Fatalf("one by one = %q, all at once = %q", cur, got)
		}
		// The same in UTF-8 positions: a run that applyRun takes in one
		// copy must equal the changes applied one at a time.
		cur = content
		for _, c := range changes {
			cur = ApplyChangesIn(UTF8, cur, []Change{c})
		}
		if all := ApplyChangesIn(UTF8, content, changes); string(all) != string(cur) {
			t.Fatalf("utf-8: ApplyChangesIn(%q, %s) = %q, one by one %q", content, fmtChanges(changes), all, cur)
		}
	})
}
