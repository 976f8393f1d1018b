// The judge's worker: `cmg-judge` in WebAssembly (judge.wasm, fetched when a judge first
// runs), driven one request at a time. Each request goes to a solution worker
// (judge-solution.ts), which may be ended and started again: a graph not answered within
// the time limit ends it (`terminate()`), and the judge is told `timedOut`. Nothing here
// waits on the solution: this worker only reacts to its messages and timers.

import { Cmg } from "../src/wasm/cmg";
import type { Answer, FromSolution, PyodideFiles, ToSolution } from "./judge-solution";
import { errorText } from "./error-text";

/**
 * Where the worker finds what it loads, each a URL or the file's bytes. The playground
 * leaves them out: its files lie beside this worker. VS Code for the Web passes bytes,
 * its worker being started from a blob URL that nothing resolves against.
 */
export interface JudgeFiles {
  /** judge.wasm; default "judge.wasm". */
  judgeWasm?: string | ArrayBuffer;
  /** The solution's worker (judge-solution.ts bundled); default "judge-solution.js". */
  solutionScript?: string | ArrayBuffer;
  /** cmg.wasm, for the counterexample's scene; default "cmg.wasm", null for no scene. */
  coreWasm?: string | null;
  /** Pyodide's files as bytes; default its "pyodide/" folder beside the solution's worker. */
  pyodide?: PyodideFiles;
}

/** From the page. */
export type ToJudge =
  | ({ type: "start"; code: string; lang: "python" | "javascript"; seconds: number; seed: number; graphs: number | null } & JudgeFiles)
  | { type: "stop" };

/** What the judge says of its progress. */
export interface Progress {
  phase: string;
  tried: number;
  leftMs: number;
  text: string;
  failedNodes: number | null;
}

/** To the page. */
export type FromJudge =
  | { type: "progress"; progress: Progress; status: string }
  /** The solution's runtime is ready (Pyodide loaded, the code run), after this long. */
  | { type: "loaded"; ms: number }
  | { type: "done"; report: Record<string, unknown>; text: string; cmg: string | null; scene: unknown }
  | { type: "error"; message: string };

/** How long one graph may take, once the solution's runtime is ready. */
export const GRAPH_MS = 5000;
/** How long Pyodide (or the JavaScript) may take to load and run the solution's file. */
const SETUP_MS = 60000;

const post = (message: FromJudge) => (self as unknown as Worker).postMessage(message);

interface Exports {
  memory: WebAssembly.Memory;
  judge_alloc(len: number): number;
  judge_start(pointer: number, len: number): number;
  judge_resume(pointer: number, len: number): number;
  judge_stop(): void;
  judge_output(): number;
}

/** A file's bytes: fetched when given by URL. */
async function bytesOf(file: string | ArrayBuffer): Promise<ArrayBuffer> {
  if (typeof file !== "string") return file;
  const response = await fetch(file);
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

let wasm: Promise<Exports> | null = null;
function loadJudge(file: string | ArrayBuffer): Promise<Exports> {
  wasm ??= bytesOf(file)
    .then((bytes) => WebAssembly.instantiate(bytes, { env: { judge_now: () => performance.now() } }))
    .then((instance) => instance.instance.exports as unknown as Exports);
  return wasm;
}

/** Calls `f` (judge_start or judge_resume) with `value` as JSON; its JSON answer. */
function call(judge: Exports, f: (pointer: number, len: number) => number, value: unknown): Record<string, unknown> {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const pointer = judge.judge_alloc(bytes.length);
  new Uint8Array(judge.memory.buffer, pointer, bytes.length).set(bytes);
  const len = f(pointer, bytes.length);
  const out = new Uint8Array(judge.memory.buffer, judge.judge_output(), len);
  return JSON.parse(new TextDecoder().decode(out)) as Record<string, unknown>;
}

/** The solution's worker, started afresh on demand. */
class SolutionWorker {
  private worker: Worker | null = null;
  private ready: Promise<string | null> | null = null;
  /** The answers of the request under way, and what ends it. */
  private answers: Answer[] = [];
  private expected = 0;
  private finish: ((answers: Answer[]) => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly code: string,
    private readonly lang: "python" | "javascript",
    /** The solution worker's script, as a URL a worker starts from. */
    private readonly script: string,
    private readonly pyodide: PyodideFiles | undefined,
  ) {}

  /** Starts a worker if none runs: the error that keeps the code from running, if any. */
  start(): Promise<string | null> {
    if (this.ready !== null) return this.ready;
    const worker = new Worker(this.script, { type: "module" });
    this.worker = worker;
    this.ready = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(`the ${this.lang} runtime did not start within ${SETUP_MS / 1000} s`), SETUP_MS);
      worker.addEventListener("message", (event: MessageEvent<FromSolution>) => {
        const message = event.data;
        if (message.type === "ready") {
          clearTimeout(timer);
          post({ type: "loaded", ms: message.loadMs });
          resolve(message.error);
        } else if (message.type === "answer") {
          this.received(message.answer);
        }
      });
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        clearTimeout(timer);
        resolve(`the worker failed: ${event.message}`);
        this.received({ crashed: `the worker failed: ${event.message}` });
      });
    });
    const message: ToSolution =
      this.pyodide === undefined
        ? { type: "code", code: this.code, lang: this.lang }
        : { type: "code", code: this.code, lang: this.lang, pyodide: this.pyodide };
    worker.postMessage(message);
    return this.ready;
  }

  /** Ends the worker: the next request starts a new one. */
  end(): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = null;
  }

  /** A fresh start: a new worker for JavaScript; for Python, a new namespace (Pyodide stays loaded). */
  restart(): void {
    if (this.lang === "javascript" || this.worker === null) {
      this.end();
      return;
    }
    const message: ToSolution = { type: "restart" };
    this.worker.postMessage(message);
  }

  /** The answers to `graphs`, up to the first that is not a value. */
  async ask(graphs: number[][][]): Promise<Answer[]> {
    const error = await this.start();
    if (error !== null) {
      this.end();
      // Nothing to judge: the code does not run.
      throw new Error(error);
    }
    return new Promise((resolve) => {
      this.answers = [];
      this.expected = graphs.length;
      this.finish = resolve;
      this.arm();
      const message: ToSolution = { type: "graphs", graphs };
      this.worker?.postMessage(message);
    });
  }

  /** The per-graph clock, from now. */
  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // A stuck solution: end its worker; the judge tries once more from a fresh start.
      this.end();
      this.received({ timedOut: true });
    }, GRAPH_MS);
  }

  private received(answer: Answer): void {
    if (this.finish === null) return;
    this.answers.push(answer);
    if (!("value" in answer)) this.end();
    if (!("value" in answer) || this.answers.length === this.expected) {
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
      const finish = this.finish;
      this.finish = null;
      finish(this.answers);
    } else {
      this.arm();
    }
  }

  /** The stop button: the request under way ends at once. */
  interrupt(): void {
    if (this.finish === null) return;
    this.end();
    this.received({ interrupted: true });
  }
}

