defmodule App.Tools.TaskList do
  use Wymcp.Tool

  @label "Item #{<<c>>} and #{"n#{1}"} — 🎉"
  @paging %{"limit" => %{"type" => "integer"}, "cursor" => %{"type" => "string"}}

  def actions do
    %{
      recent: %{description: "Recent tasks", properties: @paging, required: ["limit"]},
      pinned: %{description: "Pinned tasks", properties: @paging, defaults: %{"limit" => 10}, notes: @label}
    }
  end
end
