// Builds the extension: copies the grammar from `grammar/` (its one home, so it is
// never committed twice) and bundles the client with esbuild into `dist/extension.js`
// (the desktop entry, which starts `cmg lsp`), and the entry of VS Code for the Web
// into `dist/web/extension.js` with its language server, the WebAssembly core inside,
// in `dist/web/server.js`, and the playground's judge workers (web/playground/judge-
// worker.ts, judge-solution.ts) with judge.wasm, which the web entry's judge runs. The
// core is `CMG_WASM` when set, else `${CARGO_TARGET_DIR:-target}/wasm/cmg.wasm`, which
// `bash .ci/wasm.sh` builds; judge.wasm is the one beside it. Pyodide's files come from
// web/node_modules (npm ci in web/).

import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { copyPyodide } from "../../../web/playground/judge-build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

mkdirSync(join(root, "syntaxes"), { recursive: true });
copyFileSync(
  join(root, "..", "..", "grammar", "cmg.tmLanguage.json"),
  join(root, "syntaxes", "cmg.tmLanguage.json"),
);

// The game view's page and bundle, from `web/` (built and committed there).
mkdirSync(join(root, "media"), { recursive: true });
for (const [from, to] of [
  ["src/index.html", "index.html"],
  ["dist/view.js", "view.js"],
  ["dist/view.css", "view.css"],
]) {
  copyFileSync(join(root, "..", "..", "web", from), join(root, "media", to));
}

const targetDir = process.env.CARGO_TARGET_DIR
  ? resolve(root, "..", "..", process.env.CARGO_TARGET_DIR)
  : join(root, "..", "..", "target");
// A relative CMG_WASM is read from the repository root, where the scripts run.
const wasm = process.env.CMG_WASM
  ? resolve(root, "..", "..", process.env.CMG_WASM)
  : join(targetDir, "wasm", "cmg.wasm");
if (!existsSync(wasm)) {
  process.stderr.write(`build: ${wasm} is missing: run \`bash .ci/wasm.sh\` first (or set CMG_WASM), for the web entry\n`);
  process.exit(1);
}
const judgeWasm = join(dirname(wasm), "judge.wasm");
if (!existsSync(judgeWasm)) {
  process.stderr.write(`build: ${judgeWasm} is missing: run \`bash .ci/wasm.sh\` first, for the web entry's judge\n`);
  process.exit(1);
}
mkdirSync(join(root, "dist", "web"), { recursive: true });
copyFileSync(judgeWasm, join(root, "dist", "web", "judge.wasm"));
// Pyodide, for judging Python: the playground's files, from npm's package in web/.
copyPyodide(join(root, "dist", "web", "pyodide"));
/** `import wasm from "cmg:wasm"`: the core's bytes, embedded in the worker's bundle. */
const embedWasm = {
  name: "cmg-wasm",
  setup(build) {
    build.onResolve({ filter: /^cmg:wasm$/ }, () => ({ path: wasm, namespace: "cmg-wasm" }));
    build.onLoad({ filter: /.*/, namespace: "cmg-wasm" }, () => ({ contents: readFileSync(wasm), loader: "binary" }));
  },
};

/** What every bundle shares: one file, minified (well under the size vsce warns about). */
const bundled = { bundle: true, minify: true, logLevel: "warning" };
/** The web entry and its worker run in a browser's extension host. */
const browser = { ...bundled, platform: "browser", target: "es2022" };
const results = [
  await build({
    ...bundled,
    entryPoints: [join(root, "src", "extension.ts")],
    outfile: join(root, "dist", "extension.js"),
    platform: "node",
    format: "cjs",
    target: "node18",
    // VS Code provides this module at run time; it cannot be bundled.
    external: ["vscode"],
    sourcemap: false,
  }),
  await build({
    ...browser,
    entryPoints: [join(root, "src", "web", "extension.ts")],
    outfile: join(root, "dist", "web", "extension.js"),
    format: "cjs",
    external: ["vscode"],
  }),
  await build({
    ...browser,
    entryPoints: [join(root, "src", "web", "server.ts")],
    outfile: join(root, "dist", "web", "server.js"),
    format: "iife",
    plugins: [embedWasm],
  }),
  // The judge's workers, as the playground bundles them (web/playground/build.mjs).
  await build({
    ...browser,
    entryPoints: {
      "judge-worker": join(root, "..", "..", "web", "playground", "judge-worker.ts"),
      "judge-solution": join(root, "..", "..", "web", "playground", "judge-solution.ts"),
    },
    outdir: join(root, "dist", "web"),
    format: "iife",
  }),
];
// esbuild has printed any warning already; failing on it keeps the build clean.
if (results.some((result) => result.warnings.length > 0)) {
  process.exit(1);
}
