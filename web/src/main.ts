// The game view page: gets scenes from its host (`cmg view` over HTTP, or the VS Code
// extension through messages), draws them, and runs the line stepper, play mode and the
// table explorer; slices of the position table are asked of the host as they are needed.

import {
  catNodes,
  coloursCaption,
  explorerCaption,
  lastLevel,
  sliceColours,
} from "./explorer";
import { download, pictureSvg, svgToPng } from "./export";
import { byId } from "./dom";
import { pageHost, type Host } from "./hosts";
import { showRules } from "./rules";
import { CANVAS_ABOVE, CanvasLayer } from "./canvas";
import { NODE_RADIUS, colourNodes, createPicture, draw, drawTokens, markLastMove, markSelected, sceneColours, startSlice, type Picture } from "./render";
import { showStrategies, shownStrategies } from "./strategy";
import {
  Game,
  SCENE_VERSION,
  graphKey,
  lineCaption,
  linePositions,
  moveText,
  moves,
  over,
  playStatus,
  reply,
  sliceKey,
  startPlay,
  undo,
  userMove,
  waitsForSolver,
  type Play,
  type Player,
  type Position,
  type Scene,
  type Slice,
} from "./scene";

type Mode = "line" | "play-mouse" | "play-cat" | "explore";

/** A press on a node that moves farther than this many pixels drags it. */
const DRAG_PX = 4;

/** Slices asked for and not answered are asked again at most this often. */
const SLICE_RETRY_MS = 300;

class View {
  private game: Game | null = null;
  private mode: Mode = "line";
  private step = 0;
  private play: Play | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private zoom = { k: 1, x: 0, y: 0 };
  /** The graph the picture was last fitted to (its nodes and edges), and whether the user zoomed or panned since. */
  private fittedGraph: string | null = null;
  private userMoved = false;
  private readonly picture: Picture = createPicture();
  /** The picture on a canvas, for large graphs (the SVG stays, hidden, as its accessible layer). */
  private readonly layer = new CanvasLayer(this.picture, () => this.zoom);
  /** A position picked in the strategy panel, shown instead of the line's until the stepper moves. */
  private picked: { position: Position; caption: string } | null = null;
  /** The explorer's slice (the cat's node, who moves) and replay level (null: all). */
  private explore: { cat: number; turn: Player; level: number | null } = { cat: 2, turn: "mouse", level: null };
  /** Slices asked of the host, by key, with when, so that one is never asked twice at once. */
  private readonly asked = new Map<string, number>();
  /** The node whose mention the editor's cursor is on, marked in the picture. */
  private selected: number | null = null;
  /** The solver's last reply in play mode, announced once. */
  private announced = "";
  /** Nodes the user dragged: drawn where they were put, whatever the layout says, until a double click unpins them. */
  private readonly pinned = new Map<number, [number, number]>();
  /** Where the layout put each node of the scene shown, before the pins. */
  private laidOut = new Map<number, [number, number]>();
  /** A drag just ended: the click that ends it is not a click on the node. */
  private dragged = false;

