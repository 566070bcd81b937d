// The VS Code side of wymcp-ls: starts the server for Elixir documents,
// passes the lint switches through workspace/configuration, and offers a
// restart command. See ../README.md for the settings.

import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  type Middleware,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import { ListingPreviews, listingMiddleware, PREVIEW_SCHEME } from "./listing";
import { BUILD_COMMAND_LINE, GO_INSTALL_COMMAND, type NotFound, type Resolved, resolveServer } from "./resolve";
import { answerSection, cleanLints, type Lints, SERVER_SECTION, serverSettings } from "./settings";

/** The client id; also the settings prefix, so `wymcp-ls.trace.server` is read by the client itself. */
export const CLIENT_ID = "wymcp-ls";
/** Name of the output channel and of the client in VS Code's UI. */
export const CLIENT_NAME = "wymcp-ls";
/** Command id of "wymcp-ls: Restart Server". */
export const RESTART_COMMAND = "wymcp-ls.restartServer";
/** Command id of "wymcp-ls: Show Output". */
export const SHOW_OUTPUT_COMMAND = "wymcp-ls.showOutput";
/** Button labels of the not-found notification. */
export const OPEN_SETTINGS = "Set Server Path";
export const COPY_BUILD = "Copy Build Commands";
/** Offered only with `wymcp-ls.server.offerGoInstall` on (the module must be published first). */
export const COPY_GO_INSTALL = "Copy go install";

/** The documents the server is started for: Elixir files on disk and unsaved Elixir buffers. */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "elixir" },
  { scheme: "untitled", language: "elixir" },
];

/**
 * The server launch description: command with the user's args over stdio.
 * With TransportKind.stdio the client appends `--stdio` to args itself.
 */
export function serverOptions(command: string, args: readonly string[]): ServerOptions {
  const exe = { command, args: [...args], transport: TransportKind.stdio };
  return { run: exe, debug: exe };
}

/** Reads the `wymcp-ls.lints` switches for scopeUri (a resource URI string) or the window. */
export function readLints(scopeUri?: string): Lints {
  const scope = scopeUri !== undefined ? vscode.Uri.parse(scopeUri) : undefined;
  return cleanLints(vscode.workspace.getConfiguration(CLIENT_ID, scope).get("lints"));
}

/**
 * The middleware answering `workspace/configuration` items for section
 * `wymcp` (and `wymcp.lints[.<code>]`) from `wymcp-ls.lints`; other items go
 * to VS Code's default handler.
 */
export function configurationMiddleware(): Middleware {
  return {
    workspace: {
      configuration: async (params, token, next) => {
        const result = await next(params, token);
        if (!Array.isArray(result)) {
          return result; // a ResponseError: pass it on
        }
        return params.items.map((item, i) => {
          const ours = answerSection(item.section, readLints(item.scopeUri));
          return ours.handled ? ours.value : result[i];
        });
      },
    },
  };
}

/**
 * The client options: selector, output channel, configuration middleware,
 * and the middleware opening `wymcp.showListing` results in previews.
 */
export function clientOptions(output: vscode.LogOutputChannel, previews = new ListingPreviews()): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    traceOutputChannel: output,
    middleware: { ...configurationMiddleware(), ...listingMiddleware(previews) },
  };
}

/**
 * Owns the one LanguageClient of the window: resolves the binary, starts,
 * stops and restarts it, and reports a missing binary once.
 */
export class Controller implements vscode.Disposable {
  /** The running (or starting) client, if any. */
  client: LanguageClient | undefined;
  /** The last resolution result. */
  resolved: Resolved | NotFound | undefined;
  /** The read-only JSON previews of `wymcp.showListing` results. */
  readonly previews = new ListingPreviews();
  private readonly output: vscode.LogOutputChannel;
  private notFoundShown = false;

  constructor(private readonly extensionPath: string) {
    this.output = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  }

  /** The output channel (server stderr, traces, the extension's own lines). */
  get channel(): vscode.LogOutputChannel {
    return this.output;
  }

