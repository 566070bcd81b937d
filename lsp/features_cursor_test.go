package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
	"github.com/wymcp/wymcp-ls/workspace"
)

// cursorMark marks the cursor in the cursor-feature fixtures; it is
// removed before the text is opened.
const cursorMark = "‸"

// curDoc is one opened fixture document.
type curDoc struct {
	uri  string
	text string
	// pos is the cursor's position (LSP, UTF-16), off its byte offset; has
	// reports a cursor mark.
	pos lsp.Position
	off int
	has bool
}

// curOpen starts the real server on a fresh folder and opens files (name
// -> text, at most one cursor mark each) as file: URIs under it, waiting
// until each has been analysed.
func curOpen(t *testing.T, files map[string]string) (*lsptest.Client, map[string]*curDoc) {
	t.Helper()
	root := t.TempDir()
	cl := startReal(t, root)
	docs := map[string]*curDoc{}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		text := files[name]
		d := &curDoc{uri: workspace.PathURI(filepath.Join(root, name))}
		if i := strings.Index(text, cursorMark); i >= 0 {
			text = text[:i] + text[i+len(cursorMark):]
			d.off, d.has = i, true
			l, c := positions.NewMapper([]byte(text)).Position(i)
			d.pos = lsp.Position{Line: l, Character: c}
		}
		d.text = text
		docs[name] = d
		if err := cl.Open(d.uri, 1, text); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range names {
		if _, err := cl.WaitVersion(testCtx(t), docs[name].uri, 1); err != nil {
			t.Fatal(err)
		}
	}
	return cl, docs
}

// cursorDoc returns the one document with a cursor mark.
func cursorDoc(t *testing.T, docs map[string]*curDoc) *curDoc {
	t.Helper()
	for _, d := range docs {
		if d.has {
			return d
		}
	}
	t.Fatal("no cursor mark in the fixture")
	return nil
}

