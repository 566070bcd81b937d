// Package listing renders what an LLM is shown of a Wymcp server: the
// tools/list entry of each tool, the help tool's entry, and the help
// tool's answers at its three levels, as the JSON the server writes, with
// their size in bytes and in tokens (README.md, "What the LLM sees").
//
// It knows nothing about source text: it reads evaluated terms
// (validate.Value) handed to it in a Tool, and writes JSON.
//
// # The entry shape (from Wymcp's source)
//
// A tools/list entry is %{"name" => name(), "description" =>
// description(), "inputSchema" => schema}, plus "title" when title/0 is a
// string, "annotations" when annotations/0 is a non-empty map and
// "outputSchema" when output_schema/0 is a map. schema is %{"type" =>
// "object", "required" => ["action"], "properties" => %{"action" =>
// %{"type" => "string", "enum" => names, "description" => summaries},
// "data" => %{"type" => "object"}}}, names the action names as strings,
// sorted, summaries the lines "<action>: <description>" sorted by action
// name and joined with "\n" (docs/rules.md §2, :description). The help
// tool, named "help", is listed last.
//
// # Key order
//
// Wymcp encodes with Elixir's JSON encoder (Jason, and Elixir's own JSON
// module later, behave alike here): a map is written in the order the BEAM
// iterates it, with no sorting of its own. A map of at most 32 keys is a
// flatmap, whose keys the BEAM keeps sorted in Erlang term order: numbers
// before atoms before binaries, atoms by name, binaries byte by byte. All
// the keys Wymcp writes into these answers are small maps, so the order is
// term order: "description", "inputSchema", "name" in an entry; atom keys
// before string keys in a mixed map. Checked on this machine's Elixir 1.14
// (OTP 25): Map.to_list(%{"b" => 1, :z => 2, "a" => 3, :a => 4, 1 => 5})
// gives 1, :a, :z, "a", "b". OTP 26 and later order the atom keys of a
// flatmap by an internal atom index instead of by name; we follow term
// order. A map of more than 32 keys (a hash map) is written in hash order,
// which is not reproduced: it is rendered sorted and reported as a Gap.
//
// # Our reconstruction of the help tool
//
// Wymcp's source gives the help tool's levels but not its own input
// schema or the exact keys of its answers. HelpEntry and the Help*
// answers are our reconstruction from those facts: the arguments are
// "tool" and "action"; the answers' own keys are atoms (tool, description,
// actions, action), with "context" a string key; the index is a list in
// the tools' order.
package listing

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wymcp/wymcp-ls/validate"
)

// Tool is what the listing reads of one tool module: the values its
// callbacks return, as the reader evaluated them. A nil value means the
// callback is not defined.
type Tool struct {
	// Module is the module's full name ("App.Tools.Notes"), for messages.
	Module string
	// Name and Description are what name/0 and description/0 return.
	Name, Description *validate.Value
	// Title, Annotations and OutputSchema are what title/0, annotations/0
	// and output_schema/0 return; nil when the callback is not defined.
	Title, Annotations, OutputSchema *validate.Value
	// Actions is what actions/0 returns; nil when it is not defined.
	Actions *validate.Value
	// HasActionContext reports that action_context/2 is defined.
	HasActionContext bool
}

// HelpName is the name of the help tool Wymcp adds to every server.
const HelpName = "help"

// ContextNote is written in place of "context" in the help answer for one
// action when action_context/2 is defined: that callback runs per call,
// on the caller's context, and is never evaluated here.
const ContextNote = "<action_context/2 is computed per call at run time; not shown>"

// Answer is one rendered JSON answer and the places in it that are not
// known exactly.
type Answer struct {
	root *node
	// Gaps lists every place the answer is not known exactly, in the
	// order met; empty when the JSON is exactly what Wymcp writes.
	Gaps []Gap
}

// Compact returns the answer as Wymcp sends it: JSON without whitespace.
func (a *Answer) Compact() []byte {
	var buf bytes.Buffer
	a.root.write(&buf, -1)
	return buf.Bytes()
}

// Pretty returns the answer indented by two spaces per level, with a
// trailing newline, as Jason.encode!(term, pretty: true) lays it out.
func (a *Answer) Pretty() []byte {
	var buf bytes.Buffer
	a.root.write(&buf, 0)
	buf.WriteByte('\n')
	return buf.Bytes()
}

// Exact reports that the answer has no gaps.
func (a *Answer) Exact() bool { return len(a.Gaps) == 0 }

// Entry returns the tools/list entry of t (see the package documentation
// for the shape).
func Entry(t Tool) *Answer {
	b := &builder{}
	n := b.entry(t)
	return &Answer{root: n, Gaps: b.gaps}
}

// HelpEntry returns the tools/list entry of the help tool: our
// reconstruction (see the package documentation), with two optional string
// arguments, "tool" and "action".
func HelpEntry() *Answer {
	return &Answer{root: helpEntry()}
}

