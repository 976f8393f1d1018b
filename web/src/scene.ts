// The scene JSON produced by the Rust side (crates/cmg-ide/src/view/mod.rs), and the game logic the
// page needs on it: captions for the optimal line, and play mode against the position
// table. Pure functions, no DOM: tested under node's test runner.

import type { SceneStrategy } from "./strategy";

export type Outcome = "mouse" | "cat" | "draw";
export type Player = "mouse" | "cat";

export interface LineColumn {
  line: number;
  column: number;
}

export interface SceneNode {
  id: number;
  label: string | null;
  role: "hole" | "mouse" | "cat" | "node";
  outcome: Outcome | null;
  moves: number | null;
  x: number;
  y: number;
  mention: { start: LineColumn; end: LineColumn } | null;
  flagged: boolean;
}

export interface SceneEdge {
  a: number;
  b: number;
  flagged: boolean;
  /** Removing the edge changes who wins, or turns a win into a draw. */
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

export interface PositionTable {
  outcome: string;
  moves: number[];
  best: number[];
}

export interface Scene {
  version: number;
  outcome: Outcome | null;
  moves: number | null;
  summary: string;
  too_large: { nodes: number; limit: number } | null;
  nodes: SceneNode[];
  edges: SceneEdge[];
  line: [number, number][];
  diagnostics: SceneDiagnostic[];
  diagnostics_omitted: number;
  table: PositionTable | null;
  bounds: [number, number, number, number];
  strategies: SceneStrategy[];
  what_if_note: string | null;
}

/** The scene format this page understands (SCENE_VERSION in crates/cmg-ide/src/view/mod.rs). */
export const SCENE_VERSION = 1;

/** A game state by node ids, as the line and play mode speak of it. */
export interface Position {
  mouse: number;
  cat: number;
  turn: Player;
}

/** What the table says of a position: who wins, in how many moves, and the best move. */
export interface Verdict {
  outcome: Outcome;
  moves: number | null;
  best: number | null;
}

const OUTCOME_LETTERS: Record<string, Outcome> = { m: "mouse", c: "cat", d: "draw" };

/** Looks positions up in a scene's table by node id. */
export class Game {
  readonly scene: Scene;
  private readonly indexOf = new Map<number, number>();
  private readonly neighbourIds = new Map<number, number[]>();

  constructor(scene: Scene) {
    this.scene = scene;
    scene.nodes.forEach((node, index) => {
      this.indexOf.set(node.id, index);
      this.neighbourIds.set(node.id, []);
    });
    for (const edge of scene.edges) {
      this.neighbourIds.get(edge.a)?.push(edge.b);
      this.neighbourIds.get(edge.b)?.push(edge.a);
    }
    for (const list of this.neighbourIds.values()) list.sort((x, y) => x - y);
  }

  get solved(): boolean {
    const n = this.scene.nodes.length;
    return this.scene.table !== null && this.scene.table.outcome.length === 2 * n * n;
  }

  neighbours(id: number): number[] {
    return this.neighbourIds.get(id) ?? [];
  }

  /** The table's entry for `position`, or null without a table or for unknown nodes. */
  verdict(position: Position): Verdict | null {
    const table = this.scene.table;
    const mouse = this.indexOf.get(position.mouse);
    const cat = this.indexOf.get(position.cat);
    if (!this.solved || table === null || mouse === undefined || cat === undefined) return null;
    const n = this.scene.nodes.length;
    const entry = ((position.turn === "mouse" ? 0 : 1) * n + mouse) * n + cat;
    const outcome = OUTCOME_LETTERS[table.outcome[entry]] ?? "draw";
    const moves = table.moves[entry];
    const best = table.best[entry];
    return {
      outcome,
      moves: moves >= 0 ? moves : null,
      best: best >= 0 ? this.scene.nodes[best].id : null,
    };
  }

  /** Whether the game is over: the mouse in the hole, or the cat on the mouse. */
  isOver(position: Position): boolean {
    return (position.mouse === 0 && this.indexOf.has(0)) || position.mouse === position.cat;
  }

