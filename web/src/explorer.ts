// The table explorer and the solver replay: which slice of the position table the picture
// is coloured by (the cat on a chosen node, a chosen player to move; every node coloured
// by the outcome if the mouse stood there), and how far the retrograde analysis has got
// at replay level k. Pure functions, no DOM: tested under node's test runner.

import { describe, type Game, type Outcome, type Player, type Slice } from "./scene";

/** What a node shows: an outcome, or not settled yet at this replay level. */
export type Shown = Outcome | "undecided";

const LETTERS: Record<string, Outcome> = { m: "mouse", c: "cat", d: "draw" };

/**
 * The colour of every node (by id) in `slice`. At replay level `level`, only positions
 * settled within `level` rounds back from the ends show their outcome; draws are never
 * settled, so they show only when the replay is over (`level` null: the whole slice).
 */
export function sliceColours(slice: Slice, level: number | null): Map<number, Shown> {
  const colours = new Map<number, Shown>();
  slice.ids.forEach((id, i) => {
    const outcome = LETTERS[slice.outcome[i]] ?? "draw";
    const moves = slice.moves[i];
    const settled = level === null || (moves >= 0 && moves <= level);
    colours.set(id, settled ? outcome : "undecided");
  });
  return colours;
}

/** The last replay level at which something is settled: the slice's longest win. */
export function lastLevel(slice: Slice): number {
  return slice.moves.reduce((a, b) => Math.max(a, b), 0);
}

/** How many nodes of the slice are settled at `level`, and how many there are. */
export function settledCount(slice: Slice, level: number): { settled: number; of: number } {
  const settled = slice.moves.filter((m) => m >= 0 && m <= level).length;
  return { settled, of: slice.moves.length };
}

/** The nodes the cat may stand on: every node but the hole. */
export function catNodes(game: Game): number[] {
  return game.scene.nodes.map((n) => n.id).filter((id) => game.catMayStand(id));
}

/** "colours: who wins if the mouse stood on the node, the cat on 5, cat to move". */
export function coloursCaption(cat: number, turn: Player): string {
  return `colours: who wins if the mouse stood on the node, the cat on ${cat}, ${turn} to move`;
}

/** The caption of the explorer at replay `level` (null: the whole slice). */
export function explorerCaption(slice: Slice, level: number | null): string {
  const where = `the cat on ${slice.cat}, ${slice.turn} to move`;
  if (level === null) {
    const counts = { mouse: 0, cat: 0, draw: 0 };
    for (const shown of sliceColours(slice, null).values()) if (shown !== "undecided") counts[shown]++;
    return `${where}: ${counts.mouse} mouse wins, ${counts.cat} cat wins, ${counts.draw} draws`;
  }
  const { settled, of } = settledCount(slice, level);
  const rounds = level === 1 ? "1 move" : `${level} moves`;
  return `${where}: after ${rounds} back from the ends, ${settled} of ${of} positions are settled`;
}

/** "mouse wins in 3" for one node of a slice, or null for an unknown node. */
export function nodeVerdict(slice: Slice, id: number): string | null {
  const i = slice.ids.indexOf(id);
  if (i < 0) return null;
  const moves = slice.moves[i];
  return describe(LETTERS[slice.outcome[i]] ?? "draw", moves >= 0 ? moves : null);
}
