defmodule App.Tools.Search do
  @moduledoc "Full-text search; declares its actions cleanly."
  @behaviour Wymcp.Tool

  @impl true
  def name, do: "search"
  @impl true
  def description, do: "Search " <> "tasks and notes."

  @impl true
  def actions do
    %{
      query: %{
        description: "Search " <> "tasks and notes",
        properties: %{
          "q" => %{"type" => ["string", "null"]},
          "filters" => %{"type" => "object", "additionalProperties" => true}
        },
        required_one_of: [["q"], ["filters"]],
        defaults: %{"filters" => %{}},
        examples: [%{data: %{q: "milk"}}]
      }
    }
  end
end
