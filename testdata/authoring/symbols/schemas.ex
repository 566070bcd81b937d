defmodule Sym.Schemas do
  def list do
    %{description: "List tasks", properties: %{"state" => %{"type" => "string"}}}
  end
end
