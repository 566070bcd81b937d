#!/usr/bin/env bash
# End-to-end test of editors/neovim with a real Neovim as the LSP client.
#   editors/neovim/test.sh          Debian's Neovim (0.7.2): the README's 0.7-0.10
#                                   snippet (legacy.lua, vim.lsp.start_client)
#   editors/neovim/test.sh --sid    also Neovim 0.11+ from Debian unstable (chroot,
#                                   root): lsp/wymcp_ls.lua through vim.lsp.enable
#   editors/neovim/test.sh --sid-only   only the 0.11+ run
# The server is $WYMCP_LS, or built from this repository. Each run opens the
# fixture testdata/example, compares every diagnostic (file, 0-based
# line:col-line:col, severity, source, code, message) with
# testdata/before.golden, fixes `example` -> `examples` in the notes.ex buffer
# and compares with testdata/after.golden, then asks for notes.ex's code lens,
# runs its command and compares with testdata/lens.golden; it prints how the diagnostics came
# (push: publishDiagnostics, pull: textDocument/diagnostic) and fails when that
# is not push for 0.7 (no pull support) and pull for 0.11+ where the server
# offers it. Each run also opens one file under each kind of root (test/roots.lua)
# and checks its client's root_dir: the nearest mix.exs (even with a .git
# nearer), else the nearest .git (directory or file), else the file's
# directory. The 0.7 run also checks that the snippet in editors/README.md is
# legacy.lua, and runs it headless with PATH emptied: it must print only
# `wymcp-ls not found on PATH (see ...)` and exit 0. Exit 0 on a full match,
# 1 on any mismatch or timeout, 2 on a setup error. Set WYMCP_UPDATE_GOLDEN=1
# to rewrite the golden files from a 0.7 run instead; WYMCP_KEEP=DIR keeps
# each run's results and Neovim's LSP log there.
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
    -h | --help) sed -n '2,23p' "$0"; exit 0 ;;
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

# check_mode LABEL OUTDIR WANT: WANT is push, or pull-if-offered (pull when
# the server offered diagnosticProvider, else push).
check_mode() {
  local label=$1 out=$2 want=$3 how offered
  read -r how offered <"$out/mode.txt" 2>/dev/null || { how=none offered=?; }
  if [ "$want" = pull-if-offered ]; then
    want=push
    [ "$offered" = offered-pull ] && want=pull
  fi
  if [ "$how" = "$want" ]; then
    echo "ok   $label: diagnostics by $how ($offered)"
    passed=$((passed + 1))
  else
    echo "FAIL $label: diagnostics by $how, want $want ($offered)"
    failed=$((failed + 1))
  fi
}

# ok_or_fail LABEL CONDITION-RESULT
ok_or_fail() {
  if [ "$2" = 0 ]; then
    echo "ok   $1"
    passed=$((passed + 1))
  else
    echo "FAIL $1"
    failed=$((failed + 1))
  fi
}

# roots_layout DIR: the files test/roots.lua opens, each under other root markers.
roots_layout() {
  mkdir -p "$1/prio/lib/.git" "$1/git/.git" "$1/git/lib" "$1/gitfile/lib" "$1/none/lib" "$1/umb/apps/web/lib" "$1/umb/apps/web/deep/x/lib"
  printf 'defmodule Prio.MixProject do\nend\n' >"$1/prio/mix.exs"
  printf 'gitdir: /elsewhere/.git/worktrees/gitfile\n' >"$1/gitfile/.git"
  # An umbrella: an app in its apps_path gets the umbrella's root; a
  # project nested deeper in that app keeps its own.
  printf 'defmodule Umb.MixProject do\n  def project, do: [apps_path: "apps"]\nend\n' >"$1/umb/mix.exs"
  printf 'defmodule Web.MixProject do\nend\n' >"$1/umb/apps/web/mix.exs"
  printf 'defmodule X.MixProject do\nend\n' >"$1/umb/apps/web/deep/x/mix.exs"
  local f
  for f in prio/lib/a.ex git/lib/b.ex gitfile/lib/c.ex none/lib/d.ex umb/apps/web/lib/e.ex umb/apps/web/deep/x/lib/f.ex; do
    printf 'defmodule A do\nend\n' >"$1/$f"
  done
}
roots_want='prio/lib/a.ex prio
git/lib/b.ex git
gitfile/lib/c.ex gitfile
none/lib/d.ex none/lib
umb/apps/web/lib/e.ex umb
umb/apps/web/deep/x/lib/f.ex umb/apps/web/deep/x'

# check_roots LABEL OUTDIR: roots.txt against $roots_want.
check_roots() {
  if [ -f "$2/roots.txt" ] && diff -u --label "expected roots" --label "$1 roots" <(printf '%s\n' "$roots_want") "$2/roots.txt"; then
    ok_or_fail "$1: root is mix.exs (its umbrella for an app), else .git, else the file's directory" 0
  else
    [ -f "$2/roots.txt" ] || { echo "(no roots.txt written)"; cat "$2/roots.log" 2>/dev/null; }
    ok_or_fail "$1: root is mix.exs (its umbrella for an app), else .git, else the file's directory" 1
  fi
}

