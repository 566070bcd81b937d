package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/wymcp/wymcp-ls/listing/bpe"
	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// startRealWith runs the server over the real workspace, initialised on
// root with the given client capabilities, and returns the initialize result.
func startRealWith(t *testing.T, root string, caps map[string]any) (*lsptest.Client, json.RawMessage) {
	t.Helper()
	ws := workspace.New(workspace.Options{SyntaxSeverity: validate.Warning})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Tokens: bpe.New(tokenizer.O200kBase)})
	res, err := c.Initialize(testCtx(t), map[string]any{
		"rootUri":      workspace.PathURI(root),
		"capabilities": caps,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, res
}

// pullCaps announces pull diagnostics with refresh support.
var pullCaps = map[string]any{
	"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": false}},
	"workspace":    map[string]any{"diagnostics": map[string]any{"refreshSupport": true}},
}

type wireReport struct {
	Kind     string            `json:"kind"`
	URI      string            `json:"uri"`
	Version  *int32            `json:"version"`
	ResultID string            `json:"resultId"`
	Items    []json.RawMessage `json:"items"`
}

func (r wireReport) codes(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, it := range r.Items {
		var d struct{ Code string }
		if err := json.Unmarshal(it, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d.Code)
	}
	return out
}

// TestPullDiagnostics: a client announcing textDocument.diagnostic is never
// pushed to; it pulls the files on disk with workspace/diagnostic and an
// open buffer with textDocument/diagnostic, gets "unchanged" for a result
// it has, a new resultId when an edit changes the result, and a
// workspace/diagnostic/refresh when an edit to the tool changes the result
// of the Schemas module.
func TestPullDiagnostics(t *testing.T) {
	root := copyExample(t)
	c, res := startRealWith(t, root, pullCaps)
	ctx := testCtx(t)
	if !strings.Contains(string(res), `"diagnosticProvider":{"identifier":"wymcp","interFileDependencies":true,"workspaceDiagnostics":true}`) {
		t.Errorf("initialize result lacks diagnosticProvider: %s", res)
	}
	notes := workspace.PathURI(filepath.Join(root, "lib/app/tools/notes.ex"))
	schemas := workspace.PathURI(filepath.Join(root, "lib/app/tools/schemas.ex"))
	tasks := workspace.PathURI(filepath.Join(root, "lib/app/tools/tasks.ex"))

	// Indexing ends: the results of files nobody edited changed, so the
	// client is asked to pull.
	if err := c.WaitFor(ctx, "refresh after indexing", func() bool {
		return len(c.ServerRequests("workspace/diagnostic/refresh")) == 1
	}); err != nil {
		t.Fatal(err)
	}
	if r := c.ServerRequests("workspace/diagnostic/refresh")[0]; string(r.Params) != "" && string(r.Params) != "null" {
		t.Errorf("refresh params = %s, want none", r.Params)
	}

	type wsReport struct{ Items []wireReport }
	var ws wsReport
	pullWS := func(prev any) {
		t.Helper()
		ws = wsReport{}
		if err := c.Request(ctx, "workspace/diagnostic", map[string]any{"previousResultIds": prev}, &ws); err != nil {
			t.Fatal(err)
		}
	}
	pullWS([]any{})
	byURI := map[string]wireReport{}
	for _, r := range ws.Items {
		byURI[r.URI] = r
	}
	if len(ws.Items) != 2 {
		t.Fatalf("workspace report has %d documents, want 2 (notes, schemas): %+v", len(ws.Items), ws.Items)
	}
	n := byURI[notes]
	want := `{"range":{"start":{"line":16,"character":4},"end":{"line":16,"character":11}},"severity":1,"code":"unknown-key","source":"wymcp","message":"actions :archived, :pinned, :recent: unknown key :example; fix: did you mean :examples?"}`
	if n.Kind != "full" || n.Version != nil || n.ResultID == "" || len(n.Items) != 1 || string(n.Items[0]) != want {
		t.Errorf("notes.ex report: %+v\nwant one item %s", n, want)
	}
	sc := byURI[schemas]
	if got := strings.Join(sc.codes(t), ","); sc.Kind != "full" || got != "undeclared-default,undeclared-field" {
		t.Errorf("schemas.ex report: kind %s, codes %s", sc.Kind, got)
	}

	// The same request with the result ids: everything unchanged.
	prev := []map[string]string{{"uri": notes, "value": n.ResultID}, {"uri": schemas, "value": sc.ResultID}}
	m, err := c.Call(ctx, "workspace/diagnostic", map[string]any{"previousResultIds": prev})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(m.Result), `{"items":[{"kind":"unchanged","uri":"`+notes+`","version":null,"resultId":"`+n.ResultID+`"},{"kind":"unchanged","uri":"`+schemas+`","version":null,"resultId":"`+sc.ResultID+`"}]}`; got != want {
		t.Errorf("second workspace report:\n got %s\nwant %s", got, want)
	}
	pullWS(prev)
	if len(ws.Items) != 2 || ws.Items[0].Kind != "unchanged" || ws.Items[1].Kind != "unchanged" || ws.Items[0].Items != nil {
		t.Errorf("second workspace report: %+v, want both unchanged without items", ws.Items)
	}

	// An open buffer is pulled on its own: full, then unchanged.
	disk, err := os.ReadFile(filepath.Join(root, "lib/app/tools/schemas.ex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(schemas, 1, string(disk)); err != nil {
		t.Fatal(err)
	}
	var doc wireReport
	if err := c.Request(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": schemas}}, &doc); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(doc.codes(t), ","); doc.Kind != "full" || got != "undeclared-default,undeclared-field" || doc.ResultID != sc.ResultID {
		t.Errorf("open schemas.ex: %+v (codes %s), want full with the workspace report's resultId %s", doc, got, sc.ResultID)
	}
	m, err = c.Call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": schemas}, "previousResultId": doc.ResultID})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(m.Result), `{"kind":"unchanged","resultId":"`+doc.ResultID+`"}`; got != want {
		t.Errorf("second pull: %s, want %s", got, want)
	}

	// Fixing `"state"` -> `"status"`: the next pull has one problem, a new id.
	if err := c.ChangeText(schemas, 2, lsptest.Edit(28, 16, 28, 21, "status")); err != nil {
		t.Fatal(err)
	}
	var fixed wireReport
	if err := c.Request(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": schemas}, "previousResultId": doc.ResultID}, &fixed); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(fixed.codes(t), ","); fixed.Kind != "full" || got != "undeclared-default" || fixed.ResultID == doc.ResultID {
		t.Errorf("after the fix: %+v (codes %s)", fixed, got)
	}
	// The open buffer is in the workspace report too, with its version and
	// its current result (Neovim 0.12 answers a refresh with
	// workspace/diagnostic alone).
	pullWS(prev)
	if len(ws.Items) != 2 || ws.Items[0].URI != notes || ws.Items[0].Kind != "unchanged" || ws.Items[0].Version != nil ||
		ws.Items[1].URI != schemas || ws.Items[1].Kind != "full" || ws.Items[1].Version == nil || *ws.Items[1].Version != 2 ||
		ws.Items[1].ResultID != fixed.ResultID || strings.Join(ws.Items[1].codes(t), ",") != "undeclared-default" {
		t.Errorf("workspace report with schemas.ex open: %+v", ws.Items)
	}

	// Editing the tool so that it no longer reads Schemas changes the result
	// of schemas.ex, which was not edited: the client is asked to refresh.
	tasksText, err := os.ReadFile(filepath.Join(root, "lib/app/tools/tasks.ex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(tasks, 1, strings.Replace(string(tasksText), "Schemas.all()", "%{}", 1)); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "refresh after the tool changed", func() bool {
		return len(c.ServerRequests("workspace/diagnostic/refresh")) == 2
	}); err != nil {
		t.Fatal(err)
	}
	doc = wireReport{}
	if err := c.Request(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": schemas}, "previousResultId": fixed.ResultID}, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "full" || len(doc.Items) != 0 || doc.Items == nil {
		t.Errorf("schemas.ex once the tool reads it no more: %+v, want full with items []", doc)
	}

	if got := c.Notifications("textDocument/publishDiagnostics"); len(got) != 0 {
		t.Errorf("a pulling client was pushed %d publishDiagnostics, first %s", len(got), got[0].Raw)
	}
}

