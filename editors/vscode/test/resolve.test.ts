import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";

import {
  BUILD_COMMAND_LINE,
  BUILD_COMMANDS,
  binaryName,
  bundledPath,
  defaultIsExecutable,
  expandSetting,
  GO_INSTALL_COMMAND,
  howToGet,
  resolveServer,
  type ResolveInput,
  searchPath,
} from "../src/resolve";

const EXT = "/ext";
const BUNDLED = "/ext/bin/wymcp-ls";
const BUNDLED_EXE = "/ext/bin/wymcp-ls.exe";

function input(execs: string[], over: Partial<ResolveInput> = {}): ResolveInput {
  const set = new Set(execs);
  return {
    settingPath: "",
    extensionPath: EXT,
    platform: "linux",
    arch: "x64",
    env: { PATH: "/usr/local/bin:/usr/bin" },
    homedir: "/home/u",
    isExecutable: (p) => set.has(p),
    ...over,
  };
}

describe("resolveServer order", () => {
  const cases: Array<{ name: string; execs: string[]; over?: Partial<ResolveInput>; want: unknown }> = [
    {
      name: "setting wins over bundled and PATH",
      execs: ["/opt/wymcp-ls", BUNDLED, "/usr/bin/wymcp-ls"],
      over: { settingPath: "/opt/wymcp-ls" },
      want: { command: "/opt/wymcp-ls", source: "setting" },
    },
    {
      name: "bundled wins over PATH",
      execs: [BUNDLED, "/usr/bin/wymcp-ls"],
      want: { command: BUNDLED, source: "bundled" },
    },
    {
      name: "PATH when nothing else, first directory first",
      execs: ["/usr/local/bin/wymcp-ls", "/usr/bin/wymcp-ls"],
      want: { command: "/usr/local/bin/wymcp-ls", source: "path" },
    },
    {
      name: "PATH later directory",
      execs: ["/usr/bin/wymcp-ls"],
      want: { command: "/usr/bin/wymcp-ls", source: "path" },
    },
    {
      name: "blank setting counts as unset",
      execs: ["/usr/bin/wymcp-ls"],
      over: { settingPath: "   " },
      want: { command: "/usr/bin/wymcp-ls", source: "path" },
    },
    {
      name: "tilde in the setting is the home directory",
      execs: ["/home/u/go/bin/wymcp-ls"],
      over: { settingPath: "~/go/bin/wymcp-ls" },
      want: { command: "/home/u/go/bin/wymcp-ls", source: "setting" },
    },
    {
      name: "relative setting resolves against the workspace folder",
      execs: ["/proj/tools/wymcp-ls"],
      over: { settingPath: "tools/wymcp-ls", workspaceFolder: "/proj" },
      want: { command: "/proj/tools/wymcp-ls", source: "setting" },
    },
    {
      name: "the old per-arch bundle directory is not looked at",
      execs: ["/ext/bin/linux-x64/wymcp-ls", "/usr/bin/wymcp-ls"],
      want: { command: "/usr/bin/wymcp-ls", source: "path" },
    },
    {
      name: "darwin arm64 package: bin/wymcp-ls",
      execs: [BUNDLED],
      over: { platform: "darwin", arch: "arm64" },
      want: { command: BUNDLED, source: "bundled" },
    },
    {
      name: "linux arm64 package: bin/wymcp-ls",
      execs: [BUNDLED, "/usr/bin/wymcp-ls"],
      over: { arch: "arm64" },
      want: { command: BUNDLED, source: "bundled" },
    },
    {
      name: "win32 x64 package: bin/wymcp-ls.exe",
      execs: [BUNDLED_EXE, "/w/wymcp-ls.exe"],
      over: { platform: "win32", env: { Path: "/w" } },
      want: { command: BUNDLED_EXE, source: "bundled" },
    },
    {
      name: "win32 arm64 package: bin/wymcp-ls.exe",
      execs: [BUNDLED_EXE],
      over: { platform: "win32", arch: "arm64", env: {} },
      want: { command: BUNDLED_EXE, source: "bundled" },
    },
    {
      name: "win32 ignores a bin/wymcp-ls without .exe and finds wymcp-ls.exe on Path",
      execs: [BUNDLED, "/w/wymcp-ls.exe"],
      over: { platform: "win32", env: { Path: "/v;/w" } },
      want: { command: "/w/wymcp-ls.exe", source: "path" },
    },
    {
      name: "win32 setting naming an .exe",
      execs: ["C:/tools/wymcp-ls.exe", BUNDLED_EXE],
      over: { platform: "win32", settingPath: "C:/tools/wymcp-ls.exe" },
      want: { command: "C:/tools/wymcp-ls.exe", source: "setting" },
    },
    {
      name: "linux ignores a bin/wymcp-ls.exe",
      execs: [BUNDLED_EXE],
      want: {
        command: undefined,
        reason: "none",
        message:
          'wymcp-ls: the server binary was not found (not set in "wymcp-ls.server.path", not bundled for linux-x64, ' +
          `not on PATH). ${howToGet(false)}`,
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(resolveServer(input(c.execs, c.over)), c.want);
    });
  }
});

