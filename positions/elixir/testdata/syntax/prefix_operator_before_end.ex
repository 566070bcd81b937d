defmodule Fixture.PrefixOperator do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end

  def run_action(:create, data, _ctx) do
    handler = &
  end
end