  constructor(private readonly host: Host) {
    byId("stage").append(this.layer.canvas, this.picture.svg);
    byId("prev").addEventListener("click", () => this.goTo(this.step - 1));
    byId("next").addEventListener("click", () => this.goTo(this.step + 1));
    byId<HTMLInputElement>("slider").addEventListener("input", (e) =>
      this.goTo(Number((e.target as HTMLInputElement).value)),
    );
    byId("play").addEventListener("click", () => this.togglePlaying());
    byId<HTMLSelectElement>("mode").addEventListener("change", (e) =>
      this.setMode((e.target as HTMLSelectElement).value as Mode),
    );
    byId("fit").addEventListener("click", () => this.fit());
    for (const button of Array.from(document.querySelectorAll<HTMLElement>("[data-export]"))) {
      button.addEventListener("click", () => void this.export(button.dataset.export === "png" ? "png" : "svg"));
    }
    const toggle = byId("strategy-toggle");
    toggle.addEventListener("click", () => {
      const collapse = document.body.dataset.panel !== "collapsed";
      document.body.dataset.panel = collapse ? "collapsed" : "";
      toggle.setAttribute("aria-expanded", String(!collapse));
    });
    // The stage changes size with the window and when a panel beside it comes, goes or
    // folds: the picture is fitted again, unless the user has zoomed or panned it.
    new ResizeObserver(() => {
      if (!this.userMoved && this.fittedGraph !== null) this.fit();
      else this.layer.request();
    }).observe(byId("stage"));
    byId("undo").addEventListener("click", () => this.undo());
    byId("restart").addEventListener("click", () => this.restart());
    byId<HTMLSelectElement>("cat").addEventListener("change", (e) => {
      this.explore = { ...this.explore, cat: Number((e.target as HTMLSelectElement).value), level: null };
      this.refresh();
    });
    byId<HTMLSelectElement>("turn").addEventListener("change", (e) => {
      this.explore = { ...this.explore, turn: (e.target as HTMLSelectElement).value as Player, level: null };
      this.refresh();
    });
    byId<HTMLInputElement>("replay").addEventListener("input", (e) => {
      const input = e.target as HTMLInputElement;
      const value = Number(input.value);
      this.explore = { ...this.explore, level: value >= Number(input.max) ? null : value };
      this.refresh();
    });
    this.picture.nodes.addEventListener("click", (event) => {
      const group = (event.target as Element).closest("[data-node]");
      if (this.dragged) this.dragged = false;
      else if (group !== null) this.clickNode(Number(group.getAttribute("data-node")));
    });
    this.picture.nodes.addEventListener("dblclick", (event) => {
      const group = (event.target as Element).closest("[data-node]");
      const id = Number(group?.getAttribute("data-node"));
      if (group === null || !this.pinned.has(id)) return;
      this.pinned.delete(id);
      this.host.moved?.(id, null);
      this.redrawPins();
    });
    this.enableNodeDragging();
    // On the canvas, the same clicks, hit-tested; a hover names the node or the edge's what-if.
    this.layer.canvas.addEventListener("click", (event) => {
      const id = this.layer.nodeAt(event.clientX, event.clientY);
      if (id !== null) this.clickNode(id);
    });
    this.layer.canvas.addEventListener("pointermove", (event) => {
      const title = this.layer.titleAt(event.clientX, event.clientY);
      if (this.layer.canvas.title !== title) this.layer.canvas.title = title;
      this.layer.canvas.style.cursor = this.layer.nodeAt(event.clientX, event.clientY) === null ? "" : "pointer";
    });
    // The keyboard: Enter or Space on a focused move, ← → along the line, u undo, r restart.
    this.picture.nodes.addEventListener("keydown", (event) => {
      const group = (event.target as Element).closest("[data-node]");
      if (group !== null && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.clickNode(Number(group.getAttribute("data-node")));
      }
    });
    // The canvas paints the focused node apart, so it follows the focus.
    this.picture.nodes.addEventListener("focusin", () => this.layer.request());
    this.picture.nodes.addEventListener("focusout", () => this.layer.request());
    document.addEventListener("keydown", (event) => this.key(event));
    this.enableZoomAndPan();
    host.start(
      (scene) => this.show(scene),
      (node) => {
        this.selected = node;
        markSelected(this.picture, node);
      },
      (pins) => {
        for (const [id, at] of Object.entries(pins)) {
          if (Array.isArray(at) && at.length === 2 && at.every(Number.isFinite)) this.pinned.set(Number(id), [at[0], at[1]]);
        }
        if (this.game !== null) this.redrawPins();
      },
    );
  }

