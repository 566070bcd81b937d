defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{"a" => }},
      other: %{description : "Other", properties: %{}}}
  end
end
