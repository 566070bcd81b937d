defmodule App.Tools.Orders do
  use Wymcp.Tool

  def name, do: "orders"
  def description, do: "Orders"

  def actions do
    %{
      create: %{description: "Create an order", properties: %{"sku" => %{"type" => "string"}}, related: ["cancel"]},
      cancel: %{description: "Cancel an order", properties: %{}, related: ["create"]}
    }
  end

  def run_action(:create, data, _ctx), do: {:ok, data}
  def run_action(:cancel, data, _ctx), do: {:ok, data}
end
