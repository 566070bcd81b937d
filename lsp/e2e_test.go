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

// copyExample copies testdata/example into a temp dir the test may change.
func copyExample(t *testing.T) string {
	t.Helper()
	return copyTree(t, "example")
}

// startReal runs the server over the real workspace, initialised on root.
func startReal(t *testing.T, root string) *lsptest.Client {
	t.Helper()
	ws := workspace.New(workspace.Options{SyntaxSeverity: validate.Warning})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Tokens: bpe.New(tokenizer.O200kBase)})
	_, err := c.Initialize(testCtx(t), map[string]any{
		"rootUri":      workspace.PathURI(root),
		"capabilities": map[string]any{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func diagJSON(t *testing.T, p lsp.PublishDiagnosticsParams) string {
	t.Helper()
	b, err := json.Marshal(p.Diagnostics)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEndToEndExample drives the real server over the example project:
// indexing publishes every offence at its exact UTF-16 range; fixing a
// Schemas module in a buffer publishes [] with the fixing version; closing
// a buffer whose disk file still has the offence publishes it again;
// deleting the Schemas module leaves the reading tool unresolved, not crashed.
func TestEndToEndExample(t *testing.T) {
	root := copyExample(t)
	c := startReal(t, root)
	ctx := testCtx(t)
	notes := workspace.PathURI(filepath.Join(root, "lib/app/tools/notes.ex"))
	schemas := workspace.PathURI(filepath.Join(root, "lib/app/tools/schemas.ex"))
	tasks := workspace.PathURI(filepath.Join(root, "lib/app/tools/tasks.ex"))

	p, err := c.WaitPublish(ctx, notes, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"range":{"start":{"line":16,"character":4},"end":{"line":16,"character":11}},"severity":1,"code":"unknown-key","source":"wymcp","message":"actions :archived, :pinned, :recent: unknown key :example; fix: did you mean :examples?"}]`
	if got := diagJSON(t, p); got != want {
		t.Errorf("notes.ex diagnostics:\n got %s\nwant %s", got, want)
	}
	p, err = c.WaitPublish(ctx, schemas, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = `[{"range":{"start":{"line":17,"character":47},"end":{"line":17,"character":55}},"severity":1,"code":"undeclared-default","source":"wymcp","message":"action :create :defaults[\"opts\"]: default key \"silent\" is not declared by :properties[\"opts\"][\"properties\"]; fix: declare \"silent\" in :properties[\"opts\"][\"properties\"] or remove it from :defaults[\"opts\"]","relatedInformation":[{"location":{"uri":"` + tasks + `","range":{"start":{"line":0,"character":10},"end":{"line":0,"character":25}}},"message":"read by tool App.Tools.Tasks"}]},` +
		`{"range":{"start":{"line":28,"character":15},"end":{"line":28,"character":22}},"severity":1,"code":"undeclared-field","source":"wymcp","message":"action :list: :required names \"state\", which :properties does not declare; fix: did you mean \"status\"? else declare \"state\" in :properties or remove it from :required","relatedInformation":[{"location":{"uri":"` + tasks + `","range":{"start":{"line":0,"character":10},"end":{"line":0,"character":25}}},"message":"read by tool App.Tools.Tasks"}]}]`
	if got := diagJSON(t, p); got != want {
		t.Errorf("schemas.ex diagnostics:\n got %s\nwant %s", got, want)
	}

	// Open schemas.ex and fix both offences with incremental edits.
	disk, err := os.ReadFile(filepath.Join(root, "lib/app/tools/schemas.ex"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(schemas, 1, string(disk)); err != nil {
		t.Fatal(err)
	}
	if p, err = c.WaitVersion(ctx, schemas, 1); err != nil || len(p.Diagnostics) != 2 {
		t.Fatalf("open: %v, %d diagnostics", err, len(p.Diagnostics))
	}
	// `"state"` on line 28 (0-based) -> `"status"`; `, "silent" => true` on line 17 removed.
	if err := c.ChangeText(schemas, 2, lsptest.Edit(28, 16, 28, 21, "status")); err != nil {
		t.Fatal(err)
	}
	if p, err = c.WaitVersion(ctx, schemas, 2); err != nil || len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "undeclared-default" {
		t.Fatalf("after the first fix: %v, %+v", err, p.Diagnostics)
	}
	if err := c.ChangeText(schemas, 3, lsptest.Edit(17, 45, 17, 63, "")); err != nil {
		t.Fatal(err)
	}
	if p, err = c.WaitVersion(ctx, schemas, 3); err != nil {
		t.Fatal(err)
	}
	if got := rawPublish(t, c, schemas, len(c.Publishes(schemas))-1); got != `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"`+schemas+`","version":3,"diagnostics":[]}}` {
		t.Errorf("fixing publish: %s", got)
	}

	// Closing: the disk file still holds both offences; they come back without a version.
	if err := c.CloseDoc(schemas); err != nil {
		t.Fatal(err)
	}
	err = c.WaitFor(ctx, "re-publish after close", func() bool {
		ps := c.Publishes(schemas)
		last := ps[len(ps)-1]
		return last.Version == nil && len(last.Diagnostics) == 2
	})
	if err != nil {
		t.Fatal(err)
	}

	// Deleting schemas.ex (a watched-file event): the tool cannot resolve
	// Schemas.all() any more, which is opaque: the offences go, nothing crashes.
	if err := os.Remove(filepath.Join(root, "lib/app/tools/schemas.ex")); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": schemas, "type": 3}}}); err != nil {
		t.Fatal(err)
	}
	err = c.WaitFor(ctx, "empty publish after delete", func() bool {
		ps := c.Publishes(schemas)
		return len(ps[len(ps)-1].Diagnostics) == 0
	})
	if err != nil {
		t.Fatal(err)
	}
	// The server still answers.
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Publishes(tasks) {
		if len(p.Diagnostics) != 0 {
			t.Errorf("tasks.ex got diagnostics %+v", p.Diagnostics)
		}
	}
}

// TestEndToEndBrokenBuffers opens buffers that must never crash or hang
// the server (docs/architecture.md "Robustness"), then checks the server still answers and still
// finds an offence.
func TestEndToEndBrokenBuffers(t *testing.T) {
	c := startReal(t, t.TempDir())
	ctx := testCtx(t)
	bufs := map[string]string{
		"empty":      "",
		"newlines":   "\n\n",
		"openmodule": "defmodule A do",
		"bareat":     "defmodule B do\n  use Wymcp.Tool\n  @\n  @run %{description: \"R\", properties: %{}}\n  def actions, do: %{run: @run}\nend\n",
		"heredoc":    "defmodule C do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"\"\"\n  unterminated\n",
		"invalid":    "defmodule D do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"\xff\xfe\", propertes: %{}}}\nend\n",
		"big":        "defmodule E do\n  use Wymcp.Tool\n  def actions, do: %{a: %{properties: %{}}}\nend\n" + strings.Repeat("# pad\n", 400000),
	}
	v := int32(1)
	for name, text := range bufs {
		uri := "untitled:" + name
		if err := c.Open(uri, v, text); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitVersion(ctx, uri, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// The invalid-UTF-8 buffer still gets its offences, at exact ranges.
	ps := c.Publishes("untitled:invalid")
	got := diagJSON(t, ps[len(ps)-1])
	want := `[{"range":{"start":{"line":2,"character":24},"end":{"line":2,"character":26}},"severity":1,"code":"missing-key","source":"wymcp","message":"action :a: missing mandatory key :properties; fix: add properties: %{...}"},` +
		`{"range":{"start":{"line":2,"character":45},"end":{"line":2,"character":54}},"severity":1,"code":"unknown-key","source":"wymcp","message":"action :a: unknown key :propertes; fix: did you mean :properties?"}]`
	if got != want {
		t.Errorf("invalid UTF-8 buffer:\n got %s\nwant %s", got, want)
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsSwitchLints: the "wymcp" section pulled through
// workspace/configuration switches a lint off, and a pushed
// didChangeConfiguration switches it back on.
func TestSettingsSwitchLints(t *testing.T) {
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Tokens: bpe.New(tokenizer.O200kBase)})
	ctx := testCtx(t)
	c.OnRequest(func(method string, params json.RawMessage) (any, *lsptest.ResponseError) {
		if method == "workspace/configuration" {
			if string(params) != `{"items":[{"section":"wymcp"}]}` {
				t.Errorf("configuration params %s", params)
			}
			return []any{map[string]any{"lints": map[string]bool{"lint/unknown-type": false}}}, nil
		}
		return nil, nil
	})
	uri := "untitled:lint"
	if _, err := c.Initialize(ctx, map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Open(uri, 1, "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\"}}}}\nend\n"); err != nil {
		t.Fatal(err)
	}
	err := c.WaitFor(ctx, "lint switched off", func() bool {
		ps := c.Publishes(uri)
		return len(ps) > 0 && len(ps[len(ps)-1].Diagnostics) == 0 && len(c.ServerRequests("workspace/configuration")) == 1
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wymcp": map[string]any{"lints": map[string]bool{"lint/unknown-type": true}}}}); err != nil {
		t.Fatal(err)
	}
	err = c.WaitFor(ctx, "lint switched on", func() bool {
		ps := c.Publishes(uri)
		d := ps[len(ps)-1].Diagnostics
		return len(d) == 1 && d[0].Code == "lint/unknown-type" && d[0].Severity == 2
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSettingsLenientAndNull: one mistyped switch does not discard the
// others, and a null section returns to the defaults.
func TestSettingsLenientAndNull(t *testing.T) {
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Tokens: bpe.New(tokenizer.O200kBase)})
	ctx := testCtx(t)
	if _, err := c.Initialize(ctx, nil); err != nil {
		t.Fatal(err)
	}
	uri := "untitled:lint2"
	src := "defmodule L do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"A\", properties: %{\"x\" => %{\"type\" => \"str\", \"descripton\" => \"d\"}}}}\nend\n"
	if err := c.Open(uri, 1, src); err != nil {
		t.Fatal(err)
	}
	codesOf := func() string {
		ps := c.Publishes(uri)
		var out []string
		for _, d := range ps[len(ps)-1].Diagnostics {
			out = append(out, d.Code)
		}
		return strings.Join(out, " ")
	}
	waitCodes := func(want string) {
		t.Helper()
		if err := c.WaitFor(ctx, "codes "+want, func() bool { return len(c.Publishes(uri)) > 0 && codesOf() == want }); err != nil {
			t.Fatalf("%v (last: %q)", err, codesOf())
		}
	}
	waitCodes("lint/unknown-type lint/unknown-keyword")
	push := func(section any) {
		if err := c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wymcp": section}}); err != nil {
			t.Fatal(err)
		}
	}
	push(map[string]any{"lints": map[string]any{"lint/unknown-type": false, "lint/unknown-keyword": 0}})
	waitCodes("lint/unknown-keyword")
	push(nil)
	waitCodes("lint/unknown-type lint/unknown-keyword")
	// A null switch is not false either: it is ignored, as 0 is, and does
	// not turn its lint off (it did, as JSON null decodes into false).
	push(map[string]any{"lints": map[string]any{"lint/unknown-type": nil, "lint/unknown-keyword": false}})
	waitCodes("lint/unknown-type")
}

// TestBufferUnderAnotherURIPublishedLast: a buffer opened under another
// URI of a file on disk (VS Code writes "my%2Bproj" where the server's
// own URI keeps "my+proj") takes the file over: the disk URI's diagnostics
// are cleared and the buffer's published. VS Code reads both URIs as one
// resource and keeps the last publish, so the clear comes first.
func TestBufferUnderAnotherURIPublishedLast(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my+proj")
	tool := "defmodule D do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"x\", propertes: %{}}}\nend\n"
	for name, text := range map[string]string{"mix.exs": "defmodule M.MixProject do\nend\n", "lib/t.ex": tool} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startReal(t, root)
	ctx := testCtx(t)
	disk := workspace.PathURI(filepath.Join(root, "lib", "t.ex"))
	if _, err := c.WaitPublish(ctx, disk, nil); err != nil {
		t.Fatal(err)
	}
	client := strings.Replace(disk, "my+proj", "my%2Bproj", 1)
	if err := c.Open(client, 1, tool); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, client, 1); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "the disk URI cleared", func() bool { return len(c.Publishes(disk)) == 2 }); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range c.Notifications("textDocument/publishDiagnostics") {
		var p lsp.PublishDiagnosticsParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		order = append(order, fmt.Sprintf("%s:%d", map[bool]string{true: "disk", false: "client"}[p.URI == disk], len(p.Diagnostics)))
	}
	if got, want := strings.Join(order, " "), "disk:2 disk:0 client:2"; got != want {
		t.Errorf("publishes %s, want %s", got, want)
	}
}
