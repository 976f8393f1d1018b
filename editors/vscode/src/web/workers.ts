// The web entry's workers and files, from the extension's dist/web folder.

import * as vscode from "vscode";

/** A file of dist/web, read through the editor's file system, in an ArrayBuffer of its own. */
export async function extensionFile(context: vscode.ExtensionContext, name: string): Promise<ArrayBuffer> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, "dist", "web", name));
  return bytes.slice().buffer;
}

/**
 * A worker running dist/web/`name`. VS Code for the Web starts a worker from the
 * extension's own URL; a browser-hosted VS Code whose extensions live on its server
 * (code-server, a remote) refuses that ("creating workers from remote extensions is
 * not supported"), so there the script is read through the editor's file system and
 * started from a blob URL. Either way the worker has no base URL of the extension's
 * to resolve others against: what it loads is passed to it.
 */
export async function extensionWorker(
  context: vscode.ExtensionContext,
  name: string,
): Promise<{ worker: Worker; how: string }> {
  const script = vscode.Uri.joinPath(context.extensionUri, "dist", "web", name);
  try {
    return { worker: new Worker(script.toString(true)), how: "started from the extension's URL" };
  } catch {
    const bytes = await extensionFile(context, name);
    const url = URL.createObjectURL(new Blob([bytes], { type: "text/javascript" }));
    return { worker: new Worker(url), how: "started from the script read through the editor" };
  }
}