  private show(scene: Scene): void {
    if (scene.version !== SCENE_VERSION) {
      this.setText("summary", `this page reads scene version ${SCENE_VERSION}, got ${scene.version}`);
      return;
    }
    // The same graph as the picture shown (an edit of a comment, a label, the text's
    // layout): every node stays where it is, whatever the layout did.
    if (graphKey(scene) === this.fittedGraph && this.laidOut.size > 0) keepPositions(scene, this.laidOut);
    this.laidOut = new Map(scene.nodes.map((node) => [node.id, [node.x, node.y]]));
    for (const id of Array.from(this.pinned.keys())) if (!this.laidOut.has(id)) this.pinned.delete(id);
    this.applyPins(scene);
    // The explorer starts at the start: the cat on its node, the first player to move; a
    // file whose start changed moves it there.
    const start = this.game === null ? null : startSlice(this.game.scene);
    this.game = new Game(scene);
    if (start !== startSlice(scene)) this.explore = { cat: this.game.rules.cat, turn: this.game.rules.first, level: null };
    // Slices belong to one scene: a new one asks again (its outcomes may differ).
    this.asked.clear();
    const drawer = renderer(scene);
    document.body.dataset.renderer = drawer;
    // The explorer's picker (an option per node) is filled when the explorer is shown.
    if (this.mode === "explore") this.fillCatChoices();
    this.setText("summary", scene.outcome === null ? scene.summary : `outcome: ${scene.summary}`);
    showRules(scene);
    document.body.dataset.outcome = scene.outcome ?? "";
    this.showDiagnostics(scene);
    this.picked = null;
    showStrategies(byId("strategy"), scene.strategies ?? [], (position, caption) => this.pick(position, caption));
    document.body.dataset.strategy = shownStrategies(scene.strategies ?? []).length > 0 ? "shown" : "";
    const slider = byId<HTMLInputElement>("slider");
    slider.max = String(Math.max(0, scene.line.length - 1));
    this.step = Math.min(this.step, Math.max(0, scene.line.length - 1));
    if (this.play !== null) {
      const known = new Set(scene.nodes.map((n) => n.id));
      const stillThere = this.play.history.every((p) => known.has(p.mouse) && known.has(p.cat));
      // The answers come from the new slices; a play whose nodes are gone starts again.
      if (!stillThere) this.play = startPlay(this.game, this.play.side);
    }
    // The panels are filled first and the picture fitted before it is drawn: the stage's
    // size is all fitting measures, and measured now it costs no layout of the picture.
    // A new graph (a node or an edge added or removed) is fitted again, unless the user
    // has zoomed or panned and every node is still in sight.
    const graph = graphKey(scene);
    if (scene.nodes.length > 0 && graph !== this.fittedGraph && (!this.userMoved || !this.allInSight(scene))) this.fit();
    this.fittedGraph = graph;
    draw(this.picture, scene, drawer === "canvas");
    this.markPins();
    markSelected(this.picture, this.selected);
    this.layer.show(scene, drawer === "canvas");
    this.refresh();
  }

  private showDiagnostics(scene: Scene): void {
    const list = byId("diagnostics");
    // The notes first: that the file is gone (the picture is of its last version),
    // then why the picture is not as clear as usual.
    const note: HTMLLIElement[] = [];
    for (const [kind, text] of [
      ["source", scene.source_note],
      ["layout", scene.layout_note],
    ] as const) {
      if (text === undefined) continue;
      const item = document.createElement("li");
      item.className = "note";
      item.dataset.note = kind;
      item.textContent = text;
      note.push(item);
    }
    list.replaceChildren(
      ...note,
      ...scene.diagnostics.map((d) => {
        const item = document.createElement("li");
        item.className = d.severity;
        item.textContent = `${d.start.line}:${d.start.column} ${d.severity} [${d.code}] ${d.message}`;
        return item;
      }),
    );
    if (scene.diagnostics_omitted > 0) {
      const item = document.createElement("li");
      item.textContent = `… and ${scene.diagnostics_omitted} more`;
      list.append(item);
    }
  }

  private setText(id: string, text: string): void {
    byId(id).textContent = text;
  }

  private pick(position: Position, caption: string): void {
    if (this.mode !== "line") byId<HTMLSelectElement>("mode").value = "line";
    this.setMode("line");
    this.picked = { position, caption };
    this.refresh();
  }

  private goTo(step: number): void {
    this.picked = null;
    const last = Math.max(0, (this.game?.scene.line.length ?? 1) - 1);
    this.step = Math.max(0, Math.min(step, last));
    if (this.step === last) this.stopPlaying();
    this.refresh();
  }

  private togglePlaying(): void {
    if (this.timer !== null) {
      this.stopPlaying();
      return;
    }
    const last = (this.game?.scene.line.length ?? 1) - 1;
    if (this.step >= last) this.step = 0;
    this.timer = setInterval(() => this.goTo(this.step + 1), 700);
    byId("play").textContent = "pause";
    byId("play").setAttribute("aria-label", "pause");
    this.refresh();
  }

