defmodule App.Tools.Dup1 do
  use Wymcp.Tool

  def name, do: "dup"
  def description, do: "First"

  def actions, do: %{one: %{description: "One", properties: %{}}}

  def run_action(_action, _data, _ctx), do: :ok
end
