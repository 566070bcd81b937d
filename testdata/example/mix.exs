defmodule App.MixProject do
  use Mix.Project

  def project do
    [
      app: :app,
      version: "0.1.0",
      elixir: "~> 1.16",
      deps: [{:wymcp, "~> 0.4"}]
    ]
  end
end
