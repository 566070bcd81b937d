package main

import (
	"fmt"
	"slices"
	"strings"
)

// Offence kinds the generator plants, one diagnostic each. The first
// field of each is the docs/rules.md §4 code it must produce.
const (
	plantUnknownKey      = "unknown-key"
	plantUndeclaredField = "undeclared-field"
	plantDefaultTop      = "undeclared-default/top"
	plantDefaultNested   = "undeclared-default/nested"
	plantMissingKey      = "missing-key"
	plantWrongType       = "wrong-type"
	plantSharedAttr      = "atom-schema-keyword/shared"
	plantDescNewline     = "description-newline"
	plantDuplicateEntry  = "duplicate-entry"
	plantPropNotMap      = "property-schema-not-map"
	plantSuperset        = "superset-group"
)

// plantKinds is the cycle the tools with an offence go through.
var plantKinds = []string{
	plantUnknownKey, plantUndeclaredField, plantDefaultTop, plantMissingKey, plantSharedAttr,
	plantWrongType, plantDefaultNested, plantDescNewline, plantDuplicateEntry, plantPropNotMap,
	plantSuperset,
}

// codeOf returns the docs/rules.md §4 code a plant kind produces.
func codeOf(kind string) string {
	if i := strings.IndexByte(kind, '/'); i >= 0 {
		return kind[:i]
	}
	return kind
}

// Declaration forms of a tool without a Schemas module (docs/architecture.md
// "The Elixir reader").
const (
	formDo         = iota // def actions do %{...} end
	formKeywordDo         // def actions, do: %{...}
	formAttributes        // one attribute per action; def actions() do %{a: @a} end
	formListing           // Map.put / Map.merge over a shared @listing, plus literals
	formLocal             // def actions, do: schemas(); defp schemas do ... end
	nForms
)

// Declaration forms of a tool that reads its Schemas module.
const (
	viaAlias     = iota // alias X.Schemas; def actions, do: Schemas.all()
	viaModule           // def actions, do: __MODULE__.Schemas.all()
	viaAliasAs          // alias X.Schemas, as: XSchemas; XSchemas.all()
	viaAliasMany        // alias X.{Policy, Schemas}; def actions do Schemas.all() end
	viaPipe             // Schemas.all() |> Map.merge(%{ping: ...})
	nVia
)

// propDef is one entry of the property pool.
type propDef struct {
	name   string
	schema []string // the schema value; lines after the first are relative to the key's indent
	def    string   // a valid default value, "" when none is offered
	ex     string   // an example value
	shared string   // attribute name when the schema is a shared attribute
}

