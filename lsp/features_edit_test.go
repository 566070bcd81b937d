package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/workspace"
)

// fixCase is one fixture of testdata/authoring/fixes: a header of
// `key: value` lines, then files in txtar style (`-- name --`). Files under
// want/ are the expected result of applying the fix; a file without a
// want/ twin must not be edited.
//
// Header keys: code (the diagnostic's code), in (the file it is shown in),
// match (optional: a substring of its message, to pick one of several),
// title (the action's exact title), preferred (true or false).
type fixCase struct {
	name   string
	header map[string]string
	files  map[string]string
	want   map[string]string
	order  []string
}

func readFixCase(t *testing.T, path string) fixCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := fixCase{name: filepath.Base(path), header: map[string]string{}, files: map[string]string{}, want: map[string]string{}}
	var cur *strings.Builder
	var curName string
	flush := func() {
		if cur == nil {
			return
		}
		if rest, ok := strings.CutPrefix(curName, "want/"); ok {
			c.want[rest] = cur.String()
		} else {
			c.files[curName] = cur.String()
			c.order = append(c.order, curName)
		}
	}
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimRight(line, "\n"), " --") {
			flush()
			curName = strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(line, "\n"), "-- "), " --")
			cur = &strings.Builder{}
			continue
		}
		if cur != nil {
			cur.WriteString(line)
			continue
		}
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			c.header[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	flush()
	for _, k := range []string{"code", "in", "title", "preferred"} {
		if c.header[k] == "" {
			t.Fatalf("%s: header %q missing", path, k)
		}
	}
	return c
}

