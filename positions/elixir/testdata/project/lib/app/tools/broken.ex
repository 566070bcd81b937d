defmodule App.Tools.Broken do
  use Wymcp.Tool

  @run %{description: "Run it", properties: %{"x" => %{"type" => }}}

  def actions, do: %{run: @run, stop: %{description: "Stop", properties: %{}}}
