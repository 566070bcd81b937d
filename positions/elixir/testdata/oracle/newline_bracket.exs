# A `[` first on its line starts an expression; x[k] is an access only
# with nothing between x and the bracket (Elixir reads `@p 1` then the
# match below as two statements, whatever their indentation).
defmodule NewlineBracket do
  @p 1

[k | _] = [1]
  @q 2
end
