// The solution's worker (a module worker, as Pyodide needs): runs the pasted code, JavaScript as is, Python in Pyodide
// (served from this site's pyodide/ folder, loaded only here), and answers graphs one by
// one, each as soon as it is computed, as LeetCode calls it: `catMouseGame(graph)` for
// JavaScript, `Solution().catMouseGame(graph)` (a new object per graph) for Python. The
// judge's worker ends this worker when a graph takes too long.

import { errorText } from "./error-text";
import { PYODIDE_FILES } from "./pyodide-files.mjs";

/** One answer, as the judge's .wasm reads it. */
export type Answer =
  | { value: string }
  | { crashed: string }
  | { outOfMemory: string }
  | { timedOut: true }
  | { interrupted: true };

export type ToSolution =
  /** `pyodide`: Pyodide's files by name, when the worker has no site to fetch them from. */
  | { type: "code"; code: string; lang: "python" | "javascript"; pyodide?: PyodideFiles }
  /** A fresh start without a new worker: Python's namespace made anew. */
  | { type: "restart" }
  | { type: "graphs"; graphs: number[][][] };

export type FromSolution =
  /** The code ran; `error` when it cannot be judged (wrong shape, syntax error). */
  | { type: "ready"; error: string | null; loadMs: number }
  | { type: "answer"; answer: Answer };

/** Pyodide's files (PYODIDE_FILES, pyodide-files.mjs) by name, as bytes. */
export type PyodideFiles = Record<string, ArrayBuffer>;

const post = (message: FromSolution) => (self as unknown as Worker).postMessage(message);

/** Answers graphs in turn, posting each answer, up to the first that is not a value. */
type Solve = (graphs: number[][][], post: (answer: Answer) => void) => void;

/** What the code must define, and a two-line example, as `cmg judge` says it. */
const SHAPES = {
  python: {
    ok: (code: string) => code.includes("class Solution") && code.includes("def catMouseGame"),
    expected: "a class `Solution` with a method `catMouseGame(self, graph)`",
    example: "class Solution:\n    def catMouseGame(self, graph: List[List[int]]) -> int:",
  },
  javascript: {
    ok: (code: string) => /function catMouseGame|catMouseGame\s*=/.test(code),
    expected: "a function `catMouseGame(graph)`",
    example: "var catMouseGame = function(graph) {\n    ...",
  },
};

/** An error's message, and the frames of the solution's own code. */
function jsError(error: unknown): string {
  if (!(error instanceof Error)) return `uncaught ${errorText(error)}`;
  const own = (error.stack ?? "")
    .split("\n")
    .filter((line) => line.includes("solution.js"))
    .map((line) => line.trim());
  return [`${error.name}: ${error.message}`, ...own].join("\n");
}

function isOutOfMemory(text: string): boolean {
  return /MemoryError|Array buffer allocation failed|out of memory/i.test(text);
}

function crashed(text: string): Answer {
  return isOutOfMemory(text) ? { outOfMemory: text } : { crashed: text };
}

function javascript(code: string): Solve {
  // Named so that its frames say `solution.js`.
  const make = new Function(`${code}\n;return catMouseGame;\n//# sourceURL=solution.js`) as () => unknown;
  const solve = make();
  if (typeof solve !== "function") throw new Error("catMouseGame is not a function");
  return (graphs, post) => {
    for (const graph of graphs) {
      let answer: Answer;
      try {
        answer = { value: String(solve(graph)) };
      } catch (error) {
        answer = crashed(jsError(error));
      }
      post(answer);
      if (!("value" in answer)) return;
    }
  };
}

// The prelude of `cmg judge`'s Python harness, less its descriptors.
const PY_PRELUDE = `import sys, collections, functools, itertools, heapq, math, bisect
from typing import *
from collections import *
from functools import *
from itertools import *
from heapq import *
sys.setrecursionlimit(100000)
`;

