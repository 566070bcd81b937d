defmodule Fixture.WrongType do
  use Wymcp.Tool

  def actions do
    %{
      a: %{description: :create, properties: []},
      b: %{description: "B", properties: %{}, required: "name"},
      c: %{description: "C", properties: %{"x" => %{}}, required: [:x, 'x', "x"]},
      d: %{description: "D", properties: %{}, required_one_of: [["x"], "y", [:z]]},
      e: %{description: "E", properties: %{}, defaults: [], notes: 42},
      f: %{description: "F", properties: %{}, related: ~w(list show)a, examples: %{}},
      g: %{description: "G", properties: %{}, examples: [%{}, "x"]}
    }
  end
end
