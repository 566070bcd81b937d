package workspace

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocuments: Documents gives the snapshot's own document first, then
// every other one holding the word, by URI; one the cheap scan left
// unparsed (no tool marker) is parsed for it without changing the
// analysis, and MapperOf then converts into its content.
func TestDocuments(t *testing.T) {
	tool := "defmodule App.Tools.Notes do\n  use Wymcp.Tool\n  def name, do: \"notes\"\nend\n"
	plain := "defmodule App.Other do\n  def n, do: App.Tools.Notes\nend\n"
	ws, dir := setup(t, map[string]string{
		"lib/notes.ex": tool, "lib/other.ex": plain, "lib/unrelated.ex": "defmodule App.X do\nend\n",
	})
	ws.Diagnose(context.Background())
	before := ws.parses.Load()
	notes, other := PathURI(filepath.Join(dir, "lib/notes.ex")), PathURI(filepath.Join(dir, "lib/other.ex"))
	snap, err := ws.Snapshot(context.Background(), notes)
	if err != nil {
		t.Fatal(err)
	}
	if m := snap.MapperOf(other); len(m.Content()) != 0 {
		t.Fatalf("other.ex has a mapper before Documents: the cheap scan should have left it unparsed")
	}
	docs := snap.Documents(context.Background(), "Notes")
	var got []string
	for _, d := range docs {
		got = append(got, filepath.Base(d.URI))
	}
	if strings.Join(got, " ") != "notes.ex other.ex" {
		t.Fatalf("documents %v, want [notes.ex other.ex]", got)
	}
	if d := docs[1]; string(d.Content) != plain || len(d.File.Modules) != 1 || d.File.Modules[0].Name != "App.Other" {
		t.Errorf("other.ex: content %q, modules %v", d.Content, d.File.Modules)
	}
	if l, c := snap.MapperOf(other).Position(strings.Index(plain, "App.Tools")); l != 1 || c != 13 {
		t.Errorf("other.ex position %d:%d, want 1:13", l, c)
	}
	if n := ws.parses.Load(); n != before {
		t.Errorf("parses %d, want %d: Documents' parse is not the workspace's", n, before)
	}
	if len(ws.Diagnose(context.Background())) != 0 {
		t.Errorf("Documents changed the analysis")
	}
	if got := snap.Documents(context.Background(), "NoSuchName"); len(got) != 0 {
		t.Errorf("documents for a word nowhere: %d", len(got))
	}
}
