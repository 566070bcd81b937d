package positions

import (
	"fmt"
	"strings"
	"testing"
)

// rng builds a *Range for test tables.
func rng(sl, sc, el, ec int) *Range { return &Range{sl, sc, el, ec} }

func fmtChanges(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if c.Range == nil {
			parts[i] = fmt.Sprintf("{full %q}", c.Text)
		} else {
			parts[i] = fmt.Sprintf("{%v %q}", *c.Range, c.Text)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func TestApplyChanges(t *testing.T) {
	tests := []struct {
		name    string
		content string
		changes []Change
		want    string
	}{
		// The text sync cases of docs/architecture.md "LSP behaviour".
		{
			name:    "insert past the line end lands before CRLF",
			content: "@a 1\r\n@b 2\r\n",
			changes: []Change{{Range: rng(0, 99, 0, 99), Text: "0"}},
			want:    "@a 10\r\n@b 2\r\n",
		},
		{
			name:    "a tab is one character",
			content: "\t@a 1\n",
			changes: []Change{{Range: rng(0, 1, 0, 2), Text: "#"}},
			want:    "\t#a 1\n",
		},
		{
			name:    "delete é and the two units of 🙂",
			content: `@t "aé🙂b"`,
			changes: []Change{{Range: rng(0, 5, 0, 8), Text: ""}},
			want:    `@t "ab"`,
		},
		{
			name:    "three edits in order, the last at 0:0",
			content: "abc\ndef",
			changes: []Change{
				{Range: rng(1, 0, 1, 3), Text: "XYZ"}, // abc\nXYZ
				{Range: rng(0, 1, 0, 2), Text: ""},    // ac\nXYZ
				{Range: rng(0, 0, 0, 0), Text: "> "},  // > ac\nXYZ
			},
			want: "> ac\nXYZ",
		},
		{
			name:    "range-less change in the middle replaces the whole text",
			content: "old\ntext",
			changes: []Change{
				{Range: rng(0, 0, 0, 3), Text: "gone"},
				{Text: "new\ntext"},
				{Range: rng(1, 0, 1, 0), Text: "+"},
			},
			want: "new\n+text",
		},
		// Clamping and odd ranges.
		{
			name:    "no changes",
			content: "same",
			want:    "same",
		},
		{
			name:    "line past the end appends",
			content: "a\n",
			changes: []Change{{Range: rng(5, 0, 6, 0), Text: "z"}},
			want:    "a\nz",
		},
		{
			name:    "end line past the end deletes to the end",
			content: "a\nbc\nd",
			changes: []Change{{Range: rng(1, 1, 9, 9), Text: ""}},
			want:    "a\nb",
		},
		{
			name:    "inverted range is an insert at its start",
			content: "abcdef",
			changes: []Change{{Range: rng(0, 4, 0, 1), Text: "_"}},
			want:    "abcd_ef",
		},
		{
			name:    "negative start line clamps to 0",
			content: "ab\ncd",
			changes: []Change{{Range: rng(-1, 5, 1, 1), Text: ""}},
			want:    "d",
		},
		{
			name:    "negative end line is offset 0: inverted, empty",
			content: "ab",
			changes: []Change{{Range: rng(-3, 0, -1, 3), Text: "x"}},
			want:    "xab",
		},
		{
			name:    "join lines across CRLF",
			content: "a\r\nb\r\nc",
			changes: []Change{{Range: rng(0, 1, 1, 0), Text: ""}},
			want:    "ab\r\nc",
		},
		{
			name:    "lone CR line ending",
			content: "a\rbc\rd",
			changes: []Change{{Range: rng(1, 1, 2, 0), Text: "-"}},
			want:    "a\rb-d",
		},
		{
			name:    "delete CR of CRLF cannot split it: end clamps before CR",
			content: "ab\r\ncd",
			changes: []Change{{Range: rng(0, 2, 0, 3), Text: ""}},
			want:    "ab\r\ncd",
		},
		{
			name:    "inside a surrogate pair snaps to its start",
			content: "🙂x",
			changes: []Change{{Range: rng(0, 1, 0, 3), Text: "y"}},
			want:    "y",
		},
		{
			name:    "invalid UTF-8 bytes are one unit each",
			content: "a\xff\xfeb",
			changes: []Change{{Range: rng(0, 2, 0, 3), Text: ""}},
			want:    "a\xffb",
		},
		{
			name:    "insert creating a CRLF joins the lines",
			content: "a\r",
			changes: []Change{
				{Range: rng(1, 0, 1, 0), Text: "\nb"},
				{Range: rng(1, 0, 1, 1), Text: "c"}, // line 1 is "b", not "" then "b"
			},
			want: "a\r\nc",
		},
		{
			name:    "empty document",
			content: "",
			changes: []Change{{Range: rng(0, 0, 0, 0), Text: "x"}, {Range: rng(0, 1, 0, 1), Text: "🙂"}, {Range: rng(0, 2, 0, 3), Text: "!"}},
			want:    "x!",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.content)
			got := ApplyChanges(in, tt.changes)
			if string(got) != tt.want {
				t.Errorf("ApplyChanges(%q, %s) = %q, want %q", tt.content, fmtChanges(tt.changes), got, tt.want)
			}
			if string(in) != tt.content {
				t.Errorf("input modified: %q", in)
			}
			// The reference model agrees (so the fuzz target's oracle is
			// itself pinned by these exact values).
			if ref := refApply([]byte(tt.content), tt.changes); string(ref) != tt.want {
				t.Errorf("refApply = %q, want %q", ref, tt.want)
			}
		})
	}
}

