package lsp

import (
	"encoding/json"
	"fmt"

	"github.com/wymcp/wymcp-ls/positions"
)

// This file holds the wire types this package owns instead of taking them
// from go.lsp.dev/protocol v0.12.0, because the library's versions marshal
// wrongly for us (docs/architecture.md "Protocol library workarounds"): PublishDiagnosticsParams.Version is a
// uint32 with omitempty (version 0 of an open buffer vanishes),
// TextDocumentContentChangeEvent.Range is not a pointer, WorkDoneProgressReport
// drops a 0 percentage, and LSP 3.17 fields (positionEncoding) are missing.

// Position is an LSP position (LSP 3.17 "Position"): 0-based line and
// 0-based character offset in the negotiated position encoding (UTF-16
// code units, or bytes when the client chose utf-8).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range (LSP 3.17 "Range"), end exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is an LSP location (LSP 3.17 "Location"). URI is the exact
// document URI string, never normalised.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Diagnostic is one LSP diagnostic (LSP 3.17 "Diagnostic").
// Severity is 1 (Error) to 4 (Hint).
type Diagnostic struct {
	Range              Range                `json:"range"`
	Severity           int                  `json:"severity"`
	Code               string               `json:"code,omitempty"`
	Source             string               `json:"source"`
	Message            string               `json:"message"`
	RelatedInformation []RelatedInformation `json:"relatedInformation,omitempty"`
}

// RelatedInformation is LSP 3.17 "DiagnosticRelatedInformation".
type RelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams is the textDocument/publishDiagnostics payload
// (LSP 3.17 "PublishDiagnosticsParams"). Version is nil for content read
// from disk, and set (even to 0) for an analysed open buffer. Diagnostics
// is never nil on the wire: publishers always send an array.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// rangeFrom converts a positions.Range to the wire form (same units).
func rangeFrom(r positions.Range) Range {
	return Range{
		Start: Position{Line: r.StartLine, Character: r.StartChar},
		End:   Position{Line: r.EndLine, Character: r.EndChar},
	}
}

// didChangeParams is textDocument/didChange decoded with a pointer range,
// so that a range-less full-text change is told apart from an insert at
// 0:0 (docs/architecture.md "Protocol library workarounds").
type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Range *Range `json:"range"`
		Text  string `json:"text"`
	} `json:"contentChanges"`
}

