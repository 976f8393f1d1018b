// Unit tests of "Copy as Markdown" (playground/copy.ts).

import { test } from "node:test";
import assert from "node:assert/strict";

import { leetcodeInput, markdownOf } from "../playground/copy";

test("LeetCode's input: each node's neighbours in order, once each", () => {
  const edges = [[0, 2], [0, 5], [1, 3], [2, 4], [2, 5], [3, 4], [3, 5], [1, 4], [1, 5], [2, 3], [0, 5]].map(([a, b]) => ({ a, b }));
  assert.equal(leetcodeInput([5, 4, 3, 2, 1, 0], edges), "[[2,5],[3,4,5],[0,3,4,5],[1,2,4,5],[1,2,3],[0,1,2,3]]");
});

test("ids with a gap have no LeetCode input", () => {
  assert.equal(leetcodeInput([0, 1, 3], [{ a: 0, b: 1 }]), null);
});

test("the Markdown holds the outcome, the input as LeetCode shows it, and the link", () => {
  const text = markdownOf("draw", "[[1],[0]]", "https://x/#z=abc");
  assert.match(text, /^\*\*draw\*\*/);
  assert.match(text, /```text\ngraph = \[\[1\],\[0\]\]\n```/);
  assert.match(text, /\[Open it in the cmg playground\]\(https:\/\/x\/#z=abc\)/);
  assert.match(markdownOf("cat wins in 2", null, "l"), /none \(the node ids/);
});
