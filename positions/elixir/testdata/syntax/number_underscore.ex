defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{"n" => %{"type" => "integer", "maximum" => 1_000_}}}}
  end
end