// TestPushWithoutPullCapability: a client that does not announce
// textDocument.diagnostic is pushed to as before, is offered no
// diagnosticProvider, and textDocument/diagnostic is MethodNotFound for it.
func TestPushWithoutPullCapability(t *testing.T) {
	root := copyExample(t)
	c, res := startRealWith(t, root, map[string]any{})
	ctx := testCtx(t)
	if strings.Contains(string(res), "diagnosticProvider") {
		t.Errorf("diagnosticProvider offered to a push client: %s", res)
	}
	notes := workspace.PathURI(filepath.Join(root, "lib/app/tools/notes.ex"))
	p, err := c.WaitPublish(ctx, notes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "unknown-key" {
		t.Errorf("pushed notes.ex: %+v", p.Diagnostics)
	}
	m, err := c.Call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": notes}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("textDocument/diagnostic for a push client: %s", m.Raw)
	}
	if got := c.ServerRequests("workspace/diagnostic/refresh"); len(got) != 0 {
		t.Errorf("a push client got %d refresh requests", len(got))
	}
}

// TestNewMethodsBadParams: null or mistyped params of the pull and symbol
// methods are InvalidParams (-32602), and the server keeps serving.
func TestNewMethodsBadParams(t *testing.T) {
	c, _ := startRealWith(t, t.TempDir(), pullCaps)
	ctx := testCtx(t)
	for _, tt := range []struct {
		method string
		params any
	}{
		{"textDocument/diagnostic", json.RawMessage(`null`)},
		{"textDocument/diagnostic", json.RawMessage(`{"textDocument":7}`)},
		{"workspace/diagnostic", json.RawMessage(`null`)},
		{"workspace/diagnostic", json.RawMessage(`{"previousResultIds":{"a":1}}`)},
		{"workspace/symbol", json.RawMessage(`null`)},
		{"workspace/symbol", json.RawMessage(`{"query":["x"]}`)},
	} {
		m, err := c.Call(ctx, tt.method, tt.params)
		if err != nil {
			t.Fatal(err)
		}
		if m.Error == nil || m.Error.Code != -32602 {
			t.Errorf("%s %s: %s, want InvalidParams", tt.method, tt.params, m.Raw)
		}
	}
	m, err := c.Call(ctx, "workspace/symbol", map[string]any{"query": ""})
	if err != nil || m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("after bad params: %v %s", err, m.Raw)
	}
	m, err = c.Call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": "untitled:none"}})
	if err != nil || m.Error != nil || !strings.HasPrefix(string(m.Result), `{"kind":"full","resultId":"`) || !strings.HasSuffix(string(m.Result), `","items":[]}`) {
		t.Errorf("pull of an unknown document: %v %s", err, m.Raw)
	}
}

