package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// rawPublish returns the exact body of the n-th publishDiagnostics for uri.
func rawPublish(t *testing.T, c *lsptest.Client, uri string, n int) string {
	t.Helper()
	var bodies []string
	for _, m := range c.Notifications("textDocument/publishDiagnostics") {
		var p struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.URI == uri {
			bodies = append(bodies, string(m.Raw))
		}
	}
	if n >= len(bodies) {
		t.Fatalf("publish %d for %s: only %d received", n, uri, len(bodies))
	}
	return bodies[n]
}

func TestEmptyPublishCarriesVersion(t *testing.T) {
	c, _ := started(t, lsp.Options{})
	ctx := testCtx(t)
	const uri = "untitled:Untitled-1"
	if err := c.Open(uri, 0, "defmodule A do\nend\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, uri, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.ChangeText(uri, 3, lsptest.Full("")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, uri, 3); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{
		`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"untitled:Untitled-1","version":0,"diagnostics":[]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"untitled:Untitled-1","version":3,"diagnostics":[]}}`,
	} {
		if got := rawPublish(t, c, uri, i); got != want {
			t.Errorf("publish %d:\n got %s\nwant %s", i, got, want)
		}
	}
	// Closing publishes for the (now disk-backed, here unknown) document
	// without a version.
	if err := c.CloseDoc(uri); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitPublish(ctx, uri, nil); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"untitled:Untitled-1","diagnostics":[]}}`
	if got := rawPublish(t, c, uri, 2); got != want {
		t.Errorf("publish after close:\n got %s\nwant %s", got, want)
	}
}

func TestDiagnosticConversion(t *testing.T) {
	const tool = "file:///w/lib/tool.ex"
	const schemas = "file:///w/lib/schemas.ex"
	toolText := "defmodule T do\n  # é🙂\n  @id %{typ: 1}\nend\n"
	schemasText := "defmodule S do\r\n  def all, do: %{a: 1}\r\nend\r\n"
	fake := lsptest.NewFake()
	fake.DiagnoseFunc = func(_ context.Context, changed []string) []workspace.Report {
		tm := positions.NewMapper([]byte(toolText))
		sm := positions.NewMapper([]byte(schemasText))
		typ := strings.Index(toolText, "typ")
		all := strings.Index(schemasText, "all")
		return []workspace.Report{
			{URI: tool, Version: 4, Overlay: true, Mapper: tm, Problems: []workspace.Problem{{
				Span: positions.Span{Start: typ, End: typ + 3}, Code: "unknown-key", Severity: validate.Error,
				Message: "actions :create, :update: unknown key :typ", Fix: "did you mean :type?",
				Related: []workspace.Related{{URI: schemas, Mapper: sm, Span: positions.Span{Start: all, End: all + 3}, Message: "read by Schemas.all()"}},
			}, {
				Span: positions.Span{Start: 17, End: 23}, Code: "lint/x", Severity: validate.Hint, Message: "a hint",
			}, {
				Span: positions.Span{Start: 0, End: 9}, Code: "syntax-error", Message: "no severity set",
			}}},
			{URI: schemas, Mapper: sm, Problems: nil},
		}
	}
	c, _ := started(t, lsp.Options{Analyzer: fake})
	ctx := testCtx(t)
	if err := c.Open(tool, 4, toolText); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitPublish(ctx, schemas, nil); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/lib/tool.ex","version":4,"diagnostics":[` +
		`{"range":{"start":{"line":2,"character":8},"end":{"line":2,"character":11}},"severity":1,"code":"unknown-key","source":"wymcp",` +
		`"message":"actions :create, :update: unknown key :typ; fix: did you mean :type?",` +
		`"relatedInformation":[{"location":{"uri":"file:///w/lib/schemas.ex","range":{"start":{"line":1,"character":6},"end":{"line":1,"character":9}}},"message":"read by Schemas.all()"}]},` +
		// bytes 17-23 are "# é🙂": é is 2 bytes / 1 unit, 🙂 4 bytes / 2 units.
		`{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},"severity":4,"code":"lint/x","source":"wymcp","message":"a hint"},` +
		`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":9}},"severity":1,"code":"syntax-error","source":"wymcp","message":"no severity set"}` +
		`]}}`
	if got := rawPublish(t, c, tool, 0); got != want {
		t.Errorf("tool publish:\n got %s\nwant %s", got, want)
	}
	wantSchemas := `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/lib/schemas.ex","diagnostics":[]}}`
	if got := rawPublish(t, c, schemas, 0); got != wantSchemas {
		t.Errorf("schemas publish:\n got %s\nwant %s", got, wantSchemas)
	}
}

