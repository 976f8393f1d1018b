// The extension in VS Code for the Web (vscode.dev, github.dev, a browser-hosted VS
// Code): the `browser` entry of package.json. It starts the language server in a web
// worker (dist/web/server.js, the WebAssembly core inside) instead of the `cmg lsp`
// process the desktop entry starts, and offers the same game view.

import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions } from "vscode-languageclient/browser";

import { registerGameView } from "../gameView";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("cmg");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("cmg.restartServer", async () => {
      await stop();
      await start(context, output);
    }),
    registerGameView(context, () => client),
    // The judge runs solutions with the cmg program, which a browser does not have.
    vscode.commands.registerCommand("cmg.judge", () =>
      vscode.window.showInformationMessage(
        "cmg: judging a solution runs it with the cmg program, which VS Code for the Web does not have: use the desktop VS Code with this extension.",
      ),
    ),
  );
  await start(context, output);
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
  const { worker, how } = await serverWorker(context);
  const options: LanguageClientOptions = {
    documentSelector: [{ language: "cmg" }],
    outputChannel: output,
  };
  client = new LanguageClient("cmg", "cmg (WebAssembly)", options, worker);
  await client.start();
  output.appendLine(`cmg: the language server runs in a web worker (WebAssembly), ${how}`);
}

/**
 * The worker of the language server. VS Code for the Web starts a worker from the
 * extension's own URL; a browser-hosted VS Code whose extensions live on its server
 * (code-server, a remote) refuses that ("creating workers from remote extensions is
 * not supported"), so there the script is read through the editor's file system and
 * started from a blob URL.
 */
async function serverWorker(context: vscode.ExtensionContext): Promise<{ worker: Worker; how: string }> {
  const serverMain = vscode.Uri.joinPath(context.extensionUri, "dist", "web", "server.js");
  try {
    return { worker: new Worker(serverMain.toString(true)), how: "started from the extension's URL" };
  } catch {
    const script = await vscode.workspace.fs.readFile(serverMain);
    const url = URL.createObjectURL(new Blob([new Uint8Array(script)], { type: "text/javascript" }));
    return { worker: new Worker(url), how: "started from the script read through the editor" };
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  await running?.stop();
}