# readme_snippet: the lua block after "**Neovim 0.7 to 0.10**" in editors/README.md.
readme_snippet() {
  awk '/^\*\*Neovim 0\.7 to 0\.10\*\*/ { seen = 1 } seen && /^```lua$/ { on = 1; next } on && /^```$/ { exit } on { print }' \
    "$EDITORS_DIR/README.md"
}

if [ "$run07" = 1 ]; then
  nvim=${NVIM:-nvim}
  command -v "$nvim" >/dev/null || die "nvim not found (apt-get install neovim)"
  nvim=$(command -v "$nvim")
  version=$("$nvim" --version | head -1)
  echo "== $version, the 0.7-0.10 snippet (legacy.lua, vim.lsp.start_client)"
  readme_snippet >"$work/readme.lua"
  diff -u --label "editors/README.md snippet" --label editors/neovim/legacy.lua "$work/readme.lua" "$here/legacy.lua"
  ok_or_fail "neovim 0.7: README snippet is legacy.lua" $?

  cp -r "$REPO_DIR/testdata/example" "$work/example"
  mkdir -p "$work/out07" "$work/home" "$work/pathbin"
  ln -s "$bin" "$work/pathbin/wymcp-ls"
  nvim_env=(HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
    XDG_STATE_HOME="$work/home/.local/state" XDG_CACHE_HOME="$work/home/.cache")
  env "${nvim_env[@]}" PATH="$work/pathbin:/usr/bin:/bin" \
    WYMCP_MODE=legacy WYMCP_LS="$bin" WYMCP_RTP="$here" WYMCP_ROOT="$work/example" \
    WYMCP_OUT="$work/out07" timeout 300 "$nvim" --headless -n -i NONE -u "$here/test/e2e.lua" \
    >"$work/out07/nvim.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || { echo "nvim exited $rc:"; cat "$work/out07/nvim.log"; }
  check "neovim 0.7" "$work/out07"
  [ -n "${WYMCP_KEEP:-}" ] && mkdir -p "$WYMCP_KEEP/nvim07" && cp -r "$work/out07/." "$WYMCP_KEEP/nvim07/"
  check_mode "neovim 0.7" "$work/out07" push

  roots_layout "$work/roots"
  mkdir -p "$work/outroots07"
  env "${nvim_env[@]}" PATH="$work/pathbin:/usr/bin:/bin" \
    WYMCP_MODE=legacy WYMCP_LS="$bin" WYMCP_RTP="$here" WYMCP_ROOT="$work/roots" \
    WYMCP_OUT="$work/outroots07" timeout 120 "$nvim" --headless -n -i NONE -u "$here/test/roots.lua" \
    >"$work/outroots07/roots.log" 2>&1
  check_roots "neovim 0.7" "$work/outroots07"

  # The snippet without wymcp-ls on PATH: one line, no stack trace, exit 0,
  # even with two Elixir buffers opened.
  printf "vim.cmd('filetype on')\ndofile('%s')\n" "$here/legacy.lua" >"$work/missing.lua"
  (cd "$work/example" && timeout 60 env -i "${nvim_env[@]}" PATH= "$nvim" --headless -n -i NONE -u "$work/missing.lua" \
    lib/app/tools/notes.ex +'edit lib/app/tools/schemas.ex' +'qall!' >"$work/missing.out" 2>&1)
  rc=$?
  want='wymcp-ls not found on PATH (see https://github.com/wymcp/wymcp-ls#install)'
  got=$(cat "$work/missing.out")
  if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
    ok_or_fail "neovim 0.7: PATH emptied prints only \"$want\"" 0
  else
    echo "exit $rc, output:"; cat "$work/missing.out"; echo
    ok_or_fail "neovim 0.7: PATH emptied prints only \"$want\"" 1
  fi
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
  [ -n "${WYMCP_KEEP:-}" ] && mkdir -p "$WYMCP_KEEP/nvimsid" && cp -r "$sidwork/out/." "$WYMCP_KEEP/nvimsid/"
  check_mode "neovim sid" "$sidwork/out" pull-if-offered

  roots_layout "$sidwork/roots"
  mkdir -p "$sidwork/outroots"
  chroot "$root" /usr/bin/env -i HOME="$in/home" PATH=/usr/local/bin:/usr/bin:/bin TERM=dumb \
    WYMCP_MODE=enable WYMCP_LS="$in/wymcp-ls" WYMCP_RTP="$in/neovim" WYMCP_ROOT="$in/roots" \
    WYMCP_OUT="$in/outroots" timeout 120 nvim --headless -n -i NONE -u "$in/neovim/test/roots.lua" \
    >"$sidwork/outroots/roots.log" 2>&1
  check_roots "neovim sid" "$sidwork/outroots"
fi

echo "neovim: $passed passed, $failed failed"
[ "$failed" = 0 ]
