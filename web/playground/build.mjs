// Builds the playground, a static site, into $CARGO_TARGET_DIR/playground/ (or the
// directory given): the page and its worker bundled by esbuild, the examples put into
// the page, the game view of web/ (dist/, as `cmg view` serves it) in a frame, and the
// .wasm that .ci/wasm.sh built.
//
// Usage: node playground/build.mjs [OUT_DIR] [--wasm PATH]

import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { copyJudge } from "./judge-build.mjs";

const here = new URL(".", import.meta.url).pathname;
const root = resolve(here, "../..");
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const args = process.argv.slice(2);
const wasmAt = args.indexOf("--wasm");
const wasm = wasmAt >= 0 ? resolve(args[wasmAt + 1]) : join(target, "wasm/cmg.wasm");
const out = resolve(args.find((arg, i) => !arg.startsWith("--") && args[i - 1] !== "--wasm") ?? join(target, "playground"));
if (!existsSync(wasm)) throw new Error(`playground: no ${wasm}: run bash .ci/wasm.sh first`);
mkdirSync(out, { recursive: true });

/** Every example and record graph, by its path under examples/, the plain examples first. */
function examples() {
  const dir = join(root, "examples");
  const list = (sub) =>
    readdirSync(join(dir, sub))
      .filter((name) => name.endsWith(".cmg"))
      .sort()
      .map((name) => ({ name: sub === "" ? name : `${sub}/${name}`, text: readFileSync(join(dir, sub, name), "utf8") }));
  return [...list(""), ...list("records")];
}

await build({
  entryPoints: {
    main: join(here, "main.ts"),
    worker: join(here, "worker.ts"),
    // The judge's workers, loaded when a judge first runs (judge.ts).
    "judge-worker": join(here, "judge-worker.ts"),
    "judge-solution": join(here, "judge-solution.ts"),
  },
  bundle: true,
  format: "iife",
  target: "es2020",
  outdir: out,
  logLevel: "warning",
  legalComments: "none",
  minify: true,
  define: { CMG_EXAMPLES: JSON.stringify(examples()) },
});

copyFileSync(join(here, "index.html"), join(out, "index.html"));
copyFileSync(join(here, "playground.css"), join(out, "playground.css"));
copyFileSync(wasm, join(out, "cmg.wasm"));
copyJudge(out, join(wasm, "../judge.wasm"));
// The game view as `cmg view` serves it, told by embed.js to talk to this page.
copyFileSync(join(root, "web/dist/view.js"), join(out, "view.js"));
copyFileSync(join(root, "web/dist/view.css"), join(out, "view.css"));
copyFileSync(join(here, "embed.js"), join(out, "embed.js"));
const viewPage = readFileSync(join(root, "web/src/index.html"), "utf8");
const script = '<script src="view.js"></script>';
if (!viewPage.includes(script)) throw new Error("playground: web/src/index.html no longer loads view.js as expected");
writeFileSync(join(out, "view.html"), viewPage.replace(script, `<script src="embed.js"></script>\n${script}`));
console.log(`playground: ${out}`);