// ToolsList returns the JSON array a server mounting tools (in list
// order) answers to tools/list: each tool's entry, then the help tool's.
func ToolsList(tools []Tool) *Answer {
	b := &builder{}
	arr := &node{kind: nArray, elems: []*node{}}
	for _, t := range tools {
		arr.elems = append(arr.elems, b.entry(t))
	}
	arr.elems = append(arr.elems, helpEntry())
	return &Answer{root: arr, Gaps: b.gaps}
}

// HelpIndex returns the help tool's answer with no arguments: a list, in
// the tools' order, of %{tool: name, description: description, actions:
// summaries} (summaries as in the tools/list entry).
func HelpIndex(tools []Tool) *Answer {
	b := &builder{}
	arr := &node{kind: nArray, elems: []*node{}}
	for _, t := range tools {
		sum := b.summaries(t, b.actions(t))
		arr.elems = append(arr.elems, newObject().
			set("actions", str(sum)).
			set("description", b.callback(t, t.Description, "description/0")).
			set("tool", b.callback(t, t.Name, "name/0")).n)
	}
	return &Answer{root: arr, Gaps: b.gaps}
}

// HelpTool returns the help tool's answer for one tool: %{tool: name,
// description: description, actions: %{action => schema}}, each schema
// restricted to the eight vocabulary keys (docs/rules.md §2) with
// :required defaulting to [].
func HelpTool(t Tool) *Answer {
	b := &builder{}
	acts := newObject()
	for _, a := range b.actions(t) {
		acts.set(a.name, b.schema(a.schema))
	}
	n := newObject().
		set("actions", acts.n).
		set("description", b.callback(t, t.Description, "description/0")).
		set("tool", b.callback(t, t.Name, "name/0")).n
	return &Answer{root: n, Gaps: b.gaps}
}

// HelpAction returns the help tool's answer for one action of t: the
// action's schema as at the tool level, with tool: and action: added, and
// "context" (ContextNote) when action_context/2 is defined. It fails when
// t declares no action of that name.
func HelpAction(t Tool, action string) (*Answer, error) {
	b := &builder{}
	for _, a := range b.actions(t) {
		if a.name != action {
			continue
		}
		sch := b.schema(a.schema)
		m := map[string]*node{"action": str(action), "tool": b.callback(t, t.Name, "name/0")}
		for i, k := range sch.keys {
			m[k] = sch.vals[i]
		}
		n := stringKeys(m) // every key but "context" is an atom: term order is by name
		if t.HasActionContext {
			b.gap("\"context\": action_context/2 is computed per call", validate.Origin{})
			n.keys = append(n.keys, "context")
			n.vals = append(n.vals, str(ContextNote))
		}
		return &Answer{root: n, Gaps: b.gaps}, nil
	}
	return nil, fmt.Errorf("%s declares no action %q (its actions: %s)", t.Module, action, ActionList(t))
}

// ActionNames returns the names of the actions t declares that the
// listing can read (atom keys of actions/0), sorted.
func ActionNames(t Tool) []string {
	var out []string
	for _, a := range (&builder{}).actions(t) {
		out = append(out, a.name)
	}
	return out
}

