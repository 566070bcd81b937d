package positions

import (
	"fmt"
	"slices"
	"testing"
)

// pos is an LSP position (0-based line, UTF-16 units) in test tables.
type pos struct{ line, char int }

func TestNewMapperLines(t *testing.T) {
	tests := []struct {
		name    string
		content string
		starts  []int
		ascii   []bool
	}{
		{"empty", "", []int{0}, []bool{true}},
		{"one line", "abc", []int{0}, []bool{true}},
		{"trailing LF", "abc\ndef\n", []int{0, 4, 8}, []bool{true, true, true}},
		{"CRLF", "@a 1\r\n@b 2\r\n", []int{0, 6, 12}, []bool{true, true, true}},
		{"lone CR", "a\rb\r\rc", []int{0, 2, 4, 5}, []bool{true, true, true, true}},
		{"mixed EOLs", "a\r\n\rb\n\r\n", []int{0, 3, 4, 6, 8}, []bool{true, true, true, true, true}},
		{"only EOLs", "\n\n", []int{0, 1, 2}, []bool{true, true, true}},
		{"CR then LF is one EOL", "\r\n", []int{0, 2}, []bool{true, true}},
		{"LF then CR is two", "\n\r", []int{0, 1, 2}, []bool{true, true, true}},
		{"non-ASCII line", "é\nab\n🙂", []int{0, 3, 6}, []bool{false, true, false}},
		{"invalid UTF-8", "a\xff\nb", []int{0, 3}, []bool{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapper([]byte(tt.content))
			if !slices.Equal(m.lineStarts, tt.starts) {
				t.Errorf("lineStarts = %v, want %v", m.lineStarts, tt.starts)
			}
			if !slices.Equal(m.ascii, tt.ascii) {
				t.Errorf("ascii = %v, want %v", m.ascii, tt.ascii)
			}
			if got := m.LineCount(); got != len(tt.starts) {
				t.Errorf("LineCount() = %d, want %d", got, len(tt.starts))
			}
			if got := string(m.Content()); got != tt.content {
				t.Errorf("Content() = %q, want %q", got, tt.content)
			}
		})
	}
}

// emojiLine is `@t "aé🙂b"`: bytes @0 t1 ' '2 "3 a4 é5-6 🙂7-10 b11 "12,
// UTF-16 units @0 t1 ' '2 "3 a4 é5 🙂6-7 b8 "9.
const emojiLine = `@t "aé🙂b"`

func TestPosition(t *testing.T) {
	tests := []struct {
		content string
		off     int
		want    pos
	}{
		{"", 0, pos{0, 0}},
		{"", 5, pos{0, 0}},
		{"", -1, pos{0, 0}},
		{"abc\ndef\n", 2, pos{0, 2}},
		{"abc\ndef\n", 3, pos{0, 3}}, // the "\n" itself
		{"abc\ndef\n", 4, pos{1, 0}},
		{"abc\ndef\n", 7, pos{1, 3}},
		{"abc\ndef\n", 8, pos{2, 0}},   // end, after the trailing newline
		{"abc\ndef\n", 100, pos{2, 0}}, // past the end
		{"abc\ndef\n", -3, pos{0, 0}},
		{"ab", 2, pos{0, 2}},
		{"@a 1\r\n@b 2\r\n", 4, pos{0, 4}}, // the "\r"
		{"@a 1\r\n@b 2\r\n", 5, pos{0, 4}}, // the "\n" of "\r\n" snaps to the "\r"
		{"@a 1\r\n@b 2\r\n", 6, pos{1, 0}},
		{"@a 1\r\n@b 2\r\n", 11, pos{1, 4}},
		{"@a 1\r\n@b 2\r\n", 12, pos{2, 0}},
		{"a\rb\r\rc", 1, pos{0, 1}},
		{"a\rb\r\rc", 3, pos{1, 1}},
		{"a\rb\r\rc", 4, pos{2, 0}},
		{"a\rb\r\rc", 5, pos{3, 0}},
		{"a\rb\r\rc", 6, pos{3, 1}},
		{"\tx = 1", 1, pos{0, 1}},
		{"\tx = 1", 2, pos{0, 2}},
		{emojiLine, 5, pos{0, 5}},
		{emojiLine, 6, pos{0, 5}}, // inside é
		{emojiLine, 7, pos{0, 6}},
		{emojiLine, 8, pos{0, 6}}, // inside 🙂
		{emojiLine, 10, pos{0, 6}},
		{emojiLine, 11, pos{0, 8}},
		{emojiLine, 12, pos{0, 9}},
		{emojiLine, 13, pos{0, 10}},
		{"é\nab", 4, pos{1, 1}},
		{"ab\n🙂🙂\r\nx", 7, pos{1, 2}},
		{"ab\n🙂🙂\r\nx", 11, pos{1, 4}},
		{"ab\n🙂🙂\r\nx", 12, pos{1, 4}},
		{"ab\n🙂🙂\r\nx", 13, pos{2, 0}},
		// Invalid UTF-8: a0 ff1 b2 e2(3) 82(4) c5 \n6 c3(7); each bad byte is one unit.
		{"a\xffb\xe2\x82c\n\xc3", 2, pos{0, 2}},
		{"a\xffb\xe2\x82c\n\xc3", 4, pos{0, 4}},
		{"a\xffb\xe2\x82c\n\xc3", 5, pos{0, 5}},
		{"a\xffb\xe2\x82c\n\xc3", 6, pos{0, 6}},
		{"a\xffb\xe2\x82c\n\xc3", 7, pos{1, 0}},
		{"a\xffb\xe2\x82c\n\xc3", 8, pos{1, 1}},
		{"x\uFFFDy", 2, pos{0, 1}}, // inside a valid U+FFFD (3 bytes)
		{"x\uFFFDy", 4, pos{0, 2}},
		{"\uFFFF\U00010000.", 3, pos{0, 1}}, // U+FFFF: 3 bytes, 1 unit
		{"\uFFFF\U00010000.", 7, pos{0, 3}}, // U+10000: 4 bytes, 2 units
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q@%d", tt.content, tt.off), func(t *testing.T) {
			line, char := NewMapper([]byte(tt.content)).Position(tt.off)
			if got := (pos{line, char}); got != tt.want {
				t.Errorf("Position(%d) = %v, want %v", tt.off, got, tt.want)
			}
		})
	}
}