func posParams(d *curDoc, extra map[string]any) map[string]any {
	p := map[string]any{"textDocument": map[string]any{"uri": d.uri}, "position": d.pos}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

// wireItem is a completion item as the client decodes it.
type wireItem struct {
	Label            string `json:"label"`
	Kind             int    `json:"kind"`
	Detail           string `json:"detail"`
	SortText         string `json:"sortText"`
	FilterText       string `json:"filterText"`
	InsertTextFormat int    `json:"insertTextFormat"`
	Documentation    *struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"documentation"`
	TextEdit struct {
		Range   lsp.Range `json:"range"`
		NewText string    `json:"newText"`
	} `json:"textEdit"`
}

func complete(t *testing.T, cl *lsptest.Client, d *curDoc) []wireItem {
	t.Helper()
	m, err := cl.Call(testCtx(t), "textDocument/completion", posParams(d, nil))
	if err != nil {
		t.Fatal(err)
	}
	if m.Error != nil {
		t.Fatalf("completion error %v", m.Error)
	}
	var list struct {
		IsIncomplete bool       `json:"isIncomplete"`
		Items        []wireItem `json:"items"`
	}
	if err := json.Unmarshal(m.Result, &list); err != nil {
		t.Fatalf("completion result %s: %v", m.Result, err)
	}
	if list.Items == nil {
		t.Fatalf("completion items are null: %s", m.Result)
	}
	sort.SliceStable(list.Items, func(i, j int) bool { return list.Items[i].SortText < list.Items[j].SortText })
	return list.Items
}

// rangeText renders a wire range as "l:c-l:c".
func rangeText(r lsp.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

// itemsText renders items as "label=newText@range" lines, sorted.
func itemsText(items []wireItem) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "%s=%s@%s\n", it.Label, it.TextEdit.NewText, rangeText(it.TextEdit.Range))
	}
	return b.String()
}

// applyItem applies a completion item's edit (snippet placeholders kept)
// to the document's text.
// itemLabelled returns the item of items labelled label, failing the test
// when there is none.
func itemLabelled(t *testing.T, items []wireItem, label string) wireItem {
	t.Helper()
	for _, it := range items {
		if it.Label == label {
			return it
		}
	}
	t.Fatalf("no %s item in:\n%s", label, itemsText(items))
	return wireItem{}
}

func applyItem(d *curDoc, it wireItem) string {
	m := positions.NewMapper([]byte(d.text))
	r := it.TextEdit.Range
	sp := m.Span(positions.Range{StartLine: r.Start.Line, StartChar: r.Start.Character, EndLine: r.End.Line, EndChar: r.End.Character})
	return d.text[:sp.Start] + it.TextEdit.NewText + d.text[sp.End:]
}

const toolHead = "defmodule App.Tools.Tasks do\n  use Wymcp.Tool\n  def name, do: \"tasks\"\n"

// TestCompletion is the completion table of README.md "Completion",
// through the server: each cursor gets exactly the items listed (label=newText@range,
// in sort order), and no request fails.
func TestCompletion(t *testing.T) {
	keys := "description=description: \"$1\"@%[1]s\nproperties=properties: %%{$1}@%[1]s\nrequired=required: [$1]@%[1]s\nrequired_one_of=required_one_of: [[$1]]@%[1]s\ndefaults=defaults: %%{$1}@%[1]s\nnotes=notes: \"$1\"@%[1]s\nrelated=related: [$1]@%[1]s\nexamples=examples: [%%{data: %%{$1}}]@%[1]s\n"
	allKeys := func(r string) string { return fmt.Sprintf(keys, r) }
	types := func(r, q string) string {
		var b strings.Builder
		for _, ty := range validate.DefaultCatalogue().Types() {
			fmt.Fprintf(&b, "%s=\"%s\"@%s\n", ty, ty, r)
		}
		_ = q
		return b.String()
	}
	tests := []struct {
		name, text, want string
	}{
		{"key prefix in an unclosed action schema at the end of the file",
			toolHead + "  def actions, do: %{run: %{pro‸", allKeys("3:28-3:31")},
		{"required entry in an unterminated string",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"name\" => %{}, \"id\" => %{}}, required: [\"na‸\n  end\nend\n",
			"name=\"name\"@3:100-3:103\nid=\"id\"@3:100-3:103\n"},
		{"attribute used as an action schema, after a trailing comma",
			toolHead + "  @run %{description: \"x\", ‸\n  def actions, do: %{run: @run}\nend\n",
			strings.Join(strings.Split(allKeys("3:27-3:27"), "\n")[1:], "\n")},
		{"def head", toolHead + "  def actions‸ do\n    %{}\n  end\nend\n", ""},
		{"empty file", "‸", ""},
		{"after a closed declaration", "def actions, do: %{}\n‸", ""},
		{"after a closed declaration in a tool", toolHead + "  def actions, do: %{}\n‸\nend\n", ""},
		// Just after a closing bracket the cursor is past the map or list:
		// an item inserted there would land outside it, with no comma.
		// Before, each offered the items of the container it had closed.
		{"just after an action schema's closing brace",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{}}‸}\nend\n", ""},
		{"just after the action map's closing brace",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{}}}‸\nend\n", ""},
		{"just after a :required list's bracket",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"a\" => %{}}, required: []‸}}\nend\n", ""},
		{"just after a property schema's closing brace",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"a\" => %{}‸}}}\nend\n", ""},
		{"just before the closing brace, after a comma, keys still come",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{}, ‸}}\nend\n",
			strings.Join(strings.Split(allKeys("3:63-3:63"), "\n")[2:], "\n")},
		{"action-map level in an unclosed map",
			toolHead + "  def actions do\n    %{\n      ‸\n  end\nend\n",
			"new action=${1:name}: %{description: \"$2\", properties: %{$3}}@5:6-5:6\n"},
		{"keys already present are left out; mandatory first",
			toolHead + "  def actions, do: %{run: %{related: [], description: \"x\", ‸}}\nend\n",
			"properties=properties: %{$1}@3:59-3:59\nrequired=required: [$1]@3:59-3:59\nrequired_one_of=required_one_of: [[$1]]@3:59-3:59\ndefaults=defaults: %{$1}@3:59-3:59\nnotes=notes: \"$1\"@3:59-3:59\nexamples=examples: [%{data: %{$1}}]@3:59-3:59\n"},
		{"editing an existing key replaces the key only",
			toolHead + "  def actions, do: %{run: %{description: \"x\", requ‸ired: []}}\nend\n",
			"properties=properties@3:46-3:54\nrequired=required@3:46-3:54\nrequired_one_of=required_one_of@3:46-3:54\ndefaults=defaults@3:46-3:54\nnotes=notes@3:46-3:54\nrelated=related@3:46-3:54\nexamples=examples@3:46-3:54\n"},
		{"type value in a string",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"n\" => %{\"type\" => \"st‸\"}}}}\nend\n",
			types("3:79-3:83", "")},
		{"type value before typing",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"n\" => %{\"type\" => ‸}}}}\nend\n",
			types("3:79-3:79", "")},
		{"related: the other actions",
			toolHead + "  def actions, do: %{\n    run: %{description: \"x\", properties: %{}, related: [\"list\", ‸]},\n    list: %{description: \"l\", properties: %{}},\n    stop: %{description: \"s\", properties: %{}}\n  }\nend\n",
			"stop=\"stop\"@4:64-4:64\n"},
		{"defaults key position",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"a\" => %{}, \"b\" => %{}}, defaults: %{\"a\" => 1, ‸}}}\nend\n",
			"b=\"b\" => @3:107-3:107\n"},
		{"required_one_of group",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"a\" => %{}, \"b\" => %{}}, required_one_of: [[\"a\"], [\"‸\n",
			"a=\"a\"@3:111-3:112\nb=\"b\"@3:111-3:112\n"},
		{"after an interpolated bitstring and multi-byte characters",
			toolHead + "  @label \"Item #{<<c>>} and #{\"n#{1}\"}\"\n  def actions, do: %{run: %{description: \"é 🎉\", pro‸",
			strings.Join(strings.Split(allKeys("4:49-4:52"), "\n")[1:], "\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": tc.text})
			got := itemsText(complete(t, cl, cursorDoc(t, docs)))
			if got != tc.want {
				t.Errorf("items:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// projectFiles reads testdata/authoring/cursor/<dir> as name -> text.
func projectFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	root := filepath.Join("..", "testdata", "authoring", "cursor", dir)
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("fixture %s: %v", dir, err)
	}
	return files
}

// at returns d with its cursor moved to the start of the only occurrence
// of needle after the first occurrence of after ("" for the file start),
// plus delta bytes.
func at(t *testing.T, d *curDoc, after, needle string, delta int) *curDoc {
	t.Helper()
	from := 0
	if after != "" {
		from = strings.Index(d.text, after)
		if from < 0 {
			t.Fatalf("%q not in %s", after, d.uri)
		}
	}
	i := strings.Index(d.text[from:], needle)
	if i < 0 {
		t.Fatalf("%q not in %s after %q", needle, d.uri, after)
	}
	off := from + i + delta
	l, c := positions.NewMapper([]byte(d.text)).Position(off)
	cp := *d
	cp.off, cp.has, cp.pos = off, true, lsp.Position{Line: l, Character: c}
	return &cp
}

// spanText renders a wire location as "file:l:c-l:c" with the file's
// base name.
func locText(l lsp.Location) string {
	return filepath.Base(l.URI) + ":" + rangeText(l.Range)
}

// rangeOf returns the wire range of the only occurrence of needle after
// after in d, narrowed by trimming lead bytes at the start and trail at
// the end.
func rangeOf(t *testing.T, d *curDoc, after, needle string, lead, trail int) string {
	t.Helper()
	s := at(t, d, after, needle, lead)
	e := at(t, d, after, needle, len(needle)-trail)
	return filepath.Base(d.uri) + ":" + rangeText(lsp.Range{Start: s.pos, End: e.pos})
}

type wireHover struct {
	Contents struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"contents"`
	Range lsp.Range `json:"range"`
}

func hoverAt(t *testing.T, cl *lsptest.Client, d *curDoc) *wireHover {
	t.Helper()
	m, err := cl.Call(testCtx(t), "textDocument/hover", posParams(d, nil))
	if err != nil {
		t.Fatal(err)
	}
	if m.Error != nil {
		t.Fatalf("hover error %v", m.Error)
	}
	if string(m.Result) == "null" {
		return nil
	}
	var h wireHover
	if err := json.Unmarshal(m.Result, &h); err != nil {
		t.Fatal(err)
	}
	return &h
}

// TestHover checks each kind of hover on the cursor project, through the
// server: the catalogue entry (compared with the one owner file), a JSON
// Schema keyword, a property's schema as written, the summary line of an
// action (compared with validate.Summary) with its help pointer, attribute
// and call values; ranges are exact after an interpolated bitstring and
// multi-byte characters.
func TestHover(t *testing.T) {
	cl, docs := curOpen(t, projectFiles(t, "project"))
	schemas, tasks, list := docs["lib/schemas.ex"], docs["lib/tasks.ex"], docs["lib/task_list.ex"]
	cat := validate.DefaultCatalogue()
	reqDoc, _ := cat.Key("required")
	typeDoc, _ := cat.Keyword("type")
	propsDoc, _ := cat.Keyword("properties")
	tests := []struct {
		name      string
		d         *curDoc
		want      string // exact markdown
		wantRange string
	}{
		{"vocabulary key", at(t, schemas, "@create", "required:", 3), reqDoc.Markdown(), rangeOf(t, schemas, "@create", "required", 0, 0)},
		{"JSON Schema keyword", at(t, schemas, "\"id\" =>", "\"type\"", 2), typeDoc.Markdown(), rangeOf(t, schemas, "\"id\" =>", "\"type\"", 0, 0)},
		{"walked keyword", at(t, schemas, "\"opts\"", "\"properties\"", 1), propsDoc.Markdown(), rangeOf(t, schemas, "\"opts\"", "\"properties\"", 0, 0)},
		{"property in :required, through an attribute", at(t, schemas, "required: [", "\"name\"", 1),
			"**\"name\"**: property of action `:create`\n\n```elixir\n%{\"type\" => \"string\", \"description\" => \"Task title\"}\n```\n",
			rangeOf(t, schemas, "required: [", "\"name\"", 0, 0)},
		{"property in a group", at(t, schemas, "required_one_of", "\"id\"", 2),
			"**\"id\"**: property of action `:create`\n\n```elixir\n%{\"type\" => \"integer\"}\n```\n",
			rangeOf(t, schemas, "required_one_of", "\"id\"", 0, 0)},
		{"nested default key", at(t, schemas, "defaults:", "\"notify\"", 3),
			"**\"notify\"**: property of action `:create`\n\n```elixir\n%{\"type\" => \"boolean\"}\n```\n",
			rangeOf(t, schemas, "defaults:", "\"notify\"", 0, 0)},
		{"multi-line schema as written, dedented", at(t, schemas, "defaults:", "\"opts\"", 1),
			"**\"opts\"**: property of action `:create`\n\n```elixir\n%{\n  \"type\" => \"object\",\n  \"properties\" => %{\"notify\" => %{\"type\" => \"boolean\"}}\n}\n```\n",
			rangeOf(t, schemas, "defaults:", "\"opts\"", 0, 0)},
		{"action name with the tool's given name", at(t, schemas, "def all", "create:", 0),
			"```text\n" + validate.Summary("create", "Create a task") + "\n```\n\nThe line `tools/list` publishes for this action and the help index lists.\n\nHelp: `help {tool: \"tasks\", action: \"create\"}`\n",
			rangeOf(t, schemas, "def all", "create", 0, 0)},
		{":related entry names an action", at(t, schemas, "related: [", "\"list\"", 3),
			"```text\nlist: List tasks\n```\n\nThe line `tools/list` publishes for this action and the help index lists.\n\nHelp: `help {tool: \"tasks\", action: \"list\"}`\n",
			rangeOf(t, schemas, "related: [", "\"list\"", 0, 0)},
		{"~w word in :related", at(t, schemas, "~w(", "create", 2),
			"```text\ncreate: Create a task\n```\n\nThe line `tools/list` publishes for this action and the help index lists.\n\nHelp: `help {tool: \"tasks\", action: \"create\"}`\n",
			rangeOf(t, schemas, "~w(", "create", 0, 0)},
		{"action name of a tool without name/0, after a bitstring", at(t, list, "", "pinned:", 2),
			"```text\npinned: Pinned tasks\n```\n\nThe line `tools/list` publishes for this action and the help index lists.\n\nHelp: the tool name is not known here: App.Tools.TaskList's name/0 is missing or does not evaluate to a literal string\n",
			rangeOf(t, list, "", "pinned", 0, 0)},
		{"attribute read", at(t, list, "properties: @paging, defaults", "@paging", 3),
			"`@paging` evaluates to:\n\n```elixir\n%{\"limit\" => %{\"type\" => \"integer\"}, \"cursor\" => %{\"type\" => \"string\"}}\n```\n",
			rangeOf(t, list, "properties: @paging, defaults", "@paging", 0, 0)},
		{"interpolated attribute", at(t, list, "notes:", "@label", 1),
			"`@label` evaluates to:\n\n```elixir\n\"Item  and  — 🎉#{...}\"\n```\n",
			rangeOf(t, list, "notes:", "@label", 0, 0)},
		{"remote call", at(t, tasks, "def actions", "all()", 1),
			"`App.Tools.Schemas.all/0` evaluates to:\n\n```elixir\n%{create: %{description: \"Create a task\", properties: %{\"name\" => %{\"type\" => \"string\", \"description\" => \"Task title\"}, \"id\" => %{\"type\" => \"integer\"}, \"opts\" => %{\"type\" => \"object\", \"properties\" => %{\"notify\" => %{\"type\" => \"boolean\"}}}}, required: [\"name\"], required_one_of: [[\"name\"], [\"id\"]], defaults: %{\"opts\" => %{\"notify\" => false}}, related: [\"list\"]}, list: %{description: \"List tasks\", properties: %{}, related: [\"create\"]}}\n```\n",
			rangeOf(t, tasks, "def actions", "Schemas.all()", 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := hoverAt(t, cl, tc.d)
			if h == nil {
				t.Fatal("no hover")
			}
			if h.Contents.Kind != "markdown" || h.Contents.Value != tc.want {
				t.Errorf("hover %s:\n%s\nwant:\n%s", h.Contents.Kind, h.Contents.Value, tc.want)
			}
			if got := filepath.Base(tc.d.uri) + ":" + rangeText(h.Range); got != tc.wantRange {
				t.Errorf("range %s, want %s", got, tc.wantRange)
			}
		})
	}
	for _, d := range []*curDoc{at(t, tasks, "", "defmodule", 3), at(t, schemas, "@create", "\"Create a task\"", 2), at(t, list, "", "use", 0)} {
		if h := hoverAt(t, cl, d); h != nil {
			t.Errorf("hover at %v: %+v, want null", d.pos, h)
		}
	}
}

func locsAt(t *testing.T, cl *lsptest.Client, method string, d *curDoc, extra map[string]any) []string {
	t.Helper()
	m, err := cl.Call(testCtx(t), method, posParams(d, extra))
	if err != nil {
		t.Fatal(err)
	}
	if m.Error != nil {
		t.Fatalf("%s error %v", method, m.Error)
	}
	var ls []lsp.Location
	if err := json.Unmarshal(m.Result, &ls); err != nil || ls == nil {
		t.Fatalf("%s result %s: %v", method, m.Result, err)
	}
	out := []string{}
	for _, l := range ls {
		out = append(out, locText(l))
	}
	return out
}

// highlightsAt returns the textDocument/documentHighlight answer at d as
// "file:range kind" strings (kind "read" or "write"), failing on a null
// result or an unknown kind.
func highlightsAt(t *testing.T, cl *lsptest.Client, d *curDoc) []string {
	t.Helper()
	m, err := cl.Call(testCtx(t), "textDocument/documentHighlight", posParams(d, nil))
	if err != nil {
		t.Fatal(err)
	}
	if m.Error != nil {
		t.Fatalf("documentHighlight error %v", m.Error)
	}
	var hs []struct {
		Range lsp.Range `json:"range"`
		Kind  int       `json:"kind"`
	}
	if err := json.Unmarshal(m.Result, &hs); err != nil || hs == nil {
		t.Fatalf("documentHighlight result %s: %v", m.Result, err)
	}
	var out []string
	for _, h := range hs {
		kind := map[int]string{2: "read", 3: "write"}[h.Kind]
		if kind == "" {
			t.Fatalf("documentHighlight kind %d in %s", h.Kind, m.Result)
		}
		out = append(out, filepath.Base(d.uri)+":"+rangeText(h.Range)+" "+kind)
	}
	return out
}

// TestDefinitionReferences checks definition and references on the
// cursor project: property uses go to their key in :properties (across
// files, through attributes), :related entries to the action, `@attr` to
// its last definition before the use, `Schemas.all()` to the def, a
// module name (its defmodule name, an alias statement) to the defmodule;
// references list the declaration (when asked) and every use; document
// highlights are those in the cursor's document.
func TestDefinitionReferences(t *testing.T) {
	cl, docs := curOpen(t, projectFiles(t, "project"))
	schemas, tasks, list := docs["lib/schemas.ex"], docs["lib/tasks.ex"], docs["lib/task_list.ex"]
	nameDecl := rangeOf(t, schemas, "properties: %{", "\"name\"", 0, 0)
	nameReq := rangeOf(t, schemas, "required: [", "\"name\"", 0, 0)
	nameGroup := rangeOf(t, schemas, "required_one_of", "\"name\"", 0, 0)
	notifyDecl := rangeOf(t, schemas, "\"opts\" =>", "\"notify\"", 0, 0)
	notifyDefault := rangeOf(t, schemas, "defaults:", "\"notify\"", 0, 0)
	limitDecl := rangeOf(t, list, "@paging %{", "\"limit\"", 0, 0)
	limitReq := rangeOf(t, list, "required: [", "\"limit\"", 0, 0)
	limitDefault := rangeOf(t, list, "defaults: %{", "\"limit\"", 0, 0)
	createKey := rangeOf(t, schemas, "def all", "create", 0, 0)
	createWord := rangeOf(t, schemas, "~w(", "create", 0, 0)
	listKey := rangeOf(t, schemas, "def all", "list", 0, 0)
	listRelated := rangeOf(t, schemas, "related: [", "\"list\"", 0, 0)
	pagingDef := rangeOf(t, list, "", "@paging", 0, 0)
	pagingUse1 := rangeOf(t, list, "recent:", "@paging", 0, 0)
	pagingUse2 := rangeOf(t, list, "pinned:", "@paging", 0, 0)
	allDef := rangeOf(t, schemas, "def ", "all", 0, 0)
	allCall := rangeOf(t, tasks, "def actions", "Schemas.all()", 0, 0)
	schemasDecl := rangeOf(t, schemas, "defmodule ", "App.Tools.Schemas", 0, 0)
	schemasAlias := rangeOf(t, tasks, "alias ", "App.Tools.Schemas", 0, 0)
	schemasCall := rangeOf(t, tasks, "def actions", "Schemas", 0, 0)
	tests := []struct {
		name       string
		d          *curDoc
		definition []string
		refs       []string // with the declaration
	}{
		{"property in :required", at(t, schemas, "required: [", "\"name\"", 2), []string{nameDecl}, []string{nameDecl, nameReq, nameGroup}},
		{"property key in :properties", at(t, schemas, "properties: %{", "\"name\"", 2), []string{nameDecl}, []string{nameDecl, nameReq, nameGroup}},
		{"nested default", at(t, schemas, "defaults:", "\"notify\"", 1), []string{notifyDecl}, []string{notifyDecl, notifyDefault}},
		{"property of a shared properties attribute", at(t, list, "defaults: %{", "\"limit\"", 1), []string{limitDecl}, []string{limitDecl, limitReq, limitDefault}},
		{":related entry", at(t, schemas, "related: [", "\"list\"", 1), []string{listKey}, []string{listRelated, listKey}},
		{"action key, used in ~w", at(t, schemas, "def all", "create:", 1), []string{createKey}, []string{createKey, createWord}},
		{"attribute read", at(t, list, "pinned:", "@paging", 2), []string{pagingDef}, []string{pagingDef, pagingUse1, pagingUse2}},
		{"attribute definition", at(t, list, "", "@paging", 3), []string{pagingDef}, []string{pagingDef, pagingUse1, pagingUse2}},
		{"remote zero-arity call", at(t, tasks, "def actions", "all()", 0), []string{allDef}, []string{allDef, allCall}},
		{"function definition", at(t, schemas, "def ", "all", 1), []string{allDef}, []string{allDef, allCall}},
		{"module name after defmodule", at(t, schemas, "defmodule ", "App.Tools.Schemas", 4), []string{schemasDecl}, []string{schemasDecl, schemasAlias, schemasCall}},
		{"module name in an alias statement", at(t, tasks, "alias ", "App.Tools.Schemas", 16), []string{schemasDecl}, []string{schemasDecl, schemasAlias, schemasCall}},
		{"nothing at a string value", at(t, schemas, "@create", "\"Create a task\"", 3), []string{}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := locsAt(t, cl, "textDocument/definition", tc.d, nil); strings.Join(got, " ") != strings.Join(tc.definition, " ") {
				t.Errorf("definition %q, want %q", got, tc.definition)
			}
			got := locsAt(t, cl, "textDocument/references", tc.d, map[string]any{"context": map[string]any{"includeDeclaration": true}})
			if strings.Join(got, " ") != strings.Join(tc.refs, " ") {
				t.Errorf("references %q, want %q", got, tc.refs)
			}
			got = locsAt(t, cl, "textDocument/references", tc.d, map[string]any{"context": map[string]any{"includeDeclaration": false}})
			want := []string{}
			for _, r := range tc.refs {
				if len(tc.definition) == 0 || r != tc.definition[0] {
					want = append(want, r)
				}
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("references without the declaration %q, want %q", got, want)
			}
			// documentHighlight: the references in the cursor's own
			// document, the declaration a write (3), the uses reads (2).
			var wantHL []string
			for _, r := range tc.refs {
				if strings.HasPrefix(r, filepath.Base(tc.d.uri)+":") {
					kind := "read"
					if len(tc.definition) > 0 && r == tc.definition[0] {
						kind = "write"
					}
					wantHL = append(wantHL, r+" "+kind)
				}
			}
			if got := highlightsAt(t, cl, tc.d); strings.Join(got, " ") != strings.Join(wantHL, " ") {
				t.Errorf("documentHighlight %q, want %q", got, wantHL)
			}
		})
	}
}

