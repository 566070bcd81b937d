defmodule App.Tools.Orders do
  use Wymcp.Tool
  alias Wymcp.Hint

  def name, do: "orders"
  def description, do: "Orders"

  def actions do
    %{
      create: %{
        description: "Create an order",
        properties: %{
          "sku" => %{"type" => "string"},
          "qty" => %{"type" => "integer"},
          "address" => %{"type" => "object", "properties" => %{"city" => %{"type" => "string"}}, "additionalProperties" => false}
        },
        required: ["sku"],
        examples: [
          %{data: %{sku: "a-1", colour: "red"}},
          %{data: %{"qty" => 2}},
          %{data: %{"sku" => "b", "address" => %{"city" => "Oslo", "zip" => "0150"}}}
        ]
      },
      cancel: %{
        description: "Cancel an order",
        properties: %{"id" => %{"type" => "string"}, "ref" => %{"type" => "string"}},
        required_one_of: [["id"], ["ref"]],
        examples: [%{data: %{}}]
      },
      refund: %{description: "Refund an order", properties: %{}}
    }
  end

  def run_action(:create, data, _ctx), do: {:ok, data}
  def run_action(:cancel, data, _ctx), do: {:ok, data}
  def run_action(:ship, data, _ctx), do: {:ok, data}

  def hints(_action, _result) do
    [
      Hint.new(tool: "orderz", action: "create", description: "Typo in the tool"),
      Hint.new(tool: "orders", action: "craete", description: "Typo in the action"),
      Hint.new(tool: :orders, action: "create", description: "An atom"),
      %Wymcp.Hint{tool: "orders", action: "create", example: %{data: %{"sku" => "x", "extra" => 1}}}
    ]
  end
end
