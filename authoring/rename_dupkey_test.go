package authoring

import (
	"context"
	"strings"
	"testing"
)

// TestRenameDuplicateDeclaration: a property whose key is written twice in
// :properties (lint/duplicate-key: only the last takes effect) is renamed
// in both keys, from either; renaming the last alone brought the earlier
// one back to life as a property of its own (authoring/rename.go Rename).
func TestRenameDuplicateDeclaration(t *testing.T) {
	src := editTool(`  def actions, do: %{a: %{description: "A", properties: %{"id" => %{}, "id" => %{"type" => "string"}}, required: ["id"]}}`)
	want := editTool(`  def actions, do: %{a: %{description: "A", properties: %{"key" => %{}, "key" => %{"type" => "string"}}, required: ["key"]}}`)
	for _, at := range []int{strings.Index(src, `"id"`) + 1, strings.LastIndex(src, `"id" =>`) + 1, strings.LastIndex(src, `"id"`) + 1} {
		snap := editSnap(t, editURI, map[string]string{editURI: src})
		edits, err := Rename(context.Background(), snap, at, "key")
		if err != nil {
			t.Fatalf("rename at %d: %v", at, err)
		}
		if got := string(Apply([]byte(src), editURI, edits)); got != want {
			t.Errorf("rename at %d:\n%s\nwant:\n%s", at, got, want)
		}
	}
}
