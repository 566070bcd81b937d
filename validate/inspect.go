package validate

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// operatorAtoms are the atoms Elixir inspects without quotes although they
// are not identifiers (`:+`, `:<>`).
var operatorAtoms = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "++": true, "--": true, "<>": true,
	"==": true, "!=": true, "===": true, "!==": true, "<": true, ">": true, "<=": true,
	">=": true, "&&": true, "||": true, "!": true, "|>": true, "=~": true, "..": true,
	"...": true, "<-": true, "\\\\": true, "^": true, "&": true, "@": true, "%": true,
	"%{}": true, "{}": true, "<<>>": true, "<<<": true, ">>>": true, "~~~": true,
}

// InspectAtom returns the atom named name as Elixir's inspect/1 writes it:
// `:create`, `:ok?`, `:"a b"`, `:"a\nb"`; "nil", "true" and "false" come
// back bare, an "Elixir.A.B" alias as `A.B`.
func InspectAtom(name string) string {
	switch name {
	case "nil", "true", "false":
		return name
	}
	if rest, ok := strings.CutPrefix(name, "Elixir."); ok && isAlias(rest) {
		return rest
	}
	if isIdentAtom(name) || operatorAtoms[name] {
		return ":" + name
	}
	return ":" + quote(name)
}

// KeywordKey returns how an atom key is written in keyword syntax, without
// the trailing space: `create:` or `"a b":`.
func KeywordKey(name string) string {
	if isIdentAtom(name) {
		return name + ":"
	}
	return quote(name) + ":"
}

// isIdentAtom reports whether name is an atom Elixir writes unquoted: a
// letter or underscore, then letters, digits, underscores or @, then an
// optional ? or !.
func isIdentAtom(name string) bool {
	if ascii, ok := isIdentAtomASCII(name); ascii {
		return ok
	}
	return identAtomByRunes(name)
}

// identAtomByRunes is isIdentAtom's rule applied rune by rune, for names
// the ASCII fast path does not decide (and, in the tests, the reference
// the fast path must agree with).
func identAtomByRunes(name string) bool {
	if name == "" || !utf8.ValidString(name) {
		return false
	}
	for i, r := range name {
		switch {
		case i == 0 && (unicode.IsLetter(r) || r == '_'):
		case i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '@'):
		case i > 0 && (r == '?' || r == '!') && i == len(name)-1:
		default:
			return false
		}
	}
	return true
}

// isIdentAtomASCII is isIdentAtom for a name of ASCII bytes only (ascii
// false otherwise: the caller decides by runes), where a letter is a-z or
// A-Z and a digit 0-9, as unicode.IsLetter and IsDigit say for ASCII.
func isIdentAtomASCII(name string) (ascii, ok bool) {
	ok = name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= utf8.RuneSelf:
			return false, false
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '@'):
		case i > 0 && (c == '?' || c == '!') && i == len(name)-1:
		default:
			ok = false
		}
	}
	return true, ok
}

func isAlias(s string) bool {
	if s == "" {
		return false
	}
	for _, seg := range strings.Split(s, ".") {
		if seg == "" || seg[0] < 'A' || seg[0] > 'Z' {
			return false
		}
		for _, r := range seg {
			if !(r < utf8.RuneSelf && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))) {
				return false
			}
		}
	}
	return true
}

// InspectString returns s as Elixir's inspect/1 writes a binary: a quoted
// string with `\"`, `\\`, `\#{`, `\n`, `\t` and the other C escapes, or
// `<<1, 2>>` when s is not printable UTF-8 (Elixir's String.printable?/1).
func InspectString(s string) string {
	if !printable(s) {
		var b strings.Builder
		b.WriteString("<<")
		for i := 0; i < len(s); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(int(s[i])))
		}
		b.WriteString(">>")
		return b.String()
	}
	return quote(s)
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if escapeOf(r) != "" {
			continue
		}
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return false
		}
	}
	return true
}

func escapeOf(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\r':
		return `\r`
	case '\v':
		return `\v`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\a':
		return `\a`
	case 0x1b:
		return `\e`
	case 0x7f:
		return `\d`
	}
	return ""
}

