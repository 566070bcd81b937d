package validate

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"
)

// maxDepth bounds every recursive walk over a Value tree, so that a
// pathological (or, through a reader bug, cyclic) value ends the walk
// instead of the stack.
const maxDepth = 100

// maxSteps bounds the nodes one walk visits (per action schema, in the
// Declaration walk and in Lints alike), so that a value shared many times over (a DAG of module
// attributes) cannot make a walk exponential. Beyond it the walk stops
// silently: missing an offence is better than hanging.
const maxSteps = 1 << 16

// keyCheck validates the value of one action-schema key (entry e of the
// schema) and records shape offences in c. Each one rejects at least a
// wrong-type value (docs/rules.md §3, "known implies validated").
type keyCheck func(c *actionCtx, e Entry)

// Validator runs the rule chain of docs/rules.md §4-§5 and the lints of §7 over
// evaluated actions/0 values. It is immutable and safe for concurrent use.
type Validator struct {
	cat *Catalogue
	// propertiesAt and defaultsAt are the indexes of :properties and
	// :defaults in the catalogue's key list, which holds both (keyChecks).
	propertiesAt, defaultsAt int
	// keywordsByLen holds the names of the catalogue's JSON Schema keywords
	// by length (isKeyword).
	keywordsByLen [][]string
	// checkAt is the validator table (keyChecks) by the index of the key
	// in the catalogue's key list, so that schema calls a validator without
	// a map lookup. These tables are derived once from the catalogue, which
	// is immutable.
	checkAt []keyCheck
}

// keyChecks is the validator table, keyed by action-schema key name. It is
// built per Validator (no package-level mutable state).
func keyChecks() map[string]keyCheck {
	return map[string]keyCheck{
		"description":     checkDescription,
		"properties":      checkProperties,
		"required":        checkRequired,
		"required_one_of": checkRequiredOneOf,
		"defaults":        checkDefaults,
		"notes":           checkNotes,
		"related":         checkRelated,
		"examples":        checkExamples,
	}
}

// NewValidator returns a Validator over the vocabulary of c. It fails when
// a catalogue key has no validator or a validator has no catalogue key
// (docs/rules.md §3, "known implies validated", "restated implies pinned").
func NewValidator(c *Catalogue) (*Validator, error) {
	if c == nil {
		return nil, fmt.Errorf("new validator: nil catalogue")
	}
	checks := keyChecks()
	for _, name := range c.Names() {
		if checks[name] == nil {
			return nil, fmt.Errorf("new validator: catalogue key :%s has no validator", name)
		}
	}
	for name := range checks {
		if _, ok := c.Key(name); !ok {
			return nil, fmt.Errorf("new validator: validator for :%s, which the catalogue does not list", name)
		}
	}
	checkAt := make([]keyCheck, len(c.names))
	for i, name := range c.names {
		checkAt[i] = checks[name]
	}
	var byLen [][]string
	for _, k := range c.keywords {
		for len(byLen) <= len(k.Name) {
			byLen = append(byLen, nil)
		}
		byLen[len(k.Name)] = append(byLen[len(k.Name)], k.Name)
	}
	return &Validator{cat: c, checkAt: checkAt, keywordsByLen: byLen,
		propertiesAt: slices.Index(c.names, "properties"), defaultsAt: slices.Index(c.names, "defaults")}, nil
}

// New is NewValidator for a catalogue known to match the validator table,
// such as DefaultCatalogue (TestKnownImpliesValidated guards that one): it
// panics where NewValidator returns an error, a programming error rather
// than bad input.
func New(c *Catalogue) *Validator {
	v, err := NewValidator(c)
	if err != nil {
		panic(err)
	}
	return v
}

var defaultValidator = sync.OnceValue(func() *Validator { return New(DefaultCatalogue()) })

// DefaultValidator returns the Validator over DefaultCatalogue. It panics
// if the two disagree, which TestKnownImpliesValidated guards against.
func DefaultValidator() *Validator { return defaultValidator() }

// isKeyword reports whether name is one of the catalogue's JSON Schema
// keywords, comparing it only with those of its length.
func (v *Validator) isKeyword(name string) bool {
	return len(name) < len(v.keywordsByLen) && indexOf(v.keywordsByLen[len(name)], name) >= 0
}

// Catalogue returns the vocabulary the Validator reads.
func (v *Validator) Catalogue() *Catalogue { return v.cat }