var propPool = []propDef{
	{name: "id", schema: []string{`%{"type" => "string", "description" => "Identifier"}`}, ex: `"id_123"`, shared: "id_prop"},
	{name: "name", schema: []string{`%{"type" => "string", "minLength" => 1, "maxLength" => 160}`}, ex: `"Spring sale"`},
	{name: "limit", schema: []string{`%{"type" => "integer", "minimum" => 1, "maximum" => 100}`}, def: `20`, ex: `10`},
	{name: "cursor", schema: []string{`%{"type" => "string"}`}, ex: `"g3QAAAAB"`},
	{name: "status", schema: []string{`%{"type" => "string", "enum" => ["open", "closed", "archived"]}`}, def: `"open"`, ex: `"open"`},
	{name: "tags", schema: []string{`%{"type" => "array", "items" => %{"type" => "string"}}`}, def: `[]`, ex: `["urgent"]`, shared: "tags_prop"},
	{name: "opts", schema: []string{
		`%{`,
		`  "type" => "object",`,
		`  "properties" => %{`,
		`    "notify" => %{"type" => "boolean"},`,
		`    "dry_run" => %{"type" => "boolean"}`,
		`  }`,
		`}`,
	}, def: `%{"notify" => false}`, ex: `%{"dry_run" => true}`},
	{name: "meta", schema: []string{`%{"type" => "object", "additionalProperties" => true}`}, def: `%{"source" => "mcp"}`, ex: `%{"trace" => "abc"}`},
	{name: "amount", schema: []string{`%{"type" => "number", "minimum" => 0}`}, ex: `12.5`},
	{name: "due", schema: []string{`%{"type" => "string", "format" => "date"}`}, ex: `"2024-06-01"`},
	{name: "query", schema: []string{`%{"type" => ["string", "null"], "description" => "Free text"}`}, ex: `"late"`},
	{name: "filters", schema: []string{`%{"type" => "object", "additionalProperties" => %{"type" => "string"}}`}, def: `%{}`, ex: `%{"region" => "eu"}`},
	{name: "lines", schema: []string{
		`%{`,
		`  "type" => "array",`,
		`  "items" => %{`,
		`    "type" => "object",`,
		`    "properties" => %{`,
		`      "sku" => %{"type" => "string"},`,
		`      "qty" => %{"type" => "integer", "minimum" => 1}`,
		`    },`,
		`    "required" => ["sku", "qty"]`,
		`  }`,
		`}`,
	}, def: `[]`, ex: `[%{"sku" => "A-1", "qty" => 2}]`},
	{name: "email", schema: []string{`%{"type" => "string", "format" => "email"}`}, ex: `"ada@example.com"`},
	{name: "page", schema: []string{`%{"type" => "integer", "minimum" => 1}`}, def: `1`, ex: `2`},
	{name: "active", schema: []string{`%{"type" => "boolean"}`}, def: `true`, ex: `false`},
}

// poolProp returns the pool entry called name.
func poolProp(name string) propDef {
	for _, p := range propPool {
		if p.name == name {
			return p
		}
	}
	panic("gen: no pool property " + name)
}

var verbs = []string{
	"create", "list", "get", "update", "delete", "archive", "search", "export", "assign",
	"close", "reopen", "approve", "cancel", "count", "restore", "publish",
}

// action is one planned action schema.
type action struct {
	name     string
	desc     string
	props    []propDef
	required []string
	oneOf    [][]string
	defaults [][2]string // property name, value literal
	notes    []string    // heredoc lines, nil for none
	related  []string
	examples string // literal list, "" for none

	viaPut   bool   // built by Map.put/Map.merge over @listing (never planted)
	plant    string // plant kind, "" for none
	extraReq string // plantUndeclaredField: the undeclared name
}

// toolSpec is one planned tool module.
type toolSpec struct {
	camel, module, path string
	dom                 domain
	schemas             bool // reads Schemas.all() from module+".Schemas"
	form                int  // formXxx, or viaXxx when schemas
	behaviour           bool // @behaviour Wymcp.Tool instead of use
	actions             []*action
	sharedID            bool // "id" is written as @id_prop
	sharedTags          bool // "tags" is written as @tags_prop
	plant               string
}

// planOffences gives about half of the tools one planted offence, cycling
// through plantKinds in a random tool order.
func (g *generator) planOffences() {
	order := g.rng.Perm(len(g.tools))
	n := (len(g.tools) + 1) / 2
	for i, ti := range order[:n] {
		g.tools[ti].plant = plantKinds[i%len(plantKinds)]
	}
}

// buildTool decides the form, actions and properties of t and applies its
// planted offence.
func (g *generator) buildTool(t *toolSpec) {
	r := g.rng
	t.behaviour = r.IntN(4) == 0
	if t.schemas {
		t.form = r.IntN(nVia)
	} else {
		t.form = r.IntN(nForms)
	}
	nActs := 2 + r.IntN(5)
	names := slices.Clone(verbs)
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	names = names[:nActs]
	lower := strings.ToLower(t.dom.singular)
	for _, n := range names {
		a := &action{name: n, desc: fmt.Sprintf("%s %s", strings.ToUpper(n[:1])+n[1:], lower)}
		g.fillAction(a)
		t.actions = append(t.actions, a)
	}
	if !t.schemas && t.form == formListing {
		for _, n := range []string{"recent", "pinned"} {
			t.actions = append(t.actions, &action{name: n, viaPut: true,
				desc: fmt.Sprintf("%s %s", strings.ToUpper(n[:1])+n[1:], strings.ToLower(t.dom.plural))})
		}
	}
	// related: only names of this tool's actions (lint/related-unknown-action).
	for _, a := range t.actions {
		if a.viaPut || r.IntN(10) >= 3 {
			continue
		}
		for _, b := range t.actions {
			if b != a && !b.viaPut && len(a.related) < 2 && r.IntN(2) == 0 {
				a.related = append(a.related, b.name)
			}
		}
	}
	t.sharedID = r.IntN(2) == 0
	t.sharedTags = r.IntN(3) == 0
	if t.plant != "" {
		g.applyPlant(t)
	}
}

