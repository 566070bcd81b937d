// Package lsptest runs the wymcp-ls language server in process, over
// net.Pipe, and drives it as an LSP client would: raw framed messages or
// typed helpers, every server notification recorded, publishDiagnostics
// kept per URI, server-to-client requests answered. It is meant for the
// lsp package's tests, end-to-end tests with the real workspace, and
// benchmarks.
package lsptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wymcp/wymcp-ls/lsp"
)

// Message is one JSON-RPC message received from the server. Raw is the
// exact body as it arrived.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ResponseError  `json:"error,omitempty"`
	Raw    []byte          `json:"-"`
}

// ResponseError is a JSON-RPC error object; it implements error.
type ResponseError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error: "code: message".
func (e *ResponseError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// RequestHandler answers a server-to-client request. The default handler
// answers every request with a null result.
type RequestHandler func(method string, params json.RawMessage) (result any, err *ResponseError)

// Client is the client end of an in-process server. Its methods are safe
// for concurrent use.
type Client struct {
	tb   testing.TB
	conn net.Conn
	wmu  sync.Mutex
	seq  atomic.Int64

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced whenever something arrives
	pending   map[string]chan *Message
	notes     []*Message
	requests  []*Message
	orphans   []*Message // responses matching no pending call (e.g. id null)
	publishes map[string][]lsp.PublishDiagnosticsParams
	onRequest RequestHandler
	readErr   error

	done chan struct{} // closed when Serve returns
	code int
}

// Start runs lsp.Serve with opts on one end of a net.Pipe and returns a
// client on the other end. The server is stopped (the pipe closed) when
// the test ends; a server that does not stop within 10 s fails the test.
func Start(tb testing.TB, opts lsp.Options) *Client {
	tb.Helper()
	srv, cli := net.Pipe()
	c := &Client{
		tb:        tb,
		conn:      cli,
		changed:   make(chan struct{}),
		pending:   make(map[string]chan *Message),
		publishes: make(map[string][]lsp.PublishDiagnosticsParams),
		done:      make(chan struct{}),
	}
	go func() {
		c.code = lsp.Serve(context.Background(), srv, opts)
		close(c.done)
	}()
	go c.readLoop()
	tb.Cleanup(func() {
		_ = c.conn.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			tb.Errorf("lsptest: server did not stop within 10s of closing the pipe")
		}
	})
	return c
}

// OnRequest replaces the handler of server-to-client requests.
func (c *Client) OnRequest(h RequestHandler) {
	c.mu.Lock()
	c.onRequest = h
	c.mu.Unlock()
}

// Wait waits until Serve returns and gives its exit code.
func (c *Client) Wait(ctx context.Context) (int, error) {
	select {
	case <-c.done:
		return c.code, nil
	case <-ctx.Done():
		return 0, fmt.Errorf("waiting for the server to exit: %w", ctx.Err())
	}
}

// Exited reports whether Serve has returned.
func (c *Client) Exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// ClosePipe closes the client end, as a dying editor would.
func (c *Client) ClosePipe() error { return c.conn.Close() }

// WriteRaw writes b to the server as is, without framing.
func (c *Client) WriteRaw(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.conn.Write(b)
	return err
}

// WriteFrame writes body with a correct Content-Length header.
func (c *Client) WriteFrame(body []byte) error {
	frame := make([]byte, 0, len(body)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(body)), 10)
	frame = append(frame, "\r\n\r\n"...)
	return c.WriteRaw(append(frame, body...))
}

// Notify sends a notification. params may be any value, including
// json.RawMessage for exact bytes; nil omits the params member.
func (c *Client) Notify(method string, params any) error {
	body, err := encode(nil, method, params)
	if err != nil {
		return err
	}
	return c.WriteFrame(body)
}

// Call sends a request with a fresh numeric id and waits for its response.
func (c *Client) Call(ctx context.Context, method string, params any) (*Message, error) {
	return c.CallID(ctx, json.RawMessage(strconv.FormatInt(c.seq.Add(1), 10)), method, params)
}

