// Unit tests of the texts kept in the browser (playground/kept.ts), on a storage in memory.

import { test } from "node:test";
import assert from "node:assert/strict";

import { KEPT_KEY, KEPT_TEXTS, MAX_KEPT_CHARS, MAX_KEPT_TOTAL, loadKept, saveKept, withKept, withPin, type KeptText } from "../playground/kept";

function memory(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  } as Storage;
}
const entry = (id: string, text: string, at = 0): KeptText => ({ id, text, at });

test("an edited text updates its own entry, and goes first", () => {
  let list = withKept([], entry("a", "1 -- 2"));
  list = withKept(list, entry("b", "3 -- 4"));
  list = withKept(list, entry("a", "1 -- 2 -- 5"));
  assert.deepEqual(list.map((e) => [e.id, e.text]), [["a", "1 -- 2 -- 5"], ["b", "3 -- 4"]]);
});

test("a text opened again is not kept twice", () => {
  const list = withKept([entry("a", "same"), entry("b", "other")], entry("c", "same"));
  assert.deepEqual(list.map((e) => e.id), ["c", "b"]);
});

test("only the last few texts are kept, within the total", () => {
  let list: KeptText[] = [];
  for (let i = 0; i < KEPT_TEXTS + 3; i++) list = withKept(list, entry(String(i), `text ${i}`));
  assert.equal(list.length, KEPT_TEXTS);
  assert.equal(list[0].id, String(KEPT_TEXTS + 2));
  const big = "x".repeat(MAX_KEPT_CHARS);
  list = withKept(withKept(list, entry("big1", big)), entry("big2", `${big.slice(1)}y`));
  assert.ok(list.reduce((sum, e) => sum + e.text.length, 0) <= MAX_KEPT_TOTAL);
  assert.equal(list[0].id, "big2");
});

test("a text above the limit is not kept, and the others stay", () => {
  const before = [entry("a", "1 -- 2")];
  assert.deepEqual(withKept(before, entry("b", "x".repeat(MAX_KEPT_CHARS + 1))), before);
});

test("the storage round-trips, and what is unreadable there is no text", () => {
  const storage = memory();
  const list = [entry("a", "1 -- 2", 5)];
  assert.ok(saveKept(storage, list));
  assert.deepEqual(loadKept(storage), list);
  storage.setItem(KEPT_KEY, "{not json");
  assert.deepEqual(loadKept(storage), []);
  storage.setItem(KEPT_KEY, JSON.stringify([{ id: 1, text: "x" }, entry("b", "ok")]));
  assert.deepEqual(loadKept(storage), [entry("b", "ok")]);
  const full = { setItem: () => { throw new Error("QuotaExceededError"); } };
  assert.equal(saveKept(full, list), false);
});

test("a pin is kept with its text, moved, and taken away", () => {
  const storage = memory();
  let kept = withPin(entry("a", "1 -- 2"), 2, [10, 20]);
  kept = withPin(kept, 1, [5, 5]);
  kept = withPin(kept, 2, [30, 40]);
  assert.ok(saveKept(storage, withKept([], kept)));
  assert.deepEqual(loadKept(storage)[0].pins, { 1: [5, 5], 2: [30, 40] });
  assert.deepEqual(withPin(kept, 1, null).pins, { 2: [30, 40] });
  assert.deepEqual(kept.pins, { 1: [5, 5], 2: [30, 40] }, "the entry given is not changed");
});
