defmodule Seethrough.Charlist do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{"name" => %{}}, required: ['name']}}
  end
end
