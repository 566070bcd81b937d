defmodule Shop.Tools.Catalog do
  @moduledoc "Every identity callback, a wide range of JSON terms, and action_context/2."
  @behaviour Wymcp.Tool

  @name "catalog"

  @impl true
  def name, do: @name

  @impl true
  def description, do: "Browse the catalogue: " <> "products and prices"

  @impl true
  def title, do: "Catalogue"

  @impl true
  def annotations, do: %{"openWorldHint" => false, readOnlyHint: true}

  @impl true
  def output_schema do
    %{"type" => "object", "properties" => %{"items" => %{"type" => "array"}}}
  end

  @impl true
  def actions do
    %{
      search: %{
        description: "Find products",
        properties: %{
          "q" => %{"type" => "string", "maxLength" => 0x40},
          "max_price" => %{"type" => "number", "minimum" => 0.5, "maximum" => 1.0e4}
        },
        required_one_of: [["q"], ["max_price"]],
        examples: [%{data: %{q: "tea \"green\"\tleaf"}}],
        notes: "Prices in €.\nSorted by relevance."
      },
      get: %{
        description: "One product",
        properties: %{"sku" => %{"type" => "string"}},
        required: ["sku"],
        related: ["search"]
      }
    }
  end

  @impl true
  def action_context(:get, ctx), do: %{user: ctx.user}
end
