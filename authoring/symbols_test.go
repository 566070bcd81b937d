package authoring

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/positions/elixir"
	"github.com/wymcp/wymcp-ls/workspace"
)

// renderSymbols writes symbols one a line as "<kind> <name> <span> <name span>".
func renderSymbols(b *strings.Builder, syms []Symbol, indent string) {
	for _, s := range syms {
		fmt.Fprintf(b, "%s%d %s %q %d-%d %d-%d\n", indent, s.Kind, s.Name, s.Detail, s.Span.Start, s.Span.End, s.NameSpan.Start, s.NameSpan.End)
		renderSymbols(b, s.Children, indent+"  ")
	}
}

// TestDocumentSymbolsBytes checks byte spans, properties of a shared
// attribute listed once under the module that holds them, a nested tool
// module (its non-tool parent is not listed), and that every child lies
// inside its parent.
func TestDocumentSymbolsBytes(t *testing.T) {
	text := "defmodule Outer do\n" + // 0..19
		"  defmodule T do\n" +
		"    use Wymcp.Tool\n" +
		"    @s %{description: \"S\", properties: %{\"x\" => %{}}}\n" +
		"    def actions, do: %{\"c\" => %{description: \"C\", properties: %{}}, a: @s, b: @s}\n" +
		"  end\n" +
		"end\n"
	snap := editSnap(t, editURI, map[string]string{editURI: text})
	syms := DocumentSymbols(context.Background(), snap)
	var b strings.Builder
	renderSymbols(&b, syms, "")
	at := func(s string) int { return strings.Index(text, s) }
	want := fmt.Sprintf("1 Outer.T \"tool (name/0 not known)\" 21-%d 31-32\n", at("  end\n")+5) +
		fmt.Sprintf("  3 x \"\" %d-%d %d-%d\n", at(`"x"`), at(`"x"`)+10, at(`"x"`), at(`"x"`)+3) +
		fmt.Sprintf("  2 c \"C\" %d-%d %d-%d\n", at(`"c"`), at(`%{}},`)+4, at(`"c"`), at(`"c"`)+3) +
		fmt.Sprintf("  2 a \"S\" %d-%d %d-%d\n", at("a: @s"), at("a: @s")+5, at("a: @s"), at("a: @s")+1) +
		fmt.Sprintf("  2 b \"S\" %d-%d %d-%d\n", at("b: @s"), at("b: @s")+5, at("b: @s"), at("b: @s")+1)
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var check func(parent positions.Span, ss []Symbol)
	check = func(parent positions.Span, ss []Symbol) {
		for _, s := range ss {
			if !spanInside(parent, s.Span) || !spanInside(s.Span, s.NameSpan) {
				t.Errorf("%s %v not inside %v, or its name %v outside", s.Name, s.Span, parent, s.NameSpan)
			}
			check(s.Span, s.Children)
		}
	}
	check(positions.Span{Start: 0, End: len(text)}, syms)

	if DocumentSymbols(context.Background(), nil) != nil {
		t.Error("nil snapshot")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := DocumentSymbols(ctx, snap); got != nil {
		t.Errorf("cancelled: %+v", got)
	}
}

func benchSnap(b *testing.B, text []byte) *workspace.Snapshot {
	ws := workspace.New(workspace.Options{})
	b.Cleanup(ws.Close)
	ws.SetOverlay(editURI, 1, text)
	ws.Diagnose(context.Background())
	s, err := ws.Snapshot(context.Background(), editURI)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkDocumentSymbols outlines a generated 1,000-action (13,000-line)
// tool module from a ready snapshot.
func BenchmarkDocumentSymbols(b *testing.B) {
	snap := benchSnap(b, elixir.GenerateTool(1000))
	b.ResetTimer()
	for b.Loop() {
		if len(DocumentSymbols(context.Background(), snap)) != 1 {
			b.Fatal("no outline")
		}
	}
}

// BenchmarkCodeActions asks for the fixes of a typo in the last action of
// a generated 1,000-action tool module, from a ready snapshot.
func BenchmarkCodeActions(b *testing.B) {
	text := elixir.GenerateTool(1000)
	i := bytes.LastIndex(text, []byte("notes:"))
	text = append(text[:i:i], append([]byte("notse:"), text[i+6:]...)...)
	snap := benchSnap(b, text)
	b.ResetTimer()
	for b.Loop() {
		if len(CodeActions(context.Background(), snap, positions.Span{Start: i, End: i})) != 1 {
			b.Fatal("no fix")
		}
	}
}
