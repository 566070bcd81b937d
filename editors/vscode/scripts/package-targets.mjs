// Packages one platform-specific .vsix per VS Code target with
// `vsce package --target`, each holding its own server as bin/wymcp-ls
// (bin/wymcp-ls.exe for win32-*), where src/resolve.ts looks first after the
// wymcp-ls.server.path setting.
//
//   node scripts/package-targets.mjs [--out DIR] [--version V] [GOOS/GOARCH=BINARY ...]
//
// With no GOOS/GOARCH=BINARY arguments it builds the six servers itself
// (CGO_ENABLED=0 go build -trimpath ./cmd/wymcp-ls, needs Go); scripts/release.sh
// --vsix passes the binaries it built. Targets: linux-x64, linux-arm64,
// darwin-x64, darwin-arm64, win32-x64, win32-arm64. Writes
// DIR/wymcp-ls-<target>-<V>.vsix (DIR defaults to ./dist, V to package.json's
// version) and prints each file name, one a line, on stdout; vsce's own
// output goes to stderr. The extension directory itself is not modified:
// everything is packaged from a staged copy.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ext = resolve(here, "..");
const repo = resolve(ext, "..", "..");

/** Go's GOOS/GOARCH to VS Code's target name. */
export const TARGETS = {
  "linux/amd64": "linux-x64",
  "linux/arm64": "linux-arm64",
  "darwin/amd64": "darwin-x64",
  "darwin/arm64": "darwin-arm64",
  "windows/amd64": "win32-x64",
  "windows/arm64": "win32-arm64",
};

function die(msg) {
  process.stderr.write(`package-targets: ${msg}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let out = resolve("dist");
let version = JSON.parse(readFileSync(join(ext, "package.json"), "utf8")).version;
const given = new Map();
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--out") {
    out = resolve(args[++i] ?? die("--out needs a directory"));
  } else if (a === "--version") {
    version = args[++i] ?? die("--version needs a value");
  } else if (a.includes("=")) {
    const [goTarget, bin] = [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)];
    if (!(goTarget in TARGETS)) {
      die(`unknown target ${goTarget} (one of ${Object.keys(TARGETS).join(", ")})`);
    }
    given.set(goTarget, resolve(bin));
  } else {
    die(`unknown argument ${a}`);
  }
}
mkdirSync(out, { recursive: true });

const work = mkdtempSync(join(tmpdir(), "wymcp-vsix-"));
try {
  let binaries = given;
  if (binaries.size === 0) {
    binaries = new Map();
    for (const goTarget of Object.keys(TARGETS)) {
      const [goos, goarch] = goTarget.split("/");
      const bin = join(work, "servers", `${goos}-${goarch}`, goos === "windows" ? "wymcp-ls.exe" : "wymcp-ls");
      process.stderr.write(`go build ${goTarget}\n`);
      execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/wymcp-ls"], {
        cwd: repo,
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, CGO_ENABLED: "0", GOOS: goos, GOARCH: goarch },
      });
      binaries.set(goTarget, bin);
    }
  }

  // One staged copy of the extension, without build output or bundled servers.
  const stage = join(work, "stage");
  const skip = new Set(["node_modules", "out", "dist", "bin"]);
  cpSync(ext, stage, {
    recursive: true,
    filter: (src) => {
      const rel = src.slice(ext.length + 1);
      const top = rel.split(/[\\/]/)[0];
      return !skip.has(top) && !rel.endsWith(".vsix") && !rel.startsWith(join("test", "e2e-out"));
    },
  });
  symlinkSync(join(ext, "node_modules"), join(stage, "node_modules"), "dir");
  // The repository's LICENSE ships in every VSIX (as scripts/copy-license.mjs
  // does for `npm run package`).
  copyFileSync(join(repo, "LICENSE"), join(stage, "LICENSE"));
  const vsce = join(ext, "node_modules", "@vscode", "vsce", "vsce");

  for (const [goTarget, target] of Object.entries(TARGETS)) {
    const bin = binaries.get(goTarget);
    if (bin === undefined) {
      continue;
    }
    const name = goTarget.startsWith("windows/") ? "wymcp-ls.exe" : "wymcp-ls";
    rmSync(join(stage, "bin"), { recursive: true, force: true });
    mkdirSync(join(stage, "bin"));
    copyFileSync(bin, join(stage, "bin", name));
    chmodSync(join(stage, "bin", name), 0o755);
    const file = `wymcp-ls-${target}-${version}.vsix`;
    execFileSync(
      process.execPath,
      [vsce, "package", "--no-dependencies", "--target", target, "--out", join(out, file)],
      { cwd: stage, stdio: ["ignore", process.stderr, "inherit"] },
    );
    process.stdout.write(`${basename(file)}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
