package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestContentEquivalent checks that both texts declare the same actions,
// properties and planted offences, and that the toggle positions sit at
// the end of the `example` key in each.
func TestContentEquivalent(t *testing.T) {
	for _, tc := range []struct{ actions, props int }{{10, 1}, {30, 6}, {57, 3}} {
		c, err := NewContent(tc.actions, tc.props)
		if err != nil {
			t.Fatal(err)
		}
		if c.Offences != 7 {
			t.Errorf("%v: offences = %d, want 7", tc, c.Offences)
		}
		exActions := regexp.MustCompile(`(?m)^      action_\d\d: %\{$`).FindAllString(c.Elixir, -1)
		ymActions := regexp.MustCompile(`(?m)^action_\d\d:$`).FindAllString(c.YAML, -1)
		if len(exActions) != tc.actions || len(ymActions) != tc.actions {
			t.Errorf("%v: actions %d (Elixir) %d (YAML)", tc, len(exActions), len(ymActions))
		}
		exProps := strings.Count(c.Elixir, `"description" => "Field `)
		ymProps := regexp.MustCompile(`(?m)^      description: Field `).FindAllString(c.YAML, -1)
		if exProps != tc.actions*tc.props || len(ymProps) != tc.actions*tc.props {
			t.Errorf("%v: properties %d (Elixir) %d (YAML), want %d", tc, exProps, len(ymProps), tc.actions*tc.props)
		}
		for _, key := range []struct{ ex, ym string }{
			{"        example: ", "  example:"},
			{"        note: ", "  note: "},
			{"        require: ", "  require: "},
			{"        description: 42", "  description: 42"},
		} {
			if strings.Count(c.Elixir, key.ex) != strings.Count(c.YAML, key.ym) || strings.Count(c.YAML, key.ym) == 0 {
				t.Errorf("%v: %q x%d in Elixir, %q x%d in YAML", tc, key.ex, strings.Count(c.Elixir, key.ex),
					key.ym, strings.Count(c.YAML, key.ym))
			}
		}
		missing := tc.actions - strings.Count(c.Elixir, "        description: ")
		if missing != 2 || tc.actions-strings.Count(c.YAML, "\n  description: ") != 2 {
			t.Errorf("%v: %d actions without a description, want 2", tc, missing)
		}
		for name, tg := range map[string]struct {
			text string
			p    Pos
		}{"elixir": {c.Elixir, c.ElixirToggle}, "yaml": {c.YAML, c.YAMLToggle}} {
			l := strings.Split(tg.text, "\n")[tg.p.Line]
			if !strings.HasSuffix(l[:tg.p.Char], "example") || l[tg.p.Char] != ':' {
				t.Errorf("%v %s: toggle %v on line %q", tc, name, tg.p, l)
			}
		}
		if !strings.HasPrefix(c.YAML, "# yaml-language-server: $schema=./actions.schema.json\n") {
			t.Errorf("YAML has no schema modeline: %q", c.YAML[:60])
		}
		var schema map[string]any
		if err := json.Unmarshal([]byte(c.JSONSchema), &schema); err != nil {
			t.Errorf("JSON Schema: %v", err)
		}
	}
	if _, err := NewContent(9, 1); err == nil {
		t.Error("9 actions: no error")
	}
}

// TestActionSchemaKeys pins the JSON Schema's vocabulary to docs/rules.md §2.
func TestActionSchemaKeys(t *testing.T) {
	action := actionsSchema()["definitions"].(map[string]any)["action"].(map[string]any)
	var keys []string
	for k := range action["properties"].(map[string]any) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	got := strings.Join(keys, " ")
	want := "defaults description examples notes properties related required required_one_of"
	if got != want {
		t.Errorf("keys %q, want %q", got, want)
	}
	if action["additionalProperties"] != false {
		t.Error("unknown keys are allowed")
	}
	if r := action["required"].([]string); strings.Join(r, " ") != "description properties" {
		t.Errorf("required %v", r)
	}
}

func TestFraming(t *testing.T) {
	var buf bytes.Buffer
	for _, body := range []string{`{"a":1}`, `{"b":"é"}`} {
		if err := writeFrame(&buf, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	// Another header, lower-case name, and a stray blank line.
	buf.WriteString("\r\ncontent-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}")
	r := bufio.NewReader(&buf)
	for _, want := range []string{`{"a":1}`, `{"b":"é"}`, `{}`} {
		got, err := readFrame(r)
		if err != nil || string(got) != want {
			t.Fatalf("readFrame = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := readFrame(r); err != io.EOF {
		t.Errorf("at end: err = %v, want EOF", err)
	}
	if _, err := readFrame(bufio.NewReader(strings.NewReader("Content-Length: x\r\n\r\n"))); err == nil {
		t.Error("bad Content-Length: no error")
	}
	if _, err := readFrame(bufio.NewReader(strings.NewReader("Content-Length: 10\r\n\r\n{}"))); err == nil {
		t.Error("short body: no error")
	}
}

func TestQuantile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(101-i)*time.Millisecond)
	}
	if m, p := median(d), quantile(d, 0.95); m != 50*time.Millisecond || p != 95*time.Millisecond {
		t.Errorf("median %v p95 %v, want 50ms 95ms", m, p)
	}
	if got := quantile([]time.Duration{7}, 0.95); got != 7 {
		t.Errorf("single sample: %v", got)
	}
	if got := median(nil); got != 0 {
		t.Errorf("empty: %v", got)
	}
}

// TestClientLoop runs the client against a scripted server: it answers
// workspace/configuration, matches responses to calls, and hands over
// publishDiagnostics counted by source.
func TestClientLoop(t *testing.T) {
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	c := newClient(clientOut, clientIn, true)
	go c.readLoop()

	srv := bufio.NewReader(toServer)
	send := func(m string) {
		if err := writeFrame(fromServer, []byte(m)); err != nil {
			t.Error(err)
		}
	}
	go func() {
		body, err := readFrame(srv) // initialize
		if err != nil {
			t.Error(err)
			return
		}
		var req message
		_ = json.Unmarshal(body, &req)
		send(`{"jsonrpc":"2.0","id":"cfg-1","method":"workspace/configuration","params":{"items":[{"section":"yaml"},{"section":"editor"}]}}`)
		reply, _ := readFrame(srv)
		var m message
		_ = json.Unmarshal(reply, &m)
		var items []map[string]any
		_ = json.Unmarshal(m.Result, &items)
		if string(m.ID) != `"cfg-1"` || len(items) != 2 || items[0]["validate"] != true || items[1] != nil {
			t.Errorf("configuration reply %s", reply)
		}
		send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"capabilities":{}}}`)
		send(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a","diagnostics":[{"source":"wymcp","message":"x"},{"source":"other","message":"y"}]}}`)
	}()
	res, err := c.call("initialize", map[string]any{}, 5*time.Second)
	if err != nil || !strings.Contains(string(res), "capabilities") {
		t.Fatalf("initialize: %s, %v", res, err)
	}
	p, early, err := c.waitDiagnostics("file:///a", "wymcp", 1, time.Time{}, 5*time.Second)
	if err != nil || early != 0 || p.total != 2 || p.counts["wymcp"] != 1 {
		t.Errorf("publish %+v early %d err %v", p, early, err)
	}
	fromServer.Close()
	if _, _, err := c.waitDiagnostics("file:///a", "", 1, time.Time{}, 5*time.Second); err == nil {
		t.Error("closed stream: no error")
	}
}
