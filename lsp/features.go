package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/workspace"
)

// SnapshotSource is implemented by an Analyzer that can give a fresh view
// of one document for editor features (*workspace.Workspace does).
type SnapshotSource interface {
	Snapshot(ctx context.Context, uri string) (*workspace.Snapshot, error)
}

// setCapability adds one feature capability (LSP 3.17 "ServerCapabilities",
// e.g. "hoverProvider": true) to the initialize result.
func (c *serverCapabilities) setCapability(name string, value any) {
	if c.Features == nil {
		c.Features = map[string]any{}
	}
	c.Features[name] = value
}

// MarshalJSON writes the library's capabilities with the 3.17 fields and
// the feature capabilities merged in.
func (c serverCapabilities) MarshalJSON() ([]byte, error) {
	base, err := json.Marshal(c.ServerCapabilities)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(base, &m); err != nil {
		return nil, err
	}
	if c.PositionEncoding != "" {
		m["positionEncoding"] = c.PositionEncoding
	}
	for k, v := range c.Features {
		m[k] = v
	}
	return json.Marshal(m)
}

// snapshot returns a fresh view of uri, or a RequestFailed error when the
// analysis cannot give one (the document is unknown).
func (s *server) snapshot(ctx context.Context, uri string) (*workspace.Snapshot, error) {
	src, ok := s.an.(SnapshotSource)
	if !ok {
		return nil, jsonrpc2.NewError(CodeRequestFailed, "the analysis offers no document snapshots")
	}
	snap, err := src.Snapshot(ctx, uri)
	if err != nil {
		return nil, jsonrpc2.NewError(CodeRequestFailed, err.Error())
	}
	return snap, nil
}

// decodeParams decodes raw request params into v, answering InvalidParams
// (-32602) for null or mistyped params.
func decodeParams(raw json.RawMessage, v any) error {
	if isNull(raw) {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: params must be an object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("invalid params: %v", err))
	}
	return nil
}

// toRange converts a byte span to an LSP range in the negotiated position
// encoding (s.encoding: UTF-16 code units, or bytes for utf-8).
func (s *server) toRange(m *positions.Mapper, sp positions.Span) Range {
	return rangeFrom(m.RangeIn(s.encoding(), sp))
}

// toOffset converts an LSP position in the negotiated position encoding to
// a byte offset, clamping as positions.Mapper.OffsetIn does.
func (s *server) toOffset(m *positions.Mapper, p Position) int {
	return m.OffsetIn(s.encoding(), p.Line, p.Character)
}
