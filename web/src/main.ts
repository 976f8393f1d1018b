// The game view page: gets scenes from its host (`cmg view` over HTTP, or the VS Code
// extension through messages), draws them, and runs the line stepper and play mode.

import { createPicture, draw, drawTokens, type Picture } from "./render";
import { showStrategies } from "./strategy";
import {
  Game,
  SCENE_VERSION,
  lineCaption,
  linePositions,
  over,
  playStatus,
  startPlay,
  userMove,
  type Play,
  type Player,
  type Position,
  type Scene,
  type SceneNode,
} from "./scene";

/** Where scenes come from and where "reveal in the text" goes. */
interface Host {
  start(onScene: (scene: Scene) => void): void;
  /** Shows the node's first mention; returns what to tell the user, if anything. */
  reveal(node: SceneNode): string | null;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

function browserHost(): Host {
  return {
    start(onScene) {
      const events = new EventSource("events");
      events.addEventListener("scene", (event) => onScene(JSON.parse((event as MessageEvent<string>).data)));
    },
    reveal(node) {
      const at = node.mention?.start;
      return at === undefined ? null : `node ${node.id} is first mentioned on line ${at.line}, column ${at.column}`;
    },
  };
}

function vscodeHost(api: VsCodeApi): Host {
  return {
    start(onScene) {
      window.addEventListener("message", (event: MessageEvent<{ type?: string; scene?: Scene }>) => {
        if (event.data?.type === "scene" && event.data.scene !== undefined) onScene(event.data.scene);
      });
      api.postMessage({ type: "ready" });
    },
    reveal(node) {
      if (node.mention !== null) api.postMessage({ type: "reveal", mention: node.mention });
      return null;
    },
  };
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

type Mode = "line" | "play-mouse" | "play-cat";

class View {
  private game: Game | null = null;
  private mode: Mode = "line";
  private step = 0;
  private play: Play | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private zoom = { k: 1, x: 0, y: 0 };
  private fitted = false;
  private readonly picture: Picture = createPicture();
  /** A position picked in the strategy panel, shown instead of the line's until the stepper moves. */
  private picked: { position: Position; caption: string } | null = null;

  constructor(private readonly host: Host) {
    byId("stage").append(this.picture.svg);
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
    this.picture.nodes.addEventListener("click", (event) => {
      const group = (event.target as Element).closest("[data-node]");
      if (group !== null) this.clickNode(Number(group.getAttribute("data-node")));
    });
    this.enableZoomAndPan();
    host.start((scene) => this.show(scene));
  }

  private show(scene: Scene): void {
    if (scene.version !== SCENE_VERSION) {
      this.setText("summary", `this page reads scene version ${SCENE_VERSION}, got ${scene.version}`);
      return;
    }
    this.game = new Game(scene);
    draw(this.picture, scene);
    this.setText("summary", scene.outcome === null ? scene.summary : `outcome: ${scene.summary}`);
    document.body.dataset.outcome = scene.outcome ?? "";
    this.showDiagnostics(scene);
    this.picked = null;
    showStrategies(byId("strategy"), scene.strategies ?? [], (position, caption) => this.pick(position, caption));
    document.body.dataset.strategy = (scene.strategies ?? []).length > 0 ? "shown" : "";
    const slider = byId<HTMLInputElement>("slider");
    slider.max = String(Math.max(0, scene.line.length - 1));
    this.step = Math.min(this.step, Math.max(0, scene.line.length - 1));
    if (this.play !== null) {
      const known = new Set(scene.nodes.map((n) => n.id));
      const stillThere = this.play.history.every((p) => known.has(p.mouse) && known.has(p.cat));
      // The answers come from the new table; a play whose nodes are gone starts again.
      if (!stillThere) this.play = startPlay(this.game, this.play.side);
    }
    if (!this.fitted && scene.nodes.length > 0) this.fit();
    this.refresh();
  }

  private showDiagnostics(scene: Scene): void {
    const list = byId("diagnostics");
    list.replaceChildren(
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
    this.stopPlaying();
    if (this.mode !== "line") byId<HTMLSelectElement>("mode").value = "line";
    this.mode = "line";
    this.play = null;
    document.body.dataset.mode = "line";
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
    if (mode !== "line" && this.game !== null) {
      this.play = startPlay(this.game, mode === "play-mouse" ? "mouse" : "cat");
    }
    document.body.dataset.mode = mode;
    this.refresh();
  }

  private clickNode(id: number): void {
    const game = this.game;
    if (game === null) return;
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

  private refresh(): void {
    const game = this.game;
    if (game === null) return;
    const stepper = this.mode === "line";
    for (const id of ["prev", "next", "play", "slider"]) {
      (byId(id) as HTMLButtonElement | HTMLInputElement).disabled = !stepper || game.scene.line.length < 2;
    }
    if (this.mode === "line" && this.picked !== null) {
      drawTokens(this.picture, game.scene, this.picked.position, []);
      this.setText("caption", `strategy: ${this.picked.caption}`);
      return;
    }
    if (this.mode === "line") {
      const position = linePositions(game.scene)[this.step];
      drawTokens(this.picture, game.scene, position ?? null, []);
      byId<HTMLInputElement>("slider").value = String(this.step);
      this.setText("step", `${this.step}/${Math.max(0, game.scene.line.length - 1)}`);
      this.setText("caption", game.scene.line.length === 0 ? game.scene.summary : lineCaption(game, this.step));
      return;
    }
    const play = this.play;
    if (play === null) {
      drawTokens(this.picture, game.scene, null, []);
      this.setText("caption", "play mode needs a solved game");
      return;
    }
    const yourTurn = play.position.turn === play.side && over(game, play) === null;
    drawTokens(this.picture, game.scene, play.position, yourTurn ? game.legalMoves(play.position) : []);
    this.setText("step", `${play.history.length - 1}`);
    const side: Player = play.side;
    this.setText("caption", `you play the ${side}: ${playStatus(game, play)}`);
  }

  /** Zoom and pan live on the viewport group, which scene updates never touch. */
  private applyZoom(): void {
    const { k, x, y } = this.zoom;
    this.picture.viewport.setAttribute("transform", `translate(${x} ${y}) scale(${k})`);
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
    this.fitted = true;
    this.applyZoom();
  }

  private enableZoomAndPan(): void {
    const svg = this.picture.svg;
    svg.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        const box = svg.getBoundingClientRect();
        const [px, py] = [event.clientX - box.left, event.clientY - box.top];
        const factor = Math.exp(-event.deltaY * 0.002);
        const k = Math.max(0.05, Math.min(20, this.zoom.k * factor));
        const ratio = k / this.zoom.k;
        this.zoom = { k, x: px - (px - this.zoom.x) * ratio, y: py - (py - this.zoom.y) * ratio };
        this.applyZoom();
      },
      { passive: false },
    );
    let drag: { x: number; y: number } | null = null;
    svg.addEventListener("pointerdown", (event) => {
      if ((event.target as Element).closest("[data-node]") !== null) return;
      drag = { x: event.clientX - this.zoom.x, y: event.clientY - this.zoom.y };
      svg.setPointerCapture(event.pointerId);
    });
    svg.addEventListener("pointermove", (event) => {
      if (drag === null) return;
      this.zoom = { ...this.zoom, x: event.clientX - drag.x, y: event.clientY - drag.y };
      this.applyZoom();
    });
    svg.addEventListener("pointerup", () => {
      drag = null;
    });
  }
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
const host = typeof acquireVsCodeApi === "function" ? vscodeHost(acquireVsCodeApi()) : browserHost();
new View(host);