// wireEdit is a WorkspaceEdit in its changes form as the client decodes it.
type wireEdit struct {
	Changes map[string][]struct {
		Range   lsp.Range `json:"range"`
		NewText string    `json:"newText"`
	} `json:"changes"`
}

// applyEdits applies a WorkspaceEdit's changes to the docs' texts.
func applyEdits(t *testing.T, docs map[string]*curDoc, we wireEdit) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, d := range docs {
		out[name] = d.text
	}
	for uri, edits := range we.Changes {
		found := false
		for name, d := range docs {
			if d.uri != uri {
				continue
			}
			found = true
			m := positions.NewMapper([]byte(d.text))
			type be struct {
				sp   positions.Span
				text string
			}
			var bs []be
			for _, e := range edits {
				r := e.Range
				bs = append(bs, be{m.Span(positions.Range{StartLine: r.Start.Line, StartChar: r.Start.Character, EndLine: r.End.Line, EndChar: r.End.Character}), e.NewText})
			}
			sort.Slice(bs, func(i, j int) bool { return bs[i].sp.Start > bs[j].sp.Start })
			text := d.text
			for i, b := range bs {
				if i > 0 && b.sp.End > bs[i-1].sp.Start {
					t.Fatalf("overlapping edits in %s", uri)
				}
				text = text[:b.sp.Start] + b.text + text[b.sp.End:]
			}
			out[name] = text
		}
		if !found {
			t.Fatalf("edit for a document that is not open: %s", uri)
		}
	}
	return out
}

