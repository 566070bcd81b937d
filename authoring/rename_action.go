package authoring

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// actionAtomRE is an action name that can be written as a bare atom and a
// keyword key (`create:`, `:create`, `def run_action(:create, ...)`).
var actionAtomRE = regexp.MustCompile(`^[a-z_][a-zA-Z0-9_]*[?!]?$`)

// actionSite is an action name under the cursor: the tool module it
// belongs to, the name, and the token (in the cursor's document).
type actionSite struct {
	tool *elixir.Module
	name string
	span positions.Span
}

// actionAt finds an action name at the cursor (README.md "Rename": an
// action: its key in actions/0 or a :related entry (TargetAction), the
// atom of a run_action/3 clause (or of a clause that run_action/3
// delegates to), or the action: string of a hint whose tool: names a
// workspace tool.
func (c *Cursor) actionAt() (actionSite, bool) {
	if t, ok := c.Target(); ok && t.Kind == TargetAction && t.Role.Tool != nil && t.Role.Tool.Module != nil {
		return actionSite{tool: t.Role.Tool.Module, name: t.Name, span: t.Span}, true
	}
	snap := c.Snap
	for _, tv := range snap.Tools {
		if tv.Module == nil {
			continue
		}
		d := elixir.DispatchOf(snap.Modules, tv.Module)
		for _, a := range slices.Concat(d.Atoms, d.Guarded, d.Cased) {
			if l, ok := positions.LocOf(a.Origin); ok && l.URI == snap.URI && l.Span.Contains(c.Off) {
				return actionSite{tool: tv.Module, name: a.Text, span: l.Span}, true
			}
		}
	}
	if snap.File != nil {
		for _, m := range snap.File.Modules {
			for _, h := range workspace.HintSites(c.ctx, snap.Modules, m) {
				if h.ActionLoc.URI == snap.URI && h.ActionLoc.Span.Contains(c.Off) {
					if tm := snap.ToolNamed(h.Tool); tm != nil {
						return actionSite{tool: tm, name: h.Action, span: h.ActionLoc.Span}, true
					}
				}
			}
		}
	}
	return actionSite{}, false
}

// prepareActionRename is PrepareRename on an action name: the name's span
// without a colon or quotes. ok is false when the cursor is on no action
// name; err is the refusal renameAction would give for an action the tool
// does not declare (a clause or guard atom naming no declared action).
func (c *Cursor) prepareActionRename() (sp positions.Span, name string, ok bool, err error) {
	a, ok := c.actionAt()
	if !ok {
		return positions.Span{}, "", false, nil
	}
	if err := c.actionDeclared(a); err != nil {
		return positions.Span{}, "", true, err
	}
	sp = c.nameSpan(positions.Loc{URI: c.Snap.URI, Span: a.span})
	if src := c.textAt(positions.Loc{URI: c.Snap.URI, Span: sp}); strings.HasPrefix(src, ":") {
		sp.Start++
	}
	return sp, a.name, true, nil
}

// actionDeclared returns nil when a's tool declares action a.name, else
// the *RenameError saying why it cannot be renamed.
func (c *Cursor) actionDeclared(a actionSite) error {
	res := elixir.Evaluate(c.ctx, c.Resolver, a.tool)
	if !res.Found || res.Actions == nil || res.Actions.Kind != validate.Map {
		return &RenameError{Reason: fmt.Sprintf("cannot rename action %s: the actions of %s are not known here", validate.InspectAtom(a.name), a.tool.Name)}
	}
	for _, e := range res.Actions.Entries {
		if k := e.Key; k != nil && k.Kind == validate.Atom && !k.Unknown && k.Text == a.name {
			return nil
		}
	}
	return &RenameError{Reason: fmt.Sprintf("cannot rename action %s: %s does not declare it", validate.InspectAtom(a.name), a.tool.Name)}
}

