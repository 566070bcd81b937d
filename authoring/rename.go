package authoring

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// errCannotRename is the prepareRename answer off a property name.
var errCannotRename = errors.New("wymcp-ls renames property and action names only: put the cursor on a key of :properties " +
	"or on an entry of :required, :required_one_of or :defaults; or on an action's key, a :related entry, " +
	"a run_action/3 clause atom or a hint's action: string")

// RenameError is a rename that cannot be done, with the reason (the lsp
// layer answers it as LSP 3.17 RequestFailed, -32803).
type RenameError struct{ Reason string }

// Error returns the reason.
func (e *RenameError) Error() string { return e.Reason }

// PrepareRename returns the span of the property name at byte offset off
// (a string's content without its quotes, or a ~w word) and the name as a
// placeholder (README.md "Rename"). Off a property name it returns a
// *RenameError saying what can be renamed.
func PrepareRename(ctx context.Context, snap *workspace.Snapshot, off int) (positions.Span, string, error) {
	if snap == nil || snap.Skipped {
		return positions.Span{}, "", &RenameError{Reason: errCannotRename.Error()}
	}
	c := NewCursor(ctx, snap, off)
	if sp, name, ok, err := c.prepareActionRename(); ok {
		return sp, name, err
	}
	t, ok := c.Target()
	if !ok || t.Kind != TargetProperty {
		return positions.Span{}, "", &RenameError{Reason: errCannotRename.Error()}
	}
	if _, ok := declEntry(t.Decl, t.Name); !ok {
		return positions.Span{}, "", &RenameError{Reason: fmt.Sprintf("%s is not declared in :properties, so there is nothing to rename", validate.InspectString(t.Name))}
	}
	return c.nameSpan(positions.Loc{URI: snap.URI, Span: t.Span}), t.Name, nil
}

// nameSpan narrows a string token to its content.
func (c *Cursor) nameSpan(l positions.Loc) positions.Span {
	s := c.textAt(l)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return positions.Span{Start: l.Span.Start + 1, End: l.Span.End - 1}
	}
	return l.Span
}

// Rename returns the edits that rename the property at byte offset off to
// newName across :properties, :required, :required_one_of and :defaults
// (README.md "Rename"), in every document they are written in, sorted by URI
// and position. A properties map shared through an attribute renames in
// every action that uses it; the rename is refused (a *RenameError) when
// an edited :required, group or :defaults value is shared with an action
// whose :properties is not the one renamed, when newName is already
// declared, is empty, or cannot be written where a use is written (a word
// of ~w(...) with spaces, an interpolated string).
func Rename(ctx context.Context, snap *workspace.Snapshot, off int, newName string) ([]Edit, error) {
	if _, _, err := PrepareRename(ctx, snap, off); err != nil {
		return nil, err
	}
	c := newCursor(ctx, snap, off, true)
	if a, ok := c.actionAt(); ok {
		return c.renameAction(a, newName)
	}
	t, _ := c.Target()
	if newName == "" {
		return nil, &RenameError{Reason: "a property name cannot be empty"}
	}
	if newName == t.Name {
		return []Edit{}, nil
	}
	if _, ok := declEntry(t.Decl, newName); ok {
		return nil, &RenameError{Reason: fmt.Sprintf("cannot rename %s to %s: %s is already declared in :properties",
			validate.InspectString(t.Name), validate.InspectString(newName), validate.InspectString(newName))}
	}
	// Every container edited must belong only to actions declaring t.Decl.
	uses := c.propertyUses(t)
	for _, u := range uses {
		for _, r := range c.RolesOfValue(u.role.Value) {
			if r.Kind == u.role.Kind && r.Decl != t.Decl {
				return nil, &RenameError{Reason: fmt.Sprintf(
					"cannot rename %s: %s is shared with action %s of %s, which does not declare it in the same :properties; rename it there first or stop sharing the value",
					validate.InspectString(t.Name), c.containerName(u.role), validate.InspectAtom(r.Action), r.Tool.Module.Name)}
			}
		}
	}
	decl, _ := declEntry(t.Decl, t.Name)
	dl, ok := locOfValue(decl.Key)
	if !ok {
		return nil, &RenameError{Reason: "the declaration of " + validate.InspectString(t.Name) + " has no source to edit"}
	}
	locs := []positions.Loc{dl}
	// An earlier key of the same name in the :properties map never takes
	// effect (lint/duplicate-key); left as it is, the rename would bring it
	// back as a property of its own.
	for _, e := range t.Decl.Entries {
		if e.Key != decl.Key && e.Key != nil && e.Key.Kind == validate.String && !e.Key.Unknown && e.Key.Text == t.Name {
			if l, ok := locOfValue(e.Key); ok {
				locs = append(locs, l)
			}
		}
	}
	for _, u := range uses {
		locs = append(locs, u.loc)
	}
	locs = sortLocs(locs)
	edits := make([]Edit, 0, len(locs))
	for _, l := range locs {
		text, err := c.renamedText(l, t.Name, newName)
		if err != nil {
			return nil, err
		}
		edits = append(edits, Edit{URI: l.URI, Span: l.Span, NewText: text})
	}
	sortEdits(edits)
	return edits, nil
}

// renamedText returns the text replacing the name written at l: a string
// literal for a string, a bare word inside ~w(...).
func (c *Cursor) renamedText(l positions.Loc, old, newName string) (string, error) {
	src := c.textAt(l)
	switch {
	case strings.HasPrefix(src, `"`) && !strings.HasPrefix(src, `"""`):
		return validate.InspectString(newName), nil
	case src == old && !strings.ContainsAny(src, `"'`):
		if strings.ContainsAny(newName, " \t\r\n\f\v()[]{}<>/|\\\"'") {
			return "", &RenameError{Reason: fmt.Sprintf("cannot write %s as a word of ~w(...) where %s is written", validate.InspectString(newName), validate.InspectString(old))}
		}
		return newName, nil
	}
	return "", &RenameError{Reason: fmt.Sprintf("cannot rename %s where it is written as %s; only string literals and ~w words are renamed", validate.InspectString(old), src)}
}

// containerName names a role's container for messages.
func (c *Cursor) containerName(r Role) string {
	switch r.Kind {
	case RoleRequired:
		return "its :required"
	case RoleGroup:
		return "its :required_one_of group"
	case RoleDefaults:
		return "its :defaults"
	}
	return "the value"
}
