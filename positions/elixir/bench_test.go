package elixir

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	tselixir "github.com/smacker/go-tree-sitter/elixir"

	"github.com/wymcp/wymcp-ls/validate"
)

// walkAll visits every node of the tree once through the binding: the
// cursor walk any consumer of go-tree-sitter does, asking each node its
// type. It returns the number of nodes.
func walkAll(tree *sitter.Tree) int {
	c := sitter.NewTreeCursor(tree.RootNode())
	defer c.Close()
	n := 0
	for {
		if c.CurrentNode().Type() != "" {
			n++
		}
		if c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return n
			}
		}
	}
}

// BenchmarkReader measures, on the generated 1,000-action tool module
// (about 13,000 lines, 535 KB), in one run (docs/architecture.md "Performance targets"):
//
//	parse       raw tree-sitter parse + close (the floor)
//	parse+walk  parse + one full node walk through the binding (baseline (b))
//	read        our Parse: tree-sitter parse + flatten + IR conversion
//	analysis    full analysis (c): Parse + Evaluate + validate Declaration
//
// Target: analysis at most 1.5x parse+walk.
func BenchmarkReader(b *testing.B) {
	src := GenerateTool(1000)
	ctx := context.Background()
	b.Run("parse", func(b *testing.B) {
		p := sitter.NewParser()
		defer p.Close()
		p.SetLanguage(tselixir.GetLanguage())
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			tree, err := p.ParseCtx(ctx, nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	})
	b.Run("parse+walk", func(b *testing.B) {
		p := sitter.NewParser()
		defer p.Close()
		p.SetLanguage(tselixir.GetLanguage())
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			tree, err := p.ParseCtx(ctx, nil, src)
			if err != nil {
				b.Fatal(err)
			}
			if walkAll(tree) == 0 {
				b.Fatal("empty tree")
			}
			tree.Close()
		}
	})
	b.Run("read", func(b *testing.B) {
		p := NewParser()
		defer p.Close()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if f := p.Parse(ctx, "file:///gen.ex", src); len(f.Modules) != 1 {
				b.Fatal("no module")
			}
		}
	})
	b.Run("analysis", func(b *testing.B) {
		p := NewParser()
		defer p.Close()
		v := validate.DefaultValidator()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			f := p.Parse(ctx, "file:///gen.ex", src)
			res := Evaluate(ctx, nil, f.Modules[0])
			if len(res.Actions.Entries) != 1000 {
				b.Fatalf("%d actions", len(res.Actions.Entries))
			}
			if offs := v.Declaration(res.Actions); len(offs) != 0 {
				b.Fatalf("offences on the generated tool: %v", offs[0])
			}
		}
	})
}

// BenchmarkReaderSmall is the full analysis (Parse + Evaluate + validate)
// of a 300-line tool module (23 generated actions), the size of the LSP's
// "median under 5 ms" target (docs/architecture.md "Performance targets").
func BenchmarkReaderSmall(b *testing.B) {
	src := GenerateTool(23)
	ctx := context.Background()
	p := NewParser()
	defer p.Close()
	v := validate.DefaultValidator()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		f := p.Parse(ctx, "file:///gen.ex", src)
		res := Evaluate(ctx, nil, f.Modules[0])
		if offs := v.Declaration(res.Actions); len(offs) != 0 {
			b.Fatalf("offences on the generated tool: %v", offs[0])
		}
	}
}