  private stopPlaying(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    byId("play").textContent = "play";
    byId("play").setAttribute("aria-label", "play");
  }

  private setMode(mode: Mode): void {
    this.stopPlaying();
    this.mode = mode;
    this.play = null;
    this.picked = null;
    this.announced = "";
    this.setText("announce", "");
    if ((mode === "play-mouse" || mode === "play-cat") && this.game !== null) {
      this.play = startPlay(this.game, mode === "play-mouse" ? "mouse" : "cat");
    }
    if (mode === "explore") this.fillCatChoices();
    document.body.dataset.mode = mode;
    this.refresh();
  }

  private undo(): void {
    if (this.play === null) return;
    this.play = undo(this.play);
    this.refresh();
  }

  private restart(): void {
    if (this.play === null || this.game === null) return;
    this.play = startPlay(this.game, this.play.side);
    this.refresh();
  }

  private key(event: KeyboardEvent): void {
    const target = event.target as Element | null;
    if (target !== null && target.closest("input, select, textarea") !== null) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (this.mode === "line" && event.key === "ArrowRight") this.goTo(this.step + 1);
    else if (this.mode === "line" && event.key === "ArrowLeft") this.goTo(this.step - 1);
    else if (this.play !== null && event.key === "u") this.undo();
    else if (this.play !== null && event.key === "r") this.restart();
    else return;
    event.preventDefault();
  }

  /** The explorer's cat picker lists every node but the hole. */
  private fillCatChoices(): void {
    const game = this.game;
    if (game === null) return;
    const select = byId<HTMLSelectElement>("cat");
    const nodes = catNodes(game);
    if (!nodes.includes(this.explore.cat)) this.explore = { ...this.explore, cat: nodes[0] ?? 2, level: null };
    const same = Array.from(select.options).map((o) => Number(o.value));
    if (same.length !== nodes.length || same.some((id, i) => id !== nodes[i])) {
      select.replaceChildren(
        ...nodes.map((id) => {
          const option = document.createElement("option");
          option.value = String(id);
          option.textContent = String(id);
          return option;
        }),
      );
    }
    select.value = String(this.explore.cat);
  }

  /**
   * The slice for `position`'s cat and turn, asked of the host when it is not here: null
   * until it comes, and then the view is drawn again.
   */
  private need(cat: number, turn: Player): Slice | null {
    const game = this.game;
    if (game === null || !game.solved) return null;
    const have = game.slice(cat, turn);
    if (have !== null) return have;
    const key = sliceKey(cat, turn);
    const now = Date.now();
    if ((this.asked.get(key) ?? -Infinity) > now - SLICE_RETRY_MS) return null;
    this.asked.set(key, now);
    void this.host.slice(cat, turn).then(
      (slice) => {
        // Kept only if it is of the scene still shown; a stale one is dropped.
        if (slice !== null && this.game === game && game.addSlice(slice)) this.refresh();
      },
      () => undefined,
    );
    return null;
  }

  private clickNode(id: number): void {
    const game = this.game;
    if (game === null) return;
    if (this.mode === "explore" && game.catMayStand(id)) {
      this.explore = { ...this.explore, cat: id, level: null };
      byId<HTMLSelectElement>("cat").value = String(id);
      this.refresh();
      return;
    }
    if (this.play !== null && game.legalMoves(this.play.position).includes(id) && this.play.position.turn === this.play.side) {
      this.play = userMove(game, this.play, id) ?? this.play;
      this.refresh();
      return;
    }
    const node = game.scene.nodes.find((n) => n.id === id);
    if (node === undefined) return;
    const said = this.host.reveal(node);
    if (said !== null) this.setText("status", said);
  }

  /** Brings the picture and the panels up to the state, then the canvas up to the picture. */
  private refresh(): void {
    this.update();
    this.layer.request();
  }

