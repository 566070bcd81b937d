package authoring

import (
	"context"
	"fmt"
	"slices"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// CompletionKind is the LSP 3.17 CompletionItemKind of an item.
type CompletionKind int

// The item kinds completion uses (LSP 3.17 "CompletionItemKind").
const (
	// KindField marks a JSON Schema keyword.
	KindField CompletionKind = 5
	// KindProperty marks a vocabulary key.
	KindProperty CompletionKind = 10
	// KindValue marks a property or action name.
	KindValue CompletionKind = 12
	// KindEnum marks a JSON Schema type name.
	KindEnum CompletionKind = 13
	// KindSnippet marks the whole-action snippet.
	KindSnippet CompletionKind = 15
)

// CompletionItem is one completion proposal (LSP 3.17 "CompletionItem"),
// with its edit in bytes: NewText replaces Span, which covers the typed
// prefix (and, in a string, the string up to its closing quote).
type CompletionItem struct {
	Label  string
	Kind   CompletionKind
	Detail string
	// Documentation is markdown ("" for none).
	Documentation string
	// SortText orders the items (mandatory keys first).
	SortText string
	// FilterText is what the client matches the typed text against ("":
	// the label).
	FilterText string
	// Snippet reports NewText in LSP snippet syntax (InsertTextFormat 2).
	Snippet bool
	Span    positions.Span
	NewText string
}

// Complete returns the completion items at byte offset off of the
// snapshot's document (README.md "Completion"): vocabulary keys in an action
// schema, a whole action at the action-map level, JSON Schema keywords and
// "type" values in a property schema, declared property names in
// :required, :required_one_of groups and :defaults keys, and the tool's
// other actions in :related. Anywhere else, and in an empty file, it
// returns no items. It never fails.
func Complete(ctx context.Context, snap *workspace.Snapshot, off int) []CompletionItem {
	if snap == nil || snap.Skipped || len(snap.Content) == 0 {
		return nil
	}
	c := NewCursor(ctx, snap, off)
	sp, ok := c.spot(true)
	if !ok {
		return nil
	}
	r := sp.Roles[0]
	cat := catalogueOf(snap)
	switch r.Kind {
	case RoleActionMap:
		return c.completeAction(sp)
	case RoleSchema:
		return c.completeSchemaKey(sp, cat)
	case RolePropSchema:
		if sp.Pair != nil && !sp.Key {
			if k := sp.Pair.Key; k != nil && k.Kind == elixir.ExprString && k.Text == "type" {
				return c.completeType(sp, cat)
			}
			return nil
		}
		return c.completeKeyword(sp, cat)
	case RoleRequired, RoleGroup:
		return c.completeNames(sp, declared(r.Decl), "property")
	case RoleDefaults:
		return c.completeDefaultKey(sp, declared(r.Decl))
	case RoleRelated:
		return c.completeNames(sp, c.otherActions(r), "action")
	}
	return nil
}

func catalogueOf(snap *workspace.Snapshot) *validate.Catalogue {
	if snap.Validator != nil {
		return snap.Validator.Catalogue()
	}
	return validate.DefaultCatalogue()
}

// typed is what the author is typing at the cursor.
type typed struct {
	// prefix is the text typed (without a string's quote).
	prefix string
	// span is what an item replaces.
	span positions.Span
	// quoted: the cursor is in a string literal (span starts at its quote).
	quoted bool
}

// keyTyping returns what is typed at a key or element position: nothing
// (between items), an identifier, or a plain string; ok is false when the
// cursor is on something else (a finished token, a nested expression).
func (c *Cursor) keyTyping(sp Spot) (typed, bool) {
	if sp.Deep {
		return typed{}, false
	}
	if sp.Leaf == nil {
		return typed{span: positions.Span{Start: c.Off, End: c.Off}}, true
	}
	leaf := sp.Leaf
	switch leaf.Kind {
	case elixir.ExprIdent, elixir.ExprAtom:
		prefix, start := c.identPrefix()
		if start < leaf.Span.Start || c.Off > leaf.Span.End {
			return typed{}, false
		}
		if leaf.Kind == elixir.ExprAtom && sp.Pair == nil {
			return typed{}, false
		}
		if sp.Pair != nil && sp.Key {
			// Editing an existing key: replace all of it.
			return typed{prefix: prefix, span: leaf.Span}, true
		}
		return typed{prefix: prefix, span: positions.Span{Start: start, End: c.Off}}, true
	case elixir.ExprString:
		if !c.inString(leaf) {
			return typed{}, false
		}
		body, closed, _ := c.stringBody(leaf)
		end := c.Off
		if closed {
			end = leaf.Span.End
		}
		return typed{prefix: string(c.Snap.Content[body.Start:c.Off]), span: positions.Span{Start: leaf.Span.Start, End: end}, quoted: true}, true
	case elixir.ExprError:
		if leaf.Span.Start <= c.Off && c.Off <= leaf.Span.End && len(leaf.Args) == 0 {
			return typed{span: positions.Span{Start: c.Off, End: c.Off}}, true
		}
	}
	return typed{}, false
}

// presentKeys returns the keys written in a map expression, by their
// text (atoms and strings), except the pair at skip.
func presentKeys(m *elixir.Expr, skip *elixir.Pair) map[string]bool {
	out := map[string]bool{}
	for i := range m.Pairs {
		p := &m.Pairs[i]
		if p == skip || p.Key == nil {
			continue
		}
		switch p.Key.Kind {
		case elixir.ExprAtom, elixir.ExprString:
			if !p.Key.Unknown {
				out[p.Key.Text] = true
			}
		}
	}
	return out
}

// presentElems returns the string elements (and ~w words) of a list
// expression, except the element at skip.
func presentElems(l *elixir.Expr, skip *elixir.Expr) map[string]bool {
	out := map[string]bool{}
	if l.Kind == elixir.ExprWords {
		for _, w := range l.Words() {
			out[w.Text] = true
		}
		return out
	}
	for _, a := range l.Args {
		if a != skip && a.Kind == elixir.ExprString && !a.Unknown {
			out[a.Text] = true
		}
	}
	return out
}

func (c *Cursor) completeSchemaKey(sp Spot, cat *validate.Catalogue) []CompletionItem {
	if sp.Pair != nil && !sp.Key {
		return nil // a value position
	}
	t, ok := c.keyTyping(sp)
	if !ok || t.quoted {
		return nil
	}
	existing := sp.Pair != nil // editing a key that has a value already
	present := presentKeys(sp.Container, sp.Pair)
	var items []CompletionItem
	for i, k := range cat.Keys() {
		if present[k.Name] {
			continue
		}
		it := CompletionItem{
			Label: k.Name, Kind: KindProperty, Detail: keyDetail(k),
			Documentation: k.Markdown(), Span: t.span,
		}
		if k.Mandatory {
			it.SortText = fmt.Sprintf("0%d_%s", i, k.Name)
		} else {
			it.SortText = fmt.Sprintf("1%d_%s", i, k.Name)
		}
		if existing {
			it.NewText = k.Name
			if !sp.Pair.Keyword && sp.Leaf != nil && sp.Leaf.Kind == elixir.ExprAtom {
				// `:descr =>`: the span holds the colon, which the
				// arrow key keeps (a bare `description =>` is a variable).
				// The client filters the range's text (`:descr`).
				it.NewText = validate.InspectAtom(k.Name)
				it.FilterText = it.NewText
			}
		} else {
			it.NewText, it.Snippet = k.Snippet, true
		}
		items = append(items, it)
	}
	return items
}

// keyDetail is the one-line detail of a vocabulary key.
func keyDetail(k validate.KeyDoc) string {
	if k.Mandatory {
		return "mandatory · " + k.Type
	}
	return "optional · " + k.Type
}

func (c *Cursor) completeAction(sp Spot) []CompletionItem {
	if sp.Pair != nil && !sp.Key {
		return nil
	}
	t, ok := c.keyTyping(sp)
	if !ok || t.quoted || sp.Pair != nil {
		return nil
	}
	return []CompletionItem{{
		Label: "new action", Kind: KindSnippet, Detail: "an action with its mandatory keys",
		Documentation: "A new action: `name: %{description: \"...\", properties: %{...}}` " +
			"(the two keys wymcp requires of every action schema).",
		SortText: "0", FilterText: t.prefix, Snippet: true, Span: t.span,
		NewText: "${1:name}: %{description: \"$2\", properties: %{$3}}",
	}}
}

func (c *Cursor) completeKeyword(sp Spot, cat *validate.Catalogue) []CompletionItem {
	t, ok := c.keyTyping(sp)
	if !ok {
		return nil
	}
	existing := sp.Pair != nil
	present := presentKeys(sp.Container, sp.Pair)
	// `ty: "string"` is an atom key: the item writes `"type" => "string"`.
	kwSpan, keyword := c.keywordKeySpan(sp, t)
	var items []CompletionItem
	for i, k := range cat.Keywords() {
		if present[k.Name] {
			continue
		}
		q := validate.InspectString(k.Name)
		it := CompletionItem{
			Label: q, Kind: KindField, Detail: "JSON Schema keyword",
			Documentation: k.Markdown(), SortText: fmt.Sprintf("1%03d", i), Span: t.span,
		}
		if k.Walked {
			it.Detail = "JSON Schema keyword · checked by wymcp"
			it.SortText = fmt.Sprintf("0%03d", i)
		}
		if !t.quoted {
			it.FilterText = k.Name
		}
		switch {
		case keyword && afterKeyword(sp, kwSpan.Start):
			c.keywordKey(&it, kwSpan, k.Name)
		case keyword:
			c.arrowKey(&it, kwSpan, q)
		case existing:
			it.NewText = q
		case afterKeyword(sp, c.Off):
			it.NewText = validate.KeywordKey(k.Name) + " "
		default:
			it.NewText = q + " => "
		}
		items = append(items, it)
	}
	return items
}

func (c *Cursor) completeType(sp Spot, cat *validate.Catalogue) []CompletionItem {
	t, ok := c.keyTyping(sp)
	if !ok {
		return nil
	}
	var items []CompletionItem
	for i, name := range cat.Types() {
		q := validate.InspectString(name)
		it := CompletionItem{Label: name, Kind: KindEnum, Detail: "JSON Schema type",
			SortText: fmt.Sprintf("%02d", i), Span: t.span, NewText: q}
		if t.quoted {
			it.FilterText = q
		}
		items = append(items, it)
	}
	return items
}

// completeNames proposes names (declared properties, other actions) not
// yet in the list at the cursor, as string elements.
func (c *Cursor) completeNames(sp Spot, names []string, what string) []CompletionItem {
	if sp.Container.Kind == elixir.ExprWords {
		return nil
	}
	t, ok := c.keyTyping(sp)
	if !ok || sp.Pair != nil {
		return nil
	}
	used := presentElems(sp.Container, sp.Leaf)
	var items []CompletionItem
	for i, n := range names {
		if used[n] {
			continue
		}
		q := validate.InspectString(n)
		it := CompletionItem{Label: n, Kind: KindValue, Detail: "declared " + what,
			SortText: fmt.Sprintf("%04d", i), Span: t.span, NewText: q}
		if what == "action" {
			it.Detail = "action of this tool"
		}
		if t.quoted {
			it.FilterText = q
		}
		items = append(items, it)
	}
	return items
}

func (c *Cursor) completeDefaultKey(sp Spot, names []string) []CompletionItem {
	if sp.Pair != nil && !sp.Key {
		return nil
	}
	t, ok := c.keyTyping(sp)
	if !ok {
		return nil
	}
	used := presentKeys(sp.Container, sp.Pair)
	// A key written in keyword form (`na: 1`, `"na": 1`) is an atom, which
	// :defaults refuses (docs/rules.md §4, default-key-not-string): the item
	// replaces the key and its colon with a string key and `=>`.
	kwSpan, keyword := c.keywordKeySpan(sp, t)
	var items []CompletionItem
	for i, n := range names {
		if used[n] {
			continue
		}
		q := validate.InspectString(n)
		it := CompletionItem{Label: n, Kind: KindValue, Detail: "declared property",
			SortText: fmt.Sprintf("%04d", i), Span: t.span, NewText: q}
		switch {
		case keyword && afterKeyword(sp, kwSpan.Start):
			c.keywordKey(&it, kwSpan, n)
		case keyword:
			c.arrowKey(&it, kwSpan, q)
		case sp.Pair == nil && afterKeyword(sp, c.Off):
			it.NewText = validate.KeywordKey(n) + " "
		case sp.Pair == nil:
			it.NewText = q + " => "
		}
		if t.quoted {
			it.FilterText = q
		}
		items = append(items, it)
	}
	return items
}

// keywordKeySpan returns the span of a keyword-syntax key being
// completed with its colon (`na:` of `na: 1`, `"na":` of `"na": 1`), when
// the cursor's pair is one and its key's span t.span is followed by ':'.
func (c *Cursor) keywordKeySpan(sp Spot, t typed) (positions.Span, bool) {
	if sp.Pair == nil || !sp.Pair.Keyword || !sp.Key || sp.Pair.Key == nil {
		return positions.Span{}, false
	}
	k := sp.Pair.Key.Span
	src := c.Snap.Content
	if t.span != k || k.End >= len(src) || src[k.End] != ':' {
		return positions.Span{}, false
	}
	return positions.Span{Start: k.Start, End: k.End + 1}, true
}

// arrowKey makes it replace the keyword-form key at kw (with its colon,
// from keywordKeySpan) with the string key q and `=>`: an atom key is
// refused by :defaults (docs/rules.md §4, default-key-not-string) and ignored
// by wymcp's walk of a property schema (atom-schema-keyword).
func (c *Cursor) arrowKey(it *CompletionItem, kw positions.Span, q string) {
	it.Span, it.NewText = kw, q+" =>"
	if kw.End >= len(c.Snap.Content) || !isBlank(c.Snap.Content[kw.End]) {
		it.NewText += " "
	}
	if c.Snap.Content[kw.Start] == '"' {
		it.FilterText = q
	}
}

// afterKeyword reports whether a keyword pair (`type: "x"`) of the
// cursor's map ends before off. Elixir refuses a `=>` pair after one
// ("Keyword lists must always come last in lists and maps"), so an item
// there writes the keyword form (`title:`, `"$ref":`), an atom key like
// the pairs before it; where wymcp reads the key (:defaults, a walked
// keyword) its offence (default-key-not-string, atom-schema-keyword) has
// the quick fix that moves it before the keyword pairs as a string key.
func afterKeyword(sp Spot, off int) bool {
	if sp.Container == nil || sp.Container.Kind != elixir.ExprMap {
		return false
	}
	for i := range sp.Container.Pairs {
		p := &sp.Container.Pairs[i]
		if p != sp.Pair && p.Keyword && p.Span.End <= off {
			return true
		}
	}
	return false
}

// keywordKey makes it replace the keyword-form key at kw (with its colon)
// with name in keyword form (see afterKeyword).
func (c *Cursor) keywordKey(it *CompletionItem, kw positions.Span, name string) {
	it.Span, it.NewText = kw, validate.KeywordKey(name)
	if kw.End >= len(c.Snap.Content) || !isBlank(c.Snap.Content[kw.End]) {
		it.NewText += " "
	}
	if c.Snap.Content[kw.Start] == '"' {
		it.FilterText = validate.InspectString(name)
	}
}

// otherActions returns the names of the role's tool's actions except its
// own, in declaration order.
func (c *Cursor) otherActions(r Role) []string {
	if r.Tool == nil || r.Tool.Actions == nil {
		return nil
	}
	var out []string
	for _, e := range r.Tool.Actions.Entries {
		if e.Key != nil && e.Key.Kind == validate.Atom && e.Key.Text != r.Action && !slices.Contains(out, e.Key.Text) {
			out = append(out, e.Key.Text)
		}
	}
	return out
}
