defmodule App.Tools.Tasks do
  @moduledoc "Tasks tool."
  use Wymcp.Tool
  def name, do: "tasks"

  alias App.Tools.{Other, Schemas}

  @notes """
  Creates a task. \
  The title is mandatory.

  Tasks are private.
  """

  @impl true
  def actions do
    Schemas.all()
    |> Map.merge(%{
      create: %{
        description: "Create a task",
        notes: @notes,
        properties: %{
          "title" => %{"type" => "string"},
          "priority" => %{"type" => ["integer", "string"], "enum" => Other.priorities()},
          "opts" => %{"type" => "object", "additionalProperties" => true}
        },
        required: ~w(title id),
        defaults: %{"opts" => %{}},
        examples: [%{data: %{sql: "select 1"}}]
      },
      rename: %{
        description: """
        Rename a task
        """,
        properties: %{"id" => Schemas.id(), "title" => %{"type" => "string"}},
        required: ['id']
      }
    })
  end
end
