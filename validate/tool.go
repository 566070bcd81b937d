package validate

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Codes of the tool-level checks (README.md "Tools,
// routers and hints"): Wymcp.Router.init/1, Session.register_tool
// or Wymcp.Hint.new/1 would raise. Severity Error.
const (
	CodeReservedToolName  = "reserved-tool-name"
	CodeDuplicateToolName = "duplicate-tool-name"
	CodeHelpListed        = "help-listed"
	CodeHintNotString     = "hint-not-string"
)

// Lint codes of the tool-level checks (README.md "Tools, routers and hints"): things that
// fail at call time or that the LLM is shown wrong.
const (
	LintUnknownToolModule      = "lint/unknown-tool-module"
	LintToolNotMounted         = "lint/tool-not-mounted"
	LintToolName               = "lint/tool-name"
	LintActionWithoutClause    = "lint/action-without-clause"
	LintClauseWithoutAction    = "lint/clause-without-action"
	LintHintUnknownTool        = "lint/hint-unknown-tool"
	LintHintUnknownAction      = "lint/hint-unknown-action"
	LintPayloadUndeclaredKey   = "lint/payload-undeclared-key"
	LintPayloadMissingRequired = "lint/payload-missing-required"
)

// ToolCodes returns the error codes of the tool-level checks.
func ToolCodes() []string {
	return []string{CodeReservedToolName, CodeDuplicateToolName, CodeHelpListed, CodeHintNotString}
}

// toolNameRE is MCP's tool-name rule (MCP specification 2025-11-25,
// "Tool names"): 1 to 128 characters of A-Z a-z 0-9 _ - .
var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// ToolName returns lint/tool-name when name, the value of a tool's name/0,
// is a known string that breaks MCP's tool-name rule; Pointer is the
// string. An opaque or interpolated name, or a non-string, gets nothing.
func ToolName(name *Value) []Offence {
	if name == nil || name.Kind != String || name.Unknown || toolNameRE.MatchString(name.Text) {
		return nil
	}
	why := "it is empty"
	switch {
	case len([]rune(name.Text)) > 128:
		why = fmt.Sprintf("it has %d characters, more than 128", len([]rune(name.Text)))
	case name.Text != "":
		for _, r := range name.Text {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				why = fmt.Sprintf("%q is not allowed", string(r))
				break
			}
		}
	}
	return []Offence{{
		Code: LintToolName, Kind: KindLint, Pointer: name.Origin, Severity: Warning,
		Message: fmt.Sprintf("tool name %s breaks MCP's tool-name rule (1 to 128 characters of A-Z a-z 0-9 _ - .): %s", InspectString(name.Text), why),
		Fix:     "use only letters, digits, _, - and .",
	}}
}

// DispatchAtoms are the atoms a tool's run_action/3 clauses name, by
// where they are written, each with its Origin.
type DispatchAtoms struct {
	// Clauses are the literal atoms of the clauses' first arguments.
	Clauses []*Value
	// Guards are the atoms a guard limits a clause's action variable to
	// (`when action in [:a, :b]`): that clause matches those actions only.
	Guards []*Value
	// Cases are the atoms of the patterns of a `case action do` in a
	// clause: branches, which do not change what the clause matches.
	Cases []*Value
	// CatchAll reports a clause that matches any action.
	CatchAll bool
}

