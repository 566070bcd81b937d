// Finding the wymcp-ls binary. Pure (no `vscode` import) so it is unit
// tested without an editor; extension.ts supplies the real inputs.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The repository a server can be built from (README.md "Install"). */
export const REPOSITORY_URL = "https://github.com/wymcp/wymcp-ls";

/**
 * The two commands that build the server from a clone and put it on PATH
 * (README.md "Install"); they work today, with Go 1.26+ alone.
 */
export const BUILD_COMMANDS: readonly string[] = [
  `git clone ${REPOSITORY_URL}`,
  "cd wymcp-ls && go install ./cmd/wymcp-ls",
];

/** BUILD_COMMANDS as one shell line, for the clipboard. */
export const BUILD_COMMAND_LINE = BUILD_COMMANDS.join(" && ");

/**
 * `go install` of the published module. It works only once the module is
 * published, so it is offered only when the `wymcp-ls.server.offerGoInstall`
 * setting is on (see package.json).
 */
export const GO_INSTALL_COMMAND = "go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest";

/** Where a resolved binary came from, in resolution order. */
export type ServerSource = "setting" | "bundled" | "path";

/** What resolveServer needs to know; every field is supplied by the caller. */
export interface ResolveInput {
  /** The `wymcp-ls.server.path` setting; empty or blank means unset. */
  settingPath: string;
  /** The extension's install directory (holds `bin/wymcp-ls[.exe]` when a server is bundled). */
  extensionPath: string;
  /** First workspace folder's path, to resolve a relative setting; may be undefined. */
  workspaceFolder?: string;
  /** `process.platform`-style name, e.g. "linux", "darwin", "win32". */
  platform: NodeJS.Platform;
  /** `process.arch`-style name, e.g. "x64", "arm64". */
  arch: string;
  /** The environment (PATH, PATHEXT on Windows). */
  env: NodeJS.ProcessEnv;
  /** The user's home directory, for a leading `~` in the setting. */
  homedir?: string;
  /** Reports whether p is an existing, executable regular file. Defaults to the real file system. */
  isExecutable?: (p: string) => boolean;
  /** The `wymcp-ls.server.offerGoInstall` setting: also name GO_INSTALL_COMMAND when nothing is found. */
  offerGoInstall?: boolean;
}

/** A found binary. */
export interface Resolved {
  /** Absolute path of the binary. */
  command: string;
  /** Which step found it. */
  source: ServerSource;
}

/** Why nothing was found; message is the single user-facing notification text. */
export interface NotFound {
  command: undefined;
  /** "setting-missing" when the configured path does not exist, else "none". */
  reason: "setting-missing" | "none";
  /** The user-facing text: the setting to point at a binary, and how to build one (howToGet). */
  message: string;
}

/**
 * The "how to get a server" sentence of the not-found messages: the setting
 * that points at a binary, the build-from-a-clone commands, and, when
 * offerGoInstall is set, the `go install ...@latest` line.
 */
export function howToGet(offerGoInstall: boolean): string {
  let s =
    `Set "wymcp-ls.server.path" to a wymcp-ls binary, or build one from a clone (Go 1.26+): ` +
    BUILD_COMMANDS.join(", then ");
  if (offerGoInstall) {
    s += `; or, where the module is published: ${GO_INSTALL_COMMAND}`;
  }
  return s;
}

/** The executable's file name on platform: "wymcp-ls" or "wymcp-ls.exe". */
export function binaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "wymcp-ls.exe" : "wymcp-ls";
}

/**
 * The bundled binary path inside extensionPath: bin/wymcp-ls, or
 * bin/wymcp-ls.exe on win32. A platform-specific VSIX (`vsce package
 * --target`, scripts/package-targets.mjs) holds only its own platform's
 * binary there; `npm run bundle-server` puts the host's binary there.
 */
export function bundledPath(extensionPath: string, platform: NodeJS.Platform): string {
  return path.join(extensionPath, "bin", binaryName(platform));
}

/** The default isExecutable: a regular file with an execute bit (any file on Windows). */
export function defaultIsExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    if (process.platform === "win32") {
      return true;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Looks name up in the PATH of env and returns the first executable match,
 * or undefined. On win32 (`Path` or `PATH`, `;`-separated) it tries name
 * itself and then its base name with each PATHEXT extension, never a bare
 * extension-less file.
 */
export function searchPath(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  isExecutable: (p: string) => boolean,
): string | undefined {
  const pathVar = env.PATH ?? env.Path ?? "";
  const sep = platform === "win32" ? ";" : ":";
  // On win32 a file without an extension cannot be run: try the name as
  // given (wymcp-ls.exe), then the base name with each other PATHEXT entry.
  let names = [name];
  if (platform === "win32") {
    const base = name.replace(/\.exe$/i, "");
    const exts = (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e !== "");
    names = [name, ...exts.map((e) => base + e).filter((n) => n.toLowerCase() !== name.toLowerCase())];
  }
  for (const dir of pathVar.split(sep)) {
    if (dir === "") {
      continue; // an empty entry means the cwd: never run a binary from an opened project
    }
    for (const n of names) {
      const candidate = path.join(dir, n);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * Expands the setting: a leading `~` becomes homedir; a relative path is
 * resolved against workspaceFolder (or returned as is when there is none).
 */
export function expandSetting(setting: string, homedir: string, workspaceFolder?: string): string {
  let p = setting.trim();
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
    p = path.join(homedir, p.slice(1));
  }
  if (!path.isAbsolute(p) && workspaceFolder !== undefined) {
    p = path.resolve(workspaceFolder, p);
  }
  return p;
}

/**
 * Finds the server binary in this order: the `wymcp-ls.server.path` setting,
 * the binary bundled in the extension (`bin/wymcp-ls[.exe]`), then PATH.
 * A setting that names a missing file is an error of its own (it does not
 * fall through to the other steps: the user asked for that binary).
 */
export function resolveServer(input: ResolveInput): Resolved | NotFound {
  const isExec = input.isExecutable ?? defaultIsExecutable;
  const home = input.homedir ?? os.homedir();
  if (input.settingPath.trim() !== "") {
    const p = expandSetting(input.settingPath, home, input.workspaceFolder);
    if (isExec(p)) {
      return { command: p, source: "setting" };
    }
    return {
      command: undefined,
      reason: "setting-missing",
      message:
        `wymcp-ls: the server binary set in "wymcp-ls.server.path" (${p}) does not exist or is not executable. ` +
        `Fix the setting, or clear it to use the bundled server or the one on PATH.`,
    };
  }
  const bundled = bundledPath(input.extensionPath, input.platform);
  if (isExec(bundled)) {
    return { command: bundled, source: "bundled" };
  }
  const onPath = searchPath(binaryName(input.platform), input.env, input.platform, isExec);
  if (onPath !== undefined) {
    return { command: onPath, source: "path" };
  }
  return {
    command: undefined,
    reason: "none",
    message:
      `wymcp-ls: the server binary was not found (not set in "wymcp-ls.server.path", not bundled for ` +
      `${input.platform}-${input.arch}, not on PATH). ${howToGet(input.offerGoInstall === true)}`,
  };
}
