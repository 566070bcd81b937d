defmodule Sym.Plain do
  def actions, do: %{x: %{description: "not a tool", properties: %{}}}
end
