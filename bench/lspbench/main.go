// Command lspbench drives wymcp-ls and yaml-language-server side by side
// over the same schema content (docs/architecture.md "Performance targets") and prints a table: process
// start to the `initialize` reply, `didOpen` to the first
// publishDiagnostics carrying the expected offences, `didChange` to the
// next such publish (median and p95), and peak RSS (VmHWM). It speaks LSP
// (Content-Length framing, JSON-RPC 2.0) over each child's stdio, with the
// standard library only.
//
// Usage (bench/compare.sh builds and runs it):
//
//	lspbench -wymcp BIN -yaml JS [-node node] [-work DIR] [-rounds 5] [-edits 60]
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command-line flags.
type options struct {
	wymcp, yaml, node, work string
	only                    string
	rounds, edits           int
	actions, props          int
	timeout                 time.Duration
	jsonOut                 string
	show                    io.Writer // print the first session's diagnostics, nil for not
	log                     io.Writer // progress and warnings
}

// run parses args, runs the benchmark and prints the table to stdout. It
// returns 0 on success, 1 when a server failed (timeout, crash, wrong
// diagnostics), 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	o := options{log: stderr}
	fs := flag.NewFlagSet("lspbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.wymcp, "wymcp", "", "wymcp-ls `binary`")
	fs.StringVar(&o.yaml, "yaml", "", "yaml-language-server `script` (bin/yaml-language-server), run with -node")
	fs.StringVar(&o.node, "node", "node", "node `binary`")
	fs.StringVar(&o.work, "work", "", "working `dir` for the generated content (default: a temp dir)")
	fs.StringVar(&o.only, "only", "", "run one server only: wymcp or yaml")
	fs.IntVar(&o.rounds, "rounds", 5, "sessions per server; each starts a fresh process, servers alternate")
	fs.IntVar(&o.edits, "edits", 60, "didChange edits per session")
	fs.IntVar(&o.actions, "actions", 30, "actions in the schema content (>= 10)")
	fs.IntVar(&o.props, "props", 6, "properties per action")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "longest wait for any one reply or diagnostics")
	fs.StringVar(&o.jsonOut, "json", "", "also write the raw results as JSON to `file`")
	show := fs.Bool("show", false, "print each server's diagnostics after the first didOpen")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *show {
		o.show = stdout
	}
	if fs.NArg() != 0 || o.rounds < 1 || o.edits < 1 {
		fs.Usage()
		return 2
	}
	servers, err := o.servers()
	if err != nil {
		fmt.Fprintf(stderr, "lspbench: %v\n", err)
		return 2
	}
	c, err := NewContent(o.actions, o.props)
	if err != nil {
		fmt.Fprintf(stderr, "lspbench: %v\n", err)
		return 2
	}
	if o.work == "" {
		d, err := os.MkdirTemp("", "lspbench")
		if err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return 2
		}
		defer os.RemoveAll(d)
		o.work = d
	}
	for _, s := range servers {
		if err := s.prepare(o.work, c); err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "content: %d actions x %d properties, %d offences; Elixir %d lines, YAML %d lines\n",
		c.Actions, c.Props, c.Offences, strings.Count(c.Elixir, "\n"), strings.Count(c.YAML, "\n"))
	fmt.Fprintf(stdout, "runs: %d rounds, servers alternating, %d didChange edits per session\n", o.rounds, o.edits)

	failed := false
	for r := range o.rounds {
		order := servers
		if r%2 == 1 && len(servers) == 2 {
			order = []*server{servers[1], servers[0]}
		}
		for _, s := range order {
			res, err := s.session(o, c)
			if err != nil {
				fmt.Fprintf(stderr, "lspbench: %s round %d: %v\n", s.name, r+1, err)
				if s.stderrTail != "" {
					fmt.Fprintf(stderr, "  stderr of %s:\n%s\n", s.name, s.stderrTail)
				}
				failed = true
				continue
			}
			s.results = append(s.results, res)
		}
	}
	printTable(stdout, servers)
	if o.jsonOut != "" {
		if err := writeJSON(o.jsonOut, servers); err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			failed = true
		}
	}
	if failed {
		return 1
	}
	return 0
}

// server is one language server under test.
type server struct {
	name    string
	argv    []string
	dir     string // workspace folder
	file    string // the document opened
	langID  string
	text    string
	toggle  Pos
	source  string // diagnostics counted must have this source ("" any)
	results []*result

	stderrTail string
}

