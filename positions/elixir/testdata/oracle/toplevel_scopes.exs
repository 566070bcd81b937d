# A for's generators and filters and a with's clauses end the aliases
# written in them (the reader's Sketch.topLevel), as their do-blocks do;
# an alias inside a bracket access leaks, as in any other expression.
# The module names are those elixir defines.
with {:ok, _} <- (alias App.WithHead.A; {:ok, 1}) do
  A
end
defmodule A.AfterWith do
end
for _ <- (alias App.ForHead.B; [1]) do
  B
end
defmodule B.AfterFor do
end
for _ <- [1], (alias App.ForFilter.C; true) do
  C
end
defmodule C.AfterFilter do
end
m = %{a: 1}
m[(alias App.Acc.K; :a)]
defmodule K.AfterAccess do
end
