defmodule App.Tool do
  defmacro __using__(_opts) do
    quote do
      use Wymcp.Tool
      alias App.Tools.Schemas
    end
  end
end
