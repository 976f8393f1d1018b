// The server search order: setting, bundled binary, PATH, then a clear error.

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { findServer, DiscoveryInput } from "../src/discovery";
import { initializationOptions } from "../src/settings";

/** A file system where exactly `files` are executables. */
function input(files: string[], overrides: Partial<DiscoveryInput> = {}): DiscoveryInput {
  return {
    configuredPath: "",
    extensionPath: "/ext",
    platform: "linux",
    pathVariable: "/usr/local/bin:/usr/bin",
    homeDirectory: "/home/ann",
    isExecutable: (file) => files.includes(file),
    ...overrides,
  };
}

test("the setting wins over everything else", () => {
  const found = findServer(
    input(["/opt/cmg", "/ext/server/cmg", "/usr/bin/cmg"], { configuredPath: "/opt/cmg" }),
  );
  assert.deepEqual(found, { ok: true, path: "/opt/cmg", source: "setting" });
});

test("a setting with ~ is expanded to the home directory", () => {
  const found = findServer(input(["/home/ann/bin/cmg"], { configuredPath: "~/bin/cmg" }));
  assert.deepEqual(found, { ok: true, path: "/home/ann/bin/cmg", source: "setting" });
});

test("a setting that points nowhere is an error, not a silent fallback", () => {
  const found = findServer(input(["/usr/bin/cmg"], { configuredPath: "/nope/cmg" }));
  assert.equal(found.ok, false);
  assert.match(!found.ok ? found.message : "", /cmg\.server\.path is "\/nope\/cmg"/);
  const inUser = findServer(
    input([], { configuredPath: "~/cmg", settingOrigin: "the User settings" }),
  );
  assert.equal(
    !inUser.ok ? inUser.message : "",
    'cmg: cmg.server.path is "~/cmg" (/home/ann/cmg), read from the User settings, but there ' +
      "is no executable file there. Fix the path, or clear the setting to use the bundled " +
      "server or `cmg` from PATH.",
  );
});

test("a blank setting counts as unset", () => {
  const found = findServer(input(["/ext/server/cmg"], { configuredPath: "   " }));
  assert.deepEqual(found, { ok: true, path: "/ext/server/cmg", source: "bundled" });
});

test("the bundled binary comes before PATH", () => {
  const found = findServer(input(["/ext/server/cmg", "/usr/bin/cmg"]));
  assert.deepEqual(found, { ok: true, path: "/ext/server/cmg", source: "bundled" });
});

test("PATH is searched in order, skipping empty entries", () => {
  const found = findServer(
    input(["cmg", "/usr/bin/cmg", "/usr/local/bin/cmg"], { pathVariable: "::/usr/local/bin:/usr/bin" }),
  );
  assert.deepEqual(found, { ok: true, path: "/usr/local/bin/cmg", source: "PATH" });
});

test("Windows looks for cmg.exe and splits PATH on semicolons", () => {
  const bundled = findServer(
    input(["C:\\ext\\server\\cmg.exe"], { platform: "win32", extensionPath: "C:\\ext" }),
  );
  assert.deepEqual(bundled, { ok: true, path: "C:\\ext\\server\\cmg.exe", source: "bundled" });
  const onPath = findServer(
    input(["D:\\tools\\cmg.exe"], {
      platform: "win32",
      extensionPath: "C:\\ext",
      pathVariable: "C:\\Windows;D:\\tools",
    }),
  );
  assert.deepEqual(onPath, { ok: true, path: "D:\\tools\\cmg.exe", source: "PATH" });
});

test("nothing found gives a message that says what to do", () => {
  const found = findServer(input([], { pathVariable: undefined }));
  assert.equal(found.ok, false);
  const message = !found.ok ? found.message : "";
  assert.match(message, /could not find the language server/);
  assert.match(message, /cmg\.server\.path/);
  assert.match(message, /PATH is empty/);
});

test("nothing found names the scope read and every place tried", () => {
  const found = findServer(
    input([], { settingOrigin: "no settings scope (the default)", pathVariable: "/a:/b:/c:/d:/e:/f:/g:/h:/i:/j" }),
  );
  assert.equal(
    !found.ok ? found.message : "",
    "cmg: could not find the language server. cmg.server.path is not set (read from no " +
      "settings scope (the default)); tried /ext/server/cmg (bundled) and `cmg` in PATH " +
      "(/a, /b, /c, /d, /e, /f, /g, /h and 2 more). Install the extension's platform package, " +
      "which has the server inside; or put `cmg` on PATH (`pip install` of the cmg-cat-mouse " +
      "wheel, or `cargo install --locked --path .` in the cmg repository); or set " +
      "cmg.server.path to the binary.",
  );
});

test("the real file check accepts executables only", async () => {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "cmg-discovery-"));
  const binary = path.join(directory, "cmg");
  fs.writeFileSync(binary, "#!/bin/sh\n");
  const base = { configuredPath: "", extensionPath: "/nonexistent", platform: process.platform };
  if (process.platform !== "win32") {
    fs.chmodSync(binary, 0o644);
    assert.equal(findServer({ ...base, pathVariable: directory }).ok, false);
  }
  fs.chmodSync(binary, 0o755);
  const found = findServer({ ...base, platform: "linux", pathVariable: directory });
  assert.deepEqual(found, { ok: true, path: binary, source: "PATH" });
  fs.rmSync(directory, { recursive: true });
});

test("initialization options have the shape the server reads", () => {
  const settings: Record<string, unknown> = {
    "solver.maxNodes": 50,
    "solver.maxMemoryMiB": 64,
    "analysis.maxDocumentBytes": 1024,
    "diagnostics.max": 0,
    "inlayHints.nodes": false,
  };
  assert.deepEqual(initializationOptions((key) => settings[key]), {
    solver: { maxNodes: 50, maxMemoryMiB: 64 },
    analysis: { maxDocumentBytes: 1024 },
    diagnostics: { max: 0 },
    inlayHints: { nodes: false },
  });
  assert.deepEqual(initializationOptions(() => undefined), {});
});
