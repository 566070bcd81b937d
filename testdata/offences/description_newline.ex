defmodule Fixture.DescriptionNewline do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: """
        Create a task
        """,
        properties: %{}
      },
      list: %{description: "List\ntasks", properties: %{}}
    }
  end
end