// servers returns the servers the flags select, in alternation order.
// Paths are made absolute: the servers run in their workspace folder.
func (o *options) servers() ([]*server, error) {
	for _, p := range []*string{&o.wymcp, &o.yaml} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return nil, err
			}
			*p = abs
		}
	}
	var out []*server
	if o.only == "" || o.only == "wymcp" {
		if o.wymcp == "" {
			return nil, errors.New("-wymcp is required")
		}
		out = append(out, &server{name: "wymcp-ls", argv: []string{o.wymcp, "--stdio"}, langID: "elixir", source: "wymcp"})
	}
	if o.only == "" || o.only == "yaml" {
		if o.yaml == "" {
			return nil, errors.New("-yaml is required")
		}
		out = append(out, &server{name: "yaml-language-server", argv: []string{o.node, o.yaml, "--stdio"}, langID: "yaml"})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-only %q: want wymcp or yaml", o.only)
	}
	return out, nil
}

// prepare writes the server's document (and the JSON Schema) under work.
func (s *server) prepare(work string, c *Content) error {
	abs, err := filepath.Abs(work)
	if err != nil {
		return err
	}
	switch s.langID {
	case "elixir":
		s.dir = filepath.Join(abs, "wymcp")
		s.file = filepath.Join(s.dir, "lib", "bench", "catalog.ex")
		s.text, s.toggle = c.Elixir, c.ElixirToggle
	default:
		s.dir = filepath.Join(abs, "yaml")
		s.file = filepath.Join(s.dir, "catalog.yaml")
		s.text, s.toggle = c.YAML, c.YAMLToggle
		if err := writeFile(filepath.Join(s.dir, "actions.schema.json"), c.JSONSchema); err != nil {
			return err
		}
	}
	return writeFile(s.file, s.text)
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// result is one session's measurements.
type result struct {
	Init    time.Duration   `json:"init_ns"`
	Open    time.Duration   `json:"open_ns"`
	Changes []time.Duration `json:"changes_ns"`
	HWM     int64           `json:"vmhwm_kib"`
	// EarlyPublishes counts publishes for the document that came before
	// the expected offences (for example an empty first publish).
	EarlyPublishes int `json:"early_publishes"`
	// Missed counts edits whose diagnostics did not come within -timeout;
	// they are left out of Changes and the session goes on.
	Missed int `json:"missed"`
	// Wall is the whole session, start to exit.
	Wall time.Duration `json:"wall_ns"`
}

// session starts the server, measures one open and o.edits edits, reads
// VmHWM, and shuts it down.
func (s *server) session(o options, c *Content) (*result, error) {
	s.stderrTail = ""
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Dir = s.dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &tailBuffer{max: 4096}
	cmd.Stderr = tail

	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.argv[0], err)
	}
	cl := newClient(stdin, stdout, s.langID == "yaml")
	done := make(chan struct{})
	go func() { cl.readLoop(); close(done) }()
	kill := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		<-done
		s.stderrTail = tail.String()
	}

	res := &result{}
	rootURI := fileURI(s.dir)
	initParams := map[string]any{
		"processId": os.Getpid(),
		"rootUri":   rootURI,
		"workspaceFolders": []any{
			map[string]any{"uri": rootURI, "name": filepath.Base(s.dir)},
		},
		"capabilities": map[string]any{
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"relatedInformation": true},
			},
		},
		"clientInfo": map[string]any{"name": "lspbench"},
	}
	if _, err := cl.call("initialize", initParams, o.timeout); err != nil {
		kill()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	res.Init = time.Since(t0)
	if err := cl.notify("initialized", map[string]any{}); err != nil {
		kill()
		return nil, err
	}

	uri := fileURI(s.file)
	want := c.Offences
	t1 := time.Now()
	if err := cl.notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": s.langID, "version": 1, "text": s.text},
	}); err != nil {
		kill()
		return nil, err
	}
	pub, early, err := cl.waitDiagnostics(uri, s.source, want, t1, o.timeout)
	if err != nil {
		kill()
		return nil, fmt.Errorf("didOpen: %w", err)
	}
	res.Open = pub.at.Sub(t1)
	if o.show != nil && len(s.results) == 0 {
		fmt.Fprintf(o.show, "diagnostics of %s after didOpen of %s:\n", s.name, filepath.Base(s.file))
		for _, l := range pub.lines {
			fmt.Fprintf(o.show, "  %s\n", l)
		}
	}
	res.EarlyPublishes = early
	cl.settle(500*time.Millisecond, 3*time.Second)

	fixed := false
	for i := range o.edits {
		var change map[string]any
		p := s.toggle
		if !fixed { // example -> examples
			change = map[string]any{"range": lspRange(p, p), "text": "s"}
			want = c.Offences - 1
		} else { // examples -> example
			change = map[string]any{"range": lspRange(p, Pos{p.Line, p.Char + 1}), "text": ""}
			want = c.Offences
		}
		fixed = !fixed
		t := time.Now()
		if err := cl.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{change},
		}); err != nil {
			kill()
			return nil, err
		}
		pub, _, err := cl.waitDiagnostics(uri, s.source, want, t, o.timeout)
		if err != nil {
			select {
			case <-cl.closed:
				kill()
				return nil, fmt.Errorf("didChange %d: %w", i+1, err)
			default:
			}
			fmt.Fprintf(o.log, "lspbench: %s: didChange %d (version %d): %v\n", s.name, i+1, i+2, err)
			res.Missed++
			continue
		}
		res.Changes = append(res.Changes, pub.at.Sub(t))
	}

	res.HWM, err = vmHWM(cmd.Process.Pid)
	if err != nil {
		kill()
		return nil, err
	}
	_, _ = cl.call("shutdown", nil, o.timeout)
	_ = cl.notify("exit", nil)
	_ = stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
		<-done
	case <-time.After(5 * time.Second):
		kill()
	}
	res.Wall = time.Since(t0)
	return res, nil
}

