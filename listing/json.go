package listing

import (
	"bytes"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wymcp/wymcp-ls/validate"
)

// Gap is one place where a rendered answer is not known exactly: a value
// the reader could not evaluate (opaque), a string with interpolation, a
// map or list that may hold more than the reader sees, a term Elixir's JSON
// encoder cannot write, or a callback that is not defined. The JSON still
// holds a stand-in there (Placeholder, or the best-effort text), so the
// byte and token figures of an answer with gaps are not exact and are not
// shown as figures (see Figures).
type Gap struct {
	// What says, in words, what is not known ("description/0 is not
	// defined", "an opaque value").
	What string
	// Origin is where the value came from (the reader's positions.Loc, see
	// positions.LocOf), or the zero Origin when there is no source for it
	// (an undefined callback).
	Origin validate.Origin
}

// Placeholder is the JSON string written in place of a value that could
// not be evaluated. It never is a real Wymcp answer.
const Placeholder = "<not evaluated>"

// node is one JSON value of an answer, built in the order Elixir's JSON
// encoder would write it.
type node struct {
	kind  nodeKind
	text  string // string content, or a number's JSON text
	keys  []string
	vals  []*node
	elems []*node
}

type nodeKind uint8

const (
	nString nodeKind = iota
	nNumber
	nTrue
	nFalse
	nNull
	nObject
	nArray
)

func str(s string) *node { return &node{kind: nString, text: s} }

// object is a JSON object under construction; keys are written in the
// order set by the caller (see sortedObject for map values).
type object struct{ n *node }

func newObject() object { return object{&node{kind: nObject}} }

func (o object) set(k string, v *node) object {
	o.n.keys = append(o.n.keys, k)
	o.n.vals = append(o.n.vals, v)
	return o
}

// stringKeys builds the JSON object of an Elixir map whose keys are all
// strings, in the order the encoder writes it: binaries in term order,
// byte by byte (the package documentation gives the reasoning).
func stringKeys(m map[string]*node) *node {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := newObject()
	for _, k := range keys {
		o.set(k, m[k])
	}
	return o.n
}

// builder converts validate values into JSON nodes and collects gaps.
type builder struct {
	gaps []Gap
	// values counts the values rendered, against maxValues; over is set
	// once the budget is spent (one gap says so).
	values int
	over   bool
}

func (b *builder) gap(what string, origin validate.Origin) {
	b.gaps = append(b.gaps, Gap{What: what, Origin: origin})
}

// term is one Elixir map key, with the rank of its type in Erlang's term
// order (number < atom < reference < fun < port < pid < tuple < map < nil
// < list < bitstring) and its name as the JSON encoder writes it.
type term struct {
	rank int
	num  *big.Float // numbers compare by value
	name string
}

func termLess(a, b term) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	if a.num != nil && b.num != nil {
		if c := a.num.Cmp(b.num); c != 0 {
			return c < 0
		}
	}
	return a.name < b.name
}

// Ranks of term order for the key kinds a map key can have here.
const (
	rankNumber = iota
	rankAtom
	rankTuple
	rankMap
	rankList
	rankBinary
)

