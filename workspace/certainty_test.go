package workspace

import (
	"context"
	"testing"
)

// TestMergeOverUnseenKeysIsNotCertain: Map.merge/2's second map wins, so
// when it is opaque (a call into a dependency) or partial, any value of the
// first may be replaced and no check on it is certain (docs/rules.md §5);
// its keys stay (nothing removes one), and so does what the second map
// certainly holds. The same holds for Map.new/1 over a partial list, where
// a later pair wins. The reader kept the first map's values, and reported
// a newline and an undeclared name that Wymcp may never see.
func TestMergeOverUnseenKeysIsNotCertain(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule T do
  use Wymcp.Tool
  def actions do
    %{
      a: Map.merge(%{description: "a\nb", properties: %{}, required: ["x"]}, Dep.more()),
      b: Map.merge(%{description: "b", properties: %{}, descripton: 1}, Map.drop(Dep.more(), [:required])),
      c: Map.new([description: "c\nc", properties: %{}] ++ Dep.pairs()),
      d: Map.merge(Dep.more(), %{description: "d\nd", properties: %{}})
    }
  end
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:6:57-6:67 [unknown-key] error tool=T actions=:b location=""
  range: "descripton"
  message: action :b: unknown key :descripton; fix: did you mean :description?
lib/t.ex:8:47-8:53 [description-newline] error tool=T actions=:d location=""
  range: "\"d\\nd\""
  message: action :d: :description contains a newline; fix: keep :description to one line and move the rest to :notes
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFieldAccessIsNotTheContainer: `@s.a`, `@s[:a]` and the same on a
// map literal read a field or key of the value (Elixir's AST is
// `(@s).a`), which the reader does not evaluate: the value is opaque. The
// parser ended the attribute read (and the map and tuple literals) before
// the access, so the evaluator took the whole container for its field and
// reported the keys of @s as the keys of an action schema.
func TestFieldAccessIsNotTheContainer(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule T do
  use Wymcp.Tool
  @s %{a: %{description: "ok", properties: %{}}}
  @t %{description: "ok", properties: %{}}
  def actions do
    %{
      a: @s.a,
      b: @s[:a],
      c: %{a: %{description: "ok", properties: %{}}}.a,
      d: %{a: %{description: "ok", properties: %{}}}[:a],
      e: %{description: @t.description, properties: %{}, required: ["nope"]}
    }
  end
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:11:69-11:75 [undeclared-field] error tool=T actions=:e location=""
  range: "\"nope\""
  message: action :e: :required names "nope", which :properties does not declare; fix: declare "nope" in :properties or remove it from :required
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestVariablesAreNotCalls: a name an earlier statement matches, or a
// parameter, is a variable there, never the zero-arity function of that
// name; a zero-arity call binds each parameter to its default (Elixir
// defines schemas/0 as schemas(%{})). The reader evaluated every bare
// name as a call: the variables description and props below read the
// functions, three false offences; and with the merge over an opaque map
// no longer certain, the default had to be bound for schemas/0 to keep
// its offence.
func TestVariablesAreNotCalls(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule T do
  use Wymcp.Tool
  def description, do: "x\ny"
  def props, do: %{name: %{}}
  def schemas(extra \\ %{}), do: Map.merge(%{b: %{description: "b", properties: %{}, required: ["zz"]}}, extra)
  def more(props \\ nil) do
    props = %{"p" => %{}}
    %{c: %{description: "c", properties: props, required: ["q"]}}
  end
  def actions do
    description = "clean"
    {props, _} = {%{"ok" => %{}}, 1}
    %{a: %{description: description, properties: props, required: ["ok"]}}
    |> Map.merge(schemas())
    |> Map.merge(more())
  end
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:5:97-5:101 [undeclared-field] error tool=T actions=:b location=""
  range: "\"zz\""
  message: action :b: :required names "zz", which :properties does not declare; fix: declare "zz" in :properties or remove it from :required
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestAccumulatedAttribute: after Module.register_attribute(__MODULE__,
// :name, accumulate: true), @name reads the list of its definitions since
// the registration, the latest first ([] for none); an option the reader
// cannot read leaves the reads unknown. The reader took the last
// definition alone: `required: @req` was the string "b", a wrong-type
// Wymcp never raises, and the actions built with Map.new(@acts) went
// unchecked.
func TestAccumulatedAttribute(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule T do
  use Wymcp.Tool
  @acts {:pre, %{description: "pre", properties: %{}, required: ["pre"]}}
  Module.register_attribute(__MODULE__, :acts, accumulate: true)
  Module.register_attribute __MODULE__, :req, accumulate: true
  Module.register_attribute(__MODULE__, :opt, accumulate: Dep.flag())
  @acts {:create, %{description: "c", properties: %{}, required: ["c1"]}}
  @acts {:list, %{description: "l", properties: %{"a" => %{}, "b" => %{}}, required: @req}}
  @req "a"
  @req "b"
  @opt "x"
  def actions do
    Map.new(@acts)
    |> Map.put(:r, %{description: "r", properties: %{"a" => %{}, "b" => %{}}, required: @req})
    |> Map.put(:o, %{description: @opt, properties: %{}})
  end
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:7:67-7:71 [undeclared-field] error tool=T actions=:create location=""
  range: "\"c1\""
  message: action :create: :required names "c1", which :properties does not declare; fix: declare "c1" in :properties or remove it from :required
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestAttributeDefinedWithParens: `@x(value)` defines @x as `@x value`
// does (Elixir's AST is the same), and `@x()` reads it. The parser read
// `@x(value)` as a read of @x, so the definition was lost and a later
// read took an earlier value.
func TestAttributeDefinedWithParens(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule T do
  use Wymcp.Tool
  @x "a\nb"
  @x("clean")
  @y("y\ny")
  def actions, do: %{a: %{description: @x, properties: %{}}, b: %{description: @y(), properties: %{}}}
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:5:6-5:12 [description-newline] error tool=T actions=:b location=""
  range: "\"y\\ny\""
  message: action :b: :description contains a newline; fix: keep :description to one line and move the rest to :notes
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestModuleRedefinedInOneFile: a later defmodule of a name in the same
// document redefines the module (Elixir warns "redefining module" and the
// later one is loaded), as the document's tools are its last modules. A
// module a tool calls resolved to the first definition, whose offences
// Wymcp never sees.
func TestModuleRedefinedInOneFile(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule App.S do
  def all, do: %{a: %{description: "one\none", properties: %{}}}
end
defmodule App.S do
  def all, do: %{a: %{description: "two", properties: %{}, required: ["two"]}}
end
defmodule App.Tool do
  use Wymcp.Tool
  def actions, do: App.S.all()
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:5:71-5:76 [undeclared-field] error tool=App.Tool actions=:a location=""
  range: "\"two\""
  message: action :a: :required names "two", which :properties does not declare; fix: declare "two" in :properties or remove it from :required
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestAliasQuotedByAWrapper: an alias a wrapper's __using__ quotes is
// defined in the module that uses it (Phoenix's `use MyAppWeb,
// :controller` aliases its helpers so), from the `use` on. The reader
// ignored it: Schemas.all() read the top-level Schemas, whose offence
// Wymcp never sees, and missed the one of App.Tools.Schemas; before the
// `use`, Schemas is still the top-level module.
func TestAliasQuotedByAWrapper(t *testing.T) {
	ws, dir := setup(t, map[string]string{
		"lib/w.ex": `defmodule App.Tool do
  alias App.Tools
  defmacro __using__(_opts) do
    quote do
      use Wymcp.Tool
      alias Tools.Schemas
      alias __MODULE__.Local
    end
  end
end
defmodule App.Tools.Schemas do
  def all, do: %{a: %{description: "a", properties: %{}, required: ["quoted"]}}
end
defmodule Schemas do
  def all, do: %{a: %{description: "top\ntop", properties: %{}}}
  def top, do: %{description: "top", properties: %{}, required: ["top"]}
end
`,
		"lib/t.ex": `defmodule App.T do
  def before, do: Schemas.top()
  use App.Tool
  def actions, do: Map.merge(Schemas.all(), %{b: before()})
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/w.ex:12:69-12:77 [undeclared-field] error tool=App.T actions=:a location=""
  range: "\"quoted\""
  message: action :a: :required names "quoted", which :properties does not declare; fix: declare "quoted" in :properties or remove it from :required
  related: t.ex:1:11 read by tool App.T
lib/w.ex:16:66-16:71 [undeclared-field] error tool=App.T actions=:b location=""
  range: "\"top\""
  message: action :b: :required names "top", which :properties does not declare; fix: declare "top" in :properties or remove it from :required
  related: t.ex:1:11 read by tool App.T
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRequireAs: `require M, as: A` defines the alias A as `alias M, as:
// A` does (Kernel.SpecialForms.require/2), in a module body or a def
// body. The reader ignored it: S.all() read the top-level S, whose
// offence Wymcp never sees.
func TestRequireAs(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule App.Schemas do
  def all, do: %{a: %{description: "a", properties: %{}, required: ["req_as"]}}
  def b, do: %{description: "b", properties: %{}, required: ["req_in_def"]}
end
defmodule S do
  def all, do: %{a: %{description: "top\ntop", properties: %{}}}
end
defmodule App.T do
  use Wymcp.Tool
  require App.Schemas, as: S
  require Logger
  def b do
    require App.Schemas, as: Q
    Q.b()
  end
  def actions, do: Map.put(S.all(), :b, b())
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:2:69-2:77 [undeclared-field] error tool=App.T actions=:a location=""
  range: "\"req_as\""
  message: action :a: :required names "req_as", which :properties does not declare; fix: declare "req_as" in :properties or remove it from :required
lib/t.ex:3:62-3:74 [undeclared-field] error tool=App.T actions=:b location=""
  range: "\"req_in_def\""
  message: action :b: :required names "req_in_def", which :properties does not declare; fix: declare "req_in_def" in :properties or remove it from :required
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestQuotedModuleIsTheUser: in a def a wrapper's __using__ quotes,
// __MODULE__ is the module that uses the wrapper (the quote expands
// there), not the wrapper. The reader evaluated `__MODULE__.Meta.name()`
// in the wrapper, so every tool took the wrapper's Meta name, "help",
// and each mount entry was a reserved-tool-name Wymcp never raises.
func TestQuotedModuleIsTheUser(t *testing.T) {
	ws, dir := setup(t, map[string]string{
		"lib/w.ex": `defmodule App.Tool do
  defmacro __using__(_opts) do
    quote do
      use Wymcp.Tool
      def name, do: __MODULE__.Meta.name()
    end
  end
  defmodule Meta do
    def name, do: "help"
  end
end
`,
		"lib/t.ex": `defmodule App.A do
  use App.Tool
  def actions, do: %{a: %{description: "a", properties: %{}, required: ["x"]}}
  def run_action(_, _, _), do: :ok
  defmodule Meta do
    def name, do: "a"
  end
end
defmodule App.Router do
  use Plug.Router
  forward "/mcp", Wymcp.Router, tools: [App.A]
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:3:73-3:76 [undeclared-field] error tool=App.A actions=:a location=""
  range: "\"x\""
  message: action :a: :required names "x", which :properties does not declare; fix: declare "x" in :properties or remove it from :required
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFieldAccessIsEvaluated: `@s[:a]`, `@s.a` and a keyword list's
// `@kw[:a]` give the value Elixir gives, so an offence inside it is
// reported where it is written; a key Access does not find is nil, which
// an action schema cannot be.
func TestFieldAccessIsEvaluated(t *testing.T) {
	ws, dir := setup(t, map[string]string{"lib/t.ex": `defmodule T do
  use Wymcp.Tool
  @s %{a: %{description: "ok", properties: %{}, exampels: []}}
  @kw [b: %{description: "ok", properties: %{}, requird: []}]
  def actions do
    %{a: @s[:a], b: @kw[:b], c: @s.a, d: @s[:none]}
  end
end
`})
	got := render(t, dir, ws.Diagnose(context.Background()))
	want := `lib/t.ex:3:49-3:57 [unknown-key] error tool=T actions=:a,:c location=""
  range: "exampels"
  message: actions :a, :c: unknown key :exampels; fix: did you mean :examples?
lib/t.ex:4:49-4:56 [unknown-key] error tool=T actions=:b location=""
  range: "requird"
  message: action :b: unknown key :requird; fix: did you mean :required?
lib/t.ex:6:42-6:51 [schema-not-map] error tool=T actions=:d location=""
  range: "@s[:none]"
  message: action :d: the action schema must be a map, got nil; fix: write %{description: "...", properties: %{}}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