// quote writes s between double quotes with Elixir's escapes; non-printable
// code points become \u{H}.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
				continue
			}
		}
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '#' && strings.HasPrefix(s[i:], "#{"):
			b.WriteString(`\#`)
		case escapeOf(r) != "":
			b.WriteString(escapeOf(r))
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			b.WriteString(`\u{` + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + `}`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// inspectKey inspects a map key or an access-syntax segment value.
func inspectKey(k *Value) string { return Inspect(k, 60) }

// Inspect returns an Elixir-like rendering of v for messages and hovers:
// `%{description: "x", "a" => 1}`, `["a", :b]`, `~c"abc"`, `{1, 2}`. An
// opaque value renders as `...`, a partial map or list ends in `...`, a
// string of unknown content shows its known parts with `#{...}` at the end.
// When max > 0 the result is cut to about max bytes (at a character
// boundary) and ends in "..."; max <= 0 means no limit other than the
// 1 MiB cap that every rendering has. A nil v renders as
// "nil".
func Inspect(v *Value, max int) string {
	if max <= 0 || max > maxInspect {
		max = maxInspect
	}
	w := &inspector{max: max}
	w.value(v, 0)
	s := w.b.String()
	if max > 0 && len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "..."
	}
	return s
}

type inspector struct {
	b   strings.Builder
	max int
}

// maxInspect bounds an unlimited Inspect, in bytes, against values shared
// many times over.
const maxInspect = 1 << 20

func (w *inspector) full() bool { return w.b.Len() > w.max }

func (w *inspector) value(v *Value, depth int) {
	if w.full() {
		return
	}
	if v == nil {
		w.b.WriteString("nil")
		return
	}
	if depth > maxDepth {
		w.b.WriteString("...")
		return
	}
	switch v.Kind {
	case Opaque:
		w.b.WriteString("...")
	case String:
		if v.Unknown {
			q := quote(v.Text)
			w.b.WriteString(q[:len(q)-1] + `#{...}"`)
		} else {
			w.b.WriteString(InspectString(v.Text))
		}
	case Charlist:
		w.b.WriteString("~c" + quote(v.Text))
	case Atom:
		w.b.WriteString(InspectAtom(v.Text))
	case Integer, Float:
		w.b.WriteString(v.Text)
	case Boolean:
		w.b.WriteString(strconv.FormatBool(v.Bool))
	case Nil:
		w.b.WriteString("nil")
	case List:
		w.b.WriteByte('[')
		w.elems(v.Elems, v.Partial, depth)
		w.b.WriteByte(']')
	case Tuple:
		w.b.WriteByte('{')
		w.elems(v.Elems, v.Partial, depth)
		w.b.WriteByte('}')
	case Map:
		w.b.WriteString("%{")
		kw := true
		for _, e := range v.Entries {
			if e.Key == nil || e.Key.Kind != Atom {
				kw = false
			}
		}
		for i, e := range v.Entries {
			if w.full() {
				return
			}
			if i > 0 {
				w.b.WriteString(", ")
			}
			if kw {
				w.b.WriteString(KeywordKey(e.Key.Text) + " ")
			} else {
				w.value(e.Key, depth+1)
				w.b.WriteString(" => ")
			}
			w.value(e.Value, depth+1)
		}
		if v.Partial {
			if len(v.Entries) > 0 {
				w.b.WriteString(", ")
			}
			w.b.WriteString("...")
		}
		w.b.WriteByte('}')
	default:
		w.b.WriteString("...")
	}
}

func (w *inspector) elems(es []*Value, partial bool, depth int) {
	for i, e := range es {
		if w.full() {
			return
		}
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.value(e, depth+1)
	}
	if partial {
		if len(es) > 0 {
			w.b.WriteString(", ")
		}
		w.b.WriteString("...")
	}
}

// Summary returns the line tools/list publishes for an action and the help
// index lists (docs/rules.md §2, :description): "<action>: <description>", where
// action is the action's name without the colon ("create: Create a task").
func Summary(action, description string) string {
	return action + ": " + description
}
