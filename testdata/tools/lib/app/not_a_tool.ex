defmodule App.NotATool do
  def hello, do: :world
end
