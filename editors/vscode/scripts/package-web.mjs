// `npm run package:web`: the extension with only its `browser` entry, as VS Code for the
// Web runs it, for the real-browser test (e2e/test.mjs, scenario "web"). Without a
// `main`, a browser-hosted VS Code (code-server) can run it only in the browser's web
// worker extension host, so that test sees the WebAssembly server and nothing else.
// Written to cmg-web-<version>.vsix beside the universal package; run `npm run build`
// first.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const extension = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(extension, "package.json"), "utf8"));
for (const file of ["dist/web/extension.js", "dist/web/server.js", "dist/web/judge-worker.js", "dist/web/judge.wasm", "dist/web/pyodide/pyodide.mjs", "media/view.js", "syntaxes/cmg.tmLanguage.json"]) {
  if (!existsSync(join(extension, file))) {
    process.stderr.write(`package:web: ${file} is missing: run \`npm run build\` first\n`);
    process.exit(1);
  }
}
const staging = mkdtempSync(join(tmpdir(), "cmg-web-vsix-"));
try {
  for (const entry of ["README.md", "LICENSE", "language-configuration.json", ".vscodeignore", "dist/web", "media", "syntaxes"]) {
    cpSync(join(extension, entry), join(staging, entry), { recursive: true });
  }
  const webOnly = { ...manifest };
  delete webOnly.main;
  writeFileSync(join(staging, "package.json"), `${JSON.stringify(webOnly, null, 2)}\n`);
  const out = join(extension, `cmg-web-${manifest.version}.vsix`);
  const vsce = join(extension, "node_modules", ".bin", "vsce");
  const result = spawnSync(vsce, ["package", "--no-dependencies", "--allow-missing-repository", "--out", out], {
    cwd: staging,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
