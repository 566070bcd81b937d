import "./mocks/install";

import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";

import { clientOptions } from "../src/extension";
import { isListingPreview, ListingPreviews, listingMiddleware, PREVIEW_SCHEME, SHOW_LISTING_COMMAND } from "../src/listing";
import { reset, state } from "./mocks/state";

// A result shaped as the server sends it (figures of testdata/listing/lib/cart.ex; the JSON shortened).
const preview = {
  tool: "Shop.Tools.Cart",
  figures: "tools/list: 220 bytes, 53 tokens; help: 176 bytes, 45 tokens (o200k_base)",
  toolsListEntry: { description: "The shopping cart", name: "cart" },
  help: { actions: {}, description: "The shopping cart", tool: "cart" },
};

function registered(previews: ListingPreviews): void {
  state.providers.set(PREVIEW_SCHEME, previews);
}

beforeEach(() => reset());

describe("wymcp.showListing", () => {
  it("opens the command's result in a read-only JSON preview beside the editor", async () => {
    const previews = new ListingPreviews();
    registered(previews);
    const mw = listingMiddleware(previews);
    const calls: Array<[string, unknown[]]> = [];
    const result = await mw.executeCommand!(SHOW_LISTING_COMMAND, ["file:///p/lib/cart.ex", "Shop.Tools.Cart"], async (c, a) => {
      calls.push([c, a]);
      return preview;
    });

    assert.deepEqual(calls, [[SHOW_LISTING_COMMAND, ["file:///p/lib/cart.ex", "Shop.Tools.Cart"]]]);
    assert.equal(result, preview, "the result is passed on to the caller unchanged");
    assert.equal(state.shownDocs.length, 1);
    const shown = state.shownDocs[0];
    assert.equal(shown.uri, "wymcp-listing:/Shop.Tools.Cart-1.json");
    assert.equal(
      shown.text,
      `{
  "tool": "Shop.Tools.Cart",
  "figures": "tools/list: 220 bytes, 53 tokens; help: 176 bytes, 45 tokens (o200k_base)",
  "toolsListEntry": {
    "description": "The shopping cart",
    "name": "cart"
  },
  "help": {
    "actions": {},
    "description": "The shopping cart",
    "tool": "cart"
  }
}
`,
    );
    assert.deepEqual(shown.options, { preview: true, preserveFocus: false, viewColumn: -2 });
  });

  it("gives each result a document of its own", async () => {
    const previews = new ListingPreviews();
    registered(previews);
    const a = await previews.show(preview);
    const b = await previews.show({ ...preview, figures: "changed" });
    assert.notEqual(a.toString(), b.toString());
    assert.match(previews.provideTextDocumentContent(a), /"figures": "tools\/list: 220 bytes/);
    assert.match(previews.provideTextDocumentContent(b), /"figures": "changed"/);
    assert.equal(previews.provideTextDocumentContent({ toString: () => "wymcp-listing:/gone.json" } as any), "");
  });

  it("leaves other commands and unexpected results alone", async () => {
    const previews = new ListingPreviews();
    registered(previews);
    const mw = listingMiddleware(previews);
    assert.equal(await mw.executeCommand!("other.command", [], async () => preview), preview);
    assert.equal(await mw.executeCommand!(SHOW_LISTING_COMMAND, [], async () => null), null);
    assert.deepEqual(state.shownDocs, []);
  });

  it("recognises the result shape", () => {
    assert.equal(isListingPreview(preview), true);
    assert.equal(isListingPreview(null), false);
    assert.equal(isListingPreview("x"), false);
    assert.equal(isListingPreview({ tool: "T", figures: "f", help: {} }), false);
  });

  it("is part of the client's middleware, beside the configuration middleware", () => {
    const opts = clientOptions({} as any);
    assert.equal(typeof opts.middleware?.executeCommand, "function");
    assert.equal(typeof opts.middleware?.workspace?.configuration, "function");
  });
});
