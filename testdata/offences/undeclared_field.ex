defmodule Fixture.UndeclaredField do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{"name" => %{"type" => "string"}},
        required: ~w(name id),
        required_one_of: [["name"], ["owner"]]
      }
    }
  end
end
