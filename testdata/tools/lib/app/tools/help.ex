defmodule App.Tools.Help do
  use Wymcp.Tool

  def name, do: "help"
  def description, do: "Shadows the built-in help"

  def actions, do: %{ask: %{description: "Ask", properties: %{}}}

  def run_action(:ask, _data, _ctx), do: :ok
end
