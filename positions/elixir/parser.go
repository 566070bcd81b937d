// This file is the tree-sitter reader, kept only until the one benchmark
// comparing both readers has run (BenchmarkReaders); it then leaves.

package elixir

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"
	tselixir "github.com/smacker/go-tree-sitter/elixir"
)

// symKind classifies the grammar symbols the reader looks at.
type symKind uint8

const (
	kOther symKind = iota // a named node the reader does not model
	kToken                // an anonymous token ("%", "{", "=>", "do", ...)
	kError
	kSource
	kCall
	kArguments
	kDoBlock
	kIdentifier
	kAlias
	kDot
	kKeywords
	kPair
	kKeyword
	kQuotedKeyword
	kString
	kCharlist
	kQuotedContent
	kEscape
	kInterpolation
	kSigil
	kSigilName
	kSigilModifiers
	kAtom
	kQuotedAtom
	kInteger
	kFloat
	kChar
	kBoolean
	kNil
	kMap
	kStruct
	kMapContent
	kBinaryOp
	kUnaryOp
	kList
	kTuple
	kBlock
	kComment
)

// namedKind maps a named grammar symbol to its symKind.
func namedKind(name string) symKind {
	switch name {
	case "source":
		return kSource
	case "call":
		return kCall
	case "arguments":
		return kArguments
	case "do_block":
		return kDoBlock
	case "identifier":
		return kIdentifier
	case "alias":
		return kAlias
	case "dot":
		return kDot
	case "keywords":
		return kKeywords
	case "pair":
		return kPair
	case "keyword":
		return kKeyword
	case "quoted_keyword":
		return kQuotedKeyword
	case "string":
		return kString
	case "charlist":
		return kCharlist
	case "quoted_content":
		return kQuotedContent
	case "escape_sequence":
		return kEscape
	case "interpolation":
		return kInterpolation
	case "sigil":
		return kSigil
	case "sigil_name":
		return kSigilName
	case "sigil_modifiers":
		return kSigilModifiers
	case "atom":
		return kAtom
	case "quoted_atom":
		return kQuotedAtom
	case "integer":
		return kInteger
	case "float":
		return kFloat
	case "char":
		return kChar
	case "boolean":
		return kBoolean
	case "nil":
		return kNil
	case "map":
		return kMap
	case "struct":
		return kStruct
	case "map_content":
		return kMapContent
	case "binary_operator":
		return kBinaryOp
	case "unary_operator":
		return kUnaryOp
	case "list":
		return kList
	case "tuple":
		return kTuple
	case "block":
		return kBlock
	case "comment":
		return kComment
	}
	return kOther
}

// fieldKind classifies the grammar's field names.
type fieldKind uint8

const (
	fNone fieldKind = iota
	fKey
	fValue
	fLeft
	fRight
	fOperator
	fOperand
	fTarget
	fQuotedStart
	fQuotedEnd
)

// fieldKindOf maps a grammar field name to its fieldKind.
func fieldKindOf(name string) fieldKind {
	switch name {
	case "key":
		return fKey
	case "value":
		return fValue
	case "left":
		return fLeft
	case "right":
		return fRight
	case "operator":
		return fOperator
	case "operand":
		return fOperand
	case "target":
		return fTarget
	case "quoted_start":
		return fQuotedStart
	case "quoted_end":
		return fQuotedEnd
	}
	return fNone
}

// grammar holds the symbol and field tables of the tree-sitter-elixir
// language, read once per Parser.
type grammar struct {
	kinds  []symKind
	names  []string
	fields []fieldKind
}

func newGrammar(lang *sitter.Language) *grammar {
	g := &grammar{}
	n := int(lang.SymbolCount())
	g.kinds = make([]symKind, n)
	g.names = make([]string, n)
	for s := 0; s < n; s++ {
		name := lang.SymbolName(sitter.Symbol(s))
		g.names[s] = name
		if lang.SymbolType(sitter.Symbol(s)) != sitter.SymbolTypeRegular {
			g.kinds[s] = kToken
			continue
		}
		g.kinds[s] = namedKind(name)
	}
	g.fields = []fieldKind{fNone}
	for id := 1; id < 256; id++ {
		name := lang.FieldName(id)
		if name == "" {
			break
		}
		g.fields = append(g.fields, fieldKindOf(name))
	}
	return g
}

func (g *grammar) kind(n *rawNode) symKind {
	if n.sym == symErrorID {
		return kError
	}
	if int(n.sym) < len(g.kinds) {
		return g.kinds[n.sym]
	}
	return kOther
}

func (g *grammar) field(n *rawNode) fieldKind {
	if int(n.field) < len(g.fields) {
		return g.fields[n.field]
	}
	return fNone
}

func (g *grammar) name(n *rawNode) string {
	if int(n.sym) < len(g.names) {
		return g.names[n.sym]
	}
	return "token"
}

// live counts the tree-sitter trees and parsers not yet closed, process
// wide: tree-sitter memory is C memory the Go heap does not show, so leak
// tests read these (issue 5 item 2).
var live struct {
	trees, parsers atomic.Int64
}


// tsParser reads Elixir files with tree-sitter.
type tsParser struct {
	ts  *sitter.Parser
	g   *grammar
	buf []rawNode
}

func newTSParser() *tsParser {
	lang := tselixir.GetLanguage()
	ts := sitter.NewParser()
	ts.SetLanguage(lang)
	live.parsers.Add(1)
	return &tsParser{ts: ts, g: newGrammar(lang)}
}

// Close frees the parser. A closed Parser returns empty Files.
func (p *tsParser) Close() {
	if p.ts != nil {
		p.ts.Close()
		p.ts = nil
		live.parsers.Add(-1)
	}
	p.buf = nil
}

// maxKeptBuffer is the largest node buffer (in nodes) a Parser keeps for
// reuse between calls; larger ones are dropped after use.
const maxKeptBuffer = 1 << 20

func (p *tsParser) parseTS(ctx context.Context, uri string, src []byte) *File {
	f, _ := p.parse(ctx, uri, src)
	return f
}

func (p *tsParser) parse(ctx context.Context, uri string, src []byte) (*File, error) {
	f := &File{URI: uri}
	if p.ts == nil {
		return f, errors.New("elixir: parser is closed")
	}
	if err := ctx.Err(); err != nil {
		return f, err
	}
	tree, err := p.ts.ParseCtx(context.WithoutCancel(ctx), nil, src)
	if err != nil || tree == nil {
		return f, fmt.Errorf("elixir: parse %s: %w", uri, err)
	}
	live.trees.Add(1)
	nodes, err := flatten(tree.RootNode(), p.buf, len(src)/2+64) // about 0.45 nodes per byte
	tree.Close()
	live.trees.Add(-1)
	if err != nil {
		return f, fmt.Errorf("elixir: parse %s: %w", uri, err)
	}
	if cap(nodes) <= maxKeptBuffer {
		p.buf = nodes[:0]
	} else {
		p.buf = nil
	}
	c := &converter{src: src, n: nodes, g: p.g, uri: uri, file: f}
	c.run()
	return f, nil
}
