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

// BenchmarkCountLongPiece counts texts the o200k_base pre-tokenizer keeps
// as one piece of 200,000 bytes (a run of "!", of one letter, of spaces),
// straight through the vocabulary, so that no count is remembered. A
// byte-pair merge that rescans the piece after every merge is quadratic
// there: pkoukk/tiktoken-go took 36 to 44 s on each of these texts
// (bench/README.md, "Fresh-clone build time"). tiktoken-go/tokenizer
// merges pieces of 96 bytes and more with a heap.
func BenchmarkCountLongPiece(b *testing.B) {
	tk, err := New(tokenizer.O200kBase).codec()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, text string }{
		{"punct", strings.Repeat("!", 200_000)},
		{"letters", strings.Repeat("a", 200_000)},
		{"spaces", strings.Repeat(" ", 200_000) + "x"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				if n, err := tk.Count(tc.text); err != nil || n == 0 {
					b.Fatalf("Count = %d, %v", n, err)
				}
			}
		})
	}
}
