package elixir

import (
	"context"
	"fmt"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// checkFile verifies the reader's invariants on a parsed file: every span
// of every IR node, syntax error and evaluated Value lies within
// [0, len(src)] with Start < End, and every Origin is a positions.Loc of a
// known document. It evaluates every tool module, attribute and zero-arity
// function. It returns the first violation, or nil.
func checkFile(f *File, src []byte) error {
	n := len(src)
	bad := func(what string, s positions.Span) error {
		if s.Start < 0 || s.End > n || s.Start >= s.End {
			return fmt.Errorf("%s: span %v outside [0,%d] or empty", what, s, n)
		}
		return nil
	}
	for _, e := range f.Errors {
		if err := bad("syntax error "+e.Message, e.Span); err != nil {
			return err
		}
		if e.URI != f.URI {
			return fmt.Errorf("syntax error URI %q", e.URI)
		}
	}
	var expr func(e *Expr, depth int) error
	expr = func(e *Expr, depth int) error {
		if e == nil {
			return fmt.Errorf("nil expr")
		}
		if depth > 10000 {
			return fmt.Errorf("expr nesting %d", depth)
		}
		if err := bad("expr "+e.Kind.String(), e.Span); err != nil {
			return err
		}
		if e.Kind == ExprMap {
			if err := bad("map open", e.Open()); err != nil {
				return err
			}
		}
		if e.Kind == ExprCall || e.Kind == ExprAttr {
			if err := bad("name of "+e.Kind.String(), e.NameSpan); err != nil {
				return err
			}
		}
		kids := append(append([]*Expr{}, e.Args...), e.Errs()...)
		if e.Base != nil {
			kids = append(kids, e.Base)
		}
		for _, p := range e.Pairs {
			if err := bad("pair", p.Span); err != nil {
				return err
			}
			kids = append(kids, p.Key, p.Value)
		}
		for _, w := range e.Words() {
			if err := bad("word", w.Span); err != nil {
				return err
			}
		}
		for _, k := range kids {
			if err := expr(k, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	res := resolverOf(f)
	var value func(v *validate.Value, depth int) error
	value = func(v *validate.Value, depth int) error {
		if v == nil {
			return fmt.Errorf("nil value")
		}
		if depth > 10000 {
			return fmt.Errorf("value nesting %d", depth)
		}
		for _, o := range []validate.Origin{v.Origin, v.Open()} {
			if o.IsZero() {
				continue
			}
			l, ok := positions.LocOf(o)
			if !ok || l.URI != f.URI {
				return fmt.Errorf("origin %#v", o)
			}
			if err := bad("value "+v.Kind.String(), l.Span); err != nil {
				return err
			}
		}
		if v.Origin.IsZero() {
			return fmt.Errorf("value %s without origin", v.Kind)
		}
		for _, e := range v.Entries {
			if err := value(e.Key, depth+1); err != nil {
				return err
			}
			if err := value(e.Value, depth+1); err != nil {
				return err
			}
		}
		for _, e := range v.Elems {
			if err := value(e, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	evalCheck := func(r *Result) error {
		for _, e := range r.Errors {
			if err := bad("eval error", e.Span); err != nil {
				return err
			}
		}
		if r.Actions != nil {
			return value(r.Actions, 0)
		}
		return nil
	}
	ctx := context.Background()
	for _, m := range f.Modules {
		if m.URI != f.URI || m.Name == "" {
			return fmt.Errorf("module %q uri %q", m.Name, m.URI)
		}
		for _, s := range []positions.Span{m.Span, m.NameSpan} {
			if err := bad("module "+m.Name, s); err != nil {
				return err
			}
		}
		for _, a := range m.Attrs {
			if err := bad("attr", a.Span); err != nil {
				return err
			}
			if err := bad("attr name", a.NameSpan); err != nil {
				return err
			}
			if err := expr(a.Value, 0); err != nil {
				return err
			}
			if err := evalCheck(EvaluateExpr(ctx, res, m, a.Value)); err != nil {
				return err
			}
		}
		for _, d := range m.Defs {
			if err := bad("def", d.Span); err != nil {
				return err
			}
			if err := bad("def name", d.NameSpan); err != nil {
				return err
			}
			if d.Body != nil {
				if err := expr(d.Body, 0); err != nil {
					return err
				}
				if err := evalCheck(EvaluateExpr(ctx, res, m, d.Body)); err != nil {
					return err
				}
			}
		}
		for _, a := range m.Aliases {
			if err := bad("alias", a.Span); err != nil {
				return err
			}
		}
		if err := evalCheck(Evaluate(ctx, res, m)); err != nil {
			return err
		}
	}
	return nil
}