// TestApplyChangesStepwise replays an editing session one change at a time
// and compares the buffer to a full resync (the text an editor would send
// on a full sync) after each step.
func TestApplyChangesStepwise(t *testing.T) {
	steps := []struct {
		change Change
		full   string
	}{
		{Change{Text: "@a 1\r\n@b 2\r\n"}, "@a 1\r\n@b 2\r\n"},
		{Change{Range: rng(0, 99, 0, 99), Text: "0"}, "@a 10\r\n@b 2\r\n"},
		{Change{Range: rng(2, 0, 2, 0), Text: `@t "aé🙂b"`}, "@a 10\r\n@b 2\r\n@t \"aé🙂b\""},
		{Change{Range: rng(2, 5, 2, 8), Text: ""}, "@a 10\r\n@b 2\r\n@t \"ab\""},
		{Change{Range: rng(1, 0, 1, 0), Text: "\t"}, "@a 10\r\n\t@b 2\r\n@t \"ab\""},
		{Change{Range: rng(1, 1, 1, 2), Text: "#"}, "@a 10\r\n\t#b 2\r\n@t \"ab\""},
		{Change{Range: rng(0, 5, 2, 0), Text: "\n"}, "@a 10\n@t \"ab\""},
	}
	buf := []byte{}
	for i, s := range steps {
		buf = ApplyChanges(buf, []Change{s.change})
		if string(buf) != s.full {
			t.Fatalf("step %d: buffer %q, full resync %q", i, buf, s.full)
		}
	}
}

