package listing

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is the name of the BPE vocabulary every token count uses:
// OpenAI's o200k_base, embedded in github.com/tiktoken-go/tokenizer. It is
// named wherever a count is shown (README.md, "What the LLM sees").
const Encoding = "o200k_base"

var codec = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.O200kBase)
})

// Tokens returns the number of o200k_base tokens in s (a real BPE
// tokenization, never an estimate). It fails only when the vocabulary
// cannot be loaded.
func Tokens(s string) (int, error) {
	c, err := codec()
	if err != nil {
		return 0, fmt.Errorf("listing: loading %s: %w", Encoding, err)
	}
	return c.Count(s)
}

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

// Measure returns a's figures: bytes and tokens of a.Compact() when a has
// no gap, else only the number of gaps (a figure of a placeholder would
// be an estimate). Counts are remembered by the JSON's SHA-256, so an
// unchanged answer (the code lens is asked again after every edit) is not
// tokenized again. It fails only when the vocabulary cannot be loaded.
func Measure(a *Answer) (Figures, error) {
	if !a.Exact() {
		return Figures{Gaps: len(a.Gaps)}, nil
	}
	js := a.Compact()
	key := sha256.Sum256(js)
	counted.Lock()
	n, ok := counted.m[key]
	counted.Unlock()
	if !ok {
		var err error
		if n, err = Tokens(string(js)); err != nil {
			return Figures{}, err
		}
		counted.Lock()
		if len(counted.m) >= maxCounted {
			clear(counted.m)
		}
		counted.m[key] = n
		counted.Unlock()
	}
	return Figures{Bytes: len(js), Tokens: n, Exact: true}, nil
}

// counted remembers token counts by the SHA-256 of the counted JSON.
var counted = struct {
	sync.Mutex
	m map[[32]byte]int
}{m: map[[32]byte]int{}}

// maxCounted bounds the remembered counts; past it they are all dropped.
const maxCounted = 1024

// String writes f as "1,234 bytes, 310 tokens" ("1 token" for one; without the encoding; see
// Label), or "not known: 2 values not evaluated" when f is not exact.
func (f Figures) String() string {
	if !f.Exact {
		if f.Gaps == 1 {
			return "not known: 1 value not evaluated"
		}
		return fmt.Sprintf("not known: %d values not evaluated", f.Gaps)
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