// Runs the code in a namespace of its own, and answers a graph (JSON) as `cmg judge`'s
// harness writes it, or the exception with the solution's own frames.
const PY_RUNNER = `
import json, sys, traceback

def __cmg_namespace(code):
    space = {"__name__": "__main__"}
    exec(compile(PRELUDE, "prelude.py", "exec"), space)
    exec(compile(code, "solution.py", "exec"), space)
    return space

def __cmg_answer(space, graph):
    try:
        return "value", "%s" % (space["Solution"]().catMouseGame(graph),)
    except BaseException as error:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == "solution.py"]
        lines = ["Traceback (most recent call last):\\n"] if frames else []
        lines += traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
        return ("memory" if isinstance(error, MemoryError) else "error"), "".join(lines).rstrip()

def __cmg_batch(space, text, post):
    for graph in json.loads(text):
        kind, answer = __cmg_answer(space, graph)
        post(kind, answer)
        if kind != "value":
            break
`;

interface PyProxy {
  toJs(): unknown;
  destroy(): void;
}
interface Pyodide {
  runPython(code: string, options?: { globals?: PyProxy }): unknown;
  globals: { get(name: string): ((...args: unknown[]) => PyProxy) & PyProxy; set(name: string, value: unknown): void };
}
/** Pyodide's loader; the last three are given when it loads from bytes. */
type LoadPyodide = (options: {
  indexURL: string;
  packageBaseUrl: string;
  createPyodideModule?: unknown;
  stdLibURL?: string;
  lockFileContents?: string;
}) => Promise<Pyodide>;

/** The address Pyodide fetches its .wasm from when given its files as bytes: never asked of a network. */
const IN_MEMORY = "https://pyodide.invalid/";

/**
 * Pyodide from its files' bytes (VS Code for the Web, whose workers have no URL of the
 * extension's): its two modules imported from blob URLs, and what it fetches (its .wasm
 * and standard library, at IN_MEMORY) answered here, since a worker's policy may forbid
 * fetching even blob URLs.
 */
async function pyodideFromBytes(files: PyodideFiles): Promise<Pyodide> {
  const file = (name: string): ArrayBuffer => {
    const bytes = files[name];
    if (bytes === undefined) throw new Error(`Pyodide's ${name} is missing from the files handed to the judge`);
    return bytes;
  };
  // All of them before Pyodide starts: one missing later would leave it waiting.
  for (const name of PYODIDE_FILES) file(name);
  const fetchFromSite = self.fetch.bind(self);
  self.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(IN_MEMORY)) return fetchFromSite(input, init);
    const name = url.slice(IN_MEMORY.length);
    const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
    return Promise.resolve(new Response(file(name), { headers: { "Content-Type": type } }));
  };
  const module = (name: string) => URL.createObjectURL(new Blob([file(name)], { type: "text/javascript" }));
  const { loadPyodide } = (await import(module("pyodide.mjs"))) as { loadPyodide: LoadPyodide };
  const asm = (await import(module("pyodide.asm.mjs"))) as { default: unknown };
  return loadPyodide({
    indexURL: IN_MEMORY,
    packageBaseUrl: IN_MEMORY,
    createPyodideModule: asm.default,
    stdLibURL: `${IN_MEMORY}python_stdlib.zip`,
    lockFileContents: new TextDecoder().decode(file("pyodide-lock.json")),
  });
}

let pyodide: Pyodide | null = null;
let pythonCode = "";
let space: PyProxy | null = null;

/**
 * Fails at once, naming the file, when one of Pyodide's files is not on the site: a
 * missing pyodide.asm.wasm would otherwise leave Pyodide waiting until the judge's setup
 * time runs out. One HEAD request a file, all at once, beside Pyodide's load; a host
 * that answers HEAD with "not allowed" is given the benefit of the doubt.
 */
