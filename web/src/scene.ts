// The scene JSON produced by the Rust side (crates/cmg-ide/src/view/mod.rs), and the game logic the
// page needs on it: captions for the optimal line, and play mode against slices of the
// position table, which the host hands over on demand (crates/cmg-ide/src/view/slice.rs).
// Pure functions, no DOM: tested under node's test runner.

import { describe, ENDINGS, noMove, type SceneRole } from "./generated/words";

export { describe };

export type Outcome = "mouse" | "cat" | "draw";
export type Player = "mouse" | "cat";

export interface LineColumn {
  line: number;
  column: number;
}

export interface SceneNode {
  id: number;
  label: string | null;
  role: SceneRole;
  /** The node's other roles, after `role`: a hole where a player starts too. Absent when none. */
  also?: SceneRole[];
  outcome: Outcome | null;
  moves: number | null;
  x: number;
  y: number;
  mention: { start: LineColumn; end: LineColumn } | null;
  flagged: boolean;
  /** Where each player may move from this node (from the solver's one legal-move rule); empty when not solved. */
  next: { mouse: number[]; cat: number[] };
}

export interface SceneEdge {
  /** The ends, `a < b`; of a one-way edge, its start and its end. */
  a: number;
  b: number;
  /** A one-way edge: a move from `a` to `b` only, drawn with an arrowhead. Absent for an edge. */
  one_way?: boolean;
  flagged: boolean;
  /** Removing the edge changes the result, in any direction. */
  critical: boolean;
  /** "without 3 -- 5: mouse wins in 7 (now: cat wins in 12)", or null when not computed. */
  what_if: string | null;
}

export interface SceneDiagnostic {
  code: string;
  severity: string;
  message: string;
  start: LineColumn;
  end: LineColumn;
  nodes: number[];
  edges: [number, number][];
}

/** One slice of the position table: the cat on `cat`, `turn` to move, one entry per node for the mouse standing there. */
export interface Slice {
  cat: number;
  turn: Player;
  ids: number[];
  /** `m`, `c` or `d` per node. */
  outcome: string;
  /** Moves to the end, which is also the replay level it is settled at; -1 for a draw. */
  moves: number[];
  /** The node id the player to move goes to; -1 when the game is over or there is no move. */
  best: number[];
}

export interface Scene {
  version: number;
  outcome: Outcome | null;
  moves: number | null;
  summary: string;
  too_large: { nodes: number; limit: number; edges: number; edge_limit: number } | null;
  nodes: SceneNode[];
  edges: SceneEdge[];
  line: [number, number][];
  diagnostics: SceneDiagnostic[];
  diagnostics_omitted: number;
  bounds: [number, number, number, number];
  strategies: SceneStrategy[];
  what_if_note: string | null;
  /** Set when the layout stopped at its work limit with edges still over nodes. */
  layout_note?: string;
  /** Set by `cmg view` when the file cannot be read (deleted, moved): the scene is the last one read. */
  source_note?: string;
  /** The file's game when it is not LeetCode 913's; absent for a file without rules or one-way edges. */
  rules?: SceneRules;
}

/** The rules of a file's game (crates/cmg-ide/src/view/mod.rs's SceneRules). */
export interface SceneRules {
  /** "the game: the cat moves first, limit 16", in the hover's words. */
  game: string;
  first: Player;
  /** A draw once this many moves are made without an end; null: no limit. */
  limit: number | null;
  /** Where the mouse and the cat start. */
  mouse: number;
  cat: number;
  /** The holes that are nodes. */
  holes: number[];
  cat_enters_holes: boolean;
}

/** A node's outline: its role's, or `starts` where the mouse and the cat both start. */
export type NodeOutline = SceneRole | "starts";

/**
 * How a node is drawn with all its roles: the outline of its start (`starts`, the mouse's
 * square on the left and the cat's diamond on the right, where both start), else of its
 * role, and whether the hole's ring is inside.
 * `node_shape` in crates/cmg-ide/src/view/svg.rs draws the same for the export.
 */
