// The playground's analysis worker: the WebAssembly core on its own thread, so that a
// large paste or a long solve never freezes the page. One request at a time, in order;
// the page sends a text only when the last one is answered, so no stale text is
// analysed, and starts a new worker when one runs too long (playground/main.ts).

import { Cmg, type Requests } from "../src/wasm/cmg";

/** From the page: the compiled module first, then texts and requests about the last one. */
export type ToWorker =
  | { type: "module"; module: WebAssembly.Module }
  | { type: "open"; generation: number; text: string }
  | { type: "request"; id: number; method: keyof Requests; params: Record<string, unknown> };

export type FromWorker =
  | { type: "opened"; generation: number; summary: ReturnType<Cmg["open"]>; ms: number }
  | { type: "answer"; id: number; answer: unknown; error?: string };

let moduleArrived: (module: WebAssembly.Module) => void = () => {};
const cmg: Promise<Cmg> = new Promise<WebAssembly.Module>((resolve) => (moduleArrived = resolve)).then((module) =>
  Cmg.load(module),
);
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
      const summary = core.open(message.text);
      post({ type: "opened", generation: message.generation, summary, ms: performance.now() - started });
    } else {
      try {
        post({ type: "answer", id: message.id, answer: core.request(message.method, message.params as never) });
      } catch (error) {
        post({ type: "answer", id: message.id, answer: null, error: String(error) });
      }
    }
  });
});