  /** The nodes the player to move may go to; the cat never onto the hole. */
  legalMoves(position: Position): number[] {
    if (this.isOver(position)) return [];
    const from = position.turn === "mouse" ? position.mouse : position.cat;
    return this.neighbours(from).filter((n) => position.turn === "mouse" || n !== 0);
  }
}

/** The position after the player to move goes to `to`. */
export function after(position: Position, to: number): Position {
  return position.turn === "mouse"
    ? { mouse: to, cat: position.cat, turn: "cat" }
    : { mouse: position.mouse, cat: to, turn: "mouse" };
}

/** "cat wins in 4", "draw": the same wording as `cmg solve`. */
export function describe(outcome: Outcome, moves: number | null): string {
  if (outcome === "draw" || moves === null) return "draw";
  return `${outcome} wins in ${moves}`;
}

/** The positions of the scene's optimal line, turns included (the mouse moves first). */
export function linePositions(scene: Scene): Position[] {
  return scene.line.map(([mouse, cat], step) => ({
    mouse,
    cat,
    turn: step % 2 === 0 ? "mouse" : "cat",
  }));
}

/** The caption of step `step` of the line: "mouse to move, cat wins in 4", or how it ended. */
export function lineCaption(game: Game, step: number): string {
  const positions = linePositions(game.scene);
  const position = positions[step];
  if (position === undefined) return game.scene.summary;
  const verdict = game.verdict(position);
  const end = ending(game, position, positions.slice(0, step));
  if (end !== null) return end;
  if (verdict === null) return `${position.turn} to move`;
  if (game.legalMoves(position).length === 0) return `${position.turn} to move, but has no move: draw`;
  return `${position.turn} to move, ${describe(verdict.outcome, verdict.moves)}`;
}

/** Play mode: the user plays `side`, the table answers for the other. */
export interface Play {
  side: Player;
  position: Position;
  /** Every position so far, the current one last, to find repetitions. */
  history: Position[];
}

export function startPlay(game: Game, side: Player): Play | null {
  const [start] = linePositions(game.scene);
  if (start === undefined || !game.solved) return null;
  const play: Play = { side, position: start, history: [start] };
  return side === "cat" ? reply(game, play) : play;
}

/** The user moves to `to`; then the solver answers. `null` when the move is not legal. */
export function userMove(game: Game, play: Play, to: number): Play | null {
  if (play.position.turn !== play.side || over(game, play) !== null) return null;
  if (!game.legalMoves(play.position).includes(to)) return null;
  return reply(game, advance(play, after(play.position, to)));
}

function advance(play: Play, position: Position): Play {
  return { side: play.side, position, history: [...play.history, position] };
}

/** The solver's best move for the side to move, when the game goes on. */
function reply(game: Game, play: Play): Play {
  if (over(game, play) !== null) return play;
  const verdict = game.verdict(play.position);
  const best = verdict?.best ?? null;
  return best === null ? play : advance(play, after(play.position, best));
}

/**
 * How a game standing at `position` after the positions `earlier` has ended: the cat
 * caught the mouse, the mouse is home, or the position repeats; null otherwise. The line
 * stepper and play mode say it in the same words.
 */
function ending(game: Game, position: Position, earlier: Position[]): string | null {
  if (position.mouse === position.cat) return "the cat caught the mouse: cat wins";
  if (game.isOver(position)) return "the mouse reached the hole: mouse wins";
  const repeats = earlier.some((p) => p.mouse === position.mouse && p.cat === position.cat && p.turn === position.turn);
  return repeats ? "the position repeats: draw" : null;
}

/** How the game ended, or null while it goes on. */
export function over(game: Game, play: Play): string | null {
  const p = play.position;
  const end = ending(game, p, play.history.slice(0, -1));
  if (end !== null) return end;
  if (game.legalMoves(p).length === 0) return `the ${p.turn} cannot move: draw`;
  return null;
}

/** "You are winning: mouse wins in 3", from the user's side. */
export function playStatus(game: Game, play: Play): string {
  const ended = over(game, play);
  if (ended !== null) return `game over: ${ended}`;
  const verdict = game.verdict(play.position);
  if (verdict === null) return "no solution";
  const standing =
    verdict.outcome === "draw" ? "drawing" : verdict.outcome === play.side ? "winning" : "losing";
  const turn = play.position.turn === play.side ? "your move" : "solver's move";
  return `you are ${standing} (${describe(verdict.outcome, verdict.moves)}), ${turn}`;
}
