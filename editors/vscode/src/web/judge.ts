// "cmg: Judge this solution" in VS Code for the Web: a JavaScript solution is judged in
// workers, as the playground judges it, with the playground's own workers (web/playground/
// judge-worker.ts and judge-solution.ts, bundled into dist/web) and judge.wasm, which
// are handed to the judge's worker as bytes. The report is the desktop's panel.

import * as vscode from "vscode";

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
    return runWithProgress(context, solution.text, solution.seconds, solution.name, output);
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
  seconds: number,
  name: string,
  output: vscode.OutputChannel,
): Promise<JudgeResult | JudgeFailure> {
  let started: { worker: Worker; how: string };
  let judgeWasm: ArrayBuffer;
  let solutionScript: ArrayBuffer;
  try {
    [started, judgeWasm, solutionScript] = await Promise.all([
      extensionWorker(context, "judge-worker.js"),
      extensionFile(context, "judge.wasm"),
      extensionFile(context, "judge-solution.js"),
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
          worker.addEventListener("message", (event: MessageEvent<FromJudge>) => {
            const message = event.data;
            if (message.type === "progress") {
              progress.report({ message: message.status });
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
            lang: "javascript",
            seconds,
            seed: 1,
            graphs: null,
            judgeWasm,
            solutionScript,
            // The panel draws no scene: the counterexample opens in the game view.
            coreWasm: null,
          };
          worker.postMessage(start, [judgeWasm, solutionScript]);
        }),
    );
  } finally {
    worker.terminate();
  }
}
