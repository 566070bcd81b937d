package validate

import (
	"strings"
	"testing"
)

// TestNameDeclaredAsAtom: a :required or :required_one_of name that
// :properties declares as an atom key is reported against that key, with
// the property-name-not-string fix, not "declare it".
func TestNameDeclaredAsAtom(t *testing.T) {
	v := New(DefaultCatalogue())
	actions := acts(kw("create", mp("s",
		kw("description", str("d", "x")),
		kw("properties", mp("p", kw("title", mp("pt")), sk("name", mp("pn")))),
		kw("required", list("r", str("r0", "title"), str("r1", "name"), str("r2", "zz"))),
		kw("required_one_of", list("ro", list("g", str("g0", "title")))),
	)))
	var got []string
	for _, o := range v.Declaration(actions) {
		got = append(got, sig(o)+" | "+o.Message+" | "+o.Fix+" | "+o.RelatedMessage)
	}
	want := []string{
		`shape undeclared-field :create - @r0 ^k:title | :required names "title", but "title" is declared as the atom :title | write "title" => instead of title: | "title" is declared here as the atom :title (property-name-not-string)`,
		`shape undeclared-field :create - @r2 | :required names "zz", which :properties does not declare | declare "zz" in :properties or remove it from :required | `,
		`shape undeclared-field :create - @g0 ^k:title | :required_one_of names "title", but "title" is declared as the atom :title | write "title" => instead of title: | "title" is declared here as the atom :title (property-name-not-string)`,
		`shape property-name-not-string :create :properties @k:title | property name :title is not a string | write "title" => instead of title: | `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("offences:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
