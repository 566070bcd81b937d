package positions

import (
	"fmt"
	"strings"
	"testing"
)

// benchContent returns a 13,000-line document shaped like a generated tool
// module (about 550 KB); when mixed, every tenth line holds "é" and "🙂" so
// that it leaves the ASCII fast path.
func benchContent(mixed bool) []byte {
	// About 42-byte lines: 13,000 of them make about 550 KB.
	var b strings.Builder
	for i := range 13000 {
		switch {
		case mixed && i%10 == 0:
			fmt.Fprintf(&b, "      \"description\" => \"caf\u00e9 %05d 🙂 text\",\n", i)
		default:
			fmt.Fprintf(&b, "      \"p_%05d\" => %%{\"type\" => \"string\"},\n", i)
		}
	}
	return []byte(b.String())
}

// benchOffsets returns 1,024 byte offsets spread over content.
func benchOffsets(content []byte) []int {
	offs := make([]int, 1024)
	for i := range offs {
		offs[i] = (i * 7919 * 61) % len(content)
	}
	return offs
}

func BenchmarkNewMapper(b *testing.B) {
	content := benchContent(true)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		NewMapper(content)
	}
}

func BenchmarkPosition(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		b.Run(fmt.Sprintf("mixed=%v", mixed), func(b *testing.B) {
			m := NewMapper(benchContent(mixed))
			offs := benchOffsets(m.Content())
			i := 0
			for b.Loop() {
				m.Position(offs[i%len(offs)])
				i++
			}
		})
	}
}

func BenchmarkOffset(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		b.Run(fmt.Sprintf("mixed=%v", mixed), func(b *testing.B) {
			m := NewMapper(benchContent(mixed))
			var ps []pos
			for _, off := range benchOffsets(m.Content()) {
				l, c := m.Position(off)
				ps = append(ps, pos{l, c})
			}
			i := 0
			for b.Loop() {
				p := ps[i%len(ps)]
				m.Offset(p.line, p.char)
				i++
			}
		})
	}
}

// BenchmarkApplyChanges types one character near the end of the
// 13,000-line document: one scan plus one copy of the content.
func BenchmarkApplyChanges(b *testing.B) {
	content := benchContent(true)
	changes := []Change{{Range: rng(12990, 20, 12990, 20), Text: "x"}}
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		ApplyChanges(content, changes)
	}
}

// BenchmarkApplyChangesReplaceAll is one didChange that replaces a word on
// every line of the 13,000-line document, as editors send a replace-all or
// a multi-cursor edit: bottom to top (VS Code), each change's positions
// unshifted by the ones before it (applyDescending), and top to bottom
// (Helix, Neovim), each counted in the text the ones before it left
// (applyAscending). Each takes one line index and one copy for the whole
// notification, where applying the 13,000 changes one at a time copied the
// content 13,000 times (seconds).
func BenchmarkApplyChangesReplaceAll(b *testing.B) {
	content := benchContent(false)
	m := NewMapper(content)
	var down, up []Change
	for line := 0; line < m.LineCount()-1; line++ {
		// `"p_00042"` at character 6: 9 bytes replaced by 10.
		up = append(up, Change{Range: rng(line, 6, line, 15), Text: `"q_000042"`})
	}
	for i := len(up) - 1; i >= 0; i-- {
		down = append(down, up[i])
	}
	b.Run("bottom-to-top", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			ApplyChanges(content, down)
		}
	})
	b.Run("top-to-bottom", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for b.Loop() {
			ApplyChanges(content, up)
		}
	})
}
