// Finding the `cmg` binary. This module does not import `vscode`, so that the search
// order can be tested with node's own test runner, outside the editor.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Where the server was found, so that the output channel can say which one runs. */
export type ServerSource = "setting" | "bundled" | "PATH";

export type Discovery =
  | { ok: true; path: string; source: ServerSource }
  | { ok: false; message: string };

/** How many `PATH` directories a message names before it only counts the rest. */
const MAX_LISTED_DIRECTORIES = 8;

/** Everything the search reads from the outside world, so that tests can fake it. */
export interface DiscoveryInput {
  /** The `cmg.server.path` setting; empty means "not set". */
  configuredPath: string | undefined;
  /**
   * Where the editor found that value ("User settings", "Workspace settings"...), so
   * that a message can say which scope was read: in a remote window a value can be
   * set in one place and read from another.
   */
  settingOrigin?: string;
  /** The folder the extension is installed in, which may hold `server/cmg`. */
  extensionPath: string;
  platform: NodeJS.Platform;
  /** The `PATH` environment variable. */
  pathVariable: string | undefined;
  homeDirectory?: string;
  isExecutable?: (file: string) => boolean;
}

/**
 * Looks for the server: the setting first, then a binary shipped inside the extension,
 * then `cmg` on `PATH`. A setting that points nowhere is an error rather than a reason
 * to fall back, since silently running a different binary than the one the user chose
 * would be confusing.
 */
export function findServer(input: DiscoveryInput): Discovery {
  const isExecutable = input.isExecutable ?? isExecutableFile;
  const paths = input.platform === "win32" ? path.win32 : path.posix;
  const binary = input.platform === "win32" ? "cmg.exe" : "cmg";

  const configured = input.configuredPath?.trim() ?? "";
  const origin = input.settingOrigin ?? "settings";
  if (configured !== "") {
    const expanded = expandHome(configured, input.homeDirectory ?? os.homedir(), paths);
    if (isExecutable(expanded)) {
      return { ok: true, path: expanded, source: "setting" };
    }
    const where = expanded === configured ? "" : ` (${expanded})`;
    return {
      ok: false,
      message:
        `cmg: cmg.server.path is "${configured}"${where}, read from ${origin}, but there ` +
        `is no executable file there. Fix the path, or clear the setting to use the ` +
        `bundled server or \`cmg\` from PATH.`,
    };
  }

  const bundled = paths.join(input.extensionPath, "server", binary);
  if (isExecutable(bundled)) {
    return { ok: true, path: bundled, source: "bundled" };
  }

  const delimiter = input.platform === "win32" ? ";" : ":";
  const searched: string[] = [];
  for (const directory of (input.pathVariable ?? "").split(delimiter)) {
    // An empty PATH entry means the current directory, which an editor should not
    // run programs from.
    if (directory === "") {
      continue;
    }
    searched.push(directory);
    const candidate = paths.join(directory, binary);
    if (isExecutable(candidate)) {
      return { ok: true, path: candidate, source: "PATH" };
    }
  }

  return {
    ok: false,
    message:
      `cmg: could not find the language server. cmg.server.path is not set (read from ` +
      `${origin}); tried ${bundled} (bundled) and \`${binary}\` in ` +
      `${describeDirectories(searched)}. Install the extension's platform package, ` +
      `which has the server inside; or put \`${binary}\` on PATH (\`pip install\` of ` +
      `the cmg-cat-mouse wheel, or \`cargo install --locked --path .\` in the cmg ` +
      `repository); or set cmg.server.path to the binary.`,
  };
}

/** The PATH directories searched, the first few by name. */
function describeDirectories(directories: string[]): string {
  if (directories.length === 0) {
    return "no PATH directory (PATH is empty)";
  }
  const named = directories.slice(0, MAX_LISTED_DIRECTORIES).join(", ");
  const more = directories.length - MAX_LISTED_DIRECTORIES;
  return more > 0 ? `PATH (${named} and ${more} more)` : `PATH (${named})`;
}

function expandHome(file: string, home: string, paths: path.PlatformPath): string {
  if (file === "~") {
    return home;
  }
  if (file.startsWith("~/") || file.startsWith("~\\")) {
    return paths.join(home, file.slice(2));
  }
  return file;
}

/** A regular file we may execute (on Windows, any regular file). */
export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (process.platform !== "win32") {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}