func TestOffset(t *testing.T) {
	tests := []struct {
		content string
		at      pos
		want    int
	}{
		{"", pos{0, 0}, 0},
		{"", pos{0, 5}, 0},
		{"", pos{3, 0}, 0},
		{"abc\ndef\n", pos{0, 99}, 3}, // clamps before "\n"
		{"abc\ndef\n", pos{1, 1}, 5},
		{"abc\ndef\n", pos{2, 0}, 8},
		{"abc\ndef\n", pos{2, 5}, 8},
		{"abc\ndef\n", pos{3, 0}, 8}, // line past the end
		{"abc\ndef\n", pos{-1, 2}, 0},
		{"abc\ndef\n", pos{1, -4}, 4},
		{"@a 1\r\n@b 2\r\n", pos{0, 99}, 4}, // before "\r\n"
		{"@a 1\r\n@b 2\r\n", pos{0, 5}, 4},
		{"@a 1\r\n@b 2\r\n", pos{1, 2}, 8},
		{"@a 1\r\n@b 2\r\n", pos{1, 99}, 10},
		{"a\rb\r\rc", pos{0, 9}, 1},
		{"a\rb\r\rc", pos{1, 1}, 3},
		{"a\rb\r\rc", pos{2, 5}, 4},
		{"a\rb\r\rc", pos{3, 1}, 6},
		{"\tx = 1", pos{0, 1}, 1},
		{emojiLine, pos{0, 5}, 5},
		{emojiLine, pos{0, 6}, 7},
		{emojiLine, pos{0, 7}, 7}, // between the surrogates of 🙂
		{emojiLine, pos{0, 8}, 11},
		{emojiLine, pos{0, 10}, 13},
		{emojiLine, pos{0, 11}, 13},
		{"é\nab", pos{0, 1}, 2},
		{"é\nab", pos{1, 1}, 4},
		{"ab\n🙂🙂\r\nx", pos{1, 3}, 7},
		{"ab\n🙂🙂\r\nx", pos{1, 9}, 11},
		{"a\xffb\xe2\x82c\n\xc3", pos{0, 4}, 4},
		{"a\xffb\xe2\x82c\n\xc3", pos{0, 9}, 6},
		{"a\xffb\xe2\x82c\n\xc3", pos{1, 1}, 8},
		{"\uFFFF\U00010000.", pos{0, 2}, 3}, // between the surrogates of U+10000
		{"\uFFFF\U00010000.", pos{0, 3}, 7},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q@%v", tt.content, tt.at), func(t *testing.T) {
			if got := NewMapper([]byte(tt.content)).Offset(tt.at.line, tt.at.char); got != tt.want {
				t.Errorf("Offset(%d, %d) = %d, want %d", tt.at.line, tt.at.char, got, tt.want)
			}
		})
	}
}

func TestLineCol(t *testing.T) {
	tests := []struct {
		content   string
		off       int
		line, col int
	}{
		{"", 0, 1, 1},
		{"", 9, 1, 1},
		{"abc\ndef\n", 5, 2, 2},
		{"abc\ndef\n", 8, 3, 1},
		{"@a 1\r\n@b 2\r\n", 5, 1, 5},
		{"a\rb\r\rc", 6, 4, 2},
		{"\tx = 1", 1, 1, 2},
		{emojiLine, 7, 1, 7}, // 🙂 is the 7th character
		{emojiLine, 9, 1, 7},
		{emojiLine, 11, 1, 8}, // one column for 🙂, though two UTF-16 units
		{emojiLine, 13, 1, 10},
		{"a\xffb\xe2\x82c\n\xc3", 4, 1, 5},
		{"a\xffb\xe2\x82c\n\xc3", 8, 2, 2},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q@%d", tt.content, tt.off), func(t *testing.T) {
			line, col := NewMapper([]byte(tt.content)).LineCol(tt.off)
			if line != tt.line || col != tt.col {
				t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
			}
		})
	}
}

