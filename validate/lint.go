package validate

import (
	"fmt"
)

// Lints returns the lints of docs/rules.md §7 over one tool's
// actions/0 value, sorted by SortOffences. They are things wymcp would not
// raise: Kind is KindLint, Severity Warning (Hint for
// lint/unknown-keyword), never Error. Opaque values and strings or atoms of
// unknown content never produce a lint.
//
//   - lint/duplicate-key: a key written twice in one map literal; Pointer
//     at each later occurrence, Related at the first.
//   - lint/related-unknown-action: a :related entry names no action of the
//     tool (not reported when the actions map may hold unseen keys).
//   - lint/default-for-required: a top-level :defaults key also listed in
//     :required; Pointer at the :defaults key.
//   - lint/unknown-type: a "type" (or an element of a "type" list) in a
//     walked property schema names no JSON Schema type; Fix suggests the
//     nearest type.
//   - lint/unknown-keyword: a string key of a walked property schema is not
//     a JSON Schema 2020-12 keyword; Fix suggests the nearest when close.
func (v *Validator) Lints(actions *Value) []Offence {
	if actions == nil || actions.Kind != Map {
		return nil
	}
	// named: the duplicate keys of actions/0 itself have Action "".
	l := &linter{v: v, keywords: v.cat.keywordNames(), types: v.cat.Types(), named: true}
	l.dupKeysHere(actions, nil)
	names := make(map[string]bool, len(actions.Entries))
	nameList := make([]string, 0, len(actions.Entries))
	for _, e := range actions.Entries {
		if e.Key != nil && (e.Key.Kind == Atom || e.Key.Kind == String) && !e.Key.Unknown && !names[e.Key.Text] {
			names[e.Key.Text] = true
			nameList = append(nameList, e.Key.Text)
		}
	}
	allNamesKnown := !openKeyed(actions)
	for _, e := range effective(actions.Entries) {
		s := e.Value
		if s == nil || s.Kind != Map {
			continue
		}
		l.key, l.named = e.Key, false
		l.steps = 0                // the budget is per action schema, as the Declaration walk's
		l.paths = l.paths.reused() // the last action's locations are rendered
		l.dupKeys(s, nil, true, 0)
		ak := actionKeysOf(s)
		if r := ak.related; r != nil && r.Kind == List && allNamesKnown {
			for _, el := range r.Elems {
				if el == nil || el.Kind != String || el.Unknown || names[el.Text] {
					continue
				}
				fix, suggest := "remove it, or declare that action", ""
				if n, ok := Nearest(el.Text, nameList, false); ok {
					fix, suggest = fmt.Sprintf("did you mean %s?", InspectString(n)), n
				}
				l.add(LintRelatedUnknownAction, Warning, "", el.Origin, Origin{},
					fmt.Sprintf(":related names %s, which is not an action of this tool", InspectString(el.Text)), fix)
				l.offs[len(l.offs)-1].Suggestion = suggest
			}
		}
		l.defaultForRequired(ak.required, ak.defaults)
		if p := ak.properties; p != nil && p.Kind == Map {
			l.properties(p, propertiesRoot, 0)
		}
	}
	SortOffences(l.offs)
	return l.offs
}

type linter struct {
	v        *Validator
	keywords []string
	types    []string
	key      *Value // the action's key; action is its name once named is set (see add)
	action   string
	named    bool
	offs     []Offence
	steps    int
	paths                    // the location nodes, reused for every action
	required map[string]bool // defaultForRequired's, reused
}

// tick counts one visited node and reports whether the walk may go on.
func (l *linter) tick() bool {
	l.steps++
	return l.steps <= maxSteps
}

// add records a lint. The action's name is inspected here, at its first
// lint: a clean action never needs it.
func (l *linter) add(code string, sev Severity, loc string, ptr, rel Origin, msg, fix string) {
	if !l.named {
		l.action, l.named = actionName(l.key), true
	}
	l.offs = append(l.offs, Offence{
		Code: code, Kind: KindLint, Action: l.action, Location: loc,
		Pointer: ptr, Related: rel, Message: msg, Fix: fix, Severity: sev,
	})
}

// actionKeys are the values of the action-schema keys Lints reads, each
// as GetAtom returns it: the value of the last entry whose key is that
// known atom, or nil.
type actionKeys struct {
	related, required, defaults, properties *Value
}

// actionKeysOf returns the actionKeys of the action schema s in one pass
// over its entries, where four calls of GetAtom would make four.
func actionKeysOf(s *Value) actionKeys {
	var ak actionKeys
	for _, e := range s.Entries {
		k := e.Key
		if k == nil || k.Kind != Atom || k.Unknown {
			continue
		}
		switch k.Text {
		case "related":
			ak.related = e.Value
		case "required":
			ak.required = e.Value
		case "defaults":
			ak.defaults = e.Value
		case "properties":
			ak.properties = e.Value
		}
	}
	return ak
}

// dupKeys reports lint/duplicate-key in every map of the tree v (located at
// loc); schemaLevel marks the action schema itself, whose keys are
// spelled as atoms in locations (":properties").
func (l *linter) dupKeys(v *Value, loc *path, schemaLevel bool, depth int) {
	if v == nil || depth > maxDepth || !l.tick() {
		return
	}
	switch v.Kind {
	case Map:
		l.dupKeysHere(v, loc)
		for _, e := range v.Entries {
			if !hasChildren(e.Value) {
				// dupKeys would only count it: no location to make
				if e.Value != nil && depth+1 <= maxDepth {
					l.steps++
				}
				continue
			}
			var child *path
			if schemaLevel && e.Key != nil && e.Key.Kind == Atom && !e.Key.Unknown {
				child = l.atom(e.Key)
			} else {
				child = l.at(loc, e.Key)
			}
			l.dupKeys(e.Value, child, false, depth+1)
		}
	case List, Tuple:
		for _, el := range v.Elems {
			l.dupKeys(el, loc, false, depth+1)
		}
	}
}

