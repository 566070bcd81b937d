defmodule Shop.Tools.Cart do
  @moduledoc "A nil title and an empty annotations map: neither is listed."
  use Wymcp.Tool

  @impl true
  def name, do: "cart"

  @impl true
  def description, do: "The shopping cart"

  @impl true
  def title, do: nil

  @impl true
  def annotations, do: %{}

  @impl true
  def actions do
    %{
      add: %{
        description: "Add a product",
        properties: %{"sku" => %{}, "n" => %{"type" => "integer", "default" => -1_000}}
      }
    }
  end
end