// CallID sends a request with the given raw id (a JSON number or string)
// and waits for the response carrying the same id.
func (c *Client) CallID(ctx context.Context, id json.RawMessage, method string, params any) (*Message, error) {
	ch, err := c.Send(id, method, params)
	if err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		return m, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the %s response (id %s): %w", method, id, ctx.Err())
	}
}

// Send sends a request without waiting; the channel yields its response.
func (c *Client) Send(id json.RawMessage, method string, params any) (<-chan *Message, error) {
	body, err := encode(id, method, params)
	if err != nil {
		return nil, err
	}
	ch := make(chan *Message, 1)
	key := idKey(id)
	c.mu.Lock()
	c.pending[key] = ch
	c.mu.Unlock()
	if err := c.WriteFrame(body); err != nil {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	return ch, nil
}

// Request calls method and decodes the result into result (if not nil).
// An error response is returned as *ResponseError.
func (c *Client) Request(ctx context.Context, method string, params, result any) error {
	m, err := c.Call(ctx, method, params)
	if err != nil {
		return err
	}
	if m.Error != nil {
		return m.Error
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("decoding the %s result %s: %w", method, m.Result, err)
		}
	}
	return nil
}

func encode(id json.RawMessage, method string, params any) ([]byte, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		msg["id"] = id
	}
	if params != nil {
		msg["params"] = params
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", method, err)
	}
	return b, nil
}

func idKey(id json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, id); err != nil {
		return string(id)
	}
	return buf.String()
}

// readLoop reads framed messages from the server until the pipe closes.
func (c *Client) readLoop() {
	r := bufio.NewReader(c.conn)
	for {
		body, err := ReadFrame(r)
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.broadcastLocked()
			c.mu.Unlock()
			return
		}
		m := &Message{Raw: body}
		if err := json.Unmarshal(body, m); err != nil {
			c.tb.Errorf("lsptest: server sent a body that is not a JSON-RPC message: %v: %s", err, body)
			continue
		}
		c.receive(m)
	}
}

func (c *Client) receive(m *Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.broadcastLocked()
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method != "" && hasID:
		c.requests = append(c.requests, m)
		h := c.onRequest
		go c.answer(m, h)
	case m.Method != "":
		c.notes = append(c.notes, m)
		if m.Method == "textDocument/publishDiagnostics" {
			var p lsp.PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.tb.Errorf("lsptest: bad publishDiagnostics params: %v: %s", err, m.Params)
				return
			}
			c.publishes[p.URI] = append(c.publishes[p.URI], p)
		}
	default:
		if ch, ok := c.pending[idKey(m.ID)]; ok && hasID {
			delete(c.pending, idKey(m.ID))
			ch <- m
			return
		}
		c.orphans = append(c.orphans, m)
	}
}

func (c *Client) answer(m *Message, h RequestHandler) {
	var result any
	var rerr *ResponseError
	if h != nil {
		result, rerr = h(m.Method, m.Params)
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rerr != nil {
		resp["error"] = rerr
	} else {
		resp["result"] = result
	}
	b, err := json.Marshal(resp)
	if err == nil {
		_ = c.WriteFrame(b)
	}
}

func (c *Client) broadcastLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// WaitFor waits until cond holds. cond is evaluated after every received
// message and every 10 ms (for state outside the client, such as a Fake's
// calls); it may call Client methods.
func (c *Client) WaitFor(ctx context.Context, what string, cond func() bool) error {
	for {
		c.mu.Lock()
		ch, rerr := c.changed, c.readErr
		c.mu.Unlock()
		if cond() {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("waiting for %s: connection closed: %w", what, rerr)
		}
		select {
		case <-ch:
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// WaitPublish waits for a publishDiagnostics for uri whose version is
// version (nil waits for a publish without a version) and returns the
// latest such publish.
func (c *Client) WaitPublish(ctx context.Context, uri string, version *int32) (lsp.PublishDiagnosticsParams, error) {
	var found lsp.PublishDiagnosticsParams
	err := c.WaitFor(ctx, fmt.Sprintf("publishDiagnostics %s version %s", uri, fmtVersion(version)), func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		ps := c.publishes[uri]
		for i := len(ps) - 1; i >= 0; i-- { // newest first: cheap in long benchmarks
			p := ps[i]
			if (p.Version == nil && version == nil) || (p.Version != nil && version != nil && *p.Version == *version) {
				found = p
				return true
			}
		}
		return false
	})
	return found, err
}

// WaitVersion is WaitPublish for an open buffer's version.
func (c *Client) WaitVersion(ctx context.Context, uri string, version int32) (lsp.PublishDiagnosticsParams, error) {
	return c.WaitPublish(ctx, uri, &version)
}

func fmtVersion(v *int32) string {
	if v == nil {
		return "none"
	}
	return strconv.Itoa(int(*v))
}

// Publishes returns every publishDiagnostics received for uri, in order.
func (c *Client) Publishes(uri string) []lsp.PublishDiagnosticsParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]lsp.PublishDiagnosticsParams(nil), c.publishes[uri]...)
}

