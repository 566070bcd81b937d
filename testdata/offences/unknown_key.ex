defmodule Fixture.UnknownKey do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        descripton: "Create a task",
        description: "Create a task",
        properties: %{},
        example: [%{}]
      },
      list: %{"description" => "List", description: "List", properties: %{}, require: []}
    }
  end
end
