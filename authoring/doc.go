// Package authoring answers the editor features that help an author write
// an action schema (README.md "Editor features"): completion, hover, code actions, document
// symbols, definition, references and rename. It reads a workspace
// Snapshot (the buffer as typed, its parse and the evaluated tools that
// read it) and the validate catalogue, and answers in byte spans; the lsp
// package converts them to protocol positions. It knows Elixir syntax
// through positions/elixir, so lsp does not have to.
package authoring

import "github.com/wymcp/wymcp-ls/positions"

// Edit replaces the bytes of Span in the document URI with NewText
// (LSP 3.17 "TextEdit", in bytes). Spans are into the content the snapshot
// saw for that URI (Snapshot.MapperOf(URI).Content()).
type Edit struct {
	URI     string
	Span    positions.Span
	NewText string
}
