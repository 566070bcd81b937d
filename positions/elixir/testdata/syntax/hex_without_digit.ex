defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{"a" => 1 2}},
      other: %{description: "x", properties: %{"n" => %{"maximum" => 0xG1}}}}
  end
end
