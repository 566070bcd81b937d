package validate

import (
	"math"
	"strconv"
	"unique"
)

// Origin is the reader's handle on the source of a value: a document key
// and two integers that only the reader interprets. validate never looks
// inside it: it only copies it into Offence.Pointer and Offence.Related and
// compares origins with ==, which compares all three parts, so two
// evaluations of the same source give equal origins. An Origin is a plain
// value of 16 bytes (one pointer, no interface), so storing one allocates
// nothing; the key is interned (DocKey), so that the many values of one
// document share it and == compares it as one word.
// The zero Origin is "none" (see IsZero); the Elixir reader converts
// between Origin and its positions.Loc in one place, positions.OriginOf and
// positions.LocOf (docs/architecture.md "Data flow").
type Origin struct {
	key  DocKey
	a, b int32
}

// DocKey is a document key interned for Origins (the standard library's
// unique.Make), so that an Origin holds one word for it. Make one per
// document and build its Origins with DocKey.Origin: NewOrigin interns
// the key again at each call. The zero DocKey is the empty key.
type DocKey struct{ h unique.Handle[string] }

// NewDocKey returns the interned key; the zero DocKey for "".
func NewDocKey(key string) DocKey {
	if key == "" {
		return DocKey{}
	}
	return DocKey{unique.Make(key)}
}

// String returns the key NewDocKey was given ("" for the zero DocKey).
func (k DocKey) String() string {
	if k == (DocKey{}) {
		return ""
	}
	return k.h.Value()
}

// Origin returns the Origin made of k and the two integers, which must
// lie in the int32 range: the reader's are byte offsets, and it reads no
// file of 2 GiB or more (its tokens hold int32 offsets). An integer
// outside it is clamped to the range.
func (k DocKey) Origin(a, b int) Origin { return Origin{key: k, a: clamp32(a), b: clamp32(b)} }

// Origin32 is Origin for integers already in the int32 range, as the
// reader's byte offsets are: no clamping, for the reader's hot path.
func (k DocKey) Origin32(a, b int32) Origin { return Origin{key: k, a: a, b: b} }

// clamp32 returns n clamped to the int32 range.
func clamp32(n int) int32 { return int32(min(max(n, math.MinInt32), math.MaxInt32)) }

// NewOrigin returns the Origin made of a document key and two integers, as
// the reader chooses them (in the int32 range, see DocKey.Origin).
// NewOrigin("", 0, 0) is the zero Origin.
func NewOrigin(key string, a, b int) Origin { return NewDocKey(key).Origin(a, b) }

// Parts returns the key and the two integers o was made from
// (NewOrigin's arguments; "", 0, 0 for the zero Origin).
func (o Origin) Parts() (key string, a, b int) { return o.key.String(), int(o.a), int(o.b) }

// IsZero reports whether o is the zero Origin: no source, as for a value
// the reader synthesised or an offence without a related node.
func (o Origin) IsZero() bool { return o == Origin{} }

// Kind is the Elixir term type of a Value.
type Kind uint8

// The kinds a Value can take. Opaque is a value the reader could not
// evaluate (docs/rules.md §5): every type check on it passes.
const (
	Opaque Kind = iota
	Map
	List
	String
	Charlist
	Atom
	Integer
	Float
	Boolean
	Nil
	Tuple
)

var kindNames = [...]string{"opaque", "map", "list", "string", "charlist", "atom", "integer", "float", "boolean", "nil", "tuple"}

// String returns the kind's lower-case name ("map", "string", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is an evaluated Elixir term as the reader could see it.
//
// Fields by kind:
//   - String: Text is the decoded content; Unknown is true when the
//     content is not known (interpolation), in which case Text is a best
//     effort and no content check (newline) may fire on it.
//   - Charlist: Text is the decoded content.
//   - Atom: Text is the atom's name without the colon (`:create` -> "create").
//     true, false and nil are Boolean/Nil, not Atom.
//   - Integer, Float: Text is the literal as written.
//   - Boolean: Bool.
//   - Map: Entries in source order, a key written twice kept twice (the
//     last one is the effective one); Partial is true when more keys may
//     exist than Entries lists (map update or merge with an opaque map).
//   - List, Tuple: Elems in order; Partial is true when more elements may
//     exist (a `++` with an opaque operand).
//
// Origin is the whole expression that produced the value, or the zero
// Origin for a value the reader synthesised. A map also has an opener
// (see Open and SetOpen).
type Value struct {
	Kind    Kind
	Unknown bool
	Bool    bool
	Partial bool // next to the other flags: a Value is one word smaller
	// openLen is the byte length of a map's opener, which starts where
	// Origin starts (see Open); 0 for none. It fills the word the flags
	// leave, so that the opener costs a Value no space.
	openLen int32
	Text    string
	Entries []Entry
	Elems   []*Value
	Origin  Origin
}

// Open returns a map's opener: the `%{` of the map literal, or the
// building expression when the map is not a literal (the missing-key
// pointer, docs/rules.md §4 Ranges). It lies in Origin's document and
// starts where Origin starts; the zero Origin when v has none (every
// value but a map the reader built, and nil).
func (v *Value) Open() Origin {
	if v == nil || v.openLen == 0 {
		return Origin{}
	}
	return Origin{key: v.Origin.key, a: v.Origin.a, b: v.Origin.a + v.openLen}
}

// SetOpen makes Open the first n units of Origin (for the reader, n
// bytes: 2 for `%{`); n <= 0 removes the opener. Set Origin first: Open
// follows it.
func (v *Value) SetOpen(n int) {
	v.openLen = clamp32(max(n, 0))
}

// Entry is one key => value pair of a map Value. Key.Origin is the key as
// written, without a keyword's colon and trailing space.
type Entry struct {
	Key, Value *Value
}

// Get returns the value of the last entry whose key is the string s, or
// nil (a key written twice in a map literal: the last one wins, as in
// Elixir). It does not look at atom keys.
func (v *Value) Get(s string) *Value {
	return v.find(String, s)
}

// GetAtom returns the value of the last entry whose key is the atom a, or nil.
func (v *Value) GetAtom(a string) *Value {
	return v.find(Atom, a)
}

func (v *Value) find(k Kind, s string) *Value {
	if v == nil || v.Kind != Map {
		return nil
	}
	for i := len(v.Entries) - 1; i >= 0; i-- {
		e := v.Entries[i]
		if e.Key != nil && e.Key.Kind == k && !e.Key.Unknown && e.Key.Text == s {
			return e.Value
		}
	}
	return nil
}
