// Package positions says where things are: byte spans in a file, and the
// conversions between byte offsets, LSP positions (0-based line, characters
// in UTF-16 code units, or in bytes when the client negotiated utf-8: see
// Encoding) and CLI positions (1-based line, 1-based column in characters).
//
// Every other package keeps byte offsets; conversion happens only at the
// protocol or terminal edge, through a Mapper (docs/architecture.md "Packages and imports").
package positions

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
// normalised (docs/architecture.md "Protocol library workarounds", go.lsp.dev/uri). Loc is comparable and is the
// concrete type the Elixir reader stores in validate.Origin.
type Loc struct {
	URI  string
	Span Span
}
