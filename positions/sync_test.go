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
