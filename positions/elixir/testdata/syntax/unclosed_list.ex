defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{
      create: %{description: "Create", properties: %{}, required: ["a"
      }
    }
  end
end
