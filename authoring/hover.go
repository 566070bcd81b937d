package authoring

import (
	"context"
	"fmt"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Hover is a hover's markdown (LSP 3.17 "Hover", MarkupContent kind
// markdown) and the byte span of the token it describes.
type Hover struct {
	Markdown string
	Span     positions.Span
}

// Bounds of what a hover shows.
const (
	// maxHoverValue is the longest evaluated value a hover prints, in
	// bytes (validate.Inspect cuts it and ends it in "...").
	maxHoverValue = 1500
	// maxHoverSource is the longest property schema shown as written.
	maxHoverSource = 1500
)

// HoverAt returns the hover at byte offset off of the snapshot's document
// (README.md "Hover"), or ok false when there is nothing to say:
//   - a vocabulary key: its catalogue entry (validate.KeyDoc.Markdown); a
//     key that is not one: that Wymcp refuses it, and the entry of the
//     key the unknown-key diagnostic suggests;
//   - a JSON Schema keyword: its summary and whether wymcp reads it;
//   - a property name in :properties, :required, :required_one_of or
//     :defaults: the property's schema as written;
//   - an action name (its key, a :related entry, a run_action/3 clause,
//     guard or case atom, a hint's action:): the line tools/list
//     publishes (validate.Summary) and its help pointer;
//   - `@attr` or a zero-arity call (`Schemas.all()`): the evaluated value,
//     cut at about 1,500 bytes;
//   - a module name the workspace defines (a mount's `tools: [...]`
//     entry): its full name and, for a tool, its name/0 and action count.
func HoverAt(ctx context.Context, snap *workspace.Snapshot, off int) (Hover, bool) {
	if snap == nil || snap.Skipped {
		return Hover{}, false
	}
	c := NewCursor(ctx, snap, off)
	t, ok := c.Target()
	if !ok {
		// A run_action/3 clause, guard or case atom, or a hint's action:,
		// names an action as its key does (Definition).
		a, ok := c.actionAt()
		if !ok {
			if m, sp, ok := c.moduleAt(); ok {
				return Hover{Markdown: c.moduleHover(m), Span: sp}, true
			}
			return Hover{}, false
		}
		t = Target{Kind: TargetAction, Span: a.span, Name: a.name, Role: Role{Tool: c.toolOf(a.tool)}}
	}
	cat := catalogueOf(snap)
	var md string
	switch t.Kind {
	case TargetKey:
		k, ok := cat.Key(t.Name)
		if !ok {
			md = unknownKeyHover(cat, t.Name)
			break
		}
		md = k.Markdown()
	case TargetKeyword:
		k, ok := cat.Keyword(t.Name)
		if !ok {
			return Hover{}, false
		}
		md = k.Markdown()
	case TargetProperty:
		md = c.propertyHover(t)
	case TargetAction:
		md = c.actionHover(t)
	case TargetAttr, TargetCall:
		md = c.valueHover(t)
	}
	if md == "" {
		return Hover{}, false
	}
	return Hover{Markdown: md, Span: t.Span}, true
}

// moduleHover describes the module m a module name names: its full name
// and, for a tool module, the tool name name/0 returns and the number of
// actions actions/0 declares, where they are known.
func (c *Cursor) moduleHover(m *elixir.Module) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**\n", m.Name)
	if !c.Snap.IsTool(m) {
		return b.String()
	}
	t := c.toolOf(m)
	b.WriteString("\nA Wymcp tool module: ")
	if t.NameKnown {
		fmt.Fprintf(&b, "its name/0 returns %s", validate.InspectString(t.Name))
	} else {
		b.WriteString("its name/0 is missing or does not evaluate to a literal string")
	}
	switch a := t.Actions; {
	case a == nil:
		b.WriteString("; it defines no actions/0")
	case a.Kind == validate.Map && !a.Partial:
		if n := len(a.Entries); n == 1 {
			b.WriteString("; 1 action")
		} else {
			fmt.Fprintf(&b, "; %d actions", n)
		}
	}
	b.WriteString(".\n")
	return b.String()
}

