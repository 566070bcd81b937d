defmodule Fixture.Groups do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{"a" => %{}, "b" => %{}, "c" => %{}},
        required_one_of: [[], ["a"], ["b", "c"], ["c", "b"], ["a", "c"]]
      }
    }
  end
end
