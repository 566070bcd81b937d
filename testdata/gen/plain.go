package main

import (
	"fmt"
	"strings"
)

// fieldNames are the Ecto fields and the operations ordinary modules draw
// from; none of them is a Wymcp declaration.
var fieldNames = []string{
	"name", "status", "amount", "currency", "notes", "region", "priority", "position",
	"archived", "reference", "email", "phone", "starts_at", "ends_at", "quantity", "weight",
}

var opNames = []string{
	"refresh", "fetch", "reserve", "release", "expire", "sync", "count", "flush",
	"lookup", "touch", "retry", "pause", "resume", "rebuild", "prune", "warm",
}

// renderPlain writes an ordinary module of about m.target lines.
func (g *generator) renderPlain(m *modSpec) *fileBuf {
	b := &fileBuf{path: m.path}
	switch m.kind {
	case kindGenServer:
		g.genServer(b, m)
	case kindContext:
		g.context(b, m)
	case kindEcto:
		g.ecto(b, m)
	case kindController:
		g.controller(b, m)
	case kindHelper:
		g.helper(b, m)
	case kindTest:
		g.test(b, m)
	}
	return b
}

// pick returns n distinct entries of from (n capped at len(from)).
func (g *generator) pick(from []string, n int) []string {
	n = min(n, len(from))
	out := make([]string, 0, n)
	for _, i := range g.rng.Perm(len(from))[:n] {
		out = append(out, from[i])
	}
	return out
}

func (g *generator) genServer(b *fileBuf, m *modSpec) {
	lower := strings.ToLower(m.dom.plural)
	b.pf("defmodule %s do", m.module)
	b.p(`  @moduledoc """`)
	b.pf("  Keeps a warm cache of %s and syncs it with the upstream service", lower)
	b.p("  on a fixed interval. Started under `Shop.Application`.", `  """`)
	b.p("  use GenServer", "  require Logger", "")
	b.pf("  @interval :timer.seconds(%d)", 5+g.rng.IntN(60))
	b.pf("  @table :%s_cache", m.snake)
	b.p("", `  @doc "Starts the worker; `+"`opts`"+` may set `+"`:name`"+`."`,
		"  def start_link(opts \\\\ []) do",
		"    GenServer.start_link(__MODULE__, opts, name: Keyword.get(opts, :name, __MODULE__))",
		"  end", "")
	ops := g.pick(opNames, 2+(m.target-40)/13)
	for _, op := range ops {
		b.pf(`  @doc "Asks the worker to %s one entry."`, op)
		b.pf("  def %s(server \\\\ __MODULE__, key), do: GenServer.call(server, {:%s, key})", op, op)
		b.p("")
	}
	b.p("  @impl true",
		"  def init(opts) do",
		"    :ets.new(@table, [:named_table, :set, :protected, read_concurrency: true])",
		"    state = %{opts: opts, entries: %{}, failures: 0, timer: schedule()}",
		"    {:ok, state}",
		"  end", "")
	for i, op := range ops {
		b.p("  @impl true")
		b.pf("  def handle_call({:%s, key}, _from, state) do", op)
		switch i % 3 {
		case 0:
			b.p("    case Map.fetch(state.entries, key) do",
				"      {:ok, entry} -> {:reply, {:ok, entry}, state}",
				"      :error -> {:reply, {:error, :not_found}, state}",
				"    end")
		case 1:
			b.p("    entries = Map.update(state.entries, key, 1, &(&1 + 1))",
				"    :ets.insert(@table, {key, Map.fetch!(entries, key)})",
				"    {:reply, :ok, %{state | entries: entries}}")
		default:
			b.pf("    Logger.debug(\"%s %s\", key: inspect(key))", m.snake, op)
			b.p("    {:reply, Map.has_key?(state.entries, key), state}")
		}
		b.p("  end", "")
	}
	b.p("  @impl true",
		"  def handle_info(:tick, state) do",
		"    case push_entries(state.entries) do",
		"      :ok ->",
		"        {:noreply, %{state | failures: 0, timer: schedule()}}",
		"",
		"      {:error, reason} ->",
		`        Logger.warning("sync failed: #{inspect(reason)}")`,
		"        {:noreply, %{state | failures: state.failures + 1, timer: schedule()}}",
		"    end",
		"  end", "",
		"  defp schedule, do: Process.send_after(self(), :tick, @interval)", "",
		"  defp push_entries(entries) when map_size(entries) == 0, do: :ok",
		"  defp push_entries(entries), do: entries |> Map.keys() |> Enum.each(&:ets.delete(@table, &1))",
		"end")
}