func lspRange(a, b Pos) map[string]any {
	return map[string]any{
		"start": map[string]any{"line": a.Line, "character": a.Char},
		"end":   map[string]any{"line": b.Line, "character": b.Char},
	}
}

// vmHWM returns the peak resident set size of pid in KiB, from
// /proc/PID/status.
func vmHWM(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read VmHWM: %w", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				return strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// message is a JSON-RPC 2.0 message in either direction.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// publish is one textDocument/publishDiagnostics, stamped on receipt.
type publish struct {
	at     time.Time
	uri    string
	counts map[string]int // diagnostics by source
	total  int
	lines  []string // "line:col source code: message", 1-based
}

// client is a minimal LSP client over a child's stdio.
type client struct {
	wmu  sync.Mutex
	w    io.Writer
	r    *bufio.Reader
	yaml bool // answer workspace/configuration with yaml settings

	mu      sync.Mutex
	nextID  int
	pending map[string]chan message
	pubs    chan publish
	readErr error
	closed  chan struct{}
}

func newClient(w io.Writer, r io.Reader, yaml bool) *client {
	return &client{w: w, r: bufio.NewReaderSize(r, 1<<16), yaml: yaml,
		pending: map[string]chan message{}, pubs: make(chan publish, 1024), closed: make(chan struct{})}
}

// write sends one framed message.
func (c *client) write(m any) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return writeFrame(c.w, body)
}

// writeFrame writes body with its Content-Length header.
func writeFrame(w io.Writer, body []byte) error {
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}

// readFrame reads one message body: headers up to an empty line
// (Content-Length required, other headers ignored), then the body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		l = strings.TrimRight(l, "\r\n")
		if l == "" {
			if n < 0 {
				continue // stray blank line between messages
			}
			break
		}
		k, v, ok := strings.Cut(l, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			n, err = strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", v)
			}
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

func (c *client) notify(method string, params any) error {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	return c.write(m)
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan message, 1)
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	if err := c.write(m); err != nil {
		return nil, err
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return nil, fmt.Errorf("%s: error %d: %s", method, resp.Error.Code, resp.Error.Message)
		}
		return resp.Result, nil
	case <-c.closed:
		return nil, fmt.Errorf("%s: connection closed: %v", method, c.readErr)
	case <-time.After(timeout):
		return nil, fmt.Errorf("%s: no reply in %s", method, timeout)
	}
}

