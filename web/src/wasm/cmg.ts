// The WebAssembly build of the cmg core (crates/cmg-wasm) behind a typed API: open a
// text, get its summary (outcome, moves, line, diagnostics), then ask for features of
// that text. The exports are described in docs/dev/wasm.md; the requests and answers are
// ./protocol.ts, generated from the Rust types by `cargo xtask codegen`.
// Runs in a browser, a web worker and Node.js alike.

import type { Answers, Request, Summary } from "./protocol";

// Every type of the protocol, generated from crates/cmg-wasm/src/protocol.rs.
export type * from "./protocol";
export type { Code, Severity } from "../generated/words";

/** A request's name. */
export type Method = Request["method"];

/** The requests about the open text, each with its parameters and its answer's type. */
export type Requests = {
  [M in Method]: { params: Omit<Extract<Request, { method: M }>, "method">; answer: Answers[M] };
};

interface Exports {
  memory: WebAssembly.Memory;
  cmg_alloc(len: number): number;
  cmg_open(pointer: number, len: number): number;
  cmg_request(pointer: number, len: number): number;
  cmg_output(): number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One instance of the module: one open text at a time. */
export class Cmg {
  private constructor(private readonly exports: Exports) {}

  /** Instantiates the module; it imports nothing. */
  static async load(module: WebAssembly.Module | BufferSource): Promise<Cmg> {
    const compiled = module instanceof WebAssembly.Module ? module : await WebAssembly.compile(module);
    const instance = await WebAssembly.instantiate(compiled, {});
    return new Cmg(instance.exports as unknown as Exports);
  }

  /** Analyses and solves `text` in place of the last one. */
  open(text: string): Summary {
    return this.call(this.exports.cmg_open, encoder.encode(text)) as Summary;
  }

  /** Asks for a feature of the open text. */
  request<M extends Method>(method: M, params: Requests[M]["params"]): Requests[M]["answer"] {
    return this.answer({ method, ...params } as Extract<Request, { method: M }>);
  }

  /** Answers a request as a worker receives it whole. */
  answer<R extends Request>(request: R): Answers[R["method"]] {
    const answer = this.call(this.exports.cmg_request, encoder.encode(JSON.stringify(request)));
    if (answer !== null && typeof answer === "object" && "error" in answer) {
      throw new Error(String((answer as { error: unknown }).error));
    }
    return answer as Answers[R["method"]];
  }

  private call(f: (pointer: number, len: number) => number, bytes: Uint8Array): unknown {
    const pointer = this.exports.cmg_alloc(bytes.length);
    // The memory may have grown (and its buffer changed) since the last call.
    new Uint8Array(this.exports.memory.buffer, pointer, bytes.length).set(bytes);
    const len = f(pointer, bytes.length);
    const output = new Uint8Array(this.exports.memory.buffer, this.exports.cmg_output(), len);
    return JSON.parse(decoder.decode(output));
  }
}
