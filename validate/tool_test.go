package validate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// offText renders offences as "code@pointer: message" lines.
func offText(offs []Offence) []string {
	var out []string
	for _, o := range offs {
		out = append(out, fmt.Sprintf("%s@%s: %s", o.Code, tagOf(o.Pointer), o.Message))
	}
	return out
}

func TestPayload(t *testing.T) {
	nested := schema("s",
		kw("required", list("v:required", str("r:name", "name"))))
	nested.Entries[1].Value.Entries = append(nested.Entries[1].Value.Entries,
		sk("addr", mp("p:addr", sk("type", str("", "object")),
			sk("properties", mp("", sk("city", typed("p:city", "string")))),
			sk("additionalProperties", boolean("", false)))),
		sk("meta", mp("p:meta", sk("type", str("", "object")))))
	groups := schema("g", kw("required_one_of", list("", list("", str("", "name")), list("", str("", "id")))))
	tests := []struct {
		name   string
		schema *Value
		data   *Value
		want   []string
	}{
		{"atom and string keys compare by name", nested, mp("d", kw("name", str("", "x")), sk("id", num("", "1"))), nil},
		{"undeclared top-level key", nested, mp("d", kw("name", str("", "x")), kw("colour", str("", "red"))),
			[]string{`lint/payload-undeclared-key@k:colour: the gate refuses this data: key "colour" is not declared`}},
		{"missing required", nested, mp("d", sk("id", num("", "1"))),
			[]string{`lint/payload-missing-required@d{: the gate refuses this data: required key "name" is missing`}},
		{"nested closed object", nested, mp("d", kw("name", str("", "x")), sk("addr", mp("a", sk("city", str("", "Oslo")), sk("zip", str("", "1"))))),
			[]string{`lint/payload-undeclared-key@k:"zip": the gate refuses this data: key "zip" is not declared`}},
		{"nested open object passes", nested, mp("d", kw("name", str("", "x")), sk("meta", mp("m", sk("any", num("", "1"))))), nil},
		{"opaque key: no missing-required", nested, mp("d", Entry{Key: opaque("o"), Value: num("", "1")}), nil},
		{"opaque data passes", nested, opaque("d"), nil},
		{"partial data: no missing-required", nested, partial(mp("d")), nil},
		{"interpolated string values pass", nested, mp("d", kw("name", ustr("", "x #{y}"))), nil},
		{"a complete group", groups, mp("d", sk("id", num("", "1"))), nil},
		{"no complete group", groups, mp("d"),
			[]string{`lint/payload-missing-required@d{: the gate refuses this data: no :required_one_of group is complete (["name"] or ["id"])`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := offText(Payload(":a", ":examples", tt.schema, tt.data))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestExamplesSkipsShapeOffences(t *testing.T) {
	ex := kw("examples", list("", mp("", kw("data", mp("d", kw("bogus", num("", "1")))))))
	actions := acts(kw("a", schema("a", ex)), kw("b", schema("b", ex)))
	got := offText(Examples(actions, map[string]bool{":b": true}))
	want := []string{`lint/payload-undeclared-key@k:bogus: the gate refuses this data: key "bogus" is not declared`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDispatch(t *testing.T) {
	actions := acts(kw("create", schema("c")), kw("list", schema("l")))
	tests := []struct {
		name     string
		actions  *Value
		atoms    []*Value
		guarded  []*Value
		cases    []*Value
		catchAll bool
		want     []string
	}{
		{"every action has its clause", actions, []*Value{atom("c:create", "create"), atom("c:list", "list")}, nil, nil, false, nil},
		{"a guard admits it", actions, []*Value{atom("c:create", "create")}, []*Value{atom("g:list", "list")}, nil, false, nil},
		{"a guard atom and a case pattern for nothing", actions, []*Value{atom("c:create", "create")}, []*Value{atom("g:list", "list"), atom("g:ship", "ship")}, []*Value{atom("p:list", "list"), atom("p:sell", "sell")}, false,
			[]string{"lint/clause-without-action@g:ship: the guard admits :ship, which is not a declared action: dispatch calls run_action/3 only for declared actions",
				"lint/clause-without-action@p:sell: the case branch for :sell is never taken: dispatch calls run_action/3 only for declared actions"}},
		{"a guard admits the others only", actions, nil, []*Value{atom("g:create", "create"), atom("g:ship", "ship")}, nil, false,
			[]string{"lint/action-without-clause@k:list: no run_action/3 clause matches :list: its first tools/call raises FunctionClauseError",
				"lint/clause-without-action@g:ship: the guard admits :ship, which is not a declared action: dispatch calls run_action/3 only for declared actions"}},
		{"a missing clause", actions, []*Value{atom("c:create", "create")}, nil, nil, false,
			[]string{"lint/action-without-clause@k:list: no run_action/3 clause matches :list: its first tools/call raises FunctionClauseError"}},
		{"a catch-all covers it", actions, []*Value{atom("c:create", "create")}, nil, nil, true, nil},
		{"a clause for nothing", actions, []*Value{atom("c:create", "create"), atom("c:list", "list"), atom("c:ship", "ship")}, nil, nil, true,
			[]string{"lint/clause-without-action@c:ship: the clause for :ship is never called: dispatch calls run_action/3 only for declared actions"}},
		{"partial actions: no clause-without-action", partial(acts(kw("create", schema("c")))), []*Value{atom("c:create", "create"), atom("c:ship", "ship")}, nil, nil, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := offText(Dispatch(tt.actions, DispatchAtoms{Clauses: tt.atoms, Guards: tt.guarded, Cases: tt.cases, CatchAll: tt.catchAll})); !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestDispatchNearMiss: a clause atom one typo away from an action no
// clause matches gives both lints, and each fix names the other side;
// without a near miss the fixes stay as they were.
func TestDispatchNearMiss(t *testing.T) {
	actions := acts(kw("search", schema("s")), kw("list", schema("l")))
	tests := []struct {
		name    string
		clauses []*Value
		guards  []*Value
		want    []string
	}{
		{"a misspelt clause atom", []*Value{atom("c:list", "list"), atom("c:serch", "serch")}, nil, []string{
			"lint/action-without-clause@k:search: :serch in run_action/3 may be meant for it; else add def run_action(:search, data, ctx)",
			"lint/clause-without-action@c:serch: did you mean :search, which no clause matches? else declare :serch in actions/0 or remove the clause"}},
		{"a misspelt guard atom", []*Value{atom("c:list", "list")}, []*Value{atom("g:serch", "serch")}, []string{
			"lint/action-without-clause@k:search: :serch in run_action/3 may be meant for it; else add def run_action(:search, data, ctx)",
			"lint/clause-without-action@g:serch: did you mean :search, which no clause matches? else declare :serch in actions/0 or remove it from the guard"}},
		{"the near action has its clause", []*Value{atom("c:list", "list"), atom("c:search", "search"), atom("c:serch", "serch")}, nil, []string{
			"lint/clause-without-action@c:serch: declare :serch in actions/0 or remove the clause"}},
		{"nothing near", []*Value{atom("c:list", "list"), atom("c:ship", "ship")}, nil, []string{
			"lint/action-without-clause@k:search: add def run_action(:search, data, ctx)",
			"lint/clause-without-action@c:ship: declare :ship in actions/0 or remove the clause"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range Dispatch(actions, DispatchAtoms{Clauses: tt.clauses, Guards: tt.guards}) {
				got = append(got, fmt.Sprintf("%s@%s: %s", o.Code, tagOf(o.Pointer), o.Fix))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestToolName(t *testing.T) {
	tests := []struct {
		name *Value
		want string
	}{
		{str("n", "tasks.v2-beta_1"), ""},
		{str("n", strings.Repeat("a", 128)), ""},
		{str("n", strings.Repeat("a", 129)), "it has 129 characters, more than 128"},
		{str("n", ""), "it is empty"},
		{str("n", "my tool"), `" " is not allowed`},
		{str("n", "tâche"), `"â" is not allowed`},
		{ustr("n", "x #{y}"), ""},
		{opaque("n"), ""},
		{atom("n", "tasks"), ""},
	}
	for _, tt := range tests {
		offs := ToolName(tt.name)
		got := ""
		if len(offs) == 1 {
			got = offs[0].Message[strings.LastIndex(offs[0].Message, ": ")+2:]
			if offs[0].Pointer != tag("n") || offs[0].Code != LintToolName {
				t.Errorf("%q: %+v", tt.name.Text, offs[0])
			}
		}
		if got != tt.want || len(offs) > 1 {
			t.Errorf("ToolName(%q) = %q, want %q", tt.name.Text, got, tt.want)
		}
	}
}

func TestCheckHint(t *testing.T) {
	tools := map[string]HintTarget{
		"orders": {Actions: acts(kw("create", schema("c")), kw("broken", schema("b"))), Skip: map[string]bool{":broken": true}},
	}
	data := mp("d", kw("bogus", num("", "1")))
	tests := []struct {
		name         string
		tool, action *Value
		data         *Value
		isNew, all   bool
		want         []string
	}{
		{"fine", str("t", "orders"), str("a", "create"), mp("d", kw("name", str("", "x"))), true, true, nil},
		{"unknown tool", str("t", "orderz"), str("a", "create"), nil, true, true,
			[]string{`lint/hint-unknown-tool@t: the hint names tool "orderz", which no tool of the workspace is named`}},
		{"unknown tool while a name is unknown", str("t", "orderz"), str("a", "create"), nil, true, false, nil},
		{"unknown action", str("t", "orders"), str("a", "craete"), nil, true, true,
			[]string{`lint/hint-unknown-action@a: the hint names action "craete", which tool "orders" does not declare`}},
		{"atom tool in Hint.new", atom("t", "orders"), str("a", "create"), nil, true, true,
			[]string{`hint-not-string@t: Wymcp.Hint.new/1 raises: tool: must be a string, got :orders`}},
		{"atom tool in the struct is no error", atom("t", "orders"), str("a", "create"), nil, false, true, nil},
		{"opaque action passes", str("t", "orders"), opaque("a"), data, true, true, nil},
		{"payload", str("t", "orders"), str("a", "create"), data, true, true,
			[]string{`lint/payload-undeclared-key@k:bogus: the gate refuses this data: key "bogus" is not declared`}},
		{"no payload check on a shape-broken action", str("t", "orders"), str("a", "broken"), data, true, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := offText(CheckHint(tt.tool, tt.action, tt.data, tt.isNew, tools, tt.all))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestCheckHintToolSuggestion: for a misspelt tool: the suggestion (the
// quick fix's new text) is a near name whose tool declares the hint's
// action when there is one, though another name is as near or nearer
// ("orderx" beside "orders" and "orderz", action "list" that only
// "orderz" declares), so that the fix raises no hint-unknown-action; when
// none declares it, the nearest name.
func TestCheckHintToolSuggestion(t *testing.T) {
	tools := map[string]HintTarget{
		"orders": {Actions: acts(kw("create", schema("c")))},
		"orderz": {Actions: acts(kw("list", schema("l")))},
		"ordrs":  {Actions: acts(kw("list2", schema("l2")))},
	}
	tests := []struct{ tool, action, want string }{
		{"orderx", "list", "orderz"},
		{"orderx", "create", "orders"},
		{"ordersx", "list", "orderz"},
		{"ordrsz", "list2", "ordrs"},
		{"orderx", "nothing", "orders"},
	}
	for _, tt := range tests {
		offs := CheckHint(str("t", tt.tool), str("a", tt.action), nil, true, tools, true)
		if len(offs) != 1 || offs[0].Code != LintHintUnknownTool || offs[0].Suggestion != tt.want || offs[0].Fix != fmt.Sprintf("did you mean %q?", tt.want) {
			t.Errorf("tool %q action %q: %+v, want the suggestion %q", tt.tool, tt.action, offs, tt.want)
		}
	}
}
