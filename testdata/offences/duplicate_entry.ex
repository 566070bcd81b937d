defmodule Fixture.DuplicateEntry do
  use Wymcp.Tool

  def actions do
    %{
      create: %{
        description: "Create",
        properties: %{"a" => %{}, "b" => %{}},
        required: ["a", "b", "a"],
        required_one_of: [~w(b a b)]
      }
    }
  end
end