  private update(): void {
    const game = this.game;
    if (game === null) return;
    const stepper = this.mode === "line";
    for (const id of ["prev", "next", "play", "slider"]) {
      (byId(id) as HTMLButtonElement | HTMLInputElement).disabled = !stepper || game.scene.line.length < 2;
    }
    if (this.mode === "line" && this.picked !== null) {
      const { position, caption } = this.picked;
      drawTokens(this.picture, game.scene, position, []);
      markLastMove(this.picture, null);
      this.colourBy(position);
      this.setText("caption", `strategy: ${caption}`);
      this.showMoves(null);
      return;
    }
    if (this.mode === "line") {
      const positions = linePositions(game.scene);
      const position = positions[this.step];
      // The captions of the line need the slice of the step and of the one before.
      for (const p of positions.slice(Math.max(0, this.step - 1), this.step + 2)) this.need(p.cat, p.turn);
      drawTokens(this.picture, game.scene, position ?? null, []);
      const previous = positions[this.step - 1];
      markLastMove(
        this.picture,
        previous === undefined || position === undefined
          ? null
          : { from: previous[previous.turn], to: position[previous.turn] },
      );
      this.colourBy(position ?? null);
      byId<HTMLInputElement>("slider").value = String(this.step);
      this.setText("step", `${this.step}/${Math.max(0, game.scene.line.length - 1)}`);
      this.setText("caption", game.scene.line.length === 0 ? game.scene.summary : lineCaption(game, this.step));
      this.showMoves(null);
      return;
    }
    if (this.mode === "explore") {
      this.refreshExplorer(game);
      return;
    }
    let play = this.play;
    if (play === null) {
      drawTokens(this.picture, game.scene, null, []);
      markLastMove(this.picture, null);
      this.colourBy(null);
      this.setText("caption", "play mode needs a solved game");
      this.showMoves(null);
      return;
    }
    // The solver's move waits for the slice of its position.
    if (waitsForSolver(game, play) && this.need(play.position.cat, play.position.turn) !== null) {
      play = this.play = reply(game, play);
    }
    const yourTurn = play.position.turn === play.side && over(game, play) === null;
    drawTokens(this.picture, game.scene, play.position, yourTurn ? game.legalMoves(play.position) : []);
    const list = moves(play);
    const last = list[list.length - 1];
    markLastMove(this.picture, last ?? null);
    this.colourBy(play.position);
    this.need(play.position.cat, play.position.turn);
    this.setText("step", `${play.history.length - 1}`);
    const side: Player = play.side;
    // A slice on its way is said as the explorer says it, not as "no solution".
    const loading = over(game, play) === null && game.missing(play.position) !== null;
    const status = waitsForSolver(game, play)
      ? "the solver is thinking…"
      : loading
        ? "loading the slice…"
        : playStatus(game, play);
    this.setText("caption", `you play the ${side}: ${status}`);
    this.showMoves(play);
    // The solver's reply is said once, for screen readers too (#announce is aria-live).
    if (last !== undefined && last.player !== side) {
      const said = `the solver moves ${moveText(last)}`;
      const key = `${play.history.length}:${said}`;
      if (key !== this.announced) {
        this.announced = key;
        this.setText("announce", said);
      }
    } else if (list.length === 0) {
      this.announced = "";
      this.setText("announce", "");
    }
  }

  /** Colours the nodes by the slice of `position` (the mouse anywhere, the cat and the turn as there). */
  private colourBy(position: Position | null): void {
    const game = this.game;
    if (game === null) return;
    const at = position ?? linePositions(game.scene)[0] ?? null;
    const slice = at === null ? null : this.need(at.cat, at.turn);
    if (at === null || slice === null) {
      // Until its slice is here (or without a solution): the scene's own colours, and say so.
      sceneColours(this.picture, game.scene);
      this.setText("colours", game.solved ? coloursCaption(game.rules.cat, game.rules.first) : "");
      return;
    }
    colourNodes(this.picture, sliceColours(slice, null), sliceKey(at.cat, at.turn));
    this.setText("colours", coloursCaption(at.cat, at.turn));
  }

  private refreshExplorer(game: Game): void {
    drawTokens(this.picture, game.scene, null, []);
    markLastMove(this.picture, null);
    this.showMoves(null);
    const { cat, turn, level } = this.explore;
    byId<HTMLSelectElement>("turn").value = turn;
    const slice = this.need(cat, turn);
    const replay = byId<HTMLInputElement>("replay");
    if (slice === null) {
      this.setText("caption", game.solved ? "loading the slice…" : "the explorer needs a solved game");
      return;
    }
    // Levels 0 … last, then one more step: the whole slice, draws included.
    const end = lastLevel(slice) + 1;
    replay.max = String(end);
    replay.value = String(level ?? end);
    this.setText("level", level === null ? "all" : `${level}`);
    colourNodes(this.picture, sliceColours(slice, level), sliceKey(cat, turn));
    this.setText("colours", coloursCaption(cat, turn));
    this.setText("caption", explorerCaption(slice, level));
  }

