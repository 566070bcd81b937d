package lsp

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/wymcp/wymcp-ls/authoring"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

// The LSP 3.17 methods of the cursor features.
const (
	methodCompletion    = "textDocument/completion"
	methodHover         = "textDocument/hover"
	methodDefinition    = "textDocument/definition"
	methodReferences    = "textDocument/references"
	methodHighlight     = "textDocument/documentHighlight"
	methodPrepareRename = "textDocument/prepareRename"
	methodRename        = "textDocument/rename"
)

// completionTriggers are the completion trigger characters (README.md
// "Completion"); word characters trigger through the client's ordinary requests.
var completionTriggers = []string{":", `"`}

// registerCursorFeatures adds the cursor features' handlers (completion,
// hover, definition, references, document highlight, rename) to
// s.features.
func (s *server) registerCursorFeatures() {
	s.features[methodCompletion] = s.completion
	s.features[methodHover] = s.hover
	s.features[methodDefinition] = s.definition
	s.features[methodReferences] = s.references
	s.features[methodHighlight] = s.documentHighlight
	s.features[methodPrepareRename] = s.prepareRename
	s.features[methodRename] = s.rename
}

// cursorCapabilities announces the cursor features (LSP 3.17
// "ServerCapabilities": completionProvider, hoverProvider,
// definitionProvider, referencesProvider, documentHighlightProvider,
// renameProvider with prepareProvider).
func (s *server) cursorCapabilities(c *serverCapabilities) {
	c.setCapability("completionProvider", map[string]any{"triggerCharacters": completionTriggers, "resolveProvider": false})
	c.setCapability("hoverProvider", true)
	c.setCapability("definitionProvider", true)
	c.setCapability("referencesProvider", true)
	c.setCapability("documentHighlightProvider", true)
	c.setCapability("renameProvider", map[string]any{"prepareProvider": true})
}

// positionParams is LSP 3.17 "TextDocumentPositionParams", with the
// fields of the requests built on it.
type positionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Position Position `json:"position"`
	// Context is ReferenceParams.context.
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
	// NewName is RenameParams.newName.
	NewName *string `json:"newName"`
}

// markupContent is LSP 3.17 "MarkupContent".
type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// completionItem is LSP 3.17 "CompletionItem" with a textEdit.
type completionItem struct {
	Label            string         `json:"label"`
	Kind             int            `json:"kind,omitempty"`
	Detail           string         `json:"detail,omitempty"`
	Documentation    *markupContent `json:"documentation,omitempty"`
	SortText         string         `json:"sortText,omitempty"`
	FilterText       string         `json:"filterText,omitempty"`
	InsertTextFormat int            `json:"insertTextFormat"`
	TextEdit         textEdit       `json:"textEdit"`
}

// completionList is LSP 3.17 "CompletionList"; Items is never null.
type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []completionItem `json:"items"`
}

// hoverResult is LSP 3.17 "Hover".
type hoverResult struct {
	Contents markupContent `json:"contents"`
	Range    Range         `json:"range"`
}

// prepareRenameResult is LSP 3.17 "PrepareRenameResult" (range and
// placeholder form).
type prepareRenameResult struct {
	Range       Range  `json:"range"`
	Placeholder string `json:"placeholder"`
}

// cursorRequest decodes position params and takes the document's
// snapshot and the cursor's byte offset. A request cancelled before it
// runs fails with the context's error (answered -32800).
func (s *server) cursorRequest(ctx context.Context, raw json.RawMessage) (*positionParams, *snapshotAt, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err // cancelled while queued: RequestCancelled
	}
	var p positionParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, nil, err
	}
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, nil, err
	}
	return &p, &snapshotAt{s: s, snap: snap, off: s.toOffset(snap.Mapper, p.Position)}, nil
}

// completion answers textDocument/completion with authoring.Complete's
// items (a CompletionList, never null items).
func (s *server) completion(ctx context.Context, raw json.RawMessage) (any, error) {
	_, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	out := completionList{Items: []completionItem{}}
	for _, it := range authoring.Complete(ctx, at.snap, at.off) {
		ci := completionItem{
			Label: it.Label, Kind: int(it.Kind), Detail: it.Detail, SortText: it.SortText, FilterText: it.FilterText,
			InsertTextFormat: 1, TextEdit: textEdit{Range: s.toRange(at.snap.Mapper, it.Span), NewText: it.NewText},
		}
		if it.Snippet {
			ci.InsertTextFormat = 2
		}
		if it.Documentation != "" {
			ci.Documentation = &markupContent{Kind: "markdown", Value: it.Documentation}
		}
		out.Items = append(out.Items, ci)
	}
	return out, nil
}

