#!/usr/bin/env bash
# End-to-end test of editors/helix/languages.toml with a real Helix (from
# Debian unstable, in the chroot shared with editors/neovim/test.sh --sid;
# root needed). The server is $WYMCP_LS, or built from this repository.
#  0. install.sh --help and a mistyped option (no file written); the README's
#     install step (install.sh) run twice on an empty config
#     leaves one [language-server.wymcp-ls] that Helix parses; on a config
#     with the user's own [[language]] elixir entry it keeps that entry and
#     names its line to edit, again on a second run (exit 0 both times, the
#     exact messages compared), and the README's hand edit then adds
#     wymcp-ls beside the user's servers (a third run: nothing changed); on
#     a config with only the server table it adds the elixir entry.
#  1. `hx --health elixir` lists wymcp-ls, found on PATH, beside elixir-ls
#     and expert.
#  2. Helix runs under tmux with --log on the fixture testdata/example
#     (lib/app/tools/notes.ex); the last diagnostics per file in its log,
#     pushed (textDocument/publishDiagnostics) or pulled (full reports of
#     textDocument/diagnostic, workspace/diagnostic and relatedDocuments),
#     must equal testdata/diagnostics.golden (file, 0-based
#     line:col-line:col, severity, source, code, message); in pull mode
#     (the server offered diagnosticProvider) only the files Helix asked
#     about are compared. It prints the mode, and fails on a push to a
#     client that pulls.
#  3. Helix's screen (tmux capture-pane) marks those notes.ex lines in the
#     diagnostics gutter.
# Exit 0 on a full match, 1 on a mismatch or timeout, 2 on a setup error.
# WYMCP_TIMEOUT (seconds, default 60) bounds the wait for diagnostics.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=editors/lib.sh
. "$here/../lib.sh"

case "${1:-}" in
  "") ;;
  -h | --help) sed -n '2,26p' "$0"; exit 0 ;;
  *) die "unknown argument $1 (try --help)" ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (chroot, mount)"
command -v tmux >/dev/null || die "tmux not found (apt-get install tmux)"
command -v jq >/dev/null || die "jq not found (apt-get install jq)"

work=$(mktemp -d "${TMPDIR:-/tmp}/wymcp-hx.XXXXXX")
root=
sidwork=
sock=wymcp-hx-$$
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null
  sid_umount
  [ -n "$sidwork" ] && rm -rf "$sidwork"
  rm -rf "$work"
}
trap cleanup EXIT

