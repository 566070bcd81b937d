package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wymcp/wymcp-ls/authoring"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

// The LSP 3.17 methods of the edit features.
const (
	methodCodeAction     = "textDocument/codeAction"
	methodDocumentSymbol = "textDocument/documentSymbol"
)

// codeActionKindQuickFix is LSP 3.17 CodeActionKind.QuickFix;
// codeActionKindFixAll is this server's CodeActionKind.SourceFixAll
// ("source.fixAll") action, for editor.codeActionsOnSave (README.md,
// "Editors").
const (
	codeActionKindQuickFix = "quickfix"
	codeActionKindFixAll   = "source.fixAll.wymcp"
)

// registerEditFeatures adds the edit features' handlers (code actions,
// document symbols) to s.features.
func (s *server) registerEditFeatures() {
	s.features[methodCodeAction] = s.codeAction
	s.features[methodDocumentSymbol] = s.documentSymbol
}

// editCapabilities announces the edit features: quick-fix and fix-all code
// actions and hierarchical document symbols.
func (s *server) editCapabilities(c *serverCapabilities) {
	c.setCapability("codeActionProvider", map[string]any{"codeActionKinds": []string{codeActionKindQuickFix, codeActionKindFixAll}})
	c.setCapability("documentSymbolProvider", true)
}

// codeActionParams is LSP 3.17 "CodeActionParams". The context's
// diagnostics are kept raw, so that a fix can name the client's own
// diagnostic object unchanged.
type codeActionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Range   Range `json:"range"`
	Context struct {
		Diagnostics []json.RawMessage `json:"diagnostics"`
		Only        []string          `json:"only"`
	} `json:"context"`
}

