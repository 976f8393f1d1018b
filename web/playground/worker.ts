// The playground's analysis worker: the WebAssembly core on its own thread, so that a
// large paste or a long solve never freezes the page. One request at a time, in order;
// the page sends a text only when the last one is answered, so no stale text is
// analysed, and starts a new worker when one runs too long (playground/main.ts).

import { Cmg, type Request, type Summary } from "../src/wasm/cmg";

/** From the page: the compiled module first, then texts and requests about the last one. */
export type ToWorker =
  | { type: "module"; module: WebAssembly.Module }
  | { type: "open"; generation: number; text: string }
  | { type: "request"; id: number; request: Request };

export type FromWorker =
  | { type: "opened"; generation: number; summary: Summary; ms: number }
  | { type: "answer"; id: number; answer: unknown; error?: string };

let moduleArrived: (module: WebAssembly.Module) => void = () => {};
const compiled = new Promise<WebAssembly.Module>((resolve) => (moduleArrived = resolve));
let cmg: Promise<Cmg> = compiled.then((module) => Cmg.load(module));

/** The summary of a text whose analysis trapped (out of memory, or a bug): a new instance takes over. */
function failed(error: unknown): Summary {
  cmg = compiled.then((module) => Cmg.load(module));
  const message = `the analysis stopped: ${String(error)}`;
  return {
    outcome: null, result: null, moves: null, summary: message, reason: message, nodes: 0, edges: 0, line: [],
    complete: false, syntaxErrors: 0, diagnostics: [], diagnosticsOmitted: 0,
  };
}
const post = (message: FromWorker) => (self as unknown as Worker).postMessage(message);

// Messages wait for the module, then run in arrival order.
let queue: Promise<void> = Promise.resolve();
self.addEventListener("message", (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "module") {
    moduleArrived(message.module);
    return;
  }
  queue = queue.then(async () => {
    const core = await cmg;
    if (message.type === "open") {
      const started = performance.now();
      let summary: Summary;
      try {
        summary = core.open(message.text);
      } catch (error) {
        summary = failed(error);
      }
      post({ type: "opened", generation: message.generation, summary, ms: performance.now() - started });
    } else {
      try {
        post({ type: "answer", id: message.id, answer: core.answer(message.request) });
      } catch (error) {
        // A trap leaves the instance unusable; a bad request (an Error from cmg.ts) does not.
        if (error instanceof WebAssembly.RuntimeError) failed(error);
        post({ type: "answer", id: message.id, answer: null, error: String(error) });
      }
    }
  });
});
