package validate

import "testing"

// TestSuggestion checks Offence.Suggestion, the bare name a quick fix
// writes: the nearest known key of an unknown key, the key of a
// vocabulary name written as a string, the absent mandatory key, and the
// nearest type, keyword or action name of the lints.
func TestSuggestion(t *testing.T) {
	v := DefaultValidator()
	acts := acts(
		kw("create", mp("s",
			kw("descripton", str("d", "x")),
			sk("notes", str("n", "y")),
			kw("zzzzzzzz", str("z", "y")),
			kw("properties", mp("p", sk("a", mp("pa", sk("tpye", str("t", "strnig")))))),
			kw("related", list("r", str("r0", "craete"))),
		)),
	)
	got := map[string]string{}
	for _, o := range append(v.Declaration(acts), v.Lints(acts)...) {
		got[o.Code+" "+o.Message] = o.Suggestion
	}
	want := map[string]string{
		"unknown-key unknown key :descripton":                                                      "description",
		`unknown-key unknown key "notes"`:                                                          "notes",
		"unknown-key unknown key :zzzzzzzz":                                                        "",
		"missing-key missing mandatory key :description":                                           "description",
		`lint/unknown-keyword "tpye" is not a JSON Schema 2020-12 keyword`:                         "type",
		`lint/related-unknown-action :related names "craete", which is not an action of this tool`: "create",
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s: suggestion %q (found %v), want %q; all: %q", k, g, ok, w, got)
		}
	}
	var types []string
	for _, o := range v.Lints(acts2()) {
		if o.Code == LintUnknownType {
			types = append(types, o.Suggestion)
		}
	}
	if len(types) != 1 || types[0] != "string" {
		t.Errorf("unknown-type suggestions %q, want [string]", types)
	}
}

func acts2() *Value {
	return acts(kw("a", mp("s", kw("description", str("d", "x")),
		kw("properties", mp("p", sk("a", typed("pa", "strnig")))))))
}
