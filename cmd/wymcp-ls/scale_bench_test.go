package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wymcp/wymcp-ls/lsp/lsptest"
	"github.com/wymcp/wymcp-ls/workspace"
)

// Scale benchmarks (docs/architecture.md "Performance targets") on the generated 2,000-module project
// (`go run ./testdata/gen -modules 2000`), against the real binary:
//
//	go test ./cmd/wymcp-ls -run '^$' -bench Scale -benchtime 5x
//
// They report milliseconds and the process's peak RSS (VmHWM).

// scaleProject builds the binary and generates the project once per run.
func scaleProject(b *testing.B) (bin, dir string, files int) {
	b.Helper()
	tmp := b.TempDir()
	bin = filepath.Join(tmp, "wymcp-ls")
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	build := exec.Command("go", "build", "-o", bin, "./cmd/wymcp-ls")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	dir = filepath.Join(tmp, "project")
	gen := exec.Command("go", "run", "./testdata/gen", "-modules", "2000", "-out", dir)
	gen.Dir = root
	if out, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("generate: %v\n%s", err, out)
	}
	var man struct {
		Items []struct {
			Path string `json:"path"`
		} `json:"items"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(data, &man); err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range man.Items {
		seen[it.Path] = true
	}
	return bin, dir, len(seen)
}

// peakRSS reads VmHWM (KiB) of a live process.
func peakRSS(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return 0
}

func writeMsg(w io.Writer, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

func readMsg(r *bufio.Reader) (map[string]json.RawMessage, error) {
	body, err := lsptest.ReadFrame(r)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(body, &m)
}

// BenchmarkScaleIndex times a fresh server from `initialized` to the last
// of the expected publishDiagnostics on the 2,000-module project
// (docs/architecture.md "Performance targets": under 1.5 s, peak RSS under 150 MiB), and the server's didChange to
// publish on a tool module of that project (median under 10 ms, p95 under
// 25 ms).
func BenchmarkScaleIndex(b *testing.B) {
	bin, dir, want := scaleProject(b)
	var index, change []time.Duration
	rss := 0
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "--log-level", "error")
		in, _ := cmd.StdinPipe()
		outPipe, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		out := bufio.NewReaderSize(outPipe, 1<<20)
		must := func(err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
			"rootUri": workspace.PathURI(dir), "capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
		}}))
		for {
			m, err := readMsg(out)
			must(err)
			if string(m["id"]) == "1" {
				break
			}
		}
		start := time.Now()
		must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}))
		withDiags := map[string]bool{}
		for len(withDiags) < want {
			m, err := readMsg(out)
			must(err)
			var method string
			_ = json.Unmarshal(m["method"], &method)
			switch method {
			case "textDocument/publishDiagnostics":
				var p struct {
					URI         string            `json:"uri"`
					Diagnostics []json.RawMessage `json:"diagnostics"`
				}
				must(json.Unmarshal(m["params"], &p))
				if len(p.Diagnostics) > 0 {
					withDiags[p.URI] = true
				}
			case "window/workDoneProgress/create":
				must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(m["id"]), "result": nil}))
			}
		}
		index = append(index, time.Since(start))

		// Edit a tool module 50 times: didChange to its publish.
		tool := filepath.Join(dir, "lib", "shop", "tools", "tasks.ex")
		text, err := os.ReadFile(tool)
		must(err)
		uri := workspace.PathURI(tool)
		must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "elixir", "version": 1, "text": string(text)}}}))
		waitVersion := func(v int) {
			for {
				m, err := readMsg(out)
				must(err)
				var p struct {
					URI     string `json:"uri"`
					Version *int   `json:"version"`
				}
				if json.Unmarshal(m["params"], &p) == nil && p.URI == uri && p.Version != nil && *p.Version == v {
					return
				}
			}
		}
		waitVersion(1)
		for v := 2; v < 52; v++ {
			t0 := time.Now()
			must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": v},
				"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 3, "character": 0}, "end": map[string]any{"line": 3, "character": 0}}, "text": " "}},
			}}))
			waitVersion(v)
			change = append(change, time.Since(t0))
		}
		if r := peakRSS(cmd.Process.Pid); r > rss {
			rss = r
		}
		go func() { _, _ = io.Copy(io.Discard, out) }() // keep reading, as a client does
		must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
		must(writeMsg(in, map[string]any{"jsonrpc": "2.0", "method": "exit"}))
		in.Close()
		_ = cmd.Wait()
	}
	med := func(ds []time.Duration, q float64) float64 {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return float64(ds[int(float64(len(ds)-1)*q)].Microseconds()) / 1000
	}
	b.ReportMetric(med(index, 0.5), "index-ms")
	b.ReportMetric(med(change, 0.5), "change-median-ms")
	b.ReportMetric(med(change, 0.95), "change-p95-ms")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MiB")
}

// BenchmarkScaleCheck times `wymcp-ls check` on the 2,000-module project
// (docs/architecture.md "Performance targets": under 1.5 s) and reports its peak RSS.
func BenchmarkScaleCheck(b *testing.B) {
	bin, dir, _ := scaleProject(b)
	var times []time.Duration
	rss := 0
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "check", "--format", "json", dir)
		cmd.Stdout = io.Discard
		t0 := time.Now()
		if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
		if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && int(u.Maxrss) > rss {
			rss = int(u.Maxrss) // KiB on Linux
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "check-ms")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MiB")
}
