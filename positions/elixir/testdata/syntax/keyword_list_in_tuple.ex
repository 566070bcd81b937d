defmodule Fixture.KeywordListInTuple do
  use Wymcp.Tool

  def actions do
    %{create: %{description: "Create", properties: %{}}}
  end

  def run_action(:create, _data, _ctx) do
    {ok: "created"}
  end
end
