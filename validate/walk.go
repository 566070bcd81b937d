package validate

import (
	"fmt"
	"sort"
	"strings"
)

// The nested walk of docs/rules.md §4: below :properties, exactly what wymcp's
// closure walk reads: the values of every properties map, a single-schema
// "items" and an "additionalProperties" schema.

// walkProperties walks a properties map located at loc (":properties",
// `:properties["o"]["properties"]`).
func (c *actionCtx) walkProperties(props *Value, loc *path, depth int) {
	if depth > maxDepth || !c.tick() {
		return
	}
	for _, e := range effective(props.Entries) {
		k := e.Key
		if k != nil && k.Kind != Opaque && k.Kind != String {
			fix := "write the property name as a string"
			if (k.Kind == Atom || k.Kind == Charlist) && !k.Unknown {
				fix = fmt.Sprintf("write %s => instead", InspectString(k.Text))
				if k.Kind == Atom {
					fix = fmt.Sprintf("write %s => instead of %s", InspectString(k.Text), KeywordKey(k.Text))
				}
			}
			c.add(CodePropertyNameNotString, loc.String(), k.Origin, Origin{},
				fmt.Sprintf("property name %s is not a string", inspectKey(k)), fix)
		}
		v := e.Value
		if v == nil || v.Kind == Opaque {
			continue
		}
		if v.Kind != Map {
			name := inspectKey(k)
			if k != nil && k.Kind != String && !k.Unknown && (k.Kind == Atom || k.Kind == Charlist) {
				name = InspectString(k.Text)
			}
			c.add(CodePropertySchemaNotMap, loc.String(), v.Origin, Origin{},
				fmt.Sprintf("property %s must be a schema map, got %s", inspectKey(k), Inspect(v, 60)),
				fmt.Sprintf("write %s => %s", name, c.schemaFor(v)))
			continue
		}
		c.walkSchema(v, c.at(loc, k), depth+1)
	}
}

// schemaKeys are the values of the JSON Schema keywords a walk reads in one
// property schema, each as Get returns it: the value of the last entry
// whose key is that known string, or nil.
type schemaKeys struct {
	typ, props, items, extra *Value // "type", "properties", "items", "additionalProperties"
}

// keysOf returns the schemaKeys of the schema map s in one pass over its
// entries, where four calls of Get would make four.
func keysOf(s *Value) schemaKeys {
	var sk schemaKeys
	for _, e := range s.Entries {
		k := e.Key
		if k == nil || k.Kind != String || k.Unknown {
			continue
		}
		switch k.Text {
		case "type":
			sk.typ = e.Value
		case "properties":
			sk.props = e.Value
		case "items":
			sk.items = e.Value
		case "additionalProperties":
			sk.extra = e.Value
		}
	}
	return sk
}

// schemaFor suggests a schema map replacing a non-map value: a type name
// string becomes %{"type" => name}.
func (c *actionCtx) schemaFor(v *Value) string {
	if v.Kind == String && !v.Unknown {
		for _, t := range c.v.cat.types {
			if t == v.Text {
				return fmt.Sprintf(`%%{"type" => %s}`, InspectString(t))
			}
		}
	}
	return `%{"type" => ...}`
}

