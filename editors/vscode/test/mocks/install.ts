// Import first in a test file: makes `require("vscode")` and
// `require("vscode-languageclient/node")` load the mocks next to this file.
import Module = require("node:module");
import * as path from "node:path";

const targets: Record<string, string> = {
  vscode: path.join(__dirname, "vscode.js"),
  "vscode-languageclient/node": path.join(__dirname, "languageclient.js"),
};
const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const original = mod._resolveFilename;
mod._resolveFilename = function (request: string, ...rest: unknown[]): string {
  const target = targets[request];
  return target ?? original.call(this, request, ...rest);
};
