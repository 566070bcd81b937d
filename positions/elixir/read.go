package elixir

import (
	"context"

	"github.com/wymcp/wymcp-ls/positions"
)

// readFile reads src as the document uri with the tolerant parser and
// the syntax check: the File of Parse.
func readFile(ctx context.Context, uri string, src []byte) *File {
	if ctx.Err() != nil {
		return &File{URI: uri}
	}
	toks, words := lex(src, -1)
	s := sketchTokens(uri, src, src, toks, words, -1, false)
	f := s.File
	serr := syntaxCheck(uri, src, toks)
	if serr != nil {
		f.Errors = []SyntaxError{*serr}
	}
	settleErrors(s, serr)
	return f
}

// settleErrors makes the error expressions of the IR agree with the
// syntax check. The tolerant parser's own error nodes are recovery
// points: they keep their span (a value written there is unknown, the
// container around it partial) but lose their message, so an evaluation
// does not report them. The one error the check found, where Elixir
// finds it, is attached to the innermost expression of its module that
// holds it, so that evaluating that expression reports it once.
func settleErrors(s *Sketch, serr *SyntaxError) {
	n := len(s.Src)
	silence := func(e *Expr) bool {
		e.Span = nonEmptySpan(e.Span, n)
		if e.Kind == ExprError {
			e.Text = ""
		}
		for _, x := range e.Errs {
			x.Text = ""
			x.Span = nonEmptySpan(x.Span, n)
		}
		switch e.Kind {
		case ExprString, ExprCharlist:
			if len(e.Errs) > 0 { // never closed: its text is not known
				e.Kind, e.Text = ExprOpaque, ""
			}
		case ExprMap, ExprList, ExprTuple:
			// A missing value or element makes its container partial.
			for _, p := range e.Pairs {
				if p.Value.Kind == ExprError {
					e.Errs = append(e.Errs, p.Value)
				}
			}
			for _, a := range e.Args {
				if a.Kind == ExprError {
					e.Errs = append(e.Errs, a)
				}
			}
		}
		return true
	}
	for _, st := range s.Stmts {
		Walk(st.Expr, silence)
	}
	if serr == nil {
		return
	}
	var holder *Module
	for _, m := range s.File.Modules {
		if m.Span.Start <= serr.Span.Start && serr.Span.Start < m.Span.End {
			holder = m
		}
	}
	if holder != nil {
		attachError(s, holder, serr)
	}
}

// attachError adds the syntax error to the innermost expression of
// module holder whose span holds its start, so that evaluating that
// expression reports it (and marks its value partial) even where the
// tolerant parser recovered without an error node (`%{a: 1,, b: 2}`).
func attachError(s *Sketch, holder *Module, serr *SyntaxError) {
	at := serr.Span.Start
	var inner *Expr
	for _, st := range s.Stmts {
		if st.Module != holder || !(st.Expr.Span.Start <= at && at < st.Expr.Span.End) {
			continue
		}
		Walk(st.Expr, func(e *Expr) bool {
			if !(e.Span.Start <= at && at < e.Span.End) {
				return false
			}
			if e.Kind == ExprCall && e.Base == nil && e.Text == "defmodule" {
				return false
			}
			inner = e
			return true
		})
	}
	if inner != nil {
		inner.Errs = append(inner.Errs, &Expr{Kind: ExprError, Span: serr.Span, Text: serr.Message})
	}
}

// nonEmptySpan widens an empty span (a missing token) to one byte: the
// byte after it, or the one before it at the end of the content of n
// bytes (the IR's spans are never empty, docs/architecture.md).
func nonEmptySpan(sp positions.Span, n int) positions.Span {
	if sp.Start < sp.End {
		return sp
	}
	if sp.End < n {
		sp.End++
	} else if sp.Start > 0 {
		sp.Start--
	}
	return sp
}
