package validate

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestDefaultCatalogue(t *testing.T) {
	// Guards the panic of DefaultCatalogue: the embedded file must parse.
	if _, err := parseCatalogue(catalogueYAML); err != nil {
		t.Fatalf("embedded catalogue: %v", err)
	}
	c := DefaultCatalogue()
	if got, want := c.Names(), []string{"description", "properties", "required", "required_one_of", "defaults", "notes", "related", "examples"}; !slices.Equal(got, want) {
		t.Errorf("keys = %q, want %q (docs/rules.md §2 order)", got, want)
	}
	if got, want := c.Mandatory(), []string{"description", "properties"}; !slices.Equal(got, want) {
		t.Errorf("mandatory = %q, want %q", got, want)
	}
	if got, want := c.Types(), []string{"string", "number", "integer", "boolean", "object", "array", "null"}; !slices.Equal(got, want) {
		t.Errorf("types = %q, want %q", got, want)
	}
	// The JSON Schema 2020-12 keywords validate/catalogue.yaml must list, all of them.
	wantKW := strings.Fields(`type properties items additionalProperties enum const description title
		default examples format pattern minimum maximum exclusiveMinimum exclusiveMaximum multipleOf
		minLength maxLength minItems maxItems uniqueItems required minProperties maxProperties oneOf
		anyOf allOf not if then else $ref $defs $schema $id $comment patternProperties propertyNames
		dependentRequired dependentSchemas prefixItems contains minContains maxContains
		unevaluatedItems unevaluatedProperties contentEncoding contentMediaType contentSchema
		deprecated readOnly writeOnly $anchor $dynamicRef $dynamicAnchor $vocabulary`)
	if got := c.keywordNames(); !slices.Equal(got, wantKW) {
		t.Errorf("keywords = %q\nwant %q", got, wantKW)
	}
	var walked []string
	for _, k := range c.Keywords() {
		if k.Walked {
			walked = append(walked, k.Name)
		}
	}
	if want := []string{"properties", "items", "additionalProperties"}; !slices.Equal(walked, want) {
		t.Errorf("walked = %q, want %q", walked, want)
	}
	if _, ok := c.Keyword("$ref"); !ok {
		t.Error(`Keyword("$ref") not found`)
	}
	if _, ok := c.Keyword("nope"); ok {
		t.Error(`Keyword("nope") found`)
	}
	if _, ok := c.Key("example"); ok {
		t.Error(`Key("example") found`)
	}
}

func TestCatalogueImmutable(t *testing.T) {
	c := DefaultCatalogue()
	ks := c.Keys()
	ks[0].Name = "changed"
	kws := c.Keywords()
	kws[0].Name = "changed"
	ts := c.Types()
	ts[0] = "changed"
	if c.Keys()[0].Name != "description" || c.Keywords()[0].Name != "type" || c.Types()[0] != "string" {
		t.Error("accessors return the catalogue's own slices")
	}
}

// TestCatalogueText: every key has catalogue text, and the snippets are the
// ones completion must offer (README.md "Completion").
func TestCatalogueText(t *testing.T) {
	snippets := map[string]string{
		"description": `description: "$1"`, "properties": `properties: %{$1}`, "required": `required: [$1]`,
		"required_one_of": `required_one_of: [[$1]]`, "defaults": `defaults: %{$1}`, "notes": `notes: "$1"`,
		"related": `related: [$1]`, "examples": `examples: [%{data: %{$1}}]`,
	}
	for _, k := range DefaultCatalogue().Keys() {
		if k.Type == "" || k.Meaning == "" || k.Example == "" {
			t.Errorf(":%s lacks catalogue text: %+v", k.Name, k)
		}
		if !strings.HasPrefix(k.Example, KeywordKey(k.Name)+" ") {
			t.Errorf(":%s example %q does not write the key", k.Name, k.Example)
		}
		if k.Snippet != snippets[k.Name] {
			t.Errorf(":%s snippet = %q, want %q", k.Name, k.Snippet, snippets[k.Name])
		}
		if k.Mandatory == (k.Default != "") {
			t.Errorf(":%s: mandatory %v with default %q", k.Name, k.Mandatory, k.Default)
		}
		md := k.Markdown()
		for _, part := range []string{k.Atom(), k.Type, k.Meaning, k.Example} {
			if !strings.Contains(md, part) {
				t.Errorf(":%s Markdown lacks %q:\n%s", k.Name, part, md)
			}
		}
	}
	for _, k := range DefaultCatalogue().Keywords() {
		if k.Summary == "" || strings.Contains(k.Summary, "\n") {
			t.Errorf("keyword %q summary %q is not one line", k.Name, k.Summary)
		}
	}
}

