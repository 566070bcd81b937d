defmodule Lints.Tool do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{
          "name" => %{"type" => "str", "descripton" => "The name"},
          "mode" => %{"type" => "string"}
        },
        required: ["name"],
        defaults: %{"name" => "untitled", "mode" => "fast", "mode" => "slow"},
        related: ["list", "delete"]
      },
      list: %{description: "List", properties: %{}}
    }
  end
end