export function nodeLook(node: Pick<SceneNode, "role" | "also">): { outline: NodeOutline; ring: boolean } {
  const roles = [node.role, ...(node.also ?? [])];
  const [mouse, cat] = [roles.includes("mouse"), roles.includes("cat")];
  const outline = mouse && cat ? "starts" : mouse ? "mouse" : cat ? "cat" : node.role;
  return { outline, ring: roles.includes("hole") };
}

/** The rules of LeetCode 913's game, which a scene without `rules` is played by. */
const STANDARD: Omit<SceneRules, "game"> = {
  first: "mouse",
  limit: null,
  mouse: 1,
  cat: 2,
  holes: [0],
  cat_enters_holes: false,
};

/** A strategy tree of the scene (crates/cmg-ide/src/view/explain.rs), drawn by strategy.ts. */
export interface SceneTreeLine {
  depth: number;
  text: string;
  note: string;
  mouse: number;
  cat: number;
  turn: 0 | 1;
  repeat_of: number | null;
}

export interface SceneStrategy {
  player: Player;
  title: string;
  lines: SceneTreeLine[];
  truncated: boolean;
}

/** The scene format this page understands (SCENE_VERSION in crates/cmg-ide/src/view/mod.rs). */
export const SCENE_VERSION = 2;

/** A game state by node ids, as the line and play mode speak of it. */
export interface Position {
  mouse: number;
  cat: number;
  turn: Player;
}

/**
 * What the table says of a position: who wins, in how many moves, and the best move.
 * With a turn limit, a slice speaks of a position with the whole limit ahead; after
 * `made` moves, a win in more moves than are left is a draw (`Game.verdict`).
 */
export interface Verdict {
  outcome: Outcome;
  moves: number | null;
  best: number | null;
}

const OUTCOME_LETTERS: Record<string, Outcome> = { m: "mouse", c: "cat", d: "draw" };

/** The key of a slice in a game's cache. */
export function sliceKey(cat: number, turn: Player): string {
  return `${cat}/${turn}`;
}

/** Looks positions up by node id in the slices handed to it so far. */
export class Game {
  readonly scene: Scene;
  /** The game's rules: the scene's, or LeetCode 913's. */
  readonly rules: Omit<SceneRules, "game">;
  private readonly indexOf = new Map<number, number>();
  private readonly slices = new Map<string, Slice>();
  private readonly holes: Set<number>;

  constructor(scene: Scene) {
    this.scene = scene;
    this.rules = scene.rules ?? STANDARD;
    scene.nodes.forEach((node, index) => this.indexOf.set(node.id, index));
    this.holes = new Set(this.rules.holes.filter((id) => this.indexOf.has(id)));
  }

  /** Moves left after `made` moves under the turn limit; null without a limit. */
  movesLeft(made: number): number | null {
    return this.rules.limit === null ? null : Math.max(0, this.rules.limit - made);
  }

  /** Whether the scene comes with a solution, so that slices can be asked for. */
  get solved(): boolean {
    return this.scene.outcome !== null;
  }

  /**
   * Keeps `slice` if it belongs to this scene (the same nodes in the same order): a slice
   * of another version of the file is dropped. Returns whether it was kept.
   */
  addSlice(slice: Slice): boolean {
    const nodes = this.scene.nodes;
    const fits =
      slice.ids.length === nodes.length &&
      slice.ids.every((id, i) => id === nodes[i].id) &&
      slice.outcome.length === nodes.length &&
      slice.moves.length === nodes.length &&
      slice.best.length === nodes.length;
    if (fits) this.slices.set(sliceKey(slice.cat, slice.turn), slice);
    return fits;
  }

  slice(cat: number, turn: Player): Slice | null {
    return this.slices.get(sliceKey(cat, turn)) ?? null;
  }

  /** The slice `position` needs, when it is not here yet (null when it is, or cannot be). */
  missing(position: Position): { cat: number; turn: Player } | null {
    if (!this.solved || !this.catMayStand(position.cat)) return null;
    return this.slice(position.cat, position.turn) === null ? { cat: position.cat, turn: position.turn } : null;
  }

