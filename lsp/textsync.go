package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
)

// Text synchronisation (LSP 3.17 "Text Document Synchronization"),
// incremental. Documents are keyed by the exact URI string the client sent.

// DidOpen records the buffer and hands it to the analysis.
func (s *server) DidOpen(_ context.Context, p *protocol.DidOpenTextDocumentParams) error {
	uri := string(p.TextDocument.URI)
	text := []byte(p.TextDocument.Text)
	s.mu.Lock()
	s.docs[uri] = &document{version: p.TextDocument.Version, text: text}
	// The client may have dropped the diagnostics at the close (Neovim
	// resets them when a buffer detaches): the next publish is sent even
	// if it equals the last.
	delete(s.published, uri)
	s.touchLocked(uri)
	s.mu.Unlock()
	s.an.SetOverlay(uri, p.TextDocument.Version, text)
	s.kickDiagnostics()
	return nil
}

// didChange applies a textDocument/didChange decoded with pointer ranges
// (a range-less change replaces the whole text; docs/architecture.md
// "Protocol library workarounds"), its positions in the negotiated
// encoding. The
// changes apply in order, each to the result of the previous one. A change
// whose version is not newer than the buffer's is stale and ignored; a
// malformed notification is logged and ignored (the returned error is
// only logged, since notifications get no reply).
func (s *server) didChange(raw json.RawMessage) error {
	var p didChangeParams
	if err := json.Unmarshal(raw, &p); err != nil || isNull(raw) {
		msg := "didChange params must be an object"
		if err != nil {
			msg = "malformed didChange: " + err.Error()
		}
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, msg)
	}
	uri := p.TextDocument.URI
	changes := make([]positions.Change, len(p.ContentChanges))
	for i, c := range p.ContentChanges {
		changes[i].Text = c.Text
		if r := c.Range; r != nil {
			changes[i].Range = &positions.Range{
				StartLine: r.Start.Line, StartChar: r.Start.Character,
				EndLine: r.End.Line, EndChar: r.End.Character,
			}
		}
	}
	s.mu.Lock()
	d, ok := s.docs[uri]
	if !ok {
		s.mu.Unlock()
		s.log.Warn("didChange for a document that is not open; ignored", zap.String("uri", uri))
		return nil
	}
	if p.TextDocument.Version <= d.version {
		cur := d.version
		s.mu.Unlock()
		s.log.Warn("stale didChange ignored", zap.String("uri", uri),
			zap.Int32("version", p.TextDocument.Version), zap.Int32("current", cur))
		return nil
	}
	text := positions.ApplyChangesIn(s.encoding(), d.text, changes)
	d.text, d.version = text, p.TextDocument.Version
	s.touchLocked(uri)
	s.mu.Unlock()
	s.an.SetOverlay(uri, p.TextDocument.Version, text)
	s.kickDiagnostics()
	return nil
}

// touchLocked records that the client edited uri, for the next pull-mode
// analysis (a client that is pushed to needs no record). s.mu must be held.
func (s *server) touchLocked(uri string) {
	if s.caps.pullDiagnostics() {
		s.touched[uri] = true
	}
}

// DidClose forgets the buffer; the analysis falls back to disk.
func (s *server) DidClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	uri := string(p.TextDocument.URI)
	s.mu.Lock()
	delete(s.docs, uri)
	s.mu.Unlock()
	s.an.RemoveOverlay(uri)
	s.kickDiagnostics()
	return nil
}

// DidSave does nothing: the open buffer already wins over disk, and the
// watcher reports the disk change.
func (s *server) DidSave(context.Context, *protocol.DidSaveTextDocumentParams) error { return nil }

// DidChangeWatchedFiles re-reads each changed file: URI (created, changed
// or deleted) and re-analyses.
func (s *server) DidChangeWatchedFiles(_ context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	for _, c := range p.Changes {
		if c == nil {
			continue
		}
		s.an.DiskChanged(string(c.URI))
	}
	if len(p.Changes) > 0 {
		s.kickDiagnostics()
	}
	return nil
}

// Request answers every method protocol.ServerHandler does not know
// (textDocument/diagnostic, inlayHint, custom ones) with MethodNotFound.
func (s *server) Request(_ context.Context, method string, _ any) (any, error) {
	return nil, methodNotFound(method)
}