  /**
   * Resolves the binary and starts the client. Returns false (after at most
   * one notification per Controller, or one per explicit restart) when no
   * binary is found or the server cannot be started.
   */
  async start(): Promise<boolean> {
    const cfg = vscode.workspace.getConfiguration(CLIENT_ID);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const found = resolveServer({
      settingPath: cfg.get<string>("server.path") ?? "",
      extensionPath: this.extensionPath,
      workspaceFolder: folder,
      platform: process.platform,
      arch: process.arch,
      env: process.env,
      offerGoInstall: cfg.get<boolean>("server.offerGoInstall") === true,
    });
    this.resolved = found;
    if (found.command === undefined) {
      this.output.error(found.message);
      if (!this.notFoundShown) {
        this.notFoundShown = true;
        void this.notifyNotFound(found);
      }
      return false;
    }
    const args = (cfg.get<unknown[]>("server.args") ?? []).filter((a): a is string => typeof a === "string");
    this.output.info(`starting ${found.command} (${found.source}) with args ${JSON.stringify([...args, "--stdio"])}`);
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(found.command, args), clientOptions(this.output, this.previews));
    this.client = client;
    try {
      await client.start();
      return true;
    } catch (err) {
      this.output.error(`could not start ${found.command}: ${String(err)}`);
      void vscode.window.showErrorMessage(`wymcp-ls: could not start ${found.command}: ${String(err)}`);
      return false;
    }
  }

  /** Stops and disposes the client, if any; errors from a dead server are logged, not thrown. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    try {
      await client.dispose();
    } catch (err) {
      this.output.warn(`stopping the server: ${String(err)}`);
    }
  }

  /** Stops the client and starts a fresh one, re-reading the settings; a missing binary is reported again. */
  async restart(): Promise<boolean> {
    await this.stop();
    this.notFoundShown = false;
    return this.start();
  }

  /** Pushes the current lint switches to the running server (`workspace/didChangeConfiguration`). */
  async pushSettings(): Promise<void> {
    if (this.client === undefined || !this.client.isRunning()) {
      return;
    }
    await this.client.sendNotification("workspace/didChangeConfiguration", {
      settings: { [SERVER_SECTION]: serverSettings(readLints()) },
    });
  }

  /**
   * The not-found notification: "Set Server Path" opens the
   * `wymcp-ls.server.path` setting, "Copy Build Commands" copies the
   * build-from-a-clone line; "Copy go install" only with
   * `wymcp-ls.server.offerGoInstall` on.
   */
  private async notifyNotFound(found: NotFound): Promise<void> {
    const items = [OPEN_SETTINGS, COPY_BUILD];
    if (vscode.workspace.getConfiguration(CLIENT_ID).get<boolean>("server.offerGoInstall") === true) {
      items.push(COPY_GO_INSTALL);
    }
    const pick = await vscode.window.showErrorMessage(found.message, ...items);
    if (pick === COPY_BUILD) {
      await vscode.env.clipboard.writeText(BUILD_COMMAND_LINE);
    } else if (pick === COPY_GO_INSTALL) {
      await vscode.env.clipboard.writeText(GO_INSTALL_COMMAND);
    } else if (pick === OPEN_SETTINGS) {
      await vscode.commands.executeCommand("workbench.action.openSettings", "wymcp-ls.server.path");
    }
  }

  dispose(): void {
    void this.stop();
    this.output.dispose();
  }
}

let controller: Controller | undefined;

/** Activates on the first Elixir document: registers the commands and starts the server. */
export async function activate(context: vscode.ExtensionContext): Promise<Controller> {
  const ctl = new Controller(context.extensionPath);
  controller = ctl;
  context.subscriptions.push(
    ctl,
    vscode.commands.registerCommand(RESTART_COMMAND, () => ctl.restart()),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => ctl.channel.show(true)),
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, ctl.previews),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration(`${CLIENT_ID}.server`)) {
        await ctl.restart();
      } else if (e.affectsConfiguration(`${CLIENT_ID}.lints`)) {
        await ctl.pushSettings();
      }
    }),
  );
  await ctl.start();
  return ctl;
}

/** Stops the server when VS Code unloads the extension. */
export async function deactivate(): Promise<void> {
  const ctl = controller;
  controller = undefined;
  await ctl?.stop();
}