// TestApplyChangesRuns covers the changes an editor sends bottom to top
// in one notification (a multi-cursor edit, a replace-all), which
// applyRun applies in one copy, and the cases where it must stop and let
// the next change resolve in the text the previous ones left.
func TestApplyChangesRuns(t *testing.T) {
	tests := []struct {
		name    string
		enc     Encoding
		content string
		changes []Change
		want    string
	}{
		{
			name:    "replace-all, bottom to top",
			content: "x1\nx2\r\nx3\n",
			changes: []Change{
				{Range: rng(2, 0, 2, 1), Text: "yy"},
				{Range: rng(1, 0, 1, 1), Text: "yy"},
				{Range: rng(0, 0, 0, 1), Text: "yy"},
			},
			want: "yy1\nyy2\r\nyy3\n",
		},
		{
			name:    "three cursors on one line after 🙂, utf-16",
			content: "🙂abc",
			changes: []Change{
				{Range: rng(0, 5, 0, 5), Text: "-"},
				{Range: rng(0, 4, 0, 4), Text: "-"},
				{Range: rng(0, 3, 0, 3), Text: "-"},
			},
			want: "🙂a-b-c-",
		},
		{
			name:    "the same cursors in utf-8 (🙂 is 4 bytes)",
			enc:     UTF8,
			content: "🙂abc",
			changes: []Change{
				{Range: rng(0, 7, 0, 7), Text: "-"},
				{Range: rng(0, 6, 0, 6), Text: "-"},
				{Range: rng(0, 5, 0, 5), Text: "-"},
			},
			want: "🙂a-b-c-",
		},
		{
			name:    "a deletion across lines, then an edit above it",
			content: "a\nb\nc\nd",
			changes: []Change{
				{Range: rng(1, 1, 3, 0), Text: ""}, // a\nbd
				{Range: rng(0, 0, 0, 1), Text: "A"},
			},
			want: "A\nbd",
		},
		{
			name:    "clamped past the line end onto the previous insert",
			content: "ab\ncd",
			changes: []Change{
				{Range: rng(1, 5, 1, 9), Text: "X"}, // clamps to 1:2: ab\ncdX
				{Range: rng(1, 1, 1, 4), Text: "Y"}, // 1:1-1:4 in that text: "dX"
			},
			want: "ab\ncY",
		},
		{
			name:    "an insert completes the character before it",
			content: "\xf0\x9f",
			changes: []Change{
				{Range: rng(0, 2, 0, 2), Text: "\x99\x82"}, // 🙂, one character
				{Range: rng(0, 1, 0, 1), Text: "|"},        // inside 🙂's surrogate pair: before it
			},
			want: "|🙂",
		},
		{
			name:    "replace-all top to bottom, each in the text before it left",
			content: "x1\nx2\r\nx3\nx4",
			changes: []Change{
				{Range: rng(0, 0, 0, 1), Text: "a\nb"},   // a\nb1\nx2\r\nx3\nx4
				{Range: rng(2, 0, 3, 0), Text: ""},       // a\nb1\nx3\nx4
				{Range: rng(3, 0, 3, 1), Text: "\r\n\r"}, // a\nb1\nx3\n\r\n\r4
			},
			want: "a\nb1\nx3\n\r\n\r4",
		},
		{
			name:    "top to bottom, past the last line",
			content: "a\nb",
			changes: []Change{
				{Range: rng(0, 0, 0, 1), Text: "A"},
				{Range: rng(7, 0, 9, 0), Text: "!"},
			},
			want: "A\nb!",
		},
		{
			name:    "an insert that joins a \\r and a \\n ends the run",
			content: "a\rb\nc\nd\ne",
			changes: []Change{
				{Range: rng(1, 0, 1, 0), Text: "\n"}, // a\r\nb\nc\nd\ne: still five lines
				{Range: rng(3, 0, 3, 1), Text: "D"},  // line 3 is d
			},
			want: "a\r\nb\nc\nD\ne",
		},
		{
			name:    "a full replace in the middle ends the run",
			content: "abc",
			changes: []Change{
				{Range: rng(0, 2, 0, 3), Text: "C"},
				{Text: "new\n"},
				{Range: rng(1, 0, 1, 0), Text: "end"},
				{Range: rng(0, 0, 0, 1), Text: "N"},
			},
			want: "New\nend",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ApplyChangesIn(tc.enc, []byte(tc.content), tc.changes)
			if string(got) != tc.want {
				t.Errorf("ApplyChangesIn = %q, want %q", got, tc.want)
			}
			cur := []byte(tc.content)
			for _, c := range tc.changes {
				cur = applyOne(tc.enc, cur, c)
			}
			if string(cur) != tc.want {
				t.Errorf("one at a time = %q, want %q", cur, tc.want)
			}
		})
	}
}