// value converts v the way Jason (and Elixir's JSON) encode a term:
// strings as strings, atoms as their names, true/false/nil as JSON
// literals, integers and floats as numbers (floats in Erlang's shortest
// form), lists (charlists are lists of integers) as arrays, maps as
// objects whose keys are written in term order. A tuple cannot be encoded
// (Jason raises Protocol.UndefinedError); opaque and unknown parts become
// gaps.
func (b *builder) value(v *validate.Value, depth int) *node {
	if v == nil {
		b.gap("a missing value", validate.Origin{})
		return str(Placeholder)
	}
	if depth > maxDepth {
		b.gap("a value nested too deep to render", v.Origin)
		return str(Placeholder)
	}
	if b.values++; b.values > maxValues {
		if !b.over {
			b.over = true
			b.gap("an answer too large to render (more than 200,000 values)", v.Origin)
		}
		return str(Placeholder)
	}
	switch v.Kind {
	case validate.String:
		if v.Unknown {
			b.gap("a string with interpolation (content known only at run time)", v.Origin)
		}
		return str(b.utf8(v.Text, v.Origin))
	case validate.Atom:
		return str(v.Text)
	case validate.Boolean:
		if v.Bool {
			return &node{kind: nTrue}
		}
		return &node{kind: nFalse}
	case validate.Nil:
		return &node{kind: nNull}
	case validate.Integer:
		n, ok := integerJSON(v.Text)
		if !ok {
			b.gap("an integer literal this renderer cannot read", v.Origin)
			return str(Placeholder)
		}
		return &node{kind: nNumber, text: n}
	case validate.Float:
		n, ok := floatJSON(v.Text)
		if !ok {
			b.gap("a float literal this renderer cannot read", v.Origin)
			return str(Placeholder)
		}
		return &node{kind: nNumber, text: n}
	case validate.Charlist:
		arr := &node{kind: nArray, elems: []*node{}}
		for _, r := range v.Text {
			arr.elems = append(arr.elems, &node{kind: nNumber, text: strconv.Itoa(int(r))})
		}
		return arr
	case validate.List:
		arr := &node{kind: nArray, elems: []*node{}}
		for _, e := range v.Elems {
			arr.elems = append(arr.elems, b.value(e, depth+1))
		}
		if v.Partial {
			b.gap("a list that may hold more elements than the reader sees", v.Origin)
		}
		return arr
	case validate.Map:
		return b.mapValue(v, depth)
	case validate.Tuple:
		b.gap("a tuple, which Elixir's JSON encoder cannot write (it raises)", v.Origin)
		return str(Placeholder)
	}
	b.gap("a value the reader could not evaluate", v.Origin)
	return str(Placeholder)
}

// utf8 returns s, or, when s is not valid UTF-8 (Jason raises on it), s
// with each invalid sequence replaced by U+FFFD and a gap.
func (b *builder) utf8(s string, origin validate.Origin) string {
	if utf8.ValidString(s) {
		return s
	}
	b.gap("a string that is not valid UTF-8, which Elixir's JSON encoder refuses", origin)
	return strings.ToValidUTF8(s, "\uFFFD")
}

// maxDepth bounds the nesting the renderer follows.
const maxDepth = 200

// maxValues bounds the values one answer renders. A module attribute
// read twice at each of n levels (`@b Map.put(@a, "k", @a)`) is one value
// to the reader but 2^n to the JSON, which would keep the code lens busy
// for ever; a real answer has a few thousand values (the generated
// 1,000-action tool: about 40,000).
const maxValues = 200_000

// flatmapMax is the largest map the BEAM keeps as a sorted flatmap; a
// larger map is a hash map, iterated in hash order.
const flatmapMax = 32

// mapValue converts a map: the last entry of a key written twice wins (as
// in Elixir), and keys are written in term order.
func (b *builder) mapValue(v *validate.Value, depth int) *node {
	type kv struct {
		k   term
		val *node
	}
	idx := map[term]int{}
	var out []kv
	for _, e := range v.Entries {
		k, ok := b.key(e.Key)
		if !ok {
			continue
		}
		id := term{rank: k.rank, name: k.name}
		n := b.value(e.Value, depth+1)
		if i, seen := idx[id]; seen {
			out[i].val = n
			continue
		}
		idx[id] = len(out)
		out = append(out, kv{k, n})
	}
	if v.Partial {
		b.gap("a map that may hold more keys than the reader sees", v.Origin)
	}
	if len(out) > flatmapMax {
		b.gap("a map of more than 32 keys, which the BEAM writes in hash order (shown sorted)", v.Origin)
	}
	sort.SliceStable(out, func(i, j int) bool { return termLess(out[i].k, out[j].k) })
	o := newObject()
	for _, e := range out {
		o.set(e.k.name, e.val)
	}
	return o.n
}

