defmodule Fixture.S do
  use Wymcp.Tool

  @notes """
  Some notes

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end
end
