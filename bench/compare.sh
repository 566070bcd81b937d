#!/usr/bin/env bash
# Side-by-side benchmark of wymcp-ls and yaml-language-server on the same
# schema content (docs/architecture.md "Performance targets"). Runnable from a clean clone; needs go,
# node and npm. Installs yaml-language-server into bench/.cache (gitignored),
# builds wymcp-ls and the LSP driver, and prints the comparison table.
# Extra arguments go to the driver, e.g. `bench/compare.sh -rounds 9 -edits 100`
# (see `go run ./bench/lspbench -h`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cache="$here/.cache"
# 1.25.0 runs on Node 20 (this machine's); 2.x needs Node >= 22.13.
yls_version="${YLS_VERSION:-1.25.0}"

for tool in go node npm; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool not found on PATH" >&2; exit 2; }
done

mkdir -p "$cache/bin"
yls="$cache/node_modules/yaml-language-server"
installed="$(node -p "try { require('$yls/package.json').version } catch (e) { '' }")"
if [ "$installed" != "$yls_version" ]; then
  echo "== installing yaml-language-server@$yls_version into $cache"
  npm install --prefix "$cache" --no-audit --no-fund --loglevel=error \
    "yaml-language-server@$yls_version" >&2
fi

echo "== building wymcp-ls and lspbench"
(cd "$root" && go build -o "$cache/bin/wymcp-ls" ./cmd/wymcp-ls \
            && go build -o "$cache/bin/lspbench" ./bench/lspbench)

echo "== node $(node --version), yaml-language-server $(node "$yls/bin/yaml-language-server" --version), $(go version | cut -d' ' -f3), $(nproc) cores"
rm -rf "$cache/work"
exec "$cache/bin/lspbench" \
  -wymcp "$cache/bin/wymcp-ls" \
  -yaml "$yls/bin/yaml-language-server" \
  -node "$(command -v node)" \
  -work "$cache/work" \
  "$@"
