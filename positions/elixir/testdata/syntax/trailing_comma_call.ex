defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    Map.merge(%{}, %{create: %{description: "Create", properties: %{}}},)
  end
end