func (g *generator) context(b *fileBuf, m *modSpec) {
	ent := m.dom.singular
	sing := snake(ent)
	plural := snake(m.dom.plural)
	b.pf("defmodule %s do", m.module)
	b.p(`  @moduledoc """`)
	b.pf("  The %s context.", m.dom.plural)
	if g.rng.IntN(3) == 0 {
		b.p("", "  Its functions back the `Shop.Tools."+m.dom.plural+"` tool (a `Wymcp.Tool`):",
			"  that module declares the actions and calls in here; nothing in this",
			"  module is an action schema.")
	}
	b.p(`  """`, "", "  import Ecto.Query, warn: false", "  alias Shop.Repo")
	b.pf("  alias %s.%s", m.module, ent)
	b.p("")
	blocks := []func(){
		func() {
			b.p(`  @doc """`)
			b.pf("  Returns the list of %s.", plural)
			b.p("", "  ## Examples", "")
			b.pf("      iex> list_%s()", plural)
			b.pf("      [%%%s{}, ...]", ent)
			b.p("", `  """`)
			b.pf("  def list_%s(opts \\\\ []) do", plural)
			b.pf("    %s", ent)
			b.p("    |> where([r], r.archived == false)",
				"    |> order_by([r], desc: r.inserted_at)",
				"    |> limit(^Keyword.get(opts, :limit, 50))",
				"    |> Repo.all()", "  end", "")
		},
		func() {
			b.pf(`  @doc "Gets a single %s; raises if it does not exist."`, sing)
			b.pf("  def get_%s!(id), do: Repo.get!(%s, id)", sing, ent)
			b.p("")
		},
		func() {
			b.pf(`  @doc "Creates a %s."`, sing)
			b.pf("  def create_%s(attrs \\\\ %%{}, _ctx \\\\ nil) do", sing)
			b.pf("    %%%s{}", ent)
			b.pf("    |> %s.changeset(attrs)", ent)
			b.p("    |> Repo.insert()", "  end", "")
		},
		func() {
			b.pf(`  @doc "Updates a %s."`, sing)
			b.pf("  def update_%s(%%%s{} = %s, attrs) do", sing, ent, sing)
			b.pf("    %s", sing)
			b.pf("    |> %s.changeset(attrs)", ent)
			b.p("    |> Repo.update()", "  end", "")
		},
		func() {
			b.pf(`  @doc "Deletes a %s."`, sing)
			b.pf("  def delete_%s(%%%s{} = %s), do: Repo.delete(%s)", sing, ent, sing, sing)
			b.p("")
		},
		func() {
			b.pf(`  @doc "Returns an `+"`%%Ecto.Changeset{}`"+` for tracking %s changes."`, sing)
			b.pf("  def change_%s(%%%s{} = %s, attrs \\\\ %%{}) do", sing, ent, sing)
			b.pf("    %s.changeset(%s, attrs)", ent, sing)
			b.p("  end", "")
		},
		func() {
			f := fieldNames[g.rng.IntN(len(fieldNames))]
			b.pf(`  @doc "Counts %s grouped by %s."`, plural, f)
			b.pf("  def count_by_%s do", f)
			b.pf("    %s", ent)
			b.pf("    |> group_by([r], r.%s)", f)
			b.pf("    |> select([r], {r.%s, count(r.id)})", f)
			b.p("    |> Repo.all()", "    |> Map.new()", "  end", "")
		},
		func() {
			b.pf(`  @doc "Archives every %s older than `+"`days`"+` days."`, sing)
			b.pf("  def archive_stale_%s(days) when is_integer(days) and days > 0 do", plural)
			b.p("    cutoff = DateTime.add(DateTime.utc_now(), -days * 86_400, :second)", "")
			b.pf("    %s", ent)
			b.p("    |> where([r], r.updated_at < ^cutoff and r.archived == false)",
				"    |> Repo.update_all(set: [archived: true])", "  end", "")
		},
	}
	for i := 0; len(b.lines) < m.target-1; i++ {
		blocks[i%len(blocks)]()
		if i > 40 {
			break
		}
	}
	b.p("end")
}

