// "cmg: Judge this solution", its pure parts, kept free of the `vscode` module so that
// node's test runner can check them: which editor languages the judge takes and as
// what file, the command line, the JSON `cmg judge --json` prints, and the report page.

/** VS Code's language ids the judge takes, with the extension `cmg judge` reads them by. */
export const JUDGED_LANGUAGES: Readonly<Record<string, string>> = {
  python: ".py",
  javascript: ".js",
  java: ".java",
  cpp: ".cpp",
  rust: ".rs",
  go: ".go",
  c: ".c",
};

/** The judge's default time budget, the CLI's. */
export const DEFAULT_SECONDS = 60;

/**
 * Why VS Code for the Web cannot judge a solution in this language (a VS Code language
 * id the judge takes), or null when it can: it runs JavaScript and Python (Pyodide) in
 * workers, as the playground does; the other languages are built by the `cmg` program.
 */
export function webRefusal(languageId: string): string | null {
  if (languageId === "javascript" || languageId === "python") return null;
  const name = { java: "Java", cpp: "C++", rust: "Rust", go: "Go", c: "C" }[languageId] ?? languageId;
  return `cmg: judging ${name} needs the desktop VS Code with this extension (cmg builds and runs the solution with its compiler): VS Code for the Web judges JavaScript and Python only.`;
}

/** The judge's verdicts, as `cmg judge --json` words them (docs/json.md). */
export type Verdict = "no-counterexample" | "wrong-answer" | "runtime-error" | "time-limit" | "memory-limit";

/** What the panel shows of one run: the JSON's fields it reads. */
export interface JudgeResult {
  verdict: Verdict;
  /** The counterexample as LeetCode's adjacency list; absent with `no-counterexample`. */
  graph?: number[][];
  /** The counterexample as a `.cmg` file with its `expect` line. */
  cmg: string | null;
  /** The report as the terminal shows it. */
  report: string;
  interrupted: boolean;
  seconds: number;
}

/** A run that ended without a result: a build that failed, a file in the wrong shape. */
export interface JudgeFailure {
  error: string;
}

const VERDICTS: readonly Verdict[] = ["no-counterexample", "wrong-answer", "runtime-error", "time-limit", "memory-limit"];

/** The arguments of `cmg judge` for a solution file and a time budget in seconds. */
export function judgeArguments(file: string, seconds: number): string[] {
  return ["judge", file, "--json", "--color", "never", "--seconds", String(seconds)];
}

/**
 * What `cmg judge --json` printed: a result, or the error it reports (exit 2), or
 * an error saying what was wrong with the output itself.
 */
export function parseJudgeOutput(stdout: string): JudgeResult | JudgeFailure {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    const shown = stdout.trim().slice(0, 400);
    return { error: shown === "" ? "cmg judge printed nothing" : `cmg judge printed no JSON: ${shown}` };
  }
  if (typeof value !== "object" || value === null) {
    return { error: "cmg judge printed JSON that is not an object" };
  }
  return resultOf(value as Record<string, unknown>);
}

/**
 * What the judge's worker of VS Code for the Web (the playground's, web/playground/
 * judge-worker.ts) says when done: the JSON `cmg judge --json` prints, less the report
 * and the graph as a .cmg file, which come beside it.
 */
export function resultOfWorker(done: {
  report: Record<string, unknown>;
  text: string;
  cmg: string | null;
}): JudgeResult | JudgeFailure {
  return resultOf({ ...done.report, report: done.text, cmg: done.cmg });
}

function resultOf(object: Record<string, unknown>): JudgeResult | JudgeFailure {
  const verdict = object.verdict;
  if (typeof verdict !== "string" || !(VERDICTS as readonly string[]).includes(verdict)) {
    return {
      error: typeof object.error === "string" ? object.error : `cmg judge gave no verdict: ${JSON.stringify(object).slice(0, 400)}`,
    };
  }
  const result: JudgeResult = {
    verdict: verdict as Verdict,
    cmg: typeof object.cmg === "string" ? object.cmg : null,
    report: typeof object.report === "string" ? object.report : "",
    interrupted: object.interrupted === true,
    seconds: typeof object.seconds === "number" ? object.seconds : 0,
  };
  if (Array.isArray(object.graph)) {
    result.graph = object.graph as number[][];
  }
  return result;
}

/** The headline of a result, as a notification or the panel's heading says it. */
export function headline(result: JudgeResult): string {
  const nodes = result.graph === undefined ? "" : ` on a graph of ${result.graph.length} nodes`;
  const stopped = result.interrupted ? " (stopped early)" : "";
  switch (result.verdict) {
    case "no-counterexample":
      return `No counterexample found${stopped}`;
    case "wrong-answer":
      return `Wrong answer${nodes}${stopped}`;
    case "runtime-error":
      return `Runtime error${nodes}${stopped}`;
    case "time-limit":
      return `Time limit exceeded${nodes}${stopped}`;
    case "memory-limit":
      return `Memory limit exceeded${nodes}${stopped}`;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The report panel's page: the headline, the terminal's report, and an "Open
 * counterexample" button when there is one. No scripts but the one with `nonce`, no
 * resources at all.
 */
export function reportHtml(title: string, result: JudgeResult, nonce: string): string {
  const policy = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`;
  const open =
    result.cmg === null
      ? ""
      : `<p><button id="open" data-judge-open>Open counterexample</button></p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
pre { font-family: var(--vscode-editor-font-family); white-space: pre-wrap; }
button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 12px; cursor: pointer; }
</style>
</head>
<body>
<h2 data-verdict="${result.verdict}">${escapeHtml(headline(result))}</h2>
${open}
<pre id="report">${escapeHtml(result.report)}</pre>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.getElementById("open")?.addEventListener("click", () => vscode.postMessage({ type: "open" }));
</script>
</body>
</html>
`;
}
