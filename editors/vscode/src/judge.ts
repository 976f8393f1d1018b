// "cmg: Judge this solution" on the desktop: the editor's text goes to `cmg judge
// --json` (the binary the language server runs), in a cancellable progress
// notification; the report opens in a panel, whose "Open counterexample" opens the graph
// as a new .cmg document with the game view beside it.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";

import type { Discovery } from "./discovery";
import {
  headline,
  JUDGED_LANGUAGES,
  judgeArguments,
  parseJudgeOutput,
  reportHtml,
  type JudgeFailure,
  type JudgeResult,
} from "./judgeReport";

/** The judge's default time budget, the CLI's. */
const DEFAULT_SECONDS = 60;

export function registerJudge(findBinary: () => Discovery, output: vscode.OutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand("cmg.judge", async () => {
    const editor = vscode.window.activeTextEditor;
    const extension = editor === undefined ? undefined : JUDGED_LANGUAGES[editor.document.languageId];
    if (editor === undefined || extension === undefined) {
      void vscode.window.showInformationMessage(
        "cmg: open a solution in Python, JavaScript, Java, C++, Rust, Go or C to judge it.",
      );
      return;
    }
    const found = findBinary();
    if (!found.ok) {
      void vscode.window.showErrorMessage(found.message);
      return;
    }
    const seconds = vscode.workspace.getConfiguration("cmg").get<number>("judge.seconds") ?? DEFAULT_SECONDS;
    const name = path.basename(editor.document.fileName) || "solution";
    const result = await runWithProgress(found.path, editor.document.getText(), extension, seconds, name, output);
    if ("error" in result) {
      output.appendLine(`cmg judge: ${result.error}`);
      void vscode.window.showErrorMessage(`cmg judge: ${result.error}`);
      return;
    }
    showReport(name, result);
  });
}

/**
 * Runs the judge on `text`, written to a file of its own (so that unsaved edits are
 * judged and the user's file is never touched), with a progress notification whose
 * cancel button stops the run the way Ctrl-C does: the judge then reports what it
 * found so far.
 */
async function runWithProgress(
  binary: string,
  text: string,
  extension: string,
  seconds: number,
  name: string,
  output: vscode.OutputChannel,
): Promise<JudgeResult | JudgeFailure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cmg-judge-"));
  const file = path.join(dir, `solution${extension}`);
  fs.writeFileSync(file, text);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `cmg: judging ${name}`, cancellable: true },
      (progress, token) =>
        new Promise<JudgeResult | JudgeFailure>((resolve) => {
          const args = judgeArguments(file, seconds);
          output.appendLine(`cmg judge: ${binary} ${args.join(" ")}`);
          const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
          const stdout: Buffer[] = [];
          let stderr = "";
          child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
          child.stderr.on("data", (chunk: Buffer) => {
            stderr += chunk.toString("utf8");
          });
          const started = Date.now();
          const ticker = setInterval(() => {
            const elapsed = Math.round((Date.now() - started) / 1000);
            progress.report({ message: `${elapsed} s of at most ${seconds} s, shrinking aside` });
          }, 1000);
          token.onCancellationRequested(() => child.kill("SIGINT"));
          child.once("error", (error) => {
            clearInterval(ticker);
            resolve({ error: `could not run ${binary}: ${error.message}` });
          });
          child.once("close", () => {
            clearInterval(ticker);
            if (stderr.trim() !== "") {
              output.appendLine(stderr.trimEnd());
            }
            resolve(parseJudgeOutput(Buffer.concat(stdout).toString("utf8")));
          });
        }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function showReport(name: string, result: JudgeResult): void {
  const title = `Judge: ${name}`;
  const panel = vscode.window.createWebviewPanel("cmg.judgeReport", title, vscode.ViewColumn.Beside, {
    enableScripts: true,
    localResourceRoots: [],
  });
  const nonce = btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(16))));
  panel.webview.html = reportHtml(title, result, nonce);
  panel.webview.onDidReceiveMessage(async (message: { type?: string }) => {
    if (message.type === "open" && result.cmg !== null) {
      await openCounterexample(result.cmg);
    }
  });
  void vscode.window.showInformationMessage(`cmg judge: ${headline(result)}`);
}

/** The counterexample as a new .cmg document, with the game view beside it. */
async function openCounterexample(text: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: "cmg", content: text });
  await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  await vscode.commands.executeCommand("cmg.openGameView");
}
