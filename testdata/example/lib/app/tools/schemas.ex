defmodule App.Tools.Schemas do
  @moduledoc false

  @prefix "Tasks: "
  @name_prop %{"type" => "string", "description" => "Task title"}

  @create %{
    description: @prefix <> "create a task",
    properties: %{
      "name" => @name_prop,
      "due" => %{"type" => "string", "format" => "date"},
      "opts" => %{
        "type" => "object",
        "properties" => %{"notify" => %{"type" => "boolean"}}
      }
    },
    required: ["name"],
    defaults: %{"opts" => %{"notify" => false, "silent" => true}},
    notes: """
    Creates a task in the current project. \
    The name must be unique.
    """,
    related: ["list"]
  }

  @list %{
    description: @prefix <> "list tasks",
    properties: %{"status" => %{"type" => "string", "enum" => ["open", "done"]}},
    required: ["state"]
  }

  def all, do: %{create: @create, list: @list}
end