// key converts a map key: Jason writes atoms and strings by name and other
// terms through String.Chars (integers, floats). A key it cannot write
// (a tuple, a map, a list, an opaque term) is a gap and is left out.
func (b *builder) key(k *validate.Value) (term, bool) {
	if k == nil {
		return term{}, false
	}
	switch k.Kind {
	case validate.String:
		if k.Unknown {
			b.gap("a map key with interpolation", k.Origin)
		}
		return term{rank: rankBinary, name: b.utf8(k.Text, k.Origin)}, true
	case validate.Atom, validate.Boolean, validate.Nil:
		return term{rank: rankAtom, name: k.Text}, true
	case validate.Integer:
		if s, ok := integerJSON(k.Text); ok {
			f, _, _ := big.ParseFloat(s, 10, 256, big.ToNearestEven)
			return term{rank: rankNumber, num: f, name: s}, true
		}
	case validate.Float:
		if s, ok := floatJSON(k.Text); ok {
			f, _, _ := big.ParseFloat(s, 10, 256, big.ToNearestEven)
			return term{rank: rankNumber, num: f, name: s}, true
		}
	}
	b.gap("a map key Elixir's JSON encoder cannot write, or that the reader could not evaluate", k.Origin)
	return term{}, false
}

// integerJSON turns an Elixir integer literal as written ("1_000", "0x1F",
// "0b101", "0o17", "?a", "-3") into its decimal JSON text.
func integerJSON(lit string) (string, bool) {
	neg := false
	for len(lit) > 0 && (lit[0] == '-' || lit[0] == '+') {
		if lit[0] == '-' {
			neg = !neg
		}
		lit = lit[1:]
	}
	var n big.Int
	switch {
	case strings.HasPrefix(lit, "?"):
		r, ok := charLiteral(lit[1:])
		if !ok {
			return "", false
		}
		n.SetInt64(int64(r))
	default:
		digits, base := strings.ReplaceAll(lit, "_", ""), 10
		if len(digits) > 2 && digits[0] == '0' {
			switch digits[1] {
			case 'x':
				digits, base = digits[2:], 16
			case 'o':
				digits, base = digits[2:], 8
			case 'b':
				digits, base = digits[2:], 2
			}
		}
		if _, ok := n.SetString(digits, base); !ok {
			return "", false
		}
	}
	if neg {
		n.Neg(&n)
	}
	return n.String(), true
}

// charLiteral reads the character after `?` (with Elixir's escapes).
func charLiteral(s string) (rune, bool) {
	if s == "" {
		return 0, false
	}
	if s[0] != '\\' {
		r, size := utf8.DecodeRuneInString(s)
		return r, size == len(s) && r != utf8.RuneError
	}
	if len(s) != 2 {
		return 0, false
	}
	switch s[1] {
	case '0':
		return 0, true
	case 'a':
		return 7, true
	case 'b':
		return 8, true
	case 't':
		return 9, true
	case 'n':
		return 10, true
	case 'v':
		return 11, true
	case 'f':
		return 12, true
	case 'r':
		return 13, true
	case 'e':
		return 27, true
	case 's':
		return 32, true
	case 'd':
		return 127, true
	}
	return rune(s[1]), true
}

