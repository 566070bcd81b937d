package listing

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/validate"
)

func s(t string) *validate.Value    { return &validate.Value{Kind: validate.String, Text: t} }
func atom(t string) *validate.Value { return &validate.Value{Kind: validate.Atom, Text: t} }
func num(t string) *validate.Value  { return &validate.Value{Kind: validate.Integer, Text: t} }
func flt(t string) *validate.Value  { return &validate.Value{Kind: validate.Float, Text: t} }
func opaque() *validate.Value {
	return &validate.Value{Kind: validate.Opaque, Origin: validate.NewOrigin("here", 0, 0)}
}
func list(es ...*validate.Value) *validate.Value {
	return &validate.Value{Kind: validate.List, Elems: es}
}

// m builds a map from alternating keys and values.
func m(kvs ...*validate.Value) *validate.Value {
	v := &validate.Value{Kind: validate.Map}
	for i := 0; i+1 < len(kvs); i += 2 {
		v.Entries = append(v.Entries, validate.Entry{Key: kvs[i], Value: kvs[i+1]})
	}
	return v
}

// tasks is a tool with two actions, declared out of order.
func tasks() Tool {
	return Tool{
		Module:      "App.Tools.Tasks",
		Name:        s("tasks"),
		Description: s("Task management"),
		Actions: m(
			atom("list"), m(atom("description"), s("List tasks"), atom("properties"), m()),
			atom("create"), m(
				atom("description"), s("Create a task"),
				atom("properties"), m(s("name"), m(s("type"), s("string"))),
				atom("required"), list(s("name")),
				atom("example"), list(), // not a vocabulary key: help leaves it out
			),
		),
	}
}

func compact(t *testing.T, a *Answer) string {
	t.Helper()
	js := a.Compact()
	if !json.Valid(js) {
		t.Fatalf("invalid JSON: %s", js)
	}
	return string(js)
}

func TestEntryShape(t *testing.T) {
	got := compact(t, Entry(tasks()))
	want := `{"description":"Task management","inputSchema":{"properties":{"action":{"description":"create: Create a task\nlist: List tasks","enum":["create","list"],"type":"string"},"data":{"type":"object"}},"required":["action"],"type":"object"},"name":"tasks"}`
	if got != want {
		t.Errorf("entry\n got %s\nwant %s", got, want)
	}
}

func TestEntryOptionalCallbacks(t *testing.T) {
	tests := []struct {
		name  string
		tweak func(*Tool)
		want  string // the keys of the entry, in order
	}{
		{"none defined", func(*Tool) {}, "description,inputSchema,name"},
		{"title string", func(t *Tool) { t.Title = s("Tasks") }, "description,inputSchema,name,title"},
		{"title nil", func(t *Tool) { t.Title = &validate.Value{Kind: validate.Nil} }, "description,inputSchema,name"},
		{"annotations non-empty", func(t *Tool) {
			t.Annotations = m(atom("readOnlyHint"), &validate.Value{Kind: validate.Boolean, Bool: true})
		}, "annotations,description,inputSchema,name"},
		{"annotations empty", func(t *Tool) { t.Annotations = m() }, "description,inputSchema,name"},
		{"annotations nil", func(t *Tool) { t.Annotations = &validate.Value{Kind: validate.Nil} }, "description,inputSchema,name"},
		{"output schema map", func(t *Tool) { t.OutputSchema = m() }, "description,inputSchema,name,outputSchema"},
		{"output schema nil", func(t *Tool) { t.OutputSchema = &validate.Value{Kind: validate.Nil} }, "description,inputSchema,name"},
		{"all", func(t *Tool) {
			t.Title, t.Annotations, t.OutputSchema = s("T"), m(atom("a"), num("1")), m()
		}, "annotations,description,inputSchema,name,outputSchema,title"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := tasks()
			tt.tweak(&tool)
			a := Entry(tool)
			if !a.Exact() {
				t.Errorf("gaps: %v", a.Gaps)
			}
			if got := strings.Join(a.root.keys, ","); got != tt.want {
				t.Errorf("keys %s, want %s", got, tt.want)
			}
		})
	}
}