// hover answers textDocument/hover with authoring.HoverAt's markdown, or
// null when there is nothing to show.
func (s *server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	_, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	h, ok := authoring.HoverAt(ctx, at.snap, at.off)
	if md, sp, lok := s.listingHover(at); lok { // name/0's string: add the listing figures (lens.go)
		if !ok {
			h.Span = sp
		} else {
			md = h.Markdown + "\n\n" + md
		}
		h.Markdown, ok = md, true
	}
	if !ok {
		return nil, nil
	}
	return hoverResult{Contents: markupContent{Kind: "markdown", Value: h.Markdown}, Range: s.toRange(at.snap.Mapper, h.Span)}, nil
}

// definition answers textDocument/definition with the declaration's
// locations ([] when there is none).
func (s *server) definition(ctx context.Context, raw json.RawMessage) (any, error) {
	_, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	return at.locations(authoring.Definition(ctx, at.snap, at.off)), nil
}

// references answers textDocument/references, honouring
// context.includeDeclaration ([] when the cursor names nothing).
func (s *server) references(ctx context.Context, raw json.RawMessage) (any, error) {
	p, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	return at.locations(authoring.References(ctx, at.snap, at.off, p.Context.IncludeDeclaration)), nil
}

// documentHighlight is LSP 3.17 "DocumentHighlight": kind 2 (Read) or 3
// (Write).
type documentHighlight struct {
	Range Range `json:"range"`
	Kind  int   `json:"kind"`
}

// documentHighlight answers textDocument/documentHighlight with the
// occurrences in the document of what the cursor names
// (authoring.Highlights): the declaration as a write, the uses as reads;
// [] when the cursor names nothing.
func (s *server) documentHighlight(ctx context.Context, raw json.RawMessage) (any, error) {
	_, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	out := []documentHighlight{}
	for _, h := range authoring.Highlights(ctx, at.snap, at.off) {
		kind := 2
		if h.Write {
			kind = 3
		}
		out = append(out, documentHighlight{Range: s.toRange(at.snap.Mapper, h.Span), Kind: kind})
	}
	return out, nil
}

// prepareRename answers textDocument/prepareRename with the property
// name's range and placeholder, or a RequestFailed error saying what can
// be renamed.
func (s *server) prepareRename(ctx context.Context, raw json.RawMessage) (any, error) {
	_, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	sp, name, err := authoring.PrepareRename(ctx, at.snap, at.off)
	if err != nil {
		return nil, renameError(err)
	}
	return prepareRenameResult{Range: s.toRange(at.snap.Mapper, sp), Placeholder: name}, nil
}

// rename answers textDocument/rename with one WorkspaceEdit (changes keyed
// by the exact document URI), or a RequestFailed error with the reason the
// rename is refused.
func (s *server) rename(ctx context.Context, raw json.RawMessage) (any, error) {
	p, at, err := s.cursorRequest(ctx, raw)
	if err != nil {
		return nil, err
	}
	if p.NewName == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: rename needs newName")
	}
	edits, err := authoring.Rename(ctx, at.snap, at.off, *p.NewName)
	if err != nil {
		return nil, renameError(err)
	}
	we := workspaceEdit{Changes: map[string][]textEdit{}}
	for _, e := range edits {
		m := at.snap.MapperOf(e.URI)
		we.Changes[e.URI] = append(we.Changes[e.URI], textEdit{Range: s.toRange(m, e.Span), NewText: e.NewText})
	}
	return we, nil
}

// renameError turns an authoring.RenameError into RequestFailed (-32803).
func renameError(err error) error {
	var re *authoring.RenameError
	if errors.As(err, &re) {
		return jsonrpc2.NewError(CodeRequestFailed, re.Reason)
	}
	return err
}

// snapshotAt is a snapshot with the cursor's byte offset, and the server
// whose position encoding converts its spans.
type snapshotAt struct {
	s    *server
	snap *workspace.Snapshot
	off  int
}

// locations converts byte locations to LSP locations (never null).
func (at *snapshotAt) locations(ls []positions.Loc) []Location {
	out := make([]Location, 0, len(ls))
	for _, l := range ls {
		out = append(out, Location{URI: l.URI, Range: at.s.toRange(at.snap.MapperOf(l.URI), l.Span)})
	}
	return out
}
