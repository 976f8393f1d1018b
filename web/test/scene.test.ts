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
  moveText,
  moves,
  over,
  playStatus,
  reply,
  startPlay,
  undo,
  userMove,
  waitsForSolver,
  graphKey,
  nodeLook,
  type Play,
  type Position,
  type Scene,
  type Slice,
} from "../src/scene";
import { catNodes, explorerCaption, lastLevel, nodeVerdict, settledCount, sliceColours } from "../src/explorer";
import { roleLegend } from "../src/rules";

function read<T>(file: string): T {
  const url = new URL(`../../test/fixtures/${file}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as T;
}

function fixture(name: string): Scene {
  return read<Scene>(`${name}.json`);
}

/** Every slice of the example, as the host would hand them over one by one. */
function slices(name: string): Slice[] {
  return read<Slice[]>(`${name}.slices.json`);
}

/** A game with every slice handed over. */
function solvedGame(name: string): Game {
  const game = new Game(fixture(name));
  for (const slice of slices(name)) assert.ok(game.addSlice(slice), `${name}: slice ${slice.cat}/${slice.turn}`);
  return game;
}

test("the line's captions follow the table and end with the result", () => {
  const game = solvedGame("long-game");
  assert.equal(lineCaption(game, 0), "mouse to move, mouse wins in 21");
  assert.equal(lineCaption(game, 1), "cat to move, mouse wins in 20");
  const last = game.scene.line.length - 1;
  assert.equal(last, 21);
  assert.equal(lineCaption(game, last), "the mouse reached the hole: mouse wins");
});

test("a drawn line ends on the repeated position", () => {
  const game = solvedGame("leetcode-draw");
  const last = game.scene.line.length - 1;
  assert.equal(lineCaption(game, 0), "mouse to move, draw");
  assert.equal(lineCaption(game, last), "the position repeats: draw");
});

test("every step of the line is the slices' best move", () => {
  for (const name of ["long-game", "cat-wins", "leetcode-draw"]) {
    const game = solvedGame(name);
    const positions = linePositions(game.scene);
    for (let i = 0; i + 1 < positions.length; i++) {
      const best = game.verdict(positions[i])?.best;
      const mover = positions[i].turn;
      assert.equal(positions[i + 1][mover], best, `${name} step ${i}`);
    }
  }
});

test("playing the mouse: the solver answers with the cat's best move", () => {
  const game = solvedGame("cat-wins");
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
  const game = solvedGame("long-game");
  const play = startPlay(game, "cat") as Play;
  const first = linePositions(game.scene)[1];
  assert.deepEqual(play.position, first);
  assert.match(playStatus(game, play), /^you are losing \(mouse wins in 20\), your move$/);
  assert.ok(!game.legalMoves(play.position).includes(0), "the cat may not enter the hole");
});

test("the moves come from the scene: the cat never onto the hole, the mouse may", () => {
  // In leetcode-draw the hole joins 2 and 5, so a cat on 2 or 5 stands beside it.
  const game = solvedGame("leetcode-draw");
  assert.deepEqual(game.legalMoves({ mouse: 3, cat: 2, turn: "cat" }), [4, 5]);
  assert.deepEqual(game.legalMoves({ mouse: 3, cat: 5, turn: "cat" }), [2, 3]);
  assert.deepEqual(game.legalMoves({ mouse: 5, cat: 4, turn: "mouse" }), [0, 2, 3]);
  assert.deepEqual(game.legalMoves({ mouse: 0, cat: 4, turn: "mouse" }), [], "the game is over");
});

test("a repeated position ends play in a draw", () => {
  const game = solvedGame("leetcode-draw");
  let play = startPlay(game, "mouse") as Play;
  for (let i = 0; i < 40 && over(game, play) === null; i++) {
    const best = game.verdict(play.position)?.best;
    assert.notEqual(best, null);
    play = userMove(game, play, best as number) as Play;
  }
  assert.equal(over(game, play), "the position repeats: draw");
});

test("no solution, no play; no slice, no verdict", () => {
  const scene = { ...fixture("cat-wins"), outcome: null };
  assert.equal(startPlay(new Game(scene), "mouse"), null);
  const game = new Game(fixture("cat-wins"));
  assert.equal(game.verdict({ mouse: 1, cat: 2, turn: "mouse" }), null);
  assert.deepEqual(game.missing({ mouse: 1, cat: 2, turn: "mouse" }), { cat: 2, turn: "mouse" });
  // A slice of another version of the file (other nodes) is not taken.
  const [first] = slices("cat-wins");
  assert.equal(game.addSlice({ ...first, ids: first.ids.map((id) => id + 1) }), false);
  assert.equal(game.addSlice(first), true);
  assert.equal(game.missing({ mouse: 1, cat: first.cat, turn: first.turn }), null);
});

test("the solver waits for its slice, then answers", () => {
  const game = new Game(fixture("long-game"));
  let play = startPlay(game, "cat") as Play;
  // Playing the cat, the solver moves first: without the slice it cannot yet.
  assert.equal(play.history.length, 1);
  assert.ok(waitsForSolver(game, play));
  for (const slice of slices("long-game")) game.addSlice(slice);
  play = reply(game, play);
  assert.ok(!waitsForSolver(game, play));
  assert.deepEqual(play.position, linePositions(game.scene)[1]);
});

test("undo takes back the user's move and the reply; the move list follows", () => {
  const game = solvedGame("long-game");
  const start = startPlay(game, "mouse") as Play;
  assert.equal(undo(start), start, "nothing to undo at the start");
  const first = game.legalMoves(start.position)[0];
  const played = userMove(game, start, first) as Play;
  const list = moves(played);
  assert.equal(list.length, 2);
  assert.deepEqual(list[0], { player: "mouse", from: 1, to: first });
  assert.equal(list[1].player, "cat");
  assert.equal(moveText(list[0]), `mouse 1 → ${first}`);
  const back = undo(played);
  assert.deepEqual(back.position, start.position);
  assert.deepEqual(back.history, start.history);
  // Playing the cat, undo goes back to the cat's first move, after the solver's opening.
  const cat = startPlay(game, "cat") as Play;
  const reply1 = userMove(game, cat, game.legalMoves(cat.position)[0]) as Play;
  assert.deepEqual(undo(reply1).history, cat.history);
  assert.equal(undo(cat), cat);
});

test("the explorer colours a slice, and the replay settles it level by level", () => {
  const game = solvedGame("long-game");
  assert.ok(!catNodes(game).includes(0), "the cat never stands on the hole");
  for (const slice of slices("long-game")) {
    const all = sliceColours(slice, null);
    slice.ids.forEach((id, i) => {
      const expected = { m: "mouse", c: "cat", d: "draw" }[slice.outcome[i]];
      assert.equal(all.get(id), expected);
      // At a level below its moves to the end, a position is not settled yet.
      const moves = slice.moves[i];
      if (moves > 0) assert.equal(sliceColours(slice, moves - 1).get(id), "undecided");
      if (moves >= 0) assert.equal(sliceColours(slice, moves).get(id), expected);
      else assert.equal(sliceColours(slice, lastLevel(slice)).get(id), "undecided");
    });
    // Settled counts only grow, and the last level settles every win.
    let before = -1;
    for (let level = 0; level <= lastLevel(slice); level++) {
      const { settled } = settledCount(slice, level);
      assert.ok(settled >= before);
      before = settled;
    }
    assert.equal(before, slice.moves.filter((m) => m >= 0).length);
  }
  const start = game.slice(2, "mouse") as Slice;
  assert.equal(nodeVerdict(start, 1), "mouse wins in 21");
  assert.match(explorerCaption(start, 0), /^the cat on 2, mouse to move: after 0 moves back from the ends, \d+ of 10 positions are settled$/);
  assert.match(explorerCaption(start, null), /^the cat on 2, mouse to move: \d+ mouse wins, \d+ cat wins, \d+ draws$/);
});

test("describe uses the solver's words", () => {
  assert.equal(describe("cat", 4), "cat wins in 4");
  assert.equal(describe("draw", null), "draw");
});

// every-rule: `rule limit 12`, `rule first cat`, `rule start 3 5`, `rule holes 0 9`,
// `rule cat-enters-holes`, and the one-way edges 4 -> 9 -> 6.

test("a file with every rule: its line starts where its rules say, the cat moving first", () => {
  const game = solvedGame("every-rule");
  const positions = linePositions(game.scene);
  assert.deepEqual(positions[0], { mouse: 3, cat: 5, turn: "cat" });
  assert.equal(lineCaption(game, 0), "cat to move, mouse wins in 6, 12 moves left");
  assert.equal(lineCaption(game, 1), "mouse to move, mouse wins in 5, 11 moves left");
  assert.equal(lineCaption(game, positions.length - 1), "the mouse reached the hole: mouse wins");
  for (let i = 0; i + 1 < positions.length; i++) {
    const mover = positions[i].turn;
    assert.equal(positions[i + 1][mover], game.verdict(positions[i], i)?.best, `step ${i}`);
  }
  assert.deepEqual(roleLegend(game.scene), { hole: "holes 0, 9", mouse: "mouse start 3", cat: "cat start 5" });
  assert.deepEqual(roleLegend(fixture("long-game")), { hole: "hole 0", mouse: "mouse start 1", cat: "cat start 2" });
});

test("one-way edges are taken only in their direction; every hole ends the game; the cat may enter them", () => {
  const game = solvedGame("every-rule");
  const mouse = (at: number, cat = 1): Position => ({ mouse: at, cat, turn: "mouse" });
  assert.ok(game.legalMoves(mouse(4)).includes(9), "4 -> 9");
  assert.deepEqual(game.legalMoves({ mouse: 1, cat: 9, turn: "cat" }), [6], "9 -> 6, and not back to 4");
  assert.ok(!game.legalMoves(mouse(6)).includes(9), "not 6 -> 9");
  assert.ok(game.isOver(mouse(9)) && game.isOver(mouse(0)), "both holes are home");
  assert.ok(game.legalMoves({ mouse: 3, cat: 4, turn: "cat" }).includes(9), "the cat may enter a hole");
  assert.deepEqual(catNodes(game), [0, 1, 2, 3, 4, 5, 6, 9]);
  // The cat on the mouse is a cat win, in a hole too.
  const play: Play = { side: "mouse", position: { mouse: 9, cat: 9, turn: "mouse" }, history: [{ mouse: 9, cat: 9, turn: "mouse" }] };
  assert.equal(over(game, play), "the cat caught the mouse: cat wins");
  // A one-way edge is part of the graph's key: turning an edge one way is another picture.
  const turned = { ...game.scene, edges: game.scene.edges.map((e) => ({ ...e, one_way: false })) };
  assert.notEqual(graphKey(turned), graphKey(game.scene));
});

test("the turn limit: a win in more moves than are left is a draw, and play ends at the limit", () => {
  const game = solvedGame("every-rule");
  const [start] = linePositions(game.scene);
  assert.deepEqual(game.verdict(start, 0), { outcome: "mouse", moves: 6, best: 4 });
  assert.deepEqual(game.verdict(start, 6), { outcome: "mouse", moves: 6, best: 4 }, "6 moves left: still a win");
  assert.deepEqual(game.verdict(start, 7), { outcome: "draw", moves: null, best: 4 }, "5 moves left: a draw");
  assert.equal(game.verdict(start, 12)?.best, null, "no move past the limit");
  // Playing the cat, the user moves first, the whole limit ahead.
  const cat = startPlay(game, "cat") as Play;
  assert.deepEqual(cat.position, start);
  assert.equal(playStatus(game, cat), "you are losing (mouse wins in 6), your move, 12 moves left");
  // Twelve moves made without an end: a draw, even where a position also repeats.
  const history = (moves: number): Play => {
    const list = Array.from({ length: moves + 1 }, (_, i): Position => ({ mouse: 3, cat: 5, turn: i % 2 === 0 ? "cat" : "mouse" }));
    return { side: "mouse", position: list[moves], history: list };
  };
  assert.equal(over(game, history(12)), "the turn limit is reached: draw");
  assert.equal(over(game, history(11)), "the position repeats: draw");
  assert.equal(userMove(game, history(12), 4), null, "no move after the limit");
});

test("a hole where a player starts is drawn with the start's outline and the hole's ring", () => {
  assert.deepEqual(nodeLook({ role: "hole", also: ["cat"] }), { outline: "cat", ring: true });
  assert.deepEqual(nodeLook({ role: "hole", also: ["mouse"] }), { outline: "mouse", ring: true });
  assert.deepEqual(nodeLook({ role: "hole" }), { outline: "hole", ring: true });
  assert.deepEqual(nodeLook({ role: "cat" }), { outline: "cat", ring: false });
});

test("a node where both players start is drawn as both starts, with the hole's ring when it is a hole", () => {
  assert.deepEqual(nodeLook({ role: "mouse", also: ["cat"] }), { outline: "starts", ring: false });
  assert.deepEqual(nodeLook({ role: "hole", also: ["mouse", "cat"] }), { outline: "starts", ring: true });
  assert.deepEqual(nodeLook({ role: "mouse" }), { outline: "mouse", ring: false });
});
