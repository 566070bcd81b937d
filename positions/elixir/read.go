// Package elixir is the Elixir reader of wymcp-ls (docs/architecture.md
// "The Elixir reader"): one tolerant lexer and parser in pure Go read
// Elixir source, without compiling or running it, into this package's
// immutable IR (File, Module, Expr with byte spans); a syntax check over
// the same tokens finds the first syntax error where Elixir's own parser
// (Code.string_to_quoted/2) finds it; one evaluator turns a tool's
// actions/0 into validate.Value terms whose Origin stands for the
// positions.Loc (document URI and byte span) where each key and value is
// written (positions.OriginOf, positions.LocOf).
//
// The same reader serves diagnostics, `wymcp-ls check` (Parse) and the
// cursor features (NewSketch*): every open container is closed at the
// next definition first on its line, at an `end` or at the end of the
// file, so half-typed code keeps the definitions around it.
package elixir

import (
	"context"
	"runtime"

	"github.com/wymcp/wymcp-ls/positions"
)

// Parser reads Elixir files. It keeps a token buffer between files, so
// it is not safe for concurrent use (use one per goroutine); the Files it
// returns share nothing with it and are safe to share.
type Parser struct {
	buf []token
	// names interns the identifier, key and atom texts of the files read
	// (cleared past maxKeptNames): the names of a file edited and read
	// again are found rather than allocated.
	names *names
}

// NewParser returns a Parser.
func NewParser() *Parser { return &Parser{} }

// Close drops the parser's buffer. A closed Parser still parses.
func (p *Parser) Close() { p.buf, p.names = nil, nil }

// maxKeptTokens is the largest token buffer (in tokens) a Parser keeps
// for the next file.
const maxKeptTokens = 1 << 20

// maxKeptNames is the most interned names a Parser keeps for the next file.
const maxKeptNames = 1 << 14

// Parse reads src (any bytes: half-typed code, invalid UTF-8, empty) as
// the document uri into a File: every module with its attributes,
// definitions, aliases and the IR of the expressions that can be
// evaluated, and the file's first syntax error, at the byte span where
// Elixir reports it (README.md, the `syntax-error` code). The recovery points
// of the tolerant parser stay in the IR as ExprError nodes without a
// message; the syntax error itself is attached to the innermost
// expression of its module that holds it, so an evaluation reports it.
// Parse never panics on bad input; its work is linear in len(src). When
// ctx is done before reading starts it returns a File without modules.
func (p *Parser) Parse(ctx context.Context, uri string, src []byte) *File {
	if p.names == nil || len(p.names.index) > maxKeptNames {
		p.names = newNames()
	}
	f, buf := readFileBuf(ctx, uri, src, p.buf, p.names)
	if cap(buf) <= maxKeptTokens {
		p.buf = buf
	} else {
		p.buf = nil
	}
	return f
}

// readFileBuf reads src as the document uri with the tolerant parser and
// the syntax check (the File of Parse), lexing into the token buffer buf;
// it returns the buffer for reuse (the File keeps no reference to it).
// names is the interning map of lexInto.
func readFileBuf(ctx context.Context, uri string, src []byte, buf []token, nm *names) (*File, []token) {
	if ctx.Err() != nil {
		return &File{URI: uri}, buf
	}
	lx := lexInto(src, 0, -1, buf, nm)
	// A file Elixir reads whole is parsed without the column recovery,
	// which only a broken buffer needs (valid code not indented as mix
	// format writes it, `if c do` then `defmodule A do` at one column,
	// nests as Elixir nests it); the check, which reads the tokens alone,
	// tells which.
	s, p, serr := checkAndParse(uri, src, lx, len(lx.toks) >= concurrentCheckTokens && runtime.GOMAXPROCS(0) > 1)
	f := s.File
	if serr != nil {
		f.Errors = []SyntaxError{*serr}
	}
	settleErrors(s, p, serr)
	f.sketch = s
	return f, lx.toks[:0]
}

// checkAndParse runs the syntax check over the tokens lx of src and
// parses them (the full reading), strictly when the check finds the file
// whole, and returns the Sketch, its parser and the check's error (nil
// for none). With concurrent, the parse with the recovery runs while the
// check runs on another goroutine (both only read lx): where the
// recovery never decided (cparser.recovered) that reading is the strict
// one; where it did and the check found the file whole, the file is read
// again, strictly. Both ways return the same reading.
func checkAndParse(uri string, src []byte, lx lexed, concurrent bool) (*Sketch, *cparser, *SyntaxError) {
	if !concurrent {
		serr := syntaxCheck(uri, lx)
		s, p := parseTokens(uri, src, lx, -1, false, true, serr == nil)
		return s, p, serr
	}
	done := make(chan *SyntaxError, 1)
	go func() { done <- syntaxCheck(uri, lx) }()
	s, p := parseTokens(uri, src, lx, -1, false, true, false)
	serr := <-done
	if serr == nil && p.recovered {
		s, p = parseTokens(uri, src, lx, -1, false, true, true)
	}
	return s, p, serr
}

// concurrentCheckTokens is the token count from which readFileBuf runs the
// syntax check alongside the parse, when the process may run two
// goroutines at once (GOMAXPROCS): below it (a 2,000-line module) waking
// the goroutine costs more than the check (reading the 300-line tool of
// BenchmarkReaderSmall, 2,200 tokens, that way took a fifth longer).
const concurrentCheckTokens = 1 << 14

// settleErrors makes the error expressions of the IR agree with the
// syntax check. The tolerant parser's own error nodes are recovery
// points: they keep their span (a value written there is unknown, the
// container around it partial) but lose their message, so an evaluation
// does not report them. The one error the check found, where Elixir
// finds it, is attached to the innermost expression of its module that
// holds it, so that evaluating that expression reports it once.
func settleErrors(s *Sketch, p *cparser, serr *SyntaxError) {
	n := len(s.Src)
	for _, e := range p.errs {
		e.Text = ""
		e.Span = nonEmptySpan(e.Span, n)
	}
	for _, e := range p.unclosed { // never closed: its text is not known
		e.Kind, e.Text = ExprOpaque, ""
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
		inner.addErrs(&Expr{Kind: ExprError, Span: serr.Span, Text: serr.Message})
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
