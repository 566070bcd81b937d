# Valid Elixir not indented as mix format writes it: the tolerant
# recovery, which closes a block at a definition left of its statement,
# is for broken buffers only; a file Elixir reads whole is read without it
# (read.go), so these modules nest as Elixir nests them.
if true do
alias App.X.A
defmodule A.Deep do
  def r, do: [A]
end
end
defmodule Outer do
alias App.X.B
defmodule Inner do
def r, do: [B]
end
end
