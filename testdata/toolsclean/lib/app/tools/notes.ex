defmodule App.Tools.Notes do
  use Wymcp.Tool

  @name "notes"
  def name, do: @name
  def description, do: "Notes"
  def title, do: "Notes"

  def actions do
    %{
      add: %{
        description: "Add a note",
        properties: %{"text" => %{"type" => "string"}, "tags" => %{"type" => "array", "items" => %{"type" => "string"}}},
        required: ["text"],
        examples: [
          %{data: %{"text" => "buy #{:milk}", "tags" => ["home"]}},
          %{data: %{text: "call #{"mum"}"}}
        ]
      },
      get: %{
        description: "Get a note",
        properties: %{"id" => %{"type" => "string"}},
        required: ["id"]
      }
    }
  end

  def run_action(:add, data, _ctx), do: {:ok, data}
  def run_action(:get, data, _ctx), do: {:ok, data}

  def hints(:add, _result), do: App.Hints.after_add("1")
  def hints(_action, _result), do: []
end
