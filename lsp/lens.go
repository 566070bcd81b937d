package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/wymcp/wymcp-ls/listing"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// This file serves what the LLM sees of a tool (README.md, "What the LLM
// sees"): a code lens above `def actions` with the size of the tool's
// tools/list entry and of the help tool's answer for it, a command that
// returns both as JSON, and the same figures in the hover on name/0's
// string.

// The LSP 3.17 methods of the listing features.
const (
	methodCodeLens       = "textDocument/codeLens"
	methodExecuteCommand = "workspace/executeCommand"
)

// CommandShowListing is the workspace/executeCommand command of the code
// lens. Its arguments are the document URI (the exact string the client
// sent) and the tool's module name; its result is a ListingPreview.
const CommandShowListing = "wymcp.showListing"

// ListingPreview is the result of CommandShowListing: what the LLM is
// shown of one tool, as Wymcp writes it (key order kept).
type ListingPreview struct {
	// Tool is the module name; Figures the code lens line.
	Tool    string `json:"tool"`
	Figures string `json:"figures"`
	// ToolsListEntry is the tool's tools/list entry; Help the help tool's
	// answer for the tool (its tool level).
	ToolsListEntry json.RawMessage `json:"toolsListEntry"`
	Help           json.RawMessage `json:"help"`
}

// registerLensFeatures adds the code lens and executeCommand handlers.
func (s *server) registerLensFeatures() {
	s.features[methodCodeLens] = s.codeLens
	s.features[methodExecuteCommand] = s.executeCommand
}

// lensCapabilities announces codeLensProvider and executeCommandProvider
// (LSP 3.17 "ServerCapabilities").
func (s *server) lensCapabilities(c *serverCapabilities) {
	c.setCapability("codeLensProvider", map[string]any{"resolveProvider": false})
	c.setCapability("executeCommandProvider", map[string]any{"commands": []string{CommandShowListing}})
}

// codeLens is LSP 3.17 "CodeLens" with its command.
type codeLens struct {
	Range   Range   `json:"range"`
	Command command `json:"command"`
}

// command is LSP 3.17 "Command".
type command struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
}

// listingOf renders tool's entry and help answer with their figures,
// counted by Options.Tokens. It fails when no counter was given.
func (s *server) listingOf(lt workspace.ListedTool) (entry, help *listing.Answer, line string, err error) {
	entry, help = listing.Entry(lt.Tool), listing.HelpTool(lt.Tool)
	ef, err := listing.Measure(s.opts.Tokens, entry)
	if err != nil {
		return nil, nil, "", err
	}
	hf, err := listing.Measure(s.opts.Tokens, help)
	if err != nil {
		return nil, nil, "", err
	}
	return entry, help, listing.Lens(ef, hf), nil
}

// codeLens answers textDocument/codeLens: one lens above each `def
// actions` of a tool module written in the document ([] when none).
func (s *server) codeLens(ctx context.Context, raw json.RawMessage) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []codeLens{}
	for _, tv := range snap.Tools {
		if tv.Module.URI != snap.URI || tv.Result == nil || !tv.Result.Found {
			continue
		}
		lt := snap.Listed(tv)
		_, _, line, err := s.listingOf(lt)
		if err != nil {
			return nil, err
		}
		d := tv.Result.Def
		sp := d.Span
		sp.End = d.NameSpan.End
		out = append(out, codeLens{
			Range:   s.toRange(snap.Mapper, sp),
			Command: command{Title: line, Command: CommandShowListing, Arguments: []any{snap.URI, tv.Module.Name}},
		})
	}
	return out, nil
}

// executeCommand answers workspace/executeCommand for CommandShowListing
// with a ListingPreview; another command is InvalidParams.
func (s *server) executeCommand(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.Command != CommandShowListing {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("invalid params: unknown command %q", p.Command))
	}
	var uri, module string
	// A null argument decodes without error as "": it names nothing either.
	if len(p.Arguments) != 2 || json.Unmarshal(p.Arguments[0], &uri) != nil || json.Unmarshal(p.Arguments[1], &module) != nil || uri == "" || module == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+CommandShowListing+" takes a document URI and a module name")
	}
	snap, err := s.snapshot(ctx, uri)
	if err != nil {
		return nil, err
	}
	for _, tv := range snap.Tools {
		if tv.Module.Name != module {
			continue
		}
		entry, help, line, err := s.listingOf(snap.Listed(tv))
		if err != nil {
			return nil, err
		}
		return ListingPreview{Tool: module, Figures: line, ToolsListEntry: entry.Compact(), Help: help.Compact()}, nil
	}
	return nil, jsonrpc2.NewError(CodeRequestFailed, fmt.Sprintf("no tool module %s reads %s", module, uri))
}

// listingHover returns the hover markdown on the string name/0 returns,
// when off lies in it: the tool's name and the code lens figures.
func (s *server) listingHover(at *snapshotAt) (string, positions.Span, bool) {
	for _, tv := range at.snap.Tools {
		if tv.Module.URI != at.snap.URI {
			continue
		}
		lt := at.snap.Listed(tv)
		sp, ok := nameString(lt, at.snap.URI)
		if !ok || !sp.Contains(at.off) {
			continue
		}
		_, _, line, err := s.listingOf(lt)
		if err != nil {
			return "", positions.Span{}, false
		}
		return fmt.Sprintf("**tool `%s`** (%s): what the LLM is shown\n\n%s", lt.Tool.Name.Text, tv.Module.Name, line), sp, true
	}
	return "", positions.Span{}, false
}

// nameString returns the span of the string name/0 returns when it is
// written in document uri (also through an attribute).
func nameString(lt workspace.ListedTool, uri string) (positions.Span, bool) {
	n := lt.Tool.Name
	if n == nil || n.Kind != validate.String {
		return positions.Span{}, false
	}
	l, ok := positions.LocOf(n.Origin)
	if !ok || l.URI != uri || l.Span.Len() == 0 {
		return positions.Span{}, false
	}
	return l.Span, true
}