// fillAction draws 2..6 properties and the optional keys of a, keeping it
// free of offences and lints.
func (g *generator) fillAction(a *action) {
	r := g.rng
	n := 2 + r.IntN(5)
	perm := r.Perm(len(propPool))
	for _, i := range perm[:n] {
		a.props = append(a.props, propPool[i])
	}
	var defaultable, plain []string
	for _, p := range a.props {
		if p.def != "" && r.IntN(2) == 0 {
			defaultable = append(defaultable, p.name)
		} else {
			plain = append(plain, p.name)
		}
	}
	// required from the non-defaulted ones (lint/default-for-required).
	for _, p := range plain {
		if len(a.required) < 2 && r.IntN(3) == 0 {
			a.required = append(a.required, p)
		}
	}
	for _, p := range defaultable {
		a.defaults = append(a.defaults, [2]string{p, poolProp(p).def})
	}
	if len(plain) >= 2 && r.IntN(8) == 0 {
		a.oneOf = [][]string{{plain[0]}, {plain[1]}}
	}
	if r.IntN(10) < 3 {
		a.notes = []string{
			fmt.Sprintf("Runs %s against the primary database.", a.name),
			"Results are scoped to the caller's account.",
		}
	}
	if r.IntN(10) < 4 {
		p := a.props[0]
		a.examples = fmt.Sprintf(`[%%{%q => %s}]`, p.name, p.ex)
	}
}

// plantable returns the actions written as literals.
func (t *toolSpec) plantable() []*action {
	var out []*action
	for _, a := range t.actions {
		if !a.viaPut {
			out = append(out, a)
		}
	}
	return out
}

// applyPlant edits one action (two for the shared attribute) so that it
// carries exactly one offence of kind t.plant.
func (g *generator) applyPlant(t *toolSpec) {
	acts := t.plantable()
	a := acts[g.rng.IntN(len(acts))]
	a.plant = t.plant
	switch t.plant {
	case plantUndeclaredField:
		for _, n := range []string{"owner_id", "region", "priority", "currency"} {
			if !a.has(n) {
				a.extraReq = n
				break
			}
		}
	case plantDefaultNested:
		if !a.has("opts") {
			a.props = append(a.props, poolProp("opts"))
		}
		a.required = slices.DeleteFunc(a.required, func(s string) bool { return s == "opts" })
		a.defaults = slices.DeleteFunc(a.defaults, func(d [2]string) bool { return d[0] == "opts" })
		a.defaults = append(a.defaults, [2]string{"opts", `%{"notify" => false, "silent" => true}`})
	case plantWrongType, plantDuplicateEntry, plantSuperset:
		// Needs two declared, non-defaulted properties.
		for _, n := range []string{"id", "name", "cursor", "query", "email", "due"} {
			if len(a.undefaulted()) >= 2 {
				break
			}
			if !a.has(n) {
				a.props = append(a.props, poolProp(n))
			}
		}
	case plantSharedAttr:
		// @tags_prop gets `items:`; two actions read it.
		t.sharedTags = true
		a.plant = ""
		users := 0
		for _, b := range acts {
			if b.has("tags") {
				users++
			}
		}
		for _, b := range acts {
			if users >= 2 {
				break
			}
			if !b.has("tags") {
				b.props = append(b.props, poolProp("tags"))
				users++
			}
		}
		if users < 2 {
			// A single literal action: add a second one reading the attribute.
			b := &action{name: "tag", desc: "Tag " + strings.ToLower(t.dom.singular)}
			b.props = []propDef{poolProp("id"), poolProp("tags")}
			b.required = []string{"id"}
			t.actions = append(t.actions, b)
		}
	}
}

