package validate

import (
	"strings"
	"testing"
)

func TestRenderGolden(t *testing.T) {
	// Twelve offences over three actions (plus a lint Render must skip):
	// ten lines, then "... and 2 more offences".
	actions := acts(
		kw("list", schema("s1",
			kw("required", list("r", str("r0", "zz"), str("r1", "zz"))),
			kw("related", list("rel", atom("w0", "create"))))),
		kw("create", mp("s2",
			kw("example", list("e")),
			kw("properties", mp("p",
				sk("o", mp("po", sk("items", str("it", "string")))),
				kw("title", typed("pt", "string")))),
			kw("required_one_of", list("ro", list("g0"), list("g1", str("a", "o")), list("g2", str("b", "o")))))),
		kw("delete", str("v:delete", "nope")),
		sk("op", schema("s3", kw("notes", chl("n", "x")))),
	)
	offs := DefaultValidator().Declaration(actions)
	if len(offs) != 12 {
		t.Fatalf("got %d offences, want 12:\n%s", len(offs), strings.Join(sigs(offs), "\n"))
	}
	offs = append(offs, Offence{Code: LintUnknownType, Kind: KindLint, Action: ":create", Message: "lint", Severity: Warning})
	golden(t, "render.golden", Render("MyApp.Tools.Tasks", offs)+"\n")
}

func TestRender(t *testing.T) {
	one := []Offence{{Code: CodeUnknownKey, Kind: KindShape, Action: ":create", Message: "unknown key :example", Fix: "did you mean :examples?", Severity: Error}}
	if got, want := Render("M", one), "M: 1 action-schema offence\n  action :create: unknown key :example; fix: did you mean :examples?"; got != want {
		t.Errorf("one offence:\n%s\nwant\n%s", got, want)
	}
	if got := Render("M", nil); got != "" {
		t.Errorf("no offence: %q", got)
	}
	if got := Render("M", []Offence{{Code: LintDuplicateKey, Severity: Hint}}); got != "" {
		t.Errorf("lints only: %q", got)
	}
	var eleven []Offence
	for range 11 {
		eleven = append(eleven, Offence{Kind: KindShape, Action: ":a", Location: ":properties", Message: "m", Severity: Error})
	}
	got := Render("M", eleven)
	if !strings.HasSuffix(got, "\n  action :a :properties: m\n  ... and 1 more offence") || strings.Count(got, "\n") != 11 {
		t.Errorf("eleven offences:\n%s", got)
	}
	unsorted := []Offence{
		{Kind: KindDefaults, Action: ":a", Message: "d", Severity: Error},
		{Kind: KindShape, Action: ":b", Message: "s", Severity: Error},
	}
	Render("M", unsorted)
	if unsorted[0].Message != "d" {
		t.Error("Render sorted its input in place")
	}
}

