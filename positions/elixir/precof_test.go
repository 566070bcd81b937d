package elixir

import "testing"

// TestPrecOfIsBinPrec: precOf answers as the binPrec map does, for every
// operator of the map and for the punctuation it rejects without hashing.
func TestPrecOfIsBinPrec(t *testing.T) {
	ops := []string{",", ":", ";", "(", ")", "[", "]", "{", "}", ".", "%", "@", "&", "^", "!", "~", "%{", "=>", "..."}
	for op := range binPrec {
		ops = append(ops, op)
	}
	for _, op := range ops {
		p, ok := precOf(op)
		wp, wok := binPrec[op]
		if p != wp || ok != wok {
			t.Errorf("precOf(%q) = %d, %v; binPrec: %d, %v", op, p, ok, wp, wok)
		}
	}
}
