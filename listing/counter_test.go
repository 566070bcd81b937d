package listing

import (
	"errors"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/wymcp/wymcp-ls/listing/bpe"
)

// testCounter is the counter the command wires in, so that the tests'
// figures are real o200k_base counts.
var testCounter = bpe.New(tokenizer.O200kBase)

// failing is a Counter whose vocabulary cannot be loaded.
type failing struct{}

func (failing) Count(string) (int, error) { return 0, errors.New("no vocabulary") }

// Without a counter, or with one that fails, an exact answer has no
// figures and Measure says why; an answer with gaps needs no counter.
func TestMeasureCounterErrors(t *testing.T) {
	a := Entry(tasks())
	if _, err := Measure(nil, a); err == nil || err.Error() != "listing: no token counter" {
		t.Errorf("nil counter: %v", err)
	}
	if _, err := Measure(failing{}, a); err == nil || err.Error() != "listing: counting o200k_base tokens: no vocabulary" {
		t.Errorf("failing counter: %v", err)
	}
	gap := &Answer{Gaps: []Gap{{}}}
	if f, err := Measure(nil, gap); err != nil || f != (Figures{Gaps: 1}) {
		t.Errorf("answer with a gap: %+v, %v", f, err)
	}
}