// readLoop reads messages until the stream ends: responses go to their
// caller, publishDiagnostics to pubs, server requests get an answer.
func (c *client) readLoop() {
	defer close(c.closed)
	for {
		body, err := readFrame(c.r)
		if err != nil {
			c.readErr = err
			return
		}
		at := time.Now()
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.readErr = fmt.Errorf("bad JSON from server: %w", err)
			return
		}
		switch {
		case m.Method == "" && len(m.ID) > 0: // response
			c.mu.Lock()
			ch := c.pending[strings.Trim(string(m.ID), `"`)]
			delete(c.pending, strings.Trim(string(m.ID), `"`))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Method != "" && len(m.ID) > 0: // server request
			_ = c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": c.answer(m)})
		case m.Method == "textDocument/publishDiagnostics":
			if p, err := decodePublish(m.Params, at); err == nil {
				select {
				case c.pubs <- p:
				default: // nobody is waiting this far behind; drop
				}
			}
		}
	}
}

// answer returns the result for a server-to-client request:
// workspace/configuration gets one settings object per item (validation
// on, the schema store and network off for yaml), everything else null.
func (c *client) answer(m message) any {
	if m.Method != "workspace/configuration" {
		return nil
	}
	var p struct {
		Items []struct {
			Section string `json:"section"`
		} `json:"items"`
	}
	_ = json.Unmarshal(m.Params, &p)
	out := make([]any, len(p.Items))
	for i, it := range p.Items {
		switch {
		case c.yaml && it.Section == "yaml":
			out[i] = map[string]any{
				"validate": true, "hover": false, "completion": false,
				"format":      map[string]any{"enable": false},
				"schemaStore": map[string]any{"enable": false},
			}
		case c.yaml && it.Section == "[yaml]":
			out[i] = map[string]any{"yaml.validate": true}
		default:
			out[i] = nil
		}
	}
	return out
}