// codeAction is LSP 3.17 "CodeAction" with a WorkspaceEdit of changes.
type codeAction struct {
	Title       string            `json:"title"`
	Kind        string            `json:"kind"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
	IsPreferred bool              `json:"isPreferred,omitempty"`
	Edit        workspaceEdit     `json:"edit"`
}

// workspaceEdit is LSP 3.17 "WorkspaceEdit" in its changes form, keyed
// by the exact document URI.
type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

// textEdit is LSP 3.17 "TextEdit".
type textEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// contextDiagnostic is the part of a client diagnostic used to match it
// with a fix: its range and code (a string or a number on the wire).
type contextDiagnostic struct {
	Range Range           `json:"range"`
	Code  json.RawMessage `json:"code"`
}

// codeAction answers textDocument/codeAction with the quick fixes of the
// fresh analysis touching the requested range (authoring.CodeActions).
// Each names the diagnostic it fixes: the client's own object from the
// request context when one has the same range and code, else the
// diagnostic as the server publishes it now. When the context's "only"
// list asks for source.fixAll.wymcp (or "source", "source.fixAll"), it
// also holds the fix-all action (fixAllAction). A context "only" list
// admitting neither kind gives []. An unknown document is a RequestFailed
// error.
func (s *server) codeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var p codeActionParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	out := []codeAction{}
	quick := len(p.Context.Only) == 0 || admits(p.Context.Only, codeActionKindQuickFix)
	fixAll := len(p.Context.Only) > 0 && admits(p.Context.Only, codeActionKindFixAll)
	if !quick && !fixAll {
		return out, nil
	}
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	given := make([]contextDiagnostic, len(p.Context.Diagnostics))
	for i, d := range p.Context.Diagnostics {
		_ = json.Unmarshal(d, &given[i]) // a malformed one matches nothing
	}
	if quick {
		span := positions.Span{Start: s.toOffset(snap.Mapper, p.Range.Start), End: s.toOffset(snap.Mapper, p.Range.End)}
		for _, fx := range authoring.CodeActions(ctx, snap, span) {
			diag, err := s.fixDiagnostic(snap, fx, given, p.Context.Diagnostics)
			if err != nil {
				return nil, err
			}
			a := codeAction{
				Title: fx.Title, Kind: codeActionKindQuickFix, Diagnostics: []json.RawMessage{diag},
				IsPreferred: fx.Preferred, Edit: workspaceEdit{Changes: map[string][]textEdit{}},
			}
			for _, e := range fx.Edits {
				m := snap.MapperOf(e.URI)
				a.Edit.Changes[e.URI] = append(a.Edit.Changes[e.URI], textEdit{Range: s.toRange(m, e.Span), NewText: e.NewText})
			}
			out = append(out, a)
		}
	}
	if fixAll {
		a, ok, err := s.fixAllAction(ctx, snap, given, p.Context.Diagnostics)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, a)
		}
	}
	return out, nil
}

// fixAllAction is the source.fixAll.wymcp action of the document: every
// preferred quick fix that applies together (authoring.FixAll, the
// function `check --fix` uses), with the same edits as those quick fixes,
// in one WorkspaceEdit on the document, naming the diagnostics it fixes.
// ok is false when the document has no such fix: the editor then has
// nothing to apply on save.
func (s *server) fixAllAction(ctx context.Context, snap *workspace.Snapshot, given []contextDiagnostic, raw []json.RawMessage) (codeAction, bool, error) {
	fixes, edits := authoring.FixAll(ctx, snap)
	if len(fixes) == 0 || len(edits) == 0 {
		return codeAction{}, false, nil
	}
	title := "Fix all wymcp problems (1 fix)"
	if len(fixes) > 1 {
		title = fmt.Sprintf("Fix all wymcp problems (%d fixes)", len(fixes))
	}
	a := codeAction{Title: title, Kind: codeActionKindFixAll, Diagnostics: []json.RawMessage{}, Edit: workspaceEdit{Changes: map[string][]textEdit{}}}
	for _, fx := range fixes {
		diag, err := s.fixDiagnostic(snap, fx, given, raw)
		if err != nil {
			return codeAction{}, false, err
		}
		a.Diagnostics = append(a.Diagnostics, diag)
	}
	for _, e := range edits {
		m := snap.MapperOf(e.URI)
		a.Edit.Changes[e.URI] = append(a.Edit.Changes[e.URI], textEdit{Range: s.toRange(m, e.Span), NewText: e.NewText})
	}
	return a, true, nil
}

// fixDiagnostic returns the diagnostic a fix removes: the client's own
// object from the request context (raw, decoded in given) when one has the
// fix's range and code, else the diagnostic as the server publishes it.
func (s *server) fixDiagnostic(snap *workspace.Snapshot, fx authoring.Fix, given []contextDiagnostic, raw []json.RawMessage) (json.RawMessage, error) {
	r := s.toRange(snap.Mapper, fx.Span)
	for i, d := range given {
		if d.Range == r && codeIs(d.Code, fx.Code) {
			return raw[i], nil
		}
	}
	return json.Marshal(Diagnostic{Range: r, Severity: int(fx.Severity), Code: fx.Code, Source: Source, Message: fx.Message})
}

// admits reports whether a CodeActionContext.only list admits actions of
// kind: an entry equal to it or one of its dot-separated prefixes
// ("source" admits "source.fixAll.wymcp"; LSP 3.17 "CodeActionKind").
func admits(only []string, kind string) bool {
	for _, k := range only {
		if k == "" || k == kind || strings.HasPrefix(kind, k+".") {
			return true
		}
	}
	return false
}

// codeIs reports whether a diagnostic code on the wire (a JSON string or
// number) is code.
func codeIs(raw json.RawMessage, code string) bool {
	var sv string
	if err := json.Unmarshal(raw, &sv); err == nil {
		return sv == code
	}
	return bytes.Equal(bytes.TrimSpace(raw), []byte(code))
}

// documentSymbolParams is LSP 3.17 "DocumentSymbolParams".
type documentSymbolParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
}

// documentSymbol is LSP 3.17 "DocumentSymbol" (hierarchical).
type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []documentSymbol `json:"children"`
}

// LSP 3.17 SymbolKind values used by the outline.
const (
	symbolKindModule   = 2
	symbolKindMethod   = 6
	symbolKindProperty = 7
)

// documentSymbol answers textDocument/documentSymbol with the outline of
// authoring.DocumentSymbols: tool module (Module) > action (Method) >
// property (Property). A document without a tool gives [].
func (s *server) documentSymbol(ctx context.Context, raw json.RawMessage) (any, error) {
	var p documentSymbolParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return s.convertSymbols(snap.Mapper, authoring.DocumentSymbols(ctx, snap)), nil
}

func (s *server) convertSymbols(m *positions.Mapper, syms []authoring.Symbol) []documentSymbol {
	out := make([]documentSymbol, 0, len(syms))
	for _, sy := range syms {
		kind := symbolKindProperty
		switch sy.Kind {
		case authoring.SymbolModule:
			kind = symbolKindModule
		case authoring.SymbolAction:
			kind = symbolKindMethod
		}
		out = append(out, documentSymbol{
			Name: sy.Name, Detail: sy.Detail, Kind: kind,
			Range: s.toRange(m, sy.Span), SelectionRange: s.toRange(m, sy.NameSpan),
			Children: s.convertSymbols(m, sy.Children),
		})
	}
	return out
}
