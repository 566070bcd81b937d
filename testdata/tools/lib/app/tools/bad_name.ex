defmodule App.Tools.BadName do
  use Wymcp.Tool

  def name, do: "bad " <> "name!"
  def description, do: "Not mounted, and its name breaks MCP's rule"

  def actions, do: %{go: %{description: "Go", properties: %{}}}

  def run_action(:go, _data, _ctx), do: :ok
end