// editWireAction is a code action as the client decodes it.
type editWireAction struct {
	Title       string            `json:"title"`
	Kind        string            `json:"kind"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
	IsPreferred bool              `json:"isPreferred"`
	Edit        struct {
		Changes map[string][]struct {
			Range   lsp.Range `json:"range"`
			NewText string    `json:"newText"`
		} `json:"changes"`
	} `json:"edit"`
}

// applyWire applies LSP text edits (UTF-16 ranges) to text, as a client does.
func applyWire(t *testing.T, text string, edits []struct {
	Range   lsp.Range `json:"range"`
	NewText string    `json:"newText"`
}) string {
	t.Helper()
	m := positions.NewMapper([]byte(text))
	type bedit struct {
		s, e int
		text string
	}
	var bs []bedit
	for _, e := range edits {
		sp := m.Span(positions.Range{StartLine: e.Range.Start.Line, StartChar: e.Range.Start.Character, EndLine: e.Range.End.Line, EndChar: e.Range.End.Character})
		bs = append(bs, bedit{sp.Start, sp.End, e.NewText})
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].s < bs[j].s })
	for i := 1; i < len(bs); i++ {
		if bs[i].s < bs[i-1].e {
			t.Fatalf("overlapping edits %+v", bs)
		}
	}
	out := text
	for i := len(bs) - 1; i >= 0; i-- {
		out = out[:bs[i].s] + bs[i].text + out[bs[i].e:]
	}
	return out
}

// problemKeys analyses files (name -> text, under root) with a fresh
// workspace and returns each problem as "name|code|message", sorted.
func problemKeys(t *testing.T, root string, files map[string]string) []string {
	t.Helper()
	ws := workspace.New(workspace.Options{})
	defer ws.Close()
	byURI := map[string]string{}
	for name, text := range files {
		uri := workspace.PathURI(filepath.Join(root, name))
		byURI[uri] = name
		ws.SetOverlay(uri, 1, []byte(text))
	}
	var out []string
	for _, r := range ws.Diagnose(context.Background()) {
		for _, p := range r.Problems {
			out = append(out, byURI[r.URI]+"|"+p.Code+"|"+p.Text())
		}
	}
	sort.Strings(out)
	return out
}

// TestQuickFixFixtures tests the code actions of README.md "Quick fixes (code actions)":
// for each fixture, the server offers the expected quick fix for the
// diagnostic, naming that diagnostic; applying its edits gives exactly the
// want/ files, which parse without error, and re-analysing them makes the
// diagnostic disappear without introducing any other.
func TestQuickFixFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "authoring", "fixes", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		c := readFixCase(t, path)
		t.Run(strings.TrimSuffix(c.name, ".txt"), func(t *testing.T) {
			t.Parallel()
			runFixCase(t, c)
		})
	}
}

func runFixCase(t *testing.T, c fixCase) {
	ctx := testCtx(t)
	root := t.TempDir()
	for name, text := range c.files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cl := startReal(t, root)
	uri := workspace.PathURI(filepath.Join(root, c.header["in"]))
	if _, ok := c.files[c.header["in"]]; !ok {
		t.Fatalf("in: %s is not a fixture file", c.header["in"])
	}
	for _, name := range c.order {
		if err := cl.Open(workspace.PathURI(filepath.Join(root, name)), 1, c.files[name]); err != nil {
			t.Fatal(err)
		}
	}
	var diags []json.RawMessage
	var target json.RawMessage
	var targetRange lsp.Range
	err := cl.WaitFor(ctx, "the fixture's diagnostic", func() bool {
		ps := cl.Publishes(uri)
		if len(ps) == 0 || ps[len(ps)-1].Version == nil || *ps[len(ps)-1].Version != 1 {
			return false
		}
		diags, target = nil, nil
		for _, d := range ps[len(ps)-1].Diagnostics {
			b, _ := json.Marshal(d)
			diags = append(diags, b)
			if target == nil && d.Code == c.header["code"] && strings.Contains(d.Message, c.header["match"]) {
				target, targetRange = b, d.Range
			}
		}
		return target != nil
	})
	if err != nil {
		t.Fatalf("%v; published %+v", err, cl.Publishes(uri))
	}

	var actions []editWireAction
	err = cl.Request(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        targetRange,
		"context":      map[string]any{"diagnostics": diags},
	}, &actions)
	if err != nil {
		t.Fatal(err)
	}
	var act *editWireAction
	var titles []string
	for i := range actions {
		titles = append(titles, actions[i].Title)
		if actions[i].Title == c.header["title"] {
			act = &actions[i]
		}
	}
	if act == nil {
		t.Fatalf("no action titled %q; got %q", c.header["title"], titles)
	}
	if act.Kind != "quickfix" || len(act.Diagnostics) != 1 || string(act.Diagnostics[0]) != string(target) {
		t.Errorf("action kind %q diagnostics %s; want quickfix and [%s]", act.Kind, act.Diagnostics, target)
	}
	if want := c.header["preferred"] == "true"; act.IsPreferred != want {
		t.Errorf("isPreferred %v, want %v", act.IsPreferred, want)
	}

	after := map[string]string{}
	for name, text := range c.files {
		after[name] = text
	}
	for u, edits := range act.Edit.Changes {
		name, err := filepath.Rel(root, workspace.URIPath(u))
		if err != nil || c.files[name] == "" {
			t.Fatalf("edit for unknown document %s", u)
		}
		after[name] = applyWire(t, after[name], edits)
	}
	for name, text := range after {
		want, ok := c.want[name]
		if !ok {
			want = c.files[name]
		}
		if text != want {
			t.Errorf("%s after the fix:\n%s\nwant:\n%s", name, text, want)
		}
		p := elixir.NewParser()
		f := p.Parse(ctx, name, []byte(text))
		p.Close()
		if len(f.Errors) > 0 {
			t.Errorf("%s does not parse after the fix: %+v", name, f.Errors)
		}
	}

	before := problemKeys(t, root, c.files)
	now := problemKeys(t, root, after)
	var td lsp.Diagnostic
	if err := json.Unmarshal(target, &td); err != nil {
		t.Fatal(err)
	}
	fixed := c.header["in"] + "|" + td.Code + "|" + td.Message
	if countKey(now, fixed) >= countKey(before, fixed) {
		t.Errorf("the diagnostic %q is still there: %q", fixed, now)
	}
	left := append([]string(nil), before...)
	for _, k := range now {
		i := indexKey(left, k)
		if i < 0 {
			t.Errorf("the fix introduced %q (before: %q)", k, before)
			continue
		}
		left = append(left[:i], left[i+1:]...)
	}
}

func countKey(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func indexKey(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// openEditDoc starts the real server on an empty folder and opens text as
// untitled:<name>, waiting for its first diagnostics.
func openEditDoc(t *testing.T, name, text string) (*lsptest.Client, string, lsp.PublishDiagnosticsParams) {
	t.Helper()
	cl := startReal(t, t.TempDir())
	uri := "untitled:" + name
	if err := cl.Open(uri, 1, text); err != nil {
		t.Fatal(err)
	}
	p, err := cl.WaitVersion(testCtx(t), uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	return cl, uri, p
}

func editRange(sl, sc, el, ec int) lsp.Range {
	return lsp.Range{Start: lsp.Position{Line: sl, Character: sc}, End: lsp.Position{Line: el, Character: ec}}
}

func editRaw(t *testing.T, cl *lsptest.Client, method string, params any) string {
	t.Helper()
	m, err := cl.Call(testCtx(t), method, params)
	if err != nil {
		t.Fatal(err)
	}
	if m.Error != nil {
		return "error " + m.Error.Error()
	}
	return string(m.Result)
}

const interpolatedTool = "defmodule Fix.Interp do\n" +
	"  use Wymcp.Tool\n" +
	"  @label \"Item #{<<c>>} and #{\"n#{1}\"}\"\n" +
	"  def actions, do: %{run: %{notes: \"Item #{<<c>>} and #{\"n#{1}\"}\", descripton: \"Ünïcode 🎉\", properties: %{}}}\n" +
	"end\n"

// TestCodeActionWire checks the wire form of code actions: the client's
// diagnostic echoed when range and code match, the server's own diagnostic
// when the client sends none (stale), exact UTF-16 ranges after an
// interpolated bitstring and multi-byte characters, the "only" filter,
// odd ranges and unknown documents.
func TestCodeActionWire(t *testing.T) {
	cl, uri, p := openEditDoc(t, "interp.ex", interpolatedTool)
	if len(p.Diagnostics) != 2 {
		t.Fatalf("diagnostics %+v", p.Diagnostics)
	}
	// The client's diagnostic object, with an extra member, comes back as is.
	clientDiag := json.RawMessage(`{"range":{"start":{"line":3,"character":67},"end":{"line":3,"character":77}},"code":"unknown-key","message":"as the client has it","data":{"x":1}}`)
	got := editRaw(t, cl, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        editRange(3, 70, 3, 70),
		"context":      map[string]any{"diagnostics": []json.RawMessage{clientDiag}},
	})
	want := `[{"title":"Rename descripton to :description","kind":"quickfix","diagnostics":[` + string(clientDiag) + `],"isPreferred":true,` +
		`"edit":{"changes":{"untitled:interp.ex":[{"range":{"start":{"line":3,"character":67},"end":{"line":3,"character":77}},"newText":"description"}]}}}]`
	if got != want {
		t.Errorf("with the client's diagnostic:\n got %s\nwant %s", got, want)
	}
	// Without context diagnostics, the fix names the fresh diagnostic. The
	// addition of :description is not preferred: descripton: is its typo.
	got = editRaw(t, cl, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        editRange(3, 0, 3, 100),
		"context":      map[string]any{"diagnostics": []any{}},
	})
	want = `[{"title":"Add description: \"\"","kind":"quickfix","diagnostics":[{"range":{"start":{"line":3,"character":26},"end":{"line":3,"character":28}},"severity":1,"code":"missing-key","source":"wymcp","message":"action :run: missing mandatory key :description; fix: add description: \"...\""}],` +
		`"edit":{"changes":{"untitled:interp.ex":[{"range":{"start":{"line":3,"character":28},"end":{"line":3,"character":28}},"newText":"description: \"\", "}]}}},` +
		`{"title":"Rename descripton to :description","kind":"quickfix","diagnostics":[{"range":{"start":{"line":3,"character":67},"end":{"line":3,"character":77}},"severity":1,"code":"unknown-key","source":"wymcp","message":"action :run: unknown key :descripton; fix: did you mean :description?"}],"isPreferred":true,` +
		`"edit":{"changes":{"untitled:interp.ex":[{"range":{"start":{"line":3,"character":67},"end":{"line":3,"character":77}},"newText":"description"}]}}}]`
	if got != want {
		t.Errorf("without context:\n got %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		name   string
		params any
		want   string
	}{
		{"only refactor", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": editRange(3, 70, 3, 70), "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, `[]`},
		{"outside every offence", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": editRange(0, 0, 0, 3), "context": map[string]any{"diagnostics": []any{}}}, `[]`},
		{"negative and past the end", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": editRange(-5, -1, 900, 900), "context": map[string]any{}}, ""},
		{"inside a multi-byte character", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": editRange(3, 89, 3, 89), "context": map[string]any{}}, `[]`},
		{"unknown document", map[string]any{"textDocument": map[string]any{"uri": "untitled:nope"}, "range": editRange(0, 0, 0, 0), "context": map[string]any{}}, "error -32803: workspace: unknown document untitled:nope"},
		{"null params", nil, "error -32602: invalid params: params must be an object"},
	} {
		got := editRaw(t, cl, "textDocument/codeAction", tc.params)
		if tc.want == "" {
			if strings.HasPrefix(got, "error") || !strings.HasPrefix(got, "[") {
				t.Errorf("%s: got %s", tc.name, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	// An empty document has nothing to fix.
	if err := cl.Open("untitled:empty.ex", 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.WaitVersion(testCtx(t), "untitled:empty.ex", 1); err != nil {
		t.Fatal(err)
	}
	if got := editRaw(t, cl, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": "untitled:empty.ex"}, "range": editRange(0, 0, 0, 0), "context": map[string]any{}}); got != `[]` {
		t.Errorf("empty document: %s", got)
	}
}

var updateGolden = flag.Bool("update-symbols", false, "rewrite the golden files of the edit-feature tests")

// TestDocumentSymbols checks the outline of testdata/authoring/symbols
// against golden JSON: tool module > action > property, nested through
// "properties" and "items", properties written in an attribute listed
// under the module (inside its range), an action whose schema lives in
// another file without children here, the other file listing those
// properties under its own module, exact UTF-16 ranges after an
// interpolated bitstring and multi-byte names, and [] for a module that
// is not a tool, an empty document and a document of only broken code.
func TestDocumentSymbols(t *testing.T) {
	src := filepath.Join("..", "testdata", "authoring", "symbols")
	root := t.TempDir()
	for _, name := range []string{"tasks.ex", "schemas.ex", "plain.ex"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cl := startReal(t, root)
	ctx := testCtx(t)
	for _, name := range []string{"tasks.ex", "schemas.ex", "plain.ex"} {
		uri := workspace.PathURI(filepath.Join(root, name))
		b, _ := os.ReadFile(filepath.Join(root, name))
		if err := cl.Open(uri, 1, string(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := cl.WaitVersion(ctx, uri, 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"tasks.ex", "schemas.ex", "plain.ex"} {
		uri := workspace.PathURI(filepath.Join(root, name))
		m, err := cl.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
		if err != nil || m.Error != nil {
			t.Fatalf("%s: %v %v", name, err, m.Error)
		}
		var syms []editWireSymbol
		if err := json.Unmarshal(m.Result, &syms); err != nil {
			t.Fatal(err)
		}
		var pretty bytes.Buffer
		symbolOutline(&pretty, syms, "")
		golden := filepath.Join(src, strings.TrimSuffix(name, ".ex")+".golden")
		if *updateGolden {
			if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update-symbols)", err)
		}
		if pretty.String() != string(want) {
			t.Errorf("%s outline differs from %s:\n%s", name, golden, pretty.String())
		}
	}
	for name, text := range map[string]string{
		"empty.ex":  "",
		"broken.ex": "defmodule X do\n  use Wymcp.Tool\n  def actions, do: %{a: %{description: \"x\", properties: %{\"b\" => }}}\nend\n",
	} {
		uri := "untitled:" + name
		if err := cl.Open(uri, 1, text); err != nil {
			t.Fatal(err)
		}
		if _, err := cl.WaitVersion(ctx, uri, 1); err != nil {
			t.Fatal(err)
		}
		got := editRaw(t, cl, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
		if name == "empty.ex" && got != `[]` {
			t.Errorf("%s: %s", name, got)
		}
		if want := `[{"name":"X","detail":"tool (name/0 not known)","kind":2,"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":3}},"selectionRange":{"start":{"line":0,"character":10},"end":{"line":0,"character":11}},"children":[` +
			`{"name":"a","detail":"x","kind":6,"range":{"start":{"line":2,"character":21},"end":{"line":2,"character":67}},"selectionRange":{"start":{"line":2,"character":21},"end":{"line":2,"character":22}},"children":[{"name":"b","kind":7,"range":{"start":{"line":2,"character":58},"end":{"line":2,"character":65}},"selectionRange":{"start":{"line":2,"character":58},"end":{"line":2,"character":61}},"children":[]}]}]}]`; name == "broken.ex" && got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	if got := editRaw(t, cl, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "untitled:nope"}}); got != "error -32803: workspace: unknown document untitled:nope" {
		t.Errorf("unknown document: %s", got)
	}
}

// editWireSymbol is a DocumentSymbol as the client decodes it.
type editWireSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail"`
	Kind           int              `json:"kind"`
	Range          lsp.Range        `json:"range"`
	SelectionRange lsp.Range        `json:"selectionRange"`
	Children       []editWireSymbol `json:"children"`
}