// Declaration returns every offence of one tool's actions/0 value (no cap),
// with Severity Error, sorted as docs/rules.md §6 says (SortOffences). A nil or
// opaque value has none. Shape offences of an action come first; the
// :defaults of an action are checked only when it has no shape offence
// (docs/rules.md §4 "Defaults"). Declaration-level offences (docs/rules.md §4
// "Declaration level") have Action "".
func (v *Validator) Declaration(actions *Value) []Offence {
	if actions == nil || actions.Kind == Opaque {
		return nil
	}
	if actions.Kind != Map {
		return []Offence{{
			Code: CodeActionsNotMap, Kind: KindShape, Pointer: actions.Origin, Severity: Error,
			Message: "actions/0 must return a map of action name => action schema, got " + Inspect(actions, 60),
			Fix:     `return a map such as %{create: %{description: "...", properties: %{}}}`,
		}}
	}
	var offs []Offence
	c := &actionCtx{v: v} // one for every action: its buffers are reused
	for _, e := range effective(actions.Entries) {
		offs = append(offs, checkActionName(e.Key)...)
		s := e.Value
		if s == nil || s.Kind == Opaque {
			continue
		}
		if s.Kind != Map {
			offs = append(offs, Offence{
				Code: CodeSchemaNotMap, Kind: KindShape, Action: actionName(e.Key), Pointer: s.Origin, Severity: Error,
				Message: "the action schema must be a map, got " + Inspect(s, 60),
				Fix:     `write %{description: "...", properties: %{}}`,
			})
			continue
		}
		offs = c.schema(e.Key, s, offs)
	}
	SortOffences(offs)
	return offs
}

// actionName inspects an action key as written: `:create`, `"op"`, `...`.
func actionName(k *Value) string {
	if k == nil {
		return "..."
	}
	if k.Kind == Atom && !k.Unknown {
		return InspectAtom(k.Text)
	}
	return Inspect(k, 60)
}

// checkActionName returns the offences of the action key k itself.
func checkActionName(k *Value) []Offence {
	if k == nil || k.Kind == Opaque {
		return nil
	}
	if k.Kind != Atom {
		name := actionName(k)
		fix := "use an atom as the action name"
		if k.Kind == String && !k.Unknown {
			fix = fmt.Sprintf("write %s instead of %s =>", KeywordKey(k.Text), InspectString(k.Text))
		}
		return []Offence{{
			Code: CodeActionNameNotAtom, Kind: KindShape, Action: name, Pointer: k.Origin, Severity: Error,
			Message: fmt.Sprintf("action name %s is not an atom", name), Fix: fix,
		}}
	}
	if strings.Contains(k.Text, "\n") {
		name := actionName(k)
		return []Offence{{
			Code: CodeActionNameNewline, Kind: KindShape, Action: name, Pointer: k.Origin, Severity: Error,
			Message: fmt.Sprintf("action name %s contains a newline", name),
			Fix:     "rename the action to a name without a newline",
		}}
	}
	return nil
}

// actionCtx collects the offences of one action schema. Declaration uses
// one actionCtx for all its actions (schema resets it), so that its maps
// and path nodes are allocated once per call, not once per action.
type actionCtx struct {
	v       *Validator
	key     *Value // the action's key; action is its name once named is set (see add)
	action  string
	named   bool
	present presence // effective vocabulary keys
	kind    string
	offs    []Offence // the offences of the earlier actions, then this one's
	start   int       // len(offs) when this action began
	steps   int
	// declDone, declCertain and decl cache declared(): what :properties
	// declares, and whether that is certain.
	declDone    bool
	declCertain bool
	decl        declSet
	seen        map[string]*Value // names() over a large list: the first element of each text
	paths                         // the location nodes, reused for every action
	groups      []group           // checkRequiredOneOf's groups
	texts       []string          // the backing of the groups' known sets
	order       [smallMap]int8    // keyIndex's guesses, kept from action to action
}

// keyIndex returns the index in the catalogue's key list of name, the
// atom key of entry j of the action schema, or -1. The actions of a tool
// mostly write their keys in one order, so the index found for entry j of
// the previous schema is tried first.
func (c *actionCtx) keyIndex(j int, name string) int {
	known := c.v.cat.names
	if j < len(c.order) {
		if i := int(c.order[j]); i < len(known) && known[i] == name {
			return i
		}
	}
	i := indexOf(known, name)
	if i >= 0 && j < len(c.order) && i <= math.MaxInt8 {
		c.order[j] = int8(i)
	}
	return i
}