  /**
   * What the slices say of `position` after `made` moves (0: as a start), or null
   * without its slice or for unknown nodes. Under a turn limit, a win in more moves than
   * are left is a draw; the slice's best move then keeps the draw (the winner's fastest
   * win and the loser's slowest loss both outlast the limit), so play needs no other table.
   */
  verdict(position: Position, made = 0): Verdict | null {
    const mouse = this.indexOf.get(position.mouse);
    const slice = this.slice(position.cat, position.turn);
    if (slice === null || mouse === undefined) return null;
    const left = this.movesLeft(made);
    const moves = slice.moves[mouse];
    const decided = moves >= 0 && (left === null || moves <= left);
    const outcome = decided ? (OUTCOME_LETTERS[slice.outcome[mouse]] ?? "draw") : "draw";
    const best = left === 0 ? -1 : slice.best[mouse];
    return { outcome, moves: decided ? moves : null, best: best >= 0 ? best : null };
  }

  /** Whether the cat may stand on node `id`: a node of the scene, and not a hole unless the rules let it in or it starts there. */
  catMayStand(id: number): boolean {
    return this.indexOf.has(id) && (this.rules.cat_enters_holes || !this.holes.has(id) || id === this.rules.cat);
  }

  /** Whether the game is over: the mouse in a hole, or the cat on the mouse. */
  isOver(position: Position): boolean {
    return this.holes.has(position.mouse) || position.mouse === position.cat;
  }

  /**
   * The nodes the player to move may go to, as the scene lists them: the rule of who may
   * go where (the cat never onto the hole) is the solver's, not written again here.
   */
  legalMoves(position: Position): number[] {
    if (this.isOver(position)) return [];
    const from = position.turn === "mouse" ? position.mouse : position.cat;
    const index = this.indexOf.get(from);
    return index === undefined ? [] : this.scene.nodes[index].next[position.turn];
  }
}

/** The position after the player to move goes to `to`. */
export function after(position: Position, to: number): Position {
  return position.turn === "mouse"
    ? { mouse: to, cat: position.cat, turn: "cat" }
    : { mouse: position.mouse, cat: to, turn: "mouse" };
}

/** The positions of the scene's optimal line, turns included (by default the mouse moves first). */
export function linePositions(scene: Scene): Position[] {
  const first = scene.rules?.first ?? "mouse";
  const second: Player = first === "mouse" ? "cat" : "mouse";
  return scene.line.map(([mouse, cat], step) => ({
    mouse,
    cat,
    turn: step % 2 === 0 ? first : second,
  }));
}

/** The caption of step `step` of the line: "mouse to move, cat wins in 4", or how it ended. */
export function lineCaption(game: Game, step: number): string {
  const positions = linePositions(game.scene);
  const position = positions[step];
  if (position === undefined) return game.scene.summary;
  const verdict = game.verdict(position, step);
  const end = ending(game, position, positions.slice(0, step));
  if (end !== null) return end;
  if (verdict === null) return `${position.turn} to move${movesLeft(game, step)}`;
  if (game.legalMoves(position).length === 0) return noMove(position.turn);
  return `${position.turn} to move, ${describe(verdict.outcome, verdict.moves)}${movesLeft(game, step)}`;
}

/** ", 5 moves left" under a turn limit after `made` moves; empty without one. */
export function movesLeft(game: Game, made: number): string {
  const left = game.movesLeft(made);
  return left === null ? "" : `, ${left} ${left === 1 ? "move" : "moves"} left`;
}

/** Play mode: the user plays `side`, the solver answers for the other. */
export interface Play {
  side: Player;
  position: Position;
  /** Every position so far, the current one last, to find repetitions. */
  history: Position[];
}

/**
 * A new game from the start. When the user plays the cat, the solver moves first: if its
 * slice is not here yet, the play waits on the solver (see `waitsForSolver`).
 */
export function startPlay(game: Game, side: Player): Play | null {
  const [start] = linePositions(game.scene);
  if (start === undefined || !game.solved) return null;
  const play: Play = { side, position: start, history: [start] };
  return side === "cat" ? reply(game, play) : play;
}

