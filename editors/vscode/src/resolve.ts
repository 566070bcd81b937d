// Finding the wymcp-ls binary. Pure (no `vscode` import) so it is unit
// tested without an editor; extension.ts supplies the real inputs.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The command that installs the server onto PATH; shown when no binary is found. */
export const INSTALL_COMMAND = "go install github.com/wymcp/wymcp-ls/cmd/wymcp-ls@latest";

/** Where a resolved binary came from, in resolution order. */
export type ServerSource = "setting" | "bundled" | "path";

/** What resolveServer needs to know; every field is supplied by the caller. */
export interface ResolveInput {
  /** The `wymcp-ls.server.path` setting; empty or blank means unset. */
  settingPath: string;
  /** The extension's install directory (holds `bin/<platform>-<arch>/`). */
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
  /** The user-facing text, naming the install command. */
  message: string;
}

/** The executable's file name on platform: "wymcp-ls" or "wymcp-ls.exe". */
export function binaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "wymcp-ls.exe" : "wymcp-ls";
}

/** The bundled binary path inside extensionPath: bin/<platform>-<arch>/wymcp-ls[.exe]. */
export function bundledPath(extensionPath: string, platform: NodeJS.Platform, arch: string): string {
  return path.join(extensionPath, "bin", `${platform}-${arch}`, binaryName(platform));
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
 * Looks name up in the PATH of env (PATHEXT extensions too on win32) and
 * returns the first executable match, or undefined.
 */
export function searchPath(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  isExecutable: (p: string) => boolean,
): string | undefined {
  const pathVar = env.PATH ?? env.Path ?? "";
  const sep = platform === "win32" ? ";" : ":";
  const exts =
    platform === "win32"
      ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e !== "")]
      : [""];
  const base = platform === "win32" ? name.replace(/\.exe$/i, "") : name;
  for (const dir of pathVar.split(sep)) {
    if (dir === "") {
      continue; // an empty entry means the cwd: never run a binary from an opened project
    }
    for (const ext of exts) {
      const candidate = path.join(dir, base + ext);
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
 * the binary bundled in the extension (`bin/<platform>-<arch>/`), then PATH.
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
        `Fix the setting, or clear it and install the server with: ${INSTALL_COMMAND}`,
    };
  }
  const bundled = bundledPath(input.extensionPath, input.platform, input.arch);
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
      `${input.platform}-${input.arch}, not on PATH). Install it with: ${INSTALL_COMMAND}`,
  };
}
