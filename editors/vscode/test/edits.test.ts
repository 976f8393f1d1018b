import assert from "node:assert/strict";
import { test } from "node:test";

import { minimalEdit } from "../src/web/edits";

/** Positions as the editor counts them: line and UTF-16 character. */
function positionAt(text: string): (offset: number) => { line: number; character: number } {
  return (offset) => {
    const before = text.slice(0, offset).split("\n");
    return { line: before.length - 1, character: before[before.length - 1]?.length ?? 0 };
  };
}

function apply(text: string, formatted: string): string {
  const edit = minimalEdit(text, formatted, positionAt(text));
  if (edit === null) return text;
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }): number =>
    lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) + p.character;
  return text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
}

test("the formatting edit covers only what differs", () => {
  const edit = minimalEdit("1--2\n2 -- 3\n", "1 -- 2\n2 -- 3\n", positionAt("1--2\n2 -- 3\n"));
  // "1--2" to "1 -- 2": the common "1" and "2\n2 -- 3\n" are kept, "--" becomes " -- ".
  assert.deepEqual(edit, { range: { start: { line: 0, character: 1 }, end: { line: 0, character: 3 } }, newText: " -- " });
  assert.equal(minimalEdit("a", "a", positionAt("a")), null);
});

test("applying the edit gives the formatted text, surrogate pairs kept whole", () => {
  const cases: [string, string][] = [
    ["1--2\n", "1 -- 2\n"],
    ["# 😀a\n", "# 😁a\n"],
    ["# 😀\n", "# 😀 \n"],
    ["x😀😀y", "x😀y"],
    ["", "1 -- 2\n"],
    ["1 -- 2\n", ""],
  ];
  for (const [text, formatted] of cases) {
    assert.equal(apply(text, formatted), formatted, JSON.stringify(text));
    const edit = minimalEdit(text, formatted, positionAt(text));
    if (edit !== null) assert.ok(!/[\udc00-\udfff]/.test(edit.newText[0] ?? ""), "no lone low surrogate first");
  }
});