async function checkPyodideFiles(indexURL: string): Promise<void> {
  const missing = await Promise.all(
    PYODIDE_FILES.map(async (name) => {
      const url = `${indexURL}${name}`;
      try {
        const response = await fetch(url, { method: "HEAD" });
        return response.ok || response.status === 405 || response.status === 501 ? null : `${name} (HTTP ${response.status})`;
      } catch (error) {
        return `${name} (${errorText(error)})`;
      }
    }),
  );
  const gone = missing.filter((name) => name !== null);
  if (gone.length > 0) {
    throw new Error(
      `Pyodide's ${gone.join(", ")} cannot be loaded from ${indexURL}: the site's pyodide/ folder must hold ${PYODIDE_FILES.join(", ")}, ` +
        "which the playground's build copies from npm's pyodide package (npm ci, then node web/playground/build.mjs); or judge the file with `cmg judge`",
    );
  }
}

/**
 * Pyodide from the site's pyodide/ folder, beside this worker. The check of its files runs
 * beside the load, which it does not delay: a file missing ends the wait as soon as the
 * check knows, even while Pyodide still waits for that file, and a load that fails on its
 * own gives way to the check's clearer message.
 */
async function pyodideFromSite(): Promise<Pyodide> {
  const indexURL = new URL("pyodide/", self.location.href).href;
  const checked = checkPyodideFiles(indexURL);
  const loaded = (async () => {
    // Pyodide runs in module workers only; its module is the site's own copy.
    const { loadPyodide } = (await import(`${indexURL}pyodide.mjs`)) as { loadPyodide: LoadPyodide };
    // The packages too would come from this site (none is loaded).
    return loadPyodide({ indexURL, packageBaseUrl: indexURL });
  })();
  // A check that fails answers first; one that passes leaves the load to answer.
  try {
    return await Promise.race([loaded, checked.then(() => loaded)]);
  } catch (error) {
    await checked;
    throw error;
  }
}

async function python(code: string, files: PyodideFiles | undefined): Promise<Solve> {
  if (pyodide === null) {
    pyodide = files === undefined ? await pyodideFromSite() : await pyodideFromBytes(files);
    pyodide.globals.set("PRELUDE", PY_PRELUDE);
    pyodide.runPython(PY_RUNNER);
  }
  pythonCode = code;
  freshNamespace();
  const batch = pyodide.globals.get("__cmg_batch");
  // A batch in one call, each answer posted as soon as it is computed.
  return (graphs, post) => {
    batch(space, JSON.stringify(graphs), (kind: string, text: string) => {
      post(kind === "value" ? { value: text } : kind === "memory" ? { outOfMemory: text } : { crashed: text });
    });
  };
}

/** Python's fresh start: the code run again in a new namespace. */
function freshNamespace(): void {
  if (pyodide === null) return;
  space?.destroy();
  space = pyodide.globals.get("__cmg_namespace")(pythonCode);
}

let solve: Solve | null = null;

self.addEventListener("message", (event: MessageEvent<ToSolution>) => {
  const message = event.data;
  if (message.type === "code") {
    const shape = SHAPES[message.lang];
    if (!shape.ok(message.code)) {
      post({
        type: "ready",
        error: `the solution must define ${shape.expected}, as LeetCode gives it:\n${shape.example}`,
        loadMs: 0,
      });
      return;
    }
    const started = performance.now();
    const made = message.lang === "python" ? python(message.code, message.pyodide) : Promise.resolve().then(() => javascript(message.code));
    made.then(
      (made) => {
        solve = made;
        post({ type: "ready", error: null, loadMs: performance.now() - started });
      },
      (error: unknown) => {
        const text = error instanceof Error && message.lang === "javascript" ? jsError(error) : errorText(error);
        post({ type: "ready", error: `the solution does not run: ${text}`, loadMs: performance.now() - started });
      },
    );
  } else if (message.type === "restart") {
    freshNamespace();
  } else if (solve !== null) {
    solve(message.graphs, (answer) => post({ type: "answer", answer }));
  }
});
