package validate

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Value builders for tests. Origins are named tags (tag) so pointers are
// easy to check: keys get "k:<name>", maps also get Open "<origin>{". The
// empty name is the zero Origin.

// tag returns the test Origin named name.
func tag(name string) Origin { return NewOrigin(name, 0, 0) }

// mapTag returns the Origin of a test map named name: two units long, so
// that its Open (the first unit, see mp) reads "<name>{" in tagOf.
func mapTag(name string) Origin { return NewOrigin(name, 0, 2) }

// tagOf returns the name of a test Origin, "<nil>" for the zero Origin,
// and "<name>{" for the Open of a test map (mp).
func tagOf(o Origin) string {
	if o.IsZero() {
		return "<nil>"
	}
	name, a, b := o.Parts()
	if a == 0 && b == 1 {
		return name + "{"
	}
	return name
}

func str(o, s string) *Value  { return &Value{Kind: String, Text: s, Origin: tag(o)} }
func ustr(o, s string) *Value { return &Value{Kind: String, Text: s, Unknown: true, Origin: tag(o)} }
func atom(o, s string) *Value { return &Value{Kind: Atom, Text: s, Origin: tag(o)} }
func chl(o, s string) *Value  { return &Value{Kind: Charlist, Text: s, Origin: tag(o)} }
func num(o, s string) *Value  { return &Value{Kind: Integer, Text: s, Origin: tag(o)} }
func boolean(o string, b bool) *Value {
	return &Value{Kind: Boolean, Bool: b, Origin: tag(o)}
}
func opaque(o string) *Value { return &Value{Kind: Opaque, Origin: tag(o)} }

func mp(o string, es ...Entry) *Value {
	v := &Value{Kind: Map, Entries: es, Origin: mapTag(o)}
	v.SetOpen(1)
	return v
}

func partial(v *Value) *Value { v.Partial = true; return v }

func list(o string, es ...*Value) *Value { return &Value{Kind: List, Elems: es, Origin: tag(o)} }

// kw is an atom-keyed entry `name: v` (key origin "k:name").
func kw(name string, v *Value) Entry { return Entry{Key: atom("k:"+name, name), Value: v} }

// sk is a string-keyed entry `"name" => v` (key origin `k:"name"`).
func sk(name string, v *Value) Entry { return Entry{Key: str(`k:"`+name+`"`, name), Value: v} }

func typed(o, t string) *Value { return mp(o, sk("type", str(o+".type", t))) }

// acts is an actions map (origin "actions").
func acts(es ...Entry) *Value { return mp("actions", es...) }

// schema is an action schema of origin o with a description and a
// properties map declaring "name" and "id", plus extra entries.
func schema(o string, extra ...Entry) *Value {
	es := []Entry{
		kw("description", str("v:description", "Do it")),
		kw("properties", mp("v:properties",
			sk("name", typed("p:name", "string")),
			sk("id", typed("p:id", "integer")))),
	}
	return mp(o, append(es, extra...)...)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden (run with -update and review the diff):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
