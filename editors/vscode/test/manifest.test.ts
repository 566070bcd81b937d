// The package.json contributions the extension depends on (editors/vscode/README.md,
// docs/architecture.md "Editors").
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

const root = path.join(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));

describe("package.json", () => {
  it("engines and pinned @types/vscode agree", () => {
    assert.equal(pkg.engines.vscode, "^1.91.0");
    assert.equal(pkg.devDependencies["@types/vscode"], "1.91.0");
    assert.equal(lock.packages["node_modules/@types/vscode"].version, "1.91.0");
    assert.match(lock.packages["node_modules/vscode-languageclient"].version, /^11\./);
    assert.match(lock.packages["node_modules/@vscode/vsce"].version, /^3\.9\./);
  });

  it("contributes elixir for .ex and .exs and activates on it", () => {
    assert.deepEqual(pkg.activationEvents, ["onLanguage:elixir"]);
    const elixir = pkg.contributes.languages.find((l: any) => l.id === "elixir");
    assert.deepEqual(elixir.extensions, [".ex", ".exs"]);
    assert.equal(pkg.main, "./dist/extension.js");
  });

  it("declares the settings", () => {
    const props = pkg.contributes.configuration.properties;
    assert.deepEqual(Object.keys(props).sort(), [
      "wymcp-ls.lints",
      "wymcp-ls.server.args",
      "wymcp-ls.server.offerGoInstall",
      "wymcp-ls.server.path",
      "wymcp-ls.trace.server",
    ]);
    assert.equal(props["wymcp-ls.server.offerGoInstall"].type, "boolean");
    assert.equal(props["wymcp-ls.server.offerGoInstall"].default, false);
    assert.equal(props["wymcp-ls.server.path"].scope, "machine-overridable");
    assert.equal(props["wymcp-ls.server.args"].items.type, "string");
    assert.deepEqual(props["wymcp-ls.trace.server"].enum, ["off", "messages", "verbose"]);
    assert.equal(props["wymcp-ls.trace.server"].default, "off");
    assert.deepEqual(Object.keys(props["wymcp-ls.lints"].properties), [
      "lint/related-unknown-action",
      "lint/default-for-required",
      "lint/unknown-type",
      "lint/unknown-keyword",
      "lint/duplicate-key",
      "lint/unknown-tool-module",
      "lint/tool-not-mounted",
      "lint/tool-name",
      "lint/action-without-clause",
      "lint/clause-without-action",
      "lint/hint-unknown-tool",
      "lint/hint-unknown-action",
      "lint/payload-undeclared-key",
      "lint/payload-missing-required",
    ]);
    assert.deepEqual(props["wymcp-ls.lints"].properties["lint/tool-not-mounted"], {
      type: "boolean",
      description:
        "hint: no mount lists the tool and no `register_tool` names it (only when the tool's folder root has a mount and every mount there could be read); at the module name",
    });
  });

  // The server accepts a switch for every code of validate.LintCodes()
  // (validate/codes.go; workspace/config.go rejects any other in
  // .wymcp-ls.yaml). The settings schema offers exactly those, in the order
  // and with the severity and "when" text of README.md's lint table.
  it("offers a wymcp-ls.lints switch for every lint code of the server, described as README.md's lint table", () => {
    const repo = path.join(root, "..", "..");
    const validateDir = path.join(repo, "validate");
    const consts = new Map<string, string>();
    for (const f of fs.readdirSync(validateDir)) {
      if (!f.endsWith(".go") || f.endsWith("_test.go")) continue;
      for (const m of fs.readFileSync(path.join(validateDir, f), "utf8").matchAll(/^\s*(Lint\w+)\s*=\s*"(lint\/[a-z-]+)"/gm)) {
        consts.set(m[1], m[2]);
      }
    }
    const codesGo = fs.readFileSync(path.join(validateDir, "codes.go"), "utf8");
    const body = /^func LintCodes\(\) map\[string\]Severity \{\n([\s\S]*?)\n\}\n/m.exec(codesGo);
    assert.ok(body, "func LintCodes in validate/codes.go");
    const server = new Map<string, string>();
    for (const m of body[1].matchAll(/^\s*(Lint\w+):\s*(\w+),/gm)) {
      assert.ok(consts.has(m[1]), `${m[1]} is a "lint/..." constant of validate/`);
      server.set(consts.get(m[1])!, m[2].toLowerCase());
    }
    assert.ok(server.size >= 14, `validate.LintCodes() read: ${server.size} codes`);

    const readme = fs.readFileSync(path.join(repo, "README.md"), "utf8");
    const table = [...readme.matchAll(/^\| `(lint\/[a-z-]+)` \| (warning|hint) \| (.*) \|$/gm)].map((m) => ({ code: m[1], severity: m[2], when: m[3] }));
    assert.deepEqual(table.map((r) => r.code).sort(), [...server.keys()].sort(), "README.md's lint table lists the codes of validate.LintCodes()");
    for (const r of table) {
      assert.equal(r.severity, server.get(r.code), `${r.code}: README.md and validate/codes.go agree on the severity`);
    }

    const lints = pkg.contributes.configuration.properties["wymcp-ls.lints"];
    assert.deepEqual(
      lints.properties,
      Object.fromEntries(table.map((r) => [r.code, { type: "boolean", description: `${r.severity}: ${r.when}` }])),
    );
    assert.deepEqual(lints.additionalProperties, { type: "boolean" });
  });

  it("keeps server path and args out of untrusted workspaces", () => {
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, [
      "wymcp-ls.server.path",
      "wymcp-ls.server.args",
    ]);
  });

  it("has the restart command and the fixed npm entry points", () => {
    const titles = pkg.contributes.commands.map((c: any) => `${c.category}: ${c.title}`);
    assert.ok(titles.includes("wymcp-ls: Restart Server"));
    assert.equal(pkg.contributes.commands.find((c: any) => c.title === "Restart Server").command, "wymcp-ls.restartServer");
    for (const s of ["test", "package"]) {
      assert.ok(pkg.scripts[s], s);
    }
  });

  it("is MIT-licensed and packages the repository's LICENSE", () => {
    assert.equal(pkg.license, "MIT");
    assert.doesNotMatch(pkg.scripts.package, /--skip-license/);
    assert.match(pkg.scripts.package, /^node scripts\/copy-license\.mjs && vsce package /);
    const ignore = fs.readFileSync(path.join(root, ".vscodeignore"), "utf8").split("\n");
    assert.ok(ignore.includes("!LICENSE"), ".vscodeignore keeps LICENSE in the .vsix");
    assert.match(fs.readFileSync(path.join(root, "..", "..", "LICENSE"), "utf8"), /^MIT License\n\nCopyright \(c\) 2026 The wymcp-ls authors\n/);
  });
});
