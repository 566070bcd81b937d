defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        notes: """Creates a task.
        Long form.
        """,
        properties: %{}
      }
    }
  end
end