  /** The move list of a game in play mode, the last move marked; empty otherwise. */
  private showMoves(play: Play | null): void {
    const list = byId("moves");
    const all = play === null ? [] : moves(play);
    list.replaceChildren(
      ...all.map((move, i) => {
        const item = document.createElement("li");
        item.textContent = moveText(move);
        item.dataset.player = move.player;
        if (i === all.length - 1) item.className = "last";
        return item;
      }),
    );
    (byId("undo") as HTMLButtonElement).disabled = play === null || undo(play) === play;
  }

  /** Zoom and pan live on the viewport group, which scene updates never touch. */
  private applyZoom(): void {
    const { k, x, y } = this.zoom;
    this.picture.viewport.setAttribute("transform", `translate(${x} ${y}) scale(${k})`);
    this.layer.request();
  }

  private fit(): void {
    const scene = this.game?.scene;
    if (scene === undefined) return;
    const box = this.picture.svg.getBoundingClientRect();
    const [x0, y0, x1, y1] = scene.bounds;
    const margin = 50;
    const k = Math.min(
      2,
      (box.width || 600) / (x1 - x0 + 2 * margin),
      (box.height || 400) / (y1 - y0 + 2 * margin),
    );
    this.zoom = {
      k,
      x: (box.width || 600) / 2 - k * (x0 + x1) / 2,
      y: (box.height || 400) / 2 - k * (y0 + y1) / 2,
    };
    this.userMoved = false;
    this.applyZoom();
  }

  /** Puts the pinned nodes of `scene` where the user put them, the others where the layout did. */
  private applyPins(scene: Scene): void {
    for (const node of scene.nodes) {
      const at = this.pinned.get(node.id) ?? this.laidOut.get(node.id);
      if (at !== undefined) [node.x, node.y] = at;
    }
  }

  private markPins(): void {
    for (const group of Array.from(this.picture.nodes.children)) {
      if (this.pinned.has(Number(group.getAttribute("data-node")))) group.setAttribute("data-pinned", "true");
      else group.removeAttribute("data-pinned");
    }
  }

  /** Draws the scene again with the pins as they are now (a drag, an unpin). */
  private redrawPins(): void {
    const scene = this.game?.scene;
    if (scene === undefined) return;
    this.applyPins(scene);
    draw(this.picture, scene, document.body.dataset.renderer === "canvas");
    this.markPins();
    markSelected(this.picture, this.selected);
    this.layer.show(scene, document.body.dataset.renderer === "canvas");
    this.refresh();
  }

  /** A node dragged more than a few pixels is pinned where it is dropped (the SVG renderer). */
  private enableNodeDragging(): void {
    let drag: { id: number; x: number; y: number; moving: boolean } | null = null;
    this.picture.nodes.addEventListener("pointerdown", (event) => {
      const group = (event.target as Element).closest("[data-node]");
      this.dragged = false;
      if (group === null || event.button !== 0) return;
      drag = { id: Number(group.getAttribute("data-node")), x: event.clientX, y: event.clientY, moving: false };
    });
    window.addEventListener("pointermove", (event) => {
      if (drag === null) return;
      if (!drag.moving && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PX) return;
      drag.moving = true;
      const box = this.picture.svg.getBoundingClientRect();
      const { k, x, y } = this.zoom;
      this.pinned.set(drag.id, [Math.round((event.clientX - box.left - x) / k), Math.round((event.clientY - box.top - y) / k)]);
      this.redrawPins();
    });
    window.addEventListener("pointerup", () => {
      if (drag?.moving) {
        this.dragged = true;
        const at = this.pinned.get(drag.id);
        if (at !== undefined) this.host.moved?.(drag.id, at);
      }
      drag = null;
    });
  }

