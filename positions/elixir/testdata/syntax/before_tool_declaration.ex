defmodule Fixture.S do
  @shared [1, 2
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end
end
