defmodule Fixture.Nested do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{
          "kind" => "string",
          "opts" => %{"type" => "object", "properties" => [], properties: %{}},
          "tags" => %{"type" => "array", "items" => "string"},
          "meta" => %{"type" => "object", "additionalProperties" => "yes"},
          "deep" => %{"items" => %{"properties" => %{"x" => 1}}},
          name: %{"type" => "string"}
        }
      }
    }
  end
end
