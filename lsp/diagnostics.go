package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"time"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Source is the diagnostic source the server publishes under.
const Source = "wymcp"

// kickDiagnostics asks the runner for an analysis. It never blocks: a
// pending request already covers every change made before the runner
// calls Diagnose, so rapid edits coalesce into one run.
func (s *server) kickDiagnostics() {
	s.changeSeq.Add(1)
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// runDiagnostics is the one diagnostics goroutine: on each kick it calls
// Diagnose and publishes every report (or, for a client that pulls
// diagnostics, stores them for its requests), until ctx ends.
//
// Once no change has come for symbolIdle after an analysis, it brings the
// workspace symbol index up to date, so that edits in a row never wait for
// it and a workspace/symbol request usually finds it current.
func (s *server) runDiagnostics(ctx context.Context) {
	var idle <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
			s.diagnoseOnce(ctx)
			idle = time.After(symbolIdle)
		case <-idle:
			idle = nil
			if s.symbolsBusy.CompareAndSwap(false, true) {
				// On its own goroutine: a first build over a big workspace
				// must not hold up the next analysis.
				s.goBackground(func(ctx context.Context) {
					defer s.symbolsBusy.Store(false)
					s.refreshSymbols(ctx)
				})
			}
		}
	}
}

// symbolIdle is how long the runner waits after an analysis, without a
// change, before it updates the workspace symbol index.
const symbolIdle = 150 * time.Millisecond

func (s *server) diagnoseOnce(ctx context.Context) {
	defer s.recoverLog("diagnostics")
	if s.pulling() {
		s.analysePull(ctx)
		return
	}
	reports := s.an.Diagnose(ctx)
	defer s.afterAnalysis(ctx, reports) // after publishing: never delays diagnostics
	for _, r := range reports {
		if ctx.Err() != nil {
			return
		}
		if r.Overlay && !s.current(r.URI, r.Version) {
			// A newer version (or a close) arrived during the analysis; it
			// has kicked the runner, and the next run reports this URI.
			s.log.Debug("stale report not published", zap.String("uri", r.URI), zap.Int32("version", r.Version))
			continue
		}
		s.publish(ctx, publishParams(r, s.encoding()))
	}
}

// publish sends p unless it is exactly what was last sent for its URI:
// the same version and the same diagnostics (an analysis woken by a
// didOpen or a save that changed nothing, as gopls also skips). The first
// publish for a document since its didOpen is always sent, as DidOpen
// forgets its hash: a client may drop a document's diagnostics when it
// closes it (Neovim resets them when a buffer detaches,
// runtime/lua/vim/lsp.lua buf_detach_client), and a close and reopen
// within one analysis publish nothing in between. A send that fails is not
// recorded, so the next analysis sends it again.
func (s *server) publish(ctx context.Context, p PublishDiagnosticsParams) {
	b, err := json.Marshal(p)
	h := maphash.Bytes(s.seed, b)
	s.mu.Lock()
	last, ok := s.published[p.URI]
	s.mu.Unlock()
	if err == nil && ok && last == h {
		s.log.Debug("unchanged diagnostics not published again", zap.String("uri", p.URI))
		return
	}
	var params any = p
	if err == nil {
		params = json.RawMessage(b) // marshalled once, for the hash and the send
	}
	err = s.notify(ctx, "textDocument/publishDiagnostics", params)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.log.Warn("publishing diagnostics failed", zap.String("uri", p.URI), zap.Error(err))
		delete(s.published, p.URI)
		return
	}
	s.published[p.URI] = h
}

// current reports whether uri is open at exactly version.
func (s *server) current(uri string, version int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[uri]
	return ok && d.version == version
}

// publishParams converts a workspace report to textDocument/publishDiagnostics
// params (LSP 3.17 "PublishDiagnosticsParams"): the report's exact URI, its
// overlay version (omitted for disk content), and a diagnostics array that
// is empty, never null, when there are no problems. Ranges are in enc.
func publishParams(r workspace.Report, enc positions.Encoding) PublishDiagnosticsParams {
	p := PublishDiagnosticsParams{URI: r.URI, Diagnostics: make([]Diagnostic, 0, len(r.Problems))}
	if r.Overlay {
		v := r.Version
		p.Version = &v
	}
	for _, pr := range r.Problems {
		p.Diagnostics = append(p.Diagnostics, diagnostic(r.Mapper, pr, enc))
	}
	return p
}

// diagnostic converts one problem: the byte span to a range in enc through
// m, severity as LSP numbers it (validate.Severity uses the same values;
// an unset severity is Error), code, source "wymcp", the message ending
// with the fix, and related locations through their own mappers.
func diagnostic(m *positions.Mapper, p workspace.Problem, enc positions.Encoding) Diagnostic {
	sev := int(p.Severity)
	if sev < int(validate.Error) || sev > int(validate.Hint) {
		sev = int(validate.Error)
	}
	d := Diagnostic{
		Range:    spanRange(m, p.Span, enc),
		Severity: sev,
		Code:     p.Code,
		Source:   Source,
		Message:  p.Text(),
	}
	for _, rel := range p.Related {
		d.RelatedInformation = append(d.RelatedInformation, RelatedInformation{
			Location: Location{URI: rel.URI, Range: spanRange(rel.Mapper, rel.Span, enc)},
			Message:  rel.Message,
		})
	}
	return d
}

// spanRange maps a byte span to an LSP range in enc; a nil mapper gives
// 0:0-0:0.
func spanRange(m *positions.Mapper, sp positions.Span, enc positions.Encoding) Range {
	if m == nil {
		return Range{}
	}
	return rangeFrom(m.RangeIn(enc, sp))
}

// String renders p for logs and test failures.
func (p PublishDiagnosticsParams) String() string {
	v := "none"
	if p.Version != nil {
		v = fmt.Sprint(*p.Version)
	}
	return fmt.Sprintf("%s@%s: %d diagnostics", p.URI, v, len(p.Diagnostics))
}
