defmodule Fixture.SyntaxError do
  use Wymcp.Tool

  def actions do
    %{
      create: %{description: "Create", properties: %{"a" => }},
      list: %{descripton: "List", properties: %{}}
    }
  end
end