// renameAction returns the edits renaming action a of its tool to newName
// everywhere it is written: its key in actions/0, every :related entry of
// the tool naming it, every run_action/3 clause atom (through
// delegation), and every hint action: string whose tool: is this tool. It
// refuses (a *RenameError) a name that is not a plain atom, or one the
// tool already declares or dispatches.
func (c *Cursor) renameAction(a actionSite, newName string) ([]Edit, error) {
	if newName == a.name {
		return []Edit{}, nil
	}
	if !actionAtomRE.MatchString(newName) {
		return nil, &RenameError{Reason: fmt.Sprintf("cannot rename action %s to %s: an action name must be a plain atom such as :create_task", validate.InspectAtom(a.name), validate.InspectString(newName))}
	}
	snap := c.Snap
	res := elixir.Evaluate(c.ctx, c.Resolver, a.tool)
	if !res.Found || res.Actions == nil || res.Actions.Kind != validate.Map {
		return nil, &RenameError{Reason: fmt.Sprintf("cannot rename action %s: the actions of %s are not known here", validate.InspectAtom(a.name), a.tool.Name)}
	}
	var locs []positions.Loc
	addLoc := func(o validate.Origin) {
		if l, ok := positions.LocOf(o); ok {
			locs = append(locs, l)
		}
	}
	found := false
	for _, e := range res.Actions.Entries {
		k := e.Key
		if k == nil || k.Kind != validate.Atom || k.Unknown {
			continue
		}
		if k.Text == newName {
			return nil, &RenameError{Reason: fmt.Sprintf("cannot rename action %s to %s: %s already declares %s", validate.InspectAtom(a.name), validate.InspectAtom(newName), a.tool.Name, validate.InspectAtom(newName))}
		}
		if k.Text == a.name {
			found = true
			addLoc(k.Origin)
		}
	}
	if !found {
		return nil, &RenameError{Reason: fmt.Sprintf("cannot rename action %s: %s does not declare it", validate.InspectAtom(a.name), a.tool.Name)}
	}
	for _, e := range res.Actions.Entries {
		if e.Value == nil || e.Value.Kind != validate.Map {
			continue
		}
		if rel := e.Value.GetAtom("related"); rel != nil && rel.Kind == validate.List {
			for _, el := range rel.Elems {
				if el != nil && el.Kind == validate.String && !el.Unknown && el.Text == a.name {
					addLoc(el.Origin)
				}
			}
		}
	}
	d := elixir.DispatchOf(c.Resolver, a.tool)
	for _, at := range slices.Concat(d.Atoms, d.Guarded, d.Cased) {
		if at.Text == newName {
			return nil, &RenameError{Reason: fmt.Sprintf("cannot rename action %s to %s: a run_action/3 clause already matches %s", validate.InspectAtom(a.name), validate.InspectAtom(newName), validate.InspectAtom(newName))}
		}
		if at.Text == a.name {
			addLoc(at.Origin)
		}
	}
	toolName := ""
	if cb, ok := res.Callbacks["name"]; ok && cb.Value != nil && cb.Value.Kind == validate.String && !cb.Value.Unknown {
		toolName = cb.Value.Text
	}
	if toolName != "" {
		for _, h := range snap.HintSites(c.ctx) {
			if h.Tool == toolName && h.Action == a.name {
				locs = append(locs, h.ActionLoc)
			}
		}
	}
	locs = sortLocs(locs)
	edits := make([]Edit, 0, len(locs))
	for _, l := range locs { // sortLocs dropped the repeats of a shared value
		src := c.textAt(l)
		var text string
		switch {
		case src == a.name: // keyword key `create:` or a ~w word
			text = newName
		case src == ":"+a.name || src == validate.InspectAtom(a.name): // `:create`, or quoted `:"b-c"`
			text = ":" + newName
		case strings.HasPrefix(src, `"`) && !strings.HasPrefix(src, `"""`):
			text = validate.InspectString(newName)
		default:
			return nil, &RenameError{Reason: fmt.Sprintf("cannot rename action %s where it is written as %s", validate.InspectAtom(a.name), src)}
		}
		edits = append(edits, Edit{URI: l.URI, Span: l.Span, NewText: text})
	}
	sortEdits(edits)
	return edits, nil
}

// actionUsesElsewhere returns the places beyond actions/0 that name action
// name of tool module m: its run_action/3 clause atoms (through
// delegation) and the action: strings of hints whose tool: is m's
// name/0 (README.md "Rename").
func (c *Cursor) actionUsesElsewhere(m *elixir.Module, name string) []positions.Loc {
	var out []positions.Loc
	d := elixir.DispatchOf(c.Resolver, m)
	for _, at := range slices.Concat(d.Atoms, d.Guarded, d.Cased) {
		if l, ok := positions.LocOf(at.Origin); ok && at.Text == name {
			out = append(out, l)
		}
	}
	res := elixir.Evaluate(c.ctx, c.Resolver, m)
	if cb, ok := res.Callbacks["name"]; ok && cb.Value != nil && cb.Value.Kind == validate.String && !cb.Value.Unknown {
		for _, h := range c.Snap.HintSites(c.ctx) {
			if h.Tool == cb.Value.Text && h.Action == name {
				out = append(out, h.ActionLoc)
			}
		}
	}
	return out
}

// actionDeclaration returns where action a is declared: its key in the
// tool's actions/0.
func (c *Cursor) actionDeclaration(a actionSite) (positions.Loc, bool) {
	res := elixir.Evaluate(c.ctx, c.Resolver, a.tool)
	if !res.Found || res.Actions == nil {
		return positions.Loc{}, false
	}
	return locOfValue(c.actionKey(&Tool{Actions: res.Actions}, a.name))
}

// toolOf returns the cursor's Tool for module m, reading m (and walking
// its roles) when the cursor's document does not hold or feed it.
func (c *Cursor) toolOf(m *elixir.Module) *Tool {
	for _, t := range c.Tools {
		if t.Module == m || t.Module != nil && t.Module.Name == m.Name && t.Module.URI == m.URI {
			return t
		}
	}
	t := &Tool{Module: m}
	res := elixir.Evaluate(c.ctx, c.Resolver, m)
	if res.Found {
		t.Actions = res.Actions
	}
	t.Name, t.NameKnown = ToolName(res)
	c.Tools = append(c.Tools, t)
	c.walkTool(t)
	return t
}
