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