// symbolOutline renders symbols one a line, children indented:
// `<kind> <name> "<detail>" <range> sel <selectionRange>`, ranges as
// line:char-line:char (0-based, UTF-16).
func symbolOutline(b *bytes.Buffer, syms []editWireSymbol, indent string) {
	r := func(x lsp.Range) string {
		return fmt.Sprintf("%d:%d-%d:%d", x.Start.Line, x.Start.Character, x.End.Line, x.End.Character)
	}
	if len(syms) == 0 && indent == "" {
		b.WriteString("(none)\n")
	}
	for _, s := range syms {
		fmt.Fprintf(b, "%s%d %s %q %s sel %s\n", indent, s.Kind, s.Name, s.Detail, r(s.Range), r(s.SelectionRange))
		symbolOutline(b, s.Children, indent+"  ")
	}
}

// TestEditCapabilities checks what initialize announces for the edit
// features: quick-fix code actions and document symbols.
func TestEditCapabilities(t *testing.T) {
	ws := workspace.New(workspace.Options{})
	t.Cleanup(ws.Close)
	cl := lsptest.Start(t, lsp.Options{Analyzer: ws})
	res, err := cl.Initialize(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if got := string(r.Capabilities["codeActionProvider"]); got != `{"codeActionKinds":["quickfix","source.fixAll.wymcp"]}` {
		t.Errorf("codeActionProvider %s", got)
	}
	if got := string(r.Capabilities["documentSymbolProvider"]); got != `true` {
		t.Errorf("documentSymbolProvider %s", got)
	}
}

// TestCodeActionHintName: a hint's misspelt action, reported by the
// workspace-wide check rather than a tool's declaration, gets its
// "Change to" fix over the wire, naming the published diagnostic.
func TestCodeActionHintName(t *testing.T) {
	text := "defmodule T do\n  use Wymcp.Tool\n  def name, do: \"tasks\"\n" +
		"  def actions, do: %{create: %{description: \"A\", properties: %{}}}\n" +
		"  def hints(_a, _r), do: [Wymcp.Hint.new(tool: \"tasks\", action: \"craete\")]\nend\n"
	cl, uri, p := openEditDoc(t, "hint.ex", text)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "lint/hint-unknown-action" {
		t.Fatalf("diagnostics %+v", p.Diagnostics)
	}
	got := editRaw(t, cl, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        editRange(4, 66, 4, 66),
		"context":      map[string]any{"diagnostics": []any{}},
	})
	want := `[{"title":"Change to \"create\"","kind":"quickfix","diagnostics":[{"range":{"start":{"line":4,"character":64},"end":{"line":4,"character":72}},"severity":2,"code":"lint/hint-unknown-action","source":"wymcp","message":"the hint names action \"craete\", which tool \"tasks\" does not declare; fix: did you mean \"create\"?"}],"isPreferred":true,` +
		`"edit":{"changes":{"untitled:hint.ex":[{"range":{"start":{"line":4,"character":64},"end":{"line":4,"character":72}},"newText":"\"create\""}]}}}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if d := p.Diagnostics[0]; d.Range != editRange(4, 64, 4, 72) {
		t.Errorf("published range %+v", d.Range)
	}
}
