// "cmg: Judge this solution" in VS Code for the Web: a JavaScript or Python solution is
// judged in workers, as the playground judges it, with the playground's own workers
// (web/playground/judge-worker.ts and judge-solution.ts, bundled into dist/web), judge.wasm
// and, for Python, Pyodide (dist/web/pyodide/), all handed to the judge's worker as
// bytes. The report is the desktop's panel.

import * as vscode from "vscode";

import type { PyodideFiles } from "../../../../web/playground/judge-solution";
import type { FromJudge, ToJudge } from "../../../../web/playground/judge-worker";
import { registerJudgeCommand } from "../judgePanel";
import {
  resultOfWorker,
  webRefusal,
  type JudgeFailure,
  type JudgeResult,
} from "../judgeReport";
import { extensionFile, extensionWorker } from "./workers";

export function registerWebJudge(context: vscode.ExtensionContext, output: vscode.OutputChannel): vscode.Disposable {
  return registerJudgeCommand(output, async (solution) => {
    const refusal = webRefusal(solution.languageId);
    if (refusal !== null) {
      void vscode.window.showInformationMessage(refusal);
      return null;
    }
    const lang = solution.languageId === "python" ? "python" : "javascript";
    return runWithProgress(context, solution.text, lang, solution.seconds, solution.name, output);
  });
}

/**
 * Judges `code` in the judge's worker, with a progress notification saying its phase and
 * time left, whose cancel button stops the run as the playground's stop button does: the
 * judge then reports what it found so far.
 */
async function runWithProgress(
  context: vscode.ExtensionContext,
  code: string,
  lang: "python" | "javascript",
  seconds: number,
  name: string,
  output: vscode.OutputChannel,
): Promise<JudgeResult | JudgeFailure> {
  let started: { worker: Worker; how: string };
  let judgeWasm: ArrayBuffer;
  let solutionScript: ArrayBuffer;
  let pyodide: PyodideFiles | undefined;
  try {
    [started, judgeWasm, solutionScript, pyodide] = await Promise.all([
      extensionWorker(context, "judge-worker.js"),
      extensionFile(context, "judge.wasm"),
      extensionFile(context, "judge-solution.js"),
      lang === "python" ? pyodideFiles(context) : undefined,
    ]);
  } catch (error) {
    return { error: `the judge cannot start: ${error instanceof Error ? error.message : String(error)}` };
  }
  const { worker, how } = started;
  output.appendLine(`cmg judge: ${name} in a web worker (WebAssembly), ${how}`);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `cmg: judging ${name}`, cancellable: true },
      (progress, token) =>
        new Promise<JudgeResult | JudgeFailure>((resolve) => {
          progress.report({ message: lang === "python" ? "loading Python (Pyodide)…" : "starting…" });
          worker.addEventListener("message", (event: MessageEvent<FromJudge>) => {
            const message = event.data;
            if (message.type === "progress") {
              progress.report({ message: message.status });
            } else if (message.type === "loaded") {
              output.appendLine(`cmg judge: the ${lang} runtime ran the solution's file in ${Math.round(message.ms)} ms`);
            } else if (message.type === "error") {
              resolve({ error: message.message });
            } else if (message.type === "done") {
              resolve(resultOfWorker(message));
            }
          });
          worker.addEventListener("error", (event) => {
            event.preventDefault();
            resolve({ error: `the judge's worker failed: ${event.message}` });
          });
          token.onCancellationRequested(() => {
            const stop: ToJudge = { type: "stop" };
            worker.postMessage(stop);
          });
          const start: ToJudge = {
            type: "start",
            code,
            lang,
            seconds,
            seed: 1,
            graphs: null,
            judgeWasm,
            solutionScript,
            // The panel draws no scene: the counterexample opens in the game view.
            coreWasm: null,
            ...(pyodide === undefined ? {} : { pyodide }),
          };
          worker.postMessage(start, [judgeWasm, solutionScript]);
        }),
    );
  } finally {
    worker.terminate();
  }
}

/** Pyodide's files, dist/web/pyodide/, by name: read only when a Python solution is judged. */
async function pyodideFiles(context: vscode.ExtensionContext): Promise<PyodideFiles> {
  const folder = vscode.Uri.joinPath(context.extensionUri, "dist", "web", "pyodide");
  const names = (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
  const files: PyodideFiles = {};
  for (const name of names) files[name] = await extensionFile(context, `pyodide/${name}`);
  return files;
}
