defmodule Fixture.SchemaNotMap do
  use Wymcp.Tool

  def actions, do: %{create: "Create a task", list: %{description: "List", properties: %{}}}
end
