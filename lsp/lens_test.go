package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// catalogLens is the code lens line of testdata/listing/lib/catalog.ex:
// the same figures `wymcp-ls tools-list` and `help-preview --tool catalog`
// print for it (testdata/golden/tools-list-listing.golden,
// help-preview-listing-tool.golden).
const catalogLens = "tools/list: 428 bytes, 98 tokens; help: 507 bytes, 128 tokens (o200k_base)"

func openCatalog(t *testing.T) (*lsptest.Client, *curDoc) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "listing", "lib", "catalog.ex"))
	if err != nil {
		t.Fatal(err)
	}
	cl, docs := curOpen(t, map[string]string{"lib/catalog.ex": string(src)})
	return cl, docs["lib/catalog.ex"]
}

func TestCodeLens(t *testing.T) {
	cl, d := openCatalog(t)
	var lenses []struct {
		Range   lsp.Range `json:"range"`
		Command struct {
			Title     string `json:"title"`
			Command   string `json:"command"`
			Arguments []any  `json:"arguments"`
		} `json:"command"`
	}
	if err := cl.Request(testCtx(t), "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": d.uri}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 1 {
		t.Fatalf("lenses: %+v", lenses)
	}
	l := lenses[0]
	// `def actions do` is line 25 (0-based 24); the lens range is `def actions`.
	if want := (lsp.Range{Start: lsp.Position{Line: 24, Character: 2}, End: lsp.Position{Line: 24, Character: 13}}); l.Range != want {
		t.Errorf("range %+v, want %+v", l.Range, want)
	}
	if l.Command.Title != catalogLens || l.Command.Command != lsp.CommandShowListing {
		t.Errorf("command %+v", l.Command)
	}
	if len(l.Command.Arguments) != 2 || l.Command.Arguments[0] != d.uri || l.Command.Arguments[1] != "Shop.Tools.Catalog" {
		t.Errorf("arguments %v", l.Command.Arguments)
	}

	// The command returns the JSON the lens measures, byte for byte.
	var raw json.RawMessage
	if err := cl.Request(testCtx(t), "workspace/executeCommand", map[string]any{"command": lsp.CommandShowListing, "arguments": l.Command.Arguments}, &raw); err != nil {
		t.Fatal(err)
	}
	var prev struct {
		Tool, Figures  string
		ToolsListEntry json.RawMessage
		Help           json.RawMessage
	}
	if err := json.Unmarshal(raw, &prev); err != nil {
		t.Fatal(err)
	}
	if prev.Tool != "Shop.Tools.Catalog" || prev.Figures != catalogLens {
		t.Errorf("preview %s %s", prev.Tool, prev.Figures)
	}
	if len(prev.ToolsListEntry) != 428 || len(prev.Help) != 507 {
		t.Errorf("sizes %d and %d, want 428 and 507", len(prev.ToolsListEntry), len(prev.Help))
	}
	if !strings.HasPrefix(string(prev.ToolsListEntry), `{"annotations":{"readOnlyHint":true,"openWorldHint":false},"description":"Browse the catalogue: products and prices",`) {
		t.Errorf("entry %s", prev.ToolsListEntry)
	}
	if !strings.HasSuffix(string(prev.Help), `},"description":"Browse the catalogue: products and prices","tool":"catalog"}`) {
		t.Errorf("help %s", prev.Help)
	}
}

func TestExecuteCommandErrors(t *testing.T) {
	cl, d := openCatalog(t)
	tests := []struct {
		name   string
		params any
		code   int64
		msg    string
	}{
		{"unknown command", map[string]any{"command": "wymcp.nope", "arguments": []any{}}, -32602, `invalid params: unknown command "wymcp.nope"`},
		{"missing arguments", map[string]any{"command": lsp.CommandShowListing}, -32602, "invalid params: wymcp.showListing takes a document URI and a module name"},
		{"wrong argument type", map[string]any{"command": lsp.CommandShowListing, "arguments": []any{1, 2}}, -32602, "invalid params: wymcp.showListing takes a document URI and a module name"},
		// A null argument is no URI or module name (it was taken as "").
		{"null module name", map[string]any{"command": lsp.CommandShowListing, "arguments": []any{d.uri, nil}}, -32602, "invalid params: wymcp.showListing takes a document URI and a module name"},
		{"null URI", map[string]any{"command": lsp.CommandShowListing, "arguments": []any{nil, "Shop.Tools.Catalog"}}, -32602, "invalid params: wymcp.showListing takes a document URI and a module name"},
		{"no such tool", map[string]any{"command": lsp.CommandShowListing, "arguments": []any{d.uri, "Shop.Nope"}}, -32803, "no tool module Shop.Nope reads " + d.uri},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cl.Request(testCtx(t), "workspace/executeCommand", tt.params, nil)
			re, ok := err.(*lsptest.ResponseError)
			if !ok || int64(re.Code) != tt.code || re.Message != tt.msg {
				t.Errorf("error %v, want %d %s", err, tt.code, tt.msg)
			}
		})
	}
}

func TestHoverToolName(t *testing.T) {
	cl, d := openCatalog(t)
	// `@name "catalog"` is line 5 (0-based 4): name/0 returns @name.
	var h struct {
		Contents struct{ Kind, Value string }
		Range    lsp.Range
	}
	if err := cl.Request(testCtx(t), "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": d.uri}, "position": lsp.Position{Line: 4, Character: 10}}, &h); err != nil {
		t.Fatal(err)
	}
	if want := "**tool `catalog`** (Shop.Tools.Catalog): what the LLM is shown\n\n" + catalogLens; !strings.HasSuffix(h.Contents.Value, want) {
		t.Errorf("hover %q, want it to end with %q", h.Contents.Value, want)
	}
	if want := (lsp.Range{Start: lsp.Position{Line: 4, Character: 8}, End: lsp.Position{Line: 4, Character: 17}}); h.Range != want {
		t.Errorf("range %+v, want %+v", h.Range, want)
	}
}

// Without Options.Tokens there are no figures: the code lens request
// fails and says why, and the name/0 string, which only the figures
// explain, has no hover.
func TestLensWithoutTokenCounter(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "listing", "lib", "catalog.ex"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	cl := lsptest.Start(t, lsp.Options{Analyzer: ws})
	if _, err := cl.Initialize(testCtx(t), map[string]any{"rootUri": workspace.PathURI(root), "capabilities": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	uri := workspace.PathURI(filepath.Join(root, "lib", "catalog.ex"))
	if err := cl.Open(uri, 1, string(src)); err != nil {
		t.Fatal(err)
	}
	var lenses json.RawMessage
	err = cl.Request(testCtx(t), "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
	if err == nil || err.Error() != "-32803: listing: no token counter" {
		t.Errorf("codeLens without a counter: %v, %s", err, lenses)
	}
	var h json.RawMessage
	if err := cl.Request(testCtx(t), "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsp.Position{Line: 4, Character: 10}}, &h); err != nil || string(h) != "null" {
		t.Errorf("hover on name/0 without a counter: %s, %v", h, err)
	}
}