bin=$(server_binary "$work") || exit 2
sid_ensure
root=$(sid_dir)
sid_mount
sidwork=$(mktemp -d "$root/tmp/wymcp-hx.XXXXXX")
in=${sidwork#"$root"}
mkdir -p "$sidwork/bin" "$sidwork/home/.config/helix" "$sidwork/out"
cp "$bin" "$sidwork/bin/wymcp-ls"
cp -r "$REPO_DIR/testdata/example" "$sidwork/example"
env=(/usr/bin/env -i HOME="$in/home" PATH="$in/bin:/usr/local/bin:/usr/bin:/bin" TERM=xterm-256color LANG=C.UTF-8)

passed=0
failed=0
result() {
  if [ "$1" = 0 ]; then
    echo "ok   helix: $2"
    passed=$((passed + 1))
  else
    echo "FAIL helix: $2"
    failed=$((failed + 1))
  fi
}

echo "== $(chroot "$root" hx --version) (Debian unstable chroot)"

# health HOME OUT: `hx --health elixir` with HOME (a path inside the chroot), colours stripped.
health() {
  chroot "$root" /usr/bin/env -i HOME="$1" PATH="$in/bin:/usr/local/bin:/usr/bin:/bin" TERM=xterm-256color LANG=C.UTF-8 \
    hx --health elixir 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$2"
}

# 0. --help and a mistyped option write no file; the install step, twice;
# then a config with the user's own elixir entry
(cd "$work" && "$here/install.sh" --help >"$work/help.txt" 2>&1; echo $? >"$work/help.rc"
  "$here/install.sh" --bogus >"$work/bogus.txt" 2>&1; echo $? >"$work/bogus.rc")
[ "$(cat "$work/help.rc")" = 0 ] && head -1 "$work/help.txt" | grep -qx 'Adds wymcp-ls to a Helix languages.toml; safe to run again.' &&
  [ "$(cat "$work/bogus.rc")" = 2 ] && grep -q '^install.sh: unknown option --bogus' "$work/bogus.txt" &&
  [ ! -e "$work/--help" ] && [ ! -e "$work/--bogus" ]
result $? "install.sh --help prints its usage, an unknown option exits 2, and neither writes a file"

cfg=$sidwork/home/.config/helix/languages.toml
rm -f "$cfg"
"$here/install.sh" "$cfg" >"$work/install1.txt" && "$here/install.sh" "$cfg" >"$work/install2.txt"
rc=$?
cat "$work/install1.txt" "$work/install2.txt"
elixir_at=$(grep -n '^name = "elixir"$' "$cfg" | cut -d: -f1)
[ "$rc" = 0 ] && [ "$(grep -c '^\[language-server\.wymcp-ls\]' "$cfg")" = 1 ] &&
  [ "$(grep -c '^\[\[language\]\]' "$cfg")" = 1 ] && [ "$elixir_at" = $(($(grep -n '^name = "elixir"$' "$here/languages.toml" | cut -d: -f1) + 1)) ] &&
  [ "$(cat "$work/install2.txt")" = "$cfg already has [language-server.wymcp-ls], and line $elixir_at's elixir entry uses it; nothing changed" ]
result $? "install.sh run twice leaves one [language-server.wymcp-ls] and one elixir entry"

# the user's own elixir entry (servers: lexical): run 1 adds the server
# table, run 2 changes nothing; both name the line to edit and exit 0
own=$sidwork/own
ocfg=$own/.config/helix/languages.toml
mkdir -p "$own/.config/helix"
printf '[[language]]\nname = "elixir"\nlanguage-servers = ["lexical"]\n' >"$ocfg"
printf '[language-server.lexical]\ncommand = "lexical"\n' >>"$ocfg"
"$here/install.sh" "$ocfg" >"$work/install-own1.txt"
rc1=$?
cp "$ocfg" "$work/own-after1.toml"
"$here/install.sh" "$ocfg" >"$work/install-own2.txt"
rc2=$?
cat "$work/install-own1.txt" "$work/install-own2.txt"
remind="$ocfg:2 has your own [[language]] entry for elixir: add \"wymcp-ls\" to its language-servers
  (none there? write: language-servers = [\"elixir-ls\", \"expert\", \"wymcp-ls\"])"
health "${own#"$root"}" "$work/health-own.txt"
[ "$rc1" = 0 ] && [ "$(cat "$work/install-own1.txt")" = "$ocfg: added [language-server.wymcp-ls].
$remind" ] && [ "$(grep -c '^\[language-server\.wymcp-ls\]' "$ocfg")" = 1 ] && [ "$(grep -c '^\[\[language\]\]' "$ocfg")" = 1 ] &&
  ! grep -q 'Error parsing' "$work/health-own.txt" && grep -q '^  ✘ lexical: ' "$work/health-own.txt" &&
  ! grep -q 'wymcp-ls' "$work/health-own.txt"
result $? "install.sh keeps the user's own elixir entry (servers: lexical) and says which line to edit"
[ "$rc2" = 0 ] && [ "$(cat "$work/install-own2.txt")" = "$ocfg already has [language-server.wymcp-ls]; nothing changed, but the elixir entry does not use it yet:
$remind" ] && cmp -s "$ocfg" "$work/own-after1.toml"
result $? "install.sh run again on it changes nothing, names the line again and exits 0"
sed -i 's/^language-servers = \["lexical"\]$/language-servers = ["lexical", "wymcp-ls"]/' "$ocfg"
health "${own#"$root"}" "$work/health-own2.txt"
"$here/install.sh" "$ocfg" >"$work/install-own3.txt"
rc3=$?
cat "$work/install-own3.txt"
grep -q '^  ✘ lexical: ' "$work/health-own2.txt" && grep -qxF "  ✓ wymcp-ls: $in/bin/wymcp-ls" "$work/health-own2.txt" &&
  [ "$rc3" = 0 ] && [ "$(cat "$work/install-own3.txt")" = "$ocfg already has [language-server.wymcp-ls], and line 2's elixir entry uses it; nothing changed" ]
result $? "after the README's hand edit Helix runs lexical and wymcp-ls, and install.sh says nothing is left"
[ "$failed" = 0 ] || cat "$work/health-own.txt" "$work/health-own2.txt"

# only the server table (no elixir entry): install.sh adds the entry
srv=$sidwork/srv
scfg=$srv/.config/helix/languages.toml
mkdir -p "$srv/.config/helix"
printf '[language-server.wymcp-ls]\ncommand = "wymcp-ls"\n' >"$scfg"
"$here/install.sh" "$scfg" >"$work/install-srv.txt"
rc=$?
cat "$work/install-srv.txt"
health "${srv#"$root"}" "$work/health-srv.txt"
[ "$rc" = 0 ] && [ "$(cat "$work/install-srv.txt")" = "$scfg already has [language-server.wymcp-ls]; added the elixir language entry" ] &&
  [ "$(grep -c '^\[\[language\]\]' "$scfg")" = 1 ] && grep -qxF "  ✓ wymcp-ls: $in/bin/wymcp-ls" "$work/health-srv.txt"
result $? "install.sh adds the elixir entry to a file with only [language-server.wymcp-ls]"

# 1. health
health "$in/home" "$work/health.txt"
cat "$work/health.txt"
! grep -q 'Error parsing' "$work/health.txt" && grep -qxF "  ✓ wymcp-ls: $in/bin/wymcp-ls" "$work/health.txt" &&
  grep -q '^  ✘ elixir-ls: ' "$work/health.txt" && grep -q '^  ✘ expert: ' "$work/health.txt"
result $? "hx --health elixir finds wymcp-ls beside elixir-ls and expert"

# 2. diagnostics received by a running Helix
log=$sidwork/out/hx.log
tmux -L "$sock" new-session -d -x 160 -y 48 \
  "chroot '$root' ${env[*]} sh -c 'cd $in/example && exec hx -v --log $in/out/hx.log lib/app/tools/notes.ex'"

# messages LOG: every JSON-RPC message of the wymcp-ls transport in Helix's
# log, one JSON object a line: {"dir": "->" (Helix to server) or "<-", "msg": ...}.
messages() {
  sed -n 's/^.*helix_lsp::transport.* wymcp-ls \(->\|<-\) \({.*}\)$/{"dir":"\1","msg":\2}/p' "$1"
}

# publishes LOG: the last diagnostics per URI as golden-format lines, from
# pushes and from full pull reports (textDocument/diagnostic answers, their
# relatedDocuments, workspace/diagnostic answers).
publishes() {
  messages "$1" | jq -s -r --arg root "file://$in/example/" '
      (map(select(.dir == "->" and .msg.method == "textDocument/diagnostic")
           | {key: (.msg.id | tostring), value: .msg.params.textDocument.uri}) | from_entries) as $doc
      | (map(select(.dir == "->" and .msg.method == "workspace/diagnostic") | {key: (.msg.id | tostring), value: true})
         | from_entries) as $ws
      | [ .[]
          | if .dir == "<-" and .msg.method == "textDocument/publishDiagnostics" then
              {uri: .msg.params.uri, d: .msg.params.diagnostics}
            elif .dir == "<-" and .msg.method == null and .msg.result != null and $doc[.msg.id | tostring] != null then
              (if .msg.result.kind == "full" then {uri: $doc[.msg.id | tostring], d: .msg.result.items} else empty end),
              ((.msg.result.relatedDocuments // {}) | to_entries[] | select(.value.kind == "full") | {uri: .key, d: .value.items})
            elif .dir == "<-" and .msg.method == null and .msg.result != null and $ws[.msg.id | tostring] != null then
              (.msg.result.items[] | select(.kind == "full") | {uri: .uri, d: .items})
            else empty end ]
      | group_by(.uri) | map(last) | .[] | . as $p
      | ($p.uri | ltrimstr($root)) as $f
      | $p.d[]
      | "\($f) \(.range.start.line):\(.range.start.character)-\(.range.end.line):\(.range.end.character) \(["?", "error", "warning", "info", "hint"][.severity // 0]) \(.source) \(.code) \(.message | gsub("\n"; "\\n"))"' |
    sort
}

# mode LOG: "push N", "pull N", "mixed" or "none", and "offered" when the
# server's initialize result has diagnosticProvider.
mode() {
  messages "$1" | jq -s -r '
      (map(select(.dir == "<-" and .msg.method == "textDocument/publishDiagnostics")) | length) as $push
      | (map(select(.dir == "->" and (.msg.method == "textDocument/diagnostic" or .msg.method == "workspace/diagnostic"))) | length) as $pull
      | (map(select(.dir == "<-" and .msg.result.capabilities.diagnosticProvider != null)) | length > 0) as $offered
      | (if $push > 0 and $pull == 0 then "push \($push)" elif $pull > 0 and $push == 0 then "pull \($pull)"
         elif $pull > 0 then "mixed" else "none" end) + (if $offered then " offered" else " not-offered" end)'
}

deadline=$((SECONDS + ${WYMCP_TIMEOUT:-60}))
golden=$here/testdata/diagnostics.golden
want_files=$(cut -d' ' -f1 "$golden" | sort -u)
while :; do
  if [ -f "$log" ]; then
    publishes "$log" >"$work/got.txt" 2>/dev/null
    have_files=$(cut -d' ' -f1 "$work/got.txt" | sort -u)
    [ -n "$have_files" ] && [ "$have_files" = "$want_files" ] && break
    # pull mode: Helix asks about its open document (notes.ex) only
    case "$(mode "$log" 2>/dev/null)" in
      pull*" offered") grep -qx 'lib/app/tools/notes.ex' <<<"$have_files" && break ;;
    esac
  fi
  if [ $SECONDS -ge $deadline ]; then
    echo "timed out waiting for publishDiagnostics for: ${want_files//$'\n'/ }"
    break
  fi
  sleep 0.5
done
sleep 1 # let a follow-up publish for the same files land, then compare the last ones
[ -f "$log" ] && publishes "$log" >"$work/got.txt"
how=$( [ -f "$log" ] && mode "$log")
echo "diagnostics: ${how:-none}"
want=$golden
case "$how" in
  pull*offered)
    # Helix pulls for the documents it has open: compare the files it got.
    { echo lib/app/tools/notes.ex; cut -d' ' -f1 "$work/got.txt"; } | sort -u >"$work/got-files.txt"
    grep -F -f <(sed 's/$/ /' "$work/got-files.txt") "$golden" >"$work/want.txt"
    want=$work/want.txt ;;
esac
diff -u --label expected --label "helix log" "$want" "$work/got.txt"
result $? "log shows wymcp's diagnostics with the expected ranges, codes and messages"
case "$how" in
  push*not-offered | pull*" offered") result 0 "diagnostics by ${how% *} (server offers pull: ${how##* })" ;;
  *) result 1 "diagnostics by push to a client offered pull, or by both ($how)" ;;
esac

# 3. the editor shows it: the diagnostics gutter marks each golden line of notes.ex
marks=$(sed -n 's/^lib\/app\/tools\/notes\.ex \([0-9]*\):.*/\1/p' "$here/testdata/diagnostics.golden" | sort -un)
deadline=$((SECONDS + 10))
while :; do
  tmux -L "$sock" capture-pane -p -t 0 >"$work/screen.txt" 2>/dev/null
  missing=
  for l in $marks; do
    grep -q "^● *$((l + 1)) " "$work/screen.txt" || missing="$missing $((l + 1))"
  done
  [ -z "$missing" ] || [ $SECONDS -ge $deadline ] && break
  sleep 0.5
done
[ -n "$marks" ] && [ -z "$missing" ]
result $? "the screen marks notes.ex line(s)$(for l in $marks; do printf ' %d' $((l + 1)); done) with a diagnostic"
if [ "$failed" != 0 ]; then
  echo "--- Helix screen:"
  cat "$work/screen.txt"
  echo "--- wymcp-ls lines in the Helix log:"
  grep -a 'wymcp-ls' "$log" 2>/dev/null | tail -20
fi
[ -n "${WYMCP_KEEP:-}" ] && cp "$log" "$work/screen.txt" "$WYMCP_KEEP/" 2>/dev/null
tmux -L "$sock" send-keys -t 0 Escape ':q!' Enter 2>/dev/null
sleep 0.5

echo "helix: $passed passed, $failed failed"
[ "$failed" = 0 ]
