package listing

import (
	"errors"
	"fmt"
)

// Encoding is the name of the BPE vocabulary every token count uses:
// OpenAI's o200k_base, embedded in github.com/tiktoken-go/tokenizer. It is
// named wherever a count is shown (README.md, "What the LLM sees").
const Encoding = "o200k_base"

// Counter counts the Encoding tokens of a text: a real BPE tokenization,
// never an estimate. listing/bpe's Counter is the one the command wires in
// (cmd/wymcp-ls); this package does not import the vocabulary, so that
// it and its importers compile beside it (docs/architecture.md,
// "Performance targets").
type Counter interface {
	// Count returns the number of tokens in s. It fails only when the
	// vocabulary cannot be loaded.
	Count(s string) (int, error)
}

// errNoCounter is Measure's error for a nil Counter.
var errNoCounter = errors.New("listing: no token counter")

// Figures is the size of one answer as Wymcp sends it (Compact).
type Figures struct {
	// Bytes is the length of the compact JSON in bytes; Tokens its
	// o200k_base token count. Both are 0 when Exact is false.
	Bytes, Tokens int
	// Exact is false when the answer has gaps: then no figure is known.
	Exact bool
	// Gaps is the number of gaps of the answer.
	Gaps int
}

// Measure returns a's figures: bytes and tokens (counted by c) of
// a.Compact() when a has no gap, else only the number of gaps (a figure of
// a placeholder would be an estimate). It fails when c is nil or cannot
// load its vocabulary.
func Measure(c Counter, a *Answer) (Figures, error) {
	if !a.Exact() {
		return Figures{Gaps: len(a.Gaps)}, nil
	}
	if c == nil {
		return Figures{}, errNoCounter
	}
	js := a.Compact()
	n, err := c.Count(string(js))
	if err != nil {
		return Figures{}, fmt.Errorf("listing: counting %s tokens: %w", Encoding, err)
	}
	return Figures{Bytes: len(js), Tokens: n, Exact: true}, nil
}

// String writes f as "1,234 bytes, 310 tokens" ("1 token" for one; without the encoding; see
// Label), or "not known: 2 values missing or not evaluated" when f is not
// exact (a gap is a value the reader could not evaluate, or one that is
// not there: a description under a misspelt key).
func (f Figures) String() string {
	if !f.Exact {
		if f.Gaps == 1 {
			return "not known: 1 value missing or not evaluated"
		}
		return fmt.Sprintf("not known: %d values missing or not evaluated", f.Gaps)
	}
	return plural(f.Bytes, "byte") + ", " + plural(f.Tokens, "token")
}

// plural writes n grouped, then word, with an "s" unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return group(n) + " " + word + "s"
}

// Label writes f with the encoding named: "1,234 bytes, 310 tokens
// (o200k_base)".
func (f Figures) Label() string {
	if !f.Exact {
		return f.String()
	}
	return f.String() + " (" + Encoding + ")"
}

// Lens writes the line shown above `def actions` and in the hover on
// name/0: "tools/list: 1,234 bytes, 310 tokens; help: 4,567 bytes, 1,140
// tokens (o200k_base)", entry being the tool's tools/list entry and help
// the help tool's answer for the tool.
func Lens(entry, help Figures) string {
	s := "tools/list: " + entry.String() + "; help: " + help.String()
	if entry.Exact || help.Exact {
		s += " (" + Encoding + ")"
	}
	return s
}
