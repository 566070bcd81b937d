package bpe

import (
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/wymcp/wymcp-ls/listing"
)

var _ listing.Counter = (*Counter)(nil)

// Exact counts of o200k_base, as OpenAI's tiktoken gives them.
func TestCount(t *testing.T) {
	c := New(tokenizer.O200kBase)
	if c.Encoding() != "o200k_base" {
		t.Errorf("Encoding() = %q", c.Encoding())
	}
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{`{"name":"tasks"}`, 5}, // {" name ":" tasks "}
		{"[]", 1},
	} {
		got, err := c.Count(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Count(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// A vocabulary the library does not embed fails with its name, on every
// count, and nothing is remembered.
func TestCountUnknownEncoding(t *testing.T) {
	c := New("no_such_base")
	for range 2 {
		if n, err := c.Count("x"); err == nil || n != 0 || !strings.HasPrefix(err.Error(), "bpe: loading no_such_base: ") {
			t.Errorf("Count = %d, %v", n, err)
		}
	}
	if len(c.counted) != 0 {
		t.Errorf("%d counts remembered", len(c.counted))
	}
}

// A remembered count is the count: asking twice, and past maxCounted
// distinct texts, gives what the vocabulary itself counts.
func TestCountRemembered(t *testing.T) {
	c := New(tokenizer.O200kBase)
	bpe, err := c.codec()
	if err != nil {
		t.Fatal(err)
	}
	for i := range maxCounted + 3 {
		s := strings.Repeat("ab ", i)
		want, _ := bpe.Count(s)
		n1, err1 := c.Count(s)
		n2, err2 := c.Count(s)
		if err1 != nil || err2 != nil || n1 != want || n2 != want {
			t.Fatalf("Count(%d x \"ab \") = %d, %v then %d, %v; want %d", i, n1, err1, n2, err2, want)
		}
		if len(c.counted) > maxCounted {
			t.Fatalf("%d counts remembered, bound %d", len(c.counted), maxCounted)
		}
	}
}