  /** Downloads the picture as shown, with its legend. */
  private async export(kind: "svg" | "png"): Promise<void> {
    const scene = this.game?.scene;
    if (scene === undefined) return;
    try {
      const svg = pictureSvg(this.picture, scene, byId("stage"));
      if (kind === "svg") download(new Blob([svg], { type: "image/svg+xml" }), "cmg-game.svg");
      else download(await svgToPng(svg), "cmg-game.png");
    } catch (error) {
      this.setText("status", `the picture could not be saved: ${String(error)}`);
    }
  }

  /** Whether every node of `scene` is inside the stage at the current zoom. */
  private allInSight(scene: Scene): boolean {
    const box = this.picture.svg.getBoundingClientRect();
    const { k, x, y } = this.zoom;
    const reach = NODE_RADIUS * 1.3 * k;
    return scene.nodes.every((node) => {
      const [sx, sy] = [x + k * node.x, y + k * node.y];
      return sx - reach >= 0 && sy - reach >= 0 && sx + reach <= box.width && sy + reach <= box.height;
    });
  }

  /** On the stage, so that they work over the SVG and over the canvas alike. */
  private enableZoomAndPan(): void {
    const stage = byId("stage");
    stage.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const box = this.picture.svg.getBoundingClientRect();
        const [px, py] = [event.clientX - box.left, event.clientY - box.top];
        const factor = Math.exp(-event.deltaY * 0.002);
        const k = Math.max(0.05, Math.min(20, this.zoom.k * factor));
        const ratio = k / this.zoom.k;
        this.zoom = { k, x: px - (px - this.zoom.x) * ratio, y: py - (py - this.zoom.y) * ratio };
        this.userMoved = true;
        this.applyZoom();
      },
      { passive: false },
    );
    let drag: { x: number; y: number } | null = null;
    stage.addEventListener("pointerdown", (event) => {
      if ((event.target as Element).closest("[data-node]") !== null) return;
      if (event.target === this.layer.canvas && this.layer.nodeAt(event.clientX, event.clientY) !== null) return;
      drag = { x: event.clientX - this.zoom.x, y: event.clientY - this.zoom.y };
      stage.setPointerCapture(event.pointerId);
    });
    stage.addEventListener("pointermove", (event) => {
      if (drag === null) return;
      this.zoom = { ...this.zoom, x: event.clientX - drag.x, y: event.clientY - drag.y };
      this.userMoved = true;
      this.applyZoom();
    });
    stage.addEventListener("pointerup", () => {
      drag = null;
    });
  }
}

/** Puts every node of `scene` found in `at` there, and the bounds around them. */
function keepPositions(scene: Scene, at: Map<number, [number, number]>): void {
  for (const node of scene.nodes) {
    const was = at.get(node.id);
    if (was !== undefined) [node.x, node.y] = was;
  }
  const xs = scene.nodes.map((n) => n.x);
  const ys = scene.nodes.map((n) => n.y);
  if (xs.length > 0) scene.bounds = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * Which renderer draws `scene`: SVG up to CANVAS_ABOVE nodes, the canvas above; the
 * page's `?renderer=svg` or `?renderer=canvas` chooses one (the browser test measures both).
 */
function renderer(scene: Scene): "svg" | "canvas" {
  const asked = new URLSearchParams(window.location.search).get("renderer");
  if (asked === "svg" || asked === "canvas") return asked;
  return scene.nodes.length > CANVAS_ABOVE ? "canvas" : "svg";
}

/** Dark colours for a dark VS Code theme (its class on the body) or a browser that prefers dark. */
function followTheme(): void {
  const query = window.matchMedia("(prefers-color-scheme: dark)");
  const update = () => {
    const classes = document.body.classList;
    const vscodeDark = classes.contains("vscode-dark") || classes.contains("vscode-high-contrast");
    const vscode = vscodeDark || classes.contains("vscode-light") || classes.contains("vscode-high-contrast-light");
    classes.toggle("cmg-dark", vscode ? vscodeDark : query.matches);
  };
  update();
  query.addEventListener("change", update);
  // VS Code swaps the body's classes when the user changes the colour theme.
  new MutationObserver(update).observe(document.body, { attributes: true, attributeFilter: ["class"] });
}

followTheme();
new View(pageHost());
