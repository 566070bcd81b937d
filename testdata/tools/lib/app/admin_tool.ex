defmodule App.AdminTool do
  defmacro __using__(_opts) do
    quote do
      use App.Tool
    end
  end
end