describe("resolveServer not found", () => {
  it("offers the setting and the build-from-a-clone commands, not go install", () => {
    assert.deepEqual(resolveServer(input([])), {
      command: undefined,
      reason: "none",
      message:
        'wymcp-ls: the server binary was not found (not set in "wymcp-ls.server.path", not bundled for linux-x64, ' +
        'not on PATH). Set "wymcp-ls.server.path" to a wymcp-ls binary, or build one from a clone (Go 1.26+): ' +
        "git clone https://github.com/wymcp/wymcp-ls, then cd wymcp-ls && go install ./cmd/wymcp-ls",
    });
  });
  it("names go install only with offerGoInstall", () => {
    const got = resolveServer(input([], { platform: "win32", arch: "arm64", offerGoInstall: true }));
    assert.deepEqual(got, {
      command: undefined,
      reason: "none",
      message:
        'wymcp-ls: the server binary was not found (not set in "wymcp-ls.server.path", not bundled for win32-arm64, ' +
        'not on PATH). Set "wymcp-ls.server.path" to a wymcp-ls binary, or build one from a clone (Go 1.26+): ' +
        "git clone https://github.com/wymcp/wymcp-ls, then cd wymcp-ls && go install ./cmd/wymcp-ls; " +
        "or, where the module is published: go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest",
    });
  });
  it("the build commands and the go install line", () => {
    assert.deepEqual(BUILD_COMMANDS, ["git clone https://github.com/wymcp/wymcp-ls", "cd wymcp-ls && go install ./cmd/wymcp-ls"]);
    assert.equal(BUILD_COMMAND_LINE, "git clone https://github.com/wymcp/wymcp-ls && cd wymcp-ls && go install ./cmd/wymcp-ls");
    assert.equal(GO_INSTALL_COMMAND, "go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest");
    assert.ok(!howToGet(false).includes("@latest"));
  });
  it("a missing configured binary does not fall through to bundled or PATH", () => {
    const got = resolveServer(input([BUNDLED, "/usr/bin/wymcp-ls"], { settingPath: "/nope/wymcp-ls" }));
    assert.deepEqual(got, {
      command: undefined,
      reason: "setting-missing",
      message:
        'wymcp-ls: the server binary set in "wymcp-ls.server.path" (/nope/wymcp-ls) does not exist or is not executable. ' +
        "Fix the setting, or clear it to use the bundled server or the one on PATH.",
    });
  });
});

describe("searchPath", () => {
  it("skips empty PATH entries (never the current directory)", () => {
    const seen: string[] = [];
    const got = searchPath("wymcp-ls", { PATH: ":/a::/b:" }, "linux", (p) => {
      seen.push(p);
      return false;
    });
    assert.equal(got, undefined);
    assert.deepEqual(seen, ["/a/wymcp-ls", "/b/wymcp-ls"]);
  });
  it("tries wymcp-ls.exe, then the other PATHEXT extensions, on win32", () => {
    const seen: string[] = [];
    const got = searchPath("wymcp-ls.exe", { Path: "/v;/w", PATHEXT: ".COM;.EXE;.CMD" }, "win32", (p) => {
      seen.push(p);
      return p === "/w/wymcp-ls.CMD";
    });
    assert.equal(got, "/w/wymcp-ls.CMD");
    assert.deepEqual(seen, [
      "/v/wymcp-ls.exe",
      "/v/wymcp-ls.COM",
      "/v/wymcp-ls.CMD",
      "/w/wymcp-ls.exe",
      "/w/wymcp-ls.COM",
      "/w/wymcp-ls.CMD",
    ]);
  });
  it("never takes an extension-less file on win32", () => {
    assert.equal(searchPath("wymcp-ls.exe", { Path: "/w" }, "win32", (p) => p === "/w/wymcp-ls"), undefined);
  });
  it("no PATH at all finds nothing", () => {
    assert.equal(searchPath("wymcp-ls", {}, "linux", () => true), undefined);
  });
});

describe("helpers", () => {
  it("bundledPath layout", () => {
    assert.equal(bundledPath("/ext", "linux"), "/ext/bin/wymcp-ls");
    assert.equal(bundledPath("/ext", "darwin"), "/ext/bin/wymcp-ls");
    assert.equal(bundledPath("/ext", "win32"), path.join("/ext", "bin", "wymcp-ls.exe"));
    assert.equal(binaryName("win32"), "wymcp-ls.exe");
    assert.equal(binaryName("linux"), "wymcp-ls");
  });
  it("expandSetting", () => {
    assert.equal(expandSetting("~", "/h"), "/h");
    assert.equal(expandSetting(" ~/x ", "/h"), "/h/x");
    assert.equal(expandSetting("x/y", "/h"), "x/y");
    assert.equal(expandSetting("x/y", "/h", "/w"), "/w/x/y");
    assert.equal(expandSetting("/abs", "/h", "/w"), "/abs");
  });
  it("defaultIsExecutable on real files", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wymcp-resolve-"));
    try {
      const exe = path.join(dir, "exe");
      const plain = path.join(dir, "plain");
      fs.writeFileSync(exe, "#!/bin/sh\n", { mode: 0o755 });
      fs.writeFileSync(plain, "", { mode: 0o644 });
      assert.equal(defaultIsExecutable(exe), true);
      assert.equal(defaultIsExecutable(dir), false);
      assert.equal(defaultIsExecutable(path.join(dir, "missing")), false);
      assert.equal(defaultIsExecutable(plain), false); // no x bit: not even root may run it
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