func TestKeyMarkdown(t *testing.T) {
	k, _ := DefaultCatalogue().Key("required")
	want := "**`:required`** (optional, default `[]`)\n\nType: list of strings, no duplicates, each declared in :properties\n\n" +
		"Every listed field must be present in the call's data (AND). Checked on the caller's data before :defaults merge.\n\n" +
		"```elixir\nrequired: [\"name\"]\n```\n"
	if got := k.Markdown(); got != want {
		t.Errorf("Markdown =\n%s\nwant\n%s", got, want)
	}
	kw, _ := DefaultCatalogue().Keyword("items")
	if got := kw.Markdown(); !strings.Contains(got, "Read and checked by wymcp.") || !strings.HasPrefix(got, "**`\"items\"`**") {
		t.Errorf("keyword Markdown = %q", got)
	}
}

func TestParseCatalogueErrors(t *testing.T) {
	ok := "keys:\n  - {name: a, mandatory: true, type: t, meaning: m, example: 'a: 1', snippet: 'a: $1'}\ntypes: [string]\n"
	if _, err := parseCatalogue([]byte(ok)); err != nil {
		t.Fatalf("minimal catalogue: %v", err)
	}
	for name, in := range map[string]string{
		"not yaml":        "keys: [",
		"unknown field":   "keys:\n  - {name: a, mandatory: true, type: t, meaning: m, example: e, snippet: s, colour: red}\ntypes: [string]\n",
		"no keys":         "types: [string]\n",
		"unnamed key":     "keys:\n  - {mandatory: true, type: t, meaning: m, example: e, snippet: s}\ntypes: [string]\n",
		"repeated key":    "keys:\n  - {name: a, mandatory: true, type: t, meaning: m, example: e, snippet: s}\n  - {name: a, mandatory: true, type: t, meaning: m, example: e, snippet: s}\ntypes: [string]\n",
		"no meaning":      "keys:\n  - {name: a, mandatory: true, type: t, example: e, snippet: s}\ntypes: [string]\n",
		"no default":      "keys:\n  - {name: a, mandatory: false, type: t, meaning: m, example: e, snippet: s}\ntypes: [string]\n",
		"keyword summary": "keys:\n  - {name: a, mandatory: true, type: t, meaning: m, example: e, snippet: s}\nkeywords:\n  - {name: x}\ntypes: [string]\n",
		"no types":        "keys:\n  - {name: a, mandatory: true, type: t, meaning: m, example: e, snippet: s}\n",
	} {
		if _, err := parseCatalogue([]byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestKnownImpliesValidated: the validator table and the catalogue list
// the same keys (docs/rules.md §3), and NewValidator refuses a catalogue that
// does not match its table.
func TestKnownImpliesValidated(t *testing.T) {
	c := DefaultCatalogue()
	table := slices.Sorted(maps.Keys(keyChecks()))
	if want := slices.Sorted(slices.Values(c.Names())); !slices.Equal(table, want) {
		t.Errorf("validator table %q, catalogue %q", table, want)
	}
	extra, err := parseCatalogue([]byte(strings.Replace(string(catalogueYAML), "keys:\n",
		"keys:\n  - {name: colour, mandatory: false, type: t, meaning: m, example: 'colour: 1', default: '1', snippet: 'colour: $1'}\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewValidator(extra); err == nil || !strings.Contains(err.Error(), ":colour has no validator") {
		t.Errorf("NewValidator with an unvalidated key: err = %v", err)
	}
	fewer, err := parseCatalogue([]byte("keys:\n  - {name: description, mandatory: true, type: t, meaning: m, example: e, snippet: s}\ntypes: [string]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewValidator(fewer); err == nil {
		t.Error("NewValidator with validators the catalogue lacks: no error")
	}
	if _, err := NewValidator(nil); err == nil {
		t.Error("NewValidator(nil): no error")
	}
}

// fullSchema is a valid action schema carrying every catalogue key, each
// value an Origin of its own ("v:<key>").
func fullSchema(c *Catalogue, skip string, override map[string]*Value) *Value {
	valid := map[string]*Value{
		"description":     str("v:description", "Do it"),
		"properties":      mp("v:properties", sk("name", typed("p:name", "string"))),
		"required":        list("v:required", str("r0", "name")),
		"required_one_of": list("v:required_one_of", list("g0", str("g0e", "name"))),
		"defaults":        mp("v:defaults"),
		"notes":           str("v:notes", "More."),
		"related":         list("v:related", str("rel0", "create")),
		"examples":        list("v:examples", mp("ex0", sk("name", str("x", "y")))),
	}
	s := mp("s")
	for _, name := range c.Names() {
		if name == skip {
			continue
		}
		v := valid[name]
		if o, ok := override[name]; ok {
			v = o
		}
		s.Entries = append(s.Entries, kw(name, v))
	}
	return s
}

// TestWrongTypeEveryKey derives one cell per catalogue key: a wrong-type
// value is rejected with wrong-type at that value (docs/rules.md §3).
func TestWrongTypeEveryKey(t *testing.T) {
	c := DefaultCatalogue()
	v := DefaultValidator()
	if offs := v.Declaration(acts(kw("create", fullSchema(c, "", nil)))); len(offs) != 0 {
		t.Fatalf("full valid schema: %v", sigs(offs))
	}
	for _, name := range c.Names() {
		for _, bad := range []*Value{num("bad", "1"), boolean("bad", true), &Value{Kind: Tuple, Origin: tag("bad")}} {
			t.Run(name+"/"+bad.Kind.String(), func(t *testing.T) {
				got := sigs(v.Declaration(acts(kw("create", fullSchema(c, "", map[string]*Value{name: bad})))))
				want := []string{"shape wrong-type :create - @bad"}
				if !slices.Equal(got, want) {
					t.Errorf("got %q, want %q", got, want)
				}
			})
		}
	}
}

// TestMandatorySplit: dropping each mandatory key gives missing-key at the
// map's %{, dropping each optional key gives nothing.
func TestMandatorySplit(t *testing.T) {
	c := DefaultCatalogue()
	v := DefaultValidator()
	for _, k := range c.Keys() {
		got := sigs(v.Declaration(acts(kw("create", fullSchema(c, k.Name, nil)))))
		var want []string
		if k.Mandatory {
			want = []string{"shape missing-key :create - @s{"}
		}
		// Without :properties, "name" is no longer certainly declared: no
		// undeclared-field claim is made against an absent map.
		if !slices.Equal(got, want) {
			t.Errorf("without :%s: got %q, want %q", k.Name, got, want)
		}
	}
}

func TestNewPanicsOnMismatch(t *testing.T) {
	if New(DefaultCatalogue()) == nil {
		t.Fatal("New(DefaultCatalogue()) = nil")
	}
	defer func() {
		if recover() == nil {
			t.Error("New(nil) did not panic")
		}
	}()
	New(nil)
}
