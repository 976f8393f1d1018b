// The judge's part of the playground's build (build.mjs): its stylesheet, judge.wasm
// (built by .ci/wasm.sh beside cmg.wasm) and Pyodide from npm's `pyodide` package, served
// from the site's own pyodide/ folder: never from another site.

import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

import { PYODIDE_FILES } from "./pyodide-files.mjs";

const here = new URL(".", import.meta.url).pathname;

/** Copies Pyodide's files from npm's package (web/node_modules/pyodide) into `dir`. */
export function copyPyodide(dir) {
  const pyodide = join(here, "../node_modules/pyodide");
  if (!existsSync(pyodide)) throw new Error("no web/node_modules/pyodide: run npm ci in web/");
  mkdirSync(dir, { recursive: true });
  for (const file of PYODIDE_FILES) copyFileSync(join(pyodide, file), join(dir, file));
}

export function copyJudge(out, judgeWasm) {
  if (!existsSync(judgeWasm)) throw new Error(`playground: no ${judgeWasm}: run bash .ci/wasm.sh first`);
  copyFileSync(judgeWasm, join(out, "judge.wasm"));
  copyFileSync(join(here, "judge.css"), join(out, "judge.css"));
  copyPyodide(join(out, "pyodide"));
}
