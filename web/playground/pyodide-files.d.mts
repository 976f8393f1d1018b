// The type of pyodide-files.mjs, for the TypeScript that imports it (the judge's worker,
// here and in the VS Code extension's web build).

/** What Pyodide loads to run Python without packages. */
export declare const PYODIDE_FILES: readonly string[];
