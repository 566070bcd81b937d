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

// TestOpInfosAreTables: the operator table binaryOp reads by token index
// answers as binPrec, rightAssoc and lineContinues do for every text of
// opTexts (an operator token's text index).
func TestOpInfosAreTables(t *testing.T) {
	for k := len(opTexts); k < len(opInfos); k++ {
		if opInfos[k] != (opInfo{}) {
			t.Errorf("opInfos[%d], past opTexts, = %+v", k, opInfos[k])
		}
	}
	binary := 0
	for k, op := range opTexts {
		p, ok := binPrec[op]
		in := opInfos[k]
		if int(in.prec) != p || (in.prec != 0) != ok || in.right != rightAssoc[op] || in.cont != lineContinues[op] {
			t.Errorf("opInfos[%d] (%q) = %+v; tables: %d, %v, %v, %v", k, op, in, p, ok, rightAssoc[op], lineContinues[op])
		}
		if ok {
			binary++
		}
	}
	if binary < 40 {
		t.Errorf("only %d binary operators among opTexts", binary)
	}
}
