package lsp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
)

// blocking returns a Custom handler that signals entered, then waits for
// release or cancellation.
func blocking(entered chan<- struct{}, release <-chan struct{}) lsp.Handler {
	return func(ctx context.Context, _ json.RawMessage) (any, error) {
		entered <- struct{}{}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-release:
			return "released", nil
		}
	}
}

func TestCancelRequest(t *testing.T) {
	tests := []struct {
		name, id, cancel, want string
	}{
		{"numeric id", `7`, `{"id":7}`,
			`{"jsonrpc":"2.0","error":{"code":-32800,"message":"request cancelled"},"id":7}`},
		{"numeric id written as float", `8`, `{"id":8.0}`,
			`{"jsonrpc":"2.0","error":{"code":-32800,"message":"request cancelled"},"id":8}`},
		{"string id", `"req-1"`, `{"id":"req-1"}`,
			`{"jsonrpc":"2.0","error":{"code":-32800,"message":"request cancelled"},"id":"req-1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entered, release := make(chan struct{}, 1), make(chan struct{})
			defer close(release)
			c, _ := started(t, lsp.Options{Custom: map[string]lsp.Handler{"test/block": blocking(entered, release)}})
			ch, err := c.Send(json.RawMessage(tt.id), "test/block", nil)
			if err != nil {
				t.Fatal(err)
			}
			<-entered
			if err := c.Notify("$/cancelRequest", json.RawMessage(tt.cancel)); err != nil {
				t.Fatal(err)
			}
			select {
			case m := <-ch:
				if string(m.Raw) != tt.want {
					t.Errorf("got %s\nwant %s", m.Raw, tt.want)
				}
			case <-testCtx(t).Done():
				t.Fatal("no reply to the cancelled request")
			}
		})
	}
}

func TestCancelQueuedRequest(t *testing.T) {
	// A request cancelled while it waits behind another one is answered
	// -32800 when its turn comes; the one in front is unaffected.
	entered, release := make(chan struct{}, 1), make(chan struct{})
	c, _ := started(t, lsp.Options{Custom: map[string]lsp.Handler{"test/block": blocking(entered, release)}})
	first, err := c.Send(json.RawMessage(`1`), "test/block", nil)
	if err != nil {
		t.Fatal(err)
	}
	<-entered
	second, err := c.Send(json.RawMessage(`2`), "textDocument/signatureHelp", hoverParams)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("$/cancelRequest", map[string]any{"id": 2}); err != nil {
		t.Fatal(err)
	}
	// A cancel for an unknown id, or a malformed one, is harmless.
	_ = c.Notify("$/cancelRequest", map[string]any{"id": 99})
	_ = c.Notify("$/cancelRequest", map[string]any{"id": true})
	close(release)
	m1, m2 := <-first, <-second
	if want := `{"jsonrpc":"2.0","result":"released","id":1}`; string(m1.Raw) != want {
		t.Errorf("first: got %s, want %s", m1.Raw, want)
	}
	if want := `{"jsonrpc":"2.0","error":{"code":-32800,"message":"cancelled JSON-RPC"},"id":2}`; string(m2.Raw) != want {
		t.Errorf("second: got %s, want %s", m2.Raw, want)
	}
}

func TestPanicRecovered(t *testing.T) {
	c, _ := started(t, lsp.Options{Custom: map[string]lsp.Handler{
		"test/panic": func(context.Context, json.RawMessage) (any, error) { panic("boom") },
		"test/ok":    func(context.Context, json.RawMessage) (any, error) { return []int{}, nil },
	}})
	wantRaw(t, c, "1", "test/panic", nil,
		`{"jsonrpc":"2.0","error":{"code":-32603,"message":"internal error serving test/panic"},"id":1}`)
	// A panicking notification gets no reply and breaks nothing.
	if err := c.Notify("test/panic", nil); err != nil {
		t.Fatal(err)
	}
	wantRaw(t, c, "2", "test/ok", nil, `{"jsonrpc":"2.0","result":[],"id":2}`)
	wantRaw(t, c, "3", "test/panic", nil,
		`{"jsonrpc":"2.0","error":{"code":-32603,"message":"internal error serving test/panic"},"id":3}`)
}

func TestCustomHandlerErrors(t *testing.T) {
	c, _ := started(t, lsp.Options{Custom: map[string]lsp.Handler{
		"test/plain": func(context.Context, json.RawMessage) (any, error) { return nil, errFake("disk on fire") },
	}})
	wantRaw(t, c, "1", "test/plain", nil,
		`{"jsonrpc":"2.0","error":{"code":-32803,"message":"disk on fire"},"id":1}`)
}

type errFake string

func (e errFake) Error() string { return string(e) }

func TestProtocolAbuse(t *testing.T) {
	c, _ := started(t, lsp.Options{MaxMessageSize: 1 << 10})
	ctx := testCtx(t)

	// A body that is not JSON: ParseError with id null, and the stream goes on.
	if err := c.WriteFrame([]byte(`{"jsonrpc":"2.0","id":1,"method":`)); err != nil {
		t.Fatal(err)
	}
	// A request whose id does not fit jsonrpc2's int32: InvalidRequest, id echoed.
	if err := c.WriteFrame([]byte(`{"jsonrpc":"2.0","id":99999999999,"method":"textDocument/hover"}`)); err != nil {
		t.Fatal(err)
	}
	// A message over MaxMessageSize is skipped and answered.
	if err := c.WriteFrame([]byte(`{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("a", 2000) + `"}`)); err != nil {
		t.Fatal(err)
	}
	// A batch (JSON array) is not a request object.
	if err := c.WriteFrame([]byte(`[1,2]`)); err != nil {
		t.Fatal(err)
	}
	// A response to nothing, with id null, is only logged.
	if err := c.WriteFrame([]byte(`{"jsonrpc":"2.0","id":null,"result":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"message body is not valid JSON"}}`,
		`{"jsonrpc":"2.0","id":99999999999,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\" and \"id\" a 32-bit integer or a string"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message of 2042 bytes exceeds the 1024-byte limit"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message is not a JSON-RPC request object"}}`,
	}
	got := c.Orphans()
	if len(got) != len(want) {
		var raws []string
		for _, m := range got {
			raws = append(raws, string(m.Raw))
		}
		t.Fatalf("got %d orphan replies, want %d:\n%s", len(got), len(want), strings.Join(raws, "\n"))
	}
	for i := range want {
		if string(got[i].Raw) != want[i] {
			t.Errorf("reply %d:\n got %s\nwant %s", i, got[i].Raw, want[i])
		}
	}

	// Wrong parameter types on a known request: InvalidParams.
	m, err := c.Call(ctx, "textDocument/hover", map[string]any{"textDocument": 5, "position": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Error == nil || m.Error.Code != -32602 || !strings.HasPrefix(m.Error.Message, "invalid params: ") {
		t.Errorf("wrong param types: got %s, want -32602 invalid params", m.Raw)
	}
	// Wrong parameter types on notifications are logged, not fatal.
	_ = c.Notify("textDocument/didOpen", map[string]any{"textDocument": "x"})
	_ = c.Notify("textDocument/didChange", map[string]any{"contentChanges": "x"})
	_ = c.Notify("textDocument/didChange", nil)
	_ = c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": 3})

	// A string request id is answered with that string.
	wantRaw(t, c, `"abc"`, "wymcp/none", nil,
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: wymcp/none"},"id":"abc"}`)
	// Stray blank lines and extra headers between messages are tolerated.
	if err := c.WriteRaw([]byte("\r\n\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n")); err != nil {
		t.Fatal(err)
	}
	wantRaw(t, c, "9", "shutdown", nil, `{"jsonrpc":"2.0","result":null,"id":9}`)
	if err := c.Exit(); err != nil {
		t.Fatal(err)
	}
	if code, err := c.Wait(ctx); err != nil || code != 0 {
		t.Errorf("exit: code %d, err %v", code, err)
	}
}

func TestServerRequestsHaveTimeouts(t *testing.T) {
	// A client that never answers window/workDoneProgress/create does not
	// stall indexing beyond the call timeout.
	fake := lsptest.NewFake()
	c, _ := start(t, lsp.Options{Analyzer: fake, CallTimeout: 50 * 1e6})
	block := make(chan struct{})
	defer close(block)
	c.OnRequest(func(string, json.RawMessage) (any, *lsptest.ResponseError) {
		<-block
		return nil, nil
	})
	ctx := testCtx(t)
	if _, err := c.Initialize(ctx, map[string]any{
		"rootUri":      "file:///p",
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	}); err != nil {
		t.Fatal(err)
	}
	err := c.WaitFor(ctx, "AddFolder", func() bool {
		for _, call := range fake.Calls() {
			if call == "AddFolder /p" {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Notifications("$/progress")); n != 0 {
		t.Errorf("progress sent without a created token: %d notifications", n)
	}
}
