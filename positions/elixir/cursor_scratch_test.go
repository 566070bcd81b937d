package elixir

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

func dumpExpr(b *strings.Builder, src []byte, e *Expr, ind string) {
	if e == nil {
		return
	}
	t := string(src[e.Span.Start:e.Span.End])
	if len(t) > 40 {
		t = t[:40] + "…"
	}
	fmt.Fprintf(b, "%s%s %v text=%q %q\n", ind, e.Kind, e.Span, e.Text, t)
	if e.Base != nil {
		fmt.Fprintf(b, "%s base:\n", ind)
		dumpExpr(b, src, e.Base, ind+"   ")
	}
	for _, a := range e.Args {
		dumpExpr(b, src, a, ind+"  ")
	}
	for _, p := range e.Pairs {
		fmt.Fprintf(b, "%s pair kw=%v %v\n", ind, p.Keyword, p.Span)
		dumpExpr(b, src, p.Key, ind+"   K ")
		dumpExpr(b, src, p.Value, ind+"   V ")
	}
	for _, x := range e.Errs {
		fmt.Fprintf(b, "%s err:\n", ind)
		dumpExpr(b, src, x, ind+"   ! ")
	}
}

func TestScratchDump(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("SCRATCH"))
	if err != nil {
		t.Skip()
	}
	p := NewParser()
	defer p.Close()
	f := p.Parse(context.Background(), "file:///x.ex", src)
	var b strings.Builder
	for _, m := range f.Modules {
		fmt.Fprintf(&b, "module %s tool=%v\n", m.Name, m.Tool)
		for _, a := range m.Attrs {
			fmt.Fprintf(&b, " attr %s %v\n", a.Name, a.Span)
			dumpExpr(&b, src, a.Value, "   ")
		}
		for _, d := range m.Defs {
			fmt.Fprintf(&b, " def %s/%d %v\n", d.Name, d.Arity, d.Span)
			dumpExpr(&b, src, d.Body, "   ")
		}
	}
	for _, e := range f.Errors {
		fmt.Fprintf(&b, "error %v %s\n", e.Span, e.Message)
	}
	fmt.Println(b.String())
}
