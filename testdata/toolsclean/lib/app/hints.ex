defmodule App.Hints do
  alias Wymcp.Hint

  def after_add(id) do
    [
      Hint.new(tool: "notes", action: "get", description: "Read the note back", example: %{data: %{id: id}}),
      Hint.new(tool: "tasks", action: "close", description: "Close it", example: %{data: %{"id" => "t-#{id}"}}),
      %Hint{tool: "notes", action: "add", example: %{data: %{text: "again"}}}
    ]
  end
end
