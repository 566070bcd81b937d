defmodule App.Tools.Wrapped do
  use App.Tool

  def name, do: "wrapped"
  def description, do: "A tool behind a wrapper"

  def actions do
    %{list: %{description: "List", properties: %{}, example: [%{}]}}
  end

  def run_action(:list, _data, _ctx), do: {:ok, []}
end
