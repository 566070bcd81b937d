# dump.exs: what Elixir's own parser sees in each file, for the
# differential test positions/elixir/oracle_test.go (docs/architecture.md
# "The Elixir reader"; the oracle is Elixir itself).
#
# Usage: elixir dump.exs < LIST, where LIST holds one file path a line.
# One process reads the whole list (startup costs about half a second).
#
# Output: one JSON object a line, in the order of LIST:
#   {"file": PATH, "facts": [FACT, ...]}
#   {"file": PATH, "facts": ["error L:C"], "message": MESSAGE}
#   {"file": PATH, "facts": ["crash"], "message": MESSAGE}
# (a file Elixir rejects: where its parser reports the error, C 0 when it
# gives no column; "crash": this script failed on the file), each with
# "last_end": the line of the `end` of the file's last top-level
# statement when that is a defmodule with a do-block, else 0 (for the
# planted-tool test, workspace/planted_test.go).
# A FACT is one line of text; oracle_test.go builds the same lines from the
# reader's IR, so the two formats must change together. Lines are 1-based;
# columns are 1-based and count what Elixir 1.14's tokenizer counts: code
# points, except inside strings, charlists, quoted atoms and sigils, where a
# grapheme cluster counts as one.
#
#   module NAME L-E            a defmodule with a literal alias name, its
#                              line and the line of its `end` ("-" for do:)
#   def KIND NAME/ARITY L      a def/defp/defmacro/defmacrop/defdelegate
#                              that is a statement of the module body; NAME
#                              is "?" when written with unquote
#   attr NAME L                an attribute definition `@name value` that is
#                              a statement of the module body
#   top                        first, when the file's top level has aliases:
#                              its alias lines follow (a top-level alias is in
#                              effect in the defmodules after it, and
#                              expands a top-level defmodule's name)
#   alias AS=TARGET L:C        an `alias` statement of the module body or of
#                              a def body's do-block, a `require M, as: A`
#                              statement of the module body (which defines
#                              the alias A), or the implicit alias a nested
#                              defmodule defines (at its name); TARGET
#                              expanded through the aliases before it.
#                              Sorted by position.
#     lit L:C KIND VALUE       after an attr line, and after the def line of
#                              a zero-arity def/defp with a body: every
#                              literal of the value/body in pre-order
#
# Literal KIND VALUE: atom NAME | string "..." | string ? (interpolated) |
# charlist "..." | charlist ? | integer DECIMAL | float 0xIEEE754BITS |
# list N [tail] | kw N (a keyword list without brackets, at its first key) |
# map N [update] | struct NAME N [update] | tuple N | words[MOD] "w" ... .
# Escapes in "...": \\ \" \n \t \r, \xHH for other control bytes and bytes
# that are not UTF-8. A do-block's do/else/... keys are not literals. Strings
# with interpolation are not entered; sigils other than ~s ~S ~c ~C ~w ~W
# are not literals and are not entered.
#
# Per module: its module line, then its def lines (each followed by its lit
# lines), then its attr lines (each followed by its lit lines), then its
# alias lines. Modules are listed in pre-order. A defmodule is looked for anywhere but in
# the bodies (and heads) of the def family: in do-blocks (test "..." do,
# quote do), fn bodies, call arguments. Its parent is the nearest enclosing
# defmodule. Each module's lines are its own body's.