// presence holds the effective entry of each vocabulary key of one action
// schema, by the key's index in the catalogue's key list (names): a map
// per action cost a fifth of a validation, for about ten keys. at holds
// indexes, not entries, so that clearing and filling it writes no pointer.
type presence struct {
	es []Entry // the effective entries of the action schema
	at []int32 // by key index: 1 + the index in es of the key's entry, 0 if absent
}

// get returns the entry of the vocabulary key of index i in the
// catalogue's key list (Validator.propertiesAt, defaultsAt), if the schema
// has it.
func (p *presence) get(i int) (Entry, bool) {
	if j := p.at[i]; j > 0 {
		return p.es[j-1], true
	}
	return Entry{}, false
}

// indexOf returns the index of the first of names equal to s, or -1: it
// is slices.Index with sameText.
func indexOf(names []string, s string) int {
	for i, n := range names {
		if sameText(n, s) {
			return i
		}
	}
	return -1
}

// sameText is a == b for the short names a walk compares, many of one
// length (required, defaults, examples; "name", "opts"): the first bytes
// are compared before the strings are, which most pairs then skip.
func sameText(a, b string) bool {
	return len(a) == len(b) && (a == "" || a[0] == b[0]) && a == b
}

// tick counts one visited node and reports whether the walk may go on.
func (c *actionCtx) tick() bool {
	c.steps++
	return c.steps <= maxSteps
}

// add records an offence of the action. The action's name is inspected
// here, at its first offence: a clean action never needs it.
func (c *actionCtx) add(code, loc string, ptr, rel Origin, msg, fix string) {
	if !c.named {
		c.action, c.named = actionName(c.key), true
	}
	c.offs = append(c.offs, Offence{
		Code: code, Kind: c.kind, Action: c.action, Location: loc,
		Pointer: ptr, Related: rel, Message: msg, Fix: fix, Severity: Error,
	})
}

// schema validates the action schema map m of the action keyed key: shape
// first, then, if clean, defaults. It appends the action's offences to offs
// and returns it.
func (c *actionCtx) schema(key, m *Value, offs []Offence) []Offence {
	keys := c.v.cat.keys // read at each use, never snapshotted (docs/rules.md §2: one owner)
	known := c.v.cat.names
	es := effective(m.Entries)
	at := c.present.at
	if cap(at) < len(keys) {
		at = make([]int32, len(keys))
	}
	at = at[:len(keys)]
	clear(at)
	// Every field but v, seen and order (kept from action to action) is
	// set here, one by one: assigning a whole actionCtx would copy its
	// pointers under the garbage collector's write barrier.
	c.key, c.action, c.named, c.kind = key, "", false, KindShape
	c.present = presence{es: es, at: at}
	c.offs, c.start, c.steps = offs, len(offs), 0
	c.declDone, c.declCertain, c.decl = false, false, c.decl.reused()
	// the last action's path nodes and groups are dead
	c.paths, c.groups, c.texts = c.paths.reused(), c.groups[:0], c.texts[:0]
	// open is openKeyed(m), found in the same pass: an entry that does not
	// take effect has a known key, so cannot make m open.
	open := m.Partial
	for j, e := range es {
		k := e.Key
		switch {
		case k == nil || k.Kind == Opaque || (k.Kind == Atom && k.Unknown):
			open = true // could be any key: nothing is certain
		case k.Kind == Atom:
			if i := c.keyIndex(j, k.Text); i >= 0 {
				c.present.at[i] = int32(j + 1)
			} else {
				c.unknownKey(k, known)
			}
		default:
			open = open || (k.Kind == String && k.Unknown)
			c.unknownKey(k, known)
		}
	}
	if !open {
		for i, kd := range keys {
			if kd.Mandatory && c.present.at[i] == 0 {
				ptr := m.Open()
				if ptr.IsZero() {
					ptr = m.Origin
				}
				c.add(CodeMissingKey, "", ptr, Origin{},
					"missing mandatory key "+kd.Atom(),
					"add "+strings.ReplaceAll(kd.Snippet, "$1", "..."))
				c.offs[len(c.offs)-1].Suggestion = kd.Name
			}
		}
	}
	for i, j := range c.present.at {
		if j > 0 {
			c.v.checkAt[i](c, es[j-1])
		}
	}
	if len(c.offs) == c.start {
		c.kind = KindDefaults
		c.defaults()
	}
	return c.offs
}

