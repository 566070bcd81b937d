package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/workspace"
)

// Pull diagnostics (LSP 3.17 "Pull Diagnostics"). When the client announces
// the textDocument.diagnostic capability the server never pushes
// publishDiagnostics to it: every analysis updates pullResults instead, and
// textDocument/diagnostic and workspace/diagnostic answer from there, with
// a resultId per document and "unchanged" reports when the client already
// has the current one. A result that changes because of a change in
// another document (a Schemas module edited, indexing finished) is
// announced with workspace/diagnostic/refresh when the client supports it.

// The LSP 3.17 methods of pull diagnostics.
const (
	methodDocumentDiagnostic  = "textDocument/diagnostic"
	methodWorkspaceDiagnostic = "workspace/diagnostic"
	methodDiagnosticRefresh   = "workspace/diagnostic/refresh"
)

// diagnosticIdentifier is DiagnosticOptions.identifier.
const diagnosticIdentifier = "wymcp"

// pullResult is the current diagnostics of one document in pull mode.
type pullResult struct {
	id    string       // resultId: changes exactly when items change
	items []Diagnostic // never nil
	key   string       // items as JSON, to tell a change
}

// pullState is the server's pull-mode state. mu serialises analyses (one
// Diagnose and the merge of its reports) and guards the fields.
type pullState struct {
	mu      chanMutex
	results map[string]*pullResult
	seq     int   // last resultId handed out
	done    int64 // the changeSeq value the last analysis started at
}

// chanMutex is a mutex whose Lock can give up when a context ends.
type chanMutex chan struct{}

func newChanMutex() chanMutex { return make(chanMutex, 1) }

