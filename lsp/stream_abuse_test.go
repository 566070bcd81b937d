package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
)

// TestDeeplyNestedMessage: a message whose JSON nests deeper than the
// server decodes is answered with InvalidRequest (id null), as a message
// over the size limit is, and the server keeps serving. jsonrpc2 decodes
// every message recursively with no depth bound: a 10 MB body of
// brackets, well under the size limit, overflowed the goroutine stack and
// killed the process (docs/architecture.md "Robustness": bad input never
// crashes the server). The stack limit is lowered so that, without the
// bound, the test fails within a small body.
func TestDeeplyNestedMessage(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20))
	c, _ := started(t, lsp.Options{})
	ctx := testCtx(t)
	const depth = 1_000_000
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"x":` + deep + `}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + deep + `}`,
		deep,
	} {
		if err := c.WriteFrame([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	// Deep but within the bound: decoded and answered as usual.
	ok := `{"jsonrpc":"2.0","id":6,"method":"wymcp/none","params":{"x":` + strings.Repeat("[", 9990) + strings.Repeat("]", 9990) + `}}`
	// Brackets inside a string (an open buffer's text) do not nest.
	str := `{"jsonrpc":"2.0","id":7,"method":"wymcp/none","params":{"text":"` + strings.Repeat(`[\"{`, 20000) + `"}}`
	for _, body := range []string{ok, str} {
		if err := c.WriteFrame([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	got := sortedReplies(ctx, t, c, 5)
	const refused = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message nested more than 10000 levels deep"}}`
	want := []string{
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: wymcp/none"},"id":6}`,
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: wymcp/none"},"id":7}`,
		refused, refused, refused}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replies:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantRaw(t, c, "9", "shutdown", nil, `{"jsonrpc":"2.0","result":null,"id":9}`)
}

// TestRequestIDsJSONRPCKeeps: every request is answered, with its id as
// sent. jsonrpc2 reads a message whose "method" is "" as a response (so
// the request was never answered) and an id "" as the number 0 (so the
// answer carried "id":0): both are answered here, with the id as sent.
func TestRequestIDsJSONRPCKeeps(t *testing.T) {
	c, _ := started(t, lsp.Options{})
	ctx := testCtx(t)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":9,"method":""}`,
		`{"jsonrpc":"2.0","id":"","method":"wymcp/none"}`,
		`{"jsonrpc":"2.0","id":0,"method":"wymcp/none"}`,
		`{"jsonrpc":"2.0","id":"0","method":"wymcp/none"}`,
		// A response to nothing is still only logged.
		`{"jsonrpc":"2.0","id":12345,"result":1}`,
	} {
		if err := c.WriteFrame([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	got := sortedReplies(ctx, t, c, 4)
	want := []string{
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: wymcp/none"},"id":"0"}`,
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: wymcp/none"},"id":0}`,
		`{"jsonrpc":"2.0","id":"","error":{"code":-32600,"message":"invalid request: an empty string id is not supported"}}`,
		`{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"method not found: "}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replies:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExitSentAsRequest: an exit sent with an id (a request, where LSP
// 3.17 defines a notification) is answered before the connection closes,
// and the exit code is that of exit: every request gets its answer. The
// connection was closed first, so the answer was lost.
func TestExitSentAsRequest(t *testing.T) {
	c, _ := started(t, lsp.Options{})
	ctx := testCtx(t)
	if err := c.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	ch, err := c.Send(json.RawMessage(`7`), "exit", nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-ch:
		if want := `{"jsonrpc":"2.0","result":null,"id":7}`; m == nil || string(m.Raw) != want {
			t.Errorf("exit reply %v, want %s", m, want)
		}
	case <-ctx.Done():
		t.Fatal("exit sent as a request was never answered")
	}
	if code, err := c.Wait(ctx); err != nil || code != 0 {
		t.Errorf("code %d, err %v; want 0", code, err)
	}
}

// TestInvalidRequestObjects: a JSON value that is neither a request nor a
// response (an object with no method, result or error, as JSON-RPC 2.0's
// own example {"foo": "boo"}, or null) is answered InvalidRequest with id
// null, as a number or an array already is; it was only logged. A
// response to nothing is still only logged.
func TestInvalidRequestObjects(t *testing.T) {
	c, _ := started(t, lsp.Options{})
	ctx := testCtx(t)
	for _, body := range []string{
		`{"foo":"boo"}`,
		`{}`,
		`null`,
		`{"jsonrpc":"2.0","result":1}`,
		`{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}`,
	} {
		if err := c.WriteFrame([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	const invalid = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message is not a JSON-RPC request object"}}`
	var got []string
	for _, m := range c.Orphans() {
		got = append(got, string(m.Raw))
	}
	if want := []string{invalid, invalid, invalid}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replies:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sortedReplies returns the raw replies to no request of c's (the
// requests a test wrote as frames), sorted, once n have come and one more
// round trip has passed, so that an extra reply would be among them.
// Replies may come in any order (JSON-RPC 2.0 §6; jsonrpc2's AsyncHandler
// lets the next request start as soon as a reply is begun, before it is
// written).
func sortedReplies(ctx context.Context, t *testing.T, c *lsptest.Client, n int) []string {
	t.Helper()
	if err := c.WaitFor(ctx, fmt.Sprintf("%d replies", n), func() bool { return len(c.Orphans()) >= n }); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range c.Orphans() {
		got = append(got, string(m.Raw))
	}
	sort.Strings(got)
	return got
}
