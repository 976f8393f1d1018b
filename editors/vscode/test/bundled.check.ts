// Checks the platform `.vsix` that `npm run package:bundled` writes: the universal
// package's files plus the server at `server/cmg`, executable, for the target the
// manifest names, and a `cmg` of the extension's version. Run by `npm run test:bundled`
// after `npm run package` and `npm run package:bundled`; `CMG_BUNDLED_VSIX` names the
// package when it is not in this folder.

import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { readZip, readZipEntries } from "./zip";

// Compiled tests run from `out/test`, so the extension's folder is two levels up.
const extensionRoot = path.resolve(__dirname, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, "package.json"), "utf8")) as {
  name: string;
  version: string;
};

/** The platform package: CMG_BUNDLED_VSIX, or the one `cmg-<target>-<version>.vsix` here. */
function bundledVsix(): string {
  const named = process.env.CMG_BUNDLED_VSIX;
  if (named) {
    return path.resolve(named);
  }
  const pattern = new RegExp(`^${manifest.name}-([a-z0-9]+-[a-z0-9]+)-${manifest.version.replace(/\./g, "\\.")}\\.vsix$`);
  const found = fs.readdirSync(extensionRoot).filter((file) => pattern.test(file));
  assert.equal(found.length, 1, `want one platform .vsix in ${extensionRoot}, found ${JSON.stringify(found)}: run \`npm run package:bundled\``);
  return path.join(extensionRoot, found[0]!);
}

/** The target the package declares in its VSIX manifest (`TargetPlatform`). */
function declaredTarget(entries: Map<string, Buffer>): string {
  const vsixManifest = entries.get("extension.vsixmanifest")?.toString("utf8") ?? "";
  const target = /TargetPlatform="([^"]+)"/.exec(vsixManifest)?.[1];
  assert.ok(target, `no TargetPlatform in extension.vsixmanifest:\n${vsixManifest}`);
  return target;
}

test("the platform .vsix holds the server, executable, for the target it declares", () => {
  const file = bundledVsix();
  const entries = readZipEntries(file);
  const target = declaredTarget(readZip(file));
  assert.ok(path.basename(file).includes(`-${target}-`), `${file} is named for another target than ${target}`);
  const windows = target.startsWith("win32-");
  const server = entries.get(`extension/server/${windows ? "cmg.exe" : "cmg"}`);
  assert.ok(server, `no server in ${file}; it has ${[...entries.keys()].join(", ")}`);
  assert.ok(server.data.length > 100_000, `the bundled server is only ${server.data.length} bytes`);
  if (!windows) {
    assert.equal(server.mode & 0o777, 0o755, `server/cmg has mode ${server.mode.toString(8)}`);
  }
  // Nothing else of the server folder, and nothing of the build.
  const serverFiles = [...entries.keys()].filter((name) => name.startsWith("extension/server/"));
  assert.deepEqual(serverFiles, [`extension/server/${windows ? "cmg.exe" : "cmg"}`]);
});

test("the platform .vsix is the universal one plus the server", () => {
  const universal = path.join(extensionRoot, `${manifest.name}-${manifest.version}.vsix`);
  assert.ok(fs.existsSync(universal), `${universal} is missing: run \`npm run package\` first`);
  const plain = [...readZip(universal).keys()].filter((name) => !name.startsWith("extension/server/"));
  const bundled = new Set(readZip(bundledVsix()).keys());
  for (const name of plain) {
    assert.ok(bundled.has(name), `${name} is in the universal .vsix but not in the platform one`);
  }
  // The universal package finds the server on PATH or through the setting: it ships none.
  assert.deepEqual([...readZip(universal).keys()].filter((name) => name.startsWith("extension/server/")), []);
});

test("the bundled server runs here and is a cmg of the extension's version", (context) => {
  const file = bundledVsix();
  const target = declaredTarget(readZip(file));
  const host = `${process.platform}-${process.arch === "arm" ? "armhf" : process.arch}`;
  if (target !== host) {
    // A package built for another platform (CMG_VSCE_TARGET) cannot be run to ask.
    context.skip(`built for ${target}, this machine is ${host}`);
    return;
  }
  const name = process.platform === "win32" ? "cmg.exe" : "cmg";
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "cmg-bundled-"));
  try {
    const binary = path.join(directory, name);
    fs.writeFileSync(binary, readZipEntries(file).get(`extension/server/${name}`)!.data, { mode: 0o755 });
    assert.equal(execFileSync(binary, ["--version"], { encoding: "utf8" }).trim(), `cmg ${manifest.version}`);
    const solved = execFileSync(binary, ["solve", "--json", "-"], {
      encoding: "utf8",
      input: "[[1, 3], [0], [3], [0, 2]]\n",
    });
    assert.equal((JSON.parse(solved) as { outcome: string }).outcome, "mouse");
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
});
