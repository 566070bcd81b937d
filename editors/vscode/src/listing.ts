// What the LLM sees of a tool: the server's code lens above `def actions`
// runs the `wymcp.showListing` command (workspace/executeCommand); its
// result, the tool's tools/list entry and help answer, opens here in a
// read-only JSON editor. See ../../../README.md, "What the LLM sees".

import * as vscode from "vscode";
import type { Middleware } from "vscode-languageclient/node";

/** The server command of the code lens (lsp.CommandShowListing). */
export const SHOW_LISTING_COMMAND = "wymcp.showListing";
/** The URI scheme of the read-only preview documents. */
export const PREVIEW_SCHEME = "wymcp-listing";

/** The command's result as the server sends it (lsp.ListingPreview). */
export interface ListingPreview {
  tool: string;
  figures: string;
  toolsListEntry: unknown;
  help: unknown;
}

/** Reports whether a command result has the ListingPreview shape. */
export function isListingPreview(v: unknown): v is ListingPreview {
  if (typeof v !== "object" || v === null) {
    return false;
  }
  const o = v as Record<string, unknown>;
  return typeof o.tool === "string" && typeof o.figures === "string" && "toolsListEntry" in o && "help" in o;
}

/**
 * Serves the preview documents (a TextDocumentContentProvider: VS Code
 * opens such documents read-only) and opens one per command result. Each
 * preview gets a URI of its own, so a newer result never shows stale text.
 */
export class ListingPreviews {
  private readonly texts = new Map<string, string>();
  private count = 0;

  /** The text of a preview document (pretty JSON), or "" for an unknown URI. */
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  /** Stores the preview as JSON and opens it beside the active editor. */
  async show(preview: ListingPreview): Promise<vscode.Uri> {
    this.count++;
    const uri = vscode.Uri.parse(`${PREVIEW_SCHEME}:/${encodeURIComponent(preview.tool)}-${this.count}.json`);
    this.texts.set(uri.toString(), `${JSON.stringify(preview, null, 2)}\n`);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: false, viewColumn: vscode.ViewColumn.Beside });
    return uri;
  }
}

/**
 * The middleware that opens the result of `wymcp.showListing` in a preview;
 * every command's result is passed on unchanged.
 */
export function listingMiddleware(previews: ListingPreviews): Middleware {
  return {
    executeCommand: async (command, args, next) => {
      const result = await next(command, args);
      if (command === SHOW_LISTING_COMMAND && isListingPreview(result)) {
        await previews.show(result);
      }
      return result;
    },
  };
}
