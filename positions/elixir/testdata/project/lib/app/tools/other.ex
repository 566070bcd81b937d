defmodule App.Tools.Other do
  def priorities, do: Enum.map(1..3, &Integer.to_string/1)
end
