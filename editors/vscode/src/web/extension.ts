// The extension in VS Code for the Web (vscode.dev, github.dev, a browser-hosted VS
// Code): the `browser` entry of package.json. It starts the language server in a web
// worker (dist/web/server.js, the WebAssembly core inside) instead of the `cmg lsp`
// process the desktop entry starts, and offers the same game view, and the judge for
// JavaScript (judge.ts).

import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions } from "vscode-languageclient/browser";

import { registerGameView } from "../gameView";
import { registerWebJudge } from "./judge";
import { extensionWorker } from "./workers";

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
    registerWebJudge(context, output),
  );
  await start(context, output);
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
  const { worker, how } = await extensionWorker(context, "server.js");
  const options: LanguageClientOptions = {
    documentSelector: [{ language: "cmg" }],
    outputChannel: output,
  };
  client = new LanguageClient("cmg", "cmg (WebAssembly)", options, worker);
  await client.start();
  output.appendLine(`cmg: the language server runs in a web worker (WebAssembly), ${how}`);
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  await running?.stop();
}