// initializeParams holds the parts of InitializeParams the server uses,
// decoded leniently: a capability the library would mistype cannot fail
// the handshake.
type initializeParams struct {
	RootURI          *string `json:"rootUri"`
	RootPath         *string `json:"rootPath"`
	WorkspaceFolders []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"workspaceFolders"`
	Capabilities json.RawMessage `json:"capabilities"`
	ClientInfo   *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

// clientCapabilities is the subset of ClientCapabilities the server reads.
type clientCapabilities struct {
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
	Workspace struct {
		Configuration         bool `json:"configuration"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		// Diagnostics is LSP 3.17 "DiagnosticWorkspaceClientCapabilities".
		Diagnostics struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"diagnostics"`
	} `json:"workspace"`
	TextDocument struct {
		// Diagnostic is LSP 3.17 "DiagnosticClientCapabilities": its mere
		// presence (a non-null object) announces pull diagnostics.
		Diagnostic json.RawMessage `json:"diagnostic"`
	} `json:"textDocument"`
	General struct {
		// PositionEncodings is LSP 3.17 general.positionEncodings, the
		// encodings the client offers in its order of preference; each
		// is read on its own, so an entry that is not a string is skipped.
		PositionEncodings []json.RawMessage `json:"positionEncodings"`
	} `json:"general"`

	// clientName is initialize's clientInfo.name ("" when absent), for the
	// one client quirk the server works around (pullCapabilities).
	clientName string
}

// decodeCapabilities reads the client's capabilities one top-level
// section (window, workspace, textDocument, general) at a time, so that a
// value of the wrong JSON type loses only its own section: a client that
// sends `"workDoneProgress": "yes"` keeps its pull diagnostics. It returns
// the capabilities read and one error per section that was not
// understood (raw not an object at all is one error, and no capabilities).
func decodeCapabilities(raw json.RawMessage) (clientCapabilities, []error) {
	var caps clientCapabilities
	var sections map[string]json.RawMessage
	if err := json.Unmarshal(raw, &sections); err != nil {
		return caps, []error{err}
	}
	var errs []error
	for _, name := range []string{"window", "workspace", "textDocument", "general"} {
		sec, ok := sections[name]
		if !ok {
			continue
		}
		// Each section decodes into a fresh value, kept only whole.
		var one clientCapabilities
		wrapped, _ := json.Marshal(map[string]json.RawMessage{name: sec})
		if err := json.Unmarshal(wrapped, &one); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		switch name {
		case "window":
			caps.Window = one.Window
		case "workspace":
			caps.Workspace = one.Workspace
		case "textDocument":
			caps.TextDocument = one.TextDocument
		case "general":
			caps.General = one.General
		}
	}
	return caps, errs
}

// pullDiagnostics reports whether the client announced pull diagnostics
// (LSP 3.17 textDocument.diagnostic capability).
func (c clientCapabilities) pullDiagnostics() bool {
	return len(c.TextDocument.Diagnostic) > 0 && !isNull(c.TextDocument.Diagnostic)
}

// encoding returns the position encoding to use with this client: UTF-8
// when the client offers "utf-8" in general.positionEncodings (one
// conversion less, and what Neovim and Helix prefer), else UTF-16, which
// every client supports (LSP 3.17 "PositionEncodingKind").
func (c clientCapabilities) encoding() positions.Encoding {
	for _, raw := range c.General.PositionEncodings {
		var k string
		if json.Unmarshal(raw, &k) == nil && k == "utf-8" {
			return positions.UTF8
		}
	}
	return positions.UTF16
}

// progressParams is a $/progress notification with a string token.
type progressParams struct {
	Token string `json:"token"`
	Value any    `json:"value"`
}

// progressBegin, progressReport and progressEnd are the three
// WorkDoneProgress values (LSP 3.17 "Work Done Progress").
type progressBegin struct {
	Kind       string `json:"kind"` // "begin"
	Title      string `json:"title"`
	Message    string `json:"message,omitempty"`
	Percentage *int   `json:"percentage,omitempty"`
}

type progressReport struct {
	Kind       string `json:"kind"` // "report"
	Message    string `json:"message,omitempty"`
	Percentage *int   `json:"percentage,omitempty"`
}

type progressEnd struct {
	Kind    string `json:"kind"` // "end"
	Message string `json:"message,omitempty"`
}

// LSP 3.17 pull diagnostics ("textDocument/diagnostic",
// "workspace/diagnostic"), which protocol v0.12.0 lacks.

// documentDiagnosticParams is LSP 3.17 "DocumentDiagnosticParams".
type documentDiagnosticParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Identifier       string `json:"identifier"`
	PreviousResultID string `json:"previousResultId"`
}

// documentReport is LSP 3.17 "RelatedFullDocumentDiagnosticReport" (Kind
// "full", Items set, never null) or "RelatedUnchangedDocumentDiagnosticReport"
// (Kind "unchanged", Items nil and omitted).
type documentReport struct {
	Kind     string        `json:"kind"`
	ResultID string        `json:"resultId"`
	Items    *[]Diagnostic `json:"items,omitempty"`
}

// workspaceDiagnosticParams is LSP 3.17 "WorkspaceDiagnosticParams".
type workspaceDiagnosticParams struct {
	Identifier        string `json:"identifier"`
	PreviousResultIDs []struct {
		URI   string `json:"uri"`
		Value string `json:"value"`
	} `json:"previousResultIds"`
}

// workspaceDiagnosticReport is LSP 3.17 "WorkspaceDiagnosticReport".
type workspaceDiagnosticReport struct {
	Items []workspaceDocumentReport `json:"items"`
}

// workspaceDocumentReport is LSP 3.17 "WorkspaceFullDocumentDiagnosticReport"
// or "WorkspaceUnchangedDocumentDiagnosticReport": a documentReport with
// the document's URI and version, always null here since the workspace
// report covers files on disk, not open buffers.
type workspaceDocumentReport struct {
	Kind     string        `json:"kind"`
	URI      string        `json:"uri"`
	Version  *int32        `json:"version"`
	ResultID string        `json:"resultId"`
	Items    *[]Diagnostic `json:"items,omitempty"`
}

// Report kinds of LSP 3.17 "DocumentDiagnosticReportKind".
const (
	reportFull      = "full"
	reportUnchanged = "unchanged"
)
