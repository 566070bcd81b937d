#!/bin/sh
# Adds wymcp-ls to a Helix languages.toml; safe to run again.
#   editors/helix/install.sh [FILE]   (default: ~/.config/helix/languages.toml,
#                                      under $XDG_CONFIG_HOME when set)
# - FILE has its own [[language]] entry with name = "elixir": appends only the
#   [language-server.wymcp-ls] table (when absent), since a second elixir
#   entry would replace that one (and its language-servers, formatter ...)
#   instead of merging with it. While that entry's language-servers does not
#   name "wymcp-ls", every run says which line to edit: add "wymcp-ls" to that
#   list by hand (with no such list there, write
#   language-servers = ["elixir-ls", "expert", "wymcp-ls"]).
# - FILE has no elixir [[language]] entry: appends editors/helix/languages.toml
#   whole, or only its elixir entry when [language-server.wymcp-ls] is there.
# - both present, the entry naming "wymcp-ls": changes nothing.
# Exit 0 when FILE is set up, or when only that hand edit is left (the same
# on a re-run: the reminder is printed again), and for --help; 2 on an error
# or an unknown option.
set -eu

die() {
  echo "install.sh: $*" >&2
  exit 2
}

case "${1:-}" in
  -h | --help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  -*) die "unknown option $1 (a FILE starting with - is written ./$1; try --help)" ;;
esac
[ $# -le 1 ] || die "one FILE at most (try --help)"

here=$(cd "$(dirname "$0")" && pwd)
file=${1:-${XDG_CONFIG_HOME:-$HOME/.config}/helix/languages.toml}
mkdir -p "$(dirname "$file")" || die "cannot create the directory of $file"
[ -f "$file" ] || : >"$file" || die "cannot create $file"
[ -r "$file" ] && [ -w "$file" ] || die "cannot read and write $file"

has_server=
if grep -Eq '^[[:space:]]*\[language-server\.wymcp-ls\][[:space:]]*(#.*)?$' "$file"; then
  has_server=1
fi

# The first [[language]] entry named "elixir": "LINE yes" or "LINE no", LINE
# being its name line and yes when its language-servers list (one line or
# several, plain names or { name = ... } tables) names "wymcp-ls"; empty
# when there is none.
elixir=$(awk '
  function done_entry() {
    if (in_lang && is_elixir && !found) { print name_line " " (has ? "yes" : "no"); found = 1 }
    in_lang = 0; is_elixir = 0; has = 0
  }
  function depth(s,   t) { t = s; sub(/#.*/, "", t); return gsub(/\[/, "[", t) - gsub(/\]/, "]", t) }
  servers > 0 {
    if ($0 ~ /["\047]wymcp-ls["\047]/) has = 1
    servers += depth($0)
    next
  }
  /^[[:space:]]*\[/ {
    done_entry()
    in_lang = ($0 ~ /^[[:space:]]*\[\[language\]\][[:space:]]*(#.*)?$/)
    next
  }
  in_lang && /^[[:space:]]*name[[:space:]]*=[[:space:]]*"elixir"[[:space:]]*(#.*)?$/ { is_elixir = 1; name_line = NR }
  in_lang && /^[[:space:]]*language-servers[[:space:]]*=/ {
    rest = $0
    sub(/^[^=]*=/, "", rest)
    if (rest ~ /["\047]wymcp-ls["\047]/) has = 1
    servers = depth(rest)
  }
  END { done_entry() }
' "$file") || die "cannot read $file"
elixir_line=${elixir% *}

remind() {
  echo "$file:$elixir_line has your own [[language]] entry for elixir: add \"wymcp-ls\" to its language-servers"
  echo "  (none there? write: language-servers = [\"elixir-ls\", \"expert\", \"wymcp-ls\"])"
}

if [ -n "$has_server" ]; then
  case "$elixir" in
    *" yes")
      echo "$file already has [language-server.wymcp-ls], and line $elixir_line's elixir entry uses it; nothing changed"
      exit 0 ;;
    *" no")
      echo "$file already has [language-server.wymcp-ls]; nothing changed, but the elixir entry does not use it yet:"
      remind
      exit 0 ;;
  esac
fi

# Keep what follows on a line of its own even when FILE lacks a final newline.
if [ -s "$file" ] && [ "$(tail -c 1 "$file" | od -An -c | tr -d ' ')" != '\n' ]; then
  echo >>"$file" || die "cannot write $file"
fi

if [ -n "$has_server" ]; then
  # the server table without an elixir entry: add the entry alone
  { echo; sed -n '/^\[\[language\]\]/,$p' "$here/languages.toml"; } >>"$file" || die "cannot write $file"
  echo "$file already has [language-server.wymcp-ls]; added the elixir language entry"
  exit 0
fi

if [ -n "$elixir" ]; then
  {
    echo
    sed -n '/^\[language-server\.wymcp-ls\]/,/^\[\[language\]\]/p' "$here/languages.toml" | sed '$d'
  } >>"$file" || die "cannot write $file"
  echo "$file: added [language-server.wymcp-ls]."
  case "$elixir" in
    *" no") remind ;;
    *) echo "$file:$elixir_line: your elixir entry already names \"wymcp-ls\" in its language-servers" ;;
  esac
  exit 0
fi

{ echo; cat "$here/languages.toml"; } >>"$file" || die "cannot write $file"
echo "$file: added [language-server.wymcp-ls] and the elixir language entry"
