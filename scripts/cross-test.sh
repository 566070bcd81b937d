#!/usr/bin/env bash
# Release test: builds every platform with scripts/release.sh (and, with
# --vsix, the six VS Code packages), checks what it made, and runs the
# foreign binaries on testdata/example:
#  1. SHA256SUMS verifies; each archive holds wymcp-ls (wymcp-ls.exe for
#     windows) of the right format and CPU (ELF x86-64/AArch64, Mach-O
#     x86-64/arm64, PE x86-64/ARM64), README.md; each .vsix holds
#     extension/bin/wymcp-ls[.exe] for its target, byte-equal to the archive's.
#  2. `wymcp-ls version` of the native binary prints the stamped version.
#  3. `wymcp-ls check testdata/example` by the native linux/amd64 binary, the
#     linux/arm64 one under qemu-user-static and the windows/amd64 one under
#     Wine: the same output (paths normalised to /, CR dropped), 3 offences,
#     exit 1 each.
#  4. the workspace and lsp test suites, built for windows/amd64, under
#     Wine (paths with drive letters and backslashes, file: URIs).
# Wine: Debian 12's Wine 8.0 cannot start Go 1.26 binaries (it has no
# bcryptprimitives.dll, which the Go runtime needs since Go 1.22), so Wine
# runs from the Debian unstable chroot of the editor tests (editors/lib.sh;
# root; Wine 10 is installed into it once). qemu-user-static is Debian 12's.
# Installs what is missing with apt-get (root). Without root, or when
# WYMCP_CROSS_SKIP_EMULATORS=1, step 3 runs the native binary only and
# says so. Exit 0 on success, 1 on a failed check, 2 on a setup error.
#   scripts/cross-test.sh [--vsix]
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=editors/lib.sh
. "$repo/editors/lib.sh"

vsix=
case "${1:-}" in
  "") ;;
  --vsix) vsix=--vsix ;;
  -h | --help) sed -n '2,23p' "$0"; exit 0 ;;
  *) die "unknown argument $1 (try --help)" ;;
esac

passed=0
failed=0
result() {
  if [ "$1" = 0 ]; then
    echo "ok   cross: $2"
    passed=$((passed + 1))
  else
    echo "FAIL cross: $2"
    failed=$((failed + 1))
  fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/wymcp-cross.XXXXXX")
sidwork=
cleanup() {
  sid_umount
  [ -n "$sidwork" ] && rm -rf "$sidwork"
  rm -rf "$work"
}
trap cleanup EXIT

version=0.0.0-crosstest.$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo nogit)
dist=$work/dist
echo "== scripts/release.sh --version $version $vsix"
"$repo/scripts/release.sh" --out "$dist" --version "$version" $vsix || die "scripts/release.sh failed"

# 1. what was made
(cd "$dist" && sha256sum -c --quiet SHA256SUMS)
result $? "SHA256SUMS verifies"

# hexat FILE OFFSET COUNT: COUNT bytes at OFFSET as lowercase hex.
hexat() { od -An -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'; }
# format FILE: elf-amd64, elf-arm64, macho-amd64, macho-arm64, pe-amd64, pe-arm64 or unknown.
format() {
  local f=$1 pe
  case "$(hexat "$f" 0 4)" in
    7f454c46)
      case "$(hexat "$f" 18 2)" in 3e00) echo elf-amd64 ;; b700) echo elf-arm64 ;; *) echo unknown ;; esac ;;
    cffaedfe)
      case "$(hexat "$f" 4 4)" in 07000001) echo macho-amd64 ;; 0c000001) echo macho-arm64 ;; *) echo unknown ;; esac ;;
    4d5a*)
      pe=$((0x$(hexat "$f" 63 1)$(hexat "$f" 62 1)$(hexat "$f" 61 1)$(hexat "$f" 60 1)))
      if [ "$(hexat "$f" "$pe" 4)" = 50450000 ]; then
        case "$(hexat "$f" $((pe + 4)) 2)" in 6486) echo pe-amd64 ;; 64aa) echo pe-arm64 ;; *) echo unknown ;; esac
      else
        echo unknown
      fi ;;
    *) echo unknown ;;
  esac
}
declare -A vscode=([linux/amd64]=linux-x64 [linux/arm64]=linux-arm64 [darwin/amd64]=darwin-x64
  [darwin/arm64]=darwin-arm64 [windows/amd64]=win32-x64 [windows/arm64]=win32-arm64)
