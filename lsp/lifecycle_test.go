package lsp_test

import (
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
)

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func start(t *testing.T, opts lsp.Options) (*lsptest.Client, *lsptest.Fake) {
	t.Helper()
	fake, _ := opts.Analyzer.(*lsptest.Fake)
	if opts.Analyzer == nil {
		fake = lsptest.NewFake()
		opts.Analyzer = fake
	}
	if opts.Logger == nil {
		opts.Logger = zaptest.NewLogger(t, zaptest.Level(zap.ErrorLevel))
	}
	return lsptest.Start(t, opts), fake
}

// started returns a client past initialize/initialized.
func started(t *testing.T, opts lsp.Options) (*lsptest.Client, *lsptest.Fake) {
	t.Helper()
	c, fake := start(t, opts)
	if _, err := c.Initialize(testCtx(t), nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c, fake
}

// wantRaw calls method with a raw id and compares the exact response body.
func wantRaw(t *testing.T, c *lsptest.Client, id, method string, params any, want string) {
	t.Helper()
	m, err := c.CallID(testCtx(t), json.RawMessage(id), method, params)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if string(m.Raw) != want {
		t.Errorf("%s reply:\n got %s\nwant %s", method, m.Raw, want)
	}
}

func wantCode(t *testing.T, c *lsptest.Client, method string, params any, code int) {
	t.Helper()
	m, err := c.Call(testCtx(t), method, params)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if m.Error == nil || m.Error.Code != code {
		t.Errorf("%s: got %s, want error code %d", method, m.Raw, code)
	}
}

var hoverParams = map[string]any{
	"textDocument": map[string]any{"uri": "file:///a.ex"},
	"position":     map[string]any{"line": 0, "character": 0},
}

func TestBeforeInitialize(t *testing.T) {
	c, fake := start(t, lsp.Options{})
	wantRaw(t, c, "1", "textDocument/hover", hoverParams,
		`{"jsonrpc":"2.0","error":{"code":-32002,"message":"server not initialized: send initialize first"},"id":1}`)
	wantCode(t, c, "shutdown", nil, -32002)
	wantCode(t, c, "wymcp/unknown", nil, -32002)
	// A notification before initialize is dropped.
	if err := c.Open("file:///a.ex", 1, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(testCtx(t), nil); err != nil {
		t.Fatalf("initialize after rejected requests: %v", err)
	}
	if err := c.Barrier(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if _, ok := fake.Overlay("file:///a.ex"); ok {
		t.Errorf("didOpen before initialize reached the analysis: %v", fake.Calls())
	}
}

func TestInitializeResult(t *testing.T) {
	c, _ := start(t, lsp.Options{Version: "1.2.3"})
	wantRaw(t, c, "1", "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}},
		`{"jsonrpc":"2.0","result":{"capabilities":{"codeActionProvider":{"codeActionKinds":["quickfix","source.fixAll.wymcp"]},"codeLensProvider":{"resolveProvider":false},"completionProvider":{"resolveProvider":false,"triggerCharacters":[":","\""]},"definitionProvider":true,"documentHighlightProvider":true,"documentSymbolProvider":true,"executeCommandProvider":{"commands":["wymcp.showListing"]},"hoverProvider":true,"positionEncoding":"utf-16","referencesProvider":true,"renameProvider":{"prepareProvider":true},"textDocumentSync":{"change":2,"openClose":true,"save":{}},"workspace":{"workspaceFolders":{"changeNotifications":true,"supported":true}}},"serverInfo":{"name":"wymcp-ls","version":"1.2.3"}},"id":1}`)
	// A second initialize is an invalid request.
	wantCode(t, c, "initialize", map[string]any{"capabilities": map[string]any{}}, -32600)
}

func TestInitializeBadParams(t *testing.T) {
	for _, params := range []any{json.RawMessage(`"x"`), json.RawMessage(`null`), json.RawMessage(`{"workspaceFolders":7}`)} {
		c, _ := start(t, lsp.Options{})
		wantCode(t, c, "initialize", params, -32602)
		// Still uninitialized: a later good initialize succeeds.
		if _, err := c.Initialize(testCtx(t), nil); err != nil {
			t.Errorf("initialize after bad params %s: %v", params, err)
		}
	}
}

func TestUnknownMethods(t *testing.T) {
	c, _ := started(t, lsp.Options{})
	tests := []struct{ method, want string }{
		{"wymcp/nope", `{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: wymcp/nope"},"id":5}`},
		// LSP 3.17 methods protocol v0.12.0 does not know.
		{"textDocument/diagnostic", `{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: textDocument/diagnostic"},"id":5}`},
		// A method the library decodes that this server does not offer.
		{"textDocument/signatureHelp", `{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: textDocument/signatureHelp"},"id":5}`},
	}
	for _, tt := range tests {
		wantRaw(t, c, "5", tt.method, hoverParams, tt.want)
	}
	// Absent params on an unknown request: still MethodNotFound, not a parse error.
	wantCode(t, c, "wymcp/noparams", nil, -32601)
	// So on a method the library decodes that this server does not offer:
	// its params are never read (they were, and null ones gave -32602
	// "invalid params: EOF").
	wantCode(t, c, "textDocument/signatureHelp", nil, -32601)
	wantCode(t, c, "textDocument/formatting", "x", -32601)
	// An unknown notification is ignored and the server keeps serving.
	if err := c.Notify("wymcp/whatever", map[string]any{"x": 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("$/setTrace", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if len(c.Orphans()) != 0 {
		t.Errorf("unexpected replies to notifications: %s", c.Orphans()[0].Raw)
	}
}

func TestShutdownThenExit(t *testing.T) {
	c, _ := started(t, lsp.Options{})
	ctx := testCtx(t)
	// shutdown with null params, as some clients send it.
	wantRaw(t, c, "2", "shutdown", json.RawMessage(`null`), `{"jsonrpc":"2.0","result":null,"id":2}`)
	wantRaw(t, c, "3", "textDocument/hover", hoverParams,
		`{"jsonrpc":"2.0","error":{"code":-32600,"message":"server is shut down: only exit is accepted"},"id":3}`)
	wantCode(t, c, "shutdown", nil, -32600)
	if err := c.Notify("exit", json.RawMessage(`null`)); err != nil {
		t.Fatal(err)
	}
	code, err := c.Wait(ctx)
	if err != nil || code != 0 {
		t.Errorf("exit after shutdown: code %d, err %v; want 0", code, err)
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		run  func(*lsptest.Client) error
		want int
	}{
		{"exit without shutdown", func(c *lsptest.Client) error { return c.Exit() }, 1},
		{"exit before initialize", func(c *lsptest.Client) error { return c.Exit() }, 1},
		{"pipe closed", func(c *lsptest.Client) error { return c.ClosePipe() }, 1},
		{"pipe closed after shutdown", func(c *lsptest.Client) error {
			if err := c.Shutdown(context.Background()); err != nil {
				return err
			}
			return c.ClosePipe()
		}, 1},
		{"bad Content-Length", func(c *lsptest.Client) error {
			return c.WriteRaw([]byte("Content-Length: abc\r\n\r\n{}"))
		}, 1},
		{"header without colon", func(c *lsptest.Client) error {
			return c.WriteRaw([]byte("hello\r\n\r\n"))
		}, 1},
		{"missing Content-Length", func(c *lsptest.Client) error {
			return c.WriteRaw([]byte("Content-Type: x\r\n\r\n{}"))
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c *lsptest.Client
			if tt.name == "exit before initialize" {
				c, _ = start(t, lsp.Options{})
			} else {
				c, _ = started(t, lsp.Options{})
			}
			if err := tt.run(c); err != nil {
				t.Fatal(err)
			}
			code, err := c.Wait(testCtx(t))
			if err != nil || code != tt.want {
				t.Errorf("code %d, err %v; want %d", code, err, tt.want)
			}
		})
	}
}

func TestServeContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv, cli := netPipe()
	defer cli.Close()
	done := make(chan int)
	go func() { done <- lsp.Serve(ctx, srv, lsp.Options{Analyzer: lsptest.NewFake()}) }()
	cancel()
	select {
	case code := <-done:
		if code != 1 {
			t.Errorf("code %d, want 1", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
}

func TestInitializedNullParams(t *testing.T) {
	c, fake := start(t, lsp.Options{})
	ctx := testCtx(t)
	if err := c.Request(ctx, "initialize", map[string]any{"rootUri": "file:///work/proj", "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("initialized", json.RawMessage(`null`)); err != nil {
		t.Fatal(err)
	}
	err := c.WaitFor(ctx, "AddFolder", func() bool {
		for _, call := range fake.Calls() {
			if call == "AddFolder /work/proj" {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Errorf("%v; calls %v", err, fake.Calls())
	}
	// A second initialized does not index again.
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	if calls := fake.Calls(); len(calls) != 1 {
		t.Errorf("calls after a second initialized: %q", calls)
	}
}

func netPipe() (net.Conn, net.Conn) { return net.Pipe() }
