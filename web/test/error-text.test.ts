// Unit tests of the judge panel's error words (playground/error-text.ts): a failed start
// says what failed, never "[object Object]".

import { test } from "node:test";
import assert from "node:assert/strict";

import { errorText } from "../playground/error-text";

test("an error says its name and message", () => {
  assert.equal(errorText(new TypeError("pyodide.mjs: bad")), "TypeError: pyodide.mjs: bad");
  assert.equal(errorText("no network"), "no network");
});

test("a thrown object or event says its message, its type, or its fields", () => {
  assert.equal(errorText({ message: "Failed to fetch dynamically imported module: pyodide/pyodide.mjs" }), "Failed to fetch dynamically imported module: pyodide/pyodide.mjs");
  assert.equal(errorText({ type: "error", filename: "pyodide.asm.mjs" }), "error event in pyodide.asm.mjs");
  assert.equal(errorText({ type: "error" }), "error event");
  assert.equal(errorText({ code: 42 }), '{"code":42}');
  const cycle: { self?: unknown } = {};
  cycle.self = cycle;
  assert.equal(errorText(cycle), "an unknown Object");
  assert.equal(errorText(Object.create(null)), "an unknown object");
  for (const thrown of [{ message: "x" }, { type: "error" }, { code: 1 }, cycle, Object.create(null), undefined, 7]) {
    assert.ok(!errorText(thrown).includes("[object"), `${errorText(thrown)}`);
  }
});