// Dispatch compares a tool's declared actions (the actions/0 value) with
// what its run_action/3 clauses match (README.md "Tools, routers and
// hints"): lint/action-without-clause at each declared action key no
// clause accepts (neither a clause atom nor a guard's), unless a clause
// matches any action; lint/clause-without-action at each clause atom,
// guard atom and case pattern that names no declared action, only when
// every action name is known. Severity Warning.
func Dispatch(actions *Value, d DispatchAtoms) []Offence {
	if actions == nil || actions.Kind != Map {
		return nil
	}
	declared := map[string]bool{}
	for _, e := range actions.Entries {
		if e.Key != nil && e.Key.Kind == Atom && !e.Key.Unknown {
			declared[e.Key.Text] = true
		}
	}
	clause := map[string]bool{}
	for _, a := range d.Clauses {
		clause[a.Text] = true
	}
	for _, a := range d.Guards {
		clause[a.Text] = true
	}
	// A misspelt clause atom (`def run_action(:serch, ...)` for :search)
	// gives both lints: each fix names the other side as the likely one.
	var unmatched, stray []string
	if !d.CatchAll {
		for _, e := range effective(actions.Entries) {
			if k := e.Key; k != nil && k.Kind == Atom && !k.Unknown && !clause[k.Text] {
				unmatched = append(unmatched, k.Text)
			}
		}
	}
	keyed := !openKeyed(actions)
	if keyed {
		for _, atoms := range [][]*Value{d.Clauses, d.Guards} {
			for _, a := range atoms {
				if !declared[a.Text] && !slices.Contains(stray, a.Text) {
					stray = append(stray, a.Text)
				}
			}
		}
	}
	var offs []Offence
	if !d.CatchAll {
		for _, e := range effective(actions.Entries) {
			k := e.Key
			if k == nil || k.Kind != Atom || k.Unknown || clause[k.Text] {
				continue
			}
			fix := fmt.Sprintf("add def run_action(%s, data, ctx)", InspectAtom(k.Text))
			if near, ok := Nearest(k.Text, stray, false); ok {
				fix = fmt.Sprintf("%s in run_action/3 may be meant for it; else %s", InspectAtom(near), fix)
			}
			offs = append(offs, Offence{
				Code: LintActionWithoutClause, Kind: KindLint, Action: actionName(k), Pointer: k.Origin, Severity: Warning,
				Message: fmt.Sprintf("no run_action/3 clause matches %s: its first tools/call raises FunctionClauseError", InspectAtom(k.Text)),
				Fix:     fix,
			})
		}
	}
	if keyed {
		for _, w := range []struct {
			atoms          []*Value
			message, where string
		}{
			{d.Clauses, "the clause for %s is never called", "the clause"},
			{d.Guards, "the guard admits %s, which is not a declared action", "it from the guard"},
			{d.Cases, "the case branch for %s is never taken", "the branch"},
		} {
			seen := map[string]bool{}
			for _, a := range w.atoms {
				if declared[a.Text] || seen[a.Text] {
					continue
				}
				seen[a.Text] = true
				fix := fmt.Sprintf("declare %s in actions/0 or remove %s", InspectAtom(a.Text), w.where)
				if near, ok := Nearest(a.Text, unmatched, false); ok {
					fix = fmt.Sprintf("did you mean %s, which no clause matches? else %s", InspectAtom(near), fix)
				}
				offs = append(offs, Offence{
					Code: LintClauseWithoutAction, Kind: KindLint, Pointer: a.Origin, Severity: Warning,
					Message: fmt.Sprintf(w.message+": dispatch calls run_action/3 only for declared actions", InspectAtom(a.Text)),
					Fix:     fix,
				})
			}
		}
	}
	return offs
}

// Payload checks a payload's data (an :examples entry's or a hint
// example's `data`) against the action schema it is for, as Wymcp's gate
// does before run_action/3 (README.md "Tools, routers and hints"): unknown keys (with the
// closure rules of :defaults: the top level closed by :properties, nested
// objects per "additionalProperties") get lint/payload-undeclared-key; a
// missing :required key, or no complete :required_one_of group,
// lint/payload-missing-required at the data map. Atom and string keys are
// compared by name (they reach the LLM as JSON). The schema must be
// shape-clean (the caller checks). Opaque parts pass. Severity Warning;
// Action is action, Location where (":examples", "hint").
func Payload(action, where string, schema, data *Value) []Offence {
	if schema == nil || schema.Kind != Map || data == nil || data.Kind != Map {
		return nil
	}
	p := &payload{action: action, where: where}
	var top closure
	if props := schema.GetAtom("properties"); props != nil && props.Kind == Map {
		top.closed = !openKeyed(props)
		top = closureOver(top, props)
	}
	p.object(data, top, 0)
	if openKeyed(data) {
		return p.offs
	}
	present := map[string]bool{}
	for _, e := range data.Entries {
		if n, ok := keyName(e.Key); ok {
			present[n] = true
		} else {
			return p.offs // an unknown key may be the missing one
		}
	}
	if req := schema.GetAtom("required"); req != nil && req.Kind == List && !req.Partial {
		var missing []string
		for _, el := range req.Elems {
			if el != nil && el.Kind == String && !el.Unknown && !present[el.Text] {
				missing = append(missing, InspectString(el.Text))
			}
		}
		if len(missing) > 0 {
			p.add(LintPayloadMissingRequired, data.Open(), fmt.Sprintf("the gate refuses this data: required %s missing", keysPhrase(missing)),
				"add "+strings.Join(missing, ", "))
		}
	}
	if groups := schema.GetAtom("required_one_of"); groups != nil && groups.Kind == List && !groups.Partial && len(groups.Elems) > 0 {
		complete := false
		var shown []string
		for _, g := range groups.Elems {
			if g == nil || g.Kind != List || g.Partial {
				return p.offs
			}
			all := true
			var names []string
			for _, el := range g.Elems {
				if el == nil || el.Kind != String || el.Unknown {
					return p.offs
				}
				names = append(names, InspectString(el.Text))
				all = all && present[el.Text]
			}
			shown = append(shown, "["+strings.Join(names, ", ")+"]")
			complete = complete || all
		}
		if !complete {
			p.add(LintPayloadMissingRequired, data.Open(), "the gate refuses this data: no :required_one_of group is complete ("+strings.Join(shown, " or ")+")",
				"send every key of one group")
		}
	}
	return p.offs
}

