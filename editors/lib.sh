# shellcheck shell=bash
# Shared helpers of the editor end-to-end tests; sourced, not run.
# Provides: die, server_binary DIR, sid_dir, sid_ensure, sid_install PKG..., sid_mount, sid_umount.

EDITORS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$EDITORS_DIR/.." && pwd)

die() {
  echo "error: $*" >&2
  exit 2
}

# server_binary DIR: prints the path of the wymcp-ls binary to test: $WYMCP_LS
# when set (it must be executable), else a fresh `go build` into DIR.
server_binary() {
  if [ -n "${WYMCP_LS:-}" ]; then
    [ -x "$WYMCP_LS" ] || die "WYMCP_LS=$WYMCP_LS is not an executable file"
    (cd "$(dirname "$WYMCP_LS")" && printf '%s/%s\n' "$(pwd)" "$(basename "$WYMCP_LS")")
    return
  fi
  command -v go >/dev/null || die "go not found: install Go or set WYMCP_LS to a wymcp-ls binary"
  (cd "$REPO_DIR" && go build -o "$1/wymcp-ls" ./cmd/wymcp-ls) >&2 || die "go build ./cmd/wymcp-ls failed"
  printf '%s\n' "$1/wymcp-ls"
}

# sid_dir: the Debian unstable chroot with neovim and hx
# ($WYMCP_SID_CHROOT, default $XDG_CACHE_HOME/wymcp-ls/sid or ~/.cache/wymcp-ls/sid).
sid_dir() {
  printf '%s\n' "${WYMCP_SID_CHROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/wymcp-ls/sid}"
}

# sid_ensure: creates the chroot once (root only; a few minutes, ~300 MB):
# debootstrap --variant=minbase --include=neovim,hx sid DIR.
sid_ensure() {
  local dir
  dir=$(sid_dir)
  if [ -x "$dir/usr/bin/nvim" ] && [ -x "$dir/usr/bin/hx" ]; then
    return
  fi
  [ "$(id -u)" = 0 ] || die "creating the sid chroot needs root (debootstrap, chroot, mount)"
  if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap >&2 ||
      { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap >&2; } ||
      die "cannot install debootstrap"
  fi
  echo "creating the Debian unstable chroot in $dir (debootstrap, a few minutes)" >&2
  rm -rf "$dir.tmp"
  mkdir -p "$(dirname "$dir")"
  debootstrap --variant=minbase --include=neovim,hx sid "$dir.tmp" >&2 || die "debootstrap failed (see above)"
  rm -rf "$dir"
  mv "$dir.tmp" "$dir"
}

# sid_install PKG...: installs the Debian unstable packages not yet
# installed in the chroot (root; apt inside the chroot, no recommends). The chroot's package lists come from debootstrap's mirror,
# whose Release file may be past its Valid-Until here: that check is off.
sid_install() {
  local dir p need=()
  dir=$(sid_dir)
  for p in "$@"; do
    chroot "$dir" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
  done
  [ ${#need[@]} -gt 0 ] || return 0
  [ "$(id -u)" = 0 ] || die "installing ${need[*]} into the sid chroot needs root"
  echo "installing ${need[*]} into the Debian unstable chroot $dir (once; minutes)" >&2
  # mounts only for the install, and only what was not mounted already
  local before=${#SID_MOUNTED[@]} rc=0 i
  sid_mount
  chroot "$dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    apt-get -o Acquire::Check-Valid-Until=false update -qq >&2 || true
  chroot "$dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    apt-get -o Acquire::Check-Valid-Until=false install -y --no-install-recommends "${need[@]}" >&2 || rc=$?
  for ((i = 0; i < ${#SID_MOUNTED[@]} - before; i++)); do
    umount "${SID_MOUNTED[i]}" 2>/dev/null || umount -l "${SID_MOUNTED[i]}" 2>/dev/null || true
  done
  SID_MOUNTED=("${SID_MOUNTED[@]:${#SID_MOUNTED[@]}-before}")
  [ "$rc" = 0 ] || die "apt-get install ${need[*]} in the sid chroot failed (see above)"
}

# sid_mount / sid_umount: /proc (Helix needs it), /dev and /dev/pts (tmux
# terminals) inside the chroot; only what this process mounted is unmounted.
SID_MOUNTED=()
sid_mount() {
  local dir m
  dir=$(sid_dir)
  for m in proc dev dev/pts; do
    mkdir -p "$dir/$m"
    if ! mountpoint -q "$dir/$m"; then
      if [ "$m" = proc ]; then
        mount -t proc proc "$dir/proc"
      else
        mount --bind "/$m" "$dir/$m"
      fi
      SID_MOUNTED=("$dir/$m" "${SID_MOUNTED[@]}")
    fi
  done
}
sid_umount() {
  local m
  for m in "${SID_MOUNTED[@]}"; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
  SID_MOUNTED=()
}
