# Prints, for each file given, where Code.string_to_quoted/2 reports its
# syntax error: "<file> <line>:<column> <opener line or -> <message>", or
# "<file> ok". The opener line is the line Elixir names in a message such
# as `The "[" at line 6 is missing terminator "]"`. Used by
# positions/elixir/syntax_test.go.
for f <- System.argv() do
  src = File.read!(f)

  case Code.string_to_quoted(src, columns: true) do
    {:ok, _} ->
      IO.puts("#{Path.basename(f)} ok")

    {:error, {meta, msg, tok}} ->
      msg = case msg do {a, b} -> a <> b; m -> m end
      opener = case Regex.run(~r/(?:at|starting at) line (\d+)/, msg) do [_, l] -> l; _ -> "-" end
      line = String.replace(msg <> inspect(tok), "\n", " ")
      IO.puts("#{Path.basename(f)} #{meta[:line]}:#{meta[:column] || 0} #{opener} #{line}")
  end
end
