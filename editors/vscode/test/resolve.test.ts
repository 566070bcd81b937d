import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";

import {
  bundledPath,
  defaultIsExecutable,
  expandSetting,
  INSTALL_COMMAND,
  resolveServer,
  type ResolveInput,
  searchPath,
} from "../src/resolve";

const EXT = "/ext";
const BUNDLED = "/ext/bin/linux-x64/wymcp-ls";

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
      name: "bundled binary of another arch is not used",
      execs: ["/ext/bin/linux-arm64/wymcp-ls", "/usr/bin/wymcp-ls"],
      want: { command: "/usr/bin/wymcp-ls", source: "path" },
    },
    {
      name: "darwin arm64 bundled directory",
      execs: ["/ext/bin/darwin-arm64/wymcp-ls"],
      over: { platform: "darwin", arch: "arm64" },
      want: { command: "/ext/bin/darwin-arm64/wymcp-ls", source: "bundled" },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(resolveServer(input(c.execs, c.over)), c.want);
    });
  }
});

describe("resolveServer not found", () => {
  it("names the install command when nothing is found", () => {
    assert.deepEqual(resolveServer(input([])), {
      command: undefined,
      reason: "none",
      message:
        'wymcp-ls: the server binary was not found (not set in "wymcp-ls.server.path", not bundled for linux-x64, ' +
        "not on PATH). Install it with: go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest",
    });
  });
  it("a missing configured binary does not fall through to bundled or PATH", () => {
    const got = resolveServer(input([BUNDLED, "/usr/bin/wymcp-ls"], { settingPath: "/nope/wymcp-ls" }));
    assert.deepEqual(got, {
      command: undefined,
      reason: "setting-missing",
      message:
        'wymcp-ls: the server binary set in "wymcp-ls.server.path" (/nope/wymcp-ls) does not exist or is not executable. ' +
        "Fix the setting, or clear it and install the server with: " +
        INSTALL_COMMAND,
    });
  });
  it("the install command is the go install line", () => {
    assert.equal(INSTALL_COMMAND, "go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest");
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
  it("tries PATHEXT extensions on win32", () => {
    const seen: string[] = [];
    const got = searchPath("wymcp-ls.exe", { Path: "/w", PATHEXT: ".COM;.EXE" }, "win32", (p) => {
      seen.push(p);
      return p === "/w/wymcp-ls.EXE";
    });
    assert.equal(got, "/w/wymcp-ls.EXE");
    assert.deepEqual(seen, ["/w/wymcp-ls", "/w/wymcp-ls.COM", "/w/wymcp-ls.EXE"]);
  });
  it("no PATH at all finds nothing", () => {
    assert.equal(searchPath("wymcp-ls", {}, "linux", () => true), undefined);
  });
});

describe("helpers", () => {
  it("bundledPath layout", () => {
    assert.equal(bundledPath("/ext", "linux", "x64"), "/ext/bin/linux-x64/wymcp-ls");
    assert.equal(bundledPath("/ext", "win32", "x64"), path.join("/ext", "bin", "win32-x64", "wymcp-ls.exe"));
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