// diagnosticsOf writes files (the fixture's .wymcp-ls.yaml included)
// to a fresh folder, analyses it with a fresh workspace and returns every
// problem as "file|code|message".
func diagnosticsOf(t *testing.T, files map[string]string) []string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := workspace.New(workspace.Options{})
	defer ws.Close()
	if err := ws.AddFolder(testCtx(t), root, nil); err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, r := range ws.Diagnose(testCtx(t)) {
		rel, _ := filepath.Rel(root, workspace.URIPath(r.URI))
		for _, p := range r.Problems {
			out = append(out, filepath.ToSlash(rel)+"|"+p.Code+"|"+p.Text())
		}
	}
	sort.Strings(out)
	return out
}

func callRaw(t *testing.T, cl *lsptest.Client, method string, params any) (json.RawMessage, *lsptest.ResponseError) {
	t.Helper()
	m, err := cl.Call(testCtx(t), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m.Result, m.Error
}

// TestRename is README.md "Rename": renaming "name" to "title"
// from its :required entry edits :properties, :required, the
// :required_one_of group and :defaults of that action only, in one
// WorkspaceEdit whose result re-analyses clean; prepareRename gives the
// name's range and placeholder, and says what can be renamed elsewhere.
func TestRename(t *testing.T) {
	files := projectFiles(t, "rename")
	cl, docs := curOpen(t, files)
	tasks := docs["lib/tasks.ex"]
	before := diagnosticsOf(t, files)
	if len(before) != 0 {
		t.Fatalf("the fixture is not clean: %q", before)
	}
	d := at(t, tasks, "required: [", "\"name\"", 3)

	res, rerr := callRaw(t, cl, "textDocument/prepareRename", posParams(d, nil))
	if rerr != nil {
		t.Fatalf("prepareRename: %v", rerr)
	}
	wantPrep := `{"range":` + mustJSON(t, lsp.Range{Start: at(t, tasks, "required: [", "name", 0).pos, End: at(t, tasks, "required: [", "name", 4).pos}) + `,"placeholder":"name"}`
	if string(res) != wantPrep {
		t.Errorf("prepareRename %s, want %s", res, wantPrep)
	}

	res, rerr = callRaw(t, cl, "textDocument/rename", posParams(d, map[string]any{"newName": "title"}))
	if rerr != nil {
		t.Fatalf("rename: %v", rerr)
	}
	var we wireEdit
	if err := json.Unmarshal(res, &we); err != nil {
		t.Fatal(err)
	}
	if len(we.Changes) != 1 || len(we.Changes[tasks.uri]) != 4 {
		t.Fatalf("edits %s, want 4 in %s", res, tasks.uri)
	}
	after := applyEdits(t, docs, we)
	want := strings.NewReplacer(
		`properties: %{"name" => @name_schema`, `properties: %{"title" => @name_schema`,
		`required: ["name"],
        required_one_of`, `required: ["title"],
        required_one_of`,
		`[["name"]`, `[["title"]`,
		`defaults: %{"name" =>`, `defaults: %{"title" =>`,
	).Replace(tasks.text)
	if after["lib/tasks.ex"] != want {
		t.Errorf("after the rename:\n%s\nwant:\n%s", after["lib/tasks.ex"], want)
	}
	if got := diagnosticsOf(t, after); len(got) != 0 {
		t.Errorf("after the rename: %q, want none", got)
	}

	// Off a property name: an error saying what can be renamed.
	_, rerr = callRaw(t, cl, "textDocument/prepareRename", posParams(at(t, tasks, "", "description:", 2), nil))
	if rerr == nil || rerr.Code != -32803 || !strings.Contains(rerr.Message, "renames property and action names only") {
		t.Errorf("prepareRename off a property: %+v", rerr)
	}
	// Renaming to a declared name is refused.
	_, rerr = callRaw(t, cl, "textDocument/rename", posParams(d, map[string]any{"newName": "id"}))
	if rerr == nil || rerr.Code != -32803 || rerr.Message != `cannot rename "name" to "id": "id" is already declared in :properties` {
		t.Errorf("rename to a declared name: %+v", rerr)
	}
	// A ~w word takes a bare word, and refuses one with a space.
	_, rerr = callRaw(t, cl, "textDocument/rename", posParams(at(t, tasks, "~w(", "id", 0), map[string]any{"newName": "the id"}))
	if rerr == nil || rerr.Code != -32803 || rerr.Message != `cannot write "the id" as a word of ~w(...) where "id" is written` {
		t.Errorf("rename in ~w to two words: %+v", rerr)
	}
	res, rerr = callRaw(t, cl, "textDocument/rename", posParams(at(t, tasks, "~w(", "id", 0), map[string]any{"newName": "key"}))
	if rerr != nil {
		t.Fatalf("rename in ~w: %v", rerr)
	}
	we = wireEdit{}
	_ = json.Unmarshal(res, &we)
	after = applyEdits(t, docs, we)
	if !strings.Contains(after["lib/tasks.ex"], `"key" => %{"type" => "integer"}`) || !strings.Contains(after["lib/tasks.ex"], `[["name"], ~w(key)]`) {
		t.Errorf("rename of id to key:\n%s", after["lib/tasks.ex"])
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRenameShared checks renames through shared attributes: a
// properties attribute shared by two actions renames in both (and in
// their :required and :defaults); a :required attribute shared with an
// action whose own :properties is not renamed refuses with the reason.
func TestRenameShared(t *testing.T) {
	cl, docs := curOpen(t, projectFiles(t, "project"))
	list := docs["lib/task_list.ex"]
	res, rerr := callRaw(t, cl, "textDocument/rename", posParams(at(t, list, "required: [", "\"limit\"", 1), map[string]any{"newName": "max"}))
	if rerr != nil {
		t.Fatalf("rename: %v", rerr)
	}
	var we wireEdit
	_ = json.Unmarshal(res, &we)
	after := applyEdits(t, docs, we)["lib/task_list.ex"]
	want := strings.ReplaceAll(list.text, `"limit"`, `"max"`)
	if after != want {
		t.Errorf("after:\n%s\nwant:\n%s", after, want)
	}

	cl2, docs2 := curOpen(t, map[string]string{"lib/shared.ex": "defmodule App.Tools.Shared do\n  use Wymcp.Tool\n  @req [\"name\"]\n" +
		"  def actions, do: %{a: %{description: \"a\", properties: %{\"name\" => %{}}, required: @req},\n" +
		"    b: %{description: \"b\", properties: %{\"name\" => %{}}, required: @req}}\nend\n"})
	sh := docs2["lib/shared.ex"]
	_, rerr = callRaw(t, cl2, "textDocument/rename", posParams(at(t, sh, "a: %{", "\"name\"", 1), map[string]any{"newName": "title"}))
	want2 := `cannot rename "name": its :required is shared with action :b of App.Tools.Shared, which does not declare it in the same :properties; rename it there first or stop sharing the value`
	if rerr == nil || rerr.Code != -32803 || rerr.Message != want2 {
		t.Errorf("shared :required: %+v, want %q", rerr, want2)
	}
}

// TestCompletionEdit applies the README.md "Completion" example `%{pro|` -> properties
// and checks its documentation is the catalogue's.
func TestCompletionEdit(t *testing.T) {
	cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": toolHead + "  def actions, do: %{run: %{pro‸"})
	d := cursorDoc(t, docs)
	items := complete(t, cl, d)
	var props *wireItem
	for i := range items {
		if items[i].Label == "properties" {
			props = &items[i]
		}
	}
	if props == nil {
		t.Fatalf("no properties item in %+v", items)
	}
	k, _ := validate.DefaultCatalogue().Key("properties")
	if props.InsertTextFormat != 2 || props.Documentation == nil || props.Documentation.Kind != "markdown" || props.Documentation.Value != k.Markdown() {
		t.Errorf("item %+v", props)
	}
	if got, want := applyItem(d, *props), toolHead+"  def actions, do: %{run: %{properties: %{$1}"; got != want {
		t.Errorf("applied: %q, want %q", got, want)
	}
	if items[0].Label != "description" || items[1].Label != "properties" || items[0].SortText >= items[2].SortText {
		t.Errorf("mandatory keys do not sort first: %q %q %q", items[0].SortText, items[1].SortText, items[2].SortText)
	}
}

// TestCursorOddRequests sends every cursor request at odd positions
// (negative, past the end, inside a surrogate pair, in an empty file), for
// an unknown document and with null params: each gets a well-formed
// answer or the proper error code, and the server keeps serving.
func TestCursorOddRequests(t *testing.T) {
	cl, docs := curOpen(t, map[string]string{
		"lib/odd.ex":   toolHead + "  @e \"🎉🎉\"\n  def actions, do: %{run: %{description: \"🎉\", properties: %{\"n\" => %{}}, required: [\"n\"]}}\nend\n",
		"lib/empty.ex": "",
	})
	odd, empty := docs["lib/odd.ex"], docs["lib/empty.ex"]
	methods := []string{"textDocument/completion", "textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/documentHighlight", "textDocument/prepareRename", "textDocument/rename"}
	positionsToTry := []lsp.Position{{Line: -1, Character: -1}, {Line: 0, Character: -5}, {Line: 999, Character: 999}, {Line: 3, Character: 9999},
		{Line: 3, Character: 7}, {Line: 3, Character: 8}, {Line: 4, Character: 44}, {Line: 4, Character: 45}}
	for _, m := range methods {
		for _, p := range positionsToTry {
			for _, d := range []*curDoc{odd, empty} {
				params := map[string]any{"textDocument": map[string]any{"uri": d.uri}, "position": p, "newName": "x", "context": map[string]any{"includeDeclaration": true}}
				res, rerr := callRaw(t, cl, m, params)
				switch {
				case rerr != nil && (m == "textDocument/prepareRename" || m == "textDocument/rename") && rerr.Code == -32803:
				case rerr != nil:
					t.Errorf("%s at %v in %s: error %v", m, p, d.uri, rerr)
				case len(res) == 0:
					t.Errorf("%s at %v: empty result", m, p)
				}
				if m == "textDocument/completion" && d == empty && string(res) != `{"isIncomplete":false,"items":[]}` {
					t.Errorf("completion in an empty file: %s", res)
				}
			}
		}
		_, rerr := callRaw(t, cl, m, map[string]any{"textDocument": map[string]any{"uri": "untitled:nope"}, "position": lsp.Position{}, "newName": "x"})
		if rerr == nil || rerr.Code != -32803 || rerr.Message != "workspace: unknown document untitled:nope" {
			t.Errorf("%s on an unknown document: %+v", m, rerr)
		}
		_, rerr = callRaw(t, cl, m, nil)
		if rerr == nil || rerr.Code != -32602 {
			t.Errorf("%s with null params: %+v", m, rerr)
		}
	}
	if _, rerr := callRaw(t, cl, "textDocument/rename", posParams(at(t, odd, "required: [", "\"n\"", 1), nil)); rerr == nil || rerr.Code != -32602 {
		t.Errorf("rename without newName: %+v", rerr)
	}
	// Still serving, with exact ranges after the emoji.
	h := hoverAt(t, cl, at(t, odd, "", "required:", 1))
	if h == nil || rangeText(h.Range) != rangeText(lsp.Range{Start: at(t, odd, "", "required", 0).pos, End: at(t, odd, "", "required", 8).pos}) {
		t.Errorf("hover after odd requests: %+v", h)
	}
}

// TestHoverHalfTyped hovers in a buffer with a syntax error (an
// unclosed map at the end of the file): the key and the declared property
// still get their hovers.
func TestHoverHalfTyped(t *testing.T) {
	cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": toolHead +
		"  @l \"Item #{<<c>>} and #{\"n#{1}\"}\"\n  def actions, do: %{run: %{properties: %{\"name\" => %{\"type\" => \"string\"}}, required: [\"name\"], descr‸"})
	d := cursorDoc(t, docs)
	req, _ := validate.DefaultCatalogue().Key("required")
	if h := hoverAt(t, cl, at(t, d, "", "required:", 2)); h == nil || h.Contents.Value != req.Markdown() ||
		rangeText(h.Range) != rangeText(lsp.Range{Start: at(t, d, "", "required", 0).pos, End: at(t, d, "", "required", 8).pos}) {
		t.Errorf("hover on required: %+v", h)
	}
	want := "**\"name\"**: property of action `:run`\n\n```elixir\n%{\"type\" => \"string\"}\n```\n"
	if h := hoverAt(t, cl, at(t, d, "required: [", "\"name\"", 2)); h == nil || h.Contents.Value != want {
		t.Errorf("hover on a required entry: %+v", h)
	}
}

// TestNestedDefaultsThroughItems checks that definition, references and
// rename follow defaults into list elements through a single-schema
// "items" (docs/rules.md §4 "Defaults"), into values of an
// "additionalProperties" schema, and through a default shared by an
// attribute; a list of "items" schemas is not walked, as in validate.
func TestNestedDefaultsThroughItems(t *testing.T) {
	files := projectFiles(t, "defaults")
	if got := diagnosticsOf(t, files); len(got) != 0 {
		t.Fatalf("the fixture is not clean: %q", got)
	}
	cl, docs := curOpen(t, files)
	d := docs["lib/defaults.ex"]
	idDecl := rangeOf(t, d, "\"items\" => %{", "\"id\"", 0, 0)
	idList := rangeOf(t, d, "defaults:", "\"id\"", 0, 0)
	idRow := rangeOf(t, d, "@row %{", "\"id\"", 0, 0)
	labelDecl := rangeOf(t, d, "\"tags\" => %{", "\"label\"", 0, 0)
	labelList := rangeOf(t, d, "defaults:", "\"label\"", 0, 0)
	labelRow := rangeOf(t, d, "@row %{", "\"label\"", 0, 0)
	extraDecl := rangeOf(t, d, "\"additionalProperties\"", "\"label\"", 0, 0)
	extraDefault := rangeOf(t, d, "\"anything\"", "\"label\"", 0, 0)
	tests := []struct {
		name       string
		d          *curDoc
		definition []string
		refs       []string
	}{
		{"declaration under items", at(t, d, "\"items\" => %{", "\"id\"", 1), []string{idDecl}, []string{idRow, idDecl, idList}},
		{"key in a list default", at(t, d, "defaults:", "\"id\"", 2), []string{idDecl}, []string{idRow, idDecl, idList}},
		{"key in a list default shared by an attribute", at(t, d, "@row %{", "\"id\"", 1), []string{idDecl}, []string{idRow, idDecl, idList}},
		{"list in a list element", at(t, d, "defaults:", "\"label\"", 1), []string{labelDecl}, []string{labelRow, labelDecl, labelList}},
		{"value of an additionalProperties schema", at(t, d, "\"anything\"", "\"label\"", 1), []string{extraDecl}, []string{extraDecl, extraDefault}},
		{"items as a list of schemas is not walked", at(t, d, "\"tuples\" => [", "\"id\"", 1), []string{}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := locsAt(t, cl, "textDocument/definition", tc.d, nil); strings.Join(got, " ") != strings.Join(tc.definition, " ") {
				t.Errorf("definition %q, want %q", got, tc.definition)
			}
			got := locsAt(t, cl, "textDocument/references", tc.d, map[string]any{"context": map[string]any{"includeDeclaration": true}})
			if strings.Join(got, " ") != strings.Join(tc.refs, " ") {
				t.Errorf("references %q, want %q", got, tc.refs)
			}
		})
	}

	// Rename from the declaration and from a use in the list default.
	for _, from := range []*curDoc{at(t, d, "\"items\" => %{", "\"id\"", 1), at(t, d, "defaults:", "\"id\"", 1)} {
		res, rerr := callRaw(t, cl, "textDocument/rename", posParams(from, map[string]any{"newName": "key"}))
		if rerr != nil {
			t.Fatalf("rename: %v", rerr)
		}
		var we wireEdit
		if err := json.Unmarshal(res, &we); err != nil {
			t.Fatal(err)
		}
		if len(we.Changes[d.uri]) != 3 {
			t.Fatalf("edits %s, want 3", res)
		}
		after := applyEdits(t, docs, we)
		want := strings.NewReplacer(
			`@row %{"id" =>`, `@row %{"key" =>`,
			`"properties" => %{
                "id" =>`, `"properties" => %{
                "key" =>`,
			`[%{"id" => 1,`, `[%{"key" => 1,`,
		).Replace(d.text)
		if after["lib/defaults.ex"] != want {
			t.Errorf("after the rename:\n%s\nwant:\n%s", after["lib/defaults.ex"], want)
		}
		if got := diagnosticsOf(t, after); len(got) != 0 {
			t.Errorf("after the rename: %q, want none", got)
		}
	}
}

// TestRenameOffenceDefaultsItems is the QA case on
// testdata/offences/defaults.ex: renaming "id" declared under "items"
// edits the key in the list default too, and the renamed file has exactly
// the offences it had (with the new name nowhere among them).
func TestRenameOffenceDefaultsItems(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "offences", "defaults.ex"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"lib/defaults.ex": string(b)}
	before := diagnosticsOf(t, files)
	cl, docs := curOpen(t, files)
	d := docs["lib/defaults.ex"]
	decl := at(t, d, "\"items\"", "\"id\"", 1)
	if decl.pos.Line != 11 {
		t.Fatalf("the declaration is on line %d, want 11 (0-based)", decl.pos.Line)
	}
	use := at(t, d, "\"list\" => [", "\"id\"", 1)
	declRange := rangeOf(t, d, "\"items\"", "\"id\"", 0, 0)
	useRange := rangeOf(t, d, "\"list\" => [", "\"id\"", 0, 0)
	if got := locsAt(t, cl, "textDocument/definition", use, nil); strings.Join(got, " ") != declRange {
		t.Errorf("definition from the default %q, want %q", got, declRange)
	}
	got := locsAt(t, cl, "textDocument/references", decl, map[string]any{"context": map[string]any{"includeDeclaration": true}})
	if want := declRange + " " + useRange; strings.Join(got, " ") != want {
		t.Errorf("references %q, want %q", got, want)
	}
	res, rerr := callRaw(t, cl, "textDocument/rename", posParams(decl, map[string]any{"newName": "uid"}))
	if rerr != nil {
		t.Fatalf("rename: %v", rerr)
	}
	var we wireEdit
	if err := json.Unmarshal(res, &we); err != nil {
		t.Fatal(err)
	}
	after := applyEdits(t, docs, we)["lib/defaults.ex"]
	if want := strings.ReplaceAll(d.text, `"id"`, `"uid"`); after != want {
		t.Errorf("after the rename:\n%s\nwant:\n%s", after, want)
	}
	if got := diagnosticsOf(t, map[string]string{"lib/defaults.ex": after}); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("diagnostics after the rename:\n%s\nbefore:\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
}

// TestCompletionDefaultKeyword checks completion of a :defaults key the
// author types in keyword form: the item turns the key and its colon into
// a string key with `=>` (an atom key is default-key-not-string), and the
// applied edit checks clean; the other key forms and :required are
// unchanged.
func TestCompletionDefaultKeyword(t *testing.T) {
	head := toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"name\" => %{}, \"opts\" => %{\"type\" => \"object\", \"properties\" => %{\"notify\" => %{}}}}, "
	tests := []struct {
		name, text, label, want string
	}{
		{"keyword key", head + "defaults: %{na‸: 1}}}\nend\n", "name", head + "defaults: %{\"name\" => 1}}}\nend\n"},
		{"keyword key, cursor at its start", head + "defaults: %{‸na: 1}}}\nend\n", "name", head + "defaults: %{\"name\" => 1}}}\nend\n"},
		{"quoted keyword key", head + "defaults: %{\"na‸\": 1}}}\nend\n", "name", head + "defaults: %{\"name\" => 1}}}\nend\n"},
		{"keyword key in a nested default", head + "defaults: %{\"opts\" => %{no‸: true}}}}\nend\n", "notify", head + "defaults: %{\"opts\" => %{\"notify\" => true}}}}\nend\n"},
		{"empty defaults", head + "defaults: %{‸}}}\nend\n", "name", head + "defaults: %{\"name\" => }}}\nend\n"},
		{"string key being typed", head + "defaults: %{\"na‸}}}\nend\n", "name", head + "defaults: %{\"name\" => }}}\nend\n"},
		{"string key with a value", head + "defaults: %{\"na‸\" => 1}}}\nend\n", "name", head + "defaults: %{\"name\" => 1}}}\nend\n"},
		{"identifier being typed", head + "defaults: %{na‸}}}\nend\n", "name", head + "defaults: %{\"name\" => }}}\nend\n"},
		{":required is unchanged", head + "required: [\"na‸\"]}}\nend\n", "name", head + "required: [\"name\"]}}\nend\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": tc.text})
			d := cursorDoc(t, docs)
			it := itemLabelled(t, complete(t, cl, d), tc.label)
			got := applyItem(d, it)
			if got != tc.want {
				t.Errorf("applied:\n%s\nwant:\n%s", got, tc.want)
			}
			if !strings.HasSuffix(tc.want, "=> }}}\nend\n") {
				if ds := diagnosticsOf(t, map[string]string{"lib/tasks.ex": got}); len(ds) != 0 {
					t.Errorf("after the edit: %q, want none", ds)
				}
			}
		})
	}
}