func decodePublish(raw json.RawMessage, at time.Time) (publish, error) {
	var p struct {
		URI         string `json:"uri"`
		Diagnostics []struct {
			Source  string          `json:"source"`
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
			Range   struct {
				Start struct{ Line, Character int } `json:"start"`
			} `json:"range"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return publish{}, err
	}
	out := publish{at: at, uri: p.URI, counts: map[string]int{}, total: len(p.Diagnostics)}
	for _, d := range p.Diagnostics {
		out.counts[d.Source]++
		out.lines = append(out.lines, fmt.Sprintf("%d:%d [%s] %s: %s",
			d.Range.Start.Line+1, d.Range.Start.Character+1, d.Source, d.Code, d.Message))
	}
	return out, nil
}

// waitDiagnostics waits for a publish for uri, received after since, with
// want diagnostics (of source, when set) and returns its receipt time and
// how many publishes for uri with another count came first.
func (c *client) waitDiagnostics(uri, source string, want int, since time.Time, timeout time.Duration) (publish, int, error) {
	deadline := time.After(timeout)
	early, last := 0, -1
	for {
		select {
		case p := <-c.pubs:
			if p.uri != uri || p.at.Before(since) {
				continue
			}
			n := p.total
			if source != "" {
				n = p.counts[source]
			}
			if n == want {
				return p, early, nil
			}
			early, last = early+1, n
		case <-c.closed:
			return publish{}, early, fmt.Errorf("server closed the stream: %v", c.readErr)
		case <-deadline:
			return publish{}, early, fmt.Errorf("no publishDiagnostics with %d diagnostics in %s (last count %d, %d other publishes)",
				want, timeout, last, early)
		}
	}
}

// settle drains publishes until none has come for quiet, or for at most
// limit, so that a late duplicate of the open state cannot be taken for
// the answer to an edit.
func (c *client) settle(quiet, limit time.Duration) {
	end := time.After(limit)
	for {
		select {
		case <-c.pubs:
		case <-time.After(quiet):
			return
		case <-end:
			return
		case <-c.closed:
			return
		}
	}
}

// stats of a sample.
func median(d []time.Duration) time.Duration { return quantile(d, 0.5) }

// quantile returns the q-quantile of d by the nearest-rank method.
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := int(q*float64(len(s))+0.999999) - 1
	k = max(0, min(k, len(s)-1))
	return s[k]
}

// summary aggregates a server's sessions.
type summary struct {
	init, open, chMed, chP95 time.Duration
	hwm                      int64
	sessions, edits, missed  int
}

func summarize(rs []*result) summary {
	var s summary
	var inits, opens, changes []time.Duration
	for _, r := range rs {
		inits = append(inits, r.Init)
		opens = append(opens, r.Open)
		changes = append(changes, r.Changes...)
		s.hwm = max(s.hwm, r.HWM)
		s.missed += r.Missed
	}
	s.init, s.open = median(inits), median(opens)
	s.chMed, s.chP95 = median(changes), quantile(changes, 0.95)
	s.sessions, s.edits = len(rs), len(changes)
	return s
}

// yamlDelay is yaml-language-server's fixed validationDelayMs.
const yamlDelay = 200 * time.Millisecond

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// printTable writes the comparison: one row per metric, one column per
// server, and the ratio yaml/wymcp when both ran.
func printTable(w io.Writer, servers []*server) {
	sums := make([]summary, len(servers))
	for i, s := range servers {
		sums[i] = summarize(s.results)
	}
	rows := []struct {
		name string
		val  func(summary) float64
		fmt  func(summary) string
	}{
		{"start -> initialize reply (median)", func(s summary) float64 { return float64(s.init) }, func(s summary) string { return ms(s.init) }},
		{"didOpen -> diagnostics (median)", func(s summary) float64 { return float64(s.open) }, func(s summary) string { return ms(s.open) }},
		{"didChange -> diagnostics median", func(s summary) float64 { return float64(s.chMed) }, func(s summary) string { return ms(s.chMed) }},
		{"didChange -> diagnostics p95", func(s summary) float64 { return float64(s.chP95) }, func(s summary) string { return ms(s.chP95) }},
		{"peak RSS (VmHWM, max)", func(s summary) float64 { return float64(s.hwm) }, func(s summary) string { return fmt.Sprintf("%.1f MiB", float64(s.hwm)/1024) }},
	}
	head := fmt.Sprintf("%-38s", "metric")
	for _, s := range servers {
		head += fmt.Sprintf(" %22s", s.name)
	}
	if len(servers) == 2 {
		head += fmt.Sprintf(" %12s", "ratio")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, strings.Repeat("-", len(head)))
	for _, r := range rows {
		line := fmt.Sprintf("%-38s", r.name)
		for i := range servers {
			if sums[i].sessions == 0 {
				line += fmt.Sprintf(" %22s", "n/a")
				continue
			}
			line += fmt.Sprintf(" %22s", r.fmt(sums[i]))
		}
		if len(servers) == 2 && sums[0].sessions > 0 && sums[1].sessions > 0 && r.val(sums[0]) > 0 {
			line += fmt.Sprintf(" %11.1fx", r.val(sums[1])/r.val(sums[0]))
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	for i, s := range servers {
		fmt.Fprintf(w, "%s: %d sessions, %d edits measured, %d edits without diagnostics in time\n",
			s.name, sums[i].sessions, sums[i].edits, sums[i].missed)
	}
	if len(servers) == 2 {
		fmt.Fprintln(w, "ratio = yaml-language-server / wymcp-ls (above 1: wymcp-ls is faster or smaller)")
	}
	for i, s := range servers {
		if s.langID != "yaml" || sums[i].sessions == 0 {
			continue
		}
		fmt.Fprintln(w, "note: yaml-language-server waits a fixed 200 ms (validationDelayMs) before validating an opened or changed document; its figures include that wait, as an editor user sees it")
		y := sums[i]
		line := fmt.Sprintf("without that wait: didOpen %s, didChange median %s, p95 %s",
			ms(y.open-yamlDelay), ms(y.chMed-yamlDelay), ms(y.chP95-yamlDelay))
		if len(servers) == 2 && sums[0].sessions > 0 && sums[0].open > 0 && sums[0].chMed > 0 && sums[0].chP95 > 0 {
			x := sums[0]
			line += fmt.Sprintf(" (ratios %.1fx, %.1fx, %.1fx)",
				float64(y.open-yamlDelay)/float64(x.open), float64(y.chMed-yamlDelay)/float64(x.chMed),
				float64(y.chP95-yamlDelay)/float64(x.chP95))
		}
		fmt.Fprintln(w, line)
	}
}

// writeJSON writes every session's raw measurements.
func writeJSON(path string, servers []*server) error {
	out := map[string][]*result{}
	for _, s := range servers {
		out[s.name] = s.results
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
