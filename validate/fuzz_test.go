package validate

import (
	"fmt"
	"slices"
	"testing"
)

// fuzzWords feeds the generator names that reach deep into the rule chain.
var fuzzWords = []string{
	"description", "properties", "required", "required_one_of", "defaults", "notes", "related",
	"examples", "example", "items", "additionalProperties", "type", "string", "object", "name",
	"id", "opts", "a\nb", "", "é", "\xff",
}

// valueGen builds a Value tree from fuzz bytes. Every value gets a
// distinct, non-zero Origin (and every map an Open), so that every offence
// must carry a non-zero Pointer.
type valueGen struct {
	data []byte
	n    int
}

func (g *valueGen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *valueGen) origin() Origin { g.n++; return NewOrigin("", g.n, 0) }

func (g *valueGen) word() string { return fuzzWords[int(g.byte())%len(fuzzWords)] }

func (g *valueGen) value(depth int) *Value {
	b := g.byte()
	v := &Value{Origin: g.origin()}
	kind := Kind(b % 11)
	if depth > 6 && (kind == Map || kind == List || kind == Tuple) {
		kind = String
	}
	v.Kind = kind
	v.Partial = b&0x80 != 0
	v.Unknown = b&0x40 != 0 && (kind == String || kind == Atom)
	switch kind {
	case String, Atom, Charlist:
		v.Text = g.word()
	case Integer, Float:
		v.Text = "1"
	case Boolean:
		v.Bool = b&0x20 != 0
	case Map:
		v.SetOpen(int(g.byte() % 3))
		for n := int(g.byte() % 6); n > 0 && len(g.data) > 0; n-- {
			var k *Value
			if g.byte()%4 == 0 {
				k = g.value(depth + 1)
			} else {
				k = &Value{Kind: Atom, Text: g.word(), Origin: g.origin()}
				if g.byte()%2 == 0 {
					k.Kind = String
				}
			}
			v.Entries = append(v.Entries, Entry{Key: k, Value: g.value(depth + 1)})
		}
	case List, Tuple:
		for n := int(g.byte() % 5); n > 0 && len(g.data) > 0; n-- {
			v.Elems = append(v.Elems, g.value(depth+1))
		}
	}
	return v
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte{1})
	f.Add([]byte{9, 3, 1, 0, 0, 9, 2, 1, 0, 3, 0, 1, 1, 0, 9, 1, 1, 1, 2, 9, 1, 1, 19, 9, 0})
	f.Add([]byte("\x09\x05\x01\x02\x07\x01\x0b\x03\x02\x0c\x01\x04\x00\x0d\x03\x02\x0e"))
	v := DefaultValidator()
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &valueGen{data: data}
		actions := g.value(0)
		offs := v.Declaration(actions)
		again := v.Declaration(actions)
		if !slices.Equal(sigs(offs), sigs(again)) {
			t.Fatalf("Declaration is not deterministic:\n%q\n%q", sigs(offs), sigs(again))
		}
		lints := v.Lints(actions)
		for _, o := range append(offs, lints...) {
			if o.Pointer.IsZero() {
				t.Errorf("%s %s %s has no pointer", o.Code, o.Action, o.Location)
			}
			if (o.Code == CodeDuplicateEntry || o.Code == CodeDuplicateGroup || o.Code == LintDuplicateKey) && o.Related.IsZero() {
				t.Errorf("%s has no related origin", o.Code)
			}
			if o.Code == "" || o.Message == "" {
				t.Errorf("offence without code or message: %+v", o)
			}
		}
		for _, o := range offs {
			if o.Severity != Error || (o.Kind != KindShape && o.Kind != KindDefaults) {
				t.Errorf("%s: severity %v kind %q", o.Code, o.Severity, o.Kind)
			}
		}
		for _, o := range lints {
			if o.Severity == Error {
				t.Errorf("lint %s with severity error", o.Code)
			}
		}
		_ = Render("M", offs)
		_ = Inspect(actions, 0)
		_ = Inspect(actions, 40)
	})
}

// TestSharedDAGTerminates: a value shared twice at each of 40 levels has
// 2^40 paths; the walks' step budget must end them (the test would
// otherwise never finish). Offences past the budget are not reported.
func TestSharedDAGTerminates(t *testing.T) {
	inner := mp("leaf", sk("x", str("bad", "string")))
	for i := range 40 {
		s := mp(fmt.Sprint("s", i), sk("properties", inner))
		inner = mp(fmt.Sprint("p", i), sk("a", s), sk("b", s), sk("a", s))
	}
	actions := acts(kw("create", mp("s", kw("description", str("d", "x")), kw("properties", inner),
		kw("defaults", mp("df", sk("a", mp("dfa")))))))
	offs := DefaultValidator().Declaration(actions)
	if len(offs) == 0 || offs[0].Code != CodePropertySchemaNotMap {
		t.Errorf("got %d offences, first %v", len(offs), offs)
	}
	DefaultValidator().Lints(actions)
	if got := Inspect(actions, 0); len(got) > maxInspect+3 {
		t.Errorf("Inspect returned %d bytes", len(got))
	}
}
