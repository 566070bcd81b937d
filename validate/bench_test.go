package validate

import (
	"fmt"
	"testing"
)

// benchActions builds a clean tool of n actions, each with five properties
// (one nested object), :required, :required_one_of, :defaults, :notes,
// :related and :examples: about 60 values per action.
func benchActions(n int) *Value {
	a := mp("actions")
	for i := range n {
		o := fmt.Sprint("a", i)
		a.Entries = append(a.Entries, kw(o, mp(o,
			kw("description", str(o+"d", "Do thing "+o)),
			kw("properties", mp(o+"p",
				sk("name", typed(o+"p1", "string")),
				sk("id", typed(o+"p2", "integer")),
				sk("tags", mp(o+"p3", sk("type", str(o+"t3", "array")), sk("items", typed(o+"p3i", "string")))),
				sk("limit", typed(o+"p4", "integer")),
				sk("opts", mp(o+"p5", sk("type", str(o+"t5", "object")),
					sk("properties", mp(o+"p5p", sk("notify", typed(o+"p5n", "boolean")))))))),
			kw("required", list(o+"r", str(o+"r0", "name"))),
			kw("required_one_of", list(o+"ro", list(o+"g0", str(o+"g0a", "id")), list(o+"g1", str(o+"g1a", "limit")))),
			kw("defaults", mp(o+"df", sk("opts", mp(o+"dfo", sk("notify", boolean(o+"f", false)))), sk("limit", num(o+"l", "10")))),
			kw("notes", str(o+"n", "Notes.\nMore.")),
			kw("related", list(o+"rel", str(o+"rel0", "a0"))),
			kw("examples", list(o+"ex", mp(o+"e0", sk("name", str(o+"x", "y"))))),
		)))
	}
	return a
}

func BenchmarkDeclaration1000(b *testing.B) {
	v := DefaultValidator()
	a := benchActions(1000)
	if offs := v.Declaration(a); len(offs) != 0 {
		b.Fatalf("bench tool is not clean: %v", sigs(offs)[:1])
	}
	b.ReportAllocs()
	for b.Loop() {
		v.Declaration(a)
	}
}

func BenchmarkLints1000(b *testing.B) {
	v := DefaultValidator()
	a := benchActions(1000)
	if offs := v.Lints(a); len(offs) != 0 {
		b.Fatalf("bench tool has lints: %v", offs[0])
	}
	b.ReportAllocs()
	for b.Loop() {
		v.Lints(a)
	}
}
