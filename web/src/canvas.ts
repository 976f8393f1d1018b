// Draws the picture on a canvas, for graphs above the size where SVG becomes slow
// (CANVAS_ABOVE, measured by web/test/browser.mjs: docs/dev/view.md). The SVG of
// render.ts is still built and kept current, transparent over the canvas, in its light
// form (bare node groups and edge lines, no shapes, text or coordinates): it carries the
// `data-node`/`data-outcome` contract for tests and screen readers, the keyboard's focus,
// and every state this layer paints (outcomes, choices, focus, tokens, the last move), so
// the canvas is only ever a picture of the SVG. Clicks and hovers are hit-tested here.

import { bothStarts, edgeLook, NODE_RADIUS, TOKEN_OFFSET, TOKEN_RADIUS, type Picture } from "./render";
import { nodeLook, type Scene, type SceneNode } from "./scene";

/** Above this many nodes the page draws on the canvas (see docs/dev/view.md for the measurement). */
export const CANVAS_ABOVE = 300;

export interface Zoom {
  k: number;
  x: number;
  y: number;
}

/** A pointer within this many screen pixels of a critical edge shows its what-if. */
const EDGE_HOVER_PX = 4;

export class CanvasLayer {
  readonly canvas: HTMLCanvasElement;
  private scene: Scene | null = null;
  private byId = new Map<number, SceneNode>();
  private pending = false;
  private active = false;

  constructor(
    private readonly picture: Picture,
    private readonly zoom: () => Zoom,
  ) {
    this.canvas = document.createElement("canvas");
    this.canvas.className = "cmg-canvas";
    // What it shows, the hidden SVG says (role="img", its label, a group per node).
    this.canvas.setAttribute("aria-hidden", "true");
  }

  /**
   * The scene to paint, and whether the canvas draws it: while the SVG draws the picture
   * the canvas is not shown, and painting it anyway cost a forced layout and 90 ms a
   * frame at 2000 nodes.
   */
  show(scene: Scene, active: boolean): void {
    this.scene = scene;
    this.active = active;
    this.byId = new Map(scene.nodes.map((node) => [node.id, node]));
    this.request();
  }

