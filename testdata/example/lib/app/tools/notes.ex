defmodule App.Tools.Notes do
  @moduledoc "Notes, exposed as an MCP tool."
  use Wymcp.Tool

  @impl true
  def name, do: "notes"
  @impl true
  def description, do: "Write, pin and archive short notes."

  @paging %{
    "limit" => %{"type" => "integer", "minimum" => 1},
    "cursor" => %{"type" => "string"}
  }

  @listing %{
    properties: @paging,
    example: [%{"limit" => 10}]
  }

  @impl true
  def actions do
    %{
      recent: Map.put(@listing, :description, "Most recent notes"),
      pinned: Map.put(@listing, :description, "Pinned notes"),
      archived: Map.put(@listing, :description, "Archived notes"),
      add: %{
        description: "Add a note",
        properties: %{"text" => %{"type" => "string"}},
        required: ["text"]
      }
    }
  end
end
