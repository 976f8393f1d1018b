// The VS Code side of cmg: it starts `cmg lsp` and adds only what an editor must do
// itself (settings, the restart command, reporting a server that fails). Everything
// else comes from the server.

import { ChildProcess, spawn } from "node:child_process";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from "vscode-languageclient/node";

import { type Discovery, findServer } from "./discovery";
import { Exit, failureMessage, OutputTail, RestartPolicy } from "./failure";
import { registerGameView } from "./gameView";
import { registerJudge } from "./judge";
import { initializationOptions, ServerSetting, settingOrigin } from "./settings";

/** How long a failure message waits for the server's exit status and last stderr. */
const EXIT_WAIT_MS = 2000;

let client: LanguageClient | undefined;
let serverProcess: ChildProcess | undefined;

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
    registerJudge(() => discover(context).found, output),
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

/**
 * The language client, logging its errors without notifications or stack traces: the
 * extension itself tells the user, once, when the server fails, with the path that ran
 * and what the server printed. Left to the client, one crash at start-up shows several
 * notifications and fills the output channel with traces.
 */
class CmgClient extends LanguageClient {
  override error(message: string, data?: unknown): void {
    super.error(message, data instanceof Error ? data.message : data, false);
  }
}

/** The `cmg` binary the settings, the extension and `PATH` give, and the setting's scope. */
function discover(context: vscode.ExtensionContext): { found: Discovery; origin: string } {
  const config = vscode.workspace.getConfiguration("cmg");
  const configuredPath = config.get<string>("server.path");
  const origin = settingOrigin(configuredPath, config.inspect<string>("server.path"));
  const found = findServer({
    configuredPath,
    settingOrigin: origin,
    extensionPath: context.extensionPath,
    platform: process.platform,
    pathVariable: process.env.PATH,
  });
  return { found, origin };
}

async function start(context: vscode.ExtensionContext, output: vscode.OutputChannel): Promise<void> {
  const config = vscode.workspace.getConfiguration("cmg");
  const { found, origin } = discover(context);
  if (!found.ok) {
    output.appendLine(found.message);
    void notify(found.message, output);
    return;
  }
  const via = found.source === "setting" ? `cmg.server.path in ${origin}` : found.source;
  output.appendLine(`cmg: starting ${found.path} (found via ${via})`);

  const stderr = new OutputTail();
  const restarts = new RestartPolicy();
  let exit: Exit | undefined;
  let exited: Promise<void> = Promise.resolve();
  let running = false;
  let reported = false;
  // One message per start, whichever of the close handler and the failed start sees
  // the failure first.
  // `startError` is why the client could not start; the exit status says more when
  // there is one (a server that dies early shows up first as a broken pipe).
  const report = async (startError?: string): Promise<void> => {
    if (reported) {
      return;
    }
    reported = true;
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS))]);
    const message = failureMessage({
      path: found.path,
      source: found.source,
      settingOrigin: origin,
      exit,
      stderr,
      started: running,
      crashes: restarts.recent,
      ...(exit === undefined && startError !== undefined ? { startError } : {}),
    });
    output.appendLine(message);
    await notify(message, output);
  };

  // The process is started here rather than by the client, so that its stderr and exit
  // status are at hand for the message; the client still copies stderr to the channel.
  const serverOptions: ServerOptions = async () => {
    exit = undefined;
    const child = spawn(found.path, ["lsp"], { stdio: "pipe" });
    serverProcess = child;
    exited = new Promise((resolve) => {
      child.once("close", (code, signal) => {
        exit = { code, signal };
        resolve();
      });
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.append(chunk.toString("utf8")));
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    return child;
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "cmg" },
      { scheme: "untitled", language: "cmg" },
    ],
    initializationOptions: initializationOptions((key: ServerSetting) => config.get(key)),
    synchronize: { configurationSection: "cmg" },
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // A server that fails initialization would fail again.
    initializationFailedHandler: () => false,
    errorHandler: {
      error: (_error, _message, count) => ({
        action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      }),
      closed: () => {
        if (running && restarts.crashed(Date.now())) {
          running = false;
          return { action: CloseAction.Restart, message: "cmg: the server stopped; restarting it", handled: true };
        }
        void report();
        return { action: CloseAction.DoNotRestart, message: "cmg: the server stopped", handled: true };
      },
    },
  };
  // The id `cmg` makes the client read the `cmg.trace.server` setting by itself.
  const started = new CmgClient("cmg", "cmg language server", serverOptions, clientOptions);
  started.onDidChangeState((event) => {
    if (event.newState === State.Running) {
      running = true;
    }
  });
  client = started;
  try {
    await started.start();
  } catch (error) {
    // Not awaited: activation must not wait for the user to answer the notification.
    void report(errorText(error));
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Shows a failure with the two things a user does next: read the log, fix the path. */
async function notify(message: string, output: vscode.OutputChannel): Promise<void> {
  const showOutput = "Show output";
  const openSettings = "Open settings";
  const choice = await vscode.window.showErrorMessage(message, showOutput, openSettings);
  if (choice === showOutput) {
    output.show(true);
  } else if (choice === openSettings) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "cmg.server.path");
  }
}

async function stop(): Promise<void> {
  const running = client;
  const child = serverProcess;
  client = undefined;
  serverProcess = undefined;
  if (running !== undefined) {
    try {
      await running.stop();
    } catch {
      // A client whose server never started has nothing to stop.
    }
  }
  // The client only asks the server to exit; one that does not listen is ended here.
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    child.kill();
  }
}
