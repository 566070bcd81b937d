package lsp_test

import (
	"testing"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
)

// syncStep is one didChange and the text a full resync must give.
type syncStep struct {
	version int32
	changes []lsptest.Change
	want    string
}

// TestIncrementalSync applies each case's steps to an incrementally synced
// buffer and, in parallel, sends the expected text to a second buffer as a
// full resync; after each step both overlays handed to the analysis must
// equal the expected text (docs/architecture.md "LSP behaviour", text sync).
func TestIncrementalSync(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		open  int32 // version of didOpen; 0 means 1
		steps []syncStep
	}{
		{"insert past the line end lands before CRLF", "@a 1\r\n@b 2\r\n", 0, []syncStep{
			{2, []lsptest.Change{lsptest.Edit(0, 99, 0, 99, "X")}, "@a 1X\r\n@b 2\r\n"},
			{3, []lsptest.Change{lsptest.Edit(1, 99, 1, 99, "Y")}, "@a 1X\r\n@b 2Y\r\n"},
			{4, []lsptest.Change{lsptest.Edit(9, 0, 9, 0, "Z")}, "@a 1X\r\n@b 2Y\r\nZ"},
		}},
		{"a tab is one character", "\t@a 1\n", 0, []syncStep{
			{2, []lsptest.Change{lsptest.Edit(0, 1, 0, 1, "X")}, "\tX@a 1\n"},
			{3, []lsptest.Change{lsptest.Edit(0, 0, 0, 2, "")}, "@a 1\n"},
		}},
		{"delete UTF-16 units 5-8 across a surrogate pair", `@t "aé🙂b"`, 0, []syncStep{
			{2, []lsptest.Change{lsptest.Edit(0, 5, 0, 8, "")}, `@t "ab"`},
		}},
		{"three edits applied in order, the last at 0:0", "abc\ndef", 0, []syncStep{
			{2, []lsptest.Change{
				lsptest.Edit(1, 0, 1, 3, "XYZ"),
				lsptest.Edit(0, 3, 0, 3, "!"),
				lsptest.Edit(0, 0, 0, 0, ">"),
			}, ">abc!\nXYZ"},
		}},
		{"a range-less change in the middle replaces the text", "old", 0, []syncStep{
			{2, []lsptest.Change{
				lsptest.Edit(0, 0, 0, 0, "zz"),
				lsptest.Full("new\ntext"),
				lsptest.Edit(1, 0, 1, 0, "+"),
			}, "new\n+text"},
		}},
		{"stale and duplicate versions are ignored", "v5", 5, []syncStep{
			{4, []lsptest.Change{lsptest.Full("stale")}, "v5"},
			{5, []lsptest.Change{lsptest.Full("duplicate")}, "v5"},
			{6, []lsptest.Change{lsptest.Full("v6")}, "v6"},
		}},
		{"an empty change list keeps the text", "same", 0, []syncStep{
			{6, nil, "same"},
		}},
		{"multi-line replace with CRLF and a lone CR", "a\r\nb\rc\nd", 0, []syncStep{
			{6, []lsptest.Change{lsptest.Edit(1, 0, 2, 1, "B")}, "a\r\nB\nd"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, fake := started(t, lsp.Options{})
			ctx := testCtx(t)
			const inc, full = "file:///w/inc.ex", "untitled:Untitled-1"
			open := max(tt.open, 1)
			for _, uri := range []string{inc, full} {
				if err := c.Open(uri, open, tt.text); err != nil {
					t.Fatal(err)
				}
			}
			for i, st := range tt.steps {
				if err := c.ChangeText(inc, st.version, st.changes...); err != nil {
					t.Fatal(err)
				}
				if err := c.ChangeText(full, st.version, lsptest.Full(st.want)); err != nil {
					t.Fatal(err)
				}
				if err := c.Barrier(ctx); err != nil {
					t.Fatal(err)
				}
				got, _ := fake.Overlay(inc)
				resync, _ := fake.Overlay(full)
				if got.Text != st.want || got.Text != resync.Text {
					t.Errorf("step %d: incremental %q, full resync %q, want %q", i, got.Text, resync.Text, st.want)
				}
			}
		})
	}
}

func TestDocumentLifecycleCalls(t *testing.T) {
	c, fake := started(t, lsp.Options{})
	ctx := testCtx(t)
	// URIs are handed over exactly as sent, percent-encoding and all.
	const uri = "file:///C%3A/Users/Zoë/a.ex"
	steps := []func() error{
		func() error { return c.Open(uri, 1, "x") },
		func() error { return c.ChangeText(uri, 2, lsptest.Edit(0, 1, 0, 1, "y")) },
		// A change to a document that is not open is ignored.
		func() error { return c.ChangeText("file:///never-opened.ex", 3, lsptest.Full("z")) },
		func() error {
			return c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
		},
		func() error { return c.CloseDoc(uri) },
		func() error {
			return c.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
				{"uri": "file:///w/lib/schemas.ex", "type": 3},
				{"uri": "file:///w/lib/new.ex", "type": 1},
			}})
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"SetOverlay " + uri + " 1",
		"SetOverlay " + uri + " 2",
		"RemoveOverlay " + uri,
		"DiskChanged file:///w/lib/schemas.ex",
		"DiskChanged file:///w/lib/new.ex",
	}
	got := fake.Calls()
	if len(got) != len(want) {
		t.Fatalf("calls %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: %q, want %q", i, got[i], want[i])
		}
	}
}
