// What the extension does when the server fails: keep the end of its error output for
// the message, decide whether a crashed server is restarted, and word the one
// notification the user sees. No `vscode` import, so that node's test runner can check it.

/** How much of the server's stderr a notification quotes; the output channel has it all. */
const QUOTED_STDERR = 600;

/** Keeps the last characters of a stream, so that a server printing a lot stays bounded. */
export class OutputTail {
  private text = "";
  private cut = false;

  constructor(private readonly limit = 4000) {}

  append(chunk: string): void {
    const joined = this.text + chunk.slice(-this.limit);
    this.cut ||= joined.length > this.limit;
    this.text = joined.slice(-this.limit);
  }

  /** The last `chars` characters, trimmed, with "…" in front when something was left out. */
  last(chars: number): string {
    const trimmed = this.text.trim();
    const shown = trimmed.slice(-chars);
    return this.cut || shown.length < trimmed.length ? `…${shown}` : shown;
  }
}

/**
 * Restarts a server that crashed while running, but not one that keeps crashing: at
 * most `maxRestarts` within `windowMs`. A server that fails as it starts is never
 * restarted (the next start would fail the same way); that is the caller's check.
 */
export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly maxRestarts = 3,
    private readonly windowMs = 3 * 60_000,
  ) {}

  /** Records a crash at `now` (milliseconds) and says whether to restart. */
  crashed(now: number): boolean {
    this.crashes = this.crashes.filter((time) => now - time < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length <= this.maxRestarts;
  }

  /** Crashes within the window, the last one included. */
  get recent(): number {
    return this.crashes.length;
  }
}

/** How the server process ended, as `child_process` reports it. */
export interface Exit {
  code: number | null;
  signal: string | null;
}

export interface Failure {
  /** The binary that was run. */
  path: string;
  /** How it was found: "setting", "bundled" or "PATH". */
  source: string;
  /** Where `cmg.server.path` was read from, when it was the source. */
  settingOrigin?: string;
  /** Undefined while the process has not ended (it stopped answering instead). */
  exit: Exit | undefined;
  /** Why the client could not start the server, when the process has not exited (no such file, not executable...). */
  startError?: string;
  stderr: OutputTail;
  /** Whether the server had answered `initialize` before it failed. */
  started: boolean;
  /** For a server that crashed while running: how many times in the restart window. */
  crashes?: number;
}

/** The one message for a failed server: what ran, how it ended, and what it said. */
export function failureMessage(failure: Failure): string {
  const origin = failure.source === "setting" && failure.settingOrigin !== undefined
    ? `cmg.server.path in ${failure.settingOrigin}`
    : failure.source;
  const ended = failure.startError ?? describeExit(failure.exit);
  const what = failure.started
    ? `crashed ${failure.crashes ?? 1} times in a few minutes (${ended}) and is not restarted`
    : `failed as it started (${ended})`;
  const said = failure.stderr.last(QUOTED_STDERR);
  const output = said === "" ? "It printed nothing on stderr." : `Its stderr: ${said}`;
  return `cmg: the language server ${failure.path} (found via ${origin}) ${what}. ${output}`;
}

function describeExit(exit: Exit | undefined): string {
  if (exit === undefined) {
    return "the connection closed";
  }
  if (exit.signal !== null) {
    return `killed by ${exit.signal}`;
  }
  return `exit code ${exit.code ?? "unknown"}`;
}