declare -A kind=([linux]=elf [darwin]=macho [windows]=pe)
for t in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  goos=${t%/*} goarch=${t#*/}
  name=wymcp-ls_${version}_${goos}_${goarch}
  exe=wymcp-ls
  [ "$goos" = windows ] && exe=wymcp-ls.exe
  x=$work/x/$t
  mkdir -p "$x"
  if [ "$goos" = windows ]; then
    unzip -q "$dist/$name.zip" -d "$x" && x=$x/$name && got=$(cd "$x" && find . -type f | sort | tr '\n' ' ')
  else
    tar -C "$x" -xzf "$dist/$name.tar.gz" && x=$x/$name && got=$(cd "$x" && find . -type f | sort | tr '\n' ' ')
  fi
  want="./README.md ./$exe "
  [ -f "$repo/LICENSE" ] && want="./LICENSE $want"
  f=$(format "$x/$exe" 2>/dev/null)
  [ "${got:-}" = "$want" ] && [ "$f" = "${kind[$goos]}-$goarch" ]
  result $? "$t archive holds ${want% }; $exe is $f"
  eval "bin_${goos}_${goarch}=\$x/\$exe"
  if [ -n "$vsix" ]; then
    v=$(ls "$dist"/wymcp-ls-"${vscode[$t]}"-*.vsix 2>/dev/null | head -1)
    if [ -n "$v" ]; then
      mkdir -p "$work/v/$t"
      unzip -q "$v" -d "$work/v/$t"
      bins=$(cd "$work/v/$t/extension" && find bin -type f | tr '\n' ' ')
      grep -q "TargetPlatform=\"${vscode[$t]}\"" "$work/v/$t/extension.vsixmanifest" &&
        [ "$bins" = "bin/$exe " ] && cmp -s "$work/v/$t/extension/bin/$exe" "$x/$exe" &&
        [ -x "$work/v/$t/extension/bin/$exe" ]
      result $? "$(basename "$v"): target ${vscode[$t]}, bin/$exe only, the archive's binary, executable"
    else
      result 1 "no wymcp-ls-${vscode[$t]}-*.vsix made"
    fi
  fi
done

# 2. the stamp (only meaningful on the machine's own platform)
native=$bin_linux_amd64
if [ "$(go env GOHOSTOS)/$(go env GOHOSTARCH)" = linux/amd64 ]; then
  v=$("$native" version 2>&1)
  case "$v" in *"$version"*) rc=0 ;; *) rc=1 ;; esac
  result $rc "\`wymcp-ls version\` prints the stamped version ($v)"
fi

# 3. the same 3 offences from the native, the arm64 (qemu) and the windows (Wine) binaries
norm() { tr -d '\r' | sed 's|\\|/|g'; }
(cd "$repo" && "$native" check testdata/example) 2>&1 | norm >"$work/native.txt"
rc=${PIPESTATUS[0]}
n=$(grep -c ': error: ' "$work/native.txt")
[ "$rc" = 1 ] && [ "$n" = 3 ] && tail -1 "$work/native.txt" | grep -q '3 offences'
result $? "native linux/amd64: exit $rc, $n offences"
cat "$work/native.txt"

emulators=1
if [ "${WYMCP_CROSS_SKIP_EMULATORS:-}" = 1 ]; then
  emulators=0
  echo "SKIP qemu and Wine runs: WYMCP_CROSS_SKIP_EMULATORS=1"
elif [ "$(id -u)" != 0 ] && { ! command -v qemu-aarch64-static >/dev/null || [ ! -x "$(sid_dir)/usr/bin/wine" ]; }; then
  emulators=0
  echo "SKIP qemu and Wine runs: not root, so qemu-user-static and the chroot's Wine cannot be installed"
fi

if [ "$emulators" = 1 ]; then
  if ! command -v qemu-aarch64-static >/dev/null; then
    echo "== apt-get install qemu-user-static"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends qemu-user-static >/dev/null 2>&1 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends qemu-user-static >/dev/null; } ||
      die "cannot install qemu-user-static"
  fi
  (cd "$repo" && qemu-aarch64-static "$bin_linux_arm64" check testdata/example) 2>&1 | norm >"$work/arm64.txt"
  rc=${PIPESTATUS[0]}
  diff -u --label native --label "linux/arm64 (qemu)" "$work/native.txt" "$work/arm64.txt" && [ "$rc" = 1 ]
  result $? "linux/arm64 under $(qemu-aarch64-static --version | head -1 | sed 's/ version / /'): exit $rc, the same output"

  if ! (sid_ensure && sid_install wine64 wine); then
    echo "SKIP the Wine run: the Debian unstable chroot with Wine could not be set up (see above); run scripts/cross-test.sh by hand"
    emulators=0
  fi
