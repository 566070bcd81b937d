defmodule Fixture.ActionNameNewline do
  use Wymcp.Tool

  def actions do
    %{:"a\nb" => %{description: "Split", properties: %{}}}
  end
end
