#!/usr/bin/env bash
# CI for the editor integrations (called by .ci/run; root, CI=true, fresh clone):
# installs what the stable tests need (Debian's neovim, the extension's npm
# packages), then runs the VS Code extension unit tests, packages the .vsix
# and runs the Neovim 0.7 end-to-end test against the real server
# ($WYMCP_LS, or built by the test). The Debian-unstable tests
# (neovim/test.sh --sid, helix/test.sh) and vscode/test/e2e-code-server.sh
# depend on outside archives and are run by hand, not here.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

if ! command -v nvim >/dev/null; then
  echo "== installing Debian's neovim"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends neovim >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y --no-install-recommends neovim >/dev/null; }
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
