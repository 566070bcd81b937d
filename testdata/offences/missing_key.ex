defmodule Fixture.MissingKey do
  use Wymcp.Tool

  @shared_schema Map.delete(%{description: "Shared", properties: %{}}, :description)

  def actions do
    %{
      create: %{properties: %{"name" => %{"type" => "string"}}},
      list: %{description: "List"},
      other: @shared_schema
    }
  end
end
