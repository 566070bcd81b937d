package elixir

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBrokenBuffers reads the broken and odd buffers of docs/architecture.md
// "Robustness": no panic, no hang, every span inside the file (checkFile), and
// what is still readable is read.
func TestBrokenBuffers(t *testing.T) {
	tests := []struct {
		name, src string
		modules   string // module names with tool marks, "|"-joined
		actions   string // render of actions/0 of the first tool, "" for none
		errors    int
	}{
		{"empty", "", "", "", 0},
		{"newlines", "\n\n", "", "", 0},
		{"defmodule alone", "defmodule A do", "A", "", 1},
		{"bare @ above attribute",
			"defmodule A do\n  use Wymcp.Tool\n  @\n  @run %{description: \"x\", properties: %{}}\n  def actions, do: %{run: @run}\nend\n",
			"A tool", `%{:"run"@"run" => %{:"description"@"description" => "x"@"\"x\"", :"properties"@"properties" => %{}@"%{}"/open "%{"}@"%{description: \"x\", properties: %{}}"/open "%{"}@"%{run: @run}"/open "%{"`, 0},
		{"unterminated heredoc",
			"defmodule A do\n  use Wymcp.Tool\n  @d \"\"\"\n  abc\n  def actions, do: %{run: %{description: @d}}\nend\n",
			"A tool", "", 1},
		{"invalid utf-8",
			"defmodule A do\n  use Wymcp.Tool\n  def actions, do: %{\"\xff\" => %{description: \"\xfe\xc3\", properties: %{}}}\nend\n\xff",
			"A tool", "%{\"\\xff\"@\"\\\"\\xff\\\"\" => %{:\"description\"@\"description\" => \"\\xfe\\xc3\"@\"\\\"\\xfe\\xc3\\\"\", :\"properties\"@\"properties\" => %{}@\"%{}\"/open \"%{\"}@\"%{description: \\\"\\xfe\\xc3\\\", properties: %{}}\"/open \"%{\"}@\"%{\\\"\\xff\\\" => %{description: \\\"\\xfe\\xc3\\\", properties: %{}}}\"/open \"%{\"", 1},
		{"nul bytes", "defmodule A do\x00\n  use Wymcp.Tool\x00\nend", "A tool", "", 1},
		{"only end (Elixir: unexpected reserved word)", "end end end", "", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			f := parse(t, tt.src)
			if err := checkFile(f, src); err != nil {
				t.Fatal(err)
			}
			var names []string
			var tool *Module
			for _, m := range f.Modules {
				n := m.Name
				if m.Tool {
					n += " tool"
					if tool == nil {
						tool = m
					}
				}
				names = append(names, n)
			}
			if got := strings.Join(names, "|"); got != tt.modules {
				t.Errorf("modules %q, want %q", got, tt.modules)
			}
			if len(f.Errors) != tt.errors {
				t.Errorf("%d syntax errors, want %d: %v", len(f.Errors), tt.errors, f.Errors)
			}
			got := ""
			if tool != nil {
				if r := Evaluate(context.Background(), resolverOf(f), tool); r.Found && r.Actions.Kind.String() != "opaque" {
					got = render(r.Actions, map[string][]byte{f.URI: src})
				}
			}
			if got != tt.actions {
				t.Errorf("actions\n%s\nwant\n%s", got, tt.actions)
			}
		})
	}
}

// TestPathological feeds deeply nested and repeated constructs: no panic,
// no stack overflow, spans valid.
func TestPathological(t *testing.T) {
	units := []string{"[", "%{", "(", "do ", "\"#{", "{", "<<", "fn ", "a(", "@", "~s(", "'#{", "[a: ", "%{a: ", "1 + ", "-", "\\\\", "#{", "a.", "&(", "%{a | ", "@a @a ++ @a\n"}
	p := NewParser()
	defer p.Close()
	for _, u := range units {
		for _, n := range []int{1, 2, 700, 3000} {
			src := []byte("defmodule A do\n  use Wymcp.Tool\n  def actions, do: " + strings.Repeat(u, n))
			f := p.Parse(context.Background(), "file:///p.ex", src)
			if err := checkFile(f, src); err != nil {
				t.Fatalf("%q x %d: %v", u, n, err)
			}
		}
	}
	deep := []byte("@x " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000))
	deep = append([]byte("defmodule A do\n"), append(deep, "\nend\n"...)...)
	f := p.Parse(context.Background(), "file:///p.ex", deep)
	if err := checkFile(f, deep); err != nil {
		t.Fatal(err)
	}
	if v := f.Modules[0].Attrs[0].Value; v.Kind != ExprList {
		t.Fatalf("deep list read as %s", v.Kind)
	}
}

