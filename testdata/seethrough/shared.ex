defmodule Seethrough.Shared do
  use Wymcp.Tool

  @base %{description: "Read", properties: %{}, exampels: []}

  def actions do
    %{read: @base, peek: @base, scan: @base}
  end
end
