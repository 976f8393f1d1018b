// The WebAssembly build of the cmg core (crates/cmg-wasm) behind a typed API: open a
// text, get its summary (outcome, moves, line, diagnostics), then ask for features of
// that text. The JSON interface and its exports are described in docs/dev/wasm.md.
// Runs in a browser, a web worker and Node.js alike.

import type { Code, Severity } from "../generated/words";

export type { Code, Severity };

/** Line and character from 0, the character in UTF-16 code units (as JavaScript counts). */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Diagnostic {
  code: Code;
  severity: Severity;
  message: string;
  range: Range;
  related?: { message: string; range: Range };
}

export type Outcome = "mouse" | "cat" | "draw";

/** What opening a text answers: the outcome from the standard start and the diagnostics. */
export interface Summary {
  outcome: Outcome | null;
  /** LeetCode's code: 1 mouse, 2 cat, 0 draw. */
  result: 0 | 1 | 2 | null;
  /** Moves (plies) to the end; null for a draw or no outcome. */
  moves: number | null;
  /** "cat wins in 4", or why there is no outcome. */
  summary: string;
  reason: string | null;
  nodes: number;
  edges: number;
  /** The optimal line as [mouse, cat] node ids, the start included. */
  line: [number, number][];
  /** False when the file has syntax errors (the outcome is that of what parsed). */
  complete: boolean;
  syntaxErrors: number;
  diagnostics: Diagnostic[];
  /** Diagnostics left out above the cap. */
  diagnosticsOmitted: number;
}

export interface Hover {
  range: Range;
  markdown: string;
}

export interface InlayHint {
  position: Position;
  label: string;
  kind: "outcome" | "node-outcome" | "critical-edge";
  tooltip: string | null;
  paddingLeft: boolean;
  paddingRight: boolean;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface CodeAction {
  title: string;
  kind: "quickfix" | "refactor";
  /** The code of the diagnostic a quick fix resolves. */
  fixes: string | null;
  preferred: boolean;
  edits: TextEdit[];
}

/** The requests about the open text, each with its answer's type. */
export interface Requests {
  summary: { params: Record<string, never>; answer: Summary };
  format: { params: Record<string, never>; answer: { text: string } | null };
  hover: { params: { position: Position; explain?: boolean }; answer: Hover | null };
  inlayHints: { params: Record<string, never>; answer: InlayHint[] | null };
  codeActions: { params: { range: Range }; answer: CodeAction[] | null };
  /** The tokens classified by the language server's table: four numbers a token (line, character, length, kind). */
  semanticTokens: { params: { range?: Range }; answer: { kinds: string[]; data: number[] } | null };
  /** The game view's scene (docs/view.md); `positions` seeds the layout. */
  scene: { params: { positions?: Record<number, [number, number]>; explain?: boolean }; answer: unknown };
  /** One slice of the position table (docs/view.md). */
  slice: { params: { cat: number; turn: "mouse" | "cat" }; answer: unknown };
  /** The mentions of the node at `position`, its declarations as writes. */
  highlights: { params: { position: Position }; answer: { range: Range; kind: "read" | "write" }[] | null };
}

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
  request<M extends keyof Requests>(method: M, params: Requests[M]["params"]): Requests[M]["answer"] {
    const answer = this.call(this.exports.cmg_request, encoder.encode(JSON.stringify({ method, ...params })));
    if (answer !== null && typeof answer === "object" && "error" in answer) {
      throw new Error(String((answer as { error: unknown }).error));
    }
    return answer as Requests[M]["answer"];
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
