// A stand-in for the `vscode` module covering exactly what the extension uses.
import { state } from "./state";

const disposable = { dispose() {} };

class Uri {
  constructor(readonly value: string) {}
  static parse(value: string): Uri {
    return new Uri(value);
  }
  get fsPath(): string {
    return this.value.replace(/^file:\/\//, "");
  }
  toString(): string {
    return this.value;
  }
}

function getConfiguration(section: string, scope?: Uri) {
  return {
    get<T>(key: string, def?: T): T | undefined {
      const full = `${section}.${key}`;
      if (full === "wymcp-ls.lints" && scope !== undefined && state.scopedLints.has(scope.value)) {
        return state.scopedLints.get(scope.value) as T;
      }
      return state.settings.has(full) ? (state.settings.get(full) as T) : def;
    },
  };
}

function channel(name: string) {
  const log = (level: string) => (msg: string) => state.logLines.push(`${name} ${level} ${msg}`);
  return {
    name,
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    debug: log("debug"),
    trace: log("trace"),
    appendLine: log("line"),
    append: log("append"),
    show() {},
    dispose() {},
  };
}

function show(kind: "error" | "warning" | "info") {
  return async (text: string, ...items: string[]) => {
    state.shown.push({ kind, text, items });
    return state.pick;
  };
}

export = {
  Uri,
  window: {
    createOutputChannel: (name: string) => channel(name),
    showErrorMessage: show("error"),
    showWarningMessage: show("warning"),
    showInformationMessage: show("info"),
    async showTextDocument(doc: { uri: Uri; text: string }, options: unknown) {
      state.shownDocs.push({ uri: doc.uri.toString(), text: doc.text, options });
      return {};
    },
  },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  workspace: {
    getConfiguration,
    get workspaceFolders() {
      return state.workspaceFolders;
    },
    registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: unknown): string }) {
      state.providers.set(scheme, provider);
      return disposable;
    },
    async openTextDocument(uri: Uri) {
      const scheme = uri.value.split(":")[0];
      const provider = state.providers.get(scheme);
      if (provider === undefined) {
        throw new Error(`no provider for ${uri.value}`);
      }
      return { uri, text: provider.provideTextDocumentContent(uri) };
    },
    onDidChangeConfiguration(l: (e: { affectsConfiguration(s: string): boolean }) => unknown) {
      state.configListeners.push(l);
      return disposable;
    },
  },
  commands: {
    registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
      state.commands.set(id, fn);
      return disposable;
    },
    async executeCommand(...args: unknown[]) {
      state.executed.push(args);
    },
  },
  env: {
    clipboard: {
      async writeText(s: string) {
        state.clipboard = s;
      },
    },
  },
};