func (c *actionCtx) unknownKey(k *Value, known []string) {
	written := inspectKey(k)
	var fix, suggest string
	switch {
	case k.Kind == String && !k.Unknown && slices.Contains(known, k.Text):
		fix = fmt.Sprintf("write %s (an atom key) instead of %s =>", KeywordKey(k.Text), written)
		suggest = k.Text
	case (k.Kind == String || k.Kind == Atom) && !k.Unknown:
		if s, ok := Nearest(k.Text, known, false); ok {
			fix = fmt.Sprintf("did you mean %s?", InspectAtom(s))
			suggest = s
		}
	}
	if fix == "" {
		atoms := make([]string, len(known))
		for i, n := range known {
			atoms[i] = InspectAtom(n)
		}
		fix = "remove it; the keys are " + strings.Join(atoms, ", ")
	}
	c.add(CodeUnknownKey, "", k.Origin, Origin{}, "unknown key "+written, fix)
	c.offs[len(c.offs)-1].Suggestion = suggest
}

// ---- the eight key validators ----

func checkDescription(c *actionCtx, e Entry) {
	v := e.Value
	if !c.isString(":description", v) {
		return
	}
	if strings.Contains(v.Text, "\n") {
		c.add(CodeDescriptionNewline, "", v.Origin, Origin{},
			":description contains a newline",
			"keep :description to one line and move the rest to :notes")
	}
}

func checkNotes(c *actionCtx, e Entry) { c.isString(":notes", e.Value) }

// isString reports whether v is a string (nil and opaque are not, and pass),
// recording wrong-type otherwise.
func (c *actionCtx) isString(key string, v *Value) bool {
	if v == nil || v.Kind == Opaque {
		return false
	}
	if v.Kind != String {
		fix := c.exampleFix(key)
		if (v.Kind == Charlist || v.Kind == Atom) && !v.Unknown {
			fix = "write " + InspectString(v.Text)
		}
		c.add(CodeWrongType, "", v.Origin, Origin{},
			fmt.Sprintf("%s must be a string, got %s", key, Inspect(v, 60)), fix)
		return false
	}
	return true
}

// exampleFix returns "write <catalogue example>" for the key written `:name`.
func (c *actionCtx) exampleFix(key string) string {
	if kd, ok := c.v.cat.Key(strings.TrimPrefix(key, ":")); ok {
		return "write " + kd.Example
	}
	return ""
}

func checkProperties(c *actionCtx, e Entry) {
	v := e.Value
	if v == nil || v.Kind == Opaque {
		return
	}
	if v.Kind != Map {
		c.add(CodeWrongType, "", v.Origin, Origin{},
			":properties must be a map of property name => property schema, got "+Inspect(v, 60),
			c.exampleFix(":properties"))
		return
	}
	c.walkProperties(v, propertiesRoot, 0)
}

func checkDefaults(c *actionCtx, e Entry) {
	v := e.Value
	if v == nil || v.Kind == Opaque || v.Kind == Map {
		return
	}
	c.add(CodeWrongType, "", v.Origin, Origin{},
		":defaults must be a map, got "+Inspect(v, 60), c.exampleFix(":defaults"))
}

func checkExamples(c *actionCtx, e Entry) {
	v := e.Value
	if v == nil || v.Kind == Opaque {
		return
	}
	if v.Kind != List {
		c.add(CodeWrongType, "", v.Origin, Origin{},
			":examples must be a list of maps, got "+Inspect(v, 60), c.exampleFix(":examples"))
		return
	}
	for _, el := range v.Elems {
		if el != nil && el.Kind != Opaque && el.Kind != Map {
			c.add(CodeWrongType, "", el.Origin, Origin{},
				fmt.Sprintf(":examples entry %s is not a map", Inspect(el, 60)),
				`write each example as a map of data, such as %{"name" => "value"}`)
		}
	}
}

func checkRelated(c *actionCtx, e Entry) { c.stringList(":related", e.Value) }

func checkRequired(c *actionCtx, e Entry) {
	v := e.Value
	if !c.stringList(":required", v) {
		return
	}
	c.names(v, ":required", ":required")
}

