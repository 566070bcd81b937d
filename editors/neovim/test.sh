#!/usr/bin/env bash
# End-to-end test of editors/neovim with a real Neovim as the LSP client.
#   editors/neovim/test.sh          Debian's Neovim (0.7.2): vim.lsp.start_client
#   editors/neovim/test.sh --sid    also Neovim 0.11+ from Debian unstable (chroot,
#                                   root): lsp/wymcp_ls.lua through vim.lsp.enable
#   editors/neovim/test.sh --sid-only   only the 0.11+ run
# The server is $WYMCP_LS, or built from this repository. Each run opens the
# fixture testdata/example, compares every diagnostic (file, 0-based
# line:col-line:col, severity, source, code, message) with
# testdata/before.golden, fixes `example` -> `examples` in the notes.ex buffer
# and compares with testdata/after.golden, then asks for notes.ex's code lens,
# runs its command and compares with testdata/lens.golden. Exit 0 on a full match, 1 on any
# mismatch or timeout, 2 on a setup error. Set WYMCP_UPDATE_GOLDEN=1 to
# rewrite the golden files from a 0.7 run instead.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=editors/lib.sh
. "$here/../lib.sh"

run07=1
runsid=0
for arg in "$@"; do
  case "$arg" in
    --sid) runsid=1 ;;
    --sid-only) runsid=1; run07=0 ;;
    -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
    *) die "unknown argument $arg (try --help)" ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/wymcp-nvim.XXXXXX")
sidwork=
cleanup() {
  sid_umount
  [ -n "$sidwork" ] && rm -rf "$sidwork"
  rm -rf "$work"
}
trap cleanup EXIT

bin=$(server_binary "$work") || exit 2
passed=0
failed=0

# check LABEL OUTDIR: diffs the two dumps against the golden files.
check() {
  local label=$1 out=$2 step
  for step in before after lens; do
    if [ "${WYMCP_UPDATE_GOLDEN:-}" = 1 ]; then
      cp "$out/$step.txt" "$here/testdata/$step.golden"
      echo "updated testdata/$step.golden"
    fi
    if [ -f "$out/$step.txt" ] && diff -u --label "expected $step" --label "$label $step" \
      "$here/testdata/$step.golden" "$out/$step.txt"; then
      echo "ok   $label: $step"
      passed=$((passed + 1))
    else
      [ -f "$out/$step.txt" ] || echo "(no $step.txt written)"
      echo "FAIL $label: $step"
      failed=$((failed + 1))
    fi
  done
}

if [ "$run07" = 1 ]; then
  nvim=${NVIM:-nvim}
  command -v "$nvim" >/dev/null || die "nvim not found (apt-get install neovim)"
  version=$("$nvim" --version | head -1)
  echo "== $version, vim.lsp.start_client"
  cp -r "$REPO_DIR/testdata/example" "$work/example"
  mkdir -p "$work/out07" "$work/home"
  HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
    XDG_STATE_HOME="$work/home/.local/state" XDG_CACHE_HOME="$work/home/.cache" \
    WYMCP_MODE=start_client WYMCP_LS="$bin" WYMCP_RTP="$here" WYMCP_ROOT="$work/example" \
    WYMCP_OUT="$work/out07" timeout 300 "$nvim" --headless -n -i NONE -u "$here/test/e2e.lua" \
    >"$work/out07/nvim.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || { echo "nvim exited $rc:"; cat "$work/out07/nvim.log"; }
  check "neovim 0.7" "$work/out07"
fi

if [ "$runsid" = 1 ]; then
  [ "$(id -u)" = 0 ] || die "--sid needs root (chroot, mount)"
  sid_ensure
  root=$(sid_dir)
  sid_mount
  sidwork=$(mktemp -d "$root/tmp/wymcp-nvim.XXXXXX")
  in=${sidwork#"$root"}
  cp "$bin" "$sidwork/wymcp-ls"
  cp -r "$REPO_DIR/testdata/example" "$sidwork/example"
  mkdir -p "$sidwork/neovim" "$sidwork/out" "$sidwork/home"
  cp -r "$here/lsp" "$here/test" "$sidwork/neovim/"
  version=$(chroot "$root" nvim --version | head -1)
  echo "== $version (Debian unstable chroot), vim.lsp.enable('wymcp_ls')"
  chroot "$root" /usr/bin/env -i HOME="$in/home" PATH=/usr/local/bin:/usr/bin:/bin TERM=dumb \
    WYMCP_MODE=enable WYMCP_LS="$in/wymcp-ls" WYMCP_RTP="$in/neovim" WYMCP_ROOT="$in/example" \
    WYMCP_OUT="$in/out" timeout 300 nvim --headless -n -i NONE -u "$in/neovim/test/e2e.lua" \
    >"$sidwork/out/nvim.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || { echo "nvim exited $rc:"; cat "$sidwork/out/nvim.log"; }
  check "neovim sid" "$sidwork/out"
fi

echo "neovim: $passed passed, $failed failed"
[ "$failed" = 0 ]
