defmodule Clean.Tools.Reports do
  @moduledoc "A tool that wymcp accepts: no offence may be reported here."
  use Wymcp.Tool
  def name, do: "reports"

  @product "Reports"
  @verb "Run"
  @sql_prop %{"type" => "string", "minLength" => 1}

  @impl true
  def actions do
    %{
      run: %{
        description: @verb <> " a saved " <> String.downcase(@product) <> " query",
        properties: %{
          "sql" => Map.put(@sql_prop, "description", "The SQL text"),
          "format" => %{"type" => "string", "enum" => Clean.Formats.names()},
          "limit" => %{"type" => ["integer", "string"]},
          "params" => %{"type" => "object", "additionalProperties" => true}
        },
        required: ["sql"],
        defaults: %{"params" => %{}},
        notes: """
        Runs the query read-only. \
        Results are capped at 1,000 rows.

        Use :explain first for large tables.
        """,
        examples: [%{data: %{sql: "select 1"}}],
        related: ["explain"]
      },
      explain: %{
        description: "Explain a query plan",
        properties: %{"sql" => @sql_prop},
        required_one_of: [["sql"]]
      }
    }
  end
end
