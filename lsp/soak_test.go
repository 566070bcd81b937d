package lsp_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wymcp/wymcp-ls/lsp"
	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSoak sends 10,000 didChange edits to one buffer and 1,000
// open/close cycles, then checks that the Go heap returns to its level and
// that a closed untitled buffer is not held (the reader is pure Go: its
// memory is the Go heap the test measures).
func TestSoak(t *testing.T) {
	edits, cycles := 10000, 1000
	if raceEnabled {
		edits, cycles = 2000, 200
	}
	ws := workspace.New(workspace.Options{Logger: zap.NewNop()})
	c := lsptest.Start(t, lsp.Options{Analyzer: ws, Logger: zap.NewNop()})
	// The soak measures memory, not speed: its thousands of edits get
	// minutes, not testCtx's 10 seconds, so a loaded CI machine (-race on
	// 2 cores beside other jobs) does not fail it.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := c.Initialize(ctx, nil); err != nil {
		t.Fatal(err)
	}
	const uri = "file:///soak/tool.ex"
	src := small()
	if err := c.Open(uri, 1, src); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitVersion(ctx, uri, 1); err != nil {
		t.Fatal(err)
	}
	warm := func(from, n int) int {
		v := from
		for i := 0; i < n; i++ {
			v++
			// Insert then delete one character on line 100, so the text
			// stays the same size.
			e := lsptest.Edit(100, 6, 100, 6, "z")
			if i%2 == 1 {
				e = lsptest.Edit(100, 6, 100, 7, "")
			}
			if err := c.ChangeText(uri, int32(v), e); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.WaitVersion(ctx, uri, int32(v)); err != nil {
			t.Fatal(err)
		}
		return v
	}
	v := warm(1, 200)
	base := heapAfterGC()
	v = warm(v, edits)
	for i := 0; i < cycles; i++ {
		u := fmt.Sprintf("untitled:soak-%d", i)
		if err := c.Open(u, 1, src); err != nil {
			t.Fatal(err)
		}
		if err := c.CloseDoc(u); err != nil {
			t.Fatal(err)
		}
	}
	warm(v, 2)
	if err := c.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	after := heapAfterGC()
	t.Logf("heap after warm-up %d KiB, after %d edits and %d open/close cycles %d KiB", base>>10, edits, cycles, after>>10)
	if after > base+base/2+4<<20 {
		t.Errorf("heap grew from %d KiB to %d KiB", base>>10, after>>10)
	}
	if _, ok := ws.Mapper("untitled:soak-0"); ok {
		t.Errorf("a closed untitled buffer is still held")
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Exit(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	ws.Close()
}
