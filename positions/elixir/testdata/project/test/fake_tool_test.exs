defmodule App.FakeToolTest do
  use ExUnit.Case, async: true

  defmodule FakeTool do
    @behaviour Wymcp.Tool

    @impl Wymcp.Tool
    def actions() do
      %{ping: %{description: "Ping", properties: %{}}}
    end
  end

  test "pings" do
    assert FakeTool.actions() |> Map.keys() == [:ping]
  end
end
