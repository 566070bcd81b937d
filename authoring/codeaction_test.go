package authoring

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

const editURI = "untitled:t.ex"

// editTool wraps an actions/0 body in a tool module.
func editTool(body string) string {
	return "defmodule T do\n  use Wymcp.Tool\n" + body + "\nend\n"
}

// fixesAt returns the fixes offered at the first occurrence of at (the
// whole of it) in text, rendered "title [*]| text after the edits".
func fixesAt(t *testing.T, text, at string) []string {
	t.Helper()
	i := strings.Index(text, at)
	if i < 0 {
		t.Fatalf("%q not in the text", at)
	}
	snap := editSnap(t, editURI, map[string]string{editURI: text})
	var out []string
	for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + len(at)}) {
		star := ""
		if fx.Preferred {
			star = " *"
		}
		out = append(out, fmt.Sprintf("%s%s [%s]| %s", fx.Title, star, fx.Code, after(text, fx.Edits)))
	}
	return out
}

// after returns the line of text that the first edit touches, after the
// edits (enough to see each fix).
func after(text string, edits []Edit) string {
	got := string(Apply([]byte(text), editURI, edits))
	start := edits[0].Span.Start
	ls := strings.LastIndexByte(got[:start], '\n') + 1
	le := strings.IndexByte(got[start:], '\n')
	if le < 0 {
		return strings.TrimSpace(got[ls:])
	}
	return strings.TrimSpace(got[ls : start+le])
}