// hasChildren reports whether v is a map, a list or a tuple: a value
// dupKeys descends into.
func hasChildren(v *Value) bool {
	return v != nil && (v.Kind == Map || v.Kind == List || v.Kind == Tuple)
}

// dupKeysHere reports lint/duplicate-key for the keys of the map m only.
func (l *linter) dupKeysHere(m *Value, loc *path) {
	var first map[keyIdent]*Value // for large maps; small ones are scanned
	if len(m.Entries) > smallMap {
		first = make(map[keyIdent]*Value, len(m.Entries))
	}
	var kinds uint64 // a small map's filter, as in effective
	for i, e := range m.Entries {
		id, ok := keyID(e.Key)
		if !ok {
			continue
		}
		var f *Value
		if first != nil {
			if f = first[id]; f == nil {
				first[id] = e.Key
			}
		} else {
			bit := uint64(1) << (filterHash(id) & 63)
			if kinds&bit != 0 {
				for _, prev := range m.Entries[:i] {
					if pid, ok := keyID(prev.Key); ok && pid == id {
						f = prev.Key
						break
					}
				}
			}
			kinds |= bit
		}
		if f != nil {
			k := inspectKey(e.Key)
			l.add(LintDuplicateKey, Warning, loc.String(), e.Key.Origin, f.Origin,
				fmt.Sprintf("key %s is written twice in this map; only the last one takes effect", k),
				fmt.Sprintf("remove the earlier %s", k))
		}
	}
}

// defaultForRequired reports lint/default-for-required over the
// :required and :defaults values of one action schema (either may be nil).
func (l *linter) defaultForRequired(req, d *Value) {
	if req == nil || d == nil || req.Kind != List || d.Kind != Map {
		return
	}
	large := len(req.Elems) > smallMap // indexed in a map; a short list is scanned
	if large {
		if l.required == nil {
			l.required = map[string]bool{}
		}
		clear(l.required)
		for _, el := range req.Elems {
			if el != nil && el.Kind == String && !el.Unknown {
				l.required[el.Text] = true
			}
		}
	}
	for _, e := range effective(d.Entries) {
		k := e.Key
		if k == nil || k.Kind != String || k.Unknown {
			continue
		}
		if large && !l.required[k.Text] || !large && !lists(req, k.Text) {
			continue
		}
		q := InspectString(k.Text)
		l.add(LintDefaultForRequired, Warning, ":defaults", k.Origin, Origin{},
			fmt.Sprintf("the default for %s never applies: :required makes callers send it, and :required is checked before defaults merge", q),
			fmt.Sprintf("remove %s from :defaults or from :required", q))
	}
}

// lists reports whether list has a known string element s.
func lists(list *Value, s string) bool {
	for _, el := range list.Elems {
		if el != nil && el.Kind == String && !el.Unknown && sameText(el.Text, s) {
			return true
		}
	}
	return false
}

// properties lints the property schemas of a properties map at loc.
func (l *linter) properties(p *Value, loc *path, depth int) {
	if depth > maxDepth || !l.tick() {
		return
	}
	for _, e := range effective(p.Entries) {
		if e.Value != nil && e.Value.Kind == Map {
			l.schema(e.Value, l.at(loc, e.Key), depth+1)
		}
	}
}

// schema lints one walked property schema at loc.
func (l *linter) schema(s *Value, loc *path, depth int) {
	if depth > maxDepth || !l.tick() {
		return
	}
	for _, e := range effective(s.Entries) {
		k := e.Key
		if k == nil || k.Kind != String || k.Unknown || l.v.isKeyword(k.Text) {
			continue
		}
		fix, suggest := "check the spelling; wymcp passes unknown keywords through unread", ""
		if n, ok := Nearest(k.Text, l.keywords, false); ok {
			fix, suggest = fmt.Sprintf("did you mean %s?", InspectString(n)), n
		}
		l.add(LintUnknownKeyword, Hint, loc.String(), k.Origin, Origin{},
			fmt.Sprintf("%s is not a JSON Schema 2020-12 keyword", InspectString(k.Text)), fix)
		l.offs[len(l.offs)-1].Suggestion = suggest
	}
	sk := keysOf(s)
	if t := sk.typ; t != nil {
		switch t.Kind {
		case String:
			l.typeName(t, loc)
		case List:
			for _, el := range t.Elems {
				if el != nil && el.Kind == String {
					l.typeName(el, loc)
				}
			}
		}
	}
	if p := sk.props; p != nil && p.Kind == Map {
		l.properties(p, l.lit(loc, `["properties"]`), depth+1)
	}
	if it := sk.items; it != nil && it.Kind == Map {
		l.schema(it, l.lit(loc, `["items"]`), depth+1)
	}
	if ap := sk.extra; ap != nil && ap.Kind == Map {
		l.schema(ap, l.lit(loc, `["additionalProperties"]`), depth+1)
	}
}

func (l *linter) typeName(t *Value, loc *path) {
	if t.Unknown || indexOf(l.types, t.Text) >= 0 {
		return
	}
	fix, suggest := "", ""
	if n, ok := Nearest(t.Text, l.types, true); ok {
		fix, suggest = fmt.Sprintf("did you mean %s?", InspectString(n)), n
	}
	l.add(LintUnknownType, Warning, loc.String(), t.Origin, Origin{},
		fmt.Sprintf(`"type" %s is not a JSON Schema type`, InspectString(t.Text)), fix)
	l.offs[len(l.offs)-1].Suggestion = suggest
}
