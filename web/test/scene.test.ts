// Unit tests of the page's game logic on real scenes written by the Rust side
// (web/test/fixtures, kept current by `cargo test --lib view`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  Game,
  describe,
  lineCaption,
  linePositions,
  over,
  playStatus,
  startPlay,
  userMove,
  type Play,
  type Scene,
} from "../src/scene";

function fixture(name: string): Scene {
  const url = new URL(`../../test/fixtures/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Scene;
}

test("the line's captions follow the table and end with the result", () => {
  const game = new Game(fixture("long-game"));
  assert.equal(lineCaption(game, 0), "mouse to move, mouse wins in 21");
  assert.equal(lineCaption(game, 1), "cat to move, mouse wins in 20");
  const last = game.scene.line.length - 1;
  assert.equal(last, 21);
  assert.equal(lineCaption(game, last), "the mouse reached the hole: mouse wins");
});

test("a drawn line ends on the repeated position", () => {
  const game = new Game(fixture("leetcode-draw"));
  const last = game.scene.line.length - 1;
  assert.equal(lineCaption(game, 0), "mouse to move, draw");
  assert.equal(lineCaption(game, last), "the position repeats: draw");
});

test("every step of the line is the table's best move", () => {
  for (const name of ["long-game", "cat-wins", "leetcode-draw"]) {
    const game = new Game(fixture(name));
    const positions = linePositions(game.scene);
    for (let i = 0; i + 1 < positions.length; i++) {
      const best = game.verdict(positions[i])?.best;
      const mover = positions[i].turn;
      assert.equal(positions[i + 1][mover], best, `${name} step ${i}`);
    }
  }
});

test("playing the mouse: the solver answers with the cat's best move", () => {
  const game = new Game(fixture("cat-wins"));
  let play = startPlay(game, "mouse") as Play;
  assert.equal(play.position.turn, "mouse");
  assert.match(playStatus(game, play), /^you are losing \(cat wins in \d+\), your move$/);
  // The mouse's only move from 1 is to 3; the cat takes it there at once.
  assert.deepEqual(game.legalMoves(play.position), [3]);
  assert.equal(userMove(game, play, 2), null, "not a neighbour");
  play = userMove(game, play, 3) as Play;
  assert.deepEqual(play.position, { mouse: 3, cat: 3, turn: "mouse" });
  assert.equal(over(game, play), "the cat caught the mouse: cat wins");
  assert.equal(userMove(game, play, 0), null, "the game is over");
});

test("playing the cat: the solver moves first and the status is from the cat's side", () => {
  const game = new Game(fixture("long-game"));
  const play = startPlay(game, "cat") as Play;
  const first = linePositions(game.scene)[1];
  assert.deepEqual(play.position, first);
  assert.match(playStatus(game, play), /^you are losing \(mouse wins in 20\), your move$/);
  assert.ok(!game.legalMoves(play.position).includes(0), "the cat may not enter the hole");
});

test("a repeated position ends play in a draw", () => {
  const game = new Game(fixture("leetcode-draw"));
  let play = startPlay(game, "mouse") as Play;
  for (let i = 0; i < 40 && over(game, play) === null; i++) {
    const best = game.verdict(play.position)?.best;
    assert.notEqual(best, null);
    play = userMove(game, play, best as number) as Play;
  }
  assert.equal(over(game, play), "the position repeats: draw");
});

test("no table, no play", () => {
  const scene = { ...fixture("cat-wins"), table: null };
  const game = new Game(scene);
  assert.equal(startPlay(game, "mouse"), null);
  assert.equal(game.verdict({ mouse: 1, cat: 2, turn: "mouse" }), null);
});

test("describe uses the solver's words", () => {
  assert.equal(describe("cat", 4), "cat wins in 4");
  assert.equal(describe("draw", null), "draw");
});