fi
if [ "$emulators" = 1 ]; then
  root=$(sid_dir)
  sid_mount
  sidwork=$(mktemp -d "$root/tmp/wymcp-cross.XXXXXX")
  in=${sidwork#"$root"}
  cp "$bin_windows_amd64" "$sidwork/wymcp-ls.exe"
  mkdir -p "$sidwork/repo/testdata" "$sidwork/wine"
  cp -r "$repo/testdata/example" "$sidwork/repo/testdata/example"
  winever=$(chroot "$root" wine --version 2>/dev/null)
  # WINEPREFIX is made on the first run (seconds); no display, no Mono/Gecko prompts.
  # wineserver is ended and waited for afterwards, so that nothing holds the
  # chroot's mounts or still writes into the prefix while it is removed.
  mkdir -p -m 0700 "$sidwork/xdg"
  chroot "$root" /usr/bin/env -i HOME="$in" PATH=/usr/bin:/bin WINEPREFIX="$in/wine" WINEDEBUG=-all \
    XDG_RUNTIME_DIR="$in/xdg" WINEDLLOVERRIDES='mscoree,mshtml=' \
    sh -c "cd $in/repo && timeout 300 wine $in/wymcp-ls.exe check testdata/example; rc=\$?; /usr/lib/wine/wineserver -k 2>/dev/null; /usr/lib/wine/wineserver -w 2>/dev/null; exit \$rc" \
    2>"$work/wine.err" | norm >"$work/windows.txt"
  rc=${PIPESTATUS[0]}
  # wine writes the program's stderr (the summary line) among its own; keep the program's lines
  grep -a -E '^(testdata/|wymcp-ls)' "$work/wine.err" | norm >>"$work/windows.txt"
  diff -u --label native --label "windows/amd64 (Wine)" <(sort "$work/native.txt") <(sort "$work/windows.txt") && [ "$rc" = 1 ]
  result $? "windows/amd64 under $winever: exit $rc, the same output"
  [ "$failed" = 0 ] || { echo "--- wine stderr:"; head -40 "$work/wine.err"; }

  # 4. the workspace and lsp tests, built for windows/amd64, under Wine in a
  # copy of the tracked tree: drive letters, backslashes and file: URIs
  # (a "file://C:/..." URI once lost its drive there, and the config beside
  # a file, folder removal and open buffers went wrong on Windows only).
  mkdir -p "$sidwork/src"
  (cd "$repo" && git ls-files -z | grep -zv '^editors/vscode/node_modules/' | xargs -0 cp --parents -t "$sidwork/src")
  for pkg in workspace lsp; do
    if ! (cd "$repo" && GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o "$sidwork/$pkg.test.exe" "./$pkg"); then
      result 1 "go test -c ./$pkg for windows/amd64"
      continue
    fi
    chroot "$root" /usr/bin/env -i HOME="$in" PATH=/usr/bin:/bin WINEPREFIX="$in/wine" WINEDEBUG=-all \
      XDG_RUNTIME_DIR="$in/xdg" WINEDLLOVERRIDES='mscoree,mshtml=' \
      sh -c "cd $in/src/$pkg && timeout 900 wine $in/$pkg.test.exe -test.timeout 600s; rc=\$?; /usr/lib/wine/wineserver -k 2>/dev/null; /usr/lib/wine/wineserver -w 2>/dev/null; exit \$rc" \
      >"$work/wine-$pkg.txt" 2>&1
    rc=$?
    grep -a -q '^PASS' "$work/wine-$pkg.txt" && [ "$rc" = 0 ]
    result $? "go test ./$pkg (windows/amd64) under $winever: exit $rc"
    [ "$rc" = 0 ] || grep -a -E '^(---|    |FAIL|panic)' "$work/wine-$pkg.txt" | head -60
  done
fi

echo "cross: $passed passed, $failed failed"
[ "$failed" = 0 ]
