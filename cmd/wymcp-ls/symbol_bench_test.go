package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/wymcp/wymcp-ls/workspace"
)

// BenchmarkScaleWorkspaceSymbol times workspace/symbol requests, from the
// request written to its response read, against the real binary once it
// has indexed the generated 2,000-module project (docs/architecture.md:
// answered from the index, target under 20 ms). Queries rotate over an
// action qualified by its tool, a bare action name, short prefixes and a
// query that matches nothing:
//
//	go test ./cmd/wymcp-ls -run '^$' -bench ScaleWorkspaceSymbol -benchtime 200x
func BenchmarkScaleWorkspaceSymbol(b *testing.B) {
	bin, dir, want := scaleProject(b)
	cmd := exec.Command(bin, "--log-level", "error")
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = writeMsg(in, map[string]any{"jsonrpc": "2.0", "method": "exit"})
		in.Close()
		_ = cmd.Wait()
	}()
	out := bufio.NewReaderSize(outPipe, 1<<20)
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"rootUri": workspace.PathURI(dir), "capabilities": map[string]any{},
	}}))
	must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}))
	withDiags := map[string]bool{}
	for len(withDiags) < want {
		m, err := readMsg(out)
		must(err)
		var method string
		_ = json.Unmarshal(m["method"], &method)
		if method == "textDocument/publishDiagnostics" {
			var p struct {
				URI         string            `json:"uri"`
				Diagnostics []json.RawMessage `json:"diagnostics"`
			}
			must(json.Unmarshal(m["params"], &p))
			if len(p.Diagnostics) > 0 {
				withDiags[p.URI] = true
			}
		}
	}
	queries := []string{"tasks.create", "create", "cre", "t", "name", "zzzz"}
	id := 100
	call := func(q string) (time.Duration, int) {
		id++
		t0 := time.Now()
		must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "id": id, "method": "workspace/symbol", "params": map[string]any{"query": q}}))
		for {
			m, err := readMsg(out)
			must(err)
			if string(m["id"]) == jsonInt(id) {
				d := time.Since(t0)
				var res []json.RawMessage
				must(json.Unmarshal(m["result"], &res))
				return d, len(res)
			}
		}
	}
	// The first request may build the index; it is not what is measured.
	if _, n := call("tasks.create"); n == 0 {
		b.Fatal("workspace/symbol found nothing for tasks.create")
	}
	var times []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, _ := call(queries[i%len(queries)])
		times = append(times, d)
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	q := func(f float64) float64 { return float64(times[int(float64(len(times)-1)*f)].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "symbol-median-ms")
	b.ReportMetric(q(0.95), "symbol-p95-ms")
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
