defmodule App.Tasks do
  @moduledoc "The task context; no action schemas here."

  def dispatch(:create, data, _ctx), do: {:ok, Map.put(data, "id", System.unique_integer())}
  def dispatch(:list, _data, _ctx), do: {:ok, []}
end
