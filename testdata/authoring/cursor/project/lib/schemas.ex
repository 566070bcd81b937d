defmodule App.Tools.Schemas do
  @moduledoc false

  @name_prop %{"type" => "string", "description" => "Task title"}

  @create %{
    description: "Create a task",
    properties: %{
      "name" => @name_prop,
      "id" => %{"type" => "integer"},
      "opts" => %{
        "type" => "object",
        "properties" => %{"notify" => %{"type" => "boolean"}}
      }
    },
    required: ["name"],
    required_one_of: [["name"], ["id"]],
    defaults: %{"opts" => %{"notify" => false}},
    related: ["list"]
  }

  def all, do: %{create: @create, list: %{description: "List tasks", properties: %{}, related: ~w(create)}}
end
