defmodule App.Router do
  use Phoenix.Router

  scope "/" do
    forward "/mcp", Wymcp.Router,
      tools: [App.Tools.Help, App.Tools.Dup1, App.Tools.Dup2, Wymcp.Help, App.NotATool, App.Missing]
  end
end
