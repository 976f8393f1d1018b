// The report of "cmg: Judge this solution", on the desktop and in VS Code for the Web:
// a panel with the report (judgeReport.ts), whose "Open counterexample" opens the graph
// as a new .cmg document with the game view beside it. No Node.js module here: the
// web entry bundles it too.

import * as vscode from "vscode";

import {
  DEFAULT_SECONDS,
  headline,
  JUDGED_LANGUAGES,
  reportHtml,
  type JudgeFailure,
  type JudgeResult,
} from "./judgeReport";

/** The solution in front of the user, as a judge takes it. */
export interface Solution {
  text: string;
  /** A VS Code language id of JUDGED_LANGUAGES. */
  languageId: string;
  /** The file's name, for titles. */
  name: string;
  /** The time budget, `cmg.judge.seconds`. */
  seconds: number;
}

/**
 * The command `cmg.judge`, on the desktop and in the browser: the solution in front of
 * the user to `judge`, then its report or its error. `judge` returns null when it has
 * told the user itself why it does not run.
 */
export function registerJudgeCommand(
  output: vscode.OutputChannel,
  judge: (solution: Solution) => Promise<JudgeResult | JudgeFailure | null>,
): vscode.Disposable {
  return vscode.commands.registerCommand("cmg.judge", async () => {
    const editor = vscode.window.activeTextEditor;
    const languageId = editor?.document.languageId;
    if (editor === undefined || languageId === undefined || JUDGED_LANGUAGES[languageId] === undefined) {
      void vscode.window.showInformationMessage(
        "cmg: open a solution in Python, JavaScript, Java, C++, Rust, Go or C to judge it.",
      );
      return;
    }
    const seconds = vscode.workspace.getConfiguration("cmg").get<number>("judge.seconds") ?? DEFAULT_SECONDS;
    const name = editor.document.uri.path.split("/").pop() || "solution";
    const result = await judge({ text: editor.document.getText(), languageId, name, seconds });
    if (result === null) return;
    if ("error" in result) {
      output.appendLine(`cmg judge: ${result.error}`);
      void vscode.window.showErrorMessage(`cmg judge: ${result.error}`);
      return;
    }
    showReport(name, result);
  });
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
