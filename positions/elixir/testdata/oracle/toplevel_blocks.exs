# Top-level aliases are lexical (the reader's Sketch.topLevel): a do-block
# section, a -> clause and a fn end the aliases written inside them; a
# parenthesised block does not; inside a quote none counts. The module
# names are those elixir defines (App.Tools.Echo.Sub, App.P.Q ...).
if Code.ensure_loaded?(Plug) do
  alias App.Tools.Echo
  defmodule App.Router do
    def t, do: Echo
  end
  defmodule Echo.Sub do
  end
else
  alias App.Else.Echo
  defmodule Echo.Other do
  end
end
defmodule After do
  alias Echo.X
end
(alias App.P; nil)
defmodule P.Q do
end
Enum.each([1], fn _ ->
  alias App.Fn
  defmodule Fn.InFn do
  end
end)
case 1 do
  _ ->
    alias App.Case
    defmodule Case.InCase do
    end
end
quote do
  alias App.Quoted
  defmodule Quoted.InQuote do
  end
end
if true, do: (alias App.Kw; defmodule Kw.InKw do end)
defmodule Last do
  alias Kw.Z
end
case 2 do
  0 ->
    alias App.Clause
    :zero
  _ ->
    defmodule Clause.Other do
    end
end
