defmodule App.Tools.Other do
  def helper, do: :ok
end
