package elixir

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestDbg(t *testing.T) {
	src := os.Getenv("SRC")
	if src == "" {
		t.Skip()
	}
	f := readFile(context.Background(), "file:///x.ex", []byte(src))
	fmt.Print(dumpSummary(f))
	fmt.Println(f.Errors)
}
