package elixir

import (
	"fmt"
	"strings"

	"github.com/wymcp/wymcp-ls/positions"
	"github.com/wymcp/wymcp-ls/validate"
)

// mapResolver resolves modules from parsed files (test helper).
type mapResolver map[string]*Module

func (r mapResolver) Module(name string) *Module { return r[name] }

func resolverOf(files ...*File) mapResolver {
	r := mapResolver{}
	for _, f := range files {
		for _, m := range f.Modules {
			if _, ok := r[m.Name]; !ok {
				r[m.Name] = m
			}
		}
	}
	return r
}

// render prints a value compactly with the source text at each Origin,
// srcs maps URI to content: `%{:a@"a:" => 1@"1"}`.
func render(v *validate.Value, srcs map[string][]byte) string {
	var b strings.Builder
	renderTo(&b, v, srcs)
	return b.String()
}

func originText(o validate.Origin, srcs map[string][]byte) string {
	l, ok := positions.LocOf(o)
	if !ok {
		return "?"
	}
	src := srcs[l.URI]
	if l.Span.Start < 0 || l.Span.End > len(src) || l.Span.Start >= l.Span.End {
		return fmt.Sprintf("BAD%v", l.Span)
	}
	return fmt.Sprintf("%q", src[l.Span.Start:l.Span.End])
}

func renderTo(b *strings.Builder, v *validate.Value, srcs map[string][]byte) {
	if v == nil {
		b.WriteString("<nil>")
		return
	}
	switch v.Kind {
	case validate.Map:
		b.WriteString("%{")
		for i, e := range v.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			renderTo(b, e.Key, srcs)
			b.WriteString(" => ")
			renderTo(b, e.Value, srcs)
		}
		if v.Partial {
			b.WriteString(" ...")
		}
		b.WriteString("}")
		b.WriteString("@" + originText(v.Origin, srcs) + "/open " + originText(v.Open(), srcs))
		return
	case validate.List, validate.Tuple:
		o, c := "[", "]"
		if v.Kind == validate.Tuple {
			o, c = "{", "}"
		}
		b.WriteString(o)
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			renderTo(b, e, srcs)
		}
		if v.Partial {
			b.WriteString(" ...")
		}
		b.WriteString(c)
	case validate.String:
		if v.Unknown {
			b.WriteString("~")
		}
		fmt.Fprintf(b, "%q", v.Text)
	case validate.Charlist:
		fmt.Fprintf(b, "'%s'", strings.Trim(fmt.Sprintf("%q", v.Text), `"`))
	case validate.Atom:
		fmt.Fprintf(b, ":%q", v.Text)
	case validate.Opaque:
		b.WriteString("opaque")
	default:
		b.WriteString(v.Text)
	}
	b.WriteString("@" + originText(v.Origin, srcs))
}
