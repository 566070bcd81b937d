package authoring

import (
	"context"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// RoleKind is what a map or list means to wymcp (docs/rules.md §1-§4): the
// action map, an action schema, a properties map ...
type RoleKind int

// The roles a container can play.
const (
	// RoleActionMap is the value of actions/0: action name => schema.
	RoleActionMap RoleKind = iota + 1
	// RoleSchema is an action schema (docs/rules.md §2, the vocabulary keys).
	RoleSchema
	// RoleProperties is a properties map (the action's :properties or a
	// nested "properties"): property name => property schema.
	RoleProperties
	// RolePropSchema is a property schema (JSON Schema keywords).
	RolePropSchema
	// RoleRequired is the :required list.
	RoleRequired
	// RoleGroups is the :required_one_of list of groups.
	RoleGroups
	// RoleGroup is one :required_one_of group.
	RoleGroup
	// RoleDefaults is :defaults, or a default object nested in it.
	RoleDefaults
	// RoleRelated is the :related list.
	RoleRelated
)

// Tool is one tool module as the cursor features evaluate it.
type Tool struct {
	Module *elixir.Module
	// Name is the tool name wymcp publishes: what the module's name/0
	// returns (README.md "What counts as a tool module"). NameKnown is
	// false when name/0 is absent or does not evaluate to a known string;
	// Name is then "" and never guessed.
	Name      string
	NameKnown bool
	// Actions is the evaluated actions/0 (nil without one).
	Actions *validate.Value
}

// Role is one meaning of a container value for one action.
type Role struct {
	Kind RoleKind
	Tool *Tool
	// Action is the action's name (the atom's text), ActionKey its key
	// value, Schema its schema; unset for RoleActionMap.
	Action    string
	ActionKey *validate.Value
	Schema    *validate.Value
	// Value is the container itself.
	Value *validate.Value
	// Decl is the properties map whose names the container may use
	// (RoleRequired, RoleGroup, RoleDefaults), or the container itself for
	// RoleProperties; nil when not known (not a map).
	Decl *validate.Value
}

// Cursor is the context of one byte offset of a snapshot's document: the
// tolerant sketch of the document (elixir.Sketch), the path of
// expressions above the offset, and the roles the evaluated tools give to
// the containers (which tool and action a map belongs to, whether it is a
// schema, a properties map, :required ...). Every cursor feature starts
// here.
type Cursor struct {
	Snap   *workspace.Snapshot
	Sketch *elixir.Sketch
	// Off is the byte offset, clamped to the content and snapped to a
	// character start.
	Off int
	// Module is the sketch's innermost module at Off (nil outside any).
	Module *elixir.Module
	// Path runs from a top-level statement down to the innermost
	// expression holding Off.
	Path []elixir.Step
	// Tools are the tools that read the document, evaluated over the
	// sketch.
	Tools []*Tool
	// Resolver resolves module names with the sketch's modules for this
	// document.
	Resolver elixir.Resolver

	ctx  context.Context
	full bool
	// all holds every role (only those of containers holding Off unless
	// full); first maps a container's span in the cursor's
	// document to its first role in all, next chains the others.
	all   []Role
	next  []int32
	first map[positions.Span]int32
}

// sketchResolver resolves through the sketch first, then the snapshot.
type sketchResolver struct {
	sk   *elixir.Sketch
	base elixir.Resolver
}

// Module returns the module named name.
func (r sketchResolver) Module(name string) *elixir.Module {
	if m := r.sk.File.Module(name); m != nil {
		return m
	}
	if r.base == nil {
		return nil
	}
	return r.base.Module(name)
}

// maxRoleDepth bounds the walk of nested property schemas and defaults.
const maxRoleDepth = 64

// NewCursor builds the cursor context of byte offset off in snap's
// document. off is clamped to [0, len(content)] and snapped to the start of
// its character, so any offset is accepted. The tools are evaluated over
// the sketch (ctx bounds them, as in elixir.Evaluate).
//
// On a document Parse reads without syntax error, the path comes from the
// parse inside a definition's body or an attribute's value, and from a
// sketch of the statements around the cursor elsewhere (cleanReading);
// Module is the parse's module and the tools' evaluation is the
// snapshot's. Sketch.Stmts then lack the rest of the document
// (references and rename use newCursor with full).
func NewCursor(ctx context.Context, snap *workspace.Snapshot, off int) *Cursor {
	return newCursor(ctx, snap, off, false)
}

// newCursor is NewCursor; full gives the sketch the whole document (for
// features that walk every statement): the parse's own reading of a
// document without syntax error (elixir.File.FullSketch), else a reading
// of the whole content.
func newCursor(ctx context.Context, snap *workspace.Snapshot, off int, full bool) *Cursor {
	content := snap.Content
	off = max(0, min(off, len(content)))
	for off > 0 && off < len(content) && content[off]&0xC0 == 0x80 {
		off--
	}
	clean := snap.File != nil && len(snap.File.Errors) == 0
	c := &Cursor{Snap: snap, Off: off, ctx: ctx, full: full, first: map[positions.Span]int32{}}
	var sk *elixir.Sketch
	if clean && !full {
		c.Module = moduleAt(snap.File, off)
		sk, c.Path = cleanReading(snap, c.Module, off)
		c.Resolver = snap.Modules
	} else if fs := snap.File.FullSketch(); clean && fs != nil {
		// The whole document as the parse read it: no second reading.
		sk = fs
		c.Module = sk.ModuleAt(off)
		c.Path = sk.PathAt(off)
		c.Resolver = sketchResolver{sk: sk, base: snap.Modules}
	} else {
		sk = elixir.NewSketch(snap.URI, content, off)
		c.Module = sk.ModuleAt(off)
		c.Path = sk.PathAt(off)
		c.Resolver = sketchResolver{sk: sk, base: snap.Modules}
	}
	c.Sketch = sk
	seen := map[string]bool{}
	add := func(m *elixir.Module, src []byte, own bool, res *elixir.Result) {
		if m == nil || !snap.IsTool(m) || seen[m.Name] {
			return
		}
		seen[m.Name] = true
		t := &Tool{Module: m}
		if res == nil {
			res = elixir.Evaluate(ctx, c.Resolver, m)
		}
		t.Name, t.NameKnown = ToolName(res)
		if res.Found {
			t.Actions = res.Actions
		}
		c.Tools = append(c.Tools, t)
		c.walkTool(t)
	}
	if clean && (!full || sameModules(snap.File, sk.File)) {
		// The document parses cleanly: the snapshot's evaluation has the
		// parse's spans, which are the sketch's (elixir.TestSketchMatchesParse),
		// reuse it.
		for _, tv := range snap.Tools {
			if tv.Module != nil && tv.Result != nil {
				add(tv.Module, c.contentOf(tv.Module.URI), false, tv.Result)
			}
		}
		return c
	}
	for _, m := range sk.File.Modules {
		add(m, content, true, nil)
	}
	for _, tv := range snap.Tools {
		if tv.Module != nil && tv.Module.URI != snap.URI {
			add(tv.Module, snap.MapperOf(tv.Module.URI).Content(), false, nil)
		}
	}
	return c
}

// cleanReading returns the path at off in a document Parse reads
// without syntax error, reading no more than the definition or the gap between
// definitions that holds off (a one-line 1 MB module must cost what the
// cursor needs): inside the body of a zero-arity def or the value of an
// attribute of m (the parse's innermost module at off, nil at the top
// level) the path is the parse's expressions (elixir.PathIn) and the
// sketch is empty; elsewhere (a def's head, an attribute's name, other
// statements) the sketch reads only the statements between m's
// neighbouring definitions, attributes and nested modules
// (elixir.NewSketchIn).
func cleanReading(snap *workspace.Snapshot, m *elixir.Module, off int) (*elixir.Sketch, []elixir.Step) {
	content := snap.Content
	from, to := 0, len(content)
	if m != nil {
		from, to = m.Span.Start, m.Span.End
	}
	// bound narrows the window to the gap around off left by span.
	bound := func(sp positions.Span) {
		if sp.End <= off {
			from = max(from, sp.End)
		} else if sp.Start >= off {
			to = min(to, sp.Start)
		}
	}
	window := func(start, end int) (*elixir.Sketch, []elixir.Step) {
		sk := elixir.NewSketchIn(snap.URI, content, start, end, off)
		return sk, sk.PathAt(off)
	}
	parsed := func(root *elixir.Expr) (*elixir.Sketch, []elixir.Step) {
		path := elixir.PathIn(root, off)
		if n := len(path); n > 0 && path[n-1].Expr.Kind == elixir.ExprMap && droppedAt(content, path[n-1].Expr, off) {
			// The parse keeps no keyless item (`%{na|}`): sketch the map.
			m := path[n-1].Expr
			sk := elixir.NewSketchIn(snap.URI, content, m.Span.Start, m.Span.End, off)
			if sp := sk.PathAt(off); len(sp) > 0 && sp[0].Expr.Span == m.Span {
				return sk, append(path[:n-1:n-1], sp...)
			}
		}
		return &elixir.Sketch{File: &elixir.File{URI: snap.URI}, Src: content}, path
	}
	for _, n := range snap.File.Modules {
		if n.Parent == m && n != m {
			bound(n.Span)
		}
	}
	if m == nil {
		return window(from, to)
	}
	for _, d := range m.Defs {
		if !d.Span.Contains(off) {
			bound(d.Span)
			continue
		}
		switch b := d.Body; {
		case b == nil:
			return window(d.Span.Start, d.Span.End)
		case b.Span.Contains(off):
			return parsed(b)
		case off < b.Span.Start:
			return window(d.Span.Start, b.Span.Start)
		default:
			return window(b.Span.End, d.Span.End)
		}
	}
	for _, a := range m.Attrs {
		if !a.Span.Contains(off) {
			bound(a.Span)
			continue
		}
		switch v := a.Value; {
		case v == nil:
			return window(a.Span.Start, a.Span.End)
		case v.Span.Contains(off):
			return parsed(v)
		case off < v.Span.Start:
			return &elixir.Sketch{File: &elixir.File{URI: snap.URI}, Src: content}, attrHead(a, off)
		default:
			return window(v.Span.End, a.Span.End)
		}
	}
	return window(from, to)
}

// attrHead returns the path at off (before its value) in the definition
// of attribute a as a sketch reads it: `@` applied to a call `name(value)`.
func attrHead(a *elixir.Attr, off int) []elixir.Step {
	call := &elixir.Expr{Kind: elixir.ExprCall, Text: a.Name, NameSpan: a.NameSpan,
		Span: positions.Span{Start: a.NameSpan.Start, End: a.Span.End}, Args: []*elixir.Expr{a.Value}}
	at := &elixir.Expr{Kind: elixir.ExprUnary, Text: "@", Span: a.Span, Args: []*elixir.Expr{call}}
	if call.Span.Contains(off) {
		return []elixir.Step{{Expr: at}, {Expr: call}}
	}
	return []elixir.Step{{Expr: at}}
}

// droppedAt reports whether the parse of map m may have dropped an item
// around off: between the items holding off's neighbours there is more
// than blanks and commas (a keyless item, a comment).
func droppedAt(src []byte, m *elixir.Expr, off int) bool {
	lo, hi := m.Open().End, m.Span.End-1
	near := func(sp positions.Span) {
		if sp.End <= off {
			lo = max(lo, sp.End)
		} else if sp.Start >= off {
			hi = min(hi, sp.Start)
		}
	}
	if m.Base != nil {
		near(m.Base.Span)
	}
	for _, p := range m.Pairs {
		near(p.Span)
	}
	for _, x := range m.Errs() {
		near(x.Span)
	}
	lo, hi = max(0, lo), min(hi, len(src))
	for i := lo; i < hi; i++ {
		if !isBlank(src[i]) && src[i] != ',' {
			return true
		}
	}
	return false
}

// moduleAt returns the innermost module of f holding off, or nil.
func moduleAt(f *elixir.File, off int) *elixir.Module {
	var found *elixir.Module
	for _, m := range f.Modules {
		if m.Span.Contains(off) {
			found = m
		}
	}
	return found
}

// sameModules reports whether the parse and the sketch read the same
// modules at the same spans.
func sameModules(a, b *elixir.File) bool {
	if len(a.Modules) != len(b.Modules) {
		return false
	}
	for i, m := range a.Modules {
		n := b.Modules[i]
		if m.Name != n.Name || m.Span != n.Span || m.Tool != n.Tool {
			return false
		}
	}
	return true
}

// ---- roles ----

func locOfValue(v *validate.Value) (positions.Loc, bool) {
	if v == nil {
		return positions.Loc{}, false
	}
	l, ok := positions.LocOf(v.Origin)
	return l, ok
}

func (c *Cursor) add(r Role) {
	if !c.full {
		// Only the containers holding the cursor are ever looked up.
		if l, ok := locOfValue(r.Value); !ok || l.URI != c.Snap.URI || !l.Span.Contains(c.Off) {
			return
		}
	}
	i := int32(len(c.all))
	c.all = append(c.all, r)
	c.next = append(c.next, -1)
	l, ok := locOfValue(r.Value)
	if !ok || l.URI != c.Snap.URI {
		return
	}
	if j, ok := c.first[l.Span]; ok {
		for c.next[j] >= 0 {
			j = c.next[j]
		}
		c.next[j] = i
		return
	}
	c.first[l.Span] = i
}

func (c *Cursor) walkTool(t *Tool) {
	am := t.Actions
	if am == nil || am.Kind != validate.Map {
		return
	}
	c.add(Role{Kind: RoleActionMap, Tool: t, Value: am})
	for _, e := range am.Entries {
		if e.Key == nil || e.Key.Kind != validate.Atom || e.Value == nil || e.Value.Kind != validate.Map {
			continue
		}
		base := Role{Tool: t, Action: e.Key.Text, ActionKey: e.Key, Schema: e.Value}
		c.walkSchema(base, e.Value)
	}
}

func (c *Cursor) walkSchema(base Role, s *validate.Value) {
	with := func(k RoleKind, v, decl *validate.Value) Role {
		r := base
		r.Kind, r.Value, r.Decl = k, v, decl
		return r
	}
	c.add(with(RoleSchema, s, nil))
	props := s.GetAtom("properties")
	if props != nil && props.Kind != validate.Map {
		props = nil
	}
	if props != nil {
		c.add(with(RoleProperties, props, props))
		c.walkProps(base, props, 0, map[*validate.Value]bool{})
	}
	if v := s.GetAtom("required"); v != nil && v.Kind == validate.List {
		c.add(with(RoleRequired, v, props))
	}
	if v := s.GetAtom("required_one_of"); v != nil && v.Kind == validate.List {
		c.add(with(RoleGroups, v, props))
		for _, g := range v.Elems {
			if g != nil && g.Kind == validate.List {
				c.add(with(RoleGroup, g, props))
			}
		}
	}
	if v := s.GetAtom("defaults"); v != nil && v.Kind == validate.Map {
		c.add(with(RoleDefaults, v, props))
		if props != nil {
			c.walkDefaults(base, v, props, nil, 0, map[[2]*validate.Value]bool{})
		}
	}
	if v := s.GetAtom("related"); v != nil && v.Kind == validate.List {
		c.add(with(RoleRelated, v, nil))
	}
}

func (c *Cursor) walkProps(base Role, props *validate.Value, depth int, seen map[*validate.Value]bool) {
	if depth > maxRoleDepth || seen[props] {
		return
	}
	seen[props] = true
	for _, e := range props.Entries {
		c.walkPropSchema(base, e.Value, depth, seen)
	}
}

func (c *Cursor) walkPropSchema(base Role, s *validate.Value, depth int, seen map[*validate.Value]bool) {
	if s == nil || s.Kind != validate.Map || depth > maxRoleDepth {
		return
	}
	r := base
	r.Kind, r.Value = RolePropSchema, s
	c.add(r)
	if p := s.Get("properties"); p != nil && p.Kind == validate.Map {
		r := base
		r.Kind, r.Value, r.Decl = RoleProperties, p, p
		c.add(r)
		c.walkProps(base, p, depth+1, seen)
	}
	if it := s.Get("items"); it != nil {
		switch it.Kind {
		case validate.Map:
			c.walkPropSchema(base, it, depth+1, seen)
		case validate.List:
			for _, x := range it.Elems {
				c.walkPropSchema(base, x, depth+1, seen)
			}
		}
	}
	if ap := s.Get("additionalProperties"); ap != nil && ap.Kind == validate.Map {
		c.walkPropSchema(base, ap, depth+1, seen)
	}
}

// walkDefaults registers the default objects nested in obj (a default
// map whose keys decl declares) as docs/rules.md §4 "Defaults" walks them:
// each value into its property schema (or, for a key decl does not
// declare, an "additionalProperties" schema map of the object's schema,
// extra), object values through their schema's "properties", list
// elements through a single-schema "items".
func (c *Cursor) walkDefaults(base Role, obj, decl, extra *validate.Value, depth int, seen map[[2]*validate.Value]bool) {
	if depth > maxRoleDepth {
		return
	}
	for _, e := range obj.Entries {
		if e.Key == nil || e.Key.Kind != validate.String || e.Key.Unknown || e.Value == nil {
			continue
		}
		schema := extra
		if d, ok := declEntry(decl, e.Key.Text); ok {
			schema = d.Value
		}
		c.walkDefaultValue(base, e.Value, schema, depth+1, seen)
	}
}

// walkDefaultValue registers the default objects in val, a default
// written for schema: a map gets a RoleDefaults whose Decl is the
// schema's "properties" (when it has one) and is walked on; a list's
// elements are walked against a single-schema "items" (a map; a list of
// schemas is not walked, as in validate). seen holds the (value, schema)
// pairs walked already, so a value shared through attributes is walked
// once per schema.
func (c *Cursor) walkDefaultValue(base Role, val, schema *validate.Value, depth int, seen map[[2]*validate.Value]bool) {
	if val == nil || schema == nil || schema.Kind != validate.Map || depth > maxRoleDepth || seen[[2]*validate.Value{val, schema}] {
		return
	}
	seen[[2]*validate.Value{val, schema}] = true
	switch val.Kind {
	case validate.Map:
		p := schema.Get("properties")
		if p != nil && p.Kind != validate.Map {
			p = nil
		}
		ap := schema.Get("additionalProperties")
		if ap != nil && ap.Kind != validate.Map {
			ap = nil
		}
		if p != nil {
			r := base
			r.Kind, r.Value, r.Decl = RoleDefaults, val, p
			c.add(r)
		}
		if p != nil || ap != nil {
			c.walkDefaults(base, val, p, ap, depth+1, seen)
		}
	case validate.List:
		if it := schema.Get("items"); it != nil && it.Kind == validate.Map {
			for _, el := range val.Elems {
				c.walkDefaultValue(base, el, it, depth+1, seen)
			}
		}
	}
}

// RolesOf returns the roles of the container written at e in the
// cursor's document (nil for none).
func (c *Cursor) RolesOf(e *elixir.Expr) []Role {
	if e == nil {
		return nil
	}
	j, ok := c.first[e.Span]
	if !ok {
		return nil
	}
	var out []Role
	for ; j >= 0; j = c.next[j] {
		out = append(out, c.all[j])
	}
	return out
}

// RolesOfValue returns every role registered for the value v (the same
// value shared by several actions has one role per action). Without a
// full cursor only the containers holding the cursor have roles.
func (c *Cursor) RolesOfValue(v *validate.Value) []Role {
	var out []Role
	for _, r := range c.all {
		if r.Value == v {
			out = append(out, r)
		}
	}
	return out
}

// AllRoles returns every role of every tool, in walk order (see
// RolesOfValue).
func (c *Cursor) AllRoles() []Role { return c.all }

// ---- where the cursor is ----

// Spot is the cursor's place relative to the innermost container that has
// a role.
type Spot struct {
	// Roles are the container's roles (at least one when Container is set).
	Roles []Role
	// Container is the map or list expression; Depth its index in Path.
	Container *elixir.Expr
	Depth     int
	// Pair is the container's pair the cursor is in (its key when Key,
	// else its value), nil between items or on a plain element.
	Pair *elixir.Pair
	Key  bool
	// Leaf is the container's direct child holding the cursor (a key, a
	// value, an element or a keyless item), nil between items.
	Leaf *elixir.Expr
	// Keyless reports that Leaf is an item of a map without a key (a key
	// being typed: `%{pro|`).
	Keyless bool
	// Deep reports that the cursor is below Leaf, inside a nested
	// expression that has no role of its own.
	Deep bool
}

// Spot returns the cursor's spot, or ok false when no container with a
// role holds the cursor.
func (c *Cursor) Spot() (Spot, bool) { return c.spot(false) }

// spot is Spot; with after, a container whose closing bracket is just
// before the cursor (`%{...}‸`) does not hold it: the cursor is after the
// container, on it as a finished item of the container around it, if
// any. Completion asks so, since text inserted there lands after the
// bracket, outside the map or list its items would belong to.
func (c *Cursor) spot(after bool) (Spot, bool) {
	for i := len(c.Path) - 1; i >= 0; i-- {
		e := c.Path[i].Expr
		if e.Kind != elixir.ExprMap && e.Kind != elixir.ExprList && e.Kind != elixir.ExprWords {
			continue
		}
		if after && closedAt(e, c.Off) {
			continue
		}
		rs := c.RolesOf(e)
		if len(rs) == 0 {
			continue
		}
		sp := Spot{Roles: rs, Container: e, Depth: i}
		if i+1 < len(c.Path) {
			st := c.Path[i+1]
			sp.Leaf, sp.Pair, sp.Key = st.Expr, st.Pair, st.Key
			if st.Pair == nil && st.Expr.Kind == elixir.ExprError && len(st.Expr.Args) == 1 && e.Kind == elixir.ExprMap {
				sp.Leaf, sp.Keyless = st.Expr.Args[0], true
				sp.Deep = i+3 < len(c.Path)
			} else {
				sp.Deep = i+2 < len(c.Path)
			}
		}
		return sp, true
	}
	return Spot{}, false
}

// closedAt reports whether the container e ends at off with its closing
// bracket (an unclosed one records a missing token there).
func closedAt(e *elixir.Expr, off int) bool {
	if e.Span.End != off || off <= e.Span.Start {
		return false
	}
	for _, x := range e.Errs() {
		if x.Kind == elixir.ExprError && len(x.Args) == 0 && x.Span.Start == off && x.Span.End == off {
			return false
		}
	}
	return true
}

// Leaf returns the innermost expression at the cursor (nil outside any
// statement) and its parent (nil for a statement).
func (c *Cursor) Leaf() (leaf, parent *elixir.Expr) {
	n := len(c.Path)
	if n == 0 {
		return nil, nil
	}
	if n == 1 {
		return c.Path[0].Expr, nil
	}
	return c.Path[n-1].Expr, c.Path[n-2].Expr
}

// stringBody returns the content span of a plain double-quoted string
// expression (no heredoc, no sigil) and whether it is closed.
func (c *Cursor) stringBody(e *elixir.Expr) (body positions.Span, closed, ok bool) {
	src := c.Snap.Content
	if e == nil || e.Kind != elixir.ExprString || e.Heredoc || e.Span.Start >= len(src) || src[e.Span.Start] != '"' {
		return positions.Span{}, false, false
	}
	closed = len(e.Errs()) == 0
	end := e.Span.End
	if closed {
		end--
	}
	return positions.Span{Start: e.Span.Start + 1, End: max(e.Span.Start+1, end)}, closed, true
}

// inString reports whether the cursor is inside the content of the plain
// string e (after its opening quote, before its closing one).
func (c *Cursor) inString(e *elixir.Expr) bool {
	body, closed, ok := c.stringBody(e)
	if !ok {
		return false
	}
	if closed {
		return body.Start <= c.Off && c.Off <= body.End
	}
	return body.Start <= c.Off
}

// identPrefix returns the identifier characters typed just before the
// cursor and where they start.
func (c *Cursor) identPrefix() (string, int) {
	src := c.Snap.Content
	i := c.Off
	for i > 0 {
		b := src[i-1]
		if b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '?' || b == '!' {
			i--
			continue
		}
		break
	}
	return string(src[i:c.Off]), i
}

// contentOf returns the content of uri as the snapshot saw it.
func (c *Cursor) contentOf(uri string) []byte {
	if uri == c.Snap.URI {
		return c.Snap.Content
	}
	return c.Snap.MapperOf(uri).Content()
}

// textAt returns the source text at l ("" when out of range).
func (c *Cursor) textAt(l positions.Loc) string {
	src := c.contentOf(l.URI)
	if l.Span.Start < 0 || l.Span.End > len(src) || l.Span.Start > l.Span.End {
		return ""
	}
	return string(src[l.Span.Start:l.Span.End])
}

// declared returns the string keys of a properties map, in order, without
// repeats.
func declared(props *validate.Value) []string {
	if props == nil || props.Kind != validate.Map {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range props.Entries {
		if e.Key != nil && e.Key.Kind == validate.String && !e.Key.Unknown && !seen[e.Key.Text] {
			seen[e.Key.Text] = true
			out = append(out, e.Key.Text)
		}
	}
	return out
}

// declEntry returns the effective entry of props whose key is the string
// name.
func declEntry(props *validate.Value, name string) (validate.Entry, bool) {
	if props == nil || props.Kind != validate.Map {
		return validate.Entry{}, false
	}
	for i := len(props.Entries) - 1; i >= 0; i-- {
		e := props.Entries[i]
		if e.Key != nil && e.Key.Kind == validate.String && !e.Key.Unknown && e.Key.Text == name {
			return e, true
		}
	}
	return validate.Entry{}, false
}