func TestRangeSpan(t *testing.T) {
	m := NewMapper([]byte("x = 1\r\n" + emojiLine + "\n"))
	tests := []struct {
		span  Span
		rng   Range
		back  Span // Span(Range(span))
		label string
	}{
		{Span{0, 1}, Range{0, 0, 0, 1}, Span{0, 1}, "ascii"},
		{Span{12, 18}, Range{1, 5, 1, 8}, Span{12, 18}, "é🙂"},
		{Span{13, 19}, Range{1, 5, 1, 9}, Span{12, 19}, "inside é snaps to its start"},
		{Span{5, 7}, Range{0, 5, 1, 0}, Span{5, 7}, "over CRLF"},
		{Span{0, 99}, Range{0, 0, 2, 0}, Span{0, 21}, "clamped end"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := m.Range(tt.span); got != tt.rng {
				t.Errorf("Range(%v) = %v, want %v", tt.span, got, tt.rng)
			}
			if got := m.Span(tt.rng); got != tt.back {
				t.Errorf("Span(%v) = %v, want %v", tt.rng, got, tt.back)
			}
		})
	}
	// An inverted range is empty at its start.
	if got, want := m.Span(Range{1, 8, 0, 2}), (Span{18, 18}); got != want {
		t.Errorf("Span(inverted) = %v, want %v", got, want)
	}
}

// roundTripContents are the documents every round-trip property is checked on.
var roundTripContents = []string{
	"",
	"\n\n",
	"\r\n",
	"\r",
	"abc\ndef\n",
	"@a 1\r\n@b 2\r\n",
	"a\rb\r\rc",
	"a\r\n\rb\n\r\n",
	"\tx = 1",
	emojiLine,
	"ab\n🙂🙂\r\nx",
	"a\xffb\xe2\x82c\n\xc3",
	"\xed\xa0\x80\xf0\x9f\x99", // encoded surrogate, truncated emoji
	"é\r\n日本\r🙂\n\xff",
}

// TestRoundTrip checks, on every offset and every position near each line
// of roundTripContents, that conversions agree with the reference model
// of fuzz_test.go and with each other.
func TestRoundTrip(t *testing.T) {
	for _, content := range roundTripContents {
		t.Run(fmt.Sprintf("%q", content), func(t *testing.T) {
			checkMapper(t, []byte(content))
		})
	}
}

// checkMapper compares a Mapper over content to the reference model on
// every offset in [-2, len+2] and every (line, char) in
// [-1, lines] x [-1, units+2].
func checkMapper(t *testing.T, content []byte) {
	t.Helper()
	m := NewMapper(content)
	ref := newRefDoc(content)
	if got, want := m.LineCount(), len(ref.lines); got != want {
		t.Fatalf("LineCount() = %d, want %d", got, want)
	}
	for off := -2; off <= len(content)+2; off++ {
		want := ref.position(off)
		line, char := m.Position(off)
		if line != want.line || char != want.char {
			t.Fatalf("Position(%d) = %d:%d, want %d:%d", off, line, char, want.line, want.char)
		}
		if got := m.Offset(line, char); got != want.snapped {
			t.Fatalf("Offset(Position(%d)) = %d, want the character start %d", off, got, want.snapped)
		}
		l1, c1 := m.LineCol(off)
		if l1 != want.line+1 || c1 != want.col+1 {
			t.Fatalf("LineCol(%d) = %d:%d, want %d:%d", off, l1, c1, want.line+1, want.col+1)
		}
	}
	for line := -1; line <= len(ref.lines); line++ {
		maxUnits := 0
		if line >= 0 && line < len(ref.lines) {
			maxUnits = len(ref.lines[line].units) - 1
		}
		for char := -1; char <= maxUnits+2; char++ {
			off := m.Offset(line, char)
			if want := ref.offset(line, char); off != want {
				t.Fatalf("Offset(%d, %d) = %d, want %d", line, char, off, want)
			}
			// Offsets from Offset are character starts: they round-trip exactly.
			l, c := m.Position(off)
			if back := m.Offset(l, c); back != off {
				t.Fatalf("Offset(Position(Offset(%d, %d) = %d)) = %d", line, char, off, back)
			}
			if line >= 0 && line < len(ref.lines) && (l != line || c > max(char, 0)) {
				t.Fatalf("Position(Offset(%d, %d)) = %d:%d, want line %d, char <= %d", line, char, l, c, line, char)
			}
		}
	}
}
