package validate

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed catalogue.yaml
var catalogueYAML []byte

// KeyDoc documents one action-schema key (docs/rules.md §2), as the catalogue
// file states it.
type KeyDoc struct {
	// Name is the atom's name without the colon ("description").
	Name string `yaml:"name"`
	// Mandatory is true for :description and :properties.
	Mandatory bool `yaml:"mandatory"`
	// Type is the accepted type, in words.
	Type string `yaml:"type"`
	// Meaning says what wymcp does with the value.
	Meaning string `yaml:"meaning"`
	// Example is an Elixir example in keyword syntax.
	Example string `yaml:"example"`
	// Default is the Elixir value read when an optional key is absent; ""
	// for mandatory keys.
	Default string `yaml:"default"`
	// Snippet is the completion snippet in LSP snippet syntax
	// (`required: [$1]`).
	Snippet string `yaml:"snippet"`
}

// Atom returns the key as an inspected atom (":description").
func (k KeyDoc) Atom() string { return InspectAtom(k.Name) }

// Markdown renders the key's catalogue entry for a hover (LSP 3.17
// MarkupContent, kind markdown): name, mandatory or optional with the
// default, type, meaning and the example as an Elixir code block.
func (k KeyDoc) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**`%s`**", k.Atom())
	if k.Mandatory {
		b.WriteString(" (mandatory)")
	} else {
		b.WriteString(" (optional")
		if k.Default != "" {
			fmt.Fprintf(&b, ", default `%s`", k.Default)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, "\n\nType: %s\n\n%s\n\n```elixir\n%s\n```\n", k.Type, k.Meaning, k.Example)
	return b.String()
}

// KeywordDoc documents one JSON Schema 2020-12 keyword.
type KeywordDoc struct {
	// Name is the keyword as written in a string key ("additionalProperties").
	Name string `yaml:"name"`
	// Summary is a one-line description.
	Summary string `yaml:"summary"`
	// Walked is true for the keywords wymcp reads and validates
	// (docs/rules.md §4 "The nested walk"): properties, items, additionalProperties.
	Walked bool `yaml:"walked"`
}

// Markdown renders the keyword for a hover: its name, summary and whether
// wymcp reads it.
func (k KeywordDoc) Markdown() string {
	s := fmt.Sprintf("**`%s`** (JSON Schema 2020-12)\n\n%s\n", InspectString(k.Name), k.Summary)
	if k.Walked {
		s += "\nRead and checked by wymcp.\n"
	} else {
		s += "\nPassed through by wymcp, not checked.\n"
	}
	return s
}

// Catalogue is the parsed vocabulary: the action-schema keys, the JSON
// Schema keywords and type names. It is immutable; every accessor returns
// a copy. It is the one owner of the key list (docs/rules.md §2, §3).
type Catalogue struct {
	keys     []KeyDoc
	names    []string // the Name of each of keys, in the same order
	keywords []KeywordDoc
	types    []string
}

type catalogueFile struct {
	Keys     []KeyDoc     `yaml:"keys"`
	Keywords []KeywordDoc `yaml:"keywords"`
	Types    []string     `yaml:"types"`
}

var defaultCatalogue = sync.OnceValue(func() *Catalogue {
	c, err := parseCatalogue(catalogueYAML)
	if err != nil {
		panic(fmt.Sprintf("validate: embedded catalogue.yaml: %v", err))
	}
	return c
})

// DefaultCatalogue returns the catalogue embedded from catalogue.yaml,
// parsed once. It panics if the embedded file is malformed, which
// TestDefaultCatalogue guards against.
func DefaultCatalogue() *Catalogue { return defaultCatalogue() }

// parseCatalogue decodes and checks a catalogue file: unknown fields, empty
// or repeated names, keys without type, meaning, example or snippet, and
// optional keys without default are errors.
func parseCatalogue(data []byte) (*Catalogue, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f catalogueFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decode catalogue: %w", err)
	}
	if len(f.Keys) == 0 {
		return nil, errors.New("catalogue has no keys")
	}
	seen := map[string]bool{}
	for i, k := range f.Keys {
		switch {
		case k.Name == "":
			return nil, fmt.Errorf("key %d has no name", i)
		case seen[k.Name]:
			return nil, fmt.Errorf("key %q listed twice", k.Name)
		case k.Type == "" || k.Meaning == "" || k.Example == "" || k.Snippet == "":
			return nil, fmt.Errorf("key %q lacks type, meaning, example or snippet", k.Name)
		case !k.Mandatory && k.Default == "":
			return nil, fmt.Errorf("optional key %q has no default", k.Name)
		}
		seen[k.Name] = true
	}
	seen = map[string]bool{}
	for i, k := range f.Keywords {
		switch {
		case k.Name == "":
			return nil, fmt.Errorf("keyword %d has no name", i)
		case seen[k.Name]:
			return nil, fmt.Errorf("keyword %q listed twice", k.Name)
		case k.Summary == "":
			return nil, fmt.Errorf("keyword %q has no summary", k.Name)
		}
		seen[k.Name] = true
	}
	if len(f.Types) == 0 {
		return nil, errors.New("catalogue has no types")
	}
	names := make([]string, len(f.Keys))
	for i, k := range f.Keys {
		names[i] = k.Name
	}
	return &Catalogue{keys: f.Keys, names: names, keywords: f.Keywords, types: f.Types}, nil
}

// Keys returns the action-schema keys in catalogue order (docs/rules.md §2).
func (c *Catalogue) Keys() []KeyDoc { return slices.Clone(c.keys) }

// Key returns the key named name (without colon) and whether it exists.
func (c *Catalogue) Key(name string) (KeyDoc, bool) {
	for _, k := range c.keys {
		if k.Name == name {
			return k, true
		}
	}
	return KeyDoc{}, false
}

// Names returns the key names in catalogue order (a copy the caller may keep).
func (c *Catalogue) Names() []string { return slices.Clone(c.names) }

// Mandatory returns the names of the mandatory keys in catalogue order.
func (c *Catalogue) Mandatory() []string {
	var out []string
	for _, k := range c.keys {
		if k.Mandatory {
			out = append(out, k.Name)
		}
	}
	return out
}

// Keywords returns the JSON Schema 2020-12 keywords in catalogue order.
func (c *Catalogue) Keywords() []KeywordDoc { return slices.Clone(c.keywords) }

// Keyword returns the keyword named name and whether it exists.
func (c *Catalogue) Keyword(name string) (KeywordDoc, bool) {
	for _, k := range c.keywords {
		if k.Name == name {
			return k, true
		}
	}
	return KeywordDoc{}, false
}

// Types returns the seven JSON Schema type names.
func (c *Catalogue) Types() []string { return slices.Clone(c.types) }

func (c *Catalogue) keywordNames() []string {
	out := make([]string, len(c.keywords))
	for i, k := range c.keywords {
		out[i] = k.Name
	}
	return out
}
