defmodule App.Tools.Tasks do
  @moduledoc "Item #{<<c>>} and #{"n#{1}"} — 🎉"
  use Wymcp.Tool
  def name, do: "tasks"

  @name_schema %{"type" => "string"}

  def actions do
    %{
      create: %{
        description: "Create a task",
        properties: %{"name" => @name_schema, "id" => %{"type" => "integer"}},
        required: ["name"],
        required_one_of: [["name"], ~w(id)],
        defaults: %{"name" => "untitled"}
      },
      list: %{
        description: "List tasks",
        properties: %{"name" => %{"type" => "string"}},
        required: ["name"]
      }
    }
  end
end
