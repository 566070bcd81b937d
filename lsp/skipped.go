package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/workspace"
)

// SkipSource is implemented by an Analyzer that can list the documents it
// does not analyse (*workspace.Workspace does).
type SkipSource interface {
	Skipped() []workspace.Skip
}

// messageTypeWarning is LSP 3.17 MessageType.Warning.
const messageTypeWarning = 2

// showMessageParams is LSP 3.17 "ShowMessageParams".
type showMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// showMessage sends window/showMessage (LSP 3.17) of type typ
// (messageTypeInfo, messageTypeWarning) with msg; a failure to send is
// logged, as the message was a courtesy.
func (s *server) showMessage(ctx context.Context, typ int, msg string) {
	if err := s.notify(ctx, "window/showMessage", showMessageParams{Type: typ, Message: msg}); err != nil {
		s.log.Warn("showing a message failed", zap.Error(err))
	}
}

// warnSkipped shows one window/showMessage warning, and logs one line, for
// each document the analysis skips (over the size limit, or unreadable on
// disk): never a silent skip (docs/architecture.md, "LSP behaviour"). A document is
// warned about once while it stays skipped for the same reason (edits to
// a big buffer do not repeat it); once it is analysed again, a later skip
// warns again.
func (s *server) warnSkipped(ctx context.Context) {
	src, ok := s.an.(SkipSource)
	if !ok {
		return
	}
	skips := src.Skipped()
	s.mu.Lock()
	folders := append([]string(nil), s.folders...)
	now := make(map[string]bool, len(skips))
	var show []string
	for _, sk := range skips {
		now[sk.URI] = true
		reason := "too big"
		if sk.Err != nil {
			reason = "unreadable"
		}
		if s.warned[sk.URI] == reason {
			continue // warned already: one warning per document
		}
		s.warned[sk.URI] = reason
		msg := skipMessage(sk, folders)
		show = append(show, msg)
		s.log.Warn("document not analysed", zap.String("uri", sk.URI), zap.Int64("bytes", sk.Size),
			zap.Int64("limit", sk.Limit), zap.NamedError("readError", sk.Err))
	}
	for uri := range s.warned {
		if !now[uri] {
			delete(s.warned, uri)
		}
	}
	s.mu.Unlock()
	for _, msg := range show {
		s.showMessage(ctx, messageTypeWarning, msg)
	}
}

// skipMessage words the warning of one skipped document:
// "wymcp-ls: app/big.ex not analysed (3.1 MiB, over the 2 MiB limit)"
// ("(2097153 bytes, over the 2 MiB limit of 2097152 bytes)" just over it) or
// "wymcp-ls: app/x.ex not analysed (cannot read it: permission denied)",
// the path relative to the workspace folder holding it.
func skipMessage(sk workspace.Skip, folders []string) string {
	name := displayPath(sk, folders)
	if sk.Err != nil {
		return fmt.Sprintf("wymcp-ls: %s not analysed (cannot read it: %v)", name, sk.Err)
	}
	size, limit := humanSize(sk.Size), humanSize(sk.Limit)+" limit"
	if size == humanSize(sk.Limit) { // just over: "2 MiB, over the 2 MiB limit" reads as a contradiction
		size = strconv.FormatInt(sk.Size, 10) + " bytes"
		limit += " of " + strconv.FormatInt(sk.Limit, 10) + " bytes"
	}
	return fmt.Sprintf("wymcp-ls: %s not analysed (%s, over the %s)", name, size, limit)
}

// displayPath returns the document's path relative to the innermost
// workspace folder holding it (slash-separated), its disk path when no
// folder holds it, or its URI when it is not a file.
func displayPath(sk workspace.Skip, folders []string) string {
	if sk.Path == "" {
		return sk.URI
	}
	best := ""
	for _, f := range folders {
		rel, err := filepath.Rel(f, sk.Path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if best == "" || len(rel) < len(best) {
			best = rel
		}
	}
	if best == "" {
		return sk.Path
	}
	return filepath.ToSlash(best)
}

// humanSize renders a byte count in binary units with at most one
// decimal, a trailing ".0" dropped: "3.1 MiB", "2 MiB", "512 KiB", "80 bytes".
func humanSize(n int64) string {
	const kib, mib = 1 << 10, 1 << 20
	unit, div := "bytes", int64(1)
	switch {
	case n >= mib:
		unit, div = "MiB", mib
	case n >= kib:
		unit, div = "KiB", kib
	}
	if div == 1 {
		return strconv.FormatInt(n, 10) + " " + unit
	}
	v := strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64)
	return strings.TrimSuffix(v, ".0") + " " + unit
}
