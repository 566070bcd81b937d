package validate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sig is the compact, exact form a test asserts for one offence:
// "<kind> <code> <action> <location or -> @<pointer>[ ^<related>]".
func sig(o Offence) string {
	loc := o.Location
	if loc == "" {
		loc = "-"
	}
	act := o.Action
	if act == "" {
		act = "-"
	}
	s := fmt.Sprintf("%s %s %s %s @%s", o.Kind, o.Code, act, loc, tagOf(o.Pointer))
	if !o.Related.IsZero() {
		s += " ^" + tagOf(o.Related)
	}
	return s
}

func sigs(offs []Offence) []string {
	out := make([]string, len(offs))
	for i, o := range offs {
		out[i] = sig(o)
	}
	return out
}

type declCase struct {
	name    string
	actions *Value
	want    []string
}

func declCases() []declCase {
	nameOnly := func(o string, extra ...Entry) *Value { return schema(o, extra...) }
	return []declCase{
		// ---- clean ----
		{"clean: the docs/rules.md §1 example", acts(kw("create", mp("s",
			kw("description", str("v:d", "Create a task")),
			kw("properties", mp("v:p",
				sk("name", typed("p:name", "string")),
				sk("opts", mp("p:opts", sk("type", str("t", "object")),
					sk("properties", mp("p:opts.p", sk("notify", typed("p:notify", "boolean")))))))),
			kw("required", list("v:r", str("r0", "name"))),
			kw("defaults", mp("v:df", sk("opts", mp("df:opts", sk("notify", boolean("f", false)))))),
			kw("notes", str("v:n", "Long-form text.\n\nMay span lines.")),
			kw("related", list("v:rel", str("rel0", "list"))),
			kw("examples", list("v:ex", mp("ex0", sk("name", str("x", "buy milk"))))),
		)), kw("list", schema("s2"))), nil},
		{"clean: opaque values pass every type check", acts(kw("create", mp("s",
			kw("description", opaque("o1")), kw("properties", opaque("o2")),
			kw("required", opaque("o3")), kw("required_one_of", list("o4", opaque("o5"), list("g", opaque("o6")))),
			kw("defaults", opaque("o7")), kw("notes", opaque("o8")), kw("related", list("o9", opaque("o10"))),
			kw("examples", list("o11", opaque("o12"))),
		))), nil},
		{"clean: a key written twice, the last one valid", acts(kw("create", schema("s",
			kw("notes", num("n1", "1")), kw("notes", str("n2", "ok"))))), nil},
		{"clean: interpolated description without newline", acts(kw("create", mp("s",
			kw("description", ustr("v:d", "Create ")), kw("properties", mp("p"))))), nil},
		{"clean: type typo, enum opaque, type list, items bool, additionalProperties true", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p",
				sk("a", mp("pa", sk("type", str("t", "strnig")), sk("enum", opaque("en")))),
				sk("b", mp("pb", sk("type", list("tl", str("t1", "integer"), str("t2", "string"))))),
				sk("c", mp("pc", sk("items", boolean("it", true)), sk("additionalProperties", boolean("ap", true)))),
				sk("d", mp("pd", sk("additionalProperties", boolean("ap2", true)))))),
			kw("defaults", mp("df", sk("d", mp("dfd")))),
			kw("examples", list("ex", mp("e0", kw("data", mp("e0d", kw("sql", str("q", "select"))))))),
		))), nil},

		// ---- declaration level ----
		{"actions-not-map", list("actions"), []string{"shape actions-not-map - - @actions"}},
		{"actions opaque: nothing", opaque("actions"), nil},
		{"action-name-not-atom, schema still validated with the string name", acts(
			sk("op", mp("s", kw("description", str("d", "x")), kw("properties", mp("p")), kw("notes", num("n", "1"))))),
			[]string{
				`shape wrong-type "op" - @n`,
				`shape action-name-not-atom "op" - @k:"op"`,
			}},
		{"action-name-newline", acts(kw("a\nb", schema("s"))),
			[]string{`shape action-name-newline :"a\nb" - @k:a` + "\n" + `b`}},
		{"schema-not-map", acts(kw("create", str("v:create", "x"))),
			[]string{"shape schema-not-map :create - @v:create"}},
		{"opaque schema: nothing", acts(kw("create", opaque("v:create"))), nil},
		{"partial actions map still validates the actions it knows", partial(acts(kw("create", schema("s", kw("example", list("e")))))),
			[]string{"shape unknown-key :create - @k:example"}},

		// ---- unknown-key / missing-key ----
		{"unknown-key :example and :require", acts(kw("create", schema("s",
			kw("example", list("e")), kw("require", list("r"))))),
			[]string{"shape unknown-key :create - @k:example", "shape unknown-key :create - @k:require"}},
		{"unknown-key: a string key spelling a vocabulary key", acts(kw("create", mp("s",
			sk("description", str("d", "x")), kw("properties", mp("p"))))),
			[]string{
				"shape missing-key :create - @s{",
				`shape unknown-key :create - @k:"description"`,
			}},
		{"unknown-key: far from every key", acts(kw("create", schema("s", kw("zzzzzzzz", num("z", "1"))))),
			[]string{"shape unknown-key :create - @k:zzzzzzzz"}},
		{"missing-key: both, pointer at the %{", acts(kw("create", mp("s", kw("notes", str("n", "x"))))),
			[]string{"shape missing-key :create - @s{", "shape missing-key :create - @s{"}},
		{"missing-key: not on a partial map", acts(kw("create", partial(mp("s", kw("notes", str("n", "x")))))), nil},
		{"missing-key: not when a key is opaque", acts(kw("create", mp("s",
			Entry{Key: opaque("ok"), Value: str("x", "y")}, kw("properties", mp("p"))))), nil},
		{"missing-key: pointer falls back to Origin without Open", acts(kw("create",
			&Value{Kind: Map, Origin: tag("expr"), Entries: []Entry{kw("description", str("d", "x"))}})),
			[]string{"shape missing-key :create - @expr"}},

		// ---- :description / :notes ----
		{"description-newline (heredoc)", acts(kw("create", mp("s",
			kw("description", str("v:d", "Line one\nline two\n")), kw("properties", mp("p"))))),
			[]string{"shape description-newline :create - @v:d"}},
		{"description-newline: certain in the known parts of an interpolated string", acts(kw("create", mp("s",
			kw("description", ustr("v:d", "a\nb")), kw("properties", mp("p"))))),
			[]string{"shape description-newline :create - @v:d"}},
		{"wrong-type: charlist description, atom notes", acts(kw("create", mp("s",
			kw("description", chl("v:d", "x")), kw("properties", mp("p")), kw("notes", atom("v:n", "x"))))),
			[]string{"shape wrong-type :create - @v:d", "shape wrong-type :create - @v:n"}},

		// ---- :required ----
		{"wrong-type: each wrong :required element", acts(kw("create", schema("s",
			kw("required", list("r", atom("r0", "name"), chl("r1", "id"), str("r2", "name"), num("r3", "1")))))),
			[]string{"shape wrong-type :create - @r3", "shape wrong-type :create - @r0", "shape wrong-type :create - @r1"}},
		{"wrong-type: a charlist :required is not a list", acts(kw("create", schema("s", kw("required", chl("r", "name"))))),
			[]string{"shape wrong-type :create - @r"}},
		{"duplicate-entry and undeclared-field in :required", acts(kw("create", schema("s",
			kw("required", list("r", str("r0", "name"), str("r1", "zz"), str("r2", "name"), str("r3", "zz")))))),
			[]string{
				"shape duplicate-entry :create - @r2 ^r0",
				"shape duplicate-entry :create - @r3 ^r1",
				"shape undeclared-field :create - @r1",
			}},
		{"undeclared-field: not against a partial :properties", acts(kw("create", mp("s",
			kw("description", str("d", "x")), kw("properties", partial(mp("p"))),
			kw("required", list("r", str("r0", "zz")))))), nil},
		{"undeclared-field: not against an opaque :properties", acts(kw("create", mp("s",
			kw("description", str("d", "x")), kw("properties", opaque("p")),
			kw("required", list("r", str("r0", "zz")))))), nil},
		{"undeclared-field: not when :properties has an opaque key", acts(kw("create", mp("s",
			kw("description", str("d", "x")), kw("properties", mp("p", Entry{Key: opaque("pk"), Value: mp("pv")})),
			kw("required", list("r", str("r0", "zz")))))), nil},
		{"undeclared-field: not for an interpolated entry; known entries of a partial list still checked", acts(kw("create", schema("s",
			kw("required", partial(list("r", ustr("r0", "na"), str("r1", "zz"))))))),
			[]string{"shape undeclared-field :create - @r1"}},

		// ---- :required_one_of ----
		{"required_one_of: wrong types", acts(kw("create", schema("s",
			kw("required_one_of", list("ro", str("g0", "name"), list("g1", atom("g1e", "id"))))))),
			[]string{"shape wrong-type :create - @g1e", "shape wrong-type :create - @g0"}},
		{"required_one_of: not a list", acts(kw("create", schema("s", kw("required_one_of", mp("ro"))))),
			[]string{"shape wrong-type :create - @ro"}},
		{"empty-group", acts(kw("create", schema("s", kw("required_one_of", list("ro", list("g0"), list("g1", str("a", "id"))))))),
			[]string{"shape empty-group :create - @g0"}},
		{"duplicate-group (as sets), pointer at the later group", acts(kw("create", schema("s",
			kw("required_one_of", list("ro",
				list("g0", str("a", "id"), str("b", "name")),
				list("g1", str("c", "name"), str("d", "id")),
				list("g2", str("e", "id"), str("f", "name"))))))),
			[]string{"shape duplicate-group :create - @g2 ^g0", "shape duplicate-group :create - @g1 ^g0"}},
		{"superset-group, pointer at the larger group", acts(kw("create", schema("s",
			kw("required_one_of", list("ro",
				list("g0", str("a", "id"), str("b", "name")),
				list("g1", str("c", "name"))))))),
			[]string{"shape superset-group :create - @g0"}},
		{"superset-group: certain with a partial superset", acts(kw("create", schema("s",
			kw("required_one_of", list("ro",
				partial(list("g0", str("a", "id"), str("b", "name"))),
				list("g1", str("c", "name"))))))),
			[]string{"shape superset-group :create - @g0"}},
		{"no group claims that depend on unknown elements", acts(kw("create", schema("s",
			kw("required_one_of", list("ro",
				list("g0", str("a", "id"), str("b", "name")),
				partial(list("g1", str("c", "name"))),
				partial(list("g2", str("d", "id"))),
				list("g3", str("e", "id"), ustr("f", "x")),
				list("g4", str("g", "id"), opaque("h"))))))),
			nil},
		{"duplicate-entry and undeclared-field within a group", acts(kw("create", schema("s",
			kw("required_one_of", list("ro", list("g0", str("a", "id"), str("b", "id"), str("c", "zz"))))))),
			[]string{"shape undeclared-field :create - @c", "shape duplicate-entry :create - @b ^a"}},

		// ---- :related / :examples / :defaults type ----
		{"wrong-type: :related string, :examples element, :defaults list", acts(kw("create", schema("s",
			kw("related", str("rel", "list")),
			kw("examples", list("ex", mp("e0"), str("e1", "x"), opaque("e2"))),
			kw("defaults", list("df"))))),
			[]string{"shape wrong-type :create - @df", "shape wrong-type :create - @e1", "shape wrong-type :create - @rel"}},
		{"wrong-type: :related atom elements (each word of ~w()a)", acts(kw("create", schema("s",
			kw("related", list("rel", atom("w0", "list"), atom("w1", "show")))))),
			[]string{"shape wrong-type :create - @w0", "shape wrong-type :create - @w1"}},
		{"wrong-type: :examples not a list", acts(kw("create", schema("s", kw("examples", mp("ex"))))),
			[]string{"shape wrong-type :create - @ex"}},

		// ---- the nested walk ----
		{"property-name-not-string and property-schema-not-map", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p", kw("name", mp("pn")), sk("id", str("pid", "string")), sk("n", num("pnum", "1"))))))),
			[]string{
				"shape property-schema-not-map :create :properties @pid",
				"shape property-schema-not-map :create :properties @pnum",
				"shape property-name-not-string :create :properties @k:name",
			}},
		{"wrong-type in walked keywords, located at the schema map", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p",
				sk("o", mp("po", sk("items", str("it", "string")))),
				sk("l", mp("pl", sk("items", list("itl", mp("m0"), str("m1", "string"))))),
				sk("a", mp("pa", sk("additionalProperties", str("ap", "no")))),
				sk("q", mp("pq", sk("properties", list("pp"))))))))),
			[]string{
				`shape wrong-type :create :properties["a"] @ap`,
				`shape wrong-type :create :properties["l"] @m1`,
				`shape wrong-type :create :properties["o"] @it`,
				`shape wrong-type :create :properties["q"] @pp`,
			}},
		{"the walk descends into properties, items and additionalProperties", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p",
				sk("o", mp("po", sk("items", mp("poi", sk("properties", mp("poip", kw("a", mp("x1")))))))),
				sk("m", mp("pm", sk("additionalProperties", mp("pma", sk("items", num("n", "1")))))),
				sk("r", mp("pr", sk("properties", mp("prp", sk("s", mp("prs", sk("properties", mp("prsp", sk("t", str("t", "x"))))))))))))))),
			[]string{
				`shape wrong-type :create :properties["m"]["additionalProperties"] @n`,
				`shape property-name-not-string :create :properties["o"]["items"]["properties"] @k:a`,
				`shape property-schema-not-map :create :properties["r"]["properties"]["s"]["properties"] @t`,
			}},
		{"the walk does not descend into a list of items, $defs or other keywords", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p",
				sk("o", mp("po", sk("items", list("itl", mp("m0", sk("properties", num("n", "1"))))),
					sk("$defs", mp("defs", sk("x", num("n2", "1")))),
					sk("oneOf", list("one", num("n3", "1")))))))))),
			nil},
		{"atom-schema-keyword", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p", sk("o", mp("po",
				kw("items", mp("i")), kw("properties", mp("pp")), kw("additionalProperties", boolean("b", false)),
				kw("type", str("t", "object"))))))))),
			[]string{
				`shape atom-schema-keyword :create :properties["o"] @k:additionalProperties`,
				`shape atom-schema-keyword :create :properties["o"] @k:items`,
				`shape atom-schema-keyword :create :properties["o"] @k:properties`,
			}},
		{"nested walk: partial and opaque parts pass", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", partial(mp("p", sk("o", opaque("po")), sk("q", partial(mp("pq", sk("items", opaque("i"))))))))))),
			nil},

		// ---- defaults ----
		{"undeclared-default at the top, default-key-not-string", acts(kw("create", nameOnly("s",
			kw("defaults", mp("df", sk("zz", num("z", "1")), kw("name", str("n", "x")), sk("id", num("i", "1"))))))),
			[]string{`defaults undeclared-default :create :defaults @k:"zz"`, "defaults default-key-not-string :create :defaults @k:name"}},
		{"undeclared-default nested: closed, open, additionalProperties schema, items", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p",
				sk("opts", mp("po", sk("properties", mp("pop", sk("notify", typed("pn", "boolean")))))),
				sk("open", mp("pop2", sk("properties", mp("pop2p")), sk("additionalProperties", boolean("t", true)))),
				sk("free", typed("pf", "object")),
				sk("labels", mp("pl", sk("additionalProperties", mp("pla", sk("properties", mp("plap", sk("v", typed("pv", "string")))))))),
				sk("tags", mp("pt", sk("items", mp("pti", sk("properties", mp("ptip", sk("a", typed("pa", "string")))))))))),
			kw("defaults", mp("df",
				sk("opts", mp("dfo", sk("notify", boolean("f", false)), sk("loud", boolean("l", true)))),
				sk("open", mp("dfop", sk("anything", num("x", "1")))),
				sk("free", mp("dff", sk("anything", num("y", "1")), kw("bad", num("y2", "1")))),
				sk("labels", mp("dfl", sk("k1", mp("dfl1", sk("v", str("v", "x")), sk("w", str("w", "x")))))),
				sk("tags", list("dft", mp("dft0", sk("a", str("a", "x")), sk("b", str("b", "x")))))))))),
			[]string{
				`defaults default-key-not-string :create :defaults["free"] @k:bad`,
				`defaults undeclared-default :create :defaults["labels"]["k1"] @k:"w"`,
				`defaults undeclared-default :create :defaults["opts"] @k:"loud"`,
				`defaults undeclared-default :create :defaults["tags"] @k:"b"`,
			}},
		{"defaults: not checked when the action has a shape offence", acts(kw("create", nameOnly("s",
			kw("notes", num("n", "1")), kw("defaults", mp("df", sk("zz", num("z", "1"))))))),
			[]string{"shape wrong-type :create - @n"}},
		{"defaults: no undeclared-default against partial or opaque properties", acts(
			kw("a", mp("s1", kw("description", str("d", "x")), kw("properties", partial(mp("p"))),
				kw("defaults", mp("df", sk("zz", num("z", "1")))))),
			kw("b", mp("s2", kw("description", str("d", "x")), kw("properties", opaque("p2")),
				kw("defaults", mp("df2", sk("zz", num("z", "1")), kw("k", num("k", "1")))))),
			kw("c", mp("s3", kw("description", str("d", "x")),
				kw("properties", mp("p3", sk("o", partial(mp("po", sk("properties", mp("pop"))))),
					sk("q", mp("pq", sk("properties", partial(mp("pqp"))))),
					sk("r", mp("pr", sk("properties", mp("prp")), sk("additionalProperties", opaque("ap")))))),
				kw("defaults", mp("df3", sk("o", mp("d1", sk("x", num("x", "1")))), sk("q", mp("d2", sk("x", num("x", "1")))),
					sk("r", mp("d3", sk("x", num("x", "1"))))))))),
			[]string{"defaults default-key-not-string :b :defaults @k:k"}},

		{"a large map: the last of a repeated key takes effect", acts(kw("create", mp("s",
			kw("description", str("d", "x")), kw("properties", bigProps()),
			kw("required", list("r", str("r0", "p19"), str("r1", "p20")))))),
			[]string{"shape undeclared-field :create - @r1", "shape property-schema-not-map :create :properties @bad"}},

		// ---- sorting and sharing ----
		{"shape before defaults, then action, location, message", acts(
			kw("a", nameOnly("s1", kw("defaults", mp("df", sk("zz", num("z", "1")))))),
			kw("b", nameOnly("s2", kw("notes", num("n", "1")), kw("require", list("r"))))),
			[]string{"shape wrong-type :b - @n", "shape unknown-key :b - @k:require", `defaults undeclared-default :a :defaults @k:"zz"`}},
	}
}