/** The user moves to `to`; then the solver answers (when its slice is here). `null` when the move is not legal. */
export function userMove(game: Game, play: Play, to: number): Play | null {
  if (play.position.turn !== play.side || over(game, play) !== null) return null;
  if (!game.legalMoves(play.position).includes(to)) return null;
  return reply(game, advance(play, after(play.position, to)));
}

function advance(play: Play, position: Position): Play {
  return { side: play.side, position, history: [...play.history, position] };
}

/** The solver's best move for the side to move, when the game goes on and its slice is here. */
export function reply(game: Game, play: Play): Play {
  if (play.position.turn === play.side || over(game, play) !== null) return play;
  const best = game.verdict(play.position, play.history.length - 1)?.best ?? null;
  return best === null ? play : advance(play, after(play.position, best));
}

/** Whether it is the solver's move and the game goes on: the slice of the position is awaited. */
export function waitsForSolver(game: Game, play: Play): boolean {
  return play.position.turn !== play.side && over(game, play) === null;
}

/**
 * Takes back the user's last move (and the solver's answer to it): back to the latest
 * earlier position where it was the user's move. Unchanged when there is none.
 */
export function undo(play: Play): Play {
  for (let i = play.history.length - 2; i >= 0; i--) {
    if (play.history[i].turn === play.side) {
      const history = play.history.slice(0, i + 1);
      return { side: play.side, position: history[i], history };
    }
  }
  return play;
}

/** One move of a game: who moved, from where, to where. */
export interface Move {
  player: Player;
  from: number;
  to: number;
}

/** The moves of the game so far, first to last. */
export function moves(play: Play): Move[] {
  const list: Move[] = [];
  for (let i = 1; i < play.history.length; i++) {
    const [before, now] = [play.history[i - 1], play.history[i]];
    const player = before.turn;
    list.push({ player, from: before[player], to: now[player] });
  }
  return list;
}

/** "mouse 1 → 3", as the move list and the announcement say it. */
export function moveText(move: Move): string {
  return `${move.player} ${move.from} → ${move.to}`;
}

/**
 * How a game standing at `position` after the positions `earlier` has ended: the cat
 * caught the mouse, the mouse is home, the turn limit is reached, or the position
 * repeats; null otherwise. The line stepper and play mode say it in the same words.
 */
function ending(game: Game, position: Position, earlier: Position[]): string | null {
  if (position.mouse === position.cat) return ENDINGS.caught;
  if (game.isOver(position)) return ENDINGS.home;
  if (game.movesLeft(earlier.length) === 0) return ENDINGS.limit;
  const repeats = earlier.some((p) => p.mouse === position.mouse && p.cat === position.cat && p.turn === position.turn);
  return repeats ? ENDINGS.repeats : null;
}

/** How the game ended, or null while it goes on. */
export function over(game: Game, play: Play): string | null {
  const p = play.position;
  const end = ending(game, p, play.history.slice(0, -1));
  if (end !== null) return end;
  if (game.legalMoves(p).length === 0) return noMove(p.turn);
  return null;
}

/** "You are winning: mouse wins in 3", from the user's side. */
export function playStatus(game: Game, play: Play): string {
  const ended = over(game, play);
  if (ended !== null) return `game over: ${ended}`;
  const made = play.history.length - 1;
  const verdict = game.verdict(play.position, made);
  if (verdict === null) return "no solution";
  const standing =
    verdict.outcome === "draw" ? "drawing" : verdict.outcome === play.side ? "winning" : "losing";
  const turn = play.position.turn === play.side ? "your move" : "solver's move";
  return `you are ${standing} (${describe(verdict.outcome, verdict.moves)}), ${turn}${movesLeft(game, made)}`;
}

/** The graph of a scene, its nodes and edges, as a key: the same key is the same graph. */
export function graphKey(scene: { nodes: { id: number }[]; edges: { a: number; b: number; one_way?: boolean }[] }): string {
  return `${scene.nodes.map((n) => n.id).join(",")}|${scene.edges.map((e) => `${e.a}-${e.b}${e.one_way === true ? ">" : ""}`).join(",")}`;
}
