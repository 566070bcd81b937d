package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/wymcp/wymcp-ls/workspace"
)

func TestNormalizeError(t *testing.T) {
	tests := []struct {
		name string
		in   error
		code jsonrpc2.Code
		msg  string
	}{
		{"coded error kept", jsonrpc2.NewError(jsonrpc2.InvalidRequest, "x"), jsonrpc2.InvalidRequest, "x"},
		{"wrapped coded error keeps code and full message",
			fmt.Errorf("expected no params: %w", jsonrpc2.ErrInvalidParams), jsonrpc2.InvalidParams, "expected no params: JSON-RPC invalid params"},
		{"cancelled", fmt.Errorf("walk: %w", context.Canceled), protocol.CodeRequestCancelled, "request cancelled"},
		// protocol.ServerHandler's replyParseError wording (docs/architecture.md "Protocol library workarounds": sent with code 0).
		{"library params decode failure", fmt.Errorf("%s: %w", jsonrpc2.ErrParse, errors.New("bad type")), jsonrpc2.InvalidParams, "invalid params: bad type"},
		{"plain error", errors.New("boom"), CodeRequestFailed, "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var je *jsonrpc2.Error
			if !errors.As(normalizeError(tt.in), &je) {
				t.Fatalf("not a *jsonrpc2.Error: %v", normalizeError(tt.in))
			}
			if je.Code != tt.code || je.Message != tt.msg {
				t.Errorf("got %d %q, want %d %q", je.Code, je.Message, tt.code, tt.msg)
			}
		})
	}
	if normalizeError(nil) != nil {
		t.Error("nil error not kept nil")
	}
}

func TestCancelID(t *testing.T) {
	tests := []struct {
		params string
		want   jsonrpc2.ID
		ok     bool
	}{
		{`{"id":7}`, jsonrpc2.NewNumberID(7), true},
		{`{"id":7.0}`, jsonrpc2.NewNumberID(7), true},
		{`{"id":-2147483648}`, jsonrpc2.NewNumberID(-2147483648), true},
		{`{"id":"a"}`, jsonrpc2.NewStringID("a"), true},
		{`{"id":7.5}`, jsonrpc2.ID{}, false},
		{`{"id":4294967296}`, jsonrpc2.ID{}, false},
		{`{"id":null}`, jsonrpc2.ID{}, false},
		{`{}`, jsonrpc2.ID{}, false},
		{`[1]`, jsonrpc2.ID{}, false},
		{``, jsonrpc2.ID{}, false},
	}
	for _, tt := range tests {
		got, ok := cancelID(json.RawMessage(tt.params))
		if ok != tt.ok || got != tt.want {
			t.Errorf("cancelID(%s) = %v, %v; want %v, %v", tt.params, got, ok, tt.want, tt.ok)
		}
	}
}

// TestLibraryTraps pins the go.lsp.dev behaviours this package works
// around (docs/architecture.md "Protocol library workarounds"); if one starts failing the workaround may be
// removable.
func TestLibraryTraps(t *testing.T) {
	// CancelParams.ID decodes as float64, which protocol.CancelHandler
	// does not match.
	var cp protocol.CancelParams
	if err := json.Unmarshal([]byte(`{"id":7}`), &cp); err != nil {
		t.Fatal(err)
	}
	if _, isFloat := cp.ID.(float64); !isFloat {
		t.Errorf("CancelParams.ID decodes as %T; canceller may not be needed", cp.ID)
	}
	// A range-less change decodes as an insert at 0:0.
	var ch protocol.TextDocumentContentChangeEvent
	if err := json.Unmarshal([]byte(`{"text":"all"}`), &ch); err != nil {
		t.Fatal(err)
	}
	if ch.Range != (protocol.Range{}) {
		t.Errorf("range-less change decoded with range %v", ch.Range)
	}
	// PublishDiagnosticsParams drops version 0 and sends nil as null.
	b, _ := json.Marshal(protocol.PublishDiagnosticsParams{URI: "u"})
	if string(b) != `{"uri":"u","diagnostics":null}` {
		t.Errorf("library publish params marshal as %s", b)
	}
}

// TestSkipMessageSizes: the size and the limit as skipMessage words them,
// in bytes when both round to the same figure.
func TestSkipMessageSizes(t *testing.T) {
	const limit = 2 << 20
	for _, tc := range []struct {
		size int64
		want string
	}{
		{3250586, "wymcp-ls: /w/big.ex not analysed (3.1 MiB, over the 2 MiB limit)"},
		{limit + 1, "wymcp-ls: /w/big.ex not analysed (2097153 bytes, over the 2 MiB limit of 2097152 bytes)"},
		{limit + 40000, "wymcp-ls: /w/big.ex not analysed (2137152 bytes, over the 2 MiB limit of 2097152 bytes)"}, // 2.04 MiB
		{limit + 60000, "wymcp-ls: /w/big.ex not analysed (2.1 MiB, over the 2 MiB limit)"},
	} {
		if got := skipMessage(workspace.Skip{URI: "file:///w/big.ex", Path: "/w/big.ex", Size: tc.size, Limit: limit}, nil); got != tc.want {
			t.Errorf("size %d: %q, want %q", tc.size, got, tc.want)
		}
	}
}