// Notifications returns the notifications received with method ("" for all).
func (c *Client) Notifications(method string) []*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return filter(c.notes, method)
}

// ServerRequests returns the server-to-client requests received with
// method ("" for all).
func (c *Client) ServerRequests(method string) []*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return filter(c.requests, method)
}

// Orphans returns responses that matched no pending call, such as error
// responses with id null to undecodable messages.
func (c *Client) Orphans() []*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Message(nil), c.orphans...)
}

func filter(ms []*Message, method string) []*Message {
	var out []*Message
	for _, m := range ms {
		if method == "" || m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// Initialize sends initialize with params (nil means a minimal object with
// no capabilities and no folders), then initialized, and returns the
// initialize result.
func (c *Client) Initialize(ctx context.Context, params any) (json.RawMessage, error) {
	if params == nil {
		params = map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}
	}
	m, err := c.Call(ctx, "initialize", params)
	if err != nil {
		return nil, err
	}
	if m.Error != nil {
		return nil, m.Error
	}
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		return nil, err
	}
	return m.Result, nil
}

// BarrierMethod is the method Barrier calls; no server implements it.
const BarrierMethod = "lsptest/barrier"

// Barrier returns once the server has handled every message sent before
// it: the server handles messages in order, so the reply to a request
// (here MethodNotFound for BarrierMethod) comes after them.
func (c *Client) Barrier(ctx context.Context) error {
	m, err := c.Call(ctx, BarrierMethod, nil)
	if err != nil {
		return err
	}
	if m.Error == nil || m.Error.Code != -32601 {
		return fmt.Errorf("barrier: unexpected reply %s", m.Raw)
	}
	return nil
}

// Shutdown sends shutdown and checks it succeeded.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.Request(ctx, "shutdown", nil, nil)
}

// Exit sends exit.
func (c *Client) Exit() error { return c.Notify("exit", nil) }

// Change is one content change of Change: a nil Range replaces the text.
type Change struct {
	Range *lsp.Range `json:"range,omitempty"`
	Text  string     `json:"text"`
}

// Edit returns a ranged change replacing [sl:sc, el:ec) (0-based lines,
// characters in the negotiated position encoding: UTF-16 units unless the
// client offered utf-8) with text.
func Edit(sl, sc, el, ec int, text string) Change {
	return Change{Range: &lsp.Range{
		Start: lsp.Position{Line: sl, Character: sc},
		End:   lsp.Position{Line: el, Character: ec},
	}, Text: text}
}

// Full returns a range-less change replacing the whole text.
func Full(text string) Change { return Change{Text: text} }

// Open sends textDocument/didOpen for an Elixir document.
func (c *Client) Open(uri string, version int32, text string) error {
	return c.Notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "elixir", "version": version, "text": text},
	})
}

// ChangeText sends textDocument/didChange with changes applied in order.
func (c *Client) ChangeText(uri string, version int32, changes ...Change) error {
	if changes == nil {
		changes = []Change{}
	}
	return c.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": changes,
	})
}

// CloseDoc sends textDocument/didClose.
func (c *Client) CloseDoc(uri string) error {
	return c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// ReadFrame reads one Content-Length framed body (LSP 3.17 "Base
// Protocol") from r; it fails on a header block without Content-Length.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				return nil, errors.New("lsptest: frame without Content-Length")
			}
			break
		}
		if name, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(name, "Content-Length") {
			length, err = strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("lsptest: bad Content-Length %q", v)
			}
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}
