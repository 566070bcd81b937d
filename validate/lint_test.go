package validate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func lintSig(o Offence) string {
	return o.Severity.String() + " " + sig(o) + " | " + o.Message + " | " + o.Fix
}

func TestLints(t *testing.T) {
	tests := []struct {
		name    string
		actions *Value
		want    []string
	}{
		{"clean", acts(kw("create", schema("s",
			kw("required", list("r", str("r0", "name"))),
			kw("defaults", mp("df", sk("id", num("i", "1")))),
			kw("related", list("rel", str("rel0", "list"))))),
			kw("list", schema("s2"))), nil},
		{"related-unknown-action", acts(kw("create", schema("s",
			kw("related", list("rel", str("rel0", "lst"), str("rel1", "create"), str("rel2", "zzzzzz"), ustr("rel3", "x"), opaque("rel4"))))),
			kw("list", schema("s2"))),
			[]string{
				`warning lint lint/related-unknown-action :create - @rel0 | :related names "lst", which is not an action of this tool | did you mean "list"?`,
				`warning lint lint/related-unknown-action :create - @rel2 | :related names "zzzzzz", which is not an action of this tool | remove it, or declare that action`,
			}},
		{"related: not when the actions map may hold more actions", partial(acts(kw("create", schema("s",
			kw("related", list("rel", str("rel0", "lst"))))))), nil},
		{"default-for-required", acts(kw("create", schema("s",
			kw("required", list("r", str("r0", "name"))),
			kw("defaults", mp("df", sk("name", str("n", "x")), sk("id", num("i", "1"))))))),
			[]string{`warning lint lint/default-for-required :create :defaults @k:"name" | the default for "name" never applies: :required makes callers send it, and :required is checked before defaults merge | remove "name" from :defaults or from :required`}},
		{"unknown-type and unknown-keyword, nested", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			kw("properties", mp("p",
				sk("a", mp("pa", sk("type", str("t", "str")), sk("descripton", str("x", "y")), sk("x-custom-thing", num("n", "1")))),
				sk("b", mp("pb", sk("type", list("tl", str("t1", "integer"), str("t2", "strnig"), ustr("t3", "x"))),
					sk("items", mp("pbi", sk("type", str("t4", "nmber")))))),
				sk("c", mp("pc", sk("type", opaque("t5")), sk("properties", mp("pcp", sk("d", mp("pd", sk("typ", str("t6", "string"))))))))))))),
			[]string{
				`hint lint lint/unknown-keyword :create :properties["a"] @k:"descripton" | "descripton" is not a JSON Schema 2020-12 keyword | did you mean "description"?`,
				`warning lint lint/unknown-type :create :properties["a"] @t | "type" "str" is not a JSON Schema type | did you mean "string"?`,
				`hint lint lint/unknown-keyword :create :properties["a"] @k:"x-custom-thing" | "x-custom-thing" is not a JSON Schema 2020-12 keyword | check the spelling; wymcp passes unknown keywords through unread`,
				`warning lint lint/unknown-type :create :properties["b"] @t2 | "type" "strnig" is not a JSON Schema type | did you mean "string"?`,
				`warning lint lint/unknown-type :create :properties["b"]["items"] @t4 | "type" "nmber" is not a JSON Schema type | did you mean "number"?`,
				`hint lint lint/unknown-keyword :create :properties["c"]["properties"]["d"] @k:"typ" | "typ" is not a JSON Schema 2020-12 keyword | did you mean "type"?`,
			}},
		{"duplicate-key everywhere, pointer at the later key", acts(
			Entry{Key: atom("k0:create", "create"), Value: schema("s0")},
			kw("create", mp("s",
				kw("description", str("d1", "x")),
				kw("description", str("d2", "y")),
				kw("properties", mp("p", sk("a", mp("pa", sk("type", str("t1", "string")), sk("type", str("t2", "string")))))),
				kw("examples", list("ex", mp("e0", sk("a", num("n1", "1")), sk("a", num("n2", "2")))))))),
			[]string{
				"warning lint lint/duplicate-key - - @k:create ^k0:create | key :create is written twice in this map; only the last one takes effect | remove the earlier :create",
				"warning lint lint/duplicate-key :create - @k:description ^k:description | key :description is written twice in this map; only the last one takes effect | remove the earlier :description",
				`warning lint lint/duplicate-key :create :examples @k:"a" ^k:"a" | key "a" is written twice in this map; only the last one takes effect | remove the earlier "a"`,
				`warning lint lint/duplicate-key :create :properties["a"] @k:"type" ^k:"type" | key "type" is written twice in this map; only the last one takes effect | remove the earlier "type"`,
			}},
		{"duplicate-key in a large map and under a string key of the schema", acts(kw("create", mp("s",
			kw("description", str("d", "x")),
			sk("extra", mp("x", sk("a", num("1", "1")), sk("a", num("2", "2")))),
			kw("properties", bigProps()),
		))), []string{
			`warning lint lint/duplicate-key :create :properties @k2:"p3" ^k:"p3" | key "p3" is written twice in this map; only the last one takes effect | remove the earlier "p3"`,
			`warning lint lint/duplicate-key :create ["extra"] @k:"a" ^k:"a" | key "a" is written twice in this map; only the last one takes effect | remove the earlier "a"`,
		}},
		{"never on opaque or unknown values", acts(kw("create", mp("s",
			kw("description", opaque("d")), Entry{Key: opaque("o1"), Value: num("1", "1")}, Entry{Key: opaque("o2"), Value: num("2", "2")},
			Entry{Key: ustr("u1", "x"), Value: num("3", "3")}, Entry{Key: ustr("u2", "x"), Value: num("4", "4")},
			kw("properties", opaque("p")), kw("related", opaque("r"))))), nil},
		{"not a map", list("actions"), nil},
	}
	v := DefaultValidator()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, o := range v.Lints(tc.actions) {
				got = append(got, lintSig(o))
				if o.Severity == Error || !strings.HasPrefix(o.Code, "lint/") {
					t.Errorf("%s has severity %v", o.Code, o.Severity)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestLintCodes(t *testing.T) {
	want := map[string]Severity{
		"lint/related-unknown-action": Warning, "lint/default-for-required": Warning,
		"lint/unknown-type": Warning, "lint/unknown-keyword": Hint, "lint/duplicate-key": Warning,
		"lint/unknown-tool-module": Warning, "lint/tool-not-mounted": Hint, "lint/tool-name": Warning,
		"lint/action-without-clause": Warning, "lint/clause-without-action": Warning,
		"lint/hint-unknown-tool": Warning, "lint/hint-unknown-action": Warning,
		"lint/payload-undeclared-key": Warning, "lint/payload-missing-required": Warning,
	}
	if got := LintCodes(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("LintCodes = %v, want %v", got, want)
	}
}

// bigProps is a properties map of 20 entries, "p3" written twice.
func bigProps() *Value {
	p := mp("p")
	for i := range 20 {
		p.Entries = append(p.Entries, sk(fmt.Sprint("p", i), typed(fmt.Sprint("pt", i), "string")))
	}
	p.Entries = append(p.Entries, Entry{Key: str(`k2:"p3"`, "p3"), Value: num("bad", "1")})
	return p
}

// TestLintBudgetPerAction: the lints' step budget is per action schema, as
// the Declaration walk's is (validator.go maxSteps), so a tool with many
// actions is linted to its last action. With one budget for the whole
// call, the lints of every action past about 65,536 visited nodes were
// dropped without a word.
func TestLintBudgetPerAction(t *testing.T) {
	a := benchActions(3000) // about 60 values per action: 180,000 in all
	props := a.Entries[len(a.Entries)-1].Value.GetAtom("properties")
	props.Entries = append(props.Entries, sk("x", typed("lastx", "strng")))
	var got []string
	for _, o := range DefaultValidator().Lints(a) {
		got = append(got, lintSig(o))
	}
	want := []string{`warning lint lint/unknown-type :a2999 :properties["x"] @lastx.type | "type" "strng" is not a JSON Schema type | did you mean "string"?`}
	if !slices.Equal(got, want) {
		t.Errorf("Lints:\n got %q\nwant %q", got, want)
	}
}
