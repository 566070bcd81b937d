package authoring

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
)

// TestAttrDefinitionAtItsAt: the cursor on the `@` of an attribute
// definition names that attribute, as on the `@` of a read and on its
// name: references, highlights and definition answer the same at each,
// on a clean document and on one with a syntax error further down.
func TestAttrDefinitionAtItsAt(t *testing.T) {
	const uri = "file:///w/lib/t.ex"
	clean := "defmodule T do\n  use Wymcp.Tool\n  @limit %{\"type\" => \"integer\"}\n" +
		"  def actions, do: %{list: %{description: \"L\", properties: %{\"limit\" => @limit}}}\nend\n"
	for _, text := range []string{clean, clean + "defmodule B do\n  def x(, do: 1\nend\n"} {
		snap := editSnap(t, uri, map[string]string{uri: text})
		def := strings.Index(text, "@limit %")
		use := strings.Index(text, "=> @limit") + 3
		want := fmt.Sprintf("[{{%d %d} true} {{%d %d} false}]", def, def+6, use, use+6)
		for _, off := range []int{def, def + 1, use, use + 1} {
			if got := fmt.Sprint(Highlights(context.Background(), snap, off)); got != want {
				t.Errorf("errors %d: highlights at %d = %s, want %s", len(snap.File.Errors), off, got, want)
			}
			wantRefs := fmt.Sprintf("[%s:%d-%d %s:%d-%d]", uri, def, def+6, uri, use, use+6)
			if got := fmtLocs(References(context.Background(), snap, off, true)); got != wantRefs {
				t.Errorf("errors %d: references at %d = %s, want %s", len(snap.File.Errors), off, got, wantRefs)
			}
		}
	}
}

// fmtLocs writes locations as [uri:start-end ...].
func fmtLocs(ls []positions.Loc) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, fmt.Sprintf("%s:%d-%d", l.URI, l.Span.Start, l.Span.End))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
