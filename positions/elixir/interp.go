package elixir

// Interpolations returns the expressions written in the interpolations
// (`#{...}`) of e, an interpolated string, charlist, quoted atom or ~w
// sigil (Unknown set) whose source is src: each interpolation's
// statements in source order, read by the same tolerant parser as the
// file, with spans that are byte offsets into src. A string written in an
// interpolation is an expression like any other; its own interpolations
// are found by calling Interpolations on it. It returns nil for every
// other expression, and reads nothing past e's span.
func Interpolations(src []byte, e *Expr) []*Expr {
	if e == nil || !e.Unknown || e.Span.Start < 0 || e.Span.End > len(src) || e.Span.Start >= e.Span.End {
		return nil
	}
	switch e.Kind {
	case ExprString, ExprCharlist, ExprAtom, ExprWords:
	default:
		return nil
	}
	l := &lexer{src: src[:e.Span.End]}
	var out []*Expr
	for i := e.Span.Start; i+1 < e.Span.End; i++ {
		switch {
		case src[i] == '\\':
			i++ // an escape: `\#{` is written as is
		case src[i] == '#' && src[i+1] == '{':
			end := l.interpolationEnd(i + 2) // past the closing }, or e's end
			to := end
			if to > i+2 && src[to-1] == '}' {
				to--
			}
			s := newSketchFrom("", src, src[:to], i+2, -1, false)
			for _, st := range s.Stmts {
				out = append(out, st.Expr)
			}
			i = end - 1
		}
	}
	return out
}