// has reports whether a declares property n.
func (a *action) has(n string) bool {
	return slices.ContainsFunc(a.props, func(p propDef) bool { return p.name == n })
}

// undefaulted returns the declared properties without a default.
func (a *action) undefaulted() []string {
	var out []string
	for _, p := range a.props {
		if !slices.ContainsFunc(a.defaults, func(d [2]string) bool { return d[0] == p.name }) {
			out = append(out, p.name)
		}
	}
	return out
}

// tagUsers names the actions whose "tags" property is the shared attribute.
func (t *toolSpec) tagUsers() []string {
	var out []string
	for _, a := range t.actions {
		if !a.viaPut && a.has("tags") {
			out = append(out, a.name)
		}
	}
	return out
}

// joinEntries puts a comma after every entry but the last.
func joinEntries(entries [][]line) []line {
	var out []line
	for i, e := range entries {
		if len(e) == 0 {
			continue
		}
		if i < len(entries)-1 {
			e[len(e)-1].text += ","
		}
		out = append(out, e...)
	}
	return out
}

// quoteList renders ["a", "b"].
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// renderAction writes the action map of a at indent ind, opened by head
// (`create: ` or `@create `). desc is the rendered description value
// (`"..."` or `@prefix <> "..."`).
func (t *toolSpec) renderAction(a *action, ind, head, desc string) []line {
	in := ind + "  "
	open := line{text: ind + head + "%{"}
	mk := func(code, token string, last bool) *mark {
		return &mark{code: code, token: token, last: last, actions: []string{a.name}}
	}
	var entries [][]line
	switch a.plant {
	case plantMissingKey:
		open.mark = mk(codeOf(a.plant), "%{", false)
	case plantDescNewline:
		entries = append(entries, []line{
			{text: in + `description: """`, mark: mk(codeOf(a.plant), `"""`, false)},
			{text: in + "  " + strings.Trim(desc, `"`) + "."},
			{text: in + "  " + `"""`},
		})
	default:
		entries = append(entries, []line{{text: in + "description: " + desc}})
	}

	// properties
	var props [][]line
	for _, p := range a.props {
		key := in + "  " + fmt.Sprintf("%q => ", p.name)
		switch {
		case p.name == "id" && t.sharedID:
			props = append(props, []line{{text: key + "@id_prop"}})
		case p.name == "tags" && t.sharedTags:
			props = append(props, []line{{text: key + "@tags_prop"}})
		default:
			ls := []line{{text: key + p.schema[0]}}
			for _, s := range p.schema[1:] {
				ls = append(ls, line{text: in + "  " + s})
			}
			props = append(props, ls)
		}
	}
	if a.plant == plantPropNotMap {
		props = append(props, []line{{text: in + `  "count" => "integer"`, mark: mk(codeOf(a.plant), `"integer"`, false)}})
	}
	pe := []line{{text: in + "properties: %{"}}
	pe = append(pe, joinEntries(props)...)
	pe = append(pe, line{text: in + "}"})
	entries = append(entries, pe)

	// unknown-key: misspell examples, else notes, else required, else add
	// a misspelled examples.
	unknown := ""
	if a.plant == plantUnknownKey {
		switch {
		case a.examples != "":
			unknown = "example"
		case a.notes != nil:
			unknown = "note"
		case len(a.required) > 0:
			unknown = "require"
		default:
			unknown = "example"
		}
	}

	// required
	req := slices.Clone(a.required)
	reqKey := "required: "
	var reqMark *mark
	switch a.plant {
	case plantUndeclaredField:
		req = append(req, a.extraReq)
		reqMark = mk(codeOf(a.plant), fmt.Sprintf("%q", a.extraReq), true)
	case plantDuplicateEntry:
		u := a.undefaulted()
		if len(req) == 0 {
			req = []string{u[0]}
		}
		req = append(req, req[0])
		reqMark = mk(codeOf(a.plant), fmt.Sprintf("%q", req[0]), true)
	case plantUnknownKey:
		if unknown == "require" {
			reqKey = "require: "
			reqMark = mk(codeOf(a.plant), "require", false)
		}
	}
	if a.plant == plantWrongType {
		u := a.undefaulted()
		entries = append(entries, []line{{
			text: in + fmt.Sprintf("required: [:%s, %q]", u[0], u[1]),
			mark: mk(codeOf(a.plant), ":"+u[0], false),
		}})
	} else if len(req) > 0 {
		entries = append(entries, []line{{text: in + reqKey + quoteList(req), mark: reqMark}})
	}

	// required_one_of
	if a.plant == plantSuperset {
		u := a.undefaulted()
		big := fmt.Sprintf("[%q, %q]", u[0], u[1])
		entries = append(entries, []line{{
			text: in + fmt.Sprintf("required_one_of: [[%q], %s]", u[0], big),
			mark: mk(codeOf(a.plant), big, false),
		}})
	} else if len(a.oneOf) > 0 {
		gs := make([]string, len(a.oneOf))
		for i, grp := range a.oneOf {
			gs[i] = quoteList(grp)
		}
		entries = append(entries, []line{{text: in + "required_one_of: [" + strings.Join(gs, ", ") + "]"}})
	}

	// defaults
	defs := slices.Clone(a.defaults)
	var defMark *mark
	if a.plant == plantDefaultTop {
		defs = append(defs, [2]string{"sort", `"asc"`})
		defMark = mk(codeOf(a.plant), `"sort"`, false)
	}
	if a.plant == plantDefaultNested {
		defMark = mk(codeOf(a.plant), `"silent"`, false)
	}
	if len(defs) > 0 {
		ds := make([]string, len(defs))
		for i, d := range defs {
			ds[i] = fmt.Sprintf("%q => %s", d[0], d[1])
		}
		entries = append(entries, []line{{text: in + "defaults: %{" + strings.Join(ds, ", ") + "}", mark: defMark}})
	}

	// notes, related, examples
	if a.notes != nil {
		key, m := "notes: ", (*mark)(nil)
		if unknown == "note" {
			key, m = "note: ", mk(codeOf(a.plant), "note", false)
		}
		ls := []line{{text: in + key + `"""`, mark: m}}
		for _, n := range a.notes {
			ls = append(ls, line{text: in + n})
		}
		ls = append(ls, line{text: in + `"""`})
		entries = append(entries, ls)
	}
	if len(a.related) > 0 {
		entries = append(entries, []line{{text: in + "related: " + quoteList(a.related)}})
	}
	if unknown == "example" {
		ex := a.examples
		if ex == "" {
			ex = fmt.Sprintf(`[%%{%q => %s}]`, a.props[0].name, a.props[0].ex)
		}
		entries = append(entries, []line{{text: in + "example: " + ex, mark: mk(codeOf(a.plant), "example", false)}})
	} else if a.examples != "" {
		entries = append(entries, []line{{text: in + "examples: " + a.examples}})
	}

	out := []line{open}
	out = append(out, joinEntries(entries)...)
	out = append(out, line{text: ind + "}"})
	return out
}