// ActionList returns ActionNames joined by ", ", or "none".
func ActionList(t Tool) string {
	names := ActionNames(t)
	if len(names) == 0 {
		return "none"
	}
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// entry builds one tools/list entry.
func (b *builder) entry(t Tool) *node {
	acts := b.actions(t)
	names := &node{kind: nArray, elems: []*node{}}
	for _, a := range acts {
		names.elems = append(names.elems, str(a.name))
	}
	sum := b.summaries(t, acts)
	schema := stringKeys(map[string]*node{
		"type":     str("object"),
		"required": {kind: nArray, elems: []*node{str("action")}},
		"properties": stringKeys(map[string]*node{
			"action": stringKeys(map[string]*node{
				"type": str("string"), "enum": names, "description": str(sum),
			}),
			"data": stringKeys(map[string]*node{"type": str("object")}),
		}),
	})
	m := map[string]*node{
		"name":        b.callback(t, t.Name, "name/0"),
		"description": b.callback(t, t.Description, "description/0"),
		"inputSchema": schema,
	}
	if v := t.Title; v != nil {
		switch v.Kind {
		case validate.String:
			m["title"] = b.value(v, 0)
		case validate.Opaque:
			b.gap(t.Module+": title/0 could not be evaluated (\"title\" is written only when it is a string)", v.Origin)
		}
	}
	if v := t.Annotations; v != nil {
		switch {
		case v.Kind == validate.Map && (len(v.Entries) > 0 || v.Partial):
			m["annotations"] = b.value(v, 0)
		case v.Kind == validate.Opaque:
			b.gap(t.Module+": annotations/0 could not be evaluated (\"annotations\" is written only when it is a non-empty map)", v.Origin)
		}
	}
	if v := t.OutputSchema; v != nil {
		switch v.Kind {
		case validate.Map:
			m["outputSchema"] = b.value(v, 0)
		case validate.Opaque:
			b.gap(t.Module+": output_schema/0 could not be evaluated (\"outputSchema\" is written only when it is a map)", v.Origin)
		}
	}
	return stringKeys(m)
}

// callback converts the value of a required callback, or writes the
// placeholder with a gap when the callback is not defined.
func (b *builder) callback(t Tool, v *validate.Value, name string) *node {
	if v == nil {
		b.gap(t.Module+": "+name+" is not defined", validate.Origin{})
		return str(Placeholder)
	}
	if v.Kind == validate.Opaque {
		b.gap(t.Module+": "+name+" could not be evaluated", v.Origin)
		return str(Placeholder)
	}
	return b.value(v, 0)
}

// action is one declared action: its name and schema value.
type action struct {
	name   string
	schema *validate.Value
}

// actions returns t's actions with atom names, sorted by name, the last
// of a name written twice winning; anything it cannot read is a gap.
func (b *builder) actions(t Tool) []action {
	v := t.Actions
	if v == nil {
		b.gap(t.Module+": actions/0 is not defined", validate.Origin{})
		return nil
	}
	if v.Kind != validate.Map {
		b.gap(t.Module+": actions/0 could not be evaluated to a map", v.Origin)
		return nil
	}
	if v.Partial {
		b.gap(t.Module+": actions/0 may declare more actions than the reader sees", v.Origin)
	}
	idx := map[string]int{}
	var out []action
	for _, e := range v.Entries {
		if e.Key == nil || e.Key.Kind != validate.Atom {
			b.gap(t.Module+": an action key that is not a literal atom", keyOrigin(e))
			continue
		}
		if i, ok := idx[e.Key.Text]; ok {
			out[i].schema = e.Value
			continue
		}
		idx[e.Key.Text] = len(out)
		out = append(out, action{e.Key.Text, e.Value})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func keyOrigin(e validate.Entry) validate.Origin {
	if e.Key != nil {
		return e.Key.Origin
	}
	return validate.Origin{}
}

// summaries returns the lines "<action>: <description>" of t's actions
// acts (sorted by name), joined with "\n".
func (b *builder) summaries(t Tool, acts []action) string {
	var sb strings.Builder
	for i, a := range acts {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(a.name)
		sb.WriteString(": ")
		d := a.schema.GetAtom("description")
		switch {
		case d != nil && d.Kind == validate.String:
			if d.Unknown {
				b.gap(t.Module+": the description of action :"+a.name+" has interpolation", d.Origin)
			}
			sb.WriteString(b.utf8(d.Text, d.Origin))
		default:
			var origin validate.Origin
			if a.schema != nil {
				origin = a.schema.Origin
			}
			what := " is not a known string"
			if d != nil {
				origin = d.Origin
			} else if a.schema != nil && a.schema.Kind == validate.Map && !a.schema.Partial {
				what = " is missing (Wymcp refuses an action schema without one)"
			}
			b.gap(t.Module+": the description of action :"+a.name+what, origin)
			sb.WriteString(Placeholder)
		}
	}
	return sb.String()
}

// schema converts one action schema for the help tool: only the eight
// vocabulary keys (read from validate.DefaultCatalogue, the one owner),
// :required defaulting to [], keys in term order (all atoms: by name).
func (b *builder) schema(v *validate.Value) *node {
	if v == nil || v.Kind != validate.Map {
		var origin validate.Origin
		if v != nil {
			origin = v.Origin
		}
		b.gap("an action schema that is not a known map", origin)
		return newObject().n
	}
	if v.Partial {
		b.gap("an action schema that may hold more keys than the reader sees", v.Origin)
	}
	m := map[string]*node{}
	for _, k := range vocabulary {
		if x := v.GetAtom(k); x != nil {
			m[k] = b.value(x, 1)
		}
	}
	if _, ok := m["required"]; !ok {
		m["required"] = &node{kind: nArray, elems: []*node{}}
	}
	return stringKeys(m)
}

// vocabulary is the action-schema key list, from its one owner.
var vocabulary = validate.DefaultCatalogue().Names()

// helpEntry is the help tool's tools/list entry (our reconstruction).
func helpEntry() *node {
	return stringKeys(map[string]*node{
		"name": str(HelpName),
		"description": str("Describe this server's tools. With no arguments: every tool with its action summaries. " +
			"With \"tool\": that tool's actions and their schemas. With \"tool\" and \"action\": that one action's schema."),
		"inputSchema": stringKeys(map[string]*node{
			"type": str("object"),
			"properties": stringKeys(map[string]*node{
				"tool":   stringKeys(map[string]*node{"type": str("string"), "description": str("A tool name from tools/list")}),
				"action": stringKeys(map[string]*node{"type": str("string"), "description": str("An action of that tool (needs \"tool\")")}),
			}),
		}),
	})
}

// group writes n with thousands separators: 1234 -> "1,234".
func group(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
