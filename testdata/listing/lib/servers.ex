defmodule Shop.MCP do
  @moduledoc "The shop's MCP server: the catalogue first, then the cart."
  use Wymcp.Router,
    tools: [
      # list order, not module order
      Shop.Tools.Catalog,
      Shop.Tools.Cart
    ]
end

defmodule Shop.CartOnly do
  @moduledoc "A second server with the cart alone."
  use Wymcp.Router, tools: [Shop.Tools.Cart]
end