func TestToolsListEndsWithHelp(t *testing.T) {
	a := ToolsList([]Tool{tasks()})
	var got []map[string]any
	if err := json.Unmarshal(a.Compact(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["name"] != "tasks" || got[1]["name"] != "help" {
		t.Fatalf("names: %v", got)
	}
	help := compact(t, HelpEntry())
	if !strings.HasSuffix(compact(t, a), ","+help+"]") {
		t.Errorf("help entry is not last")
	}
	if want := `{"description":"Describe this server's tools. With no arguments: every tool with its action summaries. With \"tool\": that tool's actions and their schemas. With \"tool\" and \"action\": that one action's schema.","inputSchema":{"properties":{"action":{"description":"An action of that tool (needs \"tool\")","type":"string"},"tool":{"description":"A tool name from tools/list","type":"string"}},"type":"object"},"name":"help"}`; help != want {
		t.Errorf("help entry\n got %s\nwant %s", help, want)
	}
}

func TestHelpLevels(t *testing.T) {
	tool := tasks()
	tool.HasActionContext = true
	if got, want := compact(t, HelpIndex([]Tool{tool})), `[{"actions":"create: Create a task\nlist: List tasks","description":"Task management","tool":"tasks"}]`; got != want {
		t.Errorf("index\n got %s\nwant %s", got, want)
	}
	if got, want := compact(t, HelpTool(tool)), `{"actions":{"create":{"description":"Create a task","properties":{"name":{"type":"string"}},"required":["name"]},"list":{"description":"List tasks","properties":{},"required":[]}},"description":"Task management","tool":"tasks"}`; got != want {
		t.Errorf("tool\n got %s\nwant %s", got, want)
	}
	a, err := HelpAction(tool, "list")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := compact(t, a), `{"action":"list","description":"List tasks","properties":{},"required":[],"tool":"tasks","context":"`+ContextNote+`"}`; got != want {
		t.Errorf("action\n got %s\nwant %s", got, want)
	}
	if len(a.Gaps) != 1 {
		t.Errorf("the context placeholder is a gap: %v", a.Gaps)
	}
	tool.HasActionContext = false
	a, _ = HelpAction(tool, "list")
	if !a.Exact() || strings.Contains(compact(t, a), "context") {
		t.Errorf("no action_context/2, no context: %s %v", a.Compact(), a.Gaps)
	}
	if _, err := HelpAction(tool, "drop"); err == nil || err.Error() != `App.Tools.Tasks declares no action "drop" (its actions: create, list)` {
		t.Errorf("unknown action: %v", err)
	}
}

func TestGaps(t *testing.T) {
	interp := &validate.Value{Kind: validate.String, Text: "Hi ", Unknown: true, Origin: validate.NewOrigin("desc", 0, 0)}
	tuple := &validate.Value{Kind: validate.Tuple, Elems: []*validate.Value{num("1")}, Origin: validate.NewOrigin("tuple", 0, 0)}
	partial := m(atom("description"), s("Partial"))
	partial.Partial, partial.Origin = true, validate.NewOrigin("partial", 0, 0)
	tests := []struct {
		name  string
		tool  Tool
		gaps  []string
		ofKey string // a fragment of the compact JSON
	}{
		{"name not defined", Tool{Module: "M", Description: s("d"), Actions: m()}, []string{"M: name/0 is not defined"}, `"name":"<not evaluated>"`},
		{"name opaque", Tool{Module: "M", Name: opaque(), Description: s("d"), Actions: m()}, []string{"M: name/0 could not be evaluated"}, `"name":"<not evaluated>"`},
		{"interpolated description", Tool{Module: "M", Name: s("n"), Description: interp, Actions: m()}, []string{"a string with interpolation (content known only at run time)"}, `"description":"Hi "`},
		{"actions opaque", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: opaque()}, []string{"M: actions/0 could not be evaluated to a map"}, `"enum":[]`},
		{"actions not defined", Tool{Module: "M", Name: s("n"), Description: s("d")}, []string{"M: actions/0 is not defined"}, `"enum":[]`},
		{"action description opaque", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: m(atom("a"), m(atom("description"), opaque()))}, []string{"M: the description of action :a is not a known string"}, `"description":"a: <not evaluated>"`},
		{"action description missing", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: m(atom("a"), m(atom("descripton"), s("x")))}, []string{"M: the description of action :a is missing (Wymcp refuses an action schema without one)"}, `"description":"a: <not evaluated>"`},
		{"action description maybe in a partial map", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: m(atom("a"), func() *validate.Value { v := m(atom("properties"), m()); v.Partial = true; return v }())}, []string{"M: the description of action :a is not a known string"}, `"description":"a: <not evaluated>"`},
		{"title opaque", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: m(), Title: opaque()}, []string{`M: title/0 could not be evaluated ("title" is written only when it is a string)`}, `"name":"n"}`},
		{"tuple in output schema", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: m(), OutputSchema: m(s("x"), tuple)}, []string{"a tuple, which Elixir's JSON encoder cannot write (it raises)"}, `"outputSchema":{"x":"<not evaluated>"}`},
		{"partial actions map", Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: func() *validate.Value {
			v := m(atom("a"), partial)
			v.Partial = true
			return v
		}()}, []string{"M: actions/0 may declare more actions than the reader sees"}, `"enum":["a"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Entry(tt.tool)
			var got []string
			for _, g := range a.Gaps {
				got = append(got, g.What)
			}
			if strings.Join(got, "|") != strings.Join(tt.gaps, "|") {
				t.Errorf("gaps %q, want %q", got, tt.gaps)
			}
			if js := compact(t, a); !strings.Contains(js, tt.ofKey) {
				t.Errorf("%s does not hold %s", js, tt.ofKey)
			}
			f, err := Measure(testCounter, a)
			if err != nil {
				t.Fatal(err)
			}
			if f.Exact || f.Bytes != 0 || f.Tokens != 0 {
				t.Errorf("figures of an answer with gaps: %+v", f)
			}
		})
	}
}

func TestTermOrder(t *testing.T) {
	// Map.to_list(%{"b" => 1, :z => 2, "a" => 3, :a => 4, 1 => 5, true => 6})
	// on Elixir 1.14 / OTP 25 gives [{1, 5}, {:a, 4}, {true, 6}, {:z, 2},
	// {"a", 3}, {"b", 1}].
	v := m(s("b"), num("1"), atom("z"), num("2"), s("a"), num("3"), atom("a"), num("4"), num("1"), num("5"),
		&validate.Value{Kind: validate.Boolean, Bool: true, Text: "true"}, num("6"))
	b := &builder{}
	var buf strings.Builder
	js := nodeJSON(b.value(v, 0))
	buf.WriteString(js)
	if want := `{"1":5,"a":4,"true":6,"z":2,"a":3,"b":1}`; js != want {
		t.Errorf("got %s, want %s", js, want)
	}
	// A key written twice: the last value wins, at the key's place.
	if js := nodeJSON(b.value(m(s("k"), num("1"), s("j"), num("2"), s("k"), num("3")), 0)); js != `{"j":2,"k":3}` {
		t.Errorf("duplicate key: %s", js)
	}
	// Numbers compare by value, not by text.
	if js := nodeJSON(b.value(m(num("10"), num("1"), num("9"), num("2")), 0)); js != `{"9":2,"10":1}` {
		t.Errorf("number keys: %s", js)
	}
	if len(b.gaps) != 0 {
		t.Errorf("gaps: %v", b.gaps)
	}
}

func nodeJSON(n *node) string { return string((&Answer{root: n}).Compact()) }

func TestLiterals(t *testing.T) {
	tests := []struct {
		in   *validate.Value
		want string
	}{
		{num("1_000"), "1000"},
		{num("0x1F"), "31"},
		{num("0o17"), "15"},
		{num("0b101"), "5"},
		{num("010"), "10"},
		{num("-3"), "-3"},
		{num("--3"), "3"},
		{num("?a"), "97"},
		{num(`?\n`), "10"},
		{num("123456789012345678901234567890"), "123456789012345678901234567890"},
		// Floats: :io_lib_format.fwrite_g/1 on Elixir 1.14 / OTP 25.
		{flt("0.5"), "0.5"},
		{flt("1.0"), "1.0"},
		{flt("100.0"), "100.0"},
		{flt("1000.0"), "1.0e3"},
		{flt("1.0e15"), "1.0e15"},
		{flt("1.0e16"), "1.0e16"},
		{flt("123456789012345680.0"), "1.2345678901234568e17"},
		{flt("0.001"), "0.001"},
		{flt("0.0001"), "0.0001"},
		{flt("0.00001"), "1.0e-5"},
		{flt("1.5e-7"), "1.5e-7"},
		{flt("3.14159"), "3.14159"},
		{flt("12_345.678"), "12345.678"},
		{flt("1.0e-10"), "1.0e-10"},
		{flt("2.5e20"), "2.5e20"},
		{flt("0.1"), "0.1"},
		{flt("9007199254740993.0"), "9.007199254740992e15"},
		{flt("-0.5"), "-0.5"},
		{flt("9007199254740991.0"), "9007199254740991.0"},
		{flt("9007199254740992.0"), "9.007199254740992e15"},
		{flt("1500.0"), "1.5e3"},
		{flt("1250.0"), "1250.0"},
		{flt("1234567890123456.0"), "1234567890123456.0"},
		{flt("0.000123"), "1.23e-4"},
		{flt("0.00123"), "0.00123"},
		{s("a\"b\\c\n\t\r\f\b\x01\x1f/é\u2028"), `"a\"b\\c\n\t\r\f\b\u0001\u001F/é` + "\u2028" + `"`},
		{&validate.Value{Kind: validate.Charlist, Text: "hé"}, "[104,233]"},
		{&validate.Value{Kind: validate.Nil}, "null"},
		{&validate.Value{Kind: validate.Boolean, Bool: false}, "false"},
		{atom("snake_case"), `"snake_case"`},
		{list(), "[]"},
		{m(), "{}"},
	}
	for _, tt := range tests {
		b := &builder{}
		if got := nodeJSON(b.value(tt.in, 0)); got != tt.want || len(b.gaps) != 0 {
			t.Errorf("%v %q: got %s (gaps %v), want %s", tt.in.Kind, tt.in.Text, got, b.gaps, tt.want)
		}
	}
}

func TestPretty(t *testing.T) {
	a := &Answer{root: (&builder{}).value(m(s("a"), list(num("1"), m()), s("b"), list()), 0)}
	want := "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}\n"
	if got := string(a.Pretty()); got != want {
		t.Errorf("pretty\n%q\nwant\n%q", got, want)
	}
}

func TestFigures(t *testing.T) {
	f, err := Measure(testCounter, Entry(tasks()))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Exact || f.Bytes != len(Entry(tasks()).Compact()) || f.Tokens <= 0 {
		t.Errorf("figures %+v", f)
	}
	tests := []struct {
		entry, help Figures
		want        string
	}{
		{Figures{Bytes: 1234, Tokens: 310, Exact: true}, Figures{Bytes: 4567, Tokens: 1140, Exact: true},
			"tools/list: 1,234 bytes, 310 tokens; help: 4,567 bytes, 1,140 tokens (o200k_base)"},
		{Figures{Gaps: 2}, Figures{Bytes: 999, Tokens: 1000000, Exact: true},
			"tools/list: not known: 2 values missing or not evaluated; help: 999 bytes, 1,000,000 tokens (o200k_base)"},
		{Figures{Gaps: 1}, Figures{Gaps: 3},
			"tools/list: not known: 1 value missing or not evaluated; help: not known: 3 values missing or not evaluated"},
	}
	for _, tt := range tests {
		if got := Lens(tt.entry, tt.help); got != tt.want {
			t.Errorf("lens %q, want %q", got, tt.want)
		}
	}
	if got := (Figures{Bytes: 12, Tokens: 3, Exact: true}).Label(); got != "12 bytes, 3 tokens (o200k_base)" {
		t.Errorf("label %q", got)
	}
}

func TestInvalidUTF8IsAGap(t *testing.T) {
	b := &builder{}
	if got := nodeJSON(b.value(m(s("k\xff"), s("a\xffb")), 0)); got != "{\"k\uFFFD\":\"a\uFFFDb\"}" || len(b.gaps) != 2 {
		t.Errorf("got %s, gaps %v", got, b.gaps)
	}
}

func TestLargeMapIsAGap(t *testing.T) {
	v := m()
	for i := 0; i < 33; i++ {
		v.Entries = append(v.Entries, validate.Entry{Key: s(string(rune('a'+i%26)) + strings.Repeat("x", i/26)), Value: num("1")})
	}
	b := &builder{}
	b.value(v, 0)
	if len(b.gaps) != 1 || !strings.Contains(b.gaps[0].What, "more than 32 keys") {
		t.Errorf("gaps %v", b.gaps)
	}
}

// TestOddValues renders values no valid tool has (nil entries, non-atom
// action keys, a map as the name, nested tuples) without panicking, as
// valid JSON, with a gap for each odd part.
func TestOddValues(t *testing.T) {
	odd := &validate.Value{Kind: validate.Map, Entries: []validate.Entry{
		{Key: nil, Value: s("x")},
		{Key: s("op"), Value: m()},
		{Key: atom("nil_schema"), Value: nil},
		{Key: atom("list_schema"), Value: list(num("1"))},
		{Key: atom("ok"), Value: m(atom("description"), num("3"), atom("properties"), &validate.Value{Kind: validate.Tuple})},
	}}
	tool := Tool{Module: "M", Name: m(s("a"), s("b")), Description: &validate.Value{Kind: validate.Tuple}, Actions: odd,
		Annotations: &validate.Value{Kind: validate.Map, Partial: true}, OutputSchema: opaque(), HasActionContext: true}
	answers := []*Answer{Entry(tool), ToolsList([]Tool{tool, {}}), HelpIndex([]Tool{tool}), HelpTool(tool), HelpTool(Tool{})}
	for _, name := range ActionNames(tool) {
		a, err := HelpAction(tool, name)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, a)
	}
	if got := strings.Join(ActionNames(tool), ","); got != "list_schema,nil_schema,ok" {
		t.Errorf("action names %s", got)
	}
	for i, a := range answers {
		if !json.Valid(a.Compact()) || !json.Valid(a.Pretty()) {
			t.Errorf("answer %d: invalid JSON %s", i, a.Compact())
		}
		if a.Exact() {
			t.Errorf("answer %d has no gap: %s", i, a.Compact())
		}
	}
}

// TestActionDescriptionNotUTF8 keeps an action's description that is not
// valid UTF-8 out of the "<action>: <description>" summary of the
// tools/list entry and of the help index, as every other string is (Jason
// raises on it): each invalid sequence becomes U+FFFD with a gap, so the
// answer (the LSP's wymcp.showListing result embeds it raw) stays UTF-8.
func TestActionDescriptionNotUTF8(t *testing.T) {
	tool := Tool{Module: "M", Name: s("n"), Description: s("d"), Actions: m(atom("a"), m(atom("description"), s("d \xff"), atom("properties"), m()))}
	const gap = "a string that is not valid UTF-8, which Elixir's JSON encoder refuses"
	for name, a := range map[string]*Answer{"entry": Entry(tool), "help index": HelpIndex([]Tool{tool})} {
		js := a.Compact()
		if !utf8.Valid(js) {
			t.Errorf("%s: not UTF-8: %q", name, js)
		}
		if !strings.Contains(string(js), "a: d \uFFFD") {
			t.Errorf("%s: %s does not hold the replaced description", name, js)
		}
		var got []string
		for _, g := range a.Gaps {
			got = append(got, g.What)
		}
		if strings.Join(got, "|") != gap {
			t.Errorf("%s: gaps %q, want %q", name, got, gap)
		}
	}
}

// A value shared at every level doubles at each (2^40 JSON values here):
// the renderer stops at maxValues with one gap, instead of running for
// ever, while a real large tool stays exact.
func TestValueBudget(t *testing.T) {
	v := m(s("x"), num("1"))
	for range 40 {
		v = m(s("a"), v, s("b"), v)
	}
	b := &builder{}
	b.value(v, 0)
	if len(b.gaps) != 1 || b.gaps[0].What != "an answer too large to render (more than 200,000 values)" {
		t.Fatalf("gaps %d: %+v", len(b.gaps), b.gaps[:min(len(b.gaps), 3)])
	}
	if b.values <= maxValues {
		t.Errorf("%d values counted", b.values)
	}
	big := bigTool(1000)
	if e, h := Entry(big), HelpTool(big); !e.Exact() || !h.Exact() {
		t.Errorf("the 1,000-action tool has gaps: %v %v", e.Gaps, h.Gaps)
	}
}
