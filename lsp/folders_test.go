package lsp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// folderEvent is didChangeWorkspaceFolders params adding and removing the
// given folder URIs.
func folderEvent(added, removed []string) map[string]any {
	list := func(uris []string) []map[string]string {
		out := []map[string]string{}
		for _, u := range uris {
			out = append(out, map[string]string{"uri": u, "name": u[strings.LastIndexByte(u, '/')+1:]})
		}
		return out
	}
	return map[string]any{"event": map[string]any{"added": list(added), "removed": list(removed)}}
}

// folderCalls returns the Fake's AddFolder and RemoveFolder calls.
func folderCalls(fake *lsptest.Fake) []string {
	var out []string
	for _, c := range fake.Calls() {
		if strings.HasPrefix(c, "AddFolder ") || strings.HasPrefix(c, "RemoveFolder ") {
			out = append(out, c)
		}
	}
	return out
}

// TestDidChangeWorkspaceFolders: each folder change reaches the analysis
// once, in order, removals first: a folder added twice, or one already
// in the workspace under another spelling, is indexed once; one under two
// spellings, two folders to the client, leaves the analysis only when
// both are removed (before, the first removal dropped the directory the
// client still had as a folder); removing one never added, or twice,
// asks nothing; a folder removed and added in one
// event is taken out then indexed again; a nested folder is handed over
// (the analysis keeps the files two folders share); non-file URIs and
// malformed params (LSP 3.17 "workspace/didChangeWorkspaceFolders") are
// logged and ignored whole, even their well-formed parts.
func TestDidChangeWorkspaceFolders(t *testing.T) {
	tests := []struct {
		name string
		msgs []any // params of the notifications sent, in order
		want []string
	}{
		{"add", []any{folderEvent([]string{"file:///w/b"}, nil)},
			[]string{"AddFolder /w/b"}},
		{"add two", []any{folderEvent([]string{"file:///w/b", "file:///w/c%20d"}, nil)},
			[]string{"AddFolder /w/b", "AddFolder /w/c d"}},
		{"add twice", []any{folderEvent([]string{"file:///w/b", "file:///w/b"}, nil), folderEvent([]string{"file:///w/b/"}, nil)},
			[]string{"AddFolder /w/b"}},
		{"add an initial one", []any{folderEvent([]string{"file:///w//a/"}, nil)},
			nil},
		{"add nested", []any{folderEvent([]string{"file:///w/a/lib"}, nil)},
			[]string{"AddFolder /w/a/lib"}},
		{"remove", []any{folderEvent(nil, []string{"file:///w/a"})},
			[]string{"RemoveFolder /w/a"}},
		{"remove under another spelling", []any{folderEvent(nil, []string{"file:///w/./a/"})},
			[]string{"RemoveFolder /w/a"}},
		{"remove never added", []any{folderEvent(nil, []string{"file:///w/x", "file:///w/a/lib"})},
			nil},
		{"remove twice", []any{folderEvent(nil, []string{"file:///w/a"}), folderEvent(nil, []string{"file:///w/a"})},
			[]string{"RemoveFolder /w/a"}},
		{"add an initial one, remove the first spelling", []any{folderEvent([]string{"file:///w//a/"}, nil), folderEvent(nil, []string{"file:///w/a"})},
			nil},
		{"add an initial one, remove both spellings", []any{folderEvent([]string{"file:///w//a/"}, nil), folderEvent(nil, []string{"file:///w/a"}), folderEvent(nil, []string{"file:///w//a/"})},
			[]string{"RemoveFolder /w/a"}},
		{"add two spellings, remove one", []any{folderEvent([]string{"file:///w/b", "file:///w/b/"}, nil), folderEvent(nil, []string{"file:///w/b"})},
			[]string{"AddFolder /w/b"}},
		{"add two spellings, remove both", []any{folderEvent([]string{"file:///w/b", "file:///w/b/"}, nil), folderEvent(nil, []string{"file:///w/b/", "file:///w/b"})},
			[]string{"AddFolder /w/b", "RemoveFolder /w/b"}},
		{"add the same twice, remove once", []any{folderEvent([]string{"file:///w/b", "file:///w/b"}, nil), folderEvent(nil, []string{"file:///w/b"})},
			[]string{"AddFolder /w/b", "RemoveFolder /w/b"}},
		{"remove and add back in one event", []any{folderEvent([]string{"file:///w/a"}, []string{"file:///w/a"})},
			[]string{"RemoveFolder /w/a", "AddFolder /w/a"}},
		{"add then remove", []any{folderEvent([]string{"file:///w/b"}, nil), folderEvent(nil, []string{"file:///w/b"})},
			[]string{"AddFolder /w/b", "RemoveFolder /w/b"}},
		{"remove outer, nested stays", []any{folderEvent([]string{"file:///w/a/lib"}, nil), folderEvent(nil, []string{"file:///w/a"})},
			[]string{"AddFolder /w/a/lib", "RemoveFolder /w/a"}},
		{"not file URIs", []any{folderEvent([]string{"untitled:b", "https://x/y"}, []string{"untitled:a"})},
			nil},
		{"null params", []any{nil}, nil},
		{"array params", []any{[]any{}}, nil},
		{"no event", []any{map[string]any{}}, nil},
		{"null event", []any{map[string]any{"event": nil}}, nil},
		{"event not an object", []any{map[string]any{"event": "file:///w/b"}}, nil},
		{"added not an array", []any{map[string]any{"event": map[string]any{"added": "file:///w/b", "removed": []any{map[string]any{"uri": "file:///w/a"}}}}}, nil},
		{"uri not a string", []any{map[string]any{"event": map[string]any{"added": []any{map[string]any{"uri": 5}}, "removed": []any{map[string]any{"uri": "file:///w/a"}}}}}, nil},
		{"null and empty entries", []any{map[string]any{"event": map[string]any{"added": []any{nil, map[string]any{}}, "removed": nil}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, fake := start(t, lsp.Options{})
			ctx := testCtx(t)
			if _, err := c.Initialize(ctx, map[string]any{
				"workspaceFolders": []map[string]any{{"uri": "file:///w/a", "name": "a"}},
				"capabilities":     map[string]any{},
			}); err != nil {
				t.Fatal(err)
			}
			for _, m := range tt.msgs {
				if err := c.Notify("workspace/didChangeWorkspaceFolders", m); err != nil {
					t.Fatal(err)
				}
			}
			// Folder work is done in order: once the last folder is
			// indexed, every change before it has reached the analysis.
			if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{"file:///w/end"}, nil)); err != nil {
				t.Fatal(err)
			}
			if err := c.WaitFor(ctx, "the last folder indexed", func() bool {
				return slices.Contains(fake.Calls(), "AddFolder /w/end")
			}); err != nil {
				t.Fatal(err)
			}
			want := append(append([]string{"AddFolder /w/a"}, tt.want...), "AddFolder /w/end")
			if got := folderCalls(fake); !slices.Equal(got, want) {
				t.Errorf("calls\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestInitialFolderTwins: a directory named by two initial workspace
// folders under two spellings (file:///w/a, file:///w/a/) is indexed once
// and stays in the analysis until both are removed, since the client
// still has the other one; before, the first removal dropped it and
// cleared every diagnostic of a folder the editor still showed. One URI
// sent twice is one folder.
func TestInitialFolderTwins(t *testing.T) {
	for _, tt := range []struct {
		name    string
		second  string // the URI of the second initial folder
		removed [][]string
		want    []string
	}{
		{"one URI twice, removed", "file:///w/a", [][]string{{"file:///w/a"}}, []string{"RemoveFolder /w/a"}},
		{"the first spelling removed", "file:///w/a/", [][]string{{"file:///w/a"}}, nil},
		{"the second spelling removed", "file:///w/a/", [][]string{{"file:///w/a/"}}, nil},
		{"both removed", "file:///w/a/", [][]string{{"file:///w/a/"}, {"file:///w/a"}}, []string{"RemoveFolder /w/a"}},
		{"both in one event", "file:///w/a/", [][]string{{"file:///w/a", "file:///w/a/"}}, []string{"RemoveFolder /w/a"}},
		{"a third spelling removed twice", "file:///w/a/", [][]string{{"file:///w/./a"}, {"file:///w/./a"}}, []string{"RemoveFolder /w/a"}},
		{"the same removed twice", "file:///w/a/", [][]string{{"file:///w/a"}, {"file:///w/a"}}, []string{"RemoveFolder /w/a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, fake := start(t, lsp.Options{})
			ctx := testCtx(t)
			if _, err := c.Initialize(ctx, map[string]any{
				"workspaceFolders": []map[string]any{{"uri": "file:///w/a", "name": "a"}, {"uri": tt.second, "name": "b"}},
				"capabilities":     map[string]any{},
			}); err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.removed {
				if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, r)); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{"file:///w/end"}, nil)); err != nil {
				t.Fatal(err)
			}
			if err := c.WaitFor(ctx, "the last folder indexed", func() bool {
				return slices.Contains(fake.Calls(), "AddFolder /w/end")
			}); err != nil {
				t.Fatal(err)
			}
			want := append(append([]string{"AddFolder /w/a"}, tt.want...), "AddFolder /w/end")
			if got := folderCalls(fake); !slices.Equal(got, want) {
				t.Errorf("calls\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestFolderChangeWaitsForIndexing: a folder removed while the initial
// indexing still runs is removed after it, not before (which would leave
// its files indexed); a change received between initialize and
// initialized only edits the list the initial indexing reads.
func TestFolderChangeWaitsForIndexing(t *testing.T) {
	t.Run("during indexing", func(t *testing.T) {
		fake := lsptest.NewFake()
		release := make(chan struct{})
		var indexed atomic.Bool
		var removedEarly atomic.Bool
		fake.AddFolderFunc = func(ctx context.Context, dir string, progress func(done, total int)) error {
			<-release
			indexed.Store(true)
			return nil
		}
		fake.RemoveFolderFunc = func(dir string) bool {
			if !indexed.Load() {
				removedEarly.Store(true)
			}
			return true
		}
		c, _ := start(t, lsp.Options{Analyzer: fake})
		ctx := testCtx(t)
		if _, err := c.Initialize(ctx, map[string]any{"rootUri": "file:///w/a", "capabilities": map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, []string{"file:///w/a"})); err != nil {
			t.Fatal(err)
		}
		if err := c.Barrier(ctx); err != nil { // handled, and answered while indexing
			t.Fatal(err)
		}
		close(release)
		if err := c.WaitFor(ctx, "RemoveFolder", func() bool { return slices.Contains(fake.Calls(), "RemoveFolder /w/a") }); err != nil {
			t.Fatal(err)
		}
		if removedEarly.Load() {
			t.Error("RemoveFolder ran before the initial indexing ended")
		}
	})
	t.Run("before initialized", func(t *testing.T) {
		c, fake := start(t, lsp.Options{})
		ctx := testCtx(t)
		m, err := c.Call(ctx, "initialize", map[string]any{"rootUri": "file:///w/a", "capabilities": map[string]any{}})
		if err != nil || m.Error != nil {
			t.Fatalf("initialize: %v %v", err, m)
		}
		if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{"file:///w/b"}, []string{"file:///w/a"})); err != nil {
			t.Fatal(err)
		}
		if err := c.Notify("initialized", map[string]any{}); err != nil {
			t.Fatal(err)
		}
		if err := c.WaitFor(ctx, "indexing", func() bool { return len(folderCalls(fake)) > 0 }); err != nil {
			t.Fatal(err)
		}
		if err := c.Barrier(ctx); err != nil {
			t.Fatal(err)
		}
		if got := folderCalls(fake); !slices.Equal(got, []string{"AddFolder /w/b"}) {
			t.Errorf("calls %q, want the initial indexing of /w/b alone", got)
		}
	})
}

// TestAddedFolderProgressAndRequestForm: indexing an added folder reports
// work-done progress under a token of its own when the client supports
// it; the notification sent as a request is answered null, and -32602
// when its params are malformed.
func TestAddedFolderProgressAndRequestForm(t *testing.T) {
	c, fake := start(t, lsp.Options{})
	ctx := testCtx(t)
	if _, err := c.Initialize(ctx, map[string]any{
		"rootUri":      "file:///w/a",
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	}); err != nil {
		t.Fatal(err)
	}
	ends := func(token string) func() bool {
		return func() bool {
			for _, m := range c.Notifications("$/progress") {
				if strings.Contains(string(m.Params), `"token":"`+token+`","value":{"kind":"end"`) {
					return true
				}
			}
			return false
		}
	}
	if err := c.WaitFor(ctx, "initial progress end", ends("wymcp-ls/index")); err != nil {
		t.Fatal(err)
	}
	m, err := c.Call(ctx, "workspace/didChangeWorkspaceFolders", folderEvent([]string{"file:///w/b"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Raw) != `{"jsonrpc":"2.0","result":null,"id":`+string(m.ID)+`}` {
		t.Errorf("reply to the request form: %s", m.Raw)
	}
	if err := c.WaitFor(ctx, "second progress end", ends("wymcp-ls/index/2")); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range c.Notifications("$/progress") {
		if strings.Contains(string(m.Params), `"wymcp-ls/index/2"`) {
			got = append(got, string(m.Params))
		}
	}
	want := []string{
		`{"token":"wymcp-ls/index/2","value":{"kind":"begin","title":"wymcp-ls: indexing","message":"Elixir files","percentage":0}}`,
		`{"token":"wymcp-ls/index/2","value":{"kind":"report","message":"1/1 files","percentage":100}}`,
		`{"token":"wymcp-ls/index/2","value":{"kind":"end","message":"indexed 1 folder(s)"}}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("progress:\n got %s\nwant %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var creates []string
	for _, r := range c.ServerRequests("window/workDoneProgress/create") {
		creates = append(creates, string(r.Params))
	}
	if want := []string{`{"token":"wymcp-ls/index"}`, `{"token":"wymcp-ls/index/2"}`}; !slices.Equal(creates, want) {
		t.Errorf("workDoneProgress/create: %q, want %q", creates, want)
	}
	for _, bad := range []any{nil, map[string]any{"event": []any{}}} {
		m, err := c.Call(ctx, "workspace/didChangeWorkspaceFolders", bad)
		if err != nil {
			t.Fatal(err)
		}
		if m.Error == nil || m.Error.Code != -32602 {
			t.Errorf("request form with params %v: %s, want -32602", bad, m.Raw)
		}
	}
	if got := folderCalls(fake); !slices.Equal(got, []string{"AddFolder /w/a", "AddFolder /w/b"}) {
		t.Errorf("calls %q", got)
	}
}

// symbolURIs returns the URIs of the workspace/symbol answer to query.
func symbolURIs(t *testing.T, c *lsptest.Client, query string) []string {
	t.Helper()
	var got []struct {
		Location struct{ URI string }
	}
	if err := c.Request(testCtx(t), "workspace/symbol", map[string]any{"query": query}, &got); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range got {
		out = append(out, s.Location.URI)
	}
	return out
}

// lastPublish returns the latest publishDiagnostics for uri (zero when none).
func lastPublish(c *lsptest.Client, uri string) (lsp.PublishDiagnosticsParams, int) {
	ps := c.Publishes(uri)
	if len(ps) == 0 {
		return lsp.PublishDiagnosticsParams{}, 0
	}
	return ps[len(ps)-1], len(ps)
}

// TestWorkspaceFoldersEndToEnd drives the real server over copies of the
// example project: a folder added after start-up gets its offences
// published at their exact ranges and its tools listed by
// workspace/symbol; removing it publishes [] for each file that had
// diagnostics and drops its tools from workspace/symbol, while the other
// folder's stay. A folder nested in a removed one keeps the files they
// share; a folder that does not exist is logged and harmless; an open
// buffer of a removed folder keeps its diagnostics until it is closed.
func TestWorkspaceFoldersEndToEnd(t *testing.T) {
	a, b, c3 := copyExample(t), copyExample(t), copyExample(t)
	c := startReal(t, a)
	ctx := testCtx(t)
	uri := func(root, rel string) string { return workspace.PathURI(filepath.Join(root, rel)) }
	folder := func(root string) string { return workspace.PathURI(root) }
	change := func(added, removed []string) {
		t.Helper()
		if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent(added, removed)); err != nil {
			t.Fatal(err)
		}
	}
	const notesRel, schemasRel, tasksRel = "lib/app/tools/notes.ex", "lib/app/tools/schemas.ex", "lib/app/tools/tasks.ex"
	notesWant := `[{"range":{"start":{"line":16,"character":4},"end":{"line":16,"character":11}},"severity":1,"code":"unknown-key","source":"wymcp","message":"actions :archived, :pinned, :recent: unknown key :example; fix: did you mean :examples?"}]`
	schemasWant := func(root string) string {
		rel := `"relatedInformation":[{"location":{"uri":"` + uri(root, tasksRel) + `","range":{"start":{"line":0,"character":10},"end":{"line":0,"character":25}}},"message":"read by tool App.Tools.Tasks"}]`
		return `[{"range":{"start":{"line":17,"character":47},"end":{"line":17,"character":55}},"severity":1,"code":"undeclared-default","source":"wymcp","message":"action :create :defaults[\"opts\"]: default key \"silent\" is not declared by :properties[\"opts\"][\"properties\"]; fix: declare \"silent\" in :properties[\"opts\"][\"properties\"] or remove it from :defaults[\"opts\"]",` + rel + `},` +
			`{"range":{"start":{"line":28,"character":15},"end":{"line":28,"character":22}},"severity":1,"code":"undeclared-field","source":"wymcp","message":"action :list: :required names \"state\", which :properties does not declare; fix: did you mean \"status\"? else declare \"state\" in :properties or remove it from :required",` + rel + `}]`
	}
	waitDiags := func(what, u, want string) {
		t.Helper()
		if err := c.WaitFor(ctx, what, func() bool {
			p, n := lastPublish(c, u)
			return n > 0 && diagJSON(t, p) == want
		}); err != nil {
			p, _ := lastPublish(c, u)
			t.Fatalf("%v; last publish %s", err, diagJSON(t, p))
		}
	}
	waitDiags("a's notes.ex", uri(a, notesRel), notesWant)
	if got := symbolURIs(t, c, "App.Tools.Notes"); !slices.Equal(got, []string{uri(a, notesRel)}) {
		t.Fatalf("symbols before any change: %q", got)
	}

	// Added: indexed, its offences published exactly, its tools listed.
	change([]string{folder(b)}, nil)
	waitDiags("b's notes.ex", uri(b, notesRel), notesWant)
	waitDiags("b's schemas.ex", uri(b, schemasRel), schemasWant(b))
	both := []string{uri(a, notesRel), uri(b, notesRel)}
	slices.Sort(both)
	if got := symbolURIs(t, c, "App.Tools.Notes"); !slices.Equal(got, both) {
		t.Errorf("symbols with b added: %q, want %q", got, both)
	}

	// Removed: [] for each file that had diagnostics, its tools gone.
	aNotes := len(c.Publishes(uri(a, notesRel)))
	change(nil, []string{folder(b)})
	for _, rel := range []string{notesRel, schemasRel} {
		u := uri(b, rel)
		if err := c.WaitFor(ctx, "b's "+rel+" cleared", func() bool {
			p, n := lastPublish(c, u)
			return n > 0 && rawPublish(t, c, u, n-1) == `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"`+u+`","diagnostics":[]}}` && p.Version == nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if got := symbolURIs(t, c, "App.Tools.Notes"); !slices.Equal(got, []string{uri(a, notesRel)}) {
		t.Errorf("symbols with b removed: %q, want a's alone", got)
	}
	if got := symbolURIs(t, c, "tasks.create"); len(got) == 0 || slices.ContainsFunc(got, func(u string) bool { return u != uri(a, schemasRel) }) {
		t.Errorf("tasks.create with b removed: %q, want a's schemas.ex alone", got)
	}
	if n := len(c.Publishes(uri(a, notesRel))); n != aNotes {
		t.Errorf("a's notes.ex published %d more times by b's removal", n-aNotes)
	}

	// Overlap: b and b/lib added, b removed: lib's files stay. A folder
	// that does not exist is added and removed harmlessly. Then c3 is
	// added: folder work is done in order, so once c3's notes.ex is
	// published every change before has been analysed.
	change([]string{folder(b), folder(filepath.Join(b, "lib")), folder(filepath.Join(b, "lib"))}, nil)
	waitDiags("b's notes.ex again", uri(b, notesRel), notesWant)
	missing := filepath.Join(t.TempDir(), "missing")
	change([]string{folder(missing)}, []string{folder(b)})
	change(nil, []string{folder(missing)})
	change([]string{folder(c3)}, nil)
	waitDiags("c3's notes.ex", uri(c3, notesRel), notesWant)
	if p, _ := lastPublish(c, uri(b, notesRel)); diagJSON(t, p) != notesWant {
		t.Errorf("b/lib's notes.ex after b's removal: %s", diagJSON(t, p))
	}
	if got := symbolURIs(t, c, "App.Tools.Notes"); len(got) != 3 || !slices.Contains(got, uri(b, notesRel)) {
		t.Errorf("symbols with b/lib kept: %q", got)
	}
	change(nil, []string{folder(filepath.Join(b, "lib"))})
	if err := c.WaitFor(ctx, "b/lib's notes.ex cleared", func() bool {
		p, n := lastPublish(c, uri(b, notesRel))
		return n > 0 && len(p.Diagnostics) == 0
	}); err != nil {
		t.Fatal(err)
	}

	// An open buffer of a removed folder keeps its diagnostics until closed.
	disk, err := os.ReadFile(filepath.Join(c3, notesRel))
	if err != nil {
		t.Fatal(err)
	}
	cNotes := uri(c3, notesRel)
	if err := c.Open(cNotes, 1, string(disk)); err != nil {
		t.Fatal(err)
	}
	if p, err := c.WaitVersion(ctx, cNotes, 1); err != nil || diagJSON(t, p) != notesWant {
		t.Fatalf("open c3's notes.ex: %v %s", err, diagJSON(t, p))
	}
	change(nil, []string{folder(c3)})
	if err := c.WaitFor(ctx, "c3's schemas.ex cleared", func() bool {
		p, n := lastPublish(c, uri(c3, schemasRel))
		return n > 0 && len(p.Diagnostics) == 0
	}); err != nil {
		t.Fatal(err)
	}
	if p, _ := lastPublish(c, cNotes); diagJSON(t, p) != notesWant {
		t.Errorf("open c3's notes.ex after c3's removal: %s", diagJSON(t, p))
	}
	if err := c.CloseDoc(cNotes); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "c3's notes.ex cleared on close", func() bool {
		p, _ := lastPublish(c, cNotes)
		return p.Version == nil && len(p.Diagnostics) == 0
	}); err != nil {
		t.Fatal(err)
	}
	if got := symbolURIs(t, c, "App.Tools.Notes"); !slices.Equal(got, []string{uri(a, notesRel)}) {
		t.Errorf("symbols at the end: %q, want a's alone", got)
	}
}

// TestWorkspaceFoldersPull: a client that pulls is asked to pull again
// (workspace/diagnostic/refresh) once an added folder is indexed and once
// a removed one is forgotten; workspace/diagnostic then reports the added
// folder's offences, and after the removal an empty "full" report with a
// new resultId for each of its files the client had a result for.
func TestWorkspaceFoldersPull(t *testing.T) {
	a, b := copyExample(t), copyExample(t)
	c, _ := startRealWith(t, a, pullCaps)
	ctx := testCtx(t)
	refreshes := func(n int) {
		t.Helper()
		if err := c.WaitFor(ctx, fmt.Sprintf("refresh %d", n), func() bool {
			return len(c.ServerRequests("workspace/diagnostic/refresh")) >= n
		}); err != nil {
			t.Fatal(err)
		}
	}
	type wsReport struct{ Items []wireReport }
	pull := func(prev []map[string]string) map[string]wireReport {
		t.Helper()
		var ws wsReport
		if prev == nil {
			prev = []map[string]string{}
		}
		if err := c.Request(ctx, "workspace/diagnostic", map[string]any{"previousResultIds": prev}, &ws); err != nil {
			t.Fatal(err)
		}
		out := map[string]wireReport{}
		for _, r := range ws.Items {
			out[r.URI] = r
		}
		return out
	}
	refreshes(1)
	if got := pull(nil); len(got) != 2 {
		t.Fatalf("before b: %d reports, want 2: %+v", len(got), got)
	}
	if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{workspace.PathURI(b)}, nil)); err != nil {
		t.Fatal(err)
	}
	refreshes(2)
	got := pull(nil)
	bNotes := workspace.PathURI(filepath.Join(b, "lib/app/tools/notes.ex"))
	bSchemas := workspace.PathURI(filepath.Join(b, "lib/app/tools/schemas.ex"))
	notesItem := `{"range":{"start":{"line":16,"character":4},"end":{"line":16,"character":11}},"severity":1,"code":"unknown-key","source":"wymcp","message":"actions :archived, :pinned, :recent: unknown key :example; fix: did you mean :examples?"}`
	if r := got[bNotes]; len(got) != 4 || r.Kind != "full" || len(r.Items) != 1 || string(r.Items[0]) != notesItem {
		t.Fatalf("with b: %d reports; b's notes.ex %+v", len(got), r)
	}
	if codes := strings.Join(got[bSchemas].codes(t), ","); codes != "undeclared-default,undeclared-field" {
		t.Errorf("b's schemas.ex codes %s", codes)
	}
	var prev []map[string]string
	for u, r := range got {
		prev = append(prev, map[string]string{"uri": u, "value": r.ResultID})
	}
	if err := c.Notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, []string{workspace.PathURI(b)})); err != nil {
		t.Fatal(err)
	}
	refreshes(3)
	after := pull(prev)
	for u, r := range after {
		was := got[u]
		switch u {
		case bNotes, bSchemas:
			if r.Kind != "full" || r.Items == nil || len(r.Items) != 0 || r.ResultID == was.ResultID || r.Version != nil {
				t.Errorf("b's %s after the removal: %+v, want an empty full report with a new id", u, r)
			}
		default:
			if r.Kind != "unchanged" || r.ResultID != was.ResultID {
				t.Errorf("a's %s after b's removal: %+v, want unchanged", u, r)
			}
		}
	}
	if len(after) != 4 {
		t.Errorf("after the removal: %d reports, want 4", len(after))
	}
	var doc wireReport
	if err := c.Request(ctx, "textDocument/diagnostic", map[string]any{"textDocument": map[string]string{"uri": bNotes}}, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "full" || len(doc.Items) != 0 {
		t.Errorf("textDocument/diagnostic of b's notes.ex: %+v, want full and empty", doc)
	}
	if n := len(c.Notifications("textDocument/publishDiagnostics")); n != 0 {
		t.Errorf("a pulling client was pushed %d publishDiagnostics", n)
	}
}
