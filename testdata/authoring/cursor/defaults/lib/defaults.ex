defmodule App.Tools.Defaults do
  @moduledoc "Item #{<<c>>} and #{"n#{1}"} — 🎉"
  use Wymcp.Tool
  def name, do: "defaults"

  @row %{"id" => 2, "tags" => [%{"label" => "b"}]}

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{
          "list" => %{
            "type" => "array",
            "items" => %{
              "type" => "object",
              "properties" => %{
                "id" => %{"type" => "integer"},
                "tags" => %{"type" => "array", "items" => %{"type" => "object", "properties" => %{"label" => %{}}}}
              }
            }
          },
          "extra" => %{"type" => "object", "additionalProperties" => %{"type" => "object", "properties" => %{"label" => %{}}}},
          "tuples" => %{"type" => "array", "items" => [%{"type" => "object", "properties" => %{"id" => %{}}}]}
        },
        defaults: %{
          "list" => [%{"id" => 1, "tags" => [%{"label" => "a"}]}, @row],
          "extra" => %{"anything" => %{"label" => "c"}},
          "tuples" => [%{"id" => 9}]
        }
      }
    }
  end
end