func keysPhrase(items []string) string {
	if len(items) == 1 {
		return "key " + items[0] + " is"
	}
	return "keys " + strings.Join(items, ", ") + " are"
}

// keyName is the JSON name of a payload key: an atom's or a string's text.
func keyName(k *Value) (string, bool) {
	if k == nil || k.Unknown || (k.Kind != Atom && k.Kind != String) {
		return "", false
	}
	return k.Text, true
}

type payload struct {
	action, where string
	offs          []Offence
	steps         int
}

func (p *payload) add(code string, ptr Origin, msg, fix string) {
	p.offs = append(p.offs, Offence{Code: code, Kind: KindLint, Action: p.action, Location: p.where,
		Pointer: ptr, Message: msg, Fix: fix, Severity: Warning})
}

// object checks the keys of the data map obj against cl and descends.
func (p *payload) object(obj *Value, cl closure, depth int) {
	p.steps++
	if depth > maxDepth || p.steps > maxSteps {
		return
	}
	names := cl.names()
	sort.Strings(names)
	for _, e := range effective(obj.Entries) {
		n, ok := keyName(e.Key)
		if !ok {
			continue
		}
		if ps, ok := cl.declared(n); ok {
			p.value(e.Value, ps, depth+1)
			continue
		}
		if cl.extra != nil {
			p.value(e.Value, cl.extra, depth+1)
			continue
		}
		if !cl.closed {
			continue
		}
		fix := "remove it, or declare it in the schema"
		if near, ok := Nearest(n, names, false); ok {
			fix = fmt.Sprintf("did you mean %s?", InspectString(near))
		}
		p.add(LintPayloadUndeclaredKey, e.Key.Origin, fmt.Sprintf("the gate refuses this data: key %s is not declared", InspectString(n)), fix)
	}
}

// value descends into a data value against its property schema.
func (p *payload) value(val, schema *Value, depth int) {
	if val == nil || schema == nil || schema.Kind != Map || depth > maxDepth {
		return
	}
	switch val.Kind {
	case Map:
		p.object(val, closureOf(schema), depth+1)
	case List:
		if it := keysOf(schema).items; it != nil && it.Kind == Map {
			for _, el := range val.Elems {
				p.value(el, it, depth+1)
			}
		}
	}
}

// Examples checks the data of every :examples entry (`%{data: %{...}}`) of
// the actions in actions/0 with Payload; actions listed in skip (by name
// as written, ":create": those with a shape offence) are not checked.
func Examples(actions *Value, skip map[string]bool) []Offence {
	if actions == nil || actions.Kind != Map {
		return nil
	}
	var offs []Offence
	for _, e := range effective(actions.Entries) {
		k, s := e.Key, e.Value
		if k == nil || k.Kind != Atom || k.Unknown || s == nil || s.Kind != Map || skip[actionName(k)] {
			continue
		}
		ex := s.GetAtom("examples")
		if ex == nil || ex.Kind != List {
			continue
		}
		for _, el := range ex.Elems {
			offs = append(offs, Payload(actionName(k), ":examples", s, ExampleData(el))...)
		}
	}
	return offs
}

// ExampleData returns the `data` of an example map `%{data: %{...}}` (atom
// or string key), or nil.
func ExampleData(ex *Value) *Value {
	if ex == nil || ex.Kind != Map {
		return nil
	}
	if d := ex.GetAtom("data"); d != nil {
		return d
	}
	return ex.Get("data")
}

