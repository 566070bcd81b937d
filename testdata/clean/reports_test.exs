defmodule Clean.Tools.ReportsTest do
  use ExUnit.Case, async: true

  defmodule FakeTool do
    @behaviour Wymcp.Tool

    @impl true
    def actions do
      %{ping: %{description: "Ping", properties: %{}}}
    end
  end

  test "fake tool declares ping" do
    assert Map.has_key?(FakeTool.actions(), :ping)
  end
end