/** The game view's scene of the counterexample, from the page's own core (cmg.wasm); null if it cannot be had. */
async function sceneOf(text: string, coreWasm: string | null): Promise<unknown> {
  if (coreWasm === null) return null;
  try {
    const response = await fetch(coreWasm);
    const core = await Cmg.load(await response.arrayBuffer());
    core.open(text);
    return core.request("scene", { explain: true });
  } catch {
    return null;
  }
}

let solution: SolutionWorker | null = null;
let judge: Exports | null = null;

function status(progress: Progress): string {
  const left = `${Math.ceil(progress.leftMs / 1000)} s left`;
  if (progress.phase === "after") {
    return `${progress.text || "checking the failure"}; ${left}`;
  }
  return `searching: ${progress.tried} graphs tried; ${left}`;
}

async function run(start: Extract<ToJudge, { type: "start" }>): Promise<void> {
  judge = await loadJudge(start.judgeWasm ?? "judge.wasm");
  const script = start.solutionScript ?? "judge-solution.js";
  const scriptUrl =
    typeof script === "string" ? script : URL.createObjectURL(new Blob([script], { type: "text/javascript" }));
  solution = new SolutionWorker(start.code, start.lang, scriptUrl, start.pyodide);
  // The runtime loads and the file runs before the clock starts, as `cmg judge` builds
  // the solution before its --seconds begin.
  const error = await solution.start();
  if (error !== null) throw new Error(error);
  const settings = {
    seconds: start.seconds,
    seed: start.seed,
    graphs: start.graphs,
    language: start.lang === "python" ? "Python" : "JavaScript",
  };
  let step = call(judge, judge.judge_start, settings);
  let lastProgress = 0;
  for (;;) {
    if (typeof step.error === "string") throw new Error(step.error);
    const progress = step.progress as Progress;
    if (performance.now() - lastProgress > 100 || step.ask === undefined) {
      lastProgress = performance.now();
      post({ type: "progress", progress, status: status(progress) });
    }
    let answers: Answer[];
    if (step.ask === "answers") {
      answers = await solution.ask(step.graphs as number[][][]);
    } else if (step.ask === "restart") {
      solution.restart();
      answers = [];
    } else {
      solution.end();
      const cmg = (step.cmg as string | null) ?? null;
      const scene = cmg === null ? null : await sceneOf(cmg, start.coreWasm === undefined ? "cmg.wasm" : start.coreWasm);
      post({ type: "done", report: step.done as Record<string, unknown>, text: String(step.text), cmg, scene });
      return;
    }
    step = call(judge, judge.judge_resume, answers);
  }
}

self.addEventListener("message", (event: MessageEvent<ToJudge>) => {
  const message = event.data;
  if (message.type === "start") {
    run(message).catch((error: unknown) => {
      solution?.end();
      post({ type: "error", message: error instanceof Error ? error.message : errorText(error) });
    });
  } else if (message.type === "stop") {
    judge?.judge_stop();
    solution?.interrupt();
  }
});
