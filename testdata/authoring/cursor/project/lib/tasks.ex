defmodule App.Tools.Tasks do
  @moduledoc "Tasks: Item #{<<c>>} and #{"n#{1}"}, é 🎉."
  use Wymcp.Tool
  def name, do: "tasks"

  alias App.Tools.Schemas

  @impl true
  def actions, do: Schemas.all()
end
