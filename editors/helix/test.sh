#!/usr/bin/env bash
# End-to-end test of editors/helix/languages.toml with a real Helix (from
# Debian unstable, in the chroot shared with editors/neovim/test.sh --sid;
# root needed). The server is $WYMCP_LS, or built from this repository.
#  1. `hx --health elixir` lists wymcp-ls, found on PATH, beside elixir-ls
#     and expert.
#  2. Helix runs under tmux with --log on the fixture testdata/example
#     (lib/app/tools/notes.ex); the last textDocument/publishDiagnostics per
#     file in its log must equal testdata/diagnostics.golden (file, 0-based
#     line:col-line:col, severity, source, code, message).
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
  -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
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
cp "$here/languages.toml" "$sidwork/home/.config/helix/languages.toml"
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

# 1. health
chroot "$root" "${env[@]}" hx --health elixir 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$work/health.txt"
cat "$work/health.txt"
grep -qxF "  ✓ wymcp-ls: $in/bin/wymcp-ls" "$work/health.txt" &&
  grep -q '^  ✘ elixir-ls: ' "$work/health.txt" && grep -q '^  ✘ expert: ' "$work/health.txt"
result $? "hx --health elixir finds wymcp-ls beside elixir-ls and expert"

# 2. diagnostics received by a running Helix
log=$sidwork/out/hx.log
tmux -L "$sock" new-session -d -x 160 -y 48 \
  "chroot '$root' ${env[*]} sh -c 'cd $in/example && exec hx -v --log $in/out/hx.log lib/app/tools/notes.ex'"

# publishes LOG: the last publishDiagnostics per URI as golden-format lines.
publishes() {
  sed -n 's/^.* <- \({.*"method":"textDocument\/publishDiagnostics".*\)$/\1/p' "$1" |
    jq -s -r --arg root "file://$in/example/" '
      group_by(.params.uri) | map(last) | .[] | .params as $p
      | ($p.uri | ltrimstr($root)) as $f
      | $p.diagnostics[]
      | "\($f) \(.range.start.line):\(.range.start.character)-\(.range.end.line):\(.range.end.character) \(["?", "error", "warning", "info", "hint"][.severity // 0]) \(.source) \(.code) \(.message | gsub("\n"; "\\n"))"' |
    sort
}

deadline=$((SECONDS + ${WYMCP_TIMEOUT:-60}))
want_files=$(cut -d' ' -f1 "$here/testdata/diagnostics.golden" | sort -u)
while :; do
  if [ -f "$log" ]; then
    publishes "$log" >"$work/got.txt" 2>/dev/null
    have_files=$(cut -d' ' -f1 "$work/got.txt" | sort -u)
    [ -n "$have_files" ] && [ "$have_files" = "$want_files" ] && break
  fi
  if [ $SECONDS -ge $deadline ]; then
    echo "timed out waiting for publishDiagnostics for: ${want_files//$'\n'/ }"
    break
  fi
  sleep 0.5
done
sleep 1 # let a follow-up publish for the same files land, then compare the last ones
[ -f "$log" ] && publishes "$log" >"$work/got.txt"
diff -u --label expected --label "helix log" "$here/testdata/diagnostics.golden" "$work/got.txt"
result $? "log shows wymcp's publishDiagnostics with the expected ranges, codes and messages"

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