func TestDeclaration(t *testing.T) {
	v := DefaultValidator()
	for _, tc := range declCases() {
		t.Run(tc.name, func(t *testing.T) {
			got := sigs(v.Declaration(tc.actions))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestDeclarationMessages pins the message and fix of every offence of the
// table above in testdata/messages.golden.
func TestDeclarationMessages(t *testing.T) {
	v := DefaultValidator()
	var b strings.Builder
	for _, tc := range declCases() {
		offs := v.Declaration(tc.actions)
		if len(offs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "# %s\n", tc.name)
		for _, o := range offs {
			fmt.Fprintf(&b, "%s\n    %s\n", o.Code, Line(o))
			if o.Severity != Error {
				t.Errorf("%s: severity %v, want error", o.Code, o.Severity)
			}
		}
	}
	golden(t, "messages.golden", b.String())
}

func TestEveryCodeCovered(t *testing.T) {
	v := DefaultValidator()
	seen := map[string]bool{}
	for _, tc := range declCases() {
		for _, o := range v.Declaration(tc.actions) {
			seen[o.Code] = true
		}
	}
	for _, c := range Codes() {
		if !seen[c] {
			t.Errorf("code %s not exercised by the declaration table", c)
		}
	}
}

func TestSharedValueOneOffencePerAction(t *testing.T) {
	shared := mp("@attr", kw("description", str("d", "x")), kw("properties", mp("p")), kw("examplez", list("e")))
	got := sigs(DefaultValidator().Declaration(acts(kw("a", shared), kw("b", shared), kw("c", shared))))
	want := []string{"shape unknown-key :a - @k:examplez", "shape unknown-key :b - @k:examplez", "shape unknown-key :c - @k:examplez"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnknownKeyFixes(t *testing.T) {
	tests := []struct {
		key  Entry
		want string
	}{
		{kw("example", list("e")), "did you mean :examples?"},
		{kw("require", list("e")), "did you mean :required?"},
		{kw("descripton", str("e", "x")), "did you mean :description?"},
		{kw("propertes", mp("e")), "did you mean :properties?"},
		{kw("required_one", list("e")), "did you mean :required_one_of?"},
		{sk("description", str("e", "x")), `write description: (an atom key) instead of "description" =>`},
		{sk("notez", str("e", "x")), "did you mean :notes?"},
		{kw("zzzzzzzz", str("e", "x")), "remove it; the keys are :description, :properties, :required, :required_one_of, :defaults, :notes, :related, :examples"},
	}
	for _, tc := range tests {
		offs := DefaultValidator().Declaration(acts(kw("create", schema("s", tc.key))))
		if len(offs) != 1 || offs[0].Code != CodeUnknownKey || offs[0].Fix != tc.want {
			t.Errorf("%s: got %+v, want one unknown-key with fix %q", tc.key.Key.Text, offs, tc.want)
		}
	}
}

func TestDeclarationNilAndEmpty(t *testing.T) {
	v := DefaultValidator()
	if got := v.Declaration(nil); got != nil {
		t.Errorf("nil: %v", got)
	}
	if got := v.Declaration(acts()); got != nil {
		t.Errorf("empty map: %v", got)
	}
	// Nil keys and values inside maps and lists are tolerated.
	got := sigs(v.Declaration(acts(Entry{}, kw("a", mp("s", Entry{}, kw("description", nil), kw("properties", mp("p", Entry{}))))))) // must not panic
	if len(got) != 0 {
		t.Errorf("nil parts: got %q, want none (a nil key makes the map open)", got)
	}
}

// TestConcurrentUse: one Validator serves many goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	v := DefaultValidator()
	cases := declCases()
	done := make(chan []string)
	for range 4 {
		go func() {
			var all []string
			for _, tc := range cases {
				all = append(all, sigs(v.Declaration(tc.actions))...)
				v.Lints(tc.actions)
			}
			done <- all
		}()
	}
	first := <-done
	for range 3 {
		if got := <-done; !slices.Equal(got, first) {
			t.Error("concurrent runs disagree")
		}
	}
}
