package elixir

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	tselixir "github.com/smacker/go-tree-sitter/elixir"
)

// TestFlattenMatchesBinding guards the flattener's reliance on the
// binding's memory layout and on the C API: every node of a tree, read
// through the binding's own cursor, must equal the flattened record (span,
// symbol, flags, field, subtree end).
func TestFlattenMatchesBinding(t *testing.T) {
	srcs := map[string]string{
		"tool":   string(GenerateTool(3)),
		"broken": "defmodule A do\n  # comment\n  @\n  @run %{description: \"x\", \n  def actions, do: %{run: %{pro",
		"empty":  "",
		"utf8":   "@x \"\xff\" # é\n",
	}
	lang := tselixir.GetLanguage()
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			p := sitter.NewParser()
			defer p.Close()
			p.SetLanguage(lang)
			tree, err := p.ParseCtx(context.Background(), nil, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			flat, err := flatten(tree.RootNode(), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			type rec struct {
				start, end uint32
				sym        uint16
				named      bool
				missing    bool
				extra      bool
				hasErr     bool
				field      string
				size       int
			}
			var want []rec
			var walk func(n *sitter.Node, field string) int
			walk = func(n *sitter.Node, field string) int {
				i := len(want)
				want = append(want, rec{n.StartByte(), n.EndByte(), uint16(n.Symbol()), n.IsNamed(), n.IsMissing(), n.IsExtra(), n.HasError(), field, 0})
				size := 1
				for k := 0; k < int(n.ChildCount()); k++ {
					size += walk(n.Child(k), n.FieldNameForChild(k))
				}
				want[i].size = size
				return size
			}
			walk(tree.RootNode(), "")
			if len(flat) != len(want) {
				t.Fatalf("flattened %d nodes, binding has %d", len(flat), len(want))
			}
			for i, w := range want {
				f := flat[i]
				fieldName := ""
				if f.field != 0 {
					fieldName = lang.FieldName(int(f.field))
				}
				got := rec{f.start, f.end, f.sym, f.named(), f.missing(), f.extra(), f.hasErr(), fieldName, int(f.next) - i}
				if got != w {
					t.Fatalf("node %d: flattened %+v, binding %+v", i, got, w)
				}
			}
		})
	}
}

// TestFlattenGrowsBuffer checks the retry when the reused buffer is too
// small.
func TestFlattenGrowsBuffer(t *testing.T) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(tselixir.GetLanguage())
	src := GenerateTool(2)
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	small := make([]rawNode, 0, 3)
	flat, err := flatten(tree.RootNode(), small, 0)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := flatten(tree.RootNode(), nil, 1<<16)
	if len(flat) != len(full) || len(flat) < 100 || flat[len(flat)-1] != full[len(full)-1] {
		t.Fatalf("grown flatten: %d nodes, want %d", len(flat), len(full))
	}
}
