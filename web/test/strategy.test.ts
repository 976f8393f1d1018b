// Unit tests of the strategy panel's tree logic on the scenes the Rust side writes
// (web/test/fixtures, kept current by `cargo test --lib view`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { Game, describe } from "../src/scene";
import { hasChildren, lineCaption, linePosition, shownStrategies } from "../src/strategy";
import type { Scene, Slice } from "../src/scene";

function read<T>(file: string): T {
  const url = new URL(`../../test/fixtures/${file}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as T;
}

function fixture(name: string): Scene {
  return read<Scene>(`${name}.json`);
}

test("a win has the winner's tree; every line's note is the table's outcome after its move", () => {
  for (const name of ["long-game", "cat-wins"]) {
    const scene = fixture(name);
    const game = new Game(scene);
    // The table comes in slices, as the host hands them over.
    for (const slice of read<Slice[]>(`${name}.slices.json`)) assert.ok(game.addSlice(slice));
    assert.equal(scene.strategies.length, 1);
    const [strategy] = scene.strategies;
    assert.equal(strategy.player, scene.outcome);
    let checked = 0;
    for (const line of strategy.lines) {
      const verdict = game.verdict(linePosition(line));
      if (line.mouse !== 0 && line.mouse !== line.cat) assert.notEqual(verdict, null, line.text);
      if (verdict !== null && verdict.moves !== null && verdict.moves > 0) {
        assert.equal(line.note, describe(verdict.outcome, verdict.moves), line.text);
        checked++;
      }
    }
    assert.ok(checked > 0, `${name}: some line's note is checked`);
  }
});

test("a draw has both players' trees, with repeats pointing back", () => {
  const scene = fixture("leetcode-draw");
  assert.deepEqual(
    scene.strategies.map((s) => s.player),
    ["mouse", "cat"],
  );
  const lines = scene.strategies[0].lines;
  const repeat = lines.findIndex((line) => line.repeat_of !== null);
  assert.ok(repeat > 0);
  assert.match(lineCaption(lines, repeat), /, as after |, back to the start/);
  assert.equal(hasChildren(lines, repeat), false);
  assert.equal(hasChildren(lines, 0), true);
});

test("critical edges are marked with their what-if", () => {
  const scene = fixture("cat-wins");
  const critical = scene.edges.filter((e) => e.critical).map((e) => `${e.a}-${e.b}`);
  assert.deepEqual(critical, ["1-3", "2-3"]);
  assert.equal(scene.edges[0].what_if, "without 0 -- 3: cat wins in 2 (as now)");
});

test("a player with no move gets no strategy in the panel", () => {
  const stuck = { player: "mouse" as const, title: "the mouse's strategy", lines: [], truncated: false };
  const [cats] = fixture("cat-wins").strategies;
  assert.deepEqual(
    shownStrategies([stuck, cats]).map((s) => s.player),
    [cats.player],
  );
  assert.deepEqual(shownStrategies([stuck]), []);
});
