// The game view's webview page and position conversion, and the bundle in the .vsix.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { MEDIA_FILES, PINNED_DOCUMENTS, PINS_KEY, keepPin, keptPins, toUtf16, webviewHtml } from "../src/gameViewContent";
import { readZip } from "./zip";

const extensionRoot = path.resolve(__dirname, "..", "..");
const template = fs.readFileSync(path.resolve(extensionRoot, "..", "..", "web", "src", "index.html"), "utf8");

test("the webview page has a strict policy and loads the bundle with its nonce", () => {
  const html = webviewHtml(template, {
    cspSource: "vscode-resource:",
    scriptUri: "vscode-resource:/media/view.js",
    styleUri: "vscode-resource:/media/view.css",
    nonce: "abc123",
  });
  assert.match(html, /content="default-src 'none'; img-src vscode-resource: data:; style-src vscode-resource:; script-src 'nonce-abc123'"/);
  assert.match(html, /<script nonce="abc123" src="vscode-resource:\/media\/view.js"><\/script>/);
  assert.match(html, /href="vscode-resource:\/media\/view.css"/);
  assert.doesNotMatch(html, /connect-src/);
  assert.throws(() => webviewHtml("<html></html>", { cspSource: "x", scriptUri: "y", styleUri: "z", nonce: "n" }));
});

test("scene columns in characters become UTF-16 positions", () => {
  assert.deepEqual(toUtf16({ line: 1, column: 1 }, "0 -- 1"), { line: 0, character: 0 });
  // The node id after an astral character (two UTF-16 units) and a two-byte one.
  assert.deepEqual(toUtf16({ line: 3, column: 5 }, "𝄞é # 7"), { line: 2, character: 5 });
  assert.deepEqual(toUtf16({ line: 2, column: 99 }, "ab"), { line: 1, character: 2 });
});

test("the .vsix ships the game view's bundle", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  const files = readZip(path.join(extensionRoot, `${manifest.name}-${manifest.version}.vsix`));
  for (const name of MEDIA_FILES) {
    const packaged = files.get(`extension/media/${name}`);
    assert.ok(packaged !== undefined, `media/${name} is not in the .vsix`);
    assert.ok(packaged.length > 0);
  }
});

test("a document's pins are kept in the workspace's state, apart from another's, and bounded", async () => {
  const stored = new Map<string, unknown>();
  const memory = {
    get: (key: string): unknown => stored.get(key),
    update: (key: string, value: unknown): Promise<void> => {
      // As a Memento does: a copy, not the object handed over.
      stored.set(key, JSON.parse(JSON.stringify(value)));
      return Promise.resolve();
    },
  };
  await keepPin(memory, "file:///a.cmg", 3, [10, -20]);
  await keepPin(memory, "file:///a.cmg", 4, [5, 6]);
  await keepPin(memory, "file:///b.cmg", 3, [99, 99]);
  await keepPin(memory, "file:///a.cmg", 4, null);
  assert.deepEqual(keptPins(memory, "file:///a.cmg"), { 3: [10, -20] });
  assert.deepEqual(keptPins(memory, "file:///b.cmg"), { 3: [99, 99] });
  assert.deepEqual(keptPins(memory, "file:///c.cmg"), {});
  // The least recently pinned documents go first.
  for (let i = 0; i < PINNED_DOCUMENTS; i++) await keepPin(memory, `file:///many/${i}.cmg`, 1, [i, i]);
  assert.deepEqual(keptPins(memory, "file:///a.cmg"), {});
  assert.deepEqual(keptPins(memory, `file:///many/${PINNED_DOCUMENTS - 1}.cmg`), { 1: [PINNED_DOCUMENTS - 1, PINNED_DOCUMENTS - 1] });
  assert.equal(Object.keys(stored.get(PINS_KEY) as object).length, PINNED_DOCUMENTS);
  // What is not a pin is left out.
  stored.set(PINS_KEY, { "file:///d.cmg": { 1: [1, 2], 2: "no", 3: [1, null] }, "file:///e.cmg": 7 });
  assert.deepEqual(keptPins(memory, "file:///d.cmg"), { 1: [1, 2] });
  assert.deepEqual(keptPins(memory, "file:///e.cmg"), {});
});