// stringList checks that v is a list of strings: wrong-type on the whole
// value when it is not a list, on each wrong element otherwise. It reports
// whether v is a list whose string elements are worth checking further.
func (c *actionCtx) stringList(key string, v *Value) bool {
	if v == nil || v.Kind == Opaque {
		return false
	}
	if v.Kind != List {
		fix := c.exampleFix(key)
		if s, ok := oneName(v); ok { // required: "id" means required: ["id"]
			fix = "write " + KeywordKey(strings.TrimPrefix(key, ":")) + " [" + InspectString(s) + "]"
		}
		c.add(CodeWrongType, "", v.Origin, Origin{},
			fmt.Sprintf("%s must be a list of strings, got %s", key, Inspect(v, 60)), fix)
		return false
	}
	c.stringElems(key, v)
	return true
}

// oneName returns the name a single known string, atom or charlist
// writes, where a list of names belongs; ok is false for anything else
// (nil, true and false are no names).
func oneName(v *Value) (string, bool) {
	if v.Unknown {
		return "", false
	}
	switch v.Kind {
	case String, Charlist, Atom:
		return v.Text, true
	}
	return "", false
}

func (c *actionCtx) stringElems(key string, list *Value) {
	for _, el := range list.Elems {
		if el == nil || el.Kind == Opaque || el.Kind == String {
			continue
		}
		fix := "write the entry as a string"
		if (el.Kind == Charlist || el.Kind == Atom) && !el.Unknown {
			fix = "write " + InspectString(el.Text)
		}
		c.add(CodeWrongType, "", el.Origin, Origin{},
			fmt.Sprintf("%s entry %s is not a string", key, Inspect(el, 60)), fix)
	}
}

// declSet is what a :properties map declares: the string names of its
// entries, and the first atom key (`title:`) of each name, a name listed
// elsewhere as a string being declared, but wrongly. A small map is
// scanned; a large one (more than indexOver entries) is indexed once.
type declSet struct {
	es   []Entry
	str  map[string]bool   // the string names, when indexed
	atom map[string]*Value // the first atom key of each name, when indexed
}

// reused returns d emptied, keeping its maps for the next action.
func (d declSet) reused() declSet {
	if len(d.str) > 0 || len(d.atom) > 0 {
		clear(d.str)
		clear(d.atom)
	}
	return declSet{str: d.str, atom: d.atom}
}

// over sets d to the entries es, indexing them if there are many.
func (d *declSet) over(es []Entry) {
	d.es = es
	if len(es) <= indexOver {
		return
	}
	if d.str == nil {
		d.str, d.atom = map[string]bool{}, map[string]*Value{}
	}
	for _, pe := range es {
		if pe.Key != nil && pe.Key.Kind == String {
			d.str[pe.Key.Text] = true
		}
		if pe.Key != nil && pe.Key.Kind == Atom && !pe.Key.Unknown {
			if _, dup := d.atom[pe.Key.Text]; !dup {
				d.atom[pe.Key.Text] = pe.Key
			}
		}
	}
}

// has reports whether an entry of d has the string key name.
func (d *declSet) has(name string) bool {
	if len(d.es) > indexOver {
		return d.str[name]
	}
	for _, pe := range d.es {
		if pe.Key != nil && pe.Key.Kind == String && sameText(pe.Key.Text, name) {
			return true
		}
	}
	return false
}

// atomKey returns the first known atom key of d named name, or nil.
func (d *declSet) atomKey(name string) *Value {
	if len(d.es) > indexOver {
		return d.atom[name]
	}
	for _, pe := range d.es {
		if pe.Key != nil && pe.Key.Kind == Atom && !pe.Key.Unknown && sameText(pe.Key.Text, name) {
			return pe.Key
		}
	}
	return nil
}

// maxNearDecl bounds the declarations nearest compares a name with, and
// the entries it looks through for those already used.
const maxNearDecl = 64

// nearest returns the declared string name that name is most likely a
// misspelling of (`"state"` for `"status"`), among those list does not
// already name (writing one would make a duplicate-entry): a near miss
// by validate.Nearest whose distance is under half the shorter name,
// since property names are short and any two-letter name is two edits
// from any other. A map or list of more than maxNearDecl names gives none.
func (d *declSet) nearest(name string, list *Value) (string, bool) {
	if len(d.es) > maxNearDecl || len(list.Elems) > maxNearDecl {
		return "", false
	}
	var names []string
	for _, pe := range d.es {
		if pe.Key != nil && pe.Key.Kind == String && !pe.Key.Unknown && !slices.Contains(names, pe.Key.Text) {
			names = append(names, pe.Key.Text)
		}
	}
	return nearUnwritten(name, names, list.Elems)
}

