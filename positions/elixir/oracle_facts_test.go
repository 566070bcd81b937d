package elixir

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file builds, from the reader's IR (Parse), the same
// fact lines that testdata/oracle/dump.exs builds from Elixir's own AST.
// The line format is documented at the top of dump.exs; the two must
// change together.

// lineIndex converts byte offsets of one source to Elixir positions.
type lineIndex struct {
	src    []byte
	starts []int // byte offset of the start of each line
}

func newLineIndex(src []byte) *lineIndex {
	ix := &lineIndex{src: src, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			ix.starts = append(ix.starts, i+1)
		}
	}
	return ix
}

// line returns the 1-based line of byte offset off.
func (ix *lineIndex) line(off int) int {
	return sort.Search(len(ix.starts), func(i int) bool { return ix.starts[i] > off })
}

// pos returns the 1-based line and the 1-based column of byte offset off,
// the column counted in code points (Elixir 1.14's tokenizer counts code
// points outside strings; inside a string, charlist, quoted atom or sigil
// it counts a grapheme cluster as one, which this does not model).
func (ix *lineIndex) pos(off int) (int, int) {
	l := ix.line(off)
	start := ix.starts[l-1]
	off = min(off, len(ix.src))
	return l, 1 + utf8.RuneCount(ix.src[start:off])
}

func (ix *lineIndex) at(off int) string {
	l, c := ix.pos(off)
	return fmt.Sprintf("%d:%d", l, c)
}

// irFacts returns the fact lines of f, read from src.
func irFacts(f *File, src []byte) []string {
	ix := newLineIndex(src)
	if len(f.Errors) > 0 {
		return []string{"error " + ix.at(f.Errors[0].At)}
	}
	var out []string
	if f.sketch != nil && f.sketch.file != nil && len(f.sketch.file.aliases) > 0 {
		out = append(out, "top")
		out = append(out, aliasFacts(f.sketch.file.aliases, ix)...)
	}
	for _, m := range f.Modules {
		out = append(out, moduleFacts(m, ix)...)
	}
	return out
}

// aliasFacts returns the alias lines of aliases, by position.
func aliasFacts(aliases []*Alias, ix *lineIndex) []string {
	als := slices.Clone(aliases)
	sort.SliceStable(als, func(i, j int) bool { return als[i].Span.Start < als[j].Span.Start })
	var out []string
	for _, a := range als {
		at := a.Span.Start
		if bytes.HasPrefix(ix.src[at:], []byte("__MODULE__.")) {
			// Elixir places the __aliases__ node of `__MODULE__.X` at its
			// dot (the __MODULE__ inside it has the name's own column); the
			// reader's Span is the whole name as written, for the editor.
			at += len("__MODULE__")
		}
		out = append(out, fmt.Sprintf("alias %s=%s %s", a.As, a.Target, ix.at(at)))
	}
	return out
}

func moduleFacts(m *Module, ix *lineIndex) []string {
	end := "-"
	if s := m.Span; s.End >= 3 && s.End <= len(ix.src) && string(ix.src[s.End-3:s.End]) == "end" &&
		(s.End == 3 || !isIdentByte(ix.src[s.End-4])) {
		end = strconv.Itoa(ix.line(s.End - 1))
	}
	out := []string{fmt.Sprintf("module %s %d-%s", m.Name, ix.line(m.Span.Start), end)}
	for _, d := range m.Defs {
		kind := d.Kind // def, defp, defmacro, defmacrop or defdelegate
		if kind == "" {
			kind = "def"
			if d.Private {
				kind = "defp"
			}
		}
		name := d.Name
		if name == "" || strings.HasPrefix(name, "unquote(") {
			name = "?"
		}
		out = append(out, fmt.Sprintf("def %s %s/%d %d", kind, name, d.Arity, ix.line(d.Span.Start)))
		if d.Arity == 0 && d.Body != nil && (kind == "def" || kind == "defp") { // dump.exs: zero-arity def/defp bodies
			out = append(out, literalFacts(d.Body, ix)...)
		}
	}
	for _, a := range m.Attrs {
		out = append(out, fmt.Sprintf("attr %s %d", a.Name, ix.line(a.Span.Start)))
		if a.Value != nil {
			out = append(out, literalFacts(a.Value, ix)...)
		}
	}
	return append(out, aliasFacts(m.Aliases, ix)...)
}

