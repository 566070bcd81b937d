defmodule App.Tools.Admin do
  use App.AdminTool

  def name, do: "admin"
  def description, do: "Behind two wrappers"

  def actions, do: %{purge: %{description: "Purge", properties: %{"all" => %{"type" => "boolen"}}}}

  def run_action(:purge, _data, _ctx), do: :ok
end
