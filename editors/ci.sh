#!/usr/bin/env bash
# CI for the editor integrations (called by .ci/run; root, CI=true, fresh clone):
# installs what the stable tests need (Debian's neovim, the extension's npm
# packages), then runs the VS Code extension unit tests, packages the .vsix
# and runs the Neovim 0.7 end-to-end test against the real server
# ($WYMCP_LS, or built by the test). The Debian-unstable tests
# (neovim/test.sh --sid, helix/test.sh) and vscode/test/e2e-code-server.sh
# are run by hand: code-server builds native modules for minutes, and with
# pull diagnostics Neovim 0.12 does not yet always get schemas.ex's
# problems (see editors/README.md "CI").
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

need=()
for tool in nvim:neovim; do
  command -v "${tool%%:*}" >/dev/null || need+=("${tool#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing Debian's ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y --no-install-recommends "${need[@]}" >/dev/null; }
fi

echo "== editors/vscode: npm ci"
cd "$here/vscode"
npm ci --no-audit --no-fund
echo "== editors/vscode: npm test"
npm test
echo "== editors/vscode: npm run package"
npm run package
test -s wymcp-ls.vsix

echo "== editors/neovim/test.sh"
"$here/neovim/test.sh"