// TestCompletionAfterKeywordPair: in a map where a keyword pair comes
// before the cursor, a `=>` key would be refused by Elixir ("Keyword lists
// must always come last in lists and maps"), so the item writes the
// keyword form (authoring/complete.go afterKeyword) and the result parses.
func TestCompletionAfterKeywordPair(t *testing.T) {
	head := toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"name\" => %{"
	for _, tc := range []struct{ name, text, label, want string }{
		{"a new keyword in a property schema", head + "type: \"string\", ‸}}}}\nend\n", `"title"`, head + "type: \"string\", title: }}}}\nend\n"},
		{"a new default key", head + "}}, defaults: %{ok: 1, ‸}}}\nend\n", "name", head + "}}, defaults: %{ok: 1, name: }}}\nend\n"},
		{"a keyword default key after another", head + "}}, defaults: %{ok: 1, na‸: 2}}}\nend\n", "name", head + "}}, defaults: %{ok: 1, name: 2}}}\nend\n"},
		{"a quoted keyword key after another", head + "type: \"string\", \"$re‸\": \"#/x\"}}}}\nend\n", `"$ref"`, head + "type: \"string\", \"$ref\": \"#/x\"}}}}\nend\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": tc.text})
			d := cursorDoc(t, docs)
			it := itemLabelled(t, complete(t, cl, d), tc.label)
			got := applyItem(d, it)
			if got != tc.want {
				t.Errorf("applied:\n%s\nwant:\n%s", got, tc.want)
			}
			if !strings.HasSuffix(got, ": }}}}\nend\n") && !strings.HasSuffix(got, ": }}}\nend\n") {
				for _, dg := range diagnosticsOf(t, map[string]string{"lib/tasks.ex": got}) {
					if strings.Contains(dg, "syntax") {
						t.Errorf("after the edit: %s", dg)
					}
				}
			}
		})
	}
}

