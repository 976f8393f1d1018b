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
import { OutputTail } from "./failure";
import { registerJudgeCommand } from "./judgePanel";
import {
  JUDGED_LANGUAGES,
  judgeArguments,
  parseJudgeOutput,
  type JudgeFailure,
  type JudgeResult,
} from "./judgeReport";

/** The most `cmg judge --json` may print before it is taken for something else. */
const MAX_OUTPUT_BYTES = 16 << 20;

export function registerJudge(findBinary: () => Discovery, output: vscode.OutputChannel): vscode.Disposable {
  return registerJudgeCommand(output, async (solution) => {
    const found = findBinary();
    if (!found.ok) {
      void vscode.window.showErrorMessage(found.message);
      return null;
    }
    const extension = JUDGED_LANGUAGES[solution.languageId] ?? "";
    return runWithProgress(found.path, solution.text, extension, solution.seconds, solution.name, output);
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
          // The judge's JSON is small (its report and error are bounded); a binary that
          // prints without end is stopped rather than read into memory.
          const stdout: Buffer[] = [];
          let stdoutBytes = 0;
          const stderr = new OutputTail();
          child.stdout.on("data", (chunk: Buffer) => {
            stdoutBytes += chunk.length;
            if (stdoutBytes > MAX_OUTPUT_BYTES) {
              child.kill();
              resolve({ error: `${binary} printed more than ${MAX_OUTPUT_BYTES >> 20} MiB: it is not cmg judge's JSON` });
              return;
            }
            stdout.push(chunk);
          });
          child.stderr.on("data", (chunk: Buffer) => stderr.append(chunk.toString("utf8")));
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
            const said = stderr.last(4000);
            if (said !== "") {
              output.appendLine(said);
            }
            resolve(parseJudgeOutput(Buffer.concat(stdout).toString("utf8")));
          });
        }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
