package authoring

import (
	"bytes"
	"sort"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// This file finds the source of an evaluated value in the reader's IR and
// builds text edits that keep the layout around them. Everything here works
// on byte offsets into one document's content.

// maxFindDepth bounds the IR walk of find (the reader bounds nesting too;
// this keeps a pathological tree from exhausting the stack).
const maxFindDepth = 10_000

// exprSite is where a span sits in the IR of one document: the expression
// written there and its container. Exactly one of node and word is set.
type exprSite struct {
	uri     string
	content []byte
	// parent is the expression holding node (a map, list, words sigil ...),
	// nil for a root (an attribute value or a def body).
	parent *elixir.Expr
	node   *elixir.Expr
	// pair is the index in parent.Pairs when node is the key (key true) or
	// value of a pair, else -1; arg the index in parent.Args, else -1; word
	// the index in parent.Words() when the span is a ~w word, else -1.
	pair, arg, word int
	key             bool
}

// docIR is the parsed source of one document as a snapshot sees it.
type docIR struct {
	uri     string
	content []byte
	roots   []*elixir.Expr
}

// irOf returns the IR roots (attribute values and def bodies of every
// module the tool read) written in uri, with the content their spans refer
// to; ok is false when uri's content is unknown.
func irOf(snap *workspace.Snapshot, tv *workspace.ToolView, uri string) (docIR, bool) {
	d := docIR{uri: uri}
	var mods []*elixir.Module
	if uri == snap.URI {
		d.content = snap.Content
		if snap.File != nil {
			mods = snap.File.Modules
		}
	} else {
		d.content = snap.MapperOf(uri).Content()
		seen := map[*elixir.Module]bool{}
		add := func(m *elixir.Module) {
			if m != nil && m.URI == uri && !seen[m] {
				seen[m] = true
				mods = append(mods, m)
			}
		}
		if tv != nil {
			add(tv.Module)
			if tv.Result != nil && snap.Modules != nil {
				for _, name := range tv.Result.Modules {
					add(snap.Modules.Module(name))
				}
			}
		}
	}
	if len(mods) == 0 || d.content == nil {
		return d, false
	}
	for _, m := range mods {
		for _, a := range m.Attrs {
			if a.Value != nil {
				d.roots = append(d.roots, a.Value)
			}
		}
		for _, df := range m.Defs {
			if df.Body != nil {
				d.roots = append(d.roots, df.Body)
			}
		}
	}
	return d, true
}

// locateExpr returns the exprSite of the expression (or ~w word) of uri whose span
// is exactly loc.Span and that match accepts (nil accepts any), searching
// in source pre-order; ok is false when there is none.
func locateExpr(snap *workspace.Snapshot, tv *workspace.ToolView, loc positions.Loc, match func(*elixir.Expr) bool) (exprSite, bool) {
	d, ok := irOf(snap, tv, loc.URI)
	if !ok || loc.Span.Start < 0 || loc.Span.End > len(d.content) || loc.Span.Start >= loc.Span.End {
		return exprSite{}, false
	}
	f := exprFinder{sp: loc.Span, match: match}
	for _, r := range d.roots {
		if r.Span.Start > loc.Span.Start || r.Span.End < loc.Span.End {
			continue
		}
		if f.walk(nil, r, 0) {
			f.found.uri, f.found.content = loc.URI, d.content
			return f.found, true
		}
	}
	return exprSite{}, false
}

// locateOpen returns the exprSite of the map literal whose opener `%{` is at
// loc (the missing-key pointer, docs/rules.md §4 Ranges).
func locateOpen(snap *workspace.Snapshot, tv *workspace.ToolView, loc positions.Loc) (exprSite, bool) {
	d, ok := irOf(snap, tv, loc.URI)
	if !ok || loc.Span.Start < 0 || loc.Span.End > len(d.content) {
		return exprSite{}, false
	}
	f := exprFinder{sp: loc.Span, open: true}
	for _, r := range d.roots {
		if f.walk(nil, r, 0) {
			f.found.uri, f.found.content = loc.URI, d.content
			return f.found, true
		}
	}
	return exprSite{}, false
}

type exprFinder struct {
	sp    positions.Span
	open  bool // match a map's Open instead of a span
	match func(*elixir.Expr) bool
	found exprSite
}

func (f *exprFinder) hit(e *elixir.Expr) bool {
	if f.open {
		return e.Kind == elixir.ExprMap && e.Open() == f.sp
	}
	return e.Span == f.sp && (f.match == nil || f.match(e))
}

// walk searches e (held by parent) and below; it records the first hit.
func (f *exprFinder) walk(parent, e *elixir.Expr, depth int) bool {
	if e == nil || depth > maxFindDepth || e.Span.Start > f.sp.Start || e.Span.End < f.sp.End {
		return false
	}
	if f.hit(e) {
		f.found = exprSite{parent: parent, node: e, pair: -1, arg: -1, word: -1}
		if parent != nil {
			for i, a := range parent.Args {
				if a == e {
					f.found.arg = i
				}
			}
			for i, p := range parent.Pairs {
				if p.Key == e || p.Value == e {
					f.found.pair, f.found.key = i, p.Key == e
				}
			}
		}
		return true
	}
	if !f.open {
		for i, w := range e.Words() {
			if w.Span == f.sp {
				f.found = exprSite{parent: e, pair: -1, arg: -1, word: i}
				return true
			}
		}
	}
	if f.walk(e, e.Base, depth+1) {
		return true
	}
	for _, a := range e.Args {
		if f.walk(e, a, depth+1) {
			return true
		}
	}
	for _, p := range e.Pairs {
		if f.walk(e, p.Key, depth+1) || f.walk(e, p.Value, depth+1) {
			return true
		}
	}
	return false
}

// locOf returns the positions.Loc of a reader Origin.
func locOf(o validate.Origin) (positions.Loc, bool) { return positions.LocOf(o) }

// ---- text helpers ----

// lineStartAt returns the offset of the first byte of the line holding off.
func lineStartAt(content []byte, off int) int {
	off = min(max(off, 0), len(content))
	return bytes.LastIndexByte(content[:off], '\n') + 1
}

// indentAt returns the blanks (spaces and tabs) that start the line holding off.
func indentAt(content []byte, off int) string {
	s := lineStartAt(content, off)
	e := s
	for e < len(content) && (content[e] == ' ' || content[e] == '\t') {
		e++
	}
	return string(content[s:e])
}

// breakBefore returns the line break that ends the line before the one
// holding off, "\r\n" or "\n", for a line written beside it: a file whose
// lines end in "\r\n" keeps them.
func breakBefore(content []byte, off int) string {
	if s := lineStartAt(content, off); s >= 2 && content[s-2] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// onlyBlanksBefore reports whether the line holding off has nothing but
// blanks before off.
func onlyBlanksBefore(content []byte, off int) bool {
	for i := lineStartAt(content, off); i < off && i < len(content); i++ {
		if content[i] != ' ' && content[i] != '\t' {
			return false
		}
	}
	return true
}

// hasNewline reports whether content[a:b] holds a line break.
func hasNewline(content []byte, a, b int) bool {
	a, b = max(a, 0), min(b, len(content))
	return a < b && bytes.IndexByte(content[a:b], '\n') >= 0
}

// removeItem returns the span to delete to remove item i of a
// comma-separated sequence (list elements, map pairs) or a blank-separated
// one (~w words), separator included: from the item to the next one, or
// from the previous one to the item for the last; a lone item takes a
// trailing comma with it.
func removeItem(content []byte, items []positions.Span, i int) positions.Span {
	it := items[i]
	switch {
	case i+1 < len(items):
		return positions.Span{Start: it.Start, End: items[i+1].Start}
	case i > 0:
		if sp, ok := removeLastLine(content, items[i-1], it); ok {
			return sp
		}
		return positions.Span{Start: items[i-1].End, End: it.End}
	}
	j := it.End
	for j < len(content) && isBlank(content[j]) {
		j++
	}
	if j < len(content) && content[j] == ',' {
		return positions.Span{Start: it.Start, End: j + 1}
	}
	return it
}

// removeLastLine returns the span removing the last item it, written on
// its own line, with that line (and its own trailing comment) when a
// comment sits between it and the item before it, prev: from prev, that
// span would delete the comment, which belongs to prev's line. The comma
// after prev stays, a trailing comma Elixir accepts before the closing
// bracket; ok is false unless that bracket is all that follows. When the
// bracket is on the item's line, only the item goes and the bracket keeps
// its own line.
func removeLastLine(content []byte, prev, it positions.Span) (positions.Span, bool) {
	if bytes.IndexByte(content[prev.End:it.Start], '#') < 0 || !onlyBlanksBefore(content, it.Start) {
		return positions.Span{}, false
	}
	end := it.End
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	if end < len(content) && content[end] == '#' {
		for end < len(content) && content[end] != '\n' && content[end] != '\r' {
			end++
		}
	} else {
		end = it.End
	}
	j := end
	for j < len(content) && (isBlank(content[j]) || content[j] == '#') {
		if content[j] == '#' {
			for j < len(content) && content[j] != '\n' {
				j++
			}
			continue
		}
		j++
	}
	if j >= len(content) || (content[j] != ']' && content[j] != '}') {
		return positions.Span{}, false
	}
	if !hasNewline(content, end, j) {
		// The bracket closes the list on the item's own line: the line
		// break before the item stays, or the bracket would join the
		// comment that ends the line before and be commented out.
		return positions.Span{Start: it.Start, End: end}, true
	}
	start := lineStartAt(content, it.Start)
	if start > 0 && content[start-1] == '\n' {
		start--
		if start > 0 && content[start-1] == '\r' {
			start--
		}
	}
	return positions.Span{Start: start, End: end}, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// itemSpans returns the spans of a list's elements (Args then keyword
// Pairs), of a map's pairs, or of a ~w sigil's words.
func itemSpans(e *elixir.Expr) []positions.Span {
	var out []positions.Span
	if e.Kind == elixir.ExprWords {
		for _, w := range e.Words() {
			out = append(out, w.Span)
		}
		return out
	}
	if e.Kind != elixir.ExprMap {
		for _, a := range e.Args {
			out = append(out, a.Span)
		}
	}
	for _, p := range e.Pairs {
		out = append(out, p.Span)
	}
	return out
}

// insertFirst returns the edit that makes entry the first entry of the map
// literal m (written in content), keeping its layout: inline maps get
// `entry, ` before their first pair, multi-line maps a line of its own with
// the pairs' indentation; an empty map gets the entry alone.
func insertFirst(uri string, content []byte, m *elixir.Expr, entry string) Edit {
	if len(m.Pairs) == 0 {
		return insertEmpty(uri, content, m, entry)
	}
	first := m.Pairs[0].Span.Start
	text := entry + ", "
	if hasNewline(content, m.Open().End, first) && onlyBlanksBefore(content, first) {
		text = entry + "," + breakBefore(content, first) + indentAt(content, first)
	}
	return Edit{URI: uri, Span: positions.Span{Start: first, End: first}, NewText: text}
}

// insertBefore returns the edit inserting entry as the pair just before
// pair i of the map literal m, keeping its layout.
func insertBefore(uri string, content []byte, m *elixir.Expr, i int, entry string) Edit {
	if i == 0 {
		return insertFirst(uri, content, m, entry)
	}
	at := m.Pairs[i].Span.Start
	text := entry + ", "
	if hasNewline(content, m.Pairs[i-1].Span.End, at) && onlyBlanksBefore(content, at) {
		text = entry + "," + breakBefore(content, at) + indentAt(content, at)
	}
	return Edit{URI: uri, Span: positions.Span{Start: at, End: at}, NewText: text}
}

// insertLast returns the edit appending entry after the last pair of the
// map literal m, keeping its layout. In a map written one pair per line,
// the entry goes on a line of its own after the last pair's line, so that
// a comment ending that line stays with the pair it follows (the edit
// then rewrites the line's end, comment included, with the comma the last
// pair needs).
func insertLast(uri string, content []byte, m *elixir.Expr, entry string) Edit {
	if len(m.Pairs) == 0 {
		return insertEmpty(uri, content, m, entry)
	}
	last := m.Pairs[len(m.Pairs)-1].Span
	text := ", " + entry
	if hasNewline(content, m.Open().End, m.Pairs[0].Span.Start) || (len(m.Pairs) > 1 && hasNewline(content, m.Pairs[len(m.Pairs)-2].Span.End, last.Start)) {
		if onlyBlanksBefore(content, last.Start) {
			line := breakBefore(content, last.Start) + indentAt(content, last.Start) + entry
			if eol, comma, ok := commentAfter(content, last.End); ok {
				tail := string(content[last.End:eol])
				if !comma {
					return Edit{URI: uri, Span: positions.Span{Start: last.End, End: eol}, NewText: "," + tail + line}
				}
				return Edit{URI: uri, Span: positions.Span{Start: last.End, End: eol}, NewText: tail + line + ","}
			}
			text = "," + line
		}
	}
	return Edit{URI: uri, Span: positions.Span{Start: last.End, End: last.End}, NewText: text}
}

// commentAfter reports whether the line holding off goes on from off with
// blanks, perhaps a comma (comma), more blanks and a comment; eol is the
// offset of that line's end (its line break, or the end of content).
func commentAfter(content []byte, off int) (eol int, comma, ok bool) {
	i := off
	skip := func() {
		for i < len(content) && (content[i] == ' ' || content[i] == '\t') {
			i++
		}
	}
	skip()
	if i < len(content) && content[i] == ',' {
		comma = true
		i++
		skip()
	}
	if i >= len(content) || content[i] != '#' {
		return 0, false, false
	}
	for i < len(content) && content[i] != '\n' && content[i] != '\r' {
		i++
	}
	return i, comma, true
}

// insertEmpty returns the edit writing entry into the empty map literal m:
// `%{entry}` inline, or on a new line indented one level deeper than the
// closing brace when the map spans lines.
func insertEmpty(uri string, content []byte, m *elixir.Expr, entry string) Edit {
	at := m.Open().End
	closeAt := m.Span.End - 1
	if hasNewline(content, at, closeAt) && onlyBlanksBefore(content, closeAt) {
		return Edit{URI: uri, Span: positions.Span{Start: at, End: at}, NewText: breakBefore(content, closeAt) + indentAt(content, closeAt) + "  " + entry}
	}
	// Keep what sits between the braces (blanks) and write the entry first.
	return Edit{URI: uri, Span: positions.Span{Start: at, End: at}, NewText: entry}
}

// sortEdits orders edits by URI, then start offset, then end.
func sortEdits(es []Edit) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.URI != b.URI {
			return a.URI < b.URI
		}
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		return a.Span.End < b.Span.End
	})
}

// disjoint reports whether the sorted edits of each document neither
// overlap nor share an insertion point (LSP 3.17: the edits of one
// document must not overlap).
func disjoint(es []Edit) bool {
	for i := 1; i < len(es); i++ {
		a, b := es[i-1], es[i]
		if a.URI == b.URI && (b.Span.Start < a.Span.End || b.Span.Start == a.Span.Start) {
			return false
		}
	}
	return true
}

// Apply returns content with the edits of uri applied (edits of other
// documents are ignored). Spans are bytes into content; edits must not
// overlap. It is what a client does with a WorkspaceEdit, for tests and
// for the CLI.
func Apply(content []byte, uri string, edits []Edit) []byte {
	var mine []Edit
	for _, e := range edits {
		if e.URI == uri {
			mine = append(mine, e)
		}
	}
	sortEdits(mine)
	var b bytes.Buffer
	at := 0
	for _, e := range mine {
		s, t := min(max(e.Span.Start, at), len(content)), min(max(e.Span.End, e.Span.Start, at), len(content))
		b.Write(content[at:s])
		b.WriteString(e.NewText)
		at = t
	}
	b.Write(content[at:])
	return b.Bytes()
}