// HintTarget is one workspace tool as a hint may name it: its evaluated
// actions/0 and the actions (as written, ":get") with a shape offence.
type HintTarget struct {
	Actions *Value
	Skip    map[string]bool
}

// CheckHint checks one Wymcp hint (README.md "Tools, routers and hints"): tool and action are the
// values of its tool: and action: options, data its example's data (nil
// when none); isNew marks Wymcp.Hint.new/1, which raises unless both are
// strings (hint-not-string, Severity Error, at the value). tools maps each
// workspace tool name to its target; allNames reports that every
// workspace tool's name is known (else an unmatched name may be one of
// the unknown ones: no lint/hint-unknown-tool). Then lint/hint-unknown-tool
// at the tool: value, lint/hint-unknown-action at the action: value, and
// Payload on data. Opaque values pass.
func CheckHint(tool, action, data *Value, isNew bool, tools map[string]HintTarget, allNames bool) []Offence {
	var offs []Offence
	notString := func(v *Value, opt string) bool {
		if v == nil || v.Kind == Opaque || v.Kind == String {
			return false
		}
		if isNew {
			offs = append(offs, Offence{Code: CodeHintNotString, Kind: KindShape, Pointer: v.Origin, Severity: Error,
				Message: fmt.Sprintf("Wymcp.Hint.new/1 raises: %s: must be a string, got %s", opt, Inspect(v, 60)),
				Fix:     "write the name as a string"})
			if v.Kind == Atom && !v.Unknown {
				offs[len(offs)-1].Fix = fmt.Sprintf("write %s", InspectString(v.Text))
			}
		}
		return true
	}
	badTool, badAction := notString(tool, "tool"), notString(action, "action")
	if badTool || badAction || tool == nil || tool.Kind != String || tool.Unknown {
		return offs
	}
	t, ok := tools[tool.Text]
	if !ok {
		if allNames {
			var names []string
			for n := range tools {
				names = append(names, n)
			}
			sort.Strings(names)
			fix, near := "name a tool of this workspace", ""
			// A near name whose tool declares the hint's action first: the
			// nearest of all ("orders" for "orderx" beside "orderz") may
			// not, and the fix would then raise hint-unknown-action.
			var declaring []string
			if action != nil && action.Kind == String && !action.Unknown {
				for _, n := range names {
					if tools[n].Actions.GetAtom(action.Text) != nil { // a literal key of its action map
						declaring = append(declaring, n)
					}
				}
			}
			if n, ok := Nearest(tool.Text, declaring, false); ok {
				fix, near = fmt.Sprintf("did you mean %s?", InspectString(n)), n
			} else if n, ok := Nearest(tool.Text, names, false); ok {
				fix, near = fmt.Sprintf("did you mean %s?", InspectString(n)), n
			}
			offs = append(offs, Offence{Code: LintHintUnknownTool, Kind: KindLint, Pointer: tool.Origin, Severity: Warning,
				Message: fmt.Sprintf("the hint names tool %s, which no tool of the workspace is named", InspectString(tool.Text)), Fix: fix, Suggestion: near})
		}
		return offs
	}
	if action == nil || action.Kind != String || action.Unknown || t.Actions == nil || t.Actions.Kind != Map {
		return offs
	}
	var schema *Value
	var names []string
	for _, e := range effective(t.Actions.Entries) {
		if e.Key != nil && e.Key.Kind == Atom && !e.Key.Unknown {
			names = append(names, e.Key.Text)
			if e.Key.Text == action.Text {
				schema = e.Value
			}
		}
	}
	if schema == nil {
		if !openKeyed(t.Actions) {
			fix, near := "name an action the tool declares", ""
			if n, ok := Nearest(action.Text, names, false); ok {
				fix, near = fmt.Sprintf("did you mean %s?", InspectString(n)), n
			}
			offs = append(offs, Offence{Code: LintHintUnknownAction, Kind: KindLint, Pointer: action.Origin, Severity: Warning,
				Message: fmt.Sprintf("the hint names action %s, which tool %s does not declare", InspectString(action.Text), InspectString(tool.Text)), Fix: fix, Suggestion: near})
		}
		return offs
	}
	if t.Skip[InspectAtom(action.Text)] {
		return offs
	}
	return append(offs, Payload(InspectAtom(action.Text), "hint example", schema, data)...)
}
