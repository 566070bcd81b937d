// Builds the wymcp-ls server from this repository for this machine into
// bin/wymcp-ls (bin/wymcp-ls.exe on Windows), so that `npm run package`
// ships it inside the .vsix (src/resolve.ts prefers a bundled binary over
// PATH), without its symbol table and debug information (-s -w, as
// scripts/release.sh builds: about a sixth smaller; a panic's stack trace keeps
// its function names). Needs Go 1.26+ only (CGO_ENABLED=0). For the six platform-specific
// packages use `npm run package-targets` (scripts/package-targets.mjs).
// -trimpath and CGO_ENABLED=0 are another build-cache key than a plain
// `go install ./cmd/wymcp-ls`, so the first run rebuilds everything (about a
// minute on 2 cores; editors/README.md "VS Code" says so).
// Usage: npm run bundle-server
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..", "..");
const name = process.platform === "win32" ? "wymcp-ls.exe" : "wymcp-ls";
const outDir = resolve(here, "..", "bin");
mkdirSync(outDir, { recursive: true });
const out = join(outDir, name);
execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/wymcp-ls"], {
  cwd: repo,
  stdio: "inherit",
  env: { ...process.env, CGO_ENABLED: "0" },
});
console.log(`built ${out}`);
