// Package positions says where things are: byte spans in a file, and the
// conversions between byte offsets, LSP positions (0-based line, characters
// in UTF-16 code units, or in bytes when the client negotiated utf-8: see
// Encoding) and CLI positions (1-based line, 1-based column in characters).
//
// Every other package keeps byte offsets; conversion happens only at the
// protocol or terminal edge, through a Mapper (docs/architecture.md "Packages and imports").
package positions

import "github.com/wymcp/wymcp-ls/validate"

// Span is a half-open byte range [Start, End) in one file's content.
// Offsets are 0-based byte offsets into the file as read (UTF-8 or not).
type Span struct {
	Start, End int
}

// Len returns the span's width in bytes.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether byte offset off lies in [Start, End].
// The end is inclusive so that a cursor just after a token is "in" it,
// as editors expect for completion and hover.
func (s Span) Contains(off int) bool { return s.Start <= off && off <= s.End }

// Loc is a span in a named document. URI is the exact document URI string
// the client sent (or the file: URI made from a disk path); it is never
// normalised (docs/architecture.md "Protocol library workarounds", go.lsp.dev/uri). Loc is comparable; the
// Elixir reader hands it to validate as a validate.Origin (OriginOf, LocOf).
type Loc struct {
	URI  string
	Span Span
}

// OriginOf returns the validate.Origin that stands for l: its key is the
// URI and its two integers are the span's byte offsets, so equal Locs give
// equal Origins. This and LocOf are the one place that knows how a Loc is
// laid out in an Origin (docs/architecture.md "Data flow").
func OriginOf(l Loc) validate.Origin { return OriginIn(DocKeyOf(l.URI), l.Span) }

// DocKeyOf returns the interned key of the document uri, to build many
// Origins of that document with OriginIn without interning uri for each.
func DocKeyOf(uri string) validate.DocKey { return validate.NewDocKey(uri) }

// OriginIn returns OriginOf(Loc{URI: uri, Span: s}) for the key k made by
// DocKeyOf(uri).
func OriginIn(k validate.DocKey, s Span) validate.Origin { return k.Origin(s.Start, s.End) }

// LocOf returns the Loc that an Origin made by OriginOf stands for, and
// false for the zero Origin (no source). The reader never makes the zero
// Origin from a Loc: every span it records is non-empty.
func LocOf(o validate.Origin) (Loc, bool) {
	if o.IsZero() {
		return Loc{}, false
	}
	uri, start, end := o.Parts()
	return Loc{URI: uri, Span: Span{Start: start, End: end}}, true
}
