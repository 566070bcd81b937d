#!/usr/bin/env bash
# CI for the editor integrations (called by .ci/run; root, CI=true, fresh clone):
# installs what the tests need (Debian's neovim, tmux and jq, the extension's
# npm packages), then runs the VS Code extension unit tests, packages the
# .vsix, runs the Neovim 0.7 end-to-end test against the real server
# ($WYMCP_LS, or built by the test), and, in the Debian unstable chroot
# (debootstrap once, shared with scripts/cross-test.sh), the Neovim 0.11+
# and Helix tests. When that chroot cannot be made those two are skipped
# with a message saying so. vscode/test/e2e-code-server.sh (code-server
# builds native modules for minutes) is run by hand, not here.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

need=()
for tool in nvim:neovim tmux:tmux jq:jq debootstrap:debootstrap; do
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

echo "== Debian unstable chroot (Neovim 0.11+, Helix)"
if (. "$here/lib.sh" && sid_ensure); then
  "$here/neovim/test.sh" --sid-only
  "$here/helix/test.sh"
else
  echo "SKIP editors/neovim/test.sh --sid and editors/helix/test.sh: the Debian unstable chroot could not be made (see above); run them by hand"
fi
