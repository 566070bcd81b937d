package lsp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fuzzy matching of workspace symbol queries, after gopls's
// internal/fuzzy: a query matches a candidate when its characters appear
// in the candidate in order, ignoring case (a subsequence), and the best
// alignment scores higher for characters at word starts (after ".", "_",
// "-", ":" or at a lower-to-upper case change), for consecutive runs, and
// for characters inside the symbol's own name rather than its container.

// fuzzyMatcher scores candidates against one query. It keeps scratch rows
// between calls, so it is not safe for concurrent use.
type fuzzyMatcher struct {
	q         []byte // lower-cased query
	cur, prev []int
}

// newFuzzyMatcher returns a matcher for query (surrounding space ignored).
func newFuzzyMatcher(query string) *fuzzyMatcher {
	return &fuzzyMatcher{q: []byte(foldLower(strings.TrimSpace(query)))}
}

// foldLower returns s with each character in lower case when that is
// written with as many bytes, else as it is, so that a byte offset into s
// is one into the result (score reads both at the same offsets;
// strings.ToLower turns the two bytes of "İ" into three, and the three of
// the Kelvin sign into one).
func foldLower(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			if isUpperByte(c) {
				b[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == n {
			utf8.EncodeRune(b[i:], l)
		}
		i += n
	}
	return string(b)
}

// noMatch marks an impossible alignment in the score rows.
const noMatch = -1 << 30

// score returns the score of cand (lower-cased by foldLower in lower), whose
// own name starts at byte nameStart (the container comes before), and
// whether the query matches at all. An empty query matches everything with
// score 0. Higher is better.
func (f *fuzzyMatcher) score(cand, lower string, nameStart int) (int, bool) {
	q := f.q
	if len(q) == 0 {
		return 0, true
	}
	if len(q) > len(lower) || !subsequence(q, lower) {
		return 0, false
	}
	m := len(lower)
	if cap(f.cur) < m {
		f.cur, f.prev = make([]int, m), make([]int, m)
	}
	cur, prev := f.cur[:m], f.prev[:m]
	// prev[j]: best score of q[:i] with q[i-1] matched at j.
	for i := range q {
		best := noMatch // best prev[k] for k < j-1
		for j := 0; j < m; j++ {
			if i > 0 && j >= 2 && prev[j-2] > best {
				best = prev[j-2]
			}
			cur[j] = noMatch
			if lower[j] != q[i] {
				continue
			}
			s := charBonus(cand, j, nameStart)
			if i == 0 {
				cur[j] = s
				continue
			}
			from := best
			if j >= 1 && prev[j-1] != noMatch && prev[j-1]+consecutiveBonus > from {
				from = prev[j-1] + consecutiveBonus
			}
			if from != noMatch {
				cur[j] = from + s
			}
		}
		cur, prev = prev, cur
	}
	top := noMatch
	for _, v := range prev {
		top = max(top, v)
	}
	if top == noMatch {
		return 0, false
	}
	name := lower[nameStart:]
	switch {
	case string(q) == name || string(q) == lower:
		top += 100
	case strings.HasPrefix(name, string(q)):
		top += 30
	}
	return top - len(lower)/8, true
}

const consecutiveBonus = 4

// charBonus scores a matched character at byte j of cand.
func charBonus(cand string, j, nameStart int) int {
	s := 1
	if j == 0 || j == nameStart || isBoundary(cand[j-1]) || (isLowerByte(cand[j-1]) && isUpperByte(cand[j])) {
		s += 8
	}
	if j >= nameStart {
		s += 2
	}
	return s
}

func isBoundary(b byte) bool {
	return b == '.' || b == '_' || b == '-' || b == ':' || b == ' ' || b == '/'
}

func isLowerByte(b byte) bool { return b >= 'a' && b <= 'z' }
func isUpperByte(b byte) bool { return b >= 'A' && b <= 'Z' }

// subsequence reports whether q appears in s in order.
func subsequence(q []byte, s string) bool {
	i := 0
	for j := 0; j < len(s) && i < len(q); j++ {
		if s[j] == q[i] {
			i++
		}
	}
	return i == len(q)
}