// nearUnwritten is nearName over the names that no known string of
// written gives already (a :required entry, a default key): suggesting
// one of those would make a duplicate.
func nearUnwritten(name string, names []string, written []*Value) (string, bool) {
	var cands []string
	for _, n := range names {
		if !slices.ContainsFunc(written, func(w *Value) bool {
			return w != nil && w.Kind == String && !w.Unknown && w.Text == n
		}) {
			cands = append(cands, n)
		}
	}
	return nearName(name, cands)
}

// nearName returns the candidate that name, a property name, is most
// likely a misspelling of: a near miss by validate.Nearest that is a
// prefix or whose distance is under half the shorter name.
func nearName(name string, cands []string) (string, bool) {
	near, ok := Nearest(name, cands, false)
	if !ok {
		return "", false
	}
	if strings.HasPrefix(near, name) {
		return near, true
	}
	n := min(len([]rune(name)), len([]rune(near)))
	if 2*levenshtein.ComputeDistance(name, near) >= n {
		return "", false
	}
	return near, true
}

// declared returns what :properties declares, and false when that is not
// certain (absent, opaque, partial, ill-typed).
func (c *actionCtx) declared() (*declSet, bool) {
	if c.declDone {
		return &c.decl, c.declCertain
	}
	c.declDone = true
	e, ok := c.present.get(c.v.propertiesAt)
	if !ok || e.Value == nil || e.Value.Kind != Map || openKeyed(e.Value) {
		return &c.decl, false
	}
	c.decl.over(e.Value.Entries)
	c.declCertain = true
	return &c.decl, true
}

// names reports duplicate-entry and undeclared-field over the known string
// elements of list (the :required list or one :required_one_of group).
// what names the list in messages; from names the key in fixes.
func (c *actionCtx) names(list *Value, what, from string) {
	decl, certain := c.declared()
	large := len(list.Elems) > indexOver
	if large {
		if c.seen == nil {
			c.seen = map[string]*Value{}
		}
		clear(c.seen)
	}
	for i, el := range list.Elems {
		if el == nil || el.Kind != String || el.Unknown {
			continue
		}
		var first *Value // the first earlier element of the same text
		if large {
			if first = c.seen[el.Text]; first == nil {
				c.seen[el.Text] = el
			}
		} else {
			for _, prev := range list.Elems[:i] {
				if prev != nil && prev.Kind == String && !prev.Unknown && prev.Text == el.Text {
					first = prev
					break
				}
			}
		}
		if first != nil {
			q := InspectString(el.Text)
			c.add(CodeDuplicateEntry, "", el.Origin, first.Origin,
				fmt.Sprintf("%s names %s twice", what, q),
				fmt.Sprintf("remove the second %s", q))
			continue
		}
		if certain && !decl.has(el.Text) {
			q := InspectString(el.Text)
			if ak := decl.atomKey(el.Text); ak != nil {
				// Declared, but as an atom (wymcp reads only string property
				// names): the fix is the property-name-not-string one, not a
				// second declaration (docs/rules.md §4, :required).
				c.add(CodeUndeclaredField, "", el.Origin, ak.Origin,
					fmt.Sprintf("%s names %s, but %s is declared as the atom %s", from, q, q, Inspect(ak, 60)),
					fmt.Sprintf("write %s => instead of %s", q, KeywordKey(ak.Text)))
				c.offs[len(c.offs)-1].RelatedMessage = fmt.Sprintf("%s is declared here as the atom %s (property-name-not-string)", q, Inspect(ak, 60))
				continue
			}
			fix := fmt.Sprintf("declare %s in :properties or remove it from %s", q, from)
			near, ok := decl.nearest(el.Text, list)
			if ok {
				fix = fmt.Sprintf("did you mean %s? else %s", InspectString(near), fix)
			}
			c.add(CodeUndeclaredField, "", el.Origin, Origin{},
				fmt.Sprintf("%s names %s, which :properties does not declare", from, q), fix)
			c.offs[len(c.offs)-1].Suggestion = near
		}
	}
}

// group is one :required_one_of group as far as it is known.
type group struct {
	val     *Value
	known   []string // texts of its known string elements, sorted, each once
	certain bool     // every element known: known is the whole group
}

