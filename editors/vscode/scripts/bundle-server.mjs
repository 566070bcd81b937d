// Builds the wymcp-ls server from this repository into
// bin/<platform>-<arch>/ so that `npm run package` ships it inside the .vsix
// (the extension prefers a bundled binary over PATH). Needs Go and a C
// compiler (tree-sitter is cgo). Usage: npm run bundle-server
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..", "..");
const name = process.platform === "win32" ? "wymcp-ls.exe" : "wymcp-ls";
const outDir = resolve(here, "..", "bin", `${process.platform}-${process.arch}`);
mkdirSync(outDir, { recursive: true });
const out = join(outDir, name);
execFileSync("go", ["build", "-trimpath", "-o", out, "./cmd/wymcp-ls"], { cwd: repo, stdio: "inherit" });
console.log(`built ${out}`);
