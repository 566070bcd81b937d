defmodule Fixture.OperatorWithoutLeftOperand do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end

  def run_action(:create, data, _ctx) do
    Enum.member?(data, in)
  end
end