func (c *Cursor) propertyHover(t Target) string {
	name := validate.InspectString(t.Name)
	e, ok := declEntry(t.Decl, t.Name)
	if !ok {
		return fmt.Sprintf("**%s**: not declared in :properties of action `%s`.\n", name, validate.InspectAtom(t.Role.Action))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: property of action `%s`\n\n```elixir\n%s\n```\n", name, validate.InspectAtom(t.Role.Action), c.asWritten(e.Value))
	return b.String()
}

// asWritten returns the source of v (the schema as written), or its
// inspection when the source is not at hand; long text is cut.
func (c *Cursor) asWritten(v *validate.Value) string {
	if l, ok := locOfValue(v); ok {
		if s := c.textAt(l); s != "" {
			if len(s) > maxHoverSource {
				cut := maxHoverSource
				for cut > 0 && s[cut]&0xC0 == 0x80 {
					cut--
				}
				s = s[:cut] + "..."
			}
			return dedent(s, c.contentOf(l.URI), l.Span.Start)
		}
	}
	return validate.Inspect(v, maxHoverSource)
}

// dedent removes from the continuation lines of s the indentation of the
// line s starts on in src.
func dedent(s string, src []byte, start int) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	ls := start
	for ls > 0 && src[ls-1] != '\n' {
		ls--
	}
	indent := 0
	for ls+indent < start && (src[ls+indent] == ' ' || src[ls+indent] == '\t') {
		indent++
	}
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		n := 0
		for n < indent && n < len(lines[i]) && (lines[i][n] == ' ' || lines[i][n] == '\t') {
			n++
		}
		lines[i] = lines[i][n:]
	}
	return strings.Join(lines, "\n")
}

// HelpPointer returns the call of wymcp's help tool that shows the
// action: `help {tool: "tasks", action: "create"}`.
func HelpPointer(tool, action string) string {
	return fmt.Sprintf("help {tool: %s, action: %s}", validate.InspectString(tool), validate.InspectString(action))
}

func (c *Cursor) actionHover(t Target) string {
	tool := t.Role.Tool
	if tool == nil || tool.Actions == nil {
		return ""
	}
	schema := tool.Actions.GetAtom(t.Name)
	if schema == nil {
		return fmt.Sprintf("Action `%s` is not declared by %s.\n", validate.InspectAtom(t.Name), tool.Module.Name)
	}
	var b strings.Builder
	desc := schema.GetAtom("description")
	switch {
	case desc != nil && desc.Kind == validate.String && !desc.Unknown:
		fmt.Fprintf(&b, "```text\n%s\n```\n\n", validate.Summary(t.Name, desc.Text))
		b.WriteString("The line `tools/list` publishes for this action and the help index lists.\n\n")
	default:
		fmt.Fprintf(&b, "Action `%s`: its :description is not known here, so neither is the line `tools/list` publishes.\n\n", validate.InspectAtom(t.Name))
	}
	if tool.NameKnown {
		fmt.Fprintf(&b, "Help: `%s`", HelpPointer(tool.Name, t.Name))
	} else {
		fmt.Fprintf(&b, "Help: the tool name is not known here: %s's name/0 is missing or does not evaluate to a literal string", tool.Module.Name)
	}
	b.WriteString("\n")
	return b.String()
}

func (c *Cursor) valueHover(t Target) string {
	if t.Expr == nil || t.Module == nil {
		return ""
	}
	r := elixir.EvaluateExpr(c.ctx, c.Resolver, t.Module, t.Expr)
	v := r.Actions
	if v == nil {
		return ""
	}
	var head string
	switch t.Kind {
	case TargetAttr:
		head = "`@" + t.Name + "`"
	default:
		head = "`" + strings.Join(strings.Fields(c.textAt(positions.Loc{URI: c.Snap.URI, Span: t.Span})), " ") + "`"
		if t.Def != nil {
			head = fmt.Sprintf("`%s.%s/0`", t.DefModule.Name, t.Def.Name)
		}
	}
	text := validate.Inspect(v, maxHoverValue)
	if v.Kind == validate.Opaque {
		return head + " cannot be evaluated without running code.\n"
	}
	return fmt.Sprintf("%s evaluates to:\n\n```elixir\n%s\n```\n", head, text)
}

// unknownKeyHover is the hover on a key of an action schema that is not in
// the vocabulary (`descripton:`): Wymcp refuses it (the unknown-key
// offence), then the catalogue entry of the key its fix suggests
// (validate.Nearest, as the validator chooses it), or the list of keys.
func unknownKeyHover(cat *validate.Catalogue, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` is not a key of an action schema: Wymcp refuses it (`unknown-key`).", validate.InspectAtom(name))
	if s, ok := validate.Nearest(name, cat.Names(), false); ok {
		if k, ok := cat.Key(s); ok {
			fmt.Fprintf(&b, " Did you mean `%s`?\n\n---\n\n%s", validate.InspectAtom(s), k.Markdown())
			return b.String()
		}
	}
	b.WriteString(" The keys are")
	for i, n := range cat.Names() {
		sep := ", "
		if i == 0 {
			sep = " "
		}
		fmt.Fprintf(&b, "%s`%s`", sep, validate.InspectAtom(n))
	}
	b.WriteString(".")
	return b.String()
}