// TestCodeActionCases covers the fixes, and the places where no fix may be
// offered because the value was not written as a literal the edit could
// change (docs/rules.md §5: opaque code is never edited).
func TestCodeActionCases(t *testing.T) {
	for _, tc := range []struct {
		name, text, at string
		want           []string
	}{
		{"a keyword key renamed", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, example: []}}`), "example",
			[]string{`Rename example to :examples * [unknown-key]| def actions, do: %{a: %{description: "A", properties: %{}, examples: []}}`}},
		{"an arrow atom key renamed in place", editTool(`  def actions, do: %{a: %{:descripton => "A", :properties => %{}}}`), ":descripton",
			[]string{`Add :description => "" [missing-key]| def actions, do: %{a: %{:description => "", :descripton => "A", :properties => %{}}}`,
				`Rename :descripton to :description * [unknown-key]| def actions, do: %{a: %{:description => "A", :properties => %{}}}`}},
		{"beside a misspelt key, the rename is preferred, not the addition", editTool(`  def actions, do: %{a: %{descripton: "A", properties: %{}}}`), "descripton",
			[]string{`Add description: "" [missing-key]| def actions, do: %{a: %{description: "", descripton: "A", properties: %{}}}`,
				`Rename descripton to :description * [unknown-key]| def actions, do: %{a: %{description: "A", properties: %{}}}`}},
		{"a misspelt key in another action leaves the addition preferred", editTool(`  def actions, do: %{a: %{properties: %{}}, b: %{descripton: "B", description: "B", properties: %{}}}`), "properties",
			[]string{`Add description: "" * [missing-key]| def actions, do: %{a: %{description: "", properties: %{}}, b: %{descripton: "B", description: "B", properties: %{}}}`}},
		{"a rename whose value does not suit the key is not preferred", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, require: "x"}}`), "require",
			[]string{`Rename require to :required [unknown-key]| def actions, do: %{a: %{description: "A", properties: %{}, required: "x"}}`}},
		{"no rename onto a key already there", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, example: [], examples: []}}`), "example:", nil},
		{"an unknown key in a Map.put argument is opaque to edits", editTool(`  def actions, do: %{a: Map.put(%{description: "A", properties: %{}}, :exampels, [])}`), ":exampels", nil},
		{"missing keys of a map update are not fixed", editTool(`  @base %{description: "A"}` + "\n" + `  def actions, do: %{a: %{@base | description: "B"}}`), "%{@base", nil},
		{"missing key in an empty one-line map", editTool(`  def actions, do: %{a: %{}}`), "%{}}",
			[]string{`Add description: "" * [missing-key]| def actions, do: %{a: %{description: ""}}`, `Add properties: %{} * [missing-key]| def actions, do: %{a: %{properties: %{}}}`}},
		{"missing key in an empty multi-line map", editTool("  def actions do\n    %{a: %{\n    }}\n  end"), "%{\n",
			[]string{`Add description: "" * [missing-key]| %{a: %{`, `Add properties: %{} * [missing-key]| %{a: %{`}},
		{"a shared attribute is fixed once, naming every action", editTool(`  @s %{description: "A", properties: %{}, requird: []}` + "\n" + `  def actions, do: %{a: @s, b: @s}`), "requird",
			[]string{`Rename requird to :required * [unknown-key]| @s %{description: "A", properties: %{}, required: []}`}},
		{"an entry of a ~w sigil removed", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ~w(x y x)}}`), "x)",
			[]string{`Remove the second x * [duplicate-entry]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ~w(x y)}}`}},
		{"an undeclared ~w word: declare or remove", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ~w(x y)}}`), "y)",
			[]string{`Declare "y" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}, "y" => %{}}, required: ~w(x y)}}`,
				`Remove "y" from :required [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ~w(x)}}`}},
		{"a near miss of a declared name: change it, declare it or remove it, none preferred", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"status" => %{}}, required: ["state"]}}`), `"state"`,
			[]string{`Change to "status" [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"status" => %{}}, required: ["status"]}}`,
				`Declare "state" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"status" => %{}, "state" => %{}}, required: ["state"]}}`,
				`Remove "state" from :required [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"status" => %{}}, required: []}}`}},
		{"a near miss in a ~w sigil is changed as a word", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"text" => %{}}, required_one_of: [~w(txt)]}}`), "txt",
			[]string{`Change to "text" [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"text" => %{}}, required_one_of: [~w(text)]}}`,
				`Declare "txt" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"text" => %{}, "txt" => %{}}, required_one_of: [~w(txt)]}}`,
				`Remove the group ["txt"] [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"text" => %{}}, required_one_of: []}}`}},
		{"declared before the atom-keyed properties, which must stay last", editTool(`  def actions, do: %{a: %{description: "A", properties: %{b: %{}}, required: ["y"]}}`), `"y"]`,
			[]string{`Declare "y" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"y" => %{}, b: %{}}, required: ["y"]}}`,
				`Remove "y" from :required [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{b: %{}}, required: []}}`}},
		{"the last entry of a group takes the group with it", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required_one_of: [["x"], ["y"]]}}`), `"y"]`,
			[]string{`Declare "y" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}, "y" => %{}}, required_one_of: [["x"], ["y"]]}}`,
				`Remove the group ["y"] [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required_one_of: [["x"]]}}`}},
		{"no removal that would make two groups equal", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required_one_of: [["x", "y"], ["x"]]}}`), `"y"]`,
			[]string{`Remove the superset group ["x", "y"] * [superset-group]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required_one_of: [["x"]]}}`,
				`Declare "y" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}, "y" => %{}}, required_one_of: [["x", "y"], ["x"]]}}`}},
		{"the lone head of [z | tail] stays", editTool(`  @more ["x"]` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ["z" | @more]}}`), `"z" |`,
			[]string{`Declare "z" in :properties [undeclared-field]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}, "z" => %{}}, required: ["z" | @more]}}`}},
		{"a string that would repeat an entry is not preferred", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ["x", :x]}}`), ":x]",
			[]string{`Write "x" [wrong-type]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ["x", "x"]}}`}},
		{"adding :properties that would reveal undeclared defaults is not preferred", editTool(`  def actions, do: %{a: %{description: "A", defaults: %{"x" => 1}}}`), "%{description",
			[]string{`Add properties: %{} [missing-key]| def actions, do: %{a: %{properties: %{}, description: "A", defaults: %{"x" => 1}}}`}},
		{"no string key onto one already there", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}, x: %{}}}}`), "x: %{}", nil},
		{"a concatenated description is not a literal", editTool(`  def actions, do: %{a: %{description: "A" <> "\n", properties: %{}}}`), `"A"`, nil},
		{"a string description with an escaped newline", editTool(`  def actions, do: %{a: %{description: "One\n  two \#{x}", properties: %{}}}`), `"One`,
			[]string{`Join :description into one line * [description-newline]| def actions, do: %{a: %{description: "One two \#{x}", properties: %{}}}`}},
		{"an atom where a map belongs is not turned into a string", editTool(`  def actions, do: %{a: %{description: "A", properties: :none}}`), ":none", nil},
		{"one name where a list of names belongs", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: "x"}}`), `"x"}}`,
			[]string{`Write ["x"] * [wrong-type]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ["x"]}}`}},
		{"one atom :related", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, related: :a}}`), ":a}",
			[]string{`Write ["a"] * [wrong-type]| def actions, do: %{a: %{description: "A", properties: %{}, related: ["a"]}}`}},
		{"one undeclared name: the list, not preferred", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, required: "y"}}`), `"y"}`,
			[]string{`Write ["y"] [wrong-type]| def actions, do: %{a: %{description: "A", properties: %{}, required: ["y"]}}`}},
		{"an atom :related entry", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, related: [:a]}}`), ":a]",
			[]string{`Write "a" * [wrong-type]| def actions, do: %{a: %{description: "A", properties: %{}, related: ["a"]}}`}},
		{"a charlist group entry", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required_one_of: [['x']]}}`), "'x'",
			[]string{`Write "x" * [wrong-type]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required_one_of: [["x"]]}}`}},
		{"an arrow atom property name", editTool(`  def actions, do: %{a: %{description: "A", properties: %{:x => %{}}}}`), ":x",
			[]string{`Write "x" => instead of :x * [property-name-not-string]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}}}`}},
		{"a keyword default key", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, defaults: %{x: 1}}}`), "x: 1",
			[]string{`Write "x" => instead of x: * [default-key-not-string]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, defaults: %{"x" => 1}}}`}},
		{"an atom walked keyword moved before the keyword pairs", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"o" => %{type: "object", properties: %{}}}}}`), "properties: %{}}",
			[]string{`Write "properties" => instead of properties: * [atom-schema-keyword]| def actions, do: %{a: %{description: "A", properties: %{"o" => %{"properties" => %{}, type: "object"}}}}`}},
		{"the only undeclared default", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, defaults: %{"z" => 1}}}`), `"z"`,
			[]string{`Remove "z" from :defaults * [undeclared-default]| def actions, do: %{a: %{description: "A", properties: %{}, defaults: %{}}}`}},
		{"a misspelt default key: change or remove it, neither preferred", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: %{"limt" => 10}}}`), `"limt"`,
			[]string{`Change to "limit" [undeclared-default]| def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: %{"limit" => 10}}}`,
				`Remove "limt" from :defaults [undeclared-default]| def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: %{}}}`}},
		{"a misspelt default key whose name already has a default: remove it", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: %{"limit" => 5, "limt" => 10}}}`), `"limt"`,
			[]string{`Remove "limt" from :defaults * [undeclared-default]| def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: %{"limit" => 5}}}`}},
		{"a default for a required field", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ["x"], defaults: %{"x" => 1}}}`), `"x" => 1`,
			[]string{`Remove "x" from :defaults [lint/default-for-required]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{}}, required: ["x"], defaults: %{}}}`}},
		{"an unknown keyword", editTool(`  def actions, do: %{a: %{description: "A", properties: %{"x" => %{"tpye" => "string"}}}}`), `"tpye"`,
			[]string{`Change to "type" * [lint/unknown-keyword]| def actions, do: %{a: %{description: "A", properties: %{"x" => %{"type" => "string"}}}}`}},
		{"a :related word", editTool(`  def actions, do: %{list: %{description: "A", properties: %{}, related: ~w(lsit)}}`), "lsit",
			[]string{`Change to "list" * [lint/related-unknown-action]| def actions, do: %{list: %{description: "A", properties: %{}, related: ~w(list)}}`}},
		{"a hint's misspelt action", editTool("  def name, do: \"tasks\"\n" + `  def actions, do: %{create: %{description: "A", properties: %{}}}` + "\n" + `  def hints(_a, _r), do: [Wymcp.Hint.new(tool: "tasks", action: "craete")]`), `"craete"`,
			[]string{`Change to "create" * [lint/hint-unknown-action]| def hints(_a, _r), do: [Wymcp.Hint.new(tool: "tasks", action: "create")]`}},
		{"a hint's misspelt tool", editTool("  def name, do: \"tasks\"\n" + `  def actions, do: %{create: %{description: "A", properties: %{}}}` + "\n" + `  def hints(_a, _r), do: [Wymcp.Hint.new(tool: "taks", action: "create")]`), `"taks"`,
			[]string{`Change to "tasks" * [lint/hint-unknown-tool]| def hints(_a, _r), do: [Wymcp.Hint.new(tool: "tasks", action: "create")]`}},
		{"a hint's action far from every declared one", editTool("  def name, do: \"tasks\"\n" + `  def actions, do: %{create: %{description: "A", properties: %{}}}` + "\n" + `  def hints(_a, _r), do: [Wymcp.Hint.new(tool: "tasks", action: "zzzzzz")]`), `"zzzzzz"`, nil},
		{"a hint's misspelt action read from an attribute", editTool("  def name, do: \"tasks\"\n  @act \"craete\"\n" + `  def actions, do: %{create: %{description: "A", properties: %{}}}` + "\n" + `  def hints(_a, _r), do: [%Wymcp.Hint{tool: "tasks", action: @act}]`), `"craete"`,
			[]string{`Change to "create" * [lint/hint-unknown-action]| @act "create"`}},
		// A map update raises KeyError on a key its base lacks
		// (authoring/codeaction.go updateKey): its keys are never edited,
		// nor a base key that an update names.
		{"a key of a map update is not rewritten", editTool(`  @p %{"a" => %{}, b: %{}}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{@p | b: %{"type" => "integer"}}}}`), `b: %{"type"`, nil},
		{"the lone pair of a map update is not removed", editTool(`  @d %{"a" => 0}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{}, defaults: %{@d | "a" => 1}}}`), `"a" => 1`, nil},
		{"a base key an update names is not removed", editTool(`  @d %{"a" => 0}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{}, defaults: @d}, b: %{description: "B", properties: %{}, defaults: %{@d | "a" => 1}}}`), `"a" => 0`, nil},
		{"a base key an update names is not renamed", editTool(`  @s %{descripton: "A", properties: %{}}` + "\n" + `  def actions, do: %{a: @s, b: %{@s | descripton: "B"}}`), `descripton: "A"`,
			[]string{`Add description: "" [missing-key]| @s %{description: "", descripton: "A", properties: %{}}`}},
		{"a base key no update names is still fixed", editTool(`  @d %{"a" => 0, "b" => 1}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{"b" => %{}}, defaults: %{@d | "b" => 2}}}`), `"a" => 0`,
			[]string{`Remove "a" from :defaults * [undeclared-default]| @d %{"b" => 1}`}},
		// A removal from a value another action reads, where that action
		// has no such offence, changes that action too: not preferred.
		{"an undeclared default in defaults another action declares", editTool(`  @defaults %{"limit" => 10}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: @defaults}, b: %{description: "B", properties: %{}, defaults: @defaults}}`), `"limit" => 10`,
			[]string{`Remove "limit" from :defaults [undeclared-default]| @defaults %{}`}},
		{"an undeclared default in defaults no action declares", editTool(`  @defaults %{"limit" => 10}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{}, defaults: @defaults}, b: %{description: "B", properties: %{}, defaults: @defaults}}`), `"limit" => 10`,
			[]string{`Remove "limit" from :defaults * [undeclared-default]| @defaults %{}`}},
		{"a duplicate only in one action's list, in a tail another action reads", editTool(`  @rest ["b"]` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{"b" => %{}}, required: ["x" | @rest]}, c: %{description: "C", properties: %{"b" => %{}}, required: ["b" | @rest]}}`), `"b"]`,
			[]string{`Remove the second "b" [duplicate-entry]| @rest []`}},
		{"a description heredoc the action's :notes reads too", editTool("  @help \"\"\"\n  One.\n  Two.\n  \"\"\"\n" + `  def actions, do: %{a: %{description: @help, notes: @help, properties: %{}}}`), `"""`,
			[]string{`Join :description into one line [description-newline]| @help "One. Two."`}},
		{"an atom name an example of another action reads too", editTool(`  @name :title` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{"title" => %{}}, required: [@name]}, b: %{description: "B", properties: %{}, examples: [%{"n" => @name}]}}`), `:title`,
			[]string{`Write "title" [wrong-type]| @name "title"`}},
		{"a shared description heredoc is joined once for every action", editTool("  @help \"\"\"\n  One.\n  Two.\n  \"\"\"\n" + `  def actions, do: %{a: %{description: @help, properties: %{}}, b: %{description: @help, properties: %{}}}`), `"""`,
			[]string{`Join :description into one line * [description-newline]| @help "One. Two."`}},
		{"the cursor just after a key", editTool(`  def actions, do: %{a: %{description: "A", properties: %{}, notse: ""}}`), ": \"\"}",
			[]string{`Rename notse to :notes * [unknown-key]| def actions, do: %{a: %{description: "A", properties: %{}, notes: ""}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := tc.at
			if tc.name == "the cursor just after a key" {
				// a zero-width span right after `notse`
				i := strings.Index(tc.text, at)
				snap := editSnap(t, editURI, map[string]string{editURI: tc.text})
				fx := CodeActions(context.Background(), snap, positions.Span{Start: i, End: i})
				if len(fx) != 1 || fx[0].Title != "Rename notse to :notes" {
					t.Errorf("got %+v", fx)
				}
				return
			}
			got := fixesAt(t, tc.text, at)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestCodeActionOddInput: no panic and no fix for odd spans, empty or
// broken documents, and a nil snapshot.
func TestCodeActionOddInput(t *testing.T) {
	text := editTool(`  def actions, do: %{a: %{descripton: "é", properties: %{}}}`)
	snap := editSnap(t, editURI, map[string]string{editURI: text})
	for _, sp := range []positions.Span{{Start: -10, End: -1}, {Start: 1 << 30, End: 1 << 31}} {
		if fx := CodeActions(context.Background(), snap, sp); len(fx) != 0 {
			t.Errorf("span %v: %+v", sp, fx)
		}
	}
	if fx := CodeActions(context.Background(), snap, positions.Span{Start: len(text), End: 0}); len(fx) != 2 {
		t.Errorf("a reversed span covering the text: %d fixes, want 2", len(fx))
	}
	if CodeActions(context.Background(), nil, positions.Span{}) != nil {
		t.Error("nil snapshot gave fixes")
	}
	for _, broken := range []string{"", "defmodule", editTool(`  def actions, do: %{a: %{descripton: "x", properties: %{"b" =>`), "\xff\xfe" + editTool(`  def actions, do: %{a: %{descripton: "x"`)} {
		s := editSnap(t, editURI, map[string]string{editURI: broken})
		for i := -1; i <= len(broken)+1; i++ {
			for _, fx := range CodeActions(context.Background(), s, positions.Span{Start: i, End: i}) {
				for _, e := range fx.Edits {
					if e.Span.Start < 0 || e.Span.End > len(broken) {
						t.Errorf("%q: edit out of bounds %+v", broken, e)
					}
				}
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if fx := CodeActions(ctx, snap, positions.Span{Start: 0, End: len(text)}); fx != nil {
		t.Errorf("cancelled: %+v", fx)
	}
}

// TestApply checks the edit application the tests and clients rely on.
func TestApply(t *testing.T) {
	got := string(Apply([]byte("abcdef"), "u", []Edit{
		{URI: "u", Span: positions.Span{Start: 4, End: 6}, NewText: "X"},
		{URI: "v", Span: positions.Span{Start: 0, End: 1}, NewText: "no"},
		{URI: "u", Span: positions.Span{Start: 0, End: 0}, NewText: ">"},
		{URI: "u", Span: positions.Span{Start: 1, End: 2}},
	}))
	if got != ">acdX" {
		t.Errorf("got %q", got)
	}
}

// TestEveryFixOnOffenceFixtures applies every fix offered anywhere in the
// offence fixtures of the core (testdata/offences) and checks that the
// result parses as well as before and that re-analysing it removes the
// fixed offence without adding any (the preferred fixes; a non-preferred
// one may leave a follow-up, such as a renamed key whose value is wrong).
func TestEveryFixOnOffenceFixtures(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "offences", "*.ex"))
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	total := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		snap := editSnap(t, editURI, map[string]string{editURI: string(src)})
		before := problemSet(t, string(src))
		errsBefore := len(snap.File.Errors)
		for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: 0, End: len(src)}) {
			total++
			out := string(Apply(src, editURI, fx.Edits))
			s2 := editSnap(t, editURI, map[string]string{editURI: out})
			if len(s2.File.Errors) > errsBefore {
				t.Errorf("%s: %q leaves a syntax error: %+v\n%s", filepath.Base(p), fx.Title, s2.File.Errors, out)
				continue
			}
			after := problemSet(t, out)
			if after[fx.Code+"|"+fx.Message] >= before[fx.Code+"|"+fx.Message] {
				t.Errorf("%s: %q does not remove %q", filepath.Base(p), fx.Title, fx.Message)
			}
			if !fx.Preferred {
				continue
			}
			for k, n := range after {
				if n > before[k] {
					t.Errorf("%s: %q introduces %q", filepath.Base(p), fx.Title, k)
				}
			}
		}
	}
	if total < 20 {
		t.Errorf("only %d fixes over the offence fixtures", total)
	}
}

// problemSet analyses text and counts its problems by "code|text".
func problemSet(t *testing.T, text string) map[string]int {
	t.Helper()
	ws := workspace.New(workspace.Options{})
	defer ws.Close()
	ws.SetOverlay(editURI, 1, []byte(text))
	out := map[string]int{}
	for _, r := range ws.Diagnose(context.Background()) {
		for _, p := range r.Problems {
			out[p.Code+"|"+p.Text()]++
		}
	}
	return out
}

// TestRemoveLastKeepsComments: removing the last entry of a list or map
// written one per line, when a comment ends the line before it, removes
// the entry's own line and keeps that comment (authoring/edits.go
// removeLastLine); the comma before stays, a trailing comma.
func TestRemoveLastKeepsComments(t *testing.T) {
	body := func(req, defs string) string {
		return editTool("  def actions do\n    %{a: %{\n      description: \"A\",\n      properties: %{\"a\" => %{}, \"c\" => %{}},\n      required: [\n" + req + "      ],\n      defaults: %{\n" + defs + "      }\n    }}\n  end")
	}
	for _, tc := range []struct{ name, text, at, title, want string }{
		{"a list entry",
			body("        \"a\", # first\n        \"c\", # second\n        \"a\" # again\n", "        \"c\" => 1\n"), "\"a\" # again",
			`Remove the second "a"`,
			body("        \"a\", # first\n        \"c\", # second\n", "        \"c\" => 1\n")},
		{"a map pair, CRLF",
			strings.ReplaceAll(body("        \"a\"\n", "        \"c\" => 1, # kept\r\n        \"z\" => 2\r\n"), "\n", "\r\n"), "\"z\"",
			`Remove "z" from :defaults`,
			strings.ReplaceAll(body("        \"a\"\n", "        \"c\" => 1, # kept\r\n"), "\n", "\r\n")},
		{"the bracket on the entry's line",
			editTool("  def actions do\n    %{a: %{description: \"A\", properties: %{}, required: [\"q\", # kept\n      \"r\"]}}\n  end"), "\"r\"",
			`Remove "r" from :required`,
			editTool("  def actions do\n    %{a: %{description: \"A\", properties: %{}, required: [\"q\", # kept\n      ]}}\n  end")},
		{"no comment: the comma goes",
			body("        \"a\",\n        \"c\",\n        \"a\"\n", "        \"c\" => 1\n"), "\"a\"\n      ]",
			`Remove the second "a"`,
			body("        \"a\",\n        \"c\"\n", "        \"c\" => 1\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.text = strings.ReplaceAll(tc.text, "\r\r\n", "\r\n")
			tc.want = strings.ReplaceAll(tc.want, "\r\r\n", "\r\n")
			i := strings.LastIndex(tc.text, tc.at)
			if i < 0 {
				t.Fatalf("%q not in the text", tc.at)
			}
			snap := editSnap(t, editURI, map[string]string{editURI: tc.text})
			var got []string
			for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + 1}) {
				got = append(got, fx.Title)
				if fx.Title == tc.title {
					if after := string(Apply([]byte(tc.text), editURI, fx.Edits)); after != tc.want {
						t.Errorf("after:\n%q\nwant:\n%q", after, tc.want)
					}
					return
				}
			}
			t.Errorf("no fix %q in %q", tc.title, got)
		})
	}
}

// TestInsertLastKeepsComments: declaring a name after the last pair of a
// map written one pair per line puts it on a line of its own after that
// pair's line, so that a comment ending the line stays with its pair
// (authoring/edits.go insertLast), with a trailing comma or without, in a
// CRLF file too; a one-line map followed by a comment gets the pair inline.
func TestInsertLastKeepsComments(t *testing.T) {
	body := func(props string) string {
		return editTool("  def actions do\n    %{a: %{\n      description: \"A\",\n      properties: " + props + ",\n      required: [\"b\"]\n    }}\n  end")
	}
	for _, tc := range []struct{ name, props, want string }{
		{"a comment after the last pair",
			"%{\n        \"a\" => %{type: \"string\"} # the a\n      }",
			"%{\n        \"a\" => %{type: \"string\"}, # the a\n        \"b\" => %{}\n      }"},
		{"a trailing comma, then a comment",
			"%{\n        \"a\" => %{}, # the a\n        \"c\" => %{}, # the c\n      }",
			"%{\n        \"a\" => %{}, # the a\n        \"c\" => %{}, # the c\n        \"b\" => %{},\n      }"},
		{"no comment",
			"%{\n        \"a\" => %{}\n      }",
			"%{\n        \"a\" => %{},\n        \"b\" => %{}\n      }"},
		{"one line, a comment after it",
			"%{\"a\" => %{}} # all of them",
			"%{\"a\" => %{}, \"b\" => %{}} # all of them"},
	} {
		for _, crlf := range []bool{false, true} {
			text, want := body(tc.props), body(tc.want)
			if crlf {
				text, want = strings.ReplaceAll(text, "\n", "\r\n"), strings.ReplaceAll(want, "\n", "\r\n")
			}
			i := strings.Index(text, `"b"]`)
			snap := editSnap(t, editURI, map[string]string{editURI: text})
			found := false
			for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + 1}) {
				if fx.Title == `Declare "b" in :properties` {
					found = true
					if after := string(Apply([]byte(text), editURI, fx.Edits)); after != want {
						t.Errorf("%s (CRLF %v): after:\n%q\nwant:\n%q", tc.name, crlf, after, want)
					}
				}
			}
			if !found {
				t.Errorf("%s (CRLF %v): no Declare fix", tc.name, crlf)
			}
		}
	}
}

// TestHeldFixReasons: a fix that is not preferred says why when a check
// found it: the offence the fixed value would raise, another action that
// reads the value, a misspelt key that may be the one meant, the other fix
// of a lint/default-for-required, a default key that may be misspelt.
func TestHeldFixReasons(t *testing.T) {
	for _, tc := range []struct{ name, text, at, title, held string }{
		{"the fixed value raises an offence",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, required: [:limit], defaults: %{"limit" => 1}}}`), ":limit",
			`Write "limit"`, `the fixed value raises: the default for "limit" never applies: :required makes callers send it, and :required is checked before defaults merge`},
		{"another action reads the value",
			editTool(`  @defaults %{"limit" => 10}` + "\n" + `  def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: @defaults}, b: %{description: "B", properties: %{}, defaults: @defaults}}`), `"limit" => 10`,
			`Remove "limit" from :defaults`, "the value is also read by action :a"},
		{"a misspelt key beside a missing one",
			editTool(`  def actions, do: %{a: %{descripton: "A", properties: %{}}}`), "%{descripton",
			`Add description: ""`, "the map has a misspelt key that may be the one meant: unknown key :descripton"},
		{"a default for a required field: the other fix is the author's",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{"id" => %{}}, required: ["id"], defaults: %{"id" => "x"}}}`), `"id" => "x"`,
			`Remove "id" from :defaults`, `removing "id" from :required instead is as good a fix: the choice is yours`},
		{"a misspelt default key",
			editTool(`  def actions, do: %{a: %{description: "A", properties: %{"limit" => %{}}, defaults: %{"limt" => 10}}}`), `"limt"`,
			`Change to "limit"`, `"limt" may be a misspelling of "limit": removing it would lose its value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := editSnap(t, editURI, map[string]string{editURI: tc.text})
			i := strings.Index(tc.text, tc.at)
			var got []string
			for _, fx := range CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + len(tc.at)}) {
				if fx.Title == tc.title {
					if fx.Preferred || fx.Held != tc.held {
						t.Errorf("%s: preferred %v, held %q; want not preferred, held %q", fx.Title, fx.Preferred, fx.Held, tc.held)
					}
					return
				}
				got = append(got, fx.Title)
			}
			t.Errorf("no fix %q among %q", tc.title, got)
		})
	}
}

// TestCodeActionHintToolRivals: a hint's misspelt tool: gets the near
// tool that declares its action ("orderz" for action "list", though
// "orders" is as near); when one @tool attribute is read by two hints
// whose actions belong to different near tools, the two fixes rewrite the
// same literal differently: both are offered, neither preferred.
func TestCodeActionHintToolRivals(t *testing.T) {
	const tools, hints = "file:///w/lib/tools.ex", "file:///w/lib/hints.ex"
	toolsText := "defmodule App.Orders do\n  use Wymcp.Tool\n  def name, do: \"orders\"\n  def actions, do: %{create: %{description: \"C\", properties: %{}}}\nend\n" +
		"defmodule App.Orderz do\n  use Wymcp.Tool\n  def name, do: \"orderz\"\n  def actions, do: %{list: %{description: \"L\", properties: %{}}}\nend\n"
	render := func(fx []Fix) string {
		var out []string
		for _, f := range fx {
			out = append(out, fmt.Sprintf("%s %v %v", f.Title, f.Preferred, f.Edits))
		}
		return strings.Join(out, "; ")
	}
	one := "defmodule App.Hints do\n  def a, do: %Wymcp.Hint{tool: \"orderx\", action: \"list\"}\nend\n"
	snap := editSnap(t, hints, map[string]string{tools: toolsText, hints: one})
	i := strings.Index(one, `"orderx"`)
	want := fmt.Sprintf(`Change to "orderz" true [{%s {%d %d} "orderz"}]`, hints, i, i+8)
	if got := render(CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + 8})); got != want {
		t.Errorf("one hint: got %s\nwant %s", got, want)
	}
	two := "defmodule App.Hints do\n  @tool \"orderx\"\n  def a, do: Wymcp.Hint.new(tool: @tool, action: \"list\")\n  def b, do: Wymcp.Hint.new(tool: @tool, action: \"create\")\nend\n"
	snap = editSnap(t, hints, map[string]string{tools: toolsText, hints: two})
	i = strings.Index(two, `"orderx"`)
	want = fmt.Sprintf(`Change to "orderz" false [{%s {%d %d} "orderz"}]; Change to "orders" false [{%s {%d %d} "orders"}]`, hints, i, i+8, hints, i, i+8)
	if got := render(CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + 8})); got != want {
		t.Errorf("two hints: got %s\nwant %s", got, want)
	}
}

// TestCodeActionHintToolFixRaises: when no near tool declares the hint's
// action, the fix is the nearest tool's name, but the fixed hint would
// raise hint-unknown-action: it is offered, not preferred, saying so; the
// same for an action fix whose example data the new action refuses.
func TestCodeActionHintToolFixRaises(t *testing.T) {
	const tools, hints = "file:///w/lib/tools.ex", "file:///w/lib/hints.ex"
	toolsText := "defmodule App.Orders do\n  use Wymcp.Tool\n  def name, do: \"orders\"\n" +
		"  def actions, do: %{create: %{description: \"C\", properties: %{\"sku\" => %{type: \"string\"}}, required: [\"sku\"]}}\nend\n"
	for _, tc := range []struct{ text, at, want string }{
		{"defmodule App.Hints do\n  def a, do: Wymcp.Hint.new(tool: \"ordres\", action: \"list\")\nend\n", `"ordres"`,
			`Change to "orders" false the fixed hint raises: the hint names action "list", which tool "orders" does not declare`},
		{"defmodule App.Hints do\n  def a, do: Wymcp.Hint.new(tool: \"ordres\", action: \"create\")\nend\n", `"ordres"`,
			`Change to "orders" true `},
		{"defmodule App.Hints do\n  def a, do: Wymcp.Hint.new(tool: \"orders\", action: \"craete\", example: %{data: %{}})\nend\n", `"craete"`,
			`Change to "create" false the fixed hint raises: the gate refuses this data: required key "sku" is missing`},
	} {
		snap := editSnap(t, hints, map[string]string{tools: toolsText, hints: tc.text})
		i := strings.Index(tc.text, tc.at)
		var got []string
		for _, f := range CodeActions(context.Background(), snap, positions.Span{Start: i, End: i + len(tc.at)}) {
			got = append(got, fmt.Sprintf("%s %v %s", f.Title, f.Preferred, f.Held))
		}
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%s: got %q\nwant %q", tc.at, got, tc.want)
		}
	}
}