// TestLargeFile reads a 2 MiB tool module (the workspace's size limit).
func TestLargeFile(t *testing.T) {
	src := GenerateTool(4000)
	if len(src) < 2<<20 {
		src = append(src, bytes.Repeat([]byte("# pad\n"), (2<<20-len(src))/6+1)...)
	}
	f := parse(t, string(src))
	if len(f.Modules) != 1 || len(f.Errors) != 0 {
		t.Fatalf("%d modules, errors %v", len(f.Modules), f.Errors)
	}
	r := Evaluate(context.Background(), nil, f.Modules[0])
	if len(r.Actions.Entries) != 4000 {
		t.Fatalf("%d actions", len(r.Actions.Entries))
	}
}

// TestGenerateTool checks the benchmark module: 1,000 actions, about
// 13,000 lines, and every action fully evaluated with exact spans.
func TestGenerateTool(t *testing.T) {
	src := GenerateTool(1000)
	if lines := bytes.Count(src, []byte("\n")); lines != 13010 || len(src) < 500_000 || len(src) > 560_000 {
		t.Fatalf("%d lines, %d bytes", lines, len(src))
	}
	ws := newWS(t, map[string]string{"file:///gen.ex": string(src)})
	r := ws.eval(t, "App.Tools.Generated")
	if len(r.Actions.Entries) != 1000 || len(r.Errors) != 0 {
		t.Fatalf("%d actions, errors %v", len(r.Actions.Entries), r.Errors)
	}
	last := r.Actions.Entries[999]
	if got := slice(string(src), spanOf(last.Key.Origin)); got != "action_1000" {
		t.Fatalf("last key %q", got)
	}
	want := `%{:"description"@"description" => "Create task 1000"@"\"Create task 1000\"", :"properties"@"properties" => %{"name"@"\"name\"" => %{"type"@"\"type\"" => "string"@"\"string\""}@"%{\"type\" => \"string\"}"/open "%{", "count"@"\"count\"" => %{"type"@"\"type\"" => "integer"@"\"integer\"", "minimum"@"\"minimum\"" => 0@"0"}@"%{\"type\" => \"integer\", \"minimum\" => 0}"/open "%{", "opts"@"\"opts\"" => %{"type"@"\"type\"" => "object"@"\"object\"", "properties"@"\"properties\"" => %{"notify"@"\"notify\"" => %{"type"@"\"type\"" => "boolean"@"\"boolean\""}@"%{\"type\" => \"boolean\"}"/open "%{"}@"%{\"notify\" => %{\"type\" => \"boolean\"}}"/open "%{"}@"%{\"type\" => \"object\", \"properties\" => %{\"notify\" => %{\"type\" => \"boolean\"}}}"/open "%{"}@"%{\n          \"name\" => %{\"type\" => \"string\"},\n          \"count\" => %{\"type\" => \"integer\", \"minimum\" => 0},\n          \"opts\" => %{\"type\" => \"object\", \"properties\" => %{\"notify\" => %{\"type\" => \"boolean\"}}}\n        }"/open "%{", :"required"@"required" => ["name"@"\"name\""]@"[\"name\"]", :"defaults"@"defaults" => %{"count"@"\"count\"" => 1@"1", "opts"@"\"opts\"" => %{"notify"@"\"notify\"" => false@"false"}@"%{\"notify\" => false}"/open "%{"}@"%{\"count\" => 1, \"opts\" => %{\"notify\" => false}}"/open "%{", :"notes"@"notes" => "Notes for action 1000.\n\nMore lines."@"\"Notes for action 1000.\\n\\nMore lines.\"", :"related"@"related" => ["action_0001"@"\"action_0001\""]@"[\"action_0001\"]", :"examples"@"examples" => [%{"name"@"\"name\"" => "buy milk"@"\"buy milk\""}@"%{\"name\" => \"buy milk\"}"/open "%{"]@"[%{\"name\" => \"buy milk\"}]"}`
	got := render(last.Value, ws.srcs)
	if !strings.HasPrefix(got, want) {
		t.Fatalf("last action\n%s\nwant prefix\n%s", got, want)
	}
}