  /** Paints at the next frame; any number of requests before it make one paint. */
  request(): void {
    if (this.pending || this.scene === null || !this.active) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.paint();
    });
  }

  /** The scene coordinates of a point on the screen. */
  private toScene(clientX: number, clientY: number): [number, number] {
    const box = this.canvas.getBoundingClientRect();
    const { k, x, y } = this.zoom();
    return [(clientX - box.left - x) / k, (clientY - box.top - y) / k];
  }

  /** The node drawn under a point on the screen, if any (the nearest, where shapes touch). */
  nodeAt(clientX: number, clientY: number): number | null {
    const [px, py] = this.toScene(clientX, clientY);
    let best: number | null = null;
    let bestDistance = Infinity;
    for (const node of this.scene?.nodes ?? []) {
      const d = Math.hypot(node.x - px, node.y - py);
      // A diamond reaches 1.3 radii out (render.ts's shape).
      if (d <= NODE_RADIUS * (node.role === "cat" ? 1.3 : 1) && d < bestDistance) {
        best = node.id;
        bestDistance = d;
      }
    }
    return best;
  }

  /** What a hover over a point shows: the node's name, or a critical edge's what-if. */
  titleAt(clientX: number, clientY: number): string {
    const id = this.nodeAt(clientX, clientY);
    if (id !== null) {
      return this.picture.nodes.querySelector(`[data-node="${id}"]`)?.getAttribute("aria-label") ?? "";
    }
    const [px, py] = this.toScene(clientX, clientY);
    const reach = EDGE_HOVER_PX / this.zoom().k;
    for (const edge of this.scene?.edges ?? []) {
      const [a, b] = [this.byId.get(edge.a), this.byId.get(edge.b)];
      if (edge.what_if === null || a === undefined || b === undefined) continue;
      if (distanceToSegment(px, py, a, b) <= reach) return edge.what_if;
    }
    return "";
  }

  private paint(): void {
    const scene = this.scene;
    const canvas = this.canvas;
    if (scene === null) return;
    const ratio = window.devicePixelRatio || 1;
    const [width, height] = [canvas.clientWidth, canvas.clientHeight];
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const context = canvas.getContext("2d");
    if (context === null) return;
    const style = getComputedStyle(this.picture.svg);
    const colour = (name: string) => style.getPropertyValue(`--cmg-${name}`).trim();
    const { k, x, y } = this.zoom();
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.fillStyle = colour("background");
    context.fillRect(0, 0, width, height);
    context.setTransform(ratio * k, 0, 0, ratio * k, ratio * x, ratio * y);
    this.paintEdges(context, scene, colour, k);
    this.paintNodes(context, colour, k);
    this.paintTokens(context, colour);
  }

  private paintEdges(context: CanvasRenderingContext2D, scene: Scene, colour: (name: string) => string, k: number): void {
    // One path per look, in the stylesheet's order: plain, critical, flagged, last move.
    const looks: Record<string, { stroke: string; width: number; dash: number[]; path: Path2D }> = {
      plain: { stroke: colour("edge"), width: 2, dash: [], path: new Path2D() },
      critical: { stroke: colour("critical"), width: 5, dash: [], path: new Path2D() },
      flagged: { stroke: colour("flag"), width: 3, dash: [6, 4], path: new Path2D() },
      last: { stroke: colour("foreground"), width: 4, dash: [], path: new Path2D() },
    };
    const lines = this.picture.edges.children;
    // The arrowheads of one-way edges in their line's colour, as render.ts's markers draw them in SVG.
    const arrows = new Map(Object.values(looks).map((look) => [look, new Path2D()]));
    scene.edges.forEach((edge, index) => {
      const [a, b] = [this.byId.get(edge.a), this.byId.get(edge.b)];
      const line = lines[index];
      if (a === undefined || b === undefined || line === undefined) return;
      const look = looks[edgeLook(line) ?? "plain"];
      look.path.moveTo(a.x, a.y);
      look.path.lineTo(b.x, b.y);
      if (edge.one_way === true) arrowHead(arrows.get(look)!, a, b);
    });
    for (const look of Object.values(looks)) {
      context.strokeStyle = look.stroke;
      // Zoomed far out, a line stays at least half a pixel wide on screen, so that a
      // large picture fitted to the window still shows its edges.
      context.lineWidth = Math.max(look.width, 0.5 / k);
      context.setLineDash(look.dash);
      context.stroke(look.path);
    }
    context.setLineDash([]);
    for (const [look, path] of arrows) {
      context.fillStyle = look.stroke;
      context.fill(path);
    }
  }

  private paintNodes(context: CanvasRenderingContext2D, colour: (name: string) => string, k: number): void {
    const foreground = colour("foreground");
    // Ids are drawn once a node is big enough on screen to hold them legibly.
    const text = NODE_RADIUS * k >= 6;
    context.font = '600 13px system-ui, -apple-system, "Segoe UI", sans-serif';
    context.textAlign = "center";
    context.textBaseline = "middle";
    for (const group of Array.from(this.picture.nodes.children)) {
      const node = this.byId.get(Number(group.getAttribute("data-node")));
      if (node === undefined) continue;
      const outcome = group.getAttribute("data-outcome");
      const undecided = group.hasAttribute("data-undecided");
      // Zoomed far out, a node stays at least a 3-pixel dot on screen.
      const path = shapePath(node, Math.max(NODE_RADIUS, 1.5 / k));
      context.fillStyle = outcome === null || undecided ? colour("unsolved") : colour(outcome);
      context.fill(path);
      const flagged = group.hasAttribute("data-flagged");
      const choice = group.classList.contains("choice");
      context.strokeStyle = flagged ? colour("flag") : foreground;
      // The keyboard's focus, as the stylesheet marks it on the SVG (`:focus-visible`).
      context.lineWidth = group === document.activeElement ? 5 : flagged || choice ? 4 : 1.5;
      context.setLineDash(choice ? [4, 3] : undecided ? [3, 3] : []);
      context.stroke(path);
      context.setLineDash([]);
      if (nodeLook(node).ring) {
        context.lineWidth = 1.5;
        context.beginPath();
        context.arc(node.x, node.y, NODE_RADIUS - 5, 0, 2 * Math.PI);
        context.stroke();
      }
      if (text) {
        context.fillStyle = foreground;
        context.fillText(String(node.id), node.x, node.y);
        if (node.label !== null) {
          context.font = '11px system-ui, -apple-system, "Segoe UI", sans-serif';
          context.fillText(node.label, node.x, node.y + NODE_RADIUS + 14);
          context.font = '600 13px system-ui, -apple-system, "Segoe UI", sans-serif';
        }
      }
    }
  }

  private paintTokens(context: CanvasRenderingContext2D, colour: (name: string) => string): void {
    context.font = '700 10px system-ui, -apple-system, "Segoe UI", sans-serif';
    for (const token of Array.from(this.picture.overlay.querySelectorAll("[data-token]"))) {
      const player = token.getAttribute("data-token");
      const at = this.byId.get(Number(token.getAttribute("data-at")));
      if (at === undefined) continue;
      const cx = at.x + (player === "mouse" ? -TOKEN_OFFSET : TOKEN_OFFSET);
      const cy = at.y - TOKEN_OFFSET;
      context.beginPath();
      context.arc(cx, cy, TOKEN_RADIUS, 0, 2 * Math.PI);
      context.fillStyle = colour(`token-${player}`);
      context.fill();
      context.strokeStyle = "#ffffff";
      context.lineWidth = 2;
      context.stroke();
      context.fillStyle = "#ffffff";
      context.fillText(player === "mouse" ? "M" : "C", cx, cy);
    }
  }
}