// TestCompletionKeywordForm checks completion of a JSON Schema keyword the
// author types in keyword form in a property schema: the item turns the
// key and its colon into a string key with `=>` (an atom key is ignored
// by wymcp's walk, atom-schema-keyword), and the applied edit checks
// clean; a string key keeps its form.
func TestCompletionKeywordForm(t *testing.T) {
	head := toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{\"name\" => %{"
	tail := "}}}}\nend\n"
	tests := []struct {
		name, text, want string
	}{
		{"keyword key", head + "ty‸: \"string\"" + tail, head + "\"type\" => \"string\"" + tail},
		{"keyword key, cursor at its start", head + "‸ty: \"string\"" + tail, head + "\"type\" => \"string\"" + tail},
		{"keyword key without a space", head + "ty‸:\"string\"" + tail, head + "\"type\" => \"string\"" + tail},
		{"quoted keyword key", head + "\"ty‸\": \"string\"" + tail, head + "\"type\" => \"string\"" + tail},
		// Elixir refuses a `=>` pair after a keyword pair: after one, the
		// key keeps the keyword form (authoring/complete.go afterKeyword).
		{"keyword key after another keyword", head + "description: \"d\", ty‸: \"string\"" + tail, head + "description: \"d\", type: \"string\"" + tail},
		{"identifier typed after a keyword pair", head + "description: \"d\", ty‸" + tail, head + "description: \"d\", type: " + tail},
		{"string key with a value", head + "\"ty‸\" => \"string\"" + tail, head + "\"type\" => \"string\"" + tail},
		{"identifier being typed", head + "ty‸" + tail, head + "\"type\" => " + tail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": tc.text})
			d := cursorDoc(t, docs)
			it := itemLabelled(t, complete(t, cl, d), `"type"`)
			got := applyItem(d, it)
			if got != tc.want {
				t.Errorf("applied:\n%s\nwant:\n%s", got, tc.want)
			}
			if strings.Contains(tc.want, "\"string\"") && !strings.Contains(tc.want, "description: \"d\"") {
				if ds := diagnosticsOf(t, map[string]string{"lib/tasks.ex": got}); len(ds) != 0 {
					t.Errorf("after the edit: %q, want none", ds)
				}
			}
		})
	}
}

