package lsp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/workspace"
)

// stream is a fixed input and a recorded output, as stdin/stdout would be.
// When wait is set, the input stays open after its bytes until the output
// contains wait (or two seconds pass), as a client waiting for an answer.
type stream struct {
	in     io.Reader
	wait   []byte
	mu     sync.Mutex
	out    bytes.Buffer
	seen   chan struct{}
	closed bool
}

func (s *stream) Read(p []byte) (int, error) {
	n, err := s.in.Read(p)
	if err == io.EOF && s.wait != nil {
		select {
		case <-s.seen:
		case <-time.After(2 * time.Second):
		}
		return 0, io.EOF
	}
	return n, err
}

func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.out.Write(p)
	if s.wait != nil && !s.closed && containsAll(s.out.Bytes(), s.wait) {
		s.closed = true
		close(s.seen)
	}
	return n, err
}
func (s *stream) Close() error { return nil }

// containsAll reports whether b contains every part of want separated by "|".
func containsAll(b, want []byte) bool {
	for _, w := range bytes.Split(want, []byte("|")) {
		if !bytes.Contains(b, w) {
			return false
		}
	}
	return true
}

// serveBytes runs the real server over input until the stream ends and
// returns what it wrote; it fails the test if the server does not return.
func serveBytes(t *testing.T, input []byte, wait string) []byte {
	t.Helper()
	ws := workspace.New(workspace.Options{Logger: zap.NewNop()})
	defer ws.Close()
	st := &stream{in: bytes.NewReader(input), seen: make(chan struct{})}
	if wait != "" {
		st.wait = []byte(wait)
	}
	done := make(chan int, 1)
	go func() {
		done <- lsp.Serve(context.Background(), st, lsp.Options{Analyzer: ws, Logger: zap.NewNop(), CallTimeout: 200 * time.Millisecond})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("server did not return after its input ended; input %q", input)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]byte(nil), st.out.Bytes()...)
}

// checkFrames asserts that out is a sequence of well-formed Content-Length
// frames, each a JSON-RPC 2.0 object.
func checkFrames(t *testing.T, out []byte) {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			return
		}
		if !strings.HasPrefix(line, "Content-Length: ") {
			t.Fatalf("output frame header %q", line)
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Content-Length: ")))
		if err != nil {
			t.Fatal(err)
		}
		for {
			h, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("truncated header: %v", err)
			}
			if h == "\r\n" {
				break
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("truncated body: %v", err)
		}
		var msg map[string]any
		if err := json.Unmarshal(body, &msg); err != nil || msg["jsonrpc"] != "2.0" {
			t.Fatalf("output body is not a JSON-RPC message: %s", body)
		}
	}
}

func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// FuzzServeBytes feeds random bytes to the server's stdin: it answers,
// ignores, or ends the connection on an unrecoverable stream, and never
// panics, hangs or writes a malformed frame (docs/architecture.md "Robustness").
func FuzzServeBytes(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)))
	f.Add([]byte("Content-Length: 5\r\n\r\nhello"))
	f.Add([]byte("Content-Length: -1\r\n\r\n"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n{}"))
	f.Add([]byte("garbage\r\n\r\n"))
	f.Add([]byte(frame(`[1,2]`) + frame(`{"jsonrpc":"2.0","id":"x","method":"shutdown"}`)))
	f.Fuzz(func(t *testing.T, input []byte) {
		checkFrames(t, serveBytes(t, input, ""))
	})
}

// FuzzServeJSON sends a valid initialize, then the fuzz input as one
// framed body, then a request that must still be answered when the body
// did not end the session (docs/architecture.md "Robustness": random JSON).
func FuzzServeJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, `[]`, `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a","version":1,"text":"defmodule A do"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"untitled:a"},"position":{"line":-1,"character":1e9}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:a","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":2}},"text":"🙂"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`, `{"jsonrpc":"1.0","id":1,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","id":4,"method":"workspace/symbol","params":{"query":"t.c"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/diagnostic","params":{"textDocument":{"uri":"untitled:a"},"previousResultId":"1"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"workspace/diagnostic","params":{"previousResultIds":[{"uri":"untitled:a","value":"x"}]}}`,
		`{"jsonrpc":"2.0","id":7,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"untitled:a"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[],"only":["source"]}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		input := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
			frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
			frame(body) +
			frame(`{"jsonrpc":"2.0","id":"probe","method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"untitled:zz"}}}`)
		out := serveBytes(t, []byte(input), `"id":1}|"id":"probe"`)
		checkFrames(t, out)
		if !bytes.Contains(out, []byte(`"id":1}`)) {
			t.Fatalf("initialize not answered: %s", out)
		}
		if !bytes.Contains(out, []byte(`"exit"`)) && !bytes.Contains([]byte(body), []byte(`exit`)) && !bytes.Contains(out, []byte(`"id":"probe"`)) {
			t.Fatalf("the request after the fuzzed body was not answered: %s", out)
		}
	})
}
