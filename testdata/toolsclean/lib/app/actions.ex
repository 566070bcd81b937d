defmodule App.Tasks.Actions do
  def run(:open, data), do: {:ok, data}
  def run(:close, data), do: {:ok, data}
  def run(_other, _data), do: {:error, :unknown}
end