// TestPullWithoutRefreshSupport: a client that pulls but does not support
// workspace/diagnostic/refresh is never sent one; it sees the files on
// disk once indexing has read them.
func TestPullWithoutRefreshSupport(t *testing.T) {
	root := copyExample(t)
	c, _ := startRealWith(t, root, map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}})
	ctx := testCtx(t)
	var n int
	err := c.WaitFor(ctx, "both files with problems", func() bool {
		var ws struct{ Items []wireReport }
		if err := c.Request(ctx, "workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws); err != nil {
			t.Fatal(err)
		}
		n = len(ws.Items)
		return n == 2
	})
	if err != nil {
		t.Fatalf("%v (last report: %d documents)", err, n)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	if got := c.ServerRequests("workspace/diagnostic/refresh"); len(got) != 0 {
		t.Errorf("%d refresh requests to a client without refreshSupport", len(got))
	}
	if got := c.Notifications("textDocument/publishDiagnostics"); len(got) != 0 {
		t.Errorf("%d publishes to a pulling client", len(got))
	}
}

// TestPullWorkspaceDiagnosticsByClient: Neovim is told workspaceDiagnostics
// false (its refresh handler then pulls each open buffer again instead of
// asking workspace/diagnostic, whose reports it drops for open buffers);
// every other client is told true.
func TestPullWorkspaceDiagnosticsByClient(t *testing.T) {
	for _, tc := range []struct {
		name       string
		clientInfo map[string]string // nil: no clientInfo
		want       string
	}{
		{"neovim", map[string]string{"name": "Neovim", "version": "0.12.4"}, "false"},
		{"vscode", map[string]string{"name": "Visual Studio Code", "version": "1.139.1"}, "true"},
		{"helix", map[string]string{"name": "helix", "version": "25.07"}, "true"},
		{"no clientInfo", nil, "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := workspace.New(workspace.Options{SyntaxSeverity: validate.Warning})
			t.Cleanup(ws.Close)
			c := lsptest.Start(t, lsp.Options{Analyzer: ws, Tokens: bpe.New(tokenizer.O200kBase)})
			params := map[string]any{"capabilities": pullCaps}
			if tc.clientInfo != nil {
				params["clientInfo"] = tc.clientInfo
			}
			res, err := c.Initialize(testCtx(t), params)
			if err != nil {
				t.Fatal(err)
			}
			want := `"diagnosticProvider":{"identifier":"wymcp","interFileDependencies":true,"workspaceDiagnostics":` + tc.want + `}`
			if !strings.Contains(string(res), want) {
				t.Errorf("initialize result lacks %s: %s", want, res)
			}
		})
	}
}