func checkRequiredOneOf(c *actionCtx, e Entry) {
	const key = ":required_one_of"
	v := e.Value
	if v == nil || v.Kind == Opaque {
		return
	}
	if v.Kind != List {
		c.add(CodeWrongType, "", v.Origin, Origin{},
			key+" must be a list of lists of strings, got "+Inspect(v, 60), c.exampleFix(key))
		return
	}
	groups := c.groups[:0]
	for _, g := range v.Elems {
		if g == nil || g.Kind == Opaque {
			continue
		}
		if g.Kind != List {
			fix := `write the group as a list, such as ["name"]`
			if g.Kind == String && !g.Unknown {
				fix = "write [" + InspectString(g.Text) + "]"
			}
			c.add(CodeWrongType, "", g.Origin, Origin{},
				fmt.Sprintf("%s group %s is not a list of strings", key, Inspect(g, 60)), fix)
			continue
		}
		c.stringElems(key, g)
		if len(g.Elems) == 0 && !g.Partial {
			c.add(CodeEmptyGroup, "", g.Origin, Origin{},
				key+" has an empty group, which every call satisfies",
				"remove the empty group []")
			continue
		}
		c.names(g, "a "+key+" group", key)
		gr := group{val: g, certain: !g.Partial}
		lo := len(c.texts)
		for _, el := range g.Elems {
			if el != nil && el.Kind == String && !el.Unknown {
				c.texts = append(c.texts, el.Text)
			} else {
				gr.certain = false
			}
		}
		known := c.texts[lo:]
		slices.Sort(known)
		known = slices.Compact(known)
		c.texts = c.texts[:lo+len(known)]
		gr.known = known[:len(known):len(known)]
		groups = append(groups, gr)
	}
	c.groups = groups
	for i, a := range groups {
		dup := false
		for _, b := range groups[:i] {
			if a.certain && b.certain && sameSet(a.known, b.known) {
				g := Inspect(a.val, 80)
				c.add(CodeDuplicateGroup, "", a.val.Origin, b.val.Origin,
					fmt.Sprintf("%s lists the group %s twice", key, g),
					fmt.Sprintf("remove the second %s", g))
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		for j, b := range groups {
			// a is a strict superset of b whatever a's unknown elements are:
			// its known elements alone already strictly contain all of b.
			if j == i || !b.certain || len(b.known) == 0 || !strictSuperset(a.known, b.known) {
				continue
			}
			c.add(CodeSupersetGroup, "", a.val.Origin, Origin{},
				fmt.Sprintf("%s group %s contains the group %s, which is always satisfied first", key, Inspect(a.val, 80), Inspect(b.val, 80)),
				fmt.Sprintf("remove %s", Inspect(a.val, 80)))
			break
		}
	}
}

// sameSet reports whether the sorted sets a and b hold the same texts.
func sameSet(a, b []string) bool { return slices.Equal(a, b) }

// strictSuperset reports whether the sorted set a holds every text of the
// sorted set b, and more.
func strictSuperset(a, b []string) bool {
	if len(a) <= len(b) {
		return false
	}
	i := 0
	for _, t := range b {
		for i < len(a) && a[i] < t {
			i++
		}
		if i == len(a) || a[i] != t {
			return false
		}
		i++
	}
	return true
}

// ---- map helpers ----

// keyIdent is the identity of a map key whose value is known.
type keyIdent struct {
	kind Kind
	text string
	b    bool
}

// keyID returns the identity of a map key whose value is known, and false
// for nil, opaque, unknown-content or compound keys.
func keyID(k *Value) (keyIdent, bool) {
	if k == nil || k.Unknown {
		return keyIdent{}, false
	}
	switch k.Kind {
	case Atom, String, Charlist, Integer, Float, Nil:
		return keyIdent{kind: k.Kind, text: k.Text}, true
	case Boolean:
		return keyIdent{kind: Boolean, b: k.Bool}, true
	}
	return keyIdent{}, false
}

// effective returns the entries of a map that take effect: for a key
// written more than once only the last entry (Elixir: the last one wins),
// in source order. It returns es itself when no key repeats, which it
// finds without allocating for a small map.
func effective(es []Entry) []Entry {
	if len(es) < 2 {
		return es
	}
	if len(es) > smallMap {
		return effectiveLarge(es)
	}
	// A key is compared with the earlier ones only when one of them has the
	// same bit of filterHash (kinds is a one-word filter), so a map without
	// a repeated key costs about one step per entry.
	var kinds uint64
	repeated := false
	for i, e := range es {
		id, ok := keyID(e.Key)
		if !ok {
			continue
		}
		bit := uint64(1) << (filterHash(id) & 63)
		if kinds&bit != 0 && writtenBefore(es, i, id) {
			repeated = true
			break
		}
		kinds |= bit
	}
	if !repeated {
		return es
	}
	out := make([]Entry, 0, len(es)-1)
	for i, e := range es {
		if !writtenLater(es, i) {
			out = append(out, e)
		}
	}
	return out
}

// filterHash mixes what is cheap to read of a key identity: its kind, its
// length and its first byte. Equal identities have equal hashes.
func filterHash(id keyIdent) uint {
	h := uint(id.kind)*13 + uint(len(id.text))*7
	if id.text != "" {
		h += uint(id.text[0])
	}
	if id.b {
		h++
	}
	return h
}

// writtenBefore reports whether an entry before es[i] has the known key id.
func writtenBefore(es []Entry, i int, id keyIdent) bool {
	for _, e := range es[:i] {
		if earlier, ok := keyID(e.Key); ok && earlier == id {
			return true
		}
	}
	return false
}

// writtenLater reports whether an entry after es[i] has the same known key
// (es[i] then does not take effect).
func writtenLater(es []Entry, i int) bool {
	id, ok := keyID(es[i].Key)
	if !ok {
		return false
	}
	for _, e := range es[i+1:] {
		if later, ok := keyID(e.Key); ok && later == id {
			return true
		}
	}
	return false
}

// effectiveLarge is effective for a map of more than smallMap entries:
// from the end, an entry whose key was already seen is dead. One map
// operation per entry; atom and string keys, nearly all of them, are
// indexed by their text alone, which hashes faster than a keyIdent.
func effectiveLarge(es []Entry) []Entry {
	var texts [2]map[string]struct{} // atom keys, string keys
	var others map[keyIdent]struct{}
	var dead []bool // nil while no entry is dead
	for i := len(es) - 1; i >= 0; i-- {
		id, ok := keyID(es[i].Key)
		if !ok {
			continue
		}
		var before, after int // the size of the map id goes into
		switch id.kind {
		case Atom, String:
			t := &texts[0]
			if id.kind == String {
				t = &texts[1]
			}
			if *t == nil {
				*t = make(map[string]struct{}, i+1)
			}
			before = len(*t)
			(*t)[id.text] = struct{}{}
			after = len(*t)
		default:
			if others == nil {
				others = map[keyIdent]struct{}{}
			}
			before = len(others)
			others[id] = struct{}{}
			after = len(others)
		}
		if after == before { // a later entry has the same key
			if dead == nil {
				dead = make([]bool, len(es))
			}
			dead[i] = true
		}
	}
	if dead == nil {
		return es
	}
	out := make([]Entry, 0, len(es)-1)
	for i, e := range es {
		if !dead[i] {
			out = append(out, e)
		}
	}
	return out
}

// smallMap is the number of entries up to which effective compares keys
// pairwise rather than indexing them in a map.
const smallMap = 16

// openKeyed reports whether a map may hold keys its Entries do not show:
// it is Partial, or a key is opaque or of unknown content (docs/rules.md §5).
func openKeyed(m *Value) bool {
	if m.Partial {
		return true
	}
	for _, e := range m.Entries {
		if e.Key == nil || e.Key.Kind == Opaque || ((e.Key.Kind == String || e.Key.Kind == Atom) && e.Key.Unknown) {
			return true
		}
	}
	return false
}

// seg returns the access-syntax segment of a nested key: `["o"]`.
func seg(k *Value) string {
	if k == nil {
		return "[...]"
	}
	return "[" + inspectKey(k) + "]"
}

// SortOffences sorts offences in place as docs/rules.md §6 says: shape before
// defaults (lints last), then by action, then by location, then by
// message; offences equal on all four keep their order.
func SortOffences(offs []Offence) {
	sort.SliceStable(offs, func(i, j int) bool {
		a, b := offs[i], offs[j]
		if ra, rb := kindRank(a.Kind), kindRank(b.Kind); ra != rb {
			return ra < rb
		}
		if a.Action != b.Action {
			return a.Action < b.Action
		}
		if a.Location != b.Location {
			return a.Location < b.Location
		}
		return a.Message < b.Message
	})
}

func kindRank(k string) int {
	switch k {
	case KindShape:
		return 0
	case KindDefaults:
		return 1
	}
	return 2
}
