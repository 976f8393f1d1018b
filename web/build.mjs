// Builds the game view offline with esbuild: dist/ holds what `cmg view` embeds and the
// VS Code extension ships; `--tests` also bundles the unit tests for node's test runner.
import { build } from "esbuild";
import { mkdirSync, readdirSync } from "node:fs";

const here = new URL(".", import.meta.url).pathname;
mkdirSync(`${here}dist`, { recursive: true });
await build({
  entryPoints: [`${here}src/main.ts`, `${here}src/view.css`],
  entryNames: "view",
  bundle: true,
  format: "iife",
  target: "es2020",
  outdir: `${here}dist`,
  logLevel: "warning",
  legalComments: "none",
  minify: true,
});

if (process.argv.includes("--tests")) {
  const tests = readdirSync(`${here}test`).filter((name) => name.endsWith(".test.ts"));
  await build({
    entryPoints: tests.map((name) => `${here}test/${name}`),
    bundle: true,
    platform: "node",
    format: "esm",
    outdir: `${here}build/test`,
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
}
