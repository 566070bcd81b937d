defmodule App.OrderHints do
  alias Wymcp.Hint

  def after_cancel do
    [Hint.new(tool: "orders", action: "create", description: "Create it again", example: %{data: %{"sku" => "a"}})]
  end
end