// sharedAttrs writes @id_prop and @tags_prop where the tool uses them.
func (g *generator) sharedAttrs(b *fileBuf, t *toolSpec) {
	uses := func(n string) bool {
		for _, a := range t.actions {
			if !a.viaPut && a.has(n) {
				return true
			}
		}
		return false
	}
	if t.sharedID && uses("id") {
		b.pf(`  @id_prop %%{"type" => "string", "description" => "%s id"}`, t.dom.singular)
		b.p("")
	}
	if t.sharedTags && uses("tags") {
		if t.plant == plantSharedAttr {
			b.add(line{
				text: `  @tags_prop %{"type" => "array", items: %{"type" => "string"}}`,
				mark: &mark{code: codeOf(plantSharedAttr), token: "items", actions: t.tagUsers()},
			})
		} else {
			b.p(`  @tags_prop %{"type" => "array", "items" => %{"type" => "string"}}`)
		}
		b.p("")
	}
}

// actionsMap writes the actions map: the line open (`    %{` or
// `    do: %{`), one entry per action at ind plus two spaces, and `}` at ind.
// Every action is a literal except those built over @listing.
func (t *toolSpec) actionsMap(b *fileBuf, ind, open string) {
	var entries [][]line
	for _, a := range t.actions {
		if a.viaPut {
			entries = append(entries, t.putEntry(a, ind+"  "))
			continue
		}
		entries = append(entries, t.renderAction(a, ind+"  ", a.name+": ", fmt.Sprintf("%q", a.desc)))
	}
	b.add(line{text: open})
	b.add(joinEntries(entries)...)
	b.add(line{text: ind + "}"})
}

