package positions

import "testing"

// The same emoji and CRLF content in both encodings: emojiLine is
// `@t "aé🙂b"` (bytes @0 t1 ' '2 "3 a4 é5-6 🙂7-10 b11 "12; UTF-16 units
// @0 t1 ' '2 "3 a4 é5 🙂6-7 b8 "9), here on line 1 after a CRLF line.
func TestPositionInBothEncodings(t *testing.T) {
	content := "x\r\n" + emojiLine + "\r\nz"
	m := NewMapper([]byte(content))
	const l1 = 3 // byte offset of line 1
	tests := []struct {
		off         int
		utf16, utf8 pos
	}{
		{0, pos{0, 0}, pos{0, 0}},
		{1, pos{0, 1}, pos{0, 1}},            // the "\r"
		{2, pos{0, 1}, pos{0, 1}},            // the "\n" of "\r\n": snaps to the "\r"
		{l1 + 5, pos{1, 5}, pos{1, 5}},       // é
		{l1 + 6, pos{1, 5}, pos{1, 5}},       // inside é: snaps to its start
		{l1 + 7, pos{1, 6}, pos{1, 7}},       // 🙂
		{l1 + 9, pos{1, 6}, pos{1, 7}},       // inside 🙂
		{l1 + 11, pos{1, 8}, pos{1, 11}},     // b
		{l1 + 13, pos{1, 10}, pos{1, 13}},    // end of line 1, before its "\r\n"
		{l1 + 15, pos{2, 0}, pos{2, 0}},      // z
		{len(content), pos{2, 1}, pos{2, 1}}, // end
	}
	for _, tt := range tests {
		for _, c := range []struct {
			enc  Encoding
			want pos
		}{{UTF16, tt.utf16}, {UTF8, tt.utf8}} {
			l, ch := m.PositionIn(c.enc, tt.off)
			if (pos{l, ch}) != c.want {
				t.Errorf("PositionIn(%s, %d) = %d:%d, want %d:%d", c.enc, tt.off, l, ch, c.want.line, c.want.char)
			}
		}
	}
}

func TestOffsetInBothEncodings(t *testing.T) {
	content := "x\r\n" + emojiLine + "\r\nz"
	m := NewMapper([]byte(content))
	const l1 = 3
	tests := []struct {
		enc  Encoding
		p    pos
		want int
	}{
		{UTF8, pos{1, 7}, l1 + 7},   // 🙂
		{UTF8, pos{1, 8}, l1 + 7},   // inside 🙂: its start
		{UTF8, pos{1, 11}, l1 + 11}, // b
		{UTF8, pos{1, 99}, l1 + 13}, // past the end: before "\r\n"
		{UTF8, pos{0, 5}, 1},        // past "x": before "\r\n"
		{UTF8, pos{-1, 0}, 0},       // negative line
		{UTF8, pos{1, -3}, l1},      // negative character
		{UTF8, pos{9, 0}, len(content)},
		{UTF16, pos{1, 6}, l1 + 7},   // 🙂
		{UTF16, pos{1, 7}, l1 + 7},   // inside the surrogate pair
		{UTF16, pos{1, 8}, l1 + 11},  // b
		{UTF16, pos{1, 99}, l1 + 13}, // past the end
	}
	for _, tt := range tests {
		if got := m.OffsetIn(tt.enc, tt.p.line, tt.p.char); got != tt.want {
			t.Errorf("OffsetIn(%s, %d:%d) = %d, want %d", tt.enc, tt.p.line, tt.p.char, got, tt.want)
		}
	}
	r := Range{StartLine: 1, StartChar: 7, EndLine: 1, EndChar: 11}
	if got := m.SpanIn(UTF8, r); got != (Span{l1 + 7, l1 + 11}) {
		t.Errorf("SpanIn(utf-8, 1:7-1:11) = %v", got)
	}
	if got := m.RangeIn(UTF8, Span{l1 + 7, l1 + 11}); got != r {
		t.Errorf("RangeIn(utf-8) = %+v, want %+v", got, r)
	}
}

// ApplyChangesIn replaces the emoji in each encoding with the same edit.
func TestApplyChangesInBothEncodings(t *testing.T) {
	content := []byte("x\r\n" + emojiLine + "\r\nz")
	want := "x\r\n" + `@t "aéXb"` + "\r\nz"
	for _, c := range []struct {
		enc        Encoding
		start, end int
	}{{UTF16, 6, 8}, {UTF8, 7, 11}} {
		got := ApplyChangesIn(c.enc, content, []Change{{Range: &Range{StartLine: 1, StartChar: c.start, EndLine: 1, EndChar: c.end}, Text: "X"}})
		if string(got) != want {
			t.Errorf("%s: got %q, want %q", c.enc, got, want)
		}
	}
	// A UTF-8 character offset inside the emoji snaps to its start; past the
	// line end it clamps before the "\r\n".
	got := ApplyChangesIn(UTF8, content, []Change{{Range: &Range{StartLine: 1, StartChar: 9, EndLine: 1, EndChar: 40}, Text: "!"}})
	if want := "x\r\n" + `@t "aé!` + "\r\nz"; string(got) != want {
		t.Errorf("clamped: got %q, want %q", got, want)
	}
}

func TestParseEncoding(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Encoding
		ok   bool
	}{{"utf-8", UTF8, true}, {"utf-16", UTF16, true}, {"utf-32", UTF16, false}, {"", UTF16, false}} {
		got, ok := ParseEncoding(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseEncoding(%q) = %v, %v", tt.in, got, ok)
		}
		if ok && got.String() != tt.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tt.in)
		}
	}
}
