// What Pyodide loads to run Python without packages: the files the build copies into the
// site's pyodide/ folder (judge-build.mjs) and the judge's worker looks for there
// (judge-solution.ts). Plain JavaScript, so that both node and the bundle read it.

/** @type {readonly string[]} */
export const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