func TestSortOffences(t *testing.T) {
	offs := []Offence{
		{Kind: KindLint, Action: ":a", Message: "lint"},
		{Kind: KindDefaults, Action: ":a", Location: ":defaults", Message: "d"},
		{Kind: KindShape, Action: ":b", Location: "", Message: "b"},
		{Kind: KindShape, Action: ":a", Location: ":properties", Message: "a"},
		{Kind: KindShape, Action: ":a", Location: "", Message: "z"},
		{Kind: KindShape, Action: ":a", Location: "", Message: "y", Code: "first"},
		{Kind: KindShape, Action: ":a", Location: "", Message: "y", Code: "second"},
		{Kind: KindShape, Action: "", Message: "actions"},
	}
	SortOffences(offs)
	var got []string
	for _, o := range offs {
		got = append(got, o.Kind+"|"+o.Action+"|"+o.Location+"|"+o.Message+"|"+o.Code)
	}
	want := []string{
		"shape|||actions|", "shape|:a||y|first", "shape|:a||y|second", "shape|:a||z|",
		"shape|:a|:properties|a|", "shape|:b||b|", "defaults|:a|:defaults|d|", "lint|:a||lint|",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestInspect(t *testing.T) {
	tests := []struct {
		v    *Value
		max  int
		want string
	}{
		{nil, 0, "nil"},
		{opaque("o"), 0, "..."},
		{str("", "a\nb\"c\\#{x}"), 0, `"a\nb\"c\\\#{x}"`},
		{ustr("", "Item "), 0, `"Item #{...}"`},
		{chl("", "abc"), 0, `~c"abc"`},
		{atom("", "create"), 0, ":create"},
		{atom("", "a b"), 0, `:"a b"`},
		{num("", "0x1F"), 0, "0x1F"},
		{boolean("", false), 0, "false"},
		{&Value{Kind: Nil}, 0, "nil"},
		{&Value{Kind: Float, Text: "1.5"}, 0, "1.5"},
		{&Value{Kind: Tuple, Elems: []*Value{atom("", "ok"), num("", "1")}}, 0, "{:ok, 1}"},
		{list("", str("", "a"), atom("", "b")), 0, `["a", :b]`},
		{partial(list("", str("", "a"))), 0, `["a", ...]`},
		{partial(list("")), 0, `[...]`},
		{mp("", kw("description", str("", "x")), kw("a b", num("", "1"))), 0, `%{description: "x", "a b": 1}`},
		{mp("", kw("a", num("", "1")), sk("b", num("", "2"))), 0, `%{:a => 1, "b" => 2}`},
		{partial(mp("", kw("a", num("", "1")))), 0, `%{a: 1, ...}`},
		{mp(""), 0, `%{}`},
		{list("", str("", "aaaa"), str("", "bbbb"), str("", "cccc")), 10, `["aaaa", "...`},
		{str("", "ééééé"), 4, `"é...`},
	}
	for _, tc := range tests {
		if got := Inspect(tc.v, tc.max); got != tc.want {
			t.Errorf("Inspect(%+v, %d) = %s, want %s", tc.v, tc.max, got, tc.want)
		}
	}
}

func TestInspectAtomString(t *testing.T) {
	atoms := map[string]string{
		"create": ":create", "ok?": ":ok?", "a@b": ":a@b", "_x": ":_x", "Foo": ":Foo", "café": ":café",
		"a b": `:"a b"`, "a\nb": `:"a\nb"`, "1a": `:"1a"`, "": `:""`, "a?b": `:"a?b"`,
		"nil": "nil", "true": "true", "Elixir.A.B": "A.B", "+": ":+", "<>": ":<>", `a"b`: `:"a\"b"`,
	}
	for in, want := range atoms {
		if got := InspectAtom(in); got != want {
			t.Errorf("InspectAtom(%q) = %s, want %s", in, got, want)
		}
	}
	strs := map[string]string{
		"op": `"op"`, "a\nb": `"a\nb"`, "tab\t": `"tab\t"`, `q"`: `"q\""`, `\`: `"\\"`,
		"#{x}": `"\#{x}"`, "#x": `"#x"`, "é🙂": `"é🙂"`, "\x1b": `"\e"`, "\x00": "<<0>>", "\xff": "<<255>>",
	}
	for in, want := range strs {
		if got := InspectString(in); got != want {
			t.Errorf("InspectString(%q) = %s, want %s", in, got, want)
		}
	}
	if got := KeywordKey("a b"); got != `"a b":` {
		t.Errorf("KeywordKey = %s", got)
	}
}

func TestSummary(t *testing.T) {
	if got := Summary("create", "Create a task"); got != "create: Create a task" {
		t.Errorf("Summary = %q", got)
	}
}

func TestNearest(t *testing.T) {
	keys := DefaultCatalogue().Names()
	types := DefaultCatalogue().Types()
	tests := []struct {
		word   string
		cands  []string
		always bool
		want   string
		ok     bool
	}{
		{"example", keys, false, "examples", true},
		{"require", keys, false, "required", true},
		{"descripton", keys, false, "description", true},
		{"property", keys, false, "properties", true},
		{"relation", keys, false, "", false},
		{"exampel", keys, false, "examples", true},
		{"defs", keys, false, "", false},
		{"zzzzzzzz", keys, false, "", false},
		{"str", types, false, "string", true},
		{"strnig", types, false, "string", true},
		{"int", types, false, "integer", true},
		{"nmber", types, true, "number", true},
		{"float", types, false, "", false},
		{"description", keys, false, "", false},
		{strings.Repeat("a", 300), keys, true, "", false},
		{"x", nil, true, "", false},
	}
	for _, tc := range tests {
		got, ok := Nearest(tc.word, tc.cands, tc.always)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Nearest(%.20q) = %q, %v; want %q, %v", tc.word, got, ok, tc.want, tc.ok)
		}
	}
}
