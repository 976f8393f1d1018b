// Unit tests of the pins a host keeps across a reload of the page: `cmg view`'s
// localStorage by file, and VS Code's webview state.

import { test } from "node:test";
import assert from "node:assert/strict";

import { vscodeHost, type VsCodeApi } from "../src/hosts";
import { loadPins, parsePins, pinsKey, savePin, type Pins } from "../src/pins";

class MapStore {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

test("a file's pins are kept under its path, apart from another file's", () => {
  const store = new MapStore();
  savePin(store, pinsKey("/a/game.cmg"), 3, [10, -20]);
  savePin(store, pinsKey("/a/game.cmg"), 4, [5, 6]);
  savePin(store, pinsKey("/b/game.cmg"), 3, [99, 99]);
  assert.deepEqual(loadPins(store, pinsKey("/a/game.cmg")), { 3: [10, -20], 4: [5, 6] });
  savePin(store, pinsKey("/a/game.cmg"), 3, null);
  assert.deepEqual(loadPins(store, pinsKey("/a/game.cmg")), { 4: [5, 6] });
  assert.deepEqual(loadPins(store, pinsKey("/b/game.cmg")), { 3: [99, 99] });
  assert.deepEqual(loadPins(store, pinsKey("/c/none.cmg")), {});
  // The last pin of a file removed: its entry goes too.
  savePin(store, pinsKey("/b/game.cmg"), 3, null);
  assert.equal(store.items.has(pinsKey("/b/game.cmg")), false);
});

test("what is not a pin is left out, and a store that throws keeps nothing and breaks nothing", () => {
  assert.deepEqual(parsePins('{"1":[1,2],"x":[1,2],"2":[1],"3":"no","4":[1,null]}'), { 1: [1, 2] });
  assert.deepEqual(parsePins("not json"), {});
  assert.deepEqual(parsePins("[[1,2]]"), {});
  const refusing = {
    getItem: (): string | null => {
      throw new Error("storage is off");
    },
    setItem: (): void => {
      throw new Error("storage is off");
    },
    removeItem: (): void => {
      throw new Error("storage is off");
    },
  };
  assert.deepEqual(loadPins(refusing, "k"), {});
  assert.doesNotThrow(() => savePin(refusing, "k", 1, [1, 1]));
  assert.doesNotThrow(() => savePin(refusing, "k", 1, null));
});

test("VS Code's page keeps its pins in the webview's state, and a page loaded again gets them", () => {
  let state: unknown = { other: "kept" };
  const sent: unknown[] = [];
  const api: VsCodeApi = {
    postMessage: (message) => sent.push(message),
    getState: () => state,
    setState: (next) => {
      state = next;
    },
  };
  const listeners: string[] = [];
  Object.assign(globalThis, { window: { addEventListener: (type: string) => listeners.push(type) } });
  try {
    const before = vscodeHost(api);
    before.moved?.(7, [120, 45]);
    before.moved?.(8, [1, 2]);
    before.moved?.(8, null);
    assert.deepEqual(sent, [
      { type: "moved", node: 7, at: [120, 45] },
      { type: "moved", node: 8, at: [1, 2] },
      { type: "moved", node: 8, at: null },
    ]);
    assert.equal((state as Record<string, unknown>).other, "kept");
    // The page loaded again: a new host on the same webview state.
    let restored: Pins | null = null;
    vscodeHost(api).start(
      () => undefined,
      () => undefined,
      (pins) => {
        restored = pins;
      },
    );
    assert.deepEqual(restored, { 7: [120, 45] });
    assert.deepEqual(sent.at(-1), { type: "ready" });
  } finally {
    delete (globalThis as { window?: unknown }).window;
  }
});