/** The outline of a node's shape, as render.ts draws it in SVG. */
function shapePath(node: SceneNode, r: number): Path2D {
  const path = new Path2D();
  const { outline } = nodeLook(node);
  if (outline === "mouse") {
    path.rect(node.x - r, node.y - r, 2 * r, 2 * r);
  } else if (outline === "cat") {
    const d = r * 1.3;
    path.moveTo(node.x, node.y - d);
    path.lineTo(node.x + d, node.y);
    path.lineTo(node.x, node.y + d);
    path.lineTo(node.x - d, node.y);
    path.closePath();
  } else if (outline === "starts") {
    for (const [x, y] of bothStarts(r)) path.lineTo(node.x + x, node.y + y);
    path.closePath();
  } else {
    path.arc(node.x, node.y, r, 0, 2 * Math.PI);
  }
  return path;
}

/** The arrowhead of a one-way edge from `a` to `b`: 10 px long and wide, its tip on the circle of `b`'s shape (ARROW_MARKER). */
function arrowHead(path: Path2D, a: SceneNode, b: SceneNode): void {
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  if (length <= NODE_RADIUS) return;
  const [ux, uy] = [(b.x - a.x) / length, (b.y - a.y) / length];
  const [tx, ty] = [b.x - ux * NODE_RADIUS, b.y - uy * NODE_RADIUS];
  const [bx, by] = [tx - ux * 10, ty - uy * 10];
  path.moveTo(tx, ty);
  path.lineTo(bx - uy * 5, by + ux * 5);
  path.lineTo(bx + uy * 5, by - ux * 5);
  path.closePath();
}

function distanceToSegment(px: number, py: number, a: SceneNode, b: SceneNode): number {
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const squared = dx * dx + dy * dy;
  const t = squared > 0 ? Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / squared)) : 0;
  return Math.hypot(px - (a.x + t * dx), py - (a.y + t * dy));
}
