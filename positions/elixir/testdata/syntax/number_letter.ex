defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{"a" => , "b" => %{"type" => "integer", "maximum" => 10px}}}}
  end
end
