package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/workspace"
)

// ConfigSection is the settings section the server reads through
// workspace/configuration (LSP 3.17 "workspace/configuration"):
//
//	"wymcp": {"lints": {"lint/unknown-keyword": false}}
const ConfigSection = "wymcp"

// LintSwitcher is implemented by an Analyzer whose lints (docs/rules.md
// §7) can be switched by the client's settings; disabled[code] true turns
// a lint off, false turns it on, over each document's own .wymcp-ls.yaml.
// The workspace finds that file per document, as `check` does: the
// nearest one at or above the document's directory, no higher than the
// first directory holding mix.exs or .git (README.md, "How the config is
// found"); a watched-file event for any .wymcp-ls.yaml re-reads it.
type LintSwitcher interface {
	SetLints(disabled map[string]bool)
}

// DidChangeConfiguration re-reads the "wymcp" section: from the
// notification when the client pushes it, else by asking the client.
func (s *server) DidChangeConfiguration(_ context.Context, p *protocol.DidChangeConfigurationParams) error {
	if p != nil && p.Settings != nil {
		raw, err := json.Marshal(p.Settings)
		if err == nil {
			var pushed map[string]json.RawMessage
			if json.Unmarshal(raw, &pushed) == nil {
				if sec, ok := pushed[ConfigSection]; ok {
					// Newer than the answer to any pull still pending:
					// that answer is then stale and not applied.
					s.configSeq.Add(1)
					s.applySettings(sec)
					return nil
				}
			}
		}
	}
	s.goBackground(s.pullConfiguration)
	return nil
}

// pullConfiguration asks the client for the "wymcp" section, when it
// supports workspace/configuration, and applies it.
func (s *server) pullConfiguration(ctx context.Context) {
	s.mu.Lock()
	ok := s.caps.Workspace.Configuration
	s.mu.Unlock()
	if !ok {
		return
	}
	seq := s.configSeq.Add(1)
	var res []json.RawMessage
	params := map[string]any{"items": []map[string]any{{"section": ConfigSection}}}
	if err := s.call(ctx, "workspace/configuration", params, &res); err != nil {
		s.log.Warn("workspace/configuration failed", zap.Error(err))
		return
	}
	if s.configSeq.Load() != seq {
		// A newer request was sent meanwhile; its answer wins even if
		// this one arrived last.
		s.log.Debug("stale workspace/configuration answer ignored")
		return
	}
	raw := json.RawMessage("null")
	if len(res) > 0 {
		raw = res[0]
	}
	s.applySettings(raw)
}

// applySettings hands the lint switches of a "wymcp" section to the
// analysis and re-runs diagnostics. A null or malformed section is logged
// and leaves the switches as they were.
func (s *server) applySettings(raw json.RawMessage) {
	// A null or absent section means no settings: the switches go back to
	// the .wymcp-ls.yaml files and the defaults. Each switch is read on
	// its own, so one mistyped value does not discard the others.
	var st struct {
		Lints map[string]json.RawMessage `json:"lints"`
	}
	if !isNull(raw) {
		if err := json.Unmarshal(raw, &st); err != nil {
			s.log.Warn("ignoring malformed \"wymcp\" settings", zap.Error(fmt.Errorf("decode %s: %w", raw, err)))
			return
		}
	}
	sw, ok := s.an.(LintSwitcher)
	if !ok {
		return
	}
	disabled := make(map[string]bool, len(st.Lints))
	var bad []string
	for _, code := range slices.Sorted(maps.Keys(st.Lints)) {
		v := st.Lints[code]
		if msg := workspace.UnknownLint(code); msg != "" {
			// A .wymcp-ls.yaml shows this at its line; a setting has no
			// line, so the editor is told once (README.md "Lint switches").
			bad = append(bad, msg)
			continue
		}
		var on bool
		// JSON null decodes into a bool without error: it is no switch.
		if err := json.Unmarshal(v, &on); err != nil || isNull(v) {
			s.log.Warn("ignoring a \"wymcp.lints\" switch that is not true or false", zap.String("lint", code), zap.ByteString("value", v))
			bad = append(bad, fmt.Sprintf("the value of %s must be true or false, got %s", code, v))
			continue
		}
		disabled[code] = !on
	}
	s.warnSettings(bad)
	sw.SetLints(disabled)
	s.kickDiagnostics()
}

// warnSettings shows one window/showMessage warning for the mistakes of
// the "wymcp.lints" settings, each switch named and ignored, when they
// differ from the ones last shown: settings applied again unchanged (a
// folder change pulls them) do not repeat it.
func (s *server) warnSettings(bad []string) {
	msg := ""
	if len(bad) > 0 {
		msg = "wymcp-ls: ignoring editor settings wymcp.lints: " + strings.Join(bad, "; ")
	}
	s.mu.Lock()
	same := msg == s.settingsWarned
	s.settingsWarned = msg
	s.mu.Unlock()
	if same || msg == "" {
		return
	}
	s.log.Warn("bad editor settings", zap.String("message", msg))
	s.goBackground(func(ctx context.Context) { s.showMessage(ctx, messageTypeWarning, msg) })
}
