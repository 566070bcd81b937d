defmodule App.Tools.Tasks do
  @moduledoc "Task management, exposed as an MCP tool."
  use Wymcp.Tool, name: "tasks"

  alias App.Tools.Schemas

  @impl true
  def actions, do: Schemas.all()

  @impl true
  def call(action, data, ctx), do: App.Tasks.dispatch(action, data, ctx)
end