// putEntry writes an action built over @listing.
func (t *toolSpec) putEntry(a *action, ind string) []line {
	if a.name == "recent" {
		return []line{{text: fmt.Sprintf("%s%s: Map.put(@listing, :description, %q)", ind, a.name, a.desc)}}
	}
	return []line{{text: fmt.Sprintf("%s%s: Map.merge(@listing, %%{description: %q})", ind, a.name, a.desc)}}
}

// renderTool writes the tool module file of t.
func (g *generator) renderTool(t *toolSpec) *fileBuf {
	b := &fileBuf{path: t.path, tool: t.module}
	ctx := fmt.Sprintf("%s.%s", g.app, t.camel)
	b.pf("defmodule %s do", t.module)
	b.p(`  @moduledoc """`)
	b.pf("  %s, exposed as an MCP tool.", t.dom.plural)
	b.p("")
	b.pf("  Every action maps onto a function of `%s`; the data each one", ctx)
	b.p("  takes is declared in `actions/0` and checked by Wymcp before `run_action/3`.")
	b.p(`  """`)
	if t.behaviour {
		b.p("  @behaviour Wymcp.Tool")
	} else {
		b.p("  use Wymcp.Tool")
	}
	b.p("")
	b.p("  @impl true")
	b.pf("  def name, do: %q", snake(t.camel))
	b.p("")
	b.pf("  alias %s, as: Context", ctx)
	schemasAlias := "Schemas"
	if t.schemas {
		switch t.form {
		case viaAlias, viaPipe:
			b.pf("  alias %s.Schemas", t.module)
		case viaAliasAs:
			schemasAlias = t.camel + "Schemas"
			b.pf("  alias %s.Schemas, as: %s", t.module, schemasAlias)
		case viaAliasMany:
			b.pf("  alias %s.{Policy, Schemas}", t.module)
		}
	}
	b.p("", "  require Logger", "")

	if !t.schemas {
		g.sharedAttrs(b, t)
		switch t.form {
		case formAttributes:
			for _, a := range t.actions {
				b.add(t.renderAction(a, "  ", "@"+a.name+" ", fmt.Sprintf("%q", a.desc))...)
				b.p("")
			}
		case formListing:
			b.p(`  @listing %{`,
				`    properties: %{`,
				`      "limit" => %{"type" => "integer", "minimum" => 1, "maximum" => 100},`,
				`      "cursor" => %{"type" => "string"}`,
				`    },`,
				`    defaults: %{"limit" => 20}`,
				`  }`, "")
		}
	}

	b.p("  @impl true")
	switch {
	case t.schemas:
		switch t.form {
		case viaAlias:
			b.p("  def actions, do: Schemas.all()")
		case viaModule:
			b.p("  def actions, do: __MODULE__.Schemas.all()")
		case viaAliasAs:
			b.pf("  def actions, do: %s.all()", schemasAlias)
		case viaAliasMany:
			b.p("  def actions do", "    Schemas.all()", "  end")
		case viaPipe:
			b.p("  def actions do",
				"    Schemas.all()",
				`    |> Map.merge(%{ping: %{description: "Health check", properties: %{}}})`,
				"  end")
		}
	case t.form == formDo || t.form == formListing:
		b.p("  def actions do")
		t.actionsMap(b, "    ", "    %{")
		b.p("  end")
	case t.form == formKeywordDo:
		b.p("  def actions,")
		t.actionsMap(b, "    ", "    do: %{")
	case t.form == formAttributes:
		b.p("  def actions() do")
		names := make([]string, len(t.actions))
		for i, a := range t.actions {
			names[i] = fmt.Sprintf("%s: @%s", a.name, a.name)
		}
		b.p("    %{", "      "+strings.Join(names, ",\n      "), "    }", "  end")
	case t.form == formLocal:
		b.p("  def actions, do: schemas()")
	}
	b.p("")

	verbsDone := map[string]bool{}
	for _, a := range t.actions {
		if verbsDone[a.name] {
			continue
		}
		verbsDone[a.name] = true
		fn := fmt.Sprintf("%s_%s", a.name, snake(t.dom.singular))
		b.p("  @impl true")
		b.pf("  def run_action(:%s, data, ctx) do", a.name)
		b.pf("    Logger.debug(%q, actor: ctx.actor_id)", snake(t.camel)+"."+a.name)
		b.p("")
		b.p("    with {:ok, params} <- normalize(data),")
		b.pf("         {:ok, result} <- Context.%s(params, ctx) do", fn)
		b.p("      {:ok, render(result)}")
		b.p("    end")
		b.p("  end")
		b.p("")
	}
	b.p("  def run_action(action, _data, _ctx), do: {:error, {:unknown_action, action}}", "")
	if !t.schemas && t.form == formLocal {
		b.p("  defp schemas do")
		t.actionsMap(b, "    ", "    %{")
		b.p("  end", "")
	}
	b.p(`  defp normalize(data) when is_map(data) do
    {:ok, Map.new(data, fn {k, v} -> {to_string(k), v} end)}
  end

  defp normalize(_data), do: {:error, :invalid_data}

  defp render(%{__struct__: _} = struct), do: struct |> Map.from_struct() |> Map.drop([:__meta__])
  defp render(list) when is_list(list), do: Enum.map(list, &render/1)
  defp render(other), do: other
end`)
	return b
}