func isIdentByte(c byte) bool {
	return c == '_' || c == ':' || c == '@' || c == '?' || c == '!' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// literalFacts returns the `  lit` lines of e in pre-order.
func literalFacts(e *Expr, ix *lineIndex) []string {
	var out []string
	var walk func(e *Expr, depth int)
	emit := func(off int, kind, value string) {
		out = append(out, fmt.Sprintf("  lit %s %s %s", ix.at(off), kind, value))
	}
	walk = func(e *Expr, depth int) {
		if e == nil || depth > 400 {
			return
		}
		switch e.Kind {
		case ExprAtom:
			v := oracleEscape(e.Text)
			if e.Unknown {
				v = "?"
			}
			emit(e.Span.Start, "atom", v)
		case ExprBool, ExprNil:
			v := e.Text
			if e.Kind == ExprNil {
				v = "nil"
			}
			emit(e.Span.Start, "atom", v)
		case ExprInteger:
			emit(e.Span.Start, "integer", integerValue(e.Text))
		case ExprFloat:
			emit(e.Span.Start, "float", floatValue(e.Text))
		case ExprString, ExprCharlist:
			v := `"` + oracleEscape(e.Text) + `"`
			if e.Unknown {
				v = "?"
			}
			emit(e.Span.Start, e.Kind.String(), v)
		case ExprWords:
			v := "?"
			if !e.Unknown {
				ws := make([]string, len(e.Words()))
				for i, w := range e.Words() {
					ws[i] = `"` + oracleEscape(w.Text) + `"`
				}
				v = strings.Join(ws, " ")
			}
			emit(e.Span.Start, "words["+e.Text+"]", v)
		case ExprList:
			n := len(e.Args) + len(e.Pairs)
			if e.Span.Start < len(ix.src) && ix.src[e.Span.Start] != '[' {
				emit(e.Span.Start, "kw", strconv.Itoa(n))
			} else {
				tail := ""
				if e.Base != nil {
					tail = " tail"
				}
				emit(e.Span.Start, "list", strconv.Itoa(n)+tail)
			}
			for _, a := range e.Args {
				walk(a, depth+1)
			}
			for _, p := range e.Pairs {
				walk(p.Key, depth+1)
				walk(p.Value, depth+1)
			}
			walk(e.Base, depth+1)
		case ExprMap:
			kind, off := "map", e.Span.Start+1
			if e.Struct() != "" {
				kind, off = "struct "+stripSpace(e.Struct()), e.Span.Start
			} else if e.Open().End > e.Open().Start {
				off = e.Open().End - 1
			}
			v := strconv.Itoa(len(e.Pairs))
			if e.Base != nil {
				v += " update"
			}
			emit(off, kind, v)
			walk(e.Base, depth+1)
			for _, p := range e.Pairs {
				walk(p.Key, depth+1)
				walk(p.Value, depth+1)
			}
		case ExprTuple:
			emit(e.Span.Start, "tuple", strconv.Itoa(len(e.Args)))
			for _, a := range e.Args {
				walk(a, depth+1)
			}
		case ExprAlias, ExprAttr, ExprIdent:
		case ExprCall:
			walk(e.Base, depth+1)
			for _, a := range e.Args {
				walk(a, depth+1)
			}
		default: // unary, binary, block, error, opaque
			// &1 is a capture argument, not a literal to Elixir.
			if len(e.Args) == 1 && e.Args[0].Kind == ExprInteger && e.Span.Start < len(ix.src) && ix.src[e.Span.Start] == '&' {
				return
			}
			walk(e.Base, depth+1)
			for _, a := range e.Args {
				walk(a, depth+1)
			}
			for _, p := range e.Pairs {
				walk(p.Key, depth+1)
				walk(p.Value, depth+1)
			}
		}
	}
	walk(e, 0)
	return out
}

// floatValue returns a float literal's IEEE 754 bits as dump.exs prints them.
func floatValue(text string) string {
	f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	if err != nil {
		return "bad(" + text + ")"
	}
	return fmt.Sprintf("0x%016X", math.Float64bits(f))
}

// oracleEscape escapes s as dump.exs does: \\ \" \n \t \r, \xHH for other
// control bytes and for bytes that are not UTF-8.
func oracleEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02X`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02X`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// stripSpace removes the blanks of a name as written ("% Foo . Bar").
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}
