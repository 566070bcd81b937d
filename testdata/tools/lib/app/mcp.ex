defmodule App.MCP do
  @tools [App.Tools.Orders, App.Tools.Wrapped, App.Tools.Admin]
  use Wymcp.Router, init_opts: [tools: @tools]

  def start(pid) do
    Wymcp.Session.register_tool(pid, App.Tools.Help)
  end
end