// floatJSON turns an Elixir float literal into the text Jason writes:
// :io_lib_format.fwrite_g/1, the shortest digits that read back to the
// same float, in fixed notation unless scientific is shorter (100.0,
// 1.0e3, 0.0001, 1.0e-5), and scientific from 2^53 up; checked against
// Elixir 1.14 / OTP 25 (listing_test.go, TestLiterals).
func floatJSON(lit string) (string, bool) {
	lit = strings.ReplaceAll(lit, "_", "")
	neg := false
	for len(lit) > 0 && (lit[0] == '-' || lit[0] == '+') {
		if lit[0] == '-' {
			neg = !neg
		}
		lit = lit[1:]
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return "", false
	}
	sign := ""
	if neg && f != 0 {
		sign = "-"
	} else if neg {
		sign = "-" // -0.0 is written "-0.0" by fwrite_g
	}
	if f == 0 {
		return sign + "0.0", true
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // "1.2345e+17"
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, err := strconv.Atoi(exp)
	if err != nil {
		return "", false
	}
	if math.Abs(f) >= 1<<53 {
		// Erlang writes an integral float of 2^53 or more in scientific
		// form even where the fixed form is shorter (9.007199254740992e15).
		return sign + insertExp(strconv.Itoa(x), digits), true
	}
	return sign + insertDecimal(x+1, digits), true
}

// insertDecimal is io_lib_format's insert_decimal/2: place is the decimal
// exponent with value = 0.digits × 10^place.
func insertDecimal(place int, s string) string {
	if place == 0 {
		return "0." + s
	}
	l := len(s)
	if place > 0 && place < l {
		return s[:place] + "." + s[place:]
	}
	expL := strconv.Itoa(place - 1)
	expDot := 1
	if l == 1 {
		expDot = 2
	}
	expCost := len(expL) + 1 + expDot
	if place < 0 {
		if 2-place <= expCost {
			return "0." + strings.Repeat("0", -place) + s
		}
		return insertExp(expL, s)
	}
	if place-l+2 <= expCost {
		return s + strings.Repeat("0", place-l) + ".0"
	}
	return insertExp(expL, s)
}

func insertExp(expL, s string) string {
	if len(s) == 1 {
		return s + ".0e" + expL
	}
	return s[:1] + "." + s[1:] + "e" + expL
}

// writeString writes s as a JSON string the way Jason's default (:json)
// escaping does: `"` and `\` escaped, \b \t \n \f \r in short form, other
// control characters below U+0020 as \u00XX (upper-case hex), everything
// else (non-ASCII included, "/" included) as is. Callers pass valid UTF-8
// (builder.utf8).
func writeString(buf *bytes.Buffer, s string) {
	const hex = "0123456789ABCDEF"
	buf.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\t':
			buf.WriteString(`\t`)
		case '\n':
			buf.WriteString(`\n`)
		case '\f':
			buf.WriteString(`\f`)
		case '\r':
			buf.WriteString(`\r`)
		default:
			if c < 0x20 {
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&15])
				continue
			}
			buf.WriteByte(c)
		}
	}
	buf.WriteByte('"')
}

// write encodes n compactly (indent < 0) or pretty-printed with indent
// levels of two spaces, as Jason.encode!(v, pretty: true) lays it out.
func (n *node) write(buf *bytes.Buffer, indent int) {
	nl := func(level int) {
		if indent >= 0 {
			buf.WriteByte('\n')
			buf.WriteString(strings.Repeat("  ", level))
		}
	}
	switch n.kind {
	case nString:
		writeString(buf, n.text)
	case nNumber:
		buf.WriteString(n.text)
	case nTrue:
		buf.WriteString("true")
	case nFalse:
		buf.WriteString("false")
	case nNull:
		buf.WriteString("null")
	case nArray:
		if len(n.elems) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				buf.WriteByte(',')
			}
			nl(indent + 1)
			e.write(buf, next(indent))
		}
		nl(indent)
		buf.WriteByte(']')
	case nObject:
		if len(n.keys) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			nl(indent + 1)
			writeString(buf, k)
			buf.WriteByte(':')
			if indent >= 0 {
				buf.WriteByte(' ')
			}
			n.vals[i].write(buf, next(indent))
		}
		nl(indent)
		buf.WriteByte('}')
	}
}

func next(indent int) int {
	if indent < 0 {
		return indent
	}
	return indent + 1
}