// walkSchema walks one property schema located at loc.
func (c *actionCtx) walkSchema(s *Value, loc *path, depth int) {
	if depth > maxDepth || !c.tick() {
		return
	}
	for i, e := range s.Entries {
		k := e.Key
		if k == nil || k.Kind != Atom || k.Unknown {
			continue
		}
		if kw, ok := c.v.cat.Keyword(k.Text); ok && kw.Walked && !writtenLater(s.Entries, i) {
			c.add(CodeAtomSchemaKeyword, loc.String(), k.Origin, Origin{},
				fmt.Sprintf("atom key %s is not read by wymcp, which reads the string key %s", InspectAtom(k.Text), InspectString(k.Text)),
				fmt.Sprintf("write %s => instead of %s", InspectString(k.Text), KeywordKey(k.Text)))
		}
	}
	sk := keysOf(s)
	if p := sk.props; p != nil && p.Kind != Opaque {
		if p.Kind != Map {
			c.add(CodeWrongType, loc.String(), p.Origin, Origin{},
				`"properties" must be a map of property name => property schema, got `+Inspect(p, 60),
				`write "properties" => %{"name" => %{"type" => "string"}}`)
		} else {
			c.walkProperties(p, c.lit(loc, `["properties"]`), depth+1)
		}
	}
	if it := sk.items; it != nil {
		switch it.Kind {
		case Opaque, Boolean:
		case Map:
			c.walkSchema(it, c.lit(loc, `["items"]`), depth+1)
		case List:
			for _, el := range it.Elems {
				if el != nil && el.Kind != Opaque && el.Kind != Map {
					c.add(CodeWrongType, loc.String(), el.Origin, Origin{},
						fmt.Sprintf(`"items" entry %s is not a schema map`, Inspect(el, 60)),
						"write "+c.schemaFor(el))
				}
			}
		default:
			c.add(CodeWrongType, loc.String(), it.Origin, Origin{},
				`"items" must be a schema map, a list of schema maps or a boolean, got `+Inspect(it, 60),
				`write "items" => `+c.schemaFor(it))
		}
	}
	if ap := sk.extra; ap != nil {
		switch ap.Kind {
		case Opaque, Boolean:
		case Map:
			c.walkSchema(ap, c.lit(loc, `["additionalProperties"]`), depth+1)
		default:
			c.add(CodeWrongType, loc.String(), ap.Origin, Origin{},
				`"additionalProperties" must be a boolean or a schema map, got `+Inspect(ap, 60),
				`write "additionalProperties" => true, false or a schema map`)
		}
	}
}

// ---- defaults (docs/rules.md §4 "Defaults") ----

// closure is what an object schema declares.
type closure struct {
	props    *Value            // the declaring "properties" map, or nil
	index    map[string]*Value // props' declarations by name, for a large props only (see declared)
	closed   bool              // a key outside props (and extra) is undeclared
	extra    *Value            // the "additionalProperties" schema map, or nil
	propsLoc *path             // location of the declaring properties map
	extraLoc *path             // location of extra
}

// indexOver is the number of entries of a properties map past which a
// closure indexes its declarations in a map rather than scanning them.
const indexOver = 16

// closureOver returns cl declaring the string keys of the properties map
// props (nil: none).
func closureOver(cl closure, props *Value) closure {
	cl.props = props
	if props != nil && len(props.Entries) > indexOver {
		cl.index = map[string]*Value{}
		for _, pe := range effective(props.Entries) {
			if pe.Key != nil && pe.Key.Kind == String && !pe.Key.Unknown {
				cl.index[pe.Key.Text] = pe.Value
			}
		}
	}
	return cl
}

// names returns the names cl declares, in no particular order.
func (cl *closure) names() []string {
	var out []string
	if cl.index != nil {
		for n := range cl.index {
			out = append(out, n)
		}
		return out
	}
	if cl.props != nil {
		for _, pe := range effective(cl.props.Entries) {
			if pe.Key != nil && pe.Key.Kind == String && !pe.Key.Unknown {
				out = append(out, pe.Key.Text)
			}
		}
	}
	return out
}

// declared returns the property schema cl declares under name: the value
// of the last entry of props whose key is the known string name (the one
// that takes effect, as in effective), and whether there is one.
func (cl *closure) declared(name string) (*Value, bool) {
	if cl.index != nil {
		ps, ok := cl.index[name]
		return ps, ok
	}
	if cl.props == nil {
		return nil, false
	}
	es := cl.props.Entries
	for i := len(es) - 1; i >= 0; i-- {
		if k := es[i].Key; k != nil && k.Kind == String && !k.Unknown && sameText(k.Text, name) {
			return es[i].Value, true
		}
	}
	return nil, false
}

// defaults checks the :defaults of a shape-clean action against the closure.
func (c *actionCtx) defaults() {
	e, ok := c.present.get(c.v.defaultsAt)
	if !ok || e.Value == nil || e.Value.Kind != Map {
		return
	}
	top := closure{propsLoc: propertiesRoot}
	if pe, ok := c.present.get(c.v.propertiesAt); ok && pe.Value != nil && pe.Value.Kind == Map {
		p := pe.Value
		top.closed = !openKeyed(p)
		top = closureOver(top, p)
	}
	c.defaultObject(e.Value, top, defaultsRoot, 0)
}

