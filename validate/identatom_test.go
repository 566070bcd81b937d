package validate

import (
	"testing"
)

// TestIsIdentAtomFastPath compares isIdentAtom with the rune rule on every
// name of up to 3 characters over an alphabet of each character class.
func TestIsIdentAtomFastPath(t *testing.T) {
	alpha := []string{"a", "Z", "_", "0", "9", "@", "?", "!", " ", ".", "-", ":", "é", "\xff"}
	names := []string{""}
	for l := 0; l < 3; l++ {
		for _, n := range names {
			if len([]rune(n)) != l {
				continue
			}
			for _, c := range alpha {
				names = append(names, n+c)
			}
		}
	}
	for _, n := range names {
		if got, want := isIdentAtom(n), identAtomByRunes(n); got != want {
			t.Errorf("isIdentAtom(%q) = %v, want %v", n, got, want)
		}
	}
	if len(names) != 1+14+14*14+14*14*14 {
		t.Fatalf("%d names", len(names))
	}
	for name, want := range map[string]string{"create": ":create", "ok?": ":ok?", "a b": `:"a b"`, "été": ":été", "1a": `:"1a"`} {
		if got := InspectAtom(name); got != want {
			t.Errorf("InspectAtom(%q) = %s, want %s", name, got, want)
		}
	}
}
