// Package bpe counts tokens with a real BPE vocabulary from
// github.com/tiktoken-go/tokenizer, which embeds them (README.md, "What
// the LLM sees": a real tokenization, never an estimate).
//
// The command (cmd/wymcp-ls) chooses the vocabulary, the one
// listing.Encoding names, and passes the counter to what shows figures.
// Nothing else in the module imports this package or the tokenizer: its
// vocabularies are a generated map literal of several megabytes that
// takes seconds to compile, and the rest of the module compiles beside
// it, not after it (docs/architecture.md, "Packages and imports").
package bpe

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// maxCounted bounds the counts a Counter remembers; past it they are all
// dropped.
const maxCounted = 1024

// Counter counts the tokens of one vocabulary. It loads the vocabulary on
// first use (tens of milliseconds), and remembers the counts of the last
// texts by their SHA-256, so that an unchanged answer (the code lens is
// asked again after every edit) is not tokenized again. It implements
// listing.Counter and is safe for concurrent use. Make one with New.
type Counter struct {
	enc   tokenizer.Encoding
	codec func() (tokenizer.Codec, error)

	mu      sync.Mutex
	counted map[[32]byte]int
}

// New returns a Counter for the vocabulary enc (such as
// tokenizer.O200kBase), with nothing loaded or remembered yet.
func New(enc tokenizer.Encoding) *Counter {
	return &Counter{
		enc:     enc,
		codec:   sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(enc) }),
		counted: map[[32]byte]int{},
	}
}

// Encoding returns the name of the Counter's vocabulary ("o200k_base").
func (c *Counter) Encoding() string { return string(c.enc) }

// Count returns the number of tokens in s. It fails only when the
// vocabulary cannot be loaded (an encoding the library does not embed).
func (c *Counter) Count(s string) (int, error) {
	key := sha256.Sum256([]byte(s))
	c.mu.Lock()
	n, ok := c.counted[key]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	bpe, err := c.codec()
	if err != nil {
		return 0, fmt.Errorf("bpe: loading %s: %w", c.enc, err)
	}
	if n, err = bpe.Count(s); err != nil {
		return 0, fmt.Errorf("bpe: counting %s tokens: %w", c.enc, err)
	}
	c.mu.Lock()
	if len(c.counted) >= maxCounted {
		clear(c.counted)
	}
	c.counted[key] = n
	c.mu.Unlock()
	return n, nil
}
