defmodule App.Tools.Dup2 do
  @behaviour Wymcp.Tool

  @name "dup"
  def name, do: @name
  def description, do: "Second"

  def actions, do: %{two: %{description: "Two", properties: %{}}}

  def run_action(_action, _data, _ctx), do: :ok
end