// closureOf returns the closure of the object schema s, without locations
// (the caller sets propsLoc and extraLoc when it reports them).
func closureOf(s *Value) closure {
	var cl closure
	if s == nil || s.Kind != Map {
		return cl
	}
	sk := keysOf(s)
	p, ap := sk.props, sk.extra
	if ap != nil && ap.Kind == Map {
		cl.extra = ap
	}
	if p == nil || p.Kind != Map {
		return cl // no "properties": open
	}
	cl = closureOver(cl, p)
	cl.closed = !openKeyed(p) && !openKeyed(s) && (ap == nil || (ap.Kind == Boolean && !ap.Bool))
	return cl
}

// defaultObject checks the keys of the default map obj (at location loc)
// against cl and descends into their values.
func (c *actionCtx) defaultObject(obj *Value, cl closure, loc *path, depth int) {
	if depth > maxDepth || !c.tick() {
		return
	}
	for _, e := range effective(obj.Entries) {
		k := e.Key
		if k == nil || k.Kind == Opaque {
			continue
		}
		if k.Kind != String {
			fix := "write the key as a string"
			if (k.Kind == Atom || k.Kind == Charlist) && !k.Unknown {
				fix = fmt.Sprintf("write %s => instead", InspectString(k.Text))
				if k.Kind == Atom {
					fix = fmt.Sprintf("write %s => instead of %s", InspectString(k.Text), KeywordKey(k.Text))
				}
			}
			c.add(CodeDefaultKeyNotString, loc.String(), k.Origin, Origin{},
				fmt.Sprintf("default key %s is not a string", inspectKey(k)), fix)
			continue
		}
		if k.Unknown {
			continue
		}
		if ps, ok := cl.declared(k.Text); ok {
			if c.into(e.Value, ps, depth+1) {
				c.defaultValue(e.Value, ps, c.at(loc, k), c.at(cl.propsLoc, k), depth+1)
			}
			continue
		}
		if cl.extra != nil {
			if c.into(e.Value, cl.extra, depth+1) {
				c.defaultValue(e.Value, cl.extra, c.at(loc, k), cl.extraLoc, depth+1)
			}
			continue
		}
		if !cl.closed {
			continue
		}
		// One wording at every depth: "action :a :defaults: default key
		// "x" is not declared by :properties" (the location already says
		// :defaults, so the message does not repeat it).
		q := InspectString(k.Text)
		fix := fmt.Sprintf("declare %s in %s or remove it from %s", q, cl.propsLoc.String(), loc.String())
		near, ok := cl.nearest(k.Text, obj)
		if ok {
			fix = fmt.Sprintf("did you mean %s? else %s", InspectString(near), fix)
		}
		c.add(CodeUndeclaredDefault, loc.String(), k.Origin, Origin{},
			fmt.Sprintf("default key %s is not declared by %s", q, cl.propsLoc.String()), fix)
		c.offs[len(c.offs)-1].Suggestion = near
	}
}

// nearest returns the name cl declares that the default key name is most
// likely a misspelling of (`"limt"` for `"limit"`, see nearName), among
// those the default map obj does not already give; none when cl declares,
// or obj holds, more than maxNearDecl names.
func (cl *closure) nearest(name string, obj *Value) (string, bool) {
	names := cl.names()
	if len(names) > maxNearDecl || len(obj.Entries) > maxNearDecl {
		return "", false
	}
	if cl.index != nil {
		sort.Strings(names) // in no particular order when indexed
	}
	keys := make([]*Value, 0, len(obj.Entries))
	for _, e := range obj.Entries {
		keys = append(keys, e.Key)
	}
	return nearUnwritten(name, names, keys)
}

