defmodule Fixture.WordOperator do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end

  def run_action(:create, data, _ctx) do
    data.ok and
  end
end