func (g *generator) ecto(b *fileBuf, m *modSpec) {
	ent := m.dom.singular
	fields := g.pick(fieldNames, 4+(m.target-40)/10)
	types := []string{":string", ":integer", ":boolean", ":utc_datetime", ":decimal", ":map"}
	b.pf("defmodule %s do", m.module)
	b.pf(`  @moduledoc "A %s record."`, strings.ToLower(ent))
	b.p("  use Ecto.Schema", "  import Ecto.Changeset", "")
	b.p("  @primary_key {:id, :binary_id, autogenerate: true}")
	b.p(`  @derive {Jason.Encoder, except: [:__meta__]}`, "")
	b.pf("  schema %q do", m.snake)
	for i, f := range fields {
		b.pf("    field :%s, %s", f, types[i%len(types)])
	}
	b.p("", "    timestamps(type: :utc_datetime)", "  end", "")
	req := fields[:min(2, len(fields))]
	b.pf("  @required [%s]", atoms(req))
	b.pf("  @optional [%s]", atoms(fields[len(req):]))
	b.p("")
	b.pf(`  @doc "Builds a changeset for a %s."`, strings.ToLower(ent))
	b.pf("  def changeset(%s, attrs) do", snake(ent))
	b.pf("    %s", snake(ent))
	b.p("    |> cast(attrs, @required ++ @optional)", "    |> validate_required(@required)")
	for i, f := range fields {
		switch types[i%len(types)] {
		case ":string":
			b.pf("    |> validate_length(:%s, max: 160)", f)
		case ":integer":
			b.pf("    |> validate_number(:%s, greater_than_or_equal_to: 0)", f)
		}
	}
	b.p("  end", "")
	for i, f := range fields {
		if len(b.lines) >= m.target-1 {
			break
		}
		b.pf(`  @doc "Query helper: %ss by %s."`, strings.ToLower(ent), f)
		b.pf("  def by_%s(query \\\\ __MODULE__, value) do", f)
		b.p("    import Ecto.Query, only: [where: 3]")
		b.pf("    where(query, [r], r.%s == ^value)", f)
		b.p("  end", "")
		if i%2 == 1 {
			b.pf("  defp normalize_%s(nil), do: nil", f)
			b.pf("  defp normalize_%s(value) when is_binary(value), do: String.trim(value)", f)
			b.pf("  defp normalize_%s(value), do: value", f)
			b.p("")
		}
	}
	b.p("end")
}

// atoms renders names as `:a, :b`.
func atoms(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = ":" + n
	}
	return strings.Join(q, ", ")
}

