import "./mocks/install";

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";

import {
  activate,
  CLIENT_ID,
  COPY_BUILD,
  COPY_GO_INSTALL,
  configurationMiddleware,
  Controller,
  deactivate,
  DOCUMENT_SELECTOR,
  OPEN_SETTINGS,
  RESTART_COMMAND,
  SHOW_OUTPUT_COMMAND,
} from "../src/extension";
import { BUILD_COMMAND_LINE, GO_INSTALL_COMMAND, howToGet } from "../src/resolve";
import { changeConfiguration, reset, state } from "./mocks/state";

let dir: string;
let savedPath: string | undefined;

function exe(rel: string): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, "#!/bin/sh\n", { mode: 0o755 });
  return p;
}

function ctx(extensionPath: string): any {
  return { extensionPath, subscriptions: [] as Array<{ dispose(): void }> };
}

const tick = () => new Promise((r) => setImmediate(r));

beforeEach(() => {
  reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wymcp-ext-"));
  savedPath = process.env.PATH;
  process.env.PATH = path.join(dir, "empty-path");
});

afterEach(async () => {
  await deactivate();
  process.env.PATH = savedPath;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("activate", () => {
  it("starts the configured binary over stdio with the user's args", async () => {
    const bin = exe("custom/wymcp-ls");
    state.settings.set("wymcp-ls.server.path", bin);
    state.settings.set("wymcp-ls.server.args", ["--log-level", "debug", 7]);
    const context = ctx(path.join(dir, "ext"));
    await activate(context);

    assert.equal(state.clients.length, 1);
    const c = state.clients[0];
    assert.equal(c.id, CLIENT_ID);
    assert.equal(c.id, "wymcp-ls");
    assert.equal(c.started, 1);
    const want = { command: bin, args: ["--log-level", "debug"], transport: 0 /* TransportKind.stdio */ };
    assert.deepEqual(c.serverOptions, { run: want, debug: want });
    assert.deepEqual(c.clientOptions.documentSelector, [
      { scheme: "file", language: "elixir" },
      { scheme: "untitled", language: "elixir" },
    ]);
    assert.equal(c.clientOptions.outputChannel.name, "wymcp-ls");
    assert.equal(c.clientOptions.traceOutputChannel, c.clientOptions.outputChannel);
    assert.deepEqual([...state.commands.keys()].sort(), [RESTART_COMMAND, SHOW_OUTPUT_COMMAND]);
    assert.equal(RESTART_COMMAND, "wymcp-ls.restartServer");
    assert.ok(state.logLines.includes(`wymcp-ls info starting ${bin} (setting) with args ["--log-level","debug","--stdio"]`));
    assert.deepEqual(state.shown, []);
    assert.equal(context.subscriptions.length, 5);
  });

  it("uses the bundled binary before PATH", async () => {
    const ext = path.join(dir, "ext");
    const bundled = exe("ext/bin/wymcp-ls");
    exe("onpath/wymcp-ls");
    process.env.PATH = path.join(dir, "onpath");
    await activate(ctx(ext));
    assert.equal(state.clients[0].serverOptions.run.command, bundled);
  });

  it("falls back to PATH", async () => {
    const onPath = exe("onpath/wymcp-ls");
    process.env.PATH = `${path.join(dir, "nothing")}:${path.join(dir, "onpath")}`;
    await activate(ctx(path.join(dir, "ext")));
    assert.equal(state.clients[0].serverOptions.run.command, onPath);
    assert.deepEqual(state.clients[0].serverOptions.run.args, []);
  });
});

describe("binary not found", () => {
  it("shows one notification with the setting and the build commands and starts no client", async () => {
    const ctl = await activate(ctx(path.join(dir, "ext")));
    assert.equal(state.clients.length, 0);
    assert.equal(state.shown.length, 1);
    assert.equal(state.shown[0].kind, "error");
    assert.ok(state.shown[0].text.endsWith(`not on PATH). ${howToGet(false)}`), state.shown[0].text);
    assert.ok(!state.shown[0].text.includes("@latest"), state.shown[0].text);
    assert.deepEqual(state.shown[0].items, ["Set Server Path", "Copy Build Commands"]);

    // Further automatic starts (e.g. a settings change to args) stay quiet: no crash loop of popups.
    assert.equal(await ctl.start(), false);
    assert.equal(state.shown.length, 1);

    // An explicit restart reports again.
    await state.commands.get(RESTART_COMMAND)!();
    assert.equal(state.shown.length, 2);
    assert.equal(state.clients.length, 0);
  });

  it("Copy Build Commands puts the clone-and-build line on the clipboard", async () => {
    state.pick = COPY_BUILD;
    await activate(ctx(path.join(dir, "ext")));
    await tick();
    assert.equal(state.clipboard, BUILD_COMMAND_LINE);
    assert.equal(state.clipboard, "git clone https://github.com/wymcp/wymcp-ls && cd wymcp-ls && go install ./cmd/wymcp-ls");
  });

  it("Set Server Path opens the wymcp-ls.server.path setting", async () => {
    state.pick = OPEN_SETTINGS;
    await activate(ctx(path.join(dir, "ext")));
    await tick();
    assert.deepEqual(state.executed, [["workbench.action.openSettings", "wymcp-ls.server.path"]]);
  });

  it("go install is offered only with wymcp-ls.server.offerGoInstall", async () => {
    state.settings.set("wymcp-ls.server.offerGoInstall", true);
    state.pick = COPY_GO_INSTALL;
    await activate(ctx(path.join(dir, "ext")));
    await tick();
    assert.deepEqual(state.shown[0].items, ["Set Server Path", "Copy Build Commands", "Copy go install"]);
    assert.ok(state.shown[0].text.endsWith(`where the module is published: ${GO_INSTALL_COMMAND}`), state.shown[0].text);
    assert.equal(state.clipboard, "go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest");
  });

  it("a configured path that does not exist is reported, not replaced by PATH", async () => {
    exe("onpath/wymcp-ls");
    process.env.PATH = path.join(dir, "onpath");
    state.settings.set("wymcp-ls.server.path", "/does/not/exist/wymcp-ls");
    await activate(ctx(path.join(dir, "ext")));
    assert.equal(state.clients.length, 0);
    assert.equal(state.shown.length, 1);
    assert.match(state.shown[0].text, /"wymcp-ls\.server\.path" \(\/does\/not\/exist\/wymcp-ls\) does not exist/);
  });

  it("a server that fails to start is reported once, with the reason", async () => {
    state.settings.set("wymcp-ls.server.path", exe("bad/wymcp-ls"));
    state.startError = new Error("spawn EACCES");
    await activate(ctx(path.join(dir, "ext")));
    assert.equal(state.shown.length, 1);
    assert.match(state.shown[0].text, /^wymcp-ls: could not start .*bad\/wymcp-ls: Error: spawn EACCES$/);
  });
});

describe("restart", () => {
  it("disposes the old client and starts a new one with the current settings", async () => {
    const first = exe("a/wymcp-ls");
    const second = exe("b/wymcp-ls");
    state.settings.set("wymcp-ls.server.path", first);
    const ctl = await activate(ctx(path.join(dir, "ext")));
    state.settings.set("wymcp-ls.server.path", second);
    await state.commands.get(RESTART_COMMAND)!();
    assert.equal(state.clients.length, 2);
    assert.equal(state.clients[0].disposed, 1);
    assert.equal(state.clients[1].started, 1);
    assert.equal(state.clients[1].serverOptions.run.command, second);
    assert.equal(ctl.client?.isRunning(), true);
  });

  it("a server settings change restarts; a lints change pushes settings without restarting", async () => {
    state.settings.set("wymcp-ls.server.path", exe("a/wymcp-ls"));
    await activate(ctx(path.join(dir, "ext")));
    state.settings.set("wymcp-ls.server.args", ["--log-level", "debug"]);
    await changeConfiguration("wymcp-ls.server.args");
    assert.equal(state.clients.length, 2);
    assert.deepEqual(state.clients[1].serverOptions.run.args, ["--log-level", "debug"]);

    state.settings.set("wymcp-ls.lints", { "lint/unknown-type": false });
    await changeConfiguration("wymcp-ls.lints");
    assert.equal(state.clients.length, 2);
    assert.deepEqual(state.clients[1].notifications, [
      { method: "workspace/didChangeConfiguration", params: { settings: { wymcp: { lints: { "lint/unknown-type": false } } } } },
    ]);

    await changeConfiguration("editor.fontSize");
    assert.equal(state.clients.length, 2);
    assert.equal(state.clients[1].notifications.length, 1);
  });

  it("stop without a client and deactivate twice are harmless", async () => {
    const ctl = new Controller(path.join(dir, "ext"));
    await ctl.stop();
    await deactivate();
    await deactivate();
    assert.equal(state.clients.length, 0);
  });
});

describe("workspace/configuration middleware", () => {
  it("answers section wymcp from wymcp-ls.lints and passes other sections through", async () => {
    state.settings.set("wymcp-ls.lints", { "lint/unknown-type": false, "lint/duplicate-key": true, junk: "x" });
    state.scopedLints.set("file:///proj/lib/a.ex", { "lint/unknown-keyword": false });
    const mw = configurationMiddleware().workspace!.configuration!;
    const seen: unknown[] = [];
    const next = async (params: any) => {
      seen.push(params);
      return params.items.map((i: any) => `default:${i.section}`);
    };
    const got = await mw(
      {
        items: [
          { section: "wymcp" },
          { section: "editor" },
          { section: "wymcp", scopeUri: "file:///proj/lib/a.ex" },
          { section: "wymcp.lints.lint/unknown-type" },
        ],
      },
      {} as any,
      next as any,
    );
    assert.deepEqual(got, [
      { lints: { "lint/unknown-type": false, "lint/duplicate-key": true } },
      "default:editor",
      { lints: { "lint/unknown-keyword": false } },
      false,
    ]);
    assert.equal(seen.length, 1);
  });

  it("passes an error from the default handler on", async () => {
    const mw = configurationMiddleware().workspace!.configuration!;
    const err = { code: -32603, message: "boom" };
    const got = await mw({ items: [{ section: "wymcp" }] }, {} as any, (async () => err) as any);
    assert.equal(got, err);
  });

  it("DOCUMENT_SELECTOR is file and untitled elixir", () => {
    assert.deepEqual(DOCUMENT_SELECTOR, [
      { scheme: "file", language: "elixir" },
      { scheme: "untitled", language: "elixir" },
    ]);
  });
});
