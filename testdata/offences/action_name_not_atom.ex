defmodule Fixture.ActionNameNotAtom do
  use Wymcp.Tool

  def actions do
    %{"op" => %{description: "Operate", properties: %{}}}
  end
end