func (g *generator) controller(b *fileBuf, m *modSpec) {
	sing := snake(m.dom.singular)
	plural := snake(m.dom.plural)
	ctx := fmt.Sprintf("%s.%s", g.app, m.camel)
	b.pf("defmodule %s do", m.module)
	b.p("  use ShopWeb, :controller", "")
	b.pf("  alias %s", ctx)
	b.p("", "  action_fallback ShopWeb.FallbackController", "")
	b.p(`  plug :put_view, json: ShopWeb.JSON`, "")
	actions := []func(){
		func() {
			b.p("  def index(conn, params) do")
			b.pf("    %s = %s.list_%s(limit: Map.get(params, \"limit\", 50))", plural, m.camel, plural)
			b.pf("    render(conn, :index, %s: %s)", plural, plural)
			b.p("  end", "")
		},
		func() {
			b.pf("  def create(conn, %%{%q => params}) do", sing)
			b.pf("    with {:ok, %s} <- %s.create_%s(params) do", sing, m.camel, sing)
			b.p("      conn", "      |> put_status(:created)")
			b.pf("      |> render(:show, %s: %s)", sing, sing)
			b.p("    end", "  end", "")
		},
		func() {
			b.p(`  def show(conn, %{"id" => id}) do`)
			b.pf("    %s = %s.get_%s!(id)", sing, m.camel, sing)
			b.pf("    render(conn, :show, %s: %s)", sing, sing)
			b.p("  end", "")
		},
		func() {
			b.pf("  def update(conn, %%{\"id\" => id, %q => params}) do", sing)
			b.pf("    %s = %s.get_%s!(id)", sing, m.camel, sing)
			b.p("")
			b.pf("    with {:ok, %s} <- %s.update_%s(%s, params) do", sing, m.camel, sing, sing)
			b.pf("      render(conn, :show, %s: %s)", sing, sing)
			b.p("    end", "  end", "")
		},
		func() {
			b.p(`  def delete(conn, %{"id" => id}) do`)
			b.pf("    %s = %s.get_%s!(id)", sing, m.camel, sing)
			b.p("")
			b.pf("    with {:ok, _} <- %s.delete_%s(%s) do", m.camel, sing, sing)
			b.p("      send_resp(conn, :no_content, \"\")", "    end", "  end", "")
		},
		func() {
			// A function called actions that is not Wymcp's actions/0.
			b.p(`  @doc "Lists the bulk actions the UI may offer."`,
				"  def actions(conn, _params) do",
				`    json(conn, %{actions: ["archive", "export", "delete"]})`,
				"  end", "")
		},
		func() {
			b.p(`  def export(conn, params) do`)
			b.pf("    rows = %s.list_%s(limit: 10_000)", m.camel, plural)
			b.p("    csv = Enum.map_join(rows, \"\\n\", &Enum.join([&1.id, &1.inserted_at], \",\"))", "",
				"    conn",
				`    |> put_resp_content_type("text/csv")`)
			b.pf("    |> put_resp_header(\"content-disposition\", \"attachment; filename=%s.csv\")", plural)
			b.p("    |> send_resp(200, csv)", "    |> tap(fn _ -> log_export(params) end)", "  end", "",
				"  defp log_export(params), do: require(Logger) && Logger.info(\"export #{inspect(params)}\")", "")
		},
	}
	for i := 0; len(b.lines) < m.target-1 && i < len(actions)*6; i++ {
		if i < len(actions) {
			actions[i]()
			continue
		}
		// Longer controllers: extra filtered index actions.
		f := fieldNames[(i*7)%len(fieldNames)]
		b.pf("  def index_by_%s_%d(conn, %%{%q => value}) do", f, i, f)
		b.pf("    %s = %s.list_%s(%s: value)", plural, m.camel, plural, f)
		b.pf("    render(conn, :index, %s: %s)", plural, plural)
		b.p("  end", "")
	}
	b.p("end")
}

func (g *generator) helper(b *fileBuf, m *modSpec) {
	b.pf("defmodule %s do", m.module)
	b.pf(`  @moduledoc "Formatting and parsing helpers for %s."`, strings.ToLower(m.dom.plural))
	b.p("", `  @currencies ~w(EUR USD GBP CHF)`, `  @required_fields [:name, :status]`, "")
	for i := 0; len(b.lines) < m.target-1 && i < 200; i++ {
		f := fieldNames[i%len(fieldNames)]
		if n := i / len(fieldNames); n > 0 {
			f = fmt.Sprintf("%s_%d", f, n+1)
		}
		switch i % 4 {
		case 0:
			b.pf(`  @doc "Formats the %s of a record for display."`, f)
			b.pf("  def format_%s(%%{%s: nil}), do: \"-\"", f, f)
			b.pf("  def format_%s(%%{%s: value}) when is_binary(value), do: String.trim(value)", f, f)
			b.pf("  def format_%s(%%{%s: value}), do: to_string(value)", f, f)
		case 1:
			b.pf(`  @doc "Parses a %s from user input."`, f)
			b.pf("  def parse_%s(input) when is_binary(input) do", f)
			b.p("    case Integer.parse(input) do",
				"      {n, \"\"} -> {:ok, n}",
				"      _ -> {:error, :invalid}",
				"    end",
				"  end")
		case 2:
			b.pf("  def valid_%s?(value), do: value not in [nil, \"\"] and value in @currencies", f)
		case 3:
			b.pf(`  @doc "Checks that the required fields are present."`)
			b.pf("  def complete_%d?(record), do: Enum.all?(@required_fields, &Map.get(record, &1))", i)
		}
		b.p("")
	}
	b.p("end")
}

