defmodule App.Tools.Tasks do
  @moduledoc "Task management, exposed as an MCP tool."
  use Wymcp.Tool

  @impl true
  def name, do: "tasks"
  @impl true
  def description, do: "Create and list tasks."

  alias App.Tools.Schemas

  @impl true
  def actions, do: Schemas.all()

  @impl true
  def run_action(action, data, ctx), do: App.Tasks.dispatch(action, data, ctx)
end
