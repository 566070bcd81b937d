defmodule App.Tools.Schemas do
  @moduledoc "Shared schema fragments for the App tools."

  @id %{"type" => "string", "description" => "The record id"}
  @name %{"type" => "string"}
  @prefix "Manage"

  # An offence shared by three actions: :exmaples is not a key.
  @paging %{description: @prefix <> " pages", properties: %{"page" => %{"type" => "integer"}}, exmaples: []}

  def all do
    %{
      list: @paging,
      search: @paging,
      archive: @paging,
      get: %{
        description: @prefix <> " one record",
        properties: %{"id" => @id, "name" => Map.put(@name, "description", "Display name")},
        required: ["id"]
      }
    }
  end

  def id, do: @id
end
