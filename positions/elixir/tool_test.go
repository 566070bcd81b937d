package elixir

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wymcp/wymcp-ls/positions"
)

// toolFacts renders what tool.go reads of every module of src, with the
// source text of each span, for both readers to be compared against.
func toolFacts(src string, f *File, r Resolver) string {
	slice := func(start, end int) string {
		if start < 0 || end > len(src) || start > end {
			return "?"
		}
		return src[start:end]
	}
	var b strings.Builder
	for _, m := range f.Modules {
		fmt.Fprintf(&b, "%s:", m.Name)
		for _, u := range Uses(m) {
			fmt.Fprintf(&b, " use=%s", u.Module)
		}
		for _, u := range QuotedUses(m) {
			fmt.Fprintf(&b, " quoted=%s", u.Module)
		}
		for _, mt := range Mounts(m) {
			refs, ok := ToolList(r, m, mt.Tools)
			var names []string
			for _, ref := range refs {
				names = append(names, ref.Module+"@"+slice(ref.Span.Start, ref.Span.End))
			}
			fmt.Fprintf(&b, " mount[%s complete=%v]", strings.Join(names, " "), ok)
		}
		for _, ref := range Registrations(m) {
			fmt.Fprintf(&b, " register=%s", ref.Module)
		}
		for _, h := range Hints(m) {
			fmt.Fprintf(&b, " hint(new=%v", h.New)
			for _, e := range []*Expr{h.Tool, h.Action, h.Example} {
				if e != nil {
					fmt.Fprintf(&b, " %s", slice(e.Span.Start, e.Span.End))
				}
			}
			b.WriteString(")")
		}
		if d := DispatchOf(r, m); d.Known {
			fmt.Fprintf(&b, " dispatch(catchall=%v", d.CatchAll)
			for _, a := range d.Atoms {
				fmt.Fprintf(&b, " %s", a.Text)
			}
			for _, a := range d.Guarded {
				l, _ := positions.LocOf(a.Origin)
				fmt.Fprintf(&b, " guard:%s@%s", a.Text, slice(l.Span.Start, l.Span.End))
			}
			for _, a := range d.Cased {
				l, _ := positions.LocOf(a.Origin)
				fmt.Fprintf(&b, " case:%s@%s", a.Text, slice(l.Span.Start, l.Span.End))
			}
			b.WriteString(")")
		}
		res := Evaluate(context.Background(), r, m)
		for _, name := range IdentityCallbacks {
			if cb, ok := res.Callbacks[name]; ok {
				fmt.Fprintf(&b, " %s=%s/%q", name, cb.Value.Kind, cb.Value.Text)
			}
		}
		if res.HasActionContext {
			b.WriteString(" action_context")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestToolFacts checks the tool-level reading on both readers (Parse and
// the sketch), which must agree: wrappers, mounts (scope blocks,
// init_opts, attributes, zero-arity calls, comments), registrations,
// hints (aliased, struct form), dispatch (delegation) and identity.
func TestToolFacts(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"wrapper", "defmodule W do\n  alias Wymcp.Tool, as: T\n  defmacro __using__(_opts) do\n    quote do\n      use T\n      @behaviour Other\n    end\n  end\nend\n" +
			"defmodule U do\n  use W, x: 1\nend\n",
			"W: quoted=Wymcp.Tool quoted=Other\nU: use=W\n"},
		{"wrapper whose __using__ has a default", "defmodule W do\n  defmacro __using__(opts, extra \\\\ nil) do\n    quote do\n      use Wymcp.Tool\n    end\n  end\nend\n" +
			"defmodule U do\n  use W, x: 1\nend\n",
			"W: quoted=Wymcp.Tool\nU: use=W\n"},
		{"router", "defmodule R do\n  use Phoenix.Router\n  @extra [B]\n  scope \"/\" do\n    forward \"/mcp\", Wymcp.Router,\n      tools: [\n        # first\n        A,\n        Wymcp.Help # trailing\n      ]\n" +
			"    forward \"/b\", Wymcp.Router, init_opts: [tools: @extra ++ list()]\n    forward \"/c\", Other, tools: [C]\n  end\n  def list, do: [C.D]\nend\n",
			"R: use=Phoenix.Router mount[A@A Wymcp.Help@Wymcp.Help complete=true] mount[B@B C.D@C.D complete=true]\n"},
		{"identity callbacks a wrapper defines", "defmodule W do\n  alias App.Names\n  defmacro __using__(_opts) do\n    quote do\n      use Wymcp.Tool\n" +
			"      def description, do: \"From W\"\n      def title, do: @title\n      def name, do: \"w\"\n      def annotations, do: Names.none()\n    end\n  end\nend\n" +
			"defmodule T do\n  use W\n  @title \"T\"\n  def name, do: \"t\"\nend\n",
			// T's own name/0 wins; @title inside the quote is T's, so not evaluated in W.
			"W: quoted=Wymcp.Tool\nT: use=W name=string/\"t\" description=string/\"From W\" title=opaque/\"\" annotations=opaque/\"\"\n"},
		{"Plug.Builder plug", "defmodule E do\n  use Plug.Builder\n  plug :match\n  plug Plug.Logger\n  plug Wymcp.Router, tools: [A, B]\n  plug(Wymcp.Router, tools: @list)\n  plug Wymcp.Router\nend\n",
			"E: use=Plug.Builder mount[A@A B@B complete=true] mount[ complete=false] mount[ complete=false]\n"},
		{"Plug.Router forward", "defmodule P do\n  use Plug.Router\n  forward \"/mcp\", to: Wymcp.Router, init_opts: [tools: [A, B]]\n" +
			"  forward(\"/m2\", to: Wymcp.Router, tools: [C])\n  forward \"/m3\", to: Wymcp.Router, tools: [D], init_opts: [other: 1]\n" +
			"  forward \"/m4\", to: Other, init_opts: [tools: [E]]\n  forward \"/m5\", to: Wymcp.Router, init_opts: @opts\nend\n",
			// m3: init_opts wins, so tools: [D] is not what Wymcp.Router.init/1 gets.
			"P: use=Plug.Router mount[A@A B@B complete=true] mount[C@C complete=true] mount[ complete=false] mount[ complete=false]\n"},
		{"Phoenix forward with router options", "defmodule R do\n  use Phoenix.Router\n  forward \"/mcp\", Wymcp.Router, [tools: [A]], host: \"api.\"\n  forward \"/b\", Wymcp.Router, [], tools: [B]\nend\n",
			// The third argument is what Wymcp.Router.init/1 gets; the fourth is the route's own.
			"R: use=Phoenix.Router mount[A@A complete=true] mount[ complete=false]\n"},
		{"Plug.Router route to the router", "defmodule P do\n  use Plug.Router\n  post \"/mcp\", to: Wymcp.Router, init_opts: [tools: [A, B]]\n" +
			"  match(\"/m2\", via: :get, to: Wymcp.Router, init_opts: [tools: [C]])\n  get \"/m3\", to: Wymcp.Router, tools: [D]\n" +
			"  get \"/m4\", to: Other, init_opts: [tools: [E]]\n  get \"/m5\", to: Wymcp.Router, init_opts: [tools: [F]] do\n    :ok\n  end\n  match _ do\n    send_resp(conn, 404, \"\")\n  end\nend\n",
			// m3: a route hands the plug init_opts: only, so tools: [D] is not read; m5: the do-block is the route's body.
			"P: use=Plug.Router mount[A@A B@B complete=true] mount[C@C complete=true] mount[ complete=false]\n"},
		{"mount through an imported function", "defmodule R do\n  use Phoenix.Router\n  import L, only: [list: 0]\n  forward \"/mcp\", Wymcp.Router, tools: list()\nend\ndefmodule L do\n  def list, do: [A, B]\nend\n",
			"R: use=Phoenix.Router mount[A@A B@B complete=true]\nL:\n"},
		{"use router, opaque list", "defmodule M do\n  use Wymcp.Router, tools: Application.get_env(:app, :tools)\nend\n",
			"M: use=Wymcp.Router mount[ complete=false]\n"},
		{"registration and hints", "defmodule H do\n  alias Wymcp.{Hint, Session}\n  def go(pid) do\n    Session.register_tool(pid, App.T)\n    Wymcp.Session.register_tool(pid, mod())\n" +
			"    [Hint.new(tool: \"t\", action: \"a\", example: %{data: %{}}), %Hint{tool: \"t\", action: \"b\"}, Other.new(tool: \"x\")]\n  end\nend\n",
			"H: register=App.T hint(new=true \"t\" \"a\" %{data: %{}}) hint(new=false \"t\" \"b\")\n"},
		{"dispatch through delegation", "defmodule T do\n  use Wymcp.Tool\n  @name \"t\"\n  def name, do: @name <> \"x\"\n  def title, do: nil\n  def action_context(_a, _c), do: %{}\n" +
			"  def run_action(action, data, _ctx), do: Acts.run(action, data)\nend\ndefmodule Acts do\n  def run(:a, d), do: d\n  def run(:b, d) when is_map(d), do: d\n  def run(_, d), do: d\nend\n",
			"T: use=Wymcp.Tool dispatch(catchall=true a b) name=string/\"tx\" title=nil/\"nil\" action_context\nActs:\n"},
		{"dispatch unknown on a pattern", "defmodule T do\n  def run_action(%{} = a, _, _), do: a\n  def run_action(:x, _, _), do: :x\nend\n",
			"T:\n"},
		{"delegation outside the workspace", "defmodule T do\n  def run_action(a, d, _), do: Ext.run(a, d)\nend\n", "T:\n"},
		{"dispatch and identity through defdelegate", "defmodule T do\n  use Wymcp.Tool\n  defdelegate name, to: Acts, as: :tool_name\n" +
			"  defdelegate run_action(action, data, ctx \\\\ %{}), to: Acts, as: :run\nend\ndefmodule Acts do\n  def tool_name, do: \"acts\"\n  def run(:a, _, _), do: 1\n  def run(:b, _, _), do: 2\nend\n",
			"T: use=Wymcp.Tool dispatch(catchall=false a b) name=string/\"acts\"\nActs:\n"},
		{"dispatch through an imported function", "defmodule T do\n  use Wymcp.Tool\n  import Acts, only: [run: 3]\n  def run_action(action, data, ctx), do: run(action, data, ctx)\nend\n" +
			"defmodule Acts do\n  def run(:a, _, _), do: 1\n  def run(:b, _, _), do: 2\nend\n",
			"T: use=Wymcp.Tool dispatch(catchall=false a b)\nActs:\n"},
		{"dispatch limited by guards", "defmodule T do\n  def run_action(:a, _, _), do: 1\n  def run_action(action, d, _) when action in [:b, :c] and is_map(d), do: 2\n" +
			"  def run_action(act, _, _) when act == :d or :e === act when act in ~w(f g)a, do: 3\n  def run_action(x, _, _) when (x in [:h]), do: 4\nend\n",
			"T: dispatch(catchall=false a guard:b@:b guard:c@:c guard:d@:d guard:e@:e guard:f@f guard:g@g guard:h@:h)\n"},
		{"dispatch past guards read no other way", "defmodule T do\n  def run_action(a, _, _) when a in @acts, do: 1\n  def run_action(b, _, _) when b != :x, do: 2\n" +
			"  def run_action(c, _, _) when c in [:y | @more] or c == :z, do: 3\n  def run_action(d, e, _) when e == :w, do: 4\n  def run_action(:v, _, _) when true, do: 5\nend\n",
			"T: dispatch(catchall=true v)\n"},
		{"dispatch through a case on the action", "defmodule T do\n  def run_action(action, data, _) do\n    with {:ok, d} <- check(data) do\n      case action do\n        :a -> d\n" +
			"        x when x in [:b] or x == :c -> 2\n        \"s\" -> 0\n        nil -> 0\n        _ -> 3\n      end\n    end\n  end\n  def run_action(:z, _, _), do: case(other, do: (:y -> 1))\nend\n",
			"T: dispatch(catchall=true z case:a@:a case:b@:b case:c@:c)\n"},
		{"a case in a guarded clause", "defmodule T do\n  def run_action(action, _, _) when action in [:a, :b] do\n    case action do\n      :a -> 1\n      :b -> 2\n    end\n  end\nend\n",
			"T: dispatch(catchall=false guard:a@:a guard:b@:b case:a@:a case:b@:b)\n"},
		{"a case on the action is not a hand-off", "defmodule T do\n  def run_action(action, _, _) do\n    case action do\n      :a -> 1\n    end\n  end\nend\n",
			"T: dispatch(catchall=true case:a@:a)\n"},
		{"dispatch past a head holding a default", "defmodule T do\n  use Wymcp.Tool\n  def run_action(action, data, ctx \\\\ nil)\n  def run_action(:a, _, _), do: 1\nend\n",
			"T: use=Wymcp.Tool dispatch(catchall=false a)\n"},
		{"defdelegate outside the workspace", "defmodule T do\n  defdelegate run_action(a, d, c), to: Ext\nend\n", "T:\n"},
	}
	p := NewParser()
	defer p.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := p.Parse(context.Background(), "file:///t.ex", []byte(tt.src))
			if len(f.Errors) > 0 {
				t.Fatalf("syntax errors: %+v", f.Errors)
			}
			if got := toolFacts(tt.src, f, resolverOf(f)); got != tt.want {
				t.Errorf("Parse:\n got %q\nwant %q", got, tt.want)
			}
			sk := NewSketch("file:///t.ex", []byte(tt.src), -1).File
			if got := toolFacts(tt.src, sk, resolverOf(sk)); got != tt.want {
				t.Errorf("sketch:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestHintsInClauses: hints inside case clauses and anonymous functions
// are read.
func TestHintsInClauses(t *testing.T) {
	src := "defmodule H do\n  alias Wymcp.Hint\n  def hints(a, _r) do\n    case a do\n      :x -> [Hint.new(tool: \"t\", action: \"a\")]\n" +
		"      _ -> Enum.map([1], fn _ -> Hint.new(tool: \"t\", action: \"b\") end)\n    end\n  end\nend\n"
	p := NewParser()
	defer p.Close()
	f := p.Parse(context.Background(), "file:///h.ex", []byte(src))
	var got []string
	for _, h := range Hints(f.Modules[0]) {
		got = append(got, src[h.Action.Span.Start:h.Action.Span.End])
	}
	if strings.Join(got, " ") != `"a" "b"` {
		t.Errorf("hints %q", got)
	}
}

// FuzzToolFacts feeds any bytes to the tool-level reading (wrappers,
// mounts, registrations, hints, dispatch, identity): no panic, no hang.
func FuzzToolFacts(f *testing.F) {
	f.Add("defmodule R do\n  scope \"/\" do\n    forward \"/mcp\", Wymcp.Router, tools: [A, @b, c()]\n  end\n  def c, do: c()\nend\n")
	f.Add("defmodule T do\n  use W\n  def run_action(a, d, _), do: run_action(a, d, 1)\n  def name, do: name()\nend\ndefmodule W do\n  defmacro __using__(_), do: quote(do: use(W))\nend\n")
	f.Add("defmodule H do\n  def h, do: [Wymcp.Hint.new(tool: :t, action: %{}), %Wymcp.Hint{tool: [1], example: %{data: 1}}]\nend\n")
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, src string) {
		file := p.Parse(context.Background(), "file:///fuzz.ex", []byte(src))
		_ = toolFacts(src, file, resolverOf(file))
	})
}
