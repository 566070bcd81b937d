package elixir

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// FuzzParse feeds any bytes to the reader: no panic, no hang, and every
// span of every IR node, syntax error and evaluated Value lies within
// [0, len(src)] with Start < End (checkFile). The seed corpus is under
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("defmodule A do\n  use Wymcp.Tool\n  def actions, do: %{run: %{description: \"x\", properties: %{}}}\nend\n"))
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				panic(fmt.Sprintf("HANG on %q", src))
			}
		}()
		file := p.Parse(context.Background(), "file:///fuzz.ex", src)
		if err := checkFile(file, src); err != nil {
			t.Fatalf("%v\nsource: %q", err, src)
		}
	})
}
