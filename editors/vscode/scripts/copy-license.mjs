// Copies the repository's LICENSE beside package.json so that `npm run
// package` ships it in the .vsix (vsce refuses to package without one).
// The copy is build output (editors/.gitignore); the one owner is the
// repository root's LICENSE. Usage: run by `npm run package`.
import { copyFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
copyFileSync(resolve(here, "..", "..", "..", "LICENSE"), resolve(here, "..", "LICENSE"));
console.log("copied LICENSE");