// into reports whether defaultValue(val, schema, ..., depth) would look
// into val, a map or a list. For any other value it counts the step
// defaultValue would count, so that the caller can skip making the
// locations of a value nothing is reported in.
func (c *actionCtx) into(val, schema *Value, depth int) bool {
	if val == nil || schema == nil || schema.Kind != Map || depth > maxDepth {
		return false
	}
	if val.Kind == Map || val.Kind == List {
		return true
	}
	c.steps++
	return false
}

// defaultValue descends into a default value val (at loc) against its
// schema (at schemaLoc): object values into the schema's closure, list
// elements into a single-schema "items". A list element has no access
// syntax, so what sits in it is located at the list's own location.
func (c *actionCtx) defaultValue(val, schema *Value, loc, schemaLoc *path, depth int) {
	if val == nil || schema == nil || schema.Kind != Map || depth > maxDepth || !c.tick() {
		return
	}
	switch val.Kind {
	case Map:
		cl := closureOf(schema)
		cl.propsLoc, cl.extraLoc = c.lit(schemaLoc, `["properties"]`), c.lit(schemaLoc, `["additionalProperties"]`)
		c.defaultObject(val, cl, loc, depth+1)
	case List:
		if it := keysOf(schema).items; it != nil && it.Kind == Map {
			itemsLoc := c.lit(schemaLoc, `["items"]`) // one node for every element
			for _, el := range val.Elems {
				c.defaultValue(el, it, loc, itemsLoc, depth+1)
			}
		}
	}
}

// path is an access-syntax location built lazily: walks extend it per
// node, and only an offence renders it (String), so a clean walk inspects
// no key.
type path struct {
	parent *path
	text   string // a literal segment (":properties", `["items"]`), or
	key    *Value // a key rendered as [inspect(key)]
	// atom, when set, is the whole segment: the atom key written as Elixir
	// inspects it (InspectAtom), for a location that starts at an action.
	atom *Value
}

// paths hands out location nodes from slabs, so that a walk allocates one
// slab per pathSlab nodes rather than one node per map entry it visits.
type paths struct{ slab []path }

// pathSlab is the number of location nodes a slab holds.
const pathSlab = 64

// reused returns ps with every node handed out so far free for reuse. Call
// it only when none of them is live any more: an offence keeps its
// rendered location, never the path, so between two actions.
func (ps paths) reused() paths { return paths{slab: ps.slab[:0]} }

// node returns a new location node holding p. The node's fields are set
// one by one: appending p would copy it with the bulk write barrier the
// collector needs for a struct of pointers, several times slower.
func (ps *paths) node(p path) *path {
	if len(ps.slab) == cap(ps.slab) {
		ps.slab = make([]path, 0, pathSlab)
	}
	ps.slab = ps.slab[:len(ps.slab)+1]
	n := &ps.slab[len(ps.slab)-1]
	n.parent, n.text, n.key, n.atom = p.parent, p.text, p.key, p.atom
	return n
}

// propertiesRoot and defaultsRoot are the locations of an action's
// :properties and :defaults. Location nodes are never modified once made,
// so these two are shared by every walk.
var (
	propertiesRoot = &path{text: ":properties"}
	defaultsRoot   = &path{text: ":defaults"}
)

// atom returns a location made of one segment, the atom key k as
// InspectAtom renders it, rendered only if an offence shows it.
func (ps *paths) atom(k *Value) *path { return ps.node(path{atom: k}) }

// lit extends p by a literal segment.
func (ps *paths) lit(p *path, s string) *path { return ps.node(path{parent: p, text: s}) }

// at extends p by the access segment of key k.
func (ps *paths) at(p *path, k *Value) *path { return ps.node(path{parent: p, key: k}) }

// String renders the location ("" for a nil path).
func (p *path) String() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	p.write(&b)
	return b.String()
}

// write renders p, its parents first, into b. It keeps no pointer to p, so
// the paths of a walk can live on the walkers' stacks.
func (p *path) write(b *strings.Builder) {
	if p.parent != nil {
		p.parent.write(b)
	}
	switch {
	case p.atom != nil:
		b.WriteString(InspectAtom(p.atom.Text))
	case p.key == nil:
		b.WriteString(p.text)
	default:
		b.WriteString(seg(p.key))
	}
}