// TestPullNeovimRefreshThenDocumentPull is Neovim 0.12's flow: it pulls
// the open schemas.ex before indexing has read tasks.ex (no problems yet),
// gets workspace/diagnostic/refresh once indexing ends, and pulls the
// buffer again with its previous resultId: the client then holds both of
// schemas.ex's problems.
func TestPullNeovimRefreshThenDocumentPull(t *testing.T) {
	root := copyExample(t)
	ws := workspace.New(workspace.Options{SyntaxSeverity: validate.Warning})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Tokens: bpe.New(tokenizer.O200kBase)})
	ctx := testCtx(t)
	if _, err := c.Initialize(ctx, map[string]any{
		"rootUri":      workspace.PathURI(root),
		"capabilities": pullCaps,
		"clientInfo":   map[string]string{"name": "Neovim", "version": "0.12.4"},
	}); err != nil {
		t.Fatal(err)
	}
	schemas := workspace.PathURI(filepath.Join(root, "lib/app/tools/schemas.ex"))
	disk, err := os.ReadFile(filepath.Join(root, "lib/app/tools/schemas.ex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(schemas, 0, string(disk)); err != nil {
		t.Fatal(err)
	}
	var held wireReport // the report the client holds, as Neovim keeps it
	if err := c.Request(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": schemas}}, &held); err != nil {
		t.Fatal(err)
	}
	// Neovim pulls the buffer again on each refresh. A refresh may come
	// while indexing is still reading files (another file's diagnostics
	// changed), and that pull is rightly "unchanged"; the refresh after
	// indexing ends must bring both of schemas.ex's problems. Indexing may
	// also have finished before the first pull, which then holds them.
	want := "undeclared-default,undeclared-field"
	var pulls []string
	for seen := 0; held.Kind != "full" || strings.Join(held.codes(t), ",") != want; {
		if err := c.WaitFor(ctx, "a refresh that brings "+want, func() bool {
			return len(c.ServerRequests("workspace/diagnostic/refresh")) > seen
		}); err != nil {
			t.Fatalf("%v; the pulls after each refresh: %v", err, pulls)
		}
		seen = len(c.ServerRequests("workspace/diagnostic/refresh"))
		var again wireReport
		if err := c.Request(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": schemas}, "previousResultId": held.ResultID}, &again); err != nil {
			t.Fatal(err)
		}
		pulls = append(pulls, fmt.Sprintf("%+v", again))
		switch {
		case again.Kind == "unchanged" && again.ResultID == held.ResultID:
		case again.Kind == "full":
			held = again
		default:
			t.Fatalf("pull with previousResultId %q: %+v", held.ResultID, again)
		}
	}
}
