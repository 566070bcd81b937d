// The lint switches: VS Code setting `wymcp-ls.lints` -> the server's
// `workspace/configuration` section `wymcp` ({"lints": {"lint/<code>": bool}}).
// Pure (no `vscode` import) so it is unit tested without an editor.

/** The LSP configuration section the server asks for (README.md "Lint switches"). */
export const SERVER_SECTION = "wymcp";

/** Lint switches by code, e.g. {"lint/unknown-type": false}. */
export type Lints = Record<string, boolean>;

/**
 * Keeps the boolean entries of a raw `wymcp-ls.lints` setting value (whatever
 * the user wrote) and drops everything else; a non-object gives {}.
 */
export function cleanLints(raw: unknown): Lints {
  const out: Lints = {};
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return out;
  }
  for (const [code, on] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof on === "boolean") {
      out[code] = on;
    }
  }
  return out;
}

/** The value of section `wymcp`: {lints}. */
export function serverSettings(lints: Lints): { lints: Lints } {
  return { lints: { ...lints } };
}

/**
 * Answers one `workspace/configuration` item for the server's own section.
 * section "wymcp" gives {lints}, "wymcp.lints" gives the lints object and
 * "wymcp.lints.<code>" gives that switch (null when unset), as VS Code's
 * dotted sections do. Any other section is not ours: handled is false.
 */
export function answerSection(
  section: string | undefined,
  lints: Lints,
): { handled: true; value: unknown } | { handled: false } {
  if (section === SERVER_SECTION) {
    return { handled: true, value: serverSettings(lints) };
  }
  if (section === `${SERVER_SECTION}.lints`) {
    return { handled: true, value: { ...lints } };
  }
  const prefix = `${SERVER_SECTION}.lints.`;
  if (section !== undefined && section.startsWith(prefix)) {
    const code = section.slice(prefix.length);
    return { handled: true, value: Object.prototype.hasOwnProperty.call(lints, code) ? lints[code] : null };
  }
  return { handled: false };
}
