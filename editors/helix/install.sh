#!/bin/sh
# Adds wymcp-ls to a Helix languages.toml; safe to run again.
#   editors/helix/install.sh [FILE]   (default: ~/.config/helix/languages.toml,
#                                      under $XDG_CONFIG_HOME when set)
# - FILE already has [language-server.wymcp-ls]: changes nothing.
# - FILE has its own [[language]] entry with name = "elixir": appends only the
#   [language-server.wymcp-ls] table and says which line to edit, since a
#   second elixir entry would replace that one (and its language-servers,
#   formatter ...) instead of merging with it. Add "wymcp-ls" to that entry's
#   language-servers list by hand (with no such list there, write
#   language-servers = ["elixir-ls", "expert", "wymcp-ls"]).
# - otherwise: appends editors/helix/languages.toml whole.
# Exit 0 when FILE is (or already was) set up, 2 on an error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
file=${1:-${XDG_CONFIG_HOME:-$HOME/.config}/helix/languages.toml}
mkdir -p "$(dirname "$file")"
[ -f "$file" ] || : >"$file"

if grep -Eq '^[[:space:]]*\[language-server\.wymcp-ls\][[:space:]]*(#.*)?$' "$file"; then
  echo "$file already has [language-server.wymcp-ls]; nothing changed"
  exit 0
fi

# The line of an own [[language]] entry named "elixir", if any.
elixir_line=$(awk '
  /^[[:space:]]*\[/ { in_lang = ($0 ~ /^[[:space:]]*\[\[language\]\][[:space:]]*(#.*)?$/) }
  in_lang && /^[[:space:]]*name[[:space:]]*=[[:space:]]*"elixir"[[:space:]]*(#.*)?$/ { print NR; exit }
' "$file")

# Keep what follows on a line of its own even when FILE lacks a final newline.
[ -s "$file" ] && [ "$(tail -c 1 "$file" | od -An -c | tr -d ' ')" != '\n' ] && echo >>"$file"

if [ -n "$elixir_line" ]; then
  {
    echo
    sed -n '/^\[language-server\.wymcp-ls\]/,/^\[\[language\]\]/p' "$here/languages.toml" | sed '$d'
  } >>"$file"
  echo "$file: added [language-server.wymcp-ls]."
  echo "$file:$elixir_line has your own [[language]] entry for elixir: add \"wymcp-ls\" to its language-servers"
  echo "  (none there? write: language-servers = [\"elixir-ls\", \"expert\", \"wymcp-ls\"])"
  exit 0
fi

{ echo; cat "$here/languages.toml"; } >>"$file"
echo "$file: added [language-server.wymcp-ls] and the elixir language entry"
