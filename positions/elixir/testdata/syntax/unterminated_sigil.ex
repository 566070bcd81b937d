defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{create: %{description: ~s(Create, properties: %{}}}
  end
end