// lock takes the mutex, or returns false when ctx ends first.
func (m chanMutex) lock(ctx context.Context) bool {
	select {
	case m <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (m chanMutex) unlock() { <-m }

// pulling reports whether the client pulls diagnostics.
func (s *server) pulling() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.pullDiagnostics()
}

// neovimClient is the clientInfo.name Neovim sends in initialize.
const neovimClient = "Neovim"

// pullCapabilities announces diagnosticProvider (LSP 3.17
// "DiagnosticOptions") to a client that pulls: results depend on other
// files (a tool reads its Schemas module), and workspace diagnostics cover
// the files on disk.
//
// To Neovim it announces workspaceDiagnostics false: Neovim (0.10 to 0.12,
// runtime/lua/vim/lsp/diagnostic.lua, on_refresh) answers
// workspace/diagnostic/refresh with a workspace/diagnostic request alone
// when the server offers one, and ignores that answer's reports for the
// buffers it pulls with textDocument/diagnostic, so an open file whose
// result changed because of another file (indexing finished, a tool's
// Schemas module edited) would keep its old diagnostics. Without
// workspace diagnostics its refresh pulls every open buffer again
// (docs/architecture.md, "LSP behaviour"; the Neovim section of
// editors/README.md). workspace/diagnostic is still answered.
func (s *server) pullCapabilities(c *serverCapabilities) {
	if !s.pulling() {
		return
	}
	s.mu.Lock()
	workspaceReports := s.caps.clientName != neovimClient
	s.mu.Unlock()
	c.setCapability("diagnosticProvider", map[string]any{
		"identifier":            diagnosticIdentifier,
		"interFileDependencies": true,
		"workspaceDiagnostics":  workspaceReports,
	})
}

// registerPullFeatures adds the pull diagnostics handlers to s.features.
func (s *server) registerPullFeatures() {
	s.features[methodDocumentDiagnostic] = s.documentDiagnostic
	s.features[methodWorkspaceDiagnostic] = s.workspaceDiagnostic
}

// analysePull runs one analysis and merges its reports into the pull
// results: a document whose diagnostics changed gets a new resultId. When
// a result changed for a document whose own text was not edited since the
// previous analysis, the client is asked to pull again
// (workspace/diagnostic/refresh), if it supports that. It returns false
// when ctx ended before the analysis could start.
func (s *server) analysePull(ctx context.Context) bool {
	reports, ok := s.mergePull(ctx)
	if ok {
		s.afterAnalysis(ctx, reports) // outside the lock: it may notify
	}
	return ok
}

// mergePull is analysePull under s.pull.mu; it returns the analysis's
// reports, and false when ctx ended before it could start.
func (s *server) mergePull(ctx context.Context) ([]workspace.Report, bool) {
	if !s.pull.mu.lock(ctx) {
		return nil, false
	}
	defer s.pull.mu.unlock()
	start := s.changeSeq.Load()
	s.mu.Lock()
	touched := s.touched
	s.touched = map[string]bool{}
	refresh := s.caps.Workspace.Diagnostics.RefreshSupport
	s.mu.Unlock()

	reports := s.an.Diagnose(ctx)
	enc := s.encoding()
	elsewhere := false
	for _, r := range reports {
		items := publishParams(r, enc).Diagnostics
		b, err := json.Marshal(items)
		if err != nil {
			s.log.Error("encoding diagnostics failed", zap.String("uri", r.URI), zap.Error(err))
			continue
		}
		key := string(b)
		if old := s.pull.results[r.URI]; old != nil && old.key == key {
			continue
		}
		s.pull.seq++
		s.pull.results[r.URI] = &pullResult{id: strconv.Itoa(s.pull.seq), items: items, key: key}
		if !touched[r.URI] {
			elsewhere = true
		}
	}
	s.pull.done = start
	if elsewhere && refresh {
		s.goBackground(func(ctx context.Context) {
			if err := s.call(ctx, methodDiagnosticRefresh, nil, nil); err != nil {
				s.log.Warn("workspace/diagnostic/refresh failed", zap.Error(err))
			}
		})
	}
	return reports, true
}

// currentPull brings the pull results up to date with every change
// received so far, analysing first if a change came after the last
// analysis started. The analysis runs on the server's context, not the
// request's: a cancelled pull must not leave the workspace half-analysed.
func (s *server) currentPull(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !s.pull.mu.lock(ctx) {
		return ctx.Err()
	}
	stale := s.pull.done != s.changeSeq.Load()
	s.pull.mu.unlock()
	if stale {
		s.analysePull(s.bg)
	}
	return ctx.Err()
}

// resultLocked returns the pull result of uri, creating an empty one for a
// document no analysis has reported (no problems). s.pull.mu must be held.
func (s *server) resultLocked(uri string) *pullResult {
	r := s.pull.results[uri]
	if r == nil {
		s.pull.seq++
		r = &pullResult{id: strconv.Itoa(s.pull.seq), items: []Diagnostic{}, key: "[]"}
		s.pull.results[uri] = r
	}
	return r
}

// documentDiagnostic answers textDocument/diagnostic (LSP 3.17
// "DocumentDiagnosticReport") with the document's current diagnostics: a
// "full" report with a resultId, or "unchanged" when previousResultId is
// that resultId. A document the analysis does not know has no problems. A
// client that did not announce pull diagnostics gets MethodNotFound: it is
// pushed to.
func (s *server) documentDiagnostic(ctx context.Context, raw json.RawMessage) (any, error) {
	if !s.pulling() {
		return nil, methodNotFound(methodDocumentDiagnostic)
	}
	var p documentDiagnosticParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := s.currentPull(ctx); err != nil {
		return nil, err
	}
	if !s.pull.mu.lock(ctx) {
		return nil, ctx.Err()
	}
	defer s.pull.mu.unlock()
	r := s.resultLocked(p.TextDocument.URI)
	if p.PreviousResultID != "" && p.PreviousResultID == r.id {
		return documentReport{Kind: reportUnchanged, ResultID: r.id}, nil
	}
	items := r.items
	return documentReport{Kind: reportFull, ResultID: r.id, Items: &items}, nil
}

// workspaceDiagnostic answers workspace/diagnostic (LSP 3.17
// "WorkspaceDiagnosticReport") with one report per document not open in
// the editor that has, or had, diagnostics, sorted by URI, with version
// null: "unchanged" for the documents whose previousResultIds entry is the
// current resultId, "full" otherwise (an empty "full" report clears a
// document whose problems have gone). Open documents are included too,
// with their buffer's version: a client such as Neovim 0.12 answers
// workspace/diagnostic/refresh with workspace/diagnostic alone, so an open
// document left out would keep the result it pulled before indexing
// finished. Like textDocument/diagnostic, it is
// MethodNotFound for a client that did not announce pull diagnostics.
func (s *server) workspaceDiagnostic(ctx context.Context, raw json.RawMessage) (any, error) {
	if !s.pulling() {
		return nil, methodNotFound(methodWorkspaceDiagnostic)
	}
	var p workspaceDiagnosticParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := s.currentPull(ctx); err != nil {
		return nil, err
	}
	prev := map[string]string{}
	for _, r := range p.PreviousResultIDs {
		prev[r.URI] = r.Value
	}
	s.mu.Lock()
	open := make(map[string]int32, len(s.docs))
	for uri, d := range s.docs {
		open[uri] = d.version
	}
	s.mu.Unlock()
	if !s.pull.mu.lock(ctx) {
		return nil, ctx.Err()
	}
	defer s.pull.mu.unlock()
	out := workspaceDiagnosticReport{Items: []workspaceDocumentReport{}}
	for uri, r := range s.pull.results {
		var version *int32
		if v, ok := open[uri]; ok {
			version = &v
		}
		if id, ok := prev[uri]; ok && id == r.id {
			out.Items = append(out.Items, workspaceDocumentReport{Kind: reportUnchanged, URI: uri, Version: version, ResultID: r.id})
			continue
		}
		if len(r.items) == 0 && prev[uri] == "" && version == nil {
			continue // nothing to show and nothing shown
		}
		items := r.items
		out.Items = append(out.Items, workspaceDocumentReport{Kind: reportFull, URI: uri, Version: version, ResultID: r.id, Items: &items})
	}
	sort.Slice(out.Items, func(i, j int) bool { return out.Items[i].URI < out.Items[j].URI })
	return out, nil
}

// afterAnalysis is called with the reports of every analysis, pushed or
// pulled, once they are published or stored.
func (s *server) afterAnalysis(ctx context.Context, reports []workspace.Report) {
	s.warnSkipped(ctx)
}
