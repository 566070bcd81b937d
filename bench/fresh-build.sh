#!/usr/bin/env bash
# bench/fresh-build.sh: how long `go build ./cmd/wymcp-ls` takes in a fresh
# clone, that is, from an empty build cache (docs/architecture.md
# "Performance targets": under 30 s on 2 cores). The module cache is kept:
# downloading is the network's time, not the build's.
#
# Usage: bench/fresh-build.sh [--floor] [RUNS]   (default 5)
# Prints each run's wall and CPU seconds, then the median wall time.
# Run it on a quiet machine; every run compiles the standard library too.
# --floor builds ./bench/buildfloor instead: a command that imports only
# the libraries the stack pins (protocol, jsonrpc2, zap, yaml), the least
# any build of the server can take on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=./cmd/wymcp-ls
if [ "${1:-}" = --floor ]; then
	pkg=./bench/buildfloor
	shift
fi
runs=${1:-5}
go mod download
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
walls=()
for i in $(seq "$runs"); do
	cache=$(mktemp -d)
	start=$(date +%s.%N)
	t0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
	GOCACHE=$cache CGO_ENABLED=0 go build -o "$out/bin" "$pkg"
	end=$(date +%s.%N)
	# CPU of the finished go command and its children (utime+stime, cutime+cstime).
	t1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
	rm -rf "$cache"
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')
	cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN {print (b - a) / hz}')
	printf 'run %d: %.1f s wall, %.1f CPU-s (%d cores)\n' "$i" "$wall" "$cpu" "$(nproc)"
	walls+=("$wall")
done
median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
printf 'median %.1f s over %d runs of go build %s (target for ./cmd/wymcp-ls: under 30 s on 2 cores)\n' "$median" "$runs" "$pkg"
