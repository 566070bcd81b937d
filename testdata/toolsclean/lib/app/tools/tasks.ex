defmodule App.Tools.Tasks do
  use Wymcp.Tool
  alias App.Tasks.Actions

  def name, do: "tasks"
  def description, do: "Tasks"

  def actions do
    %{
      open: %{description: "Open a task", properties: %{"title" => %{"type" => "string"}}},
      close: %{
        description: "Close a task",
        properties: %{"id" => %{"type" => "string"}, "ref" => %{"type" => "string"}},
        required_one_of: [["id"], ["ref"]],
        examples: [%{data: %{"ref" => "T-#{1}"}}]
      }
    }
  end

  def run_action(action, data, _ctx), do: Actions.run(action, data)
end
