defmodule Fixture.LoneCR do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end
end
