defmodule App.Tools.Archive do
  use Wymcp.Tool

  alias App.Tools.{Other, Schemas}

  @impl true
  def actions, do: Schemas.all()
end
