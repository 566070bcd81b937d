// Shared, resettable state of the `vscode` and `vscode-languageclient/node`
// mocks. Tests arrange settings here and read back what the extension did.

export interface Shown {
  kind: "error" | "warning" | "info";
  text: string;
  items: string[];
}

export interface FakeClientRecord {
  id: string;
  name: string;
  serverOptions: any;
  clientOptions: any;
  started: number;
  disposed: number;
  notifications: Array<{ method: string; params: unknown }>;
}

export const state = {
  /** Settings by full key, e.g. "wymcp-ls.server.path". */
  settings: new Map<string, unknown>(),
  /** Scoped lint settings by scope URI string, overriding settings for "wymcp-ls.lints". */
  scopedLints: new Map<string, unknown>(),
  shown: [] as Shown[],
  /** What the next showErrorMessage resolves to (a button label or undefined). */
  pick: undefined as string | undefined,
  clipboard: "",
  executed: [] as unknown[][],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  configListeners: [] as Array<(e: { affectsConfiguration(s: string): boolean }) => unknown>,
  workspaceFolders: undefined as Array<{ uri: { fsPath: string } }> | undefined,
  clients: [] as FakeClientRecord[],
  /** When set, LanguageClient.start rejects with this error. */
  startError: undefined as Error | undefined,
  logLines: [] as string[],
  /** Content providers registered, by URI scheme. */
  providers: new Map<string, { provideTextDocumentContent(uri: unknown): string }>(),
  /** Documents shown: the URI string, the text the provider gave, and the options. */
  shownDocs: [] as Array<{ uri: string; text: string; options: unknown }>,
};

/** Puts every field back to its initial value. */
export function reset(): void {
  state.settings.clear();
  state.scopedLints.clear();
  state.shown = [];
  state.pick = undefined;
  state.clipboard = "";
  state.executed = [];
  state.commands.clear();
  state.configListeners = [];
  state.workspaceFolders = undefined;
  state.clients = [];
  state.startError = undefined;
  state.logLines = [];
  state.providers.clear();
  state.shownDocs = [];
}

/** Fires onDidChangeConfiguration for the changed keys and waits for the listeners. */
export async function changeConfiguration(...keys: string[]): Promise<void> {
  const e = {
    affectsConfiguration: (s: string) => keys.some((k) => k === s || k.startsWith(`${s}.`)),
  };
  await Promise.all(state.configListeners.map((l) => l(e)));
}
