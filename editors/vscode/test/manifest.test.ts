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
    assert.deepEqual(Object.keys(props["wymcp-ls.lints"].properties).sort(), [
      "lint/default-for-required",
      "lint/duplicate-key",
      "lint/related-unknown-action",
      "lint/unknown-keyword",
      "lint/unknown-type",
    ]);
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
