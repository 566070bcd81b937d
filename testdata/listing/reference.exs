# The reference for package listing: compiles the tool modules under the
# directory given (with a stand-in Wymcp.Tool), builds the tools/list entries
# and the help tool's answers as Wymcp's facts describe them (README.md,
# "What the LLM sees"), and writes them as JSON the way Jason does: a map in
# the BEAM's own iteration order, floats by :io_lib_format.fwrite_g/1.
#
#   elixir testdata/listing/reference.exs testdata/listing/lib
#
# prints one line per answer: "tools-list <json>", then for each tool
# "help-tool <module> <json>" and, for each action, "help-action <module>
# <action> <json>". cmd/wymcp-ls/listing_test.go compares them with ours.

defmodule Wymcp.Tool do
  @callback actions() :: map()
  @callback name() :: String.t()
  @callback description() :: String.t()
  @callback title() :: term()
  @callback annotations() :: term()
  @callback output_schema() :: term()
  @callback action_context(atom(), map()) :: map()
  @callback run_action(atom(), map(), map()) :: term()
  @optional_callbacks title: 0, annotations: 0, output_schema: 0, action_context: 2, run_action: 3
  defmacro __using__(_opts), do: quote(do: @behaviour(Wymcp.Tool))
end

defmodule Wymcp.Router do
  defmacro __using__(_opts), do: nil
end

defmodule ListingReference do
  @vocabulary [:description, :properties, :required, :required_one_of, :defaults, :notes, :related, :examples]
  @context "<action_context/2 is computed per call at run time; not shown>"

  def main([dir]) do
    Code.put_compiler_option(:ignore_module_conflict, true)

    tools =
      Path.wildcard(Path.join(dir, "**/*.ex"))
      |> Enum.flat_map(&Code.require_file/1)
      |> Enum.map(&elem(&1, 0))
      |> Enum.filter(&(Wymcp.Tool in List.flatten(Keyword.get_values(&1.__info__(:attributes), :behaviour))))
      |> Enum.sort_by(&inspect/1)

    IO.puts("tools-list " <> encode(Enum.map(tools, &entry/1) ++ [help_entry()]))

    for m <- tools do
      mod = inspect(m)
      IO.puts("help-tool #{mod} " <> encode(help_tool(m)))

      for {action, schema} <- Enum.sort(m.actions()) do
        answer = Map.merge(%{tool: m.name(), action: Atom.to_string(action)}, restrict(schema))

        answer =
          if function_exported?(m, :action_context, 2), do: Map.put(answer, "context", @context), else: answer

        IO.puts("help-action #{mod} #{action} " <> encode(answer))
      end
    end

    IO.puts("help-index " <> encode(Enum.map(tools, &%{tool: &1.name(), description: &1.description(), actions: summaries(&1)})))
  end

  defp summaries(m) do
    m.actions()
    |> Enum.sort_by(fn {k, _} -> Atom.to_string(k) end)
    |> Enum.map_join("\n", fn {k, s} -> "#{k}: #{s.description}" end)
  end

  defp entry(m) do
    names = m.actions() |> Map.keys() |> Enum.map(&Atom.to_string/1) |> Enum.sort()

    schema = %{
      "type" => "object",
      "required" => ["action"],
      "properties" => %{
        "action" => %{"type" => "string", "enum" => names, "description" => summaries(m)},
        "data" => %{"type" => "object"}
      }
    }

    e = %{"name" => m.name(), "description" => m.description(), "inputSchema" => schema}
    e = if function_exported?(m, :title, 0) and is_binary(m.title()), do: Map.put(e, "title", m.title()), else: e

    e =
      if function_exported?(m, :annotations, 0) and is_map(m.annotations()) and map_size(m.annotations()) > 0,
        do: Map.put(e, "annotations", m.annotations()),
        else: e

    if function_exported?(m, :output_schema, 0) and is_map(m.output_schema()),
      do: Map.put(e, "outputSchema", m.output_schema()),
      else: e
  end

  defp restrict(schema), do: schema |> Map.take(@vocabulary) |> Map.put_new(:required, [])

  defp help_tool(m) do
    %{
      tool: m.name(),
      description: m.description(),
      actions: Map.new(m.actions(), fn {k, s} -> {k, restrict(s)} end)
    }
  end

  defp help_entry do
    %{
      "name" => "help",
      "description" =>
        "Describe this server's tools. With no arguments: every tool with its action summaries. " <>
          "With \"tool\": that tool's actions and their schemas. With \"tool\" and \"action\": that one action's schema.",
      "inputSchema" => %{
        "type" => "object",
        "properties" => %{
          "tool" => %{"type" => "string", "description" => "A tool name from tools/list"},
          "action" => %{"type" => "string", "description" => "An action of that tool (needs \"tool\")"}
        }
      }
    }
  end

  # Jason's encoding: maps iterated as the BEAM holds them (Enum walks the
  # same order as :maps.to_list/1), atoms by name, floats by fwrite_g.
  def encode(m) when is_map(m), do: "{" <> Enum.map_join(m, ",", fn {k, v} -> key(k) <> ":" <> encode(v) end) <> "}"
  def encode(l) when is_list(l), do: "[" <> Enum.map_join(l, ",", &encode/1) <> "]"
  def encode(nil), do: "null"
  def encode(b) when is_boolean(b), do: Atom.to_string(b)
  def encode(a) when is_atom(a), do: string(Atom.to_string(a))
  def encode(s) when is_binary(s), do: string(s)
  def encode(i) when is_integer(i), do: Integer.to_string(i)
  def encode(f) when is_float(f), do: IO.iodata_to_binary(:io_lib_format.fwrite_g(f))

  defp key(k) when is_binary(k), do: string(k)
  defp key(k) when is_atom(k), do: string(Atom.to_string(k))
  defp key(k), do: string(to_string(k))

  defp string(s) do
    body =
      for <<c::utf8 <- s>>, into: "" do
        case c do
          ?" -> "\\\""
          ?\\ -> "\\\\"
          ?\b -> "\\b"
          ?\t -> "\\t"
          ?\n -> "\\n"
          ?\f -> "\\f"
          ?\r -> "\\r"
          c when c < 0x20 -> "\\u00" <> Base.encode16(<<c>>)
          c -> <<c::utf8>>
        end
      end

    "\"" <> body <> "\""
  end
end

ListingReference.main(System.argv())
