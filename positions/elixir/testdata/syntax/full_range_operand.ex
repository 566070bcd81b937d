defmodule Fixture.FullRangeOperand do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end

  def run_action(:create, data, _ctx) do
    Enum.slice(data, ..2)
  end
end