func TestDiagnosticsCoalesce(t *testing.T) {
	// While Diagnose runs on version 1, versions 2..6 arrive: the version-1
	// report is stale and not published, and exactly one more run covers
	// all five edits.
	fake := lsptest.NewFake()
	entered, release := make(chan struct{}, 1), make(chan struct{})
	var runs atomic.Int32
	fake.DiagnoseFunc = func(_ context.Context, changed []string) []workspace.Report {
		// Snapshot first, as the workspace does, then (on the first run) block.
		var out []workspace.Report
		for _, uri := range changed {
			o, ok := fake.Overlay(uri)
			if !ok {
				continue
			}
			out = append(out, workspace.Report{URI: uri, Version: o.Version, Overlay: true, Mapper: positions.NewMapper([]byte(o.Text)),
				Problems: []workspace.Problem{{Code: "c", Message: o.Text, Span: positions.Span{Start: 0, End: 1}}}})
		}
		if runs.Add(1) == 1 {
			entered <- struct{}{}
			<-release
		}
		return out
	}
	c, _ := started(t, lsp.Options{Analyzer: fake})
	ctx := testCtx(t)
	const uri = "file:///w/a.ex"
	if err := c.Open(uri, 1, "v1"); err != nil {
		t.Fatal(err)
	}
	<-entered
	for v := int32(2); v <= 6; v++ {
		if err := c.ChangeText(uri, v, lsptest.Full(fmt.Sprintf("v%d", v))); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	close(release)
	p, err := c.WaitVersion(ctx, uri, 6)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Message != "v6" {
		t.Errorf("publish for version 6: %+v", p.Diagnostics)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	if got := c.Publishes(uri); len(got) != 1 {
		t.Errorf("publishes %v, want only version 6", got)
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("Diagnose ran %d times, want 2", n)
	}
}

func TestDiagnosePanicKeepsRunner(t *testing.T) {
	fake := lsptest.NewFake()
	var runs atomic.Int32
	fake.DiagnoseFunc = func(_ context.Context, changed []string) []workspace.Report {
		if runs.Add(1) == 1 {
			panic("analysis bug")
		}
		var out []workspace.Report
		for _, uri := range changed {
			if o, ok := fake.Overlay(uri); ok {
				out = append(out, workspace.Report{URI: uri, Version: o.Version, Overlay: true})
			}
		}
		return out
	}
	c, _ := started(t, lsp.Options{Analyzer: fake})
	ctx := testCtx(t)
	if err := c.Open("file:///a.ex", 1, "x"); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "first Diagnose", func() bool { return runs.Load() == 1 }); err != nil {
		t.Fatal(err)
	}
	if err := c.ChangeText("file:///a.ex", 2, lsptest.Full("y")); err != nil {
		t.Fatal(err)
	}
	p, err := c.WaitVersion(ctx, "file:///a.ex", 2)
	if err != nil {
		t.Fatal(err)
	}
	// A nil Mapper still yields a publish (with zero ranges) and [] not null.
	if p.Diagnostics == nil || len(p.Diagnostics) != 0 {
		t.Errorf("diagnostics %#v, want empty non-nil", p.Diagnostics)
	}
}

func TestIndexingProgressAndWatcher(t *testing.T) {
	fake := lsptest.NewFake()
	release := make(chan struct{})
	fake.AddFolderFunc = func(ctx context.Context, dir string, progress func(done, total int)) error {
		if dir == "/w/one" {
			<-release // requests are answered meanwhile
		}
		for i := 0; i <= 4; i++ {
			progress(i, 4)
		}
		return nil
	}
	c, _ := start(t, lsp.Options{Analyzer: fake})
	ctx := testCtx(t)
	_, err := c.Initialize(ctx, map[string]any{
		"rootUri": "file:///ignored-when-folders-given",
		"workspaceFolders": []map[string]any{
			{"uri": "file:///w/one", "name": "one"},
			{"uri": "file:///w/two%20dirs", "name": "two"},
			{"uri": "untitled:nowhere", "name": "not on disk"},
		},
		"capabilities": map[string]any{
			"window":    map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, c, "textDocument/signatureHelp", hoverParams, -32601)
	close(release)
	err = c.WaitFor(ctx, "progress end", func() bool {
		for _, m := range c.Notifications("$/progress") {
			if strings.Contains(string(m.Params), `"kind":"end"`) {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	// The watcher is registered on a goroutine of its own, not ordered
	// with the indexing progress: wait for it too.
	if err := c.WaitFor(ctx, "registerCapability", func() bool { return len(c.ServerRequests("client/registerCapability")) > 0 }); err != nil {
		t.Fatal(err)
	}
	reg := c.ServerRequests("client/registerCapability")
	if len(reg) != 1 || string(reg[0].Params) != `{"registrations":[{"id":"wymcp-ls/watch","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[{"globPattern":"**/*.{ex,exs}"},{"globPattern":"**/.wymcp-ls.yaml"}]}}]}` {
		t.Errorf("registerCapability requests: %v", reg)
	}
	create := c.ServerRequests("window/workDoneProgress/create")
	if len(create) != 1 || string(create[0].Params) != `{"token":"wymcp-ls/index"}` {
		t.Errorf("workDoneProgress/create requests: %v", create)
	}
	var got []string
	for _, m := range c.Notifications("$/progress") {
		got = append(got, string(m.Params))
	}
	want := []string{
		`{"token":"wymcp-ls/index","value":{"kind":"begin","title":"wymcp-ls: indexing","message":"Elixir files","percentage":0}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"1/4 files","percentage":12}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"2/4 files","percentage":25}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"3/4 files","percentage":37}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"4/4 files","percentage":50}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"1/4 files","percentage":62}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"2/4 files","percentage":75}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"3/4 files","percentage":87}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"report","message":"4/4 files","percentage":100}}`,
		`{"token":"wymcp-ls/index","value":{"kind":"end","message":"indexed 2 folder(s)"}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls := fake.Calls()
	if len(calls) < 2 || calls[0] != "AddFolder /w/one" || calls[1] != "AddFolder /w/two dirs" {
		t.Errorf("AddFolder calls %q", calls)
	}
}

func TestNoProgressWithoutCapability(t *testing.T) {
	c, fake := start(t, lsp.Options{})
	ctx := testCtx(t)
	if _, err := c.Initialize(ctx, map[string]any{"rootPath": "/w/p", "capabilities": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "AddFolder", func() bool { return len(fake.Calls()) == 1 }); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fake.Calls()[0]; got != "AddFolder /w/p" {
		t.Errorf("call %q", got)
	}
	if n := len(c.ServerRequests("")); n != 0 {
		t.Errorf("%d server requests without client support", n)
	}
}

// TestUnchangedDiagnosticsNotRepublished: an analysis that finds for a
// document exactly what was last published for it (same version, same
// diagnostics) publishes nothing, as when a didOpen arrives while the first
// analysis already read the buffer; a change of version or of diagnostics
// publishes again.
func TestUnchangedDiagnosticsNotRepublished(t *testing.T) {
	const disk = "file:///w/lib/disk.ex"
	const buf = "file:///w/lib/buf.ex"
	text := "defmodule D do\n  @a %{typ: 1}\nend\n"
	typ := strings.Index(text, "typ")
	var mu sync.Mutex
	code := "unknown-key"
	fake := lsptest.NewFake()
	fake.DiagnoseFunc = func(_ context.Context, changed []string) []workspace.Report {
		mu.Lock()
		defer mu.Unlock()
		m := positions.NewMapper([]byte(text))
		reports := []workspace.Report{{URI: disk, Mapper: m, Problems: []workspace.Problem{{
			Span: positions.Span{Start: typ, End: typ + 3}, Code: code, Severity: validate.Error, Message: "unknown key :typ",
		}}}}
		for _, u := range changed {
			if u == buf {
				o, _ := fake.Overlay(buf)
				reports = append(reports, workspace.Report{URI: buf, Mapper: m, Overlay: true, Version: o.Version})
			}
		}
		return reports
	}
	c, _ := started(t, lsp.Options{Analyzer: fake})
	ctx := testCtx(t)
	step := func(version int32, edit func() error) {
		t.Helper()
		if err := edit(); err != nil {
			t.Fatal(err)
		}
		// The runner publishes a run's reports in order: once buf's
		// arrives, disk's of the same run has been sent, if at all.
		if _, err := c.WaitVersion(ctx, buf, version); err != nil {
			t.Fatal(err)
		}
	}
	step(1, func() error { return c.Open(buf, 1, text) })
	step(2, func() error { return c.ChangeText(buf, 2, lsptest.Edit(0, 0, 0, 0, "#")) })
	step(3, func() error { return c.ChangeText(buf, 3, lsptest.Edit(0, 0, 0, 0, "#")) })
	if n := len(c.Publishes(disk)); n != 1 {
		t.Errorf("disk.ex published %d times over three analyses finding the same, want 1", n)
	}
	mu.Lock()
	code = "unknown-type"
	mu.Unlock()
	step(4, func() error { return c.ChangeText(buf, 4, lsptest.Edit(0, 0, 0, 0, "#")) })
	ps := c.Publishes(disk)
	if len(ps) != 2 || len(ps[1].Diagnostics) != 1 || ps[1].Diagnostics[0].Code != "unknown-type" {
		t.Errorf("after its diagnostics changed, disk.ex publishes: %+v, want a second with code unknown-type", ps)
	}
	if n := len(c.Publishes(buf)); n != 4 {
		t.Errorf("buf.ex published %d times for four versions, want 4", n)
	}
}

// TestReopenedDocumentGetsItsDiagnostics: a didOpen begins a new life of
// the document, whose diagnostics the client may have dropped at the close
// (Neovim resets a buffer's diagnostics when it detaches,
// runtime/lua/vim/lsp.lua buf_detach_client). When the close and the
// reopen fall within one analysis, so that no publish for the closed
// document comes between them, the reopened version's diagnostics are
// published although they equal the last ones sent for that URI.
func TestReopenedDocumentGetsItsDiagnostics(t *testing.T) {
	const buf = "file:///w/lib/buf.ex"
	const other = "file:///w/lib/other.ex"
	text := "defmodule D do\n  @a %{typ: 1}\nend\n"
	typ := strings.Index(text, "typ")
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	var hold atomic.Bool
	fake := lsptest.NewFake()
	fake.DiagnoseFunc = func(_ context.Context, changed []string) []workspace.Report {
		if hold.CompareAndSwap(true, false) {
			entered <- struct{}{}
			<-release
		}
		var reports []workspace.Report
		for _, u := range changed {
			o, open := fake.Overlay(u)
			m := positions.NewMapper([]byte(text))
			r := workspace.Report{URI: u, Mapper: m, Overlay: open, Version: o.Version}
			if u == buf {
				r.Problems = []workspace.Problem{{Span: positions.Span{Start: typ, End: typ + 3},
					Code: "unknown-key", Severity: validate.Error, Message: "unknown key :typ"}}
			}
			reports = append(reports, r)
		}
		return reports
	}
	c, _ := started(t, lsp.Options{Analyzer: fake})
	ctx := testCtx(t)
	if err := c.Open(buf, 0, text); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, buf, 0); err != nil {
		t.Fatal(err)
	}
	hold.Store(true)
	if err := c.CloseDoc(buf); err != nil {
		t.Fatal(err)
	}
	<-entered // the analysis the close woke is running
	if err := c.Open(buf, 0, text); err != nil {
		t.Fatal(err)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	close(release)
	// Runs publish in order: once other.ex's arrives, buf.ex's are sent.
	if err := c.Open(other, 1, text); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, other, 1); err != nil {
		t.Fatal(err)
	}
	ps := c.Publishes(buf)
	if len(ps) != 2 || ps[1].Version == nil || *ps[1].Version != 0 || len(ps[1].Diagnostics) != 1 || ps[1].Diagnostics[0].Code != "unknown-key" {
		t.Errorf("buf.ex publishes after open, close and reopen: %+v, want two, the second version 0 with unknown-key", ps)
	}
}
