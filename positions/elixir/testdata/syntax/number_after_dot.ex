defmodule Fixture.S do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{"v" => %{"type" => "string", "default" => 1.0.0}}}}
  end
end
