# Every kind of fact dump.exs writes (oracle_test.go TestOracleDumpGolden).
defmodule Oracle.Sample do
  @moduledoc """
  Heredoc, indentation
    removed by Elixir.
  """
  alias Oracle.Other
  alias Other.Deep, as: D
  alias __MODULE__.{One, Two}

  @atoms [:a, :"b c", true, false, nil, key: :v, "quoted key": 1]
  @numbers {1_000, 0x1F, 0o17, 0b101, ?a, ?\n, 1.5, 2.0e-3, -7}
  @texts ['chars', "é \x01 \"q\"", ~s(sig #{1}), ~S(raw\n), ~c(cl), ~w(a b c)a, "interp #{x}"]
  @maps %{"k" => %{}, n: %Oracle.Sample{a: 1}, u: %{base | a: 1}}
  @opts name: "x", list: [1, 2 | tail]
  @bits <<1, 2::8>>

  def actions do
    alias Inner.Mod
    %{create: %{description: "Create", properties: %{}}}
  end

  def one, do: if(flag(), do: :yes, else: [:no])
  defp two(a, b \\ 2) when a > b, do: a
  defmacro three(x), do: x
  defmacrop four, do: :ok
  def unquote(:dyn)(), do: 1
  def left + right, do: {left, right}
  defdelegate all, to: Nested.Deeper, as: :fun
  defdelegate run(action, data \\ %{}), to: Nested.Deeper

  defmodule Nested.Deeper do
    @moduledoc false
    def fun, do: &(&1 + 1)
  end

  defmodule Elixir.Absolute do
  end
end

test_helper = fn -> defmodule InFn, do: nil end

# Top-level aliases: in effect in the defmodules after them, and expanding
# a top-level defmodule's name (App.Scripts.Tail.Mod), not a nested one's.
alias App.Scripts.Tail
alias App.Scripts, as: S
alias Tail.{One, Two}

defmodule Tail.Mod do
  alias S.Helper
  @ref One
  def helper, do: Helper

  defmodule Tail.Inner do
  end
end