// TestCompletionArrowSchemaKey: completing an existing atom key written
// with `=>` in an action schema keeps it an atom: replacing `:descr` by a
// bare `description` would make it a variable, which Elixir refuses.
func TestCompletionArrowSchemaKey(t *testing.T) {
	head := toolHead + "  def actions, do: %{run: %{"
	tail := " => \"x\", :properties => %{}}}\nend\n"
	for _, tc := range []struct{ name, text, want string }{
		{"arrow atom key", head + ":descr‸" + tail, head + ":description" + tail},
		{"arrow atom key, cursor at its start", head + "‸:descr" + tail, head + ":description" + tail},
		{"keyword key keeps its form", toolHead + "  def actions, do: %{run: %{descr‸: \"x\", properties: %{}}}\nend\n",
			toolHead + "  def actions, do: %{run: %{description: \"x\", properties: %{}}}\nend\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl, docs := curOpen(t, map[string]string{"lib/tasks.ex": tc.text})
			d := cursorDoc(t, docs)
			it := itemLabelled(t, complete(t, cl, d), "description")
			if got := applyItem(d, it); got != tc.want {
				t.Errorf("applied:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestCursorOneLine checks the cursor features on a tool module written
// on one line (a clean parse whose cursor reading is bounded by the
// definition or the gap around the cursor; BenchmarkCursorOneLine times
// it): hover on a vocabulary key and an action key deep in the line,
// completion of a key typed keyless, definition of an attribute from its
// read and from its definition, hover on the def name, and nothing on the
// `end` line.
func TestCursorOneLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("defmodule T do use Wymcp.Tool; @p %{\"q\" => %{}}; def actions, do: %{")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "a%d: %%{description: \"x\", properties: %%{}}, ", i)
	}
	b.WriteString("last: %{description: \"y\", properties: @p}, new: %{re‸}}\nend\n")
	cl, docs := curOpen(t, map[string]string{"lib/t.ex": b.String()})
	d := cursorDoc(t, docs)
	if got := strings.Join(diagnosticsOf(t, map[string]string{"lib/t.ex": d.text}), "\n"); strings.Contains(got, "syntax") {
		t.Fatalf("the fixture does not parse cleanly: %s", got)
	}
	items := complete(t, cl, d)
	reqRange := rangeOf(t, d, "new: %{", "re", 0, 0)
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
		if it.Label == "required" && filepath.Base(d.uri)+":"+rangeText(it.TextEdit.Range) != reqRange {
			t.Errorf("required item at %s, want %s", rangeText(it.TextEdit.Range), reqRange)
		}
	}
	if want := "description properties required required_one_of defaults notes related examples"; strings.Join(labels, " ") != want {
		t.Errorf("completion labels %q, want %q", strings.Join(labels, " "), want)
	}

	descDoc, _ := validate.DefaultCatalogue().Key("description")
	h := hoverAt(t, cl, at(t, d, "a250: ", "description", 2))
	if h == nil || h.Contents.Value != descDoc.Markdown() || "t.ex:"+rangeText(h.Range) != rangeOf(t, d, "a250: ", "description", 0, 0) {
		t.Errorf("hover on a key deep in the line: %+v", h)
	}
	if h := hoverAt(t, cl, at(t, d, ", a250", "a250", 1)); h == nil || "t.ex:"+rangeText(h.Range) != rangeOf(t, d, ", a250", "a250", 0, 0) || !strings.Contains(h.Contents.Value, "a250") {
		t.Errorf("hover on an action key: %+v", h)
	}
	if h := hoverAt(t, cl, at(t, d, "def ", "actions", 2)); h == nil || "t.ex:"+rangeText(h.Range) != rangeOf(t, d, "def ", "actions", 0, 0) {
		t.Errorf("hover on the def name: %+v", h)
	}
	pDef := rangeOf(t, d, "", "@p", 0, 0)
	for _, from := range []*curDoc{at(t, d, "", "@p", 1), at(t, d, "properties: @p", "@p", 1)} {
		if got := locsAt(t, cl, "textDocument/definition", from, nil); strings.Join(got, " ") != pDef {
			t.Errorf("definition of @p from %v: %q, want %q", from.pos, got, pDef)
		}
	}
	for _, c := range []int{0, 1, 3} {
		e := *d
		e.pos = lsp.Position{Line: 1, Character: c}
		if h := hoverAt(t, cl, &e); h != nil {
			t.Errorf("hover on the end line at %d: %+v", c, h)
		}
	}
}
