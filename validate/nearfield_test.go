package validate

import (
	"strings"
	"testing"
)

// TestUndeclaredFieldNearMiss: a :required or :required_one_of name one
// typo from a declared property ("state" for "status") gets that name as
// its suggestion, unless the list already names it or the names are too
// short for a typo to tell them apart.
func TestUndeclaredFieldNearMiss(t *testing.T) {
	props := func(names ...string) *Value {
		var es []Entry
		for _, n := range names {
			es = append(es, sk(n, mp("p:"+n)))
		}
		return mp("p", es...)
	}
	tests := []struct {
		name  string
		props *Value
		key   string
		list  *Value
		want  string
	}{
		{"state for status", props("status"), "required", list("r", str("r0", "state")),
			`@r0 "status" | :required names "state", which :properties does not declare | did you mean "status"? else declare "state" in :properties or remove it from :required`},
		{"txt for text, in a group", props("stars", "text"), "required_one_of", list("ro", list("g", str("g0", "stars"), str("g1", "txt"))),
			`@g1 "text" | :required_one_of names "txt", which :properties does not declare | did you mean "text"? else declare "txt" in :properties or remove it from :required_one_of`},
		{"a prefix", props("name"), "required", list("r", str("r0", "na")),
			`@r0 "name" | :required names "na", which :properties does not declare | did you mean "name"? else declare "na" in :properties or remove it from :required`},
		{"the near name is already required", props("text"), "required", list("r", str("r0", "text"), str("r1", "txt")),
			`@r1 "" | :required names "txt", which :properties does not declare | declare "txt" in :properties or remove it from :required`},
		{"short names are not typos of each other", props("q", "p20", "p2"), "required", list("r", str("r0", "id"), str("r1", "p0")),
			`@r0 "" | :required names "id", which :properties does not declare | declare "id" in :properties or remove it from :required` + "\n" +
				`@r1 "" | :required names "p0", which :properties does not declare | declare "p0" in :properties or remove it from :required`},
	}
	v := New(DefaultCatalogue())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions := acts(kw("create", mp("s", kw("description", str("d", "x")), kw("properties", tt.props), kw(tt.key, tt.list))))
			var got []string
			for _, o := range v.Declaration(actions) {
				if o.Code == CodeUndeclaredField {
					got = append(got, "@"+tagOf(o.Pointer)+" "+InspectString(o.Suggestion)+" | "+o.Message+" | "+o.Fix)
				}
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("got\n%s\nwant\n%s", g, tt.want)
			}
		})
	}
}

// TestUndeclaredDefaultNearMiss: a default key one typo from a declared
// property that has no default yet ("limt" for "limit") gets that name as
// its suggestion, at the top level and in a nested object.
func TestUndeclaredDefaultNearMiss(t *testing.T) {
	tests := []struct {
		name     string
		props    *Value
		defaults *Value
		want     string
	}{
		{"limt for limit", mp("p", sk("limit", mp("pl"))), mp("d", sk("limt", num("d0", "10"))),
			`@k:"limt" "limit" | default key "limt" is not declared by :properties | did you mean "limit"? else declare "limt" in :properties or remove it from :defaults`},
		{"the near name has its default already", mp("p", sk("limit", mp("pl"))), mp("d", sk("limit", num("d0", "5")), sk("limt", num("d1", "10"))),
			`@k:"limt" "" | default key "limt" is not declared by :properties | declare "limt" in :properties or remove it from :defaults`},
		{"nested", mp("p", sk("opts", mp("po", sk("type", str("", "object")), sk("properties", mp("pp", sk("notify", mp("pn"))))))),
			mp("d", sk("opts", mp("do", sk("notfy", boolean("d0", true))))),
			`@k:"notfy" "notify" | default key "notfy" is not declared by :properties["opts"]["properties"] | did you mean "notify"? else declare "notfy" in :properties["opts"]["properties"] or remove it from :defaults["opts"]`},
	}
	v := New(DefaultCatalogue())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions := acts(kw("create", mp("s", kw("description", str("d", "x")), kw("properties", tt.props), kw("defaults", tt.defaults))))
			var got []string
			for _, o := range v.Declaration(actions) {
				if o.Code == CodeUndeclaredDefault {
					got = append(got, "@"+tagOf(o.Pointer)+" "+InspectString(o.Suggestion)+" | "+o.Message+" | "+o.Fix)
				}
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("got\n%s\nwant\n%s", g, tt.want)
			}
		})
	}
}
