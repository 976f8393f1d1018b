// Builds the extension: copies the grammar from `grammar/` (its one home, so it is
// never committed twice) and bundles the client with esbuild into `dist/extension.js`.

import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

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

const result = await build({
  entryPoints: [join(root, "src", "extension.ts")],
  outfile: join(root, "dist", "extension.js"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node18",
  // VS Code provides this module at run time; it cannot be bundled.
  external: ["vscode"],
  sourcemap: false,
  // Minified, the bundle stays well under the size vsce warns about.
  minify: true,
  logLevel: "warning",
});
// esbuild has printed any warning already; failing on it keeps the build clean.
if (result.warnings.length > 0) {
  process.exit(1);
}