func (g *generator) test(b *fileBuf, m *modSpec) {
	b.pf("defmodule %s do", m.module)
	if t := m.tool; t != nil {
		b.p("  use ExUnit.Case, async: true", "")
		b.pf("  alias %s", t.module)
		b.p("")
		b.p(`  describe "actions/0" do`)
		names := make([]string, 0, len(t.actions))
		for _, a := range t.actions {
			names = append(names, ":"+a.name)
		}
		if t.schemas && t.form == viaPipe {
			names = append(names, ":ping")
		}
		b.p("    test \"declares every action\" do")
		b.pf("      assert %s.actions() |> Map.keys() |> Enum.sort() ==", t.camel)
		b.pf("               Enum.sort([%s])", strings.Join(names, ", "))
		b.p("    end", "")
		b.p("    test \"every action has a description\" do")
		b.pf("      for {name, schema} <- %s.actions() do", t.camel)
		b.p("        assert is_binary(schema[:description]), \"#{name} has no description\"",
			"      end", "    end", "  end", "")
		for i := 0; len(b.lines) < m.target-1 && i < 100; i++ {
			a := t.actions[i%len(t.actions)]
			if i < len(t.actions) {
				b.pf("  test \"call(:%s, ...) rejects bad data\" do", a.name)
				b.pf("    assert {:error, _} = %s.call(:%s, \"not a map\", %%{actor_id: %d})", t.camel, a.name, i+1)
				b.p("  end", "")
				continue
			}
			b.pf("  test \"schema of :%s survives a JSON round trip (%d)\" do", a.name, i)
			b.pf("    schema = Map.fetch!(%s.actions(), :%s)", t.camel, a.name)
			b.p("    assert schema |> Jason.encode!() |> Jason.decode!() |> is_map()", "  end", "")
		}
		b.p("end")
		return
	}
	sing := snake(m.dom.singular)
	plural := snake(m.dom.plural)
	b.p("  use Shop.DataCase, async: true", "")
	b.pf("  alias Shop.%s", m.dom.plural)
	b.pf("  alias Shop.%s.%s", m.dom.plural, m.dom.singular)
	b.p("")
	b.pf("  @valid_attrs %%{name: \"some name\", status: \"open\"}")
	b.p(`  @invalid_attrs %{name: nil, status: nil}`, "")
	b.pf("  defp %s_fixture(attrs \\\\ %%{}) do", sing)
	b.pf("    {:ok, %s} = attrs |> Enum.into(@valid_attrs) |> %s.create_%s()", sing, m.dom.plural, sing)
	b.pf("    %s", sing)
	b.p("  end", "")
	b.pf("  describe %q do", plural)
	cases := []func(int){
		func(int) {
			b.pf("    test \"list_%s/0 returns all %s\" do", plural, plural)
			b.pf("      %s = %s_fixture()", sing, sing)
			b.pf("      assert %s.list_%s() == [%s]", m.dom.plural, plural, sing)
			b.p("    end", "")
		},
		func(int) {
			b.pf("    test \"get_%s!/1 returns the %s with given id\" do", sing, sing)
			b.pf("      %s = %s_fixture()", sing, sing)
			b.pf("      assert %s.get_%s!(%s.id) == %s", m.dom.plural, sing, sing, sing)
			b.p("    end", "")
		},
		func(int) {
			b.pf("    test \"create_%s/1 with valid data creates a %s\" do", sing, sing)
			b.pf("      assert {:ok, %%%s{} = %s} = %s.create_%s(@valid_attrs)", m.dom.singular, sing, m.dom.plural, sing)
			b.pf("      assert %s.name == \"some name\"", sing)
			b.p("    end", "")
		},
		func(int) {
			b.pf("    test \"create_%s/1 with invalid data returns error changeset\" do", sing)
			b.pf("      assert {:error, %%Ecto.Changeset{}} = %s.create_%s(@invalid_attrs)", m.dom.plural, sing)
			b.p("    end", "")
		},
		func(i int) {
			b.pf("    test \"update_%s/2 variant %d keeps the id\" do", sing, i)
			b.pf("      %s = %s_fixture()", sing, sing)
			b.pf("      assert {:ok, updated} = %s.update_%s(%s, %%{name: \"name %d\"})", m.dom.plural, sing, sing, i)
			b.pf("      assert updated.id == %s.id", sing)
			b.pf("      assert updated.name == \"name %d\"", i)
			b.p("    end", "")
		},
	}
	for i := 0; len(b.lines) < m.target-3 && i < 200; i++ {
		cases[min(i, len(cases)-1)](i)
	}
	b.p("  end", "end")
}
