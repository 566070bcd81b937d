defmodule Fixture.Defaults do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{
          "name" => %{"type" => "string"},
          "opts" => %{"type" => "object", "properties" => %{"notify" => %{"type" => "boolean"}}},
          "extra" => %{"type" => "object", "properties" => %{}, "additionalProperties" => true},
          "list" => %{"type" => "array", "items" => %{"type" => "object", "properties" => %{"id" => %{}}}}
        },
        defaults: %{
          :name => "x",
          "colour" => "red",
          "opts" => %{"notify" => true, "silent" => true, loud: false},
          "extra" => %{"anything" => 1},
          "list" => [%{"id" => 1, "name" => "n"}]
        }
      }
    }
  end
end
