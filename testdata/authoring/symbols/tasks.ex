defmodule Sym.Tasks do
  use Wymcp.Tool
  alias Sym.Schemas

  @label "Item #{<<c>>} and #{"n#{1}"}"

  @opts %{
    "type" => "object",
    "properties" => %{"notify" => %{"type" => "boolean"}}
  }

  def actions do
    %{
      create: %{
        description: "Create a task",
        properties: %{
          "name" => %{"type" => "string"},
          "opts" => @opts,
          "tags" => %{"type" => "array", "items" => %{"type" => "object", "properties" => %{"label" => %{}}}}
        }
      },
      list: Schemas.list(),
      "bad name": %{description: "Ünï 🎉", properties: %{"q" => %{}}}
    }
  end
end