defmodule WymcpOracle.Dump do
  @defs [:def, :defp, :defmacro, :defmacrop]
  # The longest module name: the atom "Elixir." <> name holds at most 255
  # characters (an alias is ASCII); an alias to a longer one fails to
  # compile, and is left out.
  @max_name 255 - byte_size("Elixir.")

  def main do
    IO.stream(:stdio, :line)
    |> Stream.map(&String.trim_trailing(&1, "\n"))
    |> Stream.reject(&(&1 == ""))
    |> Enum.each(fn path -> IO.write(file_line(path) <> "\n") end)
  end

  defp file_line(path) do
    {facts, message, last_end} =
      try do
        dump(File.read!(path), path)
      rescue
        e -> {["crash"], Exception.message(e), 0}
      end

    msg = if message, do: ",\"message\":" <> json(message), else: ""

    "{\"file\":" <> json(path) <> ",\"facts\":[" <> Enum.map_join(facts, ",", &json/1) <> "]" <> msg <>
      ",\"last_end\":#{last_end}}"
  end

  def dump(src, path) do
    opts = [
      file: path,
      columns: true,
      token_metadata: true,
      emit_warnings: false,
      literal_encoder: fn lit, meta -> {:ok, {:__block__, meta, [lit]}} end
    ]

    case Code.string_to_quoted(src, opts) do
      {:ok, ast} ->
        {modules(ast), nil, last_end(ast)}

      {:error, {meta, msg, token}} ->
        {line, col} = error_pos(meta)
        {["error #{line}:#{col}"], flatten_msg(msg) <> flatten_msg(token), 0}
    end
  end

  # last_end returns the line of the `end` of the file's last top-level
  # statement when that is a defmodule with a do-block, else 0.
  defp last_end(ast) do
    case List.last(statements(ast)) do
      {:defmodule, meta, [_, [_ | _]]} -> if meta[:end], do: meta[:end][:line], else: 0
      _ -> 0
    end
  end

  defp error_pos(meta) when is_list(meta), do: {meta[:line], meta[:column] || 0}
  defp error_pos(line) when is_integer(line), do: {line, 0}

  defp flatten_msg({a, b}), do: flatten_msg(a) <> flatten_msg(b)
  defp flatten_msg(m) when is_binary(m), do: m
  defp flatten_msg(m) when is_list(m), do: List.to_string(m)
  defp flatten_msg(m), do: inspect(m)

  # --- modules ------------------------------------------------------------

  # The walk threads a state %{mods: %{id => module}, next: id}; a module is
  # %{id, name, line, end, parent (id or nil), facts (in source order)}.
  # Ids are given in pre-order.
  # The top level is a module without id or name (st.top) that holds the
  # aliases in effect there (see the top-level visit clauses below): they
  # are in effect in the defmodules after them, and expand a top-level
  # defmodule's name. st.top_out keeps every top-level alias met, for the
  # output.
  defp modules(ast) do
    top = %{name: nil, parent: nil, facts: []}
    st = visit(statements(ast), nil, %{mods: %{}, next: 0, top: top, top_out: [], quoted: false})
    mods = st.mods |> Map.values() |> Enum.sort_by(& &1.id) |> Enum.flat_map(&module_lines/1)

    case alias_lines(%{top | facts: st.top_out}) do
      [] -> mods
      lines -> ["top" | lines] ++ mods
    end
  end

  # visit looks for defmodules in stmt, a statement of module pid (nil: the
  # top level), anywhere outside the bodies of the def family.
  defp visit({:defmodule, meta, [name, body]}, pid, st) when is_list(body) do
    parent = pid && st.mods[pid]

    case module_name(name, parent, st) do
      nil ->
        st

      {full, implicit} ->
        st =
          case implicit do
            {as, t} -> add_fact(st, pid, {:alias, pos(name_meta(name)), as, t, :module})
            nil -> st
          end

        id = st.next
        m = %{id: id, name: full, line: meta[:line], end: end_line(meta), parent: pid, facts: []}
        st = %{st | next: id + 1, mods: Map.put(st.mods, id, m)}
        Enum.reduce(statements(do_value(body)), st, &body_statement(&1, id, &2))
    end
  end

  defp visit({head, _, _}, _, st) when head in @defs, do: st

  # At the top level (pid nil) an alias or `require M, as: A` statement is
  # recorded in st.top, in effect in what follows it in its scope: a
  # do-block section (do, else, after, rescue, catch), a -> clause and a fn
  # each end the aliases met inside them (st.top is restored after them),
  # a parenthesised block does not. Inside a quote nothing is recorded.
  defp visit({kind, _, _} = stmt, nil, st) when kind in [:alias, :require] do
    if st.quoted do
      st
    else
      top = statement(stmt, st.top, st)
      %{st | top: top, top_out: st.top_out ++ Enum.drop(top.facts, length(st.top.facts))}
    end
  end

  defp visit({:quote, _, args}, nil, st) when is_list(args) do
    inner = visit(args, nil, %{st | quoted: true})
    %{inner | quoted: st.quoted, top: st.top}
  end

  defp visit({:->, _, [params, body]}, nil, st), do: scoped(st, &visit(body, nil, visit(params, nil, &1)))
  defp visit({:fn, _, clauses}, nil, st) when is_list(clauses), do: scoped(st, &visit(clauses, nil, &1))

  # A for's generators and filters and a with's clauses are its own scope.
  defp visit({kind, _, [_ | _]} = call, nil, st) when kind in [:for, :with], do: scoped(st, &top_call(call, &1))
  defp visit({_, _, [_ | _]} = call, nil, st), do: top_call(call, st)

  defp visit({head, _, args}, pid, st) when is_list(args) do
    Enum.reduce(args, visit(head, pid, st), &visit(&1, pid, &2))
  end

  defp visit({a, b}, pid, st), do: visit(b, pid, visit(a, pid, st))
  defp visit(list, pid, st) when is_list(list), do: Enum.reduce(list, st, &visit(&1, pid, &2))
  defp visit(_, _, st), do: st

  # scoped runs f on st, then drops the top-level aliases f met.
  defp scoped(st, f), do: %{f.(st) | top: st.top}

  # top_call visits a call of the top level: its last argument, a keyword
  # list, holds do-block sections, each a scope of its own.
  defp top_call({head, _, args}, st) do
    {init, [last]} = Enum.split(args, -1)
    st = visit(init, nil, visit(head, nil, st))

    if is_list(last) do
      Enum.reduce(last, st, fn
        {k, v}, st ->
          if unlit(k) in [:do, :else, :after, :rescue, :catch],
            do: scoped(st, &visit(v, nil, &1)),
            else: visit(v, nil, visit(k, nil, st))

        x, st ->
          visit(x, nil, st)
      end)
    else
      visit(last, nil, st)
    end
  end

  defp body_statement(stmt, id, st) do
    m = statement(stmt, st.mods[id], st)
    visit(stmt, id, %{st | mods: Map.put(st.mods, id, m)})
  end

  defp add_fact(st, id, f) do
    m = st.mods[id]
    %{st | mods: Map.put(st.mods, id, %{m | facts: m.facts ++ [f]})}
  end

  defp module_name({:__aliases__, _, [first | rest] = segs}, parent, st) do
    cond do
      not Enum.all?(rest, &is_atom/1) ->
        nil

      first == :Elixir and rest != [] ->
        {join(rest), nil}

      is_atom(first) and parent != nil ->
        {parent.name <> "." <> join(segs), {Atom.to_string(first), parent.name <> "." <> Atom.to_string(first)}}

      is_atom(first) ->
        {expand(segs, st.top, st), nil}

      match?({:__MODULE__, _, ctx} when is_atom(ctx), first) and parent != nil ->
        {join([parent.name | rest]), nil}

      match?({:__MODULE__, _, ctx} when is_atom(ctx), first) and rest != [] ->
        {join(rest), nil}

      true ->
        nil
    end
  end

  defp module_name(_, _, _), do: nil

  defp join(segs), do: Enum.map_join(segs, ".", &to_string/1)

  defp name_meta({_, meta, _}), do: meta

  defp end_line(meta) do
    case meta[:end] do
      nil -> "-"
      e -> e[:line]
    end
  end

  # do_value returns the value of the :do key of a do-block or a do: list.
  defp do_value(kw) when is_list(kw) do
    Enum.find_value(kw, fn
      {k, v} -> if unlit(k) == :do, do: {:ok, v}
      _ -> nil
    end)
    |> case do
      {:ok, v} -> v
      nil -> nil
    end
  end

  defp do_value(_), do: nil

  defp statements(nil), do: []
  defp statements({:__block__, [], stmts}) when is_list(stmts), do: stmts
  defp statements(st), do: [st]

  # --- module body statements ---------------------------------------------

  defp statement({kind, meta, [head | rest]}, m, st) when kind in @defs do
    {name, arity} = def_head(head)
    line = "def #{kind} #{name}/#{arity} #{meta[:line]}"
    body = do_value(List.first(rest))

    lits =
      if arity == 0 and kind in [:def, :defp] and body != nil do
        literal_lines(body)
      else
        []
      end

    aliases =
      if meta[:do] != nil and body != nil do
        body |> statements() |> alias_facts(m, st, :def)
      else
        []
      end

    %{m | facts: m.facts ++ [{:def, [line | lits]}] ++ aliases}
  end

  # defdelegate head, opts: the public function it defines; no body.
  defp statement({:defdelegate, meta, [head, _opts]}, m, _st) do
    {name, arity} = def_head(head)
    %{m | facts: m.facts ++ [{:def, ["def defdelegate #{name}/#{arity} #{meta[:line]}"]}]}
  end

  defp statement({:@, meta, [{name, _, [value]}]}, m, _st) when is_atom(name) do
    %{m | facts: m.facts ++ [{:attr, ["attr #{name} #{meta[:line]}" | literal_lines(value)]}]}
  end

  defp statement({:alias, _, _} = stmt, m, st) do
    %{m | facts: m.facts ++ alias_facts([stmt], m, st, :module)}
  end

  # require/2 with as: defines the alias as alias/2 does (Kernel.SpecialForms).
  defp statement({:require, meta, [{:__aliases__, _, _} = target, kw]}, m, st) when is_list(kw) do
    if Enum.any?(kw, fn {k, _} -> unlit(k) == :as; _ -> false end) do
      statement({:alias, meta, [target, kw]}, m, st)
    else
      m
    end
  end

  defp statement(_, m, _), do: m

  defp def_head({:when, _, [head | _]}), do: def_head(head)
  defp def_head({:unquote, _, [_]}), do: {"?", 0}
  defp def_head({{:unquote, _, _}, _, args}) when is_list(args), do: {"?", length(args)}
  defp def_head({name, _, ctx}) when is_atom(name) and is_atom(ctx), do: {name, 0}
  defp def_head({name, _, args}) when is_atom(name) and is_list(args), do: {name, length(args)}
  defp def_head(_), do: {"?", -1}

  # --- aliases ------------------------------------------------------------

  # alias_facts returns {:alias, {line, col}, as, target, scope} for each
  # alias of the statements stmts of module m, expanding each through the
  # module-scoped aliases before it (in m, then its enclosing modules) and
  # the aliases of stmts before it.
  defp alias_facts(stmts, m, st, scope) do
    {new, _} =
      Enum.reduce(stmts, {[], m.facts}, fn s, {new, seen} ->
        a = alias_of(s, %{m | facts: seen}, st, scope)
        {new ++ a, seen ++ Enum.map(a, &put_elem(&1, 4, :module))}
      end)

    new
  end

  defp alias_of({:alias, _, [{:__aliases__, meta, segs} | opts]}, m, st, scope) do
    case expand(segs, m, st) do
      nil ->
        []

      full when byte_size(full) > @max_name ->
        []

      full ->
        as =
          case opts do
            [kw] when is_list(kw) ->
              Enum.find_value(kw, last_segment(full), fn
                {k, {:__aliases__, _, [a]}} when is_atom(a) -> if unlit(k) == :as, do: Atom.to_string(a)
                {k, {:__aliases__, _, [:"Elixir", a]}} when is_atom(a) -> if unlit(k) == :as, do: Atom.to_string(a)
                _ -> nil
              end)

            _ ->
              last_segment(full)
          end

        [{:alias, pos(meta), as, full, scope}]
    end
  end

  defp alias_of({:alias, _, [{{:., _, [{:__aliases__, _, segs}, :{}]}, _, inner} | _]}, m, st, scope) do
    case expand(segs, m, st) do
      nil ->
        []

      base ->
        for {:__aliases__, meta, isegs} <- inner, Enum.all?(isegs, &is_atom/1),
            t = base <> "." <> join(isegs),
            byte_size(t) <= @max_name do
          {:alias, pos(meta), last_segment(t), t, scope}
        end
    end
  end

  defp alias_of({:alias, m1, [{{:., m2, [{:__MODULE__, mm, ctx}, :{}]}, m3, inner} | rest]}, m, st, scope)
       when is_atom(ctx) do
    alias_of({:alias, m1, [{{:., m2, [{:__aliases__, mm, [{:__MODULE__, mm, ctx}]}, :{}]}, m3, inner} | rest]}, m, st, scope)
  end

  defp alias_of(_, _, _, _), do: []

  defp last_segment(name), do: name |> String.split(".") |> List.last()

  # At the top level __MODULE__ is nil, and Module.concat(nil, X) is X.
  defp expand([{:__MODULE__, _, ctx} | rest], m, _) when is_atom(ctx) do
    cond do
      not Enum.all?(rest, &is_atom/1) -> nil
      m.name != nil -> join([m.name | rest])
      rest != [] -> join(rest)
      true -> nil
    end
  end

  defp expand([:Elixir | rest], _, _) when rest != [], do: join(rest)

  defp expand([first | rest] = segs, m, st) when is_atom(first) do
    if Enum.all?(rest, &is_atom/1) do
      case lookup(Atom.to_string(first), m, st) do
        nil -> join(segs)
        t -> join([t | rest])
      end
    end
  end

  defp expand(_, _, _), do: nil

  defp lookup(head, m, st) do
    found =
      m.facts
      |> Enum.reverse()
      |> Enum.find_value(fn
        {:alias, _, ^head, t, :module} -> t
        _ -> nil
      end)

    cond do
      found -> found
      m.parent != nil -> lookup(head, st.mods[m.parent], st)
      Map.has_key?(m, :id) -> lookup(head, st.top, st)
      true -> nil
    end
  end

  # --- output ---------------------------------------------------------------

  defp alias_lines(m) do
    for({:alias, _, _, _, _} = a <- m.facts, do: a)
    |> Enum.sort_by(fn {:alias, p, _, _, _} -> p end)
    |> Enum.map(fn {:alias, {l, c}, as, t, _} -> "alias #{as}=#{t} #{l}:#{c}" end)
  end

  defp module_lines(m) do
    aliases = alias_lines(m)

    defs = for {:def, lines} <- m.facts, l <- lines, do: l
    attrs = for {:attr, lines} <- m.facts, l <- lines, do: l
    ["module #{m.name} #{m.line}-#{m.end}"] ++ defs ++ attrs ++ aliases
  end

  # --- literals -------------------------------------------------------------

  defp literal_lines(ast), do: ast |> lits([]) |> Enum.reverse()

  defp lit_line(meta, kind, value) do
    {l, c} = pos(meta)
    "  lit #{l}:#{c} #{kind} #{value}"
  end

  defp pos(meta), do: {meta[:line], meta[:column]}

  # lits collects literal lines of ast in reverse pre-order.
  defp lits({:__block__, meta, [{_, _} = v]}, acc), do: literal(v, meta, acc)
  defp lits({:__block__, meta, [v]}, acc) when not is_tuple(v), do: literal(v, meta, acc)
  defp lits({:%{}, meta, args}, acc) when is_list(args), do: map_lits(meta, "map", args, acc)

  defp lits({:%, meta, [name, {:%{}, _, args}]}, acc) when is_list(args) do
    case struct_name(name) do
      nil -> acc
      n -> map_lits(meta, "struct #{n}", args, acc)
    end
  end

  defp lits({:{}, meta, args}, acc) when is_list(args) do
    Enum.reduce(args, [lit_line(meta, "tuple", "#{length(args)}") | acc], &lits/2)
  end

  defp lits({:<<>>, meta, _} = x, acc) do
    if meta[:delimiter], do: [lit_line(meta, "string", "?") | acc], else: generic(x, acc)
  end

  defp lits({{:., _, [List, :to_charlist]}, meta, _} = x, acc) do
    if meta[:delimiter], do: [lit_line(meta, "charlist", "?") | acc], else: generic(x, acc)
  end

  defp lits({{:., _, [:erlang, op]}, meta, [{:<<>>, _, _}, :utf8]}, acc)
       when op in [:binary_to_atom, :binary_to_existing_atom] do
    [lit_line(meta, "atom", "?") | acc]
  end

  defp lits({sigil, meta, [{:<<>>, _, parts}, mods]}, acc) when sigil in [:sigil_s, :sigil_S, :sigil_c, :sigil_C, :sigil_w, :sigil_W] do
    raw = sigil in [:sigil_S, :sigil_C, :sigil_W]

    text =
      if Enum.all?(parts, &is_binary/1) do
        t = Enum.join(parts)
        {:ok, if(raw, do: t, else: Macro.unescape_string(t))}
      end

    case {sigil, text} do
      {_, nil} when sigil in [:sigil_w, :sigil_W] -> [lit_line(meta, "words[#{mods}]", "?") | acc]
      {_, nil} when sigil in [:sigil_c, :sigil_C] -> [lit_line(meta, "charlist", "?") | acc]
      {_, nil} -> [lit_line(meta, "string", "?") | acc]
      {w, {:ok, t}} when w in [:sigil_w, :sigil_W] ->
        words = t |> String.split() |> Enum.map_join(" ", &quote_str/1)
        [lit_line(meta, "words[#{mods}]", words) | acc]
      {c, {:ok, t}} when c in [:sigil_c, :sigil_C] -> [lit_line(meta, "charlist", quote_str(t)) | acc]
      {_, {:ok, t}} -> [lit_line(meta, "string", quote_str(t)) | acc]
    end
  end

  defp lits({sigil, _, [{:<<>>, _, _}, mods]}, acc) when is_atom(sigil) and is_list(mods) do
    if String.starts_with?(Atom.to_string(sigil), "sigil_"), do: acc, else: generic({sigil, [], [mods]}, acc)
  end

  defp lits({:__aliases__, _, _}, acc), do: acc
  defp lits({_, _, ctx}, acc) when is_atom(ctx), do: acc
  defp lits({_, _, args} = x, acc) when is_list(args), do: generic(x, acc)

  defp lits(list, acc) when is_list(list) do
    case list do
      [{k, _} | _] ->
        if keyword_key?(k) and Enum.all?(list, &match?({_, _}, &1)) do
          {_, m, _} = k
          Enum.reduce(list, [lit_line(m, "kw", "#{length(list)}") | acc], &lits_elem/2)
        else
          Enum.reduce(list, acc, &lits_elem/2)
        end

      _ ->
        Enum.reduce(list, acc, &lits_elem/2)
    end
  end

  defp lits({a, b}, acc), do: lits(b, lits(a, acc))
  defp lits(_, acc), do: acc


  defp literal(v, meta, acc) do
    cond do
      is_atom(v) ->
        [lit_line(meta, "atom", esc(Atom.to_string(v))) | acc]

      is_integer(v) ->
        [lit_line(meta, "integer", Integer.to_string(v)) | acc]

      is_float(v) ->
        <<bits::64>> = <<v::float>>
        [lit_line(meta, "float", "0x" <> String.pad_leading(Integer.to_string(bits, 16), 16, "0")) | acc]

      is_binary(v) ->
        [lit_line(meta, "string", quote_str(v)) | acc]

      is_list(v) and meta[:delimiter] in ["'", "'''"] ->
        [lit_line(meta, "charlist", quote_str(charlist_text(v))) | acc]

      is_list(v) ->
        {n, tail} = list_count(v)
        acc = [lit_line(meta, "list", "#{n}#{tail}") | acc]
        Enum.reduce(v, acc, &lits_elem/2)

      is_tuple(v) ->
        acc = [lit_line(meta, "tuple", "2") | acc]
        Enum.reduce(Tuple.to_list(v), acc, &lits/2)
    end
  end

  defp lits_elem({:|, _, [h, t]}, acc), do: lits(t, lits(h, acc))
  defp lits_elem({k, v}, acc), do: lits(v, lits(k, acc))
  defp lits_elem(x, acc), do: lits(x, acc)

  # generic walks a call: its callee when it is an expression, then its
  # arguments; a do-block's keys are skipped.
  defp generic({head, meta, args}, acc) do
    acc = if is_tuple(head), do: lits_callee(head, acc), else: acc

    {args, block} =
      if meta[:do] != nil and args != [] do
        {Enum.drop(args, -1), List.last(args)}
      else
        {args, nil}
      end

    acc = Enum.reduce(args, acc, &lits/2)

    case block do
      nil -> acc
      kw -> Enum.reduce(kw, acc, fn {_k, v}, acc -> lits(v, acc) end)
    end
  end

  defp lits_callee({:., _, [recv, name]}, acc) when is_atom(name), do: lits(recv, acc)
  defp lits_callee({:., _, [recv]}, acc), do: lits(recv, acc)
  defp lits_callee(x, acc), do: lits(x, acc)

  defp map_lits(meta, kind, [{:|, _, [base, pairs]}], acc) when is_list(pairs) do
    acc = [lit_line(meta, kind, "#{length(pairs)} update") | acc]
    Enum.reduce(pairs, lits(base, acc), &lits_elem/2)
  end

  defp map_lits(meta, kind, args, acc) do
    Enum.reduce(args, [lit_line(meta, kind, "#{length(args)}") | acc], &lits_elem/2)
  end

  defp struct_name({:__aliases__, _, segs}) do
    Enum.map_join(segs, ".", fn
      {:__MODULE__, _, _} -> "__MODULE__"
      a when is_atom(a) -> Atom.to_string(a)
      _ -> "?"
    end)
  end

  defp struct_name({name, _, ctx}) when is_atom(name) and is_atom(ctx), do: Atom.to_string(name)
  defp struct_name(_), do: nil

  defp keyword_key?({:__block__, m, [a]}) when is_atom(a), do: m[:format] == :keyword
  defp keyword_key?(_), do: false

  defp list_count(v) do
    case List.last(v) do
      {:|, _, [_, _]} -> {length(v), " tail"}
      _ -> {length(v), ""}
    end
  end

  defp unlit({:__block__, _, [v]}), do: v
  defp unlit(v), do: v

  defp charlist_text(cs) do
    for c <- cs, into: "" do
      if is_integer(c) and c in 0..0x10FFFF and c not in 0xD800..0xDFFF, do: <<c::utf8>>, else: "\\x{bad}"
    end
  end

  # --- text escapes -------------------------------------------------------

  defp quote_str(s), do: "\"" <> esc(s) <> "\""

  @doc false
  def esc(s), do: esc(s, [])

  defp esc(<<>>, acc), do: acc |> Enum.reverse() |> IO.iodata_to_binary()
  defp esc(<<?\\, r::binary>>, acc), do: esc(r, ["\\\\" | acc])
  defp esc(<<?", r::binary>>, acc), do: esc(r, ["\\\"" | acc])
  defp esc(<<?\n, r::binary>>, acc), do: esc(r, ["\\n" | acc])
  defp esc(<<?\t, r::binary>>, acc), do: esc(r, ["\\t" | acc])
  defp esc(<<?\r, r::binary>>, acc), do: esc(r, ["\\r" | acc])
  defp esc(<<c, r::binary>>, acc) when c < 0x20 or c == 0x7F, do: esc(r, [hex(c) | acc])
  defp esc(<<c::utf8, r::binary>>, acc), do: esc(r, [<<c::utf8>> | acc])
  defp esc(<<c, r::binary>>, acc), do: esc(r, [hex(c) | acc])

  defp hex(c), do: "\\x" <> String.pad_leading(Integer.to_string(c, 16), 2, "0")

  # json encodes a binary as a JSON string; invalid UTF-8 is escaped first.
  defp json(s) do
    s = if String.valid?(s), do: s, else: esc(s)

    body =
      for <<c::utf8 <- s>>, into: "" do
        case c do
          ?" -> "\\\""
          ?\\ -> "\\\\"
          c when c < 0x20 -> "\\u" <> String.pad_leading(Integer.to_string(c, 16), 4, "0")
          c -> <<c::utf8>>
        end
      end

    "\"" <> body <> "\""
  end
end

WymcpOracle.Dump.main()