// renderSchemas writes the Schemas module of t: attributes built with `<>`
// and `def all`.
func (g *generator) renderSchemas(t *toolSpec) *fileBuf {
	b := &fileBuf{path: strings.TrimSuffix(t.path, ".ex") + "/schemas.ex", tool: t.module}
	b.pf("defmodule %s.Schemas do", t.module)
	b.pf(`  @moduledoc "Action schemas of %s, one attribute per action."`, "`"+t.module+"`")
	b.p("")
	b.pf("  @prefix %q", t.dom.plural+": ")
	b.p("")
	g.sharedAttrs(b, t)
	for _, a := range t.actions {
		desc := fmt.Sprintf("@prefix <> %q", strings.ToLower(a.desc[:1])+a.desc[1:])
		if a.plant == plantDescNewline {
			desc = fmt.Sprintf("%q", a.desc)
		}
		b.add(t.renderAction(a, "  ", "@"+a.name+" ", desc)...)
		b.p("")
	}
	names := make([]string, len(t.actions))
	for i, a := range t.actions {
		names[i] = fmt.Sprintf("%s: @%s", a.name, a.name)
	}
	b.pf("  @doc %q", "Every action schema of "+t.module+".")
	if len(names) <= 3 {
		b.pf("  def all, do: %%{%s}", strings.Join(names, ", "))
	} else {
		b.p("  def all do", "    %{", "      "+strings.Join(names, ",\n      "), "    }", "  end")
	}
	b.p("")
	b.p(`  @doc "The action names, for routing."`)
	b.p("  def names, do: all() |> Map.keys() |> Enum.sort()")
	b.p("end")
	return b
}
