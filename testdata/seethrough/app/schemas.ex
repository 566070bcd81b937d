defmodule App.Tools.Schemas do
  @summary "Archive "

  def all do
    %{
      archive: %{
        description: @summary <> "a task",
        properties: %{"id" => %{"type" => "string"}},
        required: ["id", "reason"]
      }
    }
  end
end
