import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { answerSection, cleanLints, serverSettings } from "../src/settings";

describe("cleanLints", () => {
  const cases: Array<[string, unknown, Record<string, boolean>]> = [
    ["object of booleans", { "lint/unknown-type": false, "lint/duplicate-key": true }, { "lint/unknown-type": false, "lint/duplicate-key": true }],
    ["drops non-booleans", { "lint/unknown-type": "no", "lint/unknown-keyword": 0, x: false }, { x: false }],
    ["undefined", undefined, {}],
    ["null", null, {}],
    ["array", [true], {}],
    ["string", "lint/unknown-type", {}],
  ];
  for (const [name, raw, want] of cases) {
    it(name, () => assert.deepEqual(cleanLints(raw), want));
  }
});

describe("answerSection", () => {
  const lints = { "lint/unknown-type": false };
  const cases: Array<[string | undefined, unknown]> = [
    ["wymcp", { handled: true, value: { lints: { "lint/unknown-type": false } } }],
    ["wymcp.lints", { handled: true, value: { "lint/unknown-type": false } }],
    ["wymcp.lints.lint/unknown-type", { handled: true, value: false }],
    ["wymcp.lints.lint/duplicate-key", { handled: true, value: null }],
    ["wymcp-ls", { handled: false }],
    ["wymcpx", { handled: false }],
    ["editor", { handled: false }],
    [undefined, { handled: false }],
  ];
  for (const [section, want] of cases) {
    it(String(section), () => assert.deepEqual(answerSection(section, lints), want));
  }
  it("serverSettings copies", () => {
    const l = { a: true };
    const s = serverSettings(l);
    l.a = false;
    assert.deepEqual(s, { lints: { a: true } });
  });
});
