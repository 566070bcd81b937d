defmodule App.Router do
  use Phoenix.Router

  pipeline :mcp do
    plug :accepts, ["json"]
  end

  scope "/" do
    pipe_through :mcp

    forward "/mcp", Wymcp.Router,
      tools: [
        # the notes tool first: the LLM sees it first
        App.Tools.Notes,
        # delegates to App.Notes.Actions
        App.Tools.Tasks
        # more tools go here
      ]
  end
end
