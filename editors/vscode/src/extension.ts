// The VS Code side of cmg: it starts `cmg lsp` and adds only what an editor must do
// itself (settings, the restart command). Everything else comes from the server.

import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

import { findServer } from "./discovery";
import { registerGameView } from "./gameView";
import { initializationOptions, ServerSetting } from "./settings";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("cmg");
  const restart = async (): Promise<void> => {
    await stop();
    await start(context, output);
  };
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("cmg.restartServer", restart),
    registerGameView(context, () => client),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // The other settings reach the running server through configuration sync; a
      // new binary needs a new process.
      if (event.affectsConfiguration("cmg.server.path")) {
        void restart();
      }
    }),
  );
  await start(context, output);
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
  const config = vscode.workspace.getConfiguration("cmg");
  const found = findServer({
    configuredPath: config.get<string>("server.path"),
    extensionPath: context.extensionPath,
    platform: process.platform,
    pathVariable: process.env.PATH,
  });
  if (!found.ok) {
    output.appendLine(found.message);
    void vscode.window.showErrorMessage(found.message);
    return;
  }
  output.appendLine(`cmg: starting ${found.path} (found via ${found.source})`);

  const serverOptions: ServerOptions = { command: found.path, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "cmg" },
      { scheme: "untitled", language: "cmg" },
    ],
    initializationOptions: initializationOptions((key: ServerSetting) => config.get(key)),
    synchronize: { configurationSection: "cmg" },
    outputChannel: output,
  };
  // The id `cmg` makes the client read the `cmg.trace.server` setting by itself.
  client = new LanguageClient("cmg", "cmg language server", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    const message = `cmg: the language server at ${found.path} failed to start: ${String(error)}`;
    output.appendLine(message);
    void vscode.window.showErrorMessage(message);
    client = undefined;
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}
