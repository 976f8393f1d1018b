// Unit tests of the hovers' Markdown (playground/markdown.ts), on the shapes the language
// server writes (crates/cmg-ide/src/hover/).

import { test } from "node:test";
import assert from "node:assert/strict";

import { blocks, inlines } from "../playground/markdown";

test("bold, emphasis and code inside a line; markup inside code stays text", () => {
  assert.deepEqual(inlines("**node 0** is `a **b**` and *so*"), [
    { text: "node 0", style: "bold" },
    { text: " is ", style: "plain" },
    { text: "a **b**", style: "code" },
    { text: " and ", style: "plain" },
    { text: "so", style: "emphasis" },
  ]);
  // A lone star, or stars in a word, are text.
  assert.deepEqual(inlines("2 * 3 and a*b*c"), [{ text: "2 * 3 and a*b*c", style: "plain" }]);
});

test("paragraphs, lists and fenced code", () => {
  const hover = "**node 1** “start”\n\nneighbours: 0, 3\n\n- mouse starts here: **mouse wins in 1**\n- cat starts here: draw\n\n```\n1 -- 2\n```";
  assert.deepEqual(blocks(hover), [
    { kind: "paragraph", lines: [[{ text: "node 1", style: "bold" }, { text: " “start”", style: "plain" }]] },
    { kind: "paragraph", lines: [[{ text: "neighbours: 0, 3", style: "plain" }]] },
    {
      kind: "list",
      items: [
        [{ text: "mouse starts here: ", style: "plain" }, { text: "mouse wins in 1", style: "bold" }],
        [{ text: "cat starts here: draw", style: "plain" }],
      ],
    },
    { kind: "code", text: "1 -- 2" },
  ]);
});

test("a paragraph goes on over single line breaks; what looks like HTML is text", () => {
  assert.deepEqual(blocks("a\n<b>x</b>"), [
    { kind: "paragraph", lines: [[{ text: "a", style: "plain" }], [{ text: "<b>x</b>", style: "plain" }]] },
  ]);
});
