#!/usr/bin/env bash
# Release build of wymcp-ls: one archive per platform, SHA256SUMS, and
# (with --vsix) one platform-specific VS Code extension per target.
#
#   scripts/release.sh [--out DIR] [--version V] [--targets "linux/amd64 ..."] [--vsix]
#
# For each target (default: linux, darwin and windows on amd64 and arm64) it
# runs `CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X <var>=<version>"`
# and packs the binary with README.md (and LICENSE when there is one), in a
# directory named like the archive, into
#   DIR/wymcp-ls_<version>_<goos>_<goarch>.tar.gz   (linux, darwin)
#   DIR/wymcp-ls_<version>_<goos>_<goarch>.zip      (windows; wymcp-ls.exe)
# then writes DIR/SHA256SUMS (sha256sum format) over every archive it made
# (and every .vsix). The version is `git describe --tags --always --dirty`
# with a leading "v" removed, "0.0.0-unknown" outside a git checkout, or
# --version / $WYMCP_VERSION. It is stamped into the variable named by
# $WYMCP_VERSION_VAR (default: main.stampedVersion in cmd/wymcp-ls, which
# `wymcp-ls version` prints when the binary carries neither a module version
# nor VCS information; see README.md "Install"). The build runs with
# -buildvcs=false, so the stamp is what a release binary reports.
# --vsix also runs editors/vscode/scripts/package-targets.mjs with the built
# binaries: DIR/wymcp-ls-<vscode-target>-<version>.vsix for linux-x64,
# linux-arm64, darwin-x64, darwin-arm64, win32-x64 and win32-arm64 (needs
# Node and `npm ci` in editors/vscode; it runs that itself when node_modules
# is missing).
# Archives are reproducible: sorted entries, mtime of the last commit,
# owner 0, gzip without a name or time stamp.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/dist
version=${WYMCP_VERSION:-}
targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
vsix=0
version_var=${WYMCP_VERSION_VAR:-main.stampedVersion}

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "release.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --version) [ $# -ge 2 ] || die "--version needs a value"; version=$2; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --targets) [ $# -ge 2 ] || die "--targets needs a list"; targets=$2; shift 2 ;;
    --targets=*) targets=${1#--targets=}; shift ;;
    --vsix) vsix=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument $1 (try --help)" ;;
  esac
done

command -v go >/dev/null || die "go not found on PATH"
if [ -z "$version" ]; then
  version=$(git -C "$repo" describe --tags --always --dirty 2>/dev/null || true)
  version=${version:-0.0.0-unknown}
fi
version=${version#v}
case "$version" in
  *[!A-Za-z0-9._+-]*) die "version \"$version\" has characters other than A-Z a-z 0-9 . _ + -" ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Reproducible archive times: the last commit's time, else the epoch.
epoch=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)
extras=(README.md)
[ -f "$repo/LICENSE" ] && extras+=(LICENSE)

# mkzip ZIP PARENT NAME: zips the directory PARENT/NAME (sorted entries) into ZIP.
mkzip() {
  local zip=$1 parent=$2 name=$3
  if command -v zip >/dev/null; then
    (cd "$parent" && find "$name" | LC_ALL=C sort | TZ=UTC zip -q -X -@ "$zip")
  elif command -v python3 >/dev/null; then
    python3 - "$zip" "$parent" "$name" <<'PY'
import os, sys, zipfile
zpath, parent, name = sys.argv[1:4]
with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(parent, name), name)
    for f in sorted(os.listdir(os.path.join(parent, name))):
        z.write(os.path.join(parent, name, f), name + "/" + f)
PY
  else
    die "neither zip nor python3 found to make $zip (apt-get install zip)"
  fi
}

stage=$(mktemp -d "${TMPDIR:-/tmp}/wymcp-release.XXXXXX")
trap 'rm -rf "$stage"' EXIT

made=()
echo "wymcp-ls $version -> $out (stamp: -X $version_var)"
for t in $targets; do
  goos=${t%/*}
  goarch=${t#*/}
  [ -n "$goos" ] && [ -n "$goarch" ] && [ "$goos" != "$t" ] || die "target \"$t\" is not GOOS/GOARCH"
  exe=wymcp-ls
  [ "$goos" = windows ] && exe=wymcp-ls.exe
  name=wymcp-ls_${version}_${goos}_${goarch}
  dir=$stage/$name
  mkdir -p "$dir"
  (cd "$repo" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOFLAGS="${GOFLAGS:-} -buildvcs=false" \
    go build -trimpath -ldflags "-s -w -X $version_var=$version" -o "$dir/$exe" ./cmd/wymcp-ls) ||
    die "go build for $goos/$goarch failed"
  for f in "${extras[@]}"; do cp "$repo/$f" "$dir/$f"; done
  find "$dir" -exec touch -h -d "@$epoch" {} +
  if [ "$goos" = windows ]; then
    archive=$name.zip
    rm -f "$out/$archive"
    mkzip "$out/$archive" "$stage" "$name"
  else
    archive=$name.tar.gz
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
      -cf - "$name" | gzip -n -9 >"$out/$archive"
  fi
  made+=("$archive")
  echo "  $archive"
done

if [ "$vsix" = 1 ]; then
  command -v node >/dev/null || die "--vsix needs node"
  ext=$repo/editors/vscode
  [ -d "$ext/node_modules" ] || (cd "$ext" && npm ci --no-audit --no-fund >/dev/null)
  args=()
  for t in $targets; do
    goos=${t%/*}
    goarch=${t#*/}
    exe=wymcp-ls
    [ "$goos" = windows ] && exe=wymcp-ls.exe
    args+=("$goos/$goarch=$stage/wymcp-ls_${version}_${goos}_${goarch}/$exe")
  done
  while IFS= read -r f; do
    made+=("$f")
    echo "  $f"
  done < <(node "$ext/scripts/package-targets.mjs" --out "$out" --version "$version" "${args[@]}")
fi

(cd "$out" && sha256sum "${made[@]}" >SHA256SUMS)
echo "  SHA256SUMS (${#made[@]} files)"
