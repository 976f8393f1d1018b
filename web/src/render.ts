// Draws a scene as SVG: the same elements and data attributes as `cmg view --export`
// (crates/cmg-ide/src/view/svg.rs), updated in place by node id so that edits do not flicker and the
// user's zoom and pan survive.

import type { Shown } from "./explorer";
import { nodeLook, type NodeOutline, type Scene, type SceneNode } from "./scene";

const SVG = "http://www.w3.org/2000/svg";

/** Radius of a node's shape (NODE_RADIUS in crates/cmg-ide/src/view/svg.rs). */
export const NODE_RADIUS = 18;

/**
 * The M and C tokens sit on their node's upper left and upper right corners, clear of
 * the node's number: their centre is this far across and up from the node's (inside
 * the shape's box), they reach less than 28 px out, and the layout keeps node centres
 * at least 48 px apart (crates/cmg-ide/src/view/clearance.rs), so a token never
 * touches another node.
 */
export const TOKEN_OFFSET = 14;

/**
 * The arrowhead of a one-way edge: the text of ARROW_MARKER in
 * crates/cmg-ide/src/view/svg.rs (a test there keeps them equal), so that the page and
 * `cmg view --export` draw one picture. Its tip touches the circle of the end node's shape.
 */
export const ARROW_MARKER = `<marker id="cmg-arrow" class="arrow" viewBox="0 0 10 10" refX="28" refY="5" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker>`;
/**
 * The looks of a highlighted edge, each with ARROW_MARKER in its colour as the marker
 * `cmg-arrow-LOOK` with `data-look="LOOK"` (the export's `arrow_markers` makes the first
 * two; `last`, the last move's edge, is the page's own).
 */
const ARROW_LOOKS = ["critical", "flagged", "last"] as const;

/** The arrowheads: ARROW_MARKER and one per look. */
export function arrowMarkers(): string {
  return [
    ARROW_MARKER,
    ...ARROW_LOOKS.map((look) => ARROW_MARKER.replace(`id="cmg-arrow"`, `id="cmg-arrow-${look}" data-look="${look}"`)),
  ].join("");
}

/**
 * The look of an edge's line as the stylesheets draw it, null for a plain edge: the last
 * move's mark wins over a flagged edge's dashes, which win over a critical edge's colour.
 */
export function edgeLook(line: Element): (typeof ARROW_LOOKS)[number] | null {
  if (line.hasAttribute("data-last")) return "last";
  if (line.hasAttribute("data-flagged")) return "flagged";
  return line.getAttribute("data-critical") === "true" ? "critical" : null;
}

/** Gives a one-way edge's line the arrowhead of its look (its colour); an edge none. */
function setArrow(line: Element): void {
  if (!line.hasAttribute("data-one-way")) {
    line.removeAttribute("marker-end");
    return;
  }
  const look = edgeLook(line);
  line.setAttribute("marker-end", `url(#cmg-arrow${look === null ? "" : `-${look}`})`);
}

export const TOKEN_RADIUS = 8;

function element<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const created = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) created.setAttribute(key, String(value));
  return created;
}

/**
 * The shape of a node by its roles (`nodeLook`): square (mouse start), diamond (cat
 * start), the square's left half joined to the diamond's right half (both starts) or
 * circle, with the hole's ring inside for a hole: a double circle for a plain hole.
 */
function shape(node: SceneNode): SVGElement[] {
  const { outline, ring } = nodeLook(node);
  const drawn = [outlineOf(outline)];
  if (ring) drawn.push(element("circle", { class: "ring", r: NODE_RADIUS - 5 }));
  return drawn;
}

/**
 * The corners of the outline of a node where both players start, around 0,0 for a
 * node of radius `r`: the mouse's square on the left, the cat's diamond on the right.
 */
export function bothStarts(r: number): [number, number][] {
  const d = r * 1.3;
  return [[-r, -r], [0, -r], [0, -d], [d, 0], [0, d], [0, r], [-r, r]];
}

function outlineOf(outline: NodeOutline): SVGElement {
  const r = NODE_RADIUS;
  switch (outline) {
    case "mouse":
      return element("rect", { class: "shape", x: -r, y: -r, width: 2 * r, height: 2 * r, rx: 3 });
    case "cat": {
      const d = r * 1.3;
      return element("polygon", { class: "shape", points: `0,${-d} ${d},0 0,${d} ${-d},0` });
    }
    case "starts":
      return element("polygon", { class: "shape", points: bothStarts(r).join(" ") });
    default:
      return element("circle", { class: "shape", r });
  }
}

/** A node's roles as its group carries them: `data-role`, and `data-also` for the others. */
function alsoOf(node: SceneNode): string {
  return (node.also ?? []).join(" ");
}

function setFlag(target: Element, flagged: boolean): void {
  if (flagged) target.setAttribute("data-flagged", "true");
  else target.removeAttribute("data-flagged");
}

export interface Picture {
  svg: SVGSVGElement;
  /** The group zoom and pan transform; everything drawn lives inside it. */
  viewport: SVGGElement;
  edges: SVGGElement;
  nodes: SVGGElement;
  overlay: SVGGElement;
  /**
   * Whether the nodes are bare groups (no shape, no text) and the edges bare lines (no
   * coordinates): the accessible layer under a canvas, which paints the picture from the
   * groups' attributes. Set by `draw`.
   */
  light: boolean;
  /** The node groups marked as the user's moves (`choice`), and the last move's edge. */
  choices: Element[];
  last: Element | null;
  /** Whether the nodes show the scene's own outcomes, as `draw` leaves them. */
  ownColours: boolean;
}

export function createPicture(): Picture {
  const svg = element("svg", { class: "cmg-scene", role: "img" });
  svg.append(element("rect", { class: "background", width: "100%", height: "100%" }));
  const defs = element("defs");
  defs.innerHTML = arrowMarkers();
  svg.append(defs);
  const viewport = element("g", { class: "viewport" });
  const edges = element("g", { class: "edges" });
  const nodes = element("g", { class: "nodes" });
  const overlay = element("g", { class: "overlay" });
  viewport.append(edges, nodes, overlay);
  svg.append(viewport);
  return { svg, viewport, edges, nodes, overlay, light: false, choices: [], last: null, ownColours: true };
}

/** A node's group before its id and state are set, by role and lightness, cloned from one made once. */
const templates = new Map<string, SVGGElement>();

function newGroup(node: SceneNode, light: boolean): SVGGElement {
  const key = `${node.role}/${alsoOf(node)}/${light}`;
  let template = templates.get(key);
  if (template === undefined) {
    template = element("g", { class: "node", "data-role": node.role });
    if (node.also !== undefined && node.also.length > 0) template.setAttribute("data-also", alsoOf(node));
    if (!light) template.append(...shape(node), element("text", { class: "id" }));
    templates.set(key, template);
  }
  const group = template.cloneNode(true) as SVGGElement;
  group.setAttribute("data-node", String(node.id));
  if (!light) group.lastChild!.textContent = String(node.id);
  return group;
}

/**
 * Brings the picture up to `scene`, reusing the elements of nodes and edges that stay.
 * `light` draws the accessible layer a canvas paints over (see `Picture.light`): every
 * element and data attribute of the contract, without what only the eye needs.
 */
export function draw(picture: Picture, scene: Scene, light: boolean): void {
  if (picture.light !== light) {
    // The other renderer's elements have other children: start again.
    picture.nodes.replaceChildren();
    picture.edges.replaceChildren();
    picture.light = light;
  }
  // Lines are reused by index, so the last move's mark may now be on another edge.
  markLastMove(picture, null);
  picture.svg.setAttribute("aria-label", `Cat and Mouse game: ${scene.summary}`);
  // The scene's own colours are the slice of the real start.
  picture.svg.setAttribute("data-slice", startSlice(scene));
  const old = new Map<string, SVGGElement>();
  for (const child of Array.from(picture.nodes.children)) {
    old.set(child.getAttribute("data-node") ?? "", child as SVGGElement);
  }
  // A first draw builds the groups off the document and adds them at once.
  const fresh = old.size === 0 ? document.createDocumentFragment() : null;
  const byId = new Map(scene.nodes.map((node) => [node.id, node]));
  scene.nodes.forEach((node, index) => {
    const key = String(node.id);
    let group = old.get(key);
    old.delete(key);
    if (group === undefined || group.getAttribute("data-role") !== node.role || (group.getAttribute("data-also") ?? "") !== alsoOf(node)) {
      group?.remove();
      group = newGroup(node, light);
    }
    setOwnOutcome(group, node.outcome);
    setFlag(group, node.flagged);
    group.setAttribute("transform", `translate(${node.x} ${node.y})`);
    if (!light) {
      let label = group.querySelector<SVGTextElement>("text.label");
      if (node.label === null) label?.remove();
      else {
        if (label === null) {
          label = element("text", { class: "label", y: NODE_RADIUS + 14 });
          group.append(label);
        }
        label.textContent = node.label;
      }
    }
    const title = node.label === null ? `node ${node.id}` : `node ${node.id} “${node.label}”`;
    group.setAttribute("aria-label", title);
    if (fresh !== null) fresh.append(group);
    // Keep document order equal to scene order, moving only what is out of place.
    else if (picture.nodes.children[index] !== group) {
      picture.nodes.insertBefore(group, picture.nodes.children[index] ?? null);
    }
  });
  if (fresh !== null) picture.nodes.append(fresh);
  for (const gone of old.values()) gone.remove();

  const lines = Array.from(picture.edges.children);
  const added = document.createDocumentFragment();
  scene.edges.forEach((edge, index) => {
    let line = lines[index];
    if (line === undefined) {
      line = element("line", { class: "edge" });
      added.append(line);
    }
    line.setAttribute("data-edge", `${edge.a}-${edge.b}`);
    setFlag(line, edge.flagged);
    // A one-way edge: its mark, and its arrowhead in its line's colour, as the export writes them.
    if (edge.one_way === true) line.setAttribute("data-one-way", "true");
    else line.removeAttribute("data-one-way");
    // The what-if (strategy.ts's data): a critical edge is drawn apart, its title is the hover.
    line.setAttribute("data-critical", String(edge.critical));
    setArrow(line);
    if ((line.firstChild?.textContent ?? null) !== edge.what_if) {
      const title = edge.what_if === null ? null : element("title");
      if (title !== null) title.textContent = edge.what_if;
      line.replaceChildren(...(title === null ? [] : [title]));
    }
    if (light) {
      for (const end of ["x1", "y1", "x2", "y2"]) line.removeAttribute(end);
      return;
    }
    const a = byId.get(edge.a);
    const b = byId.get(edge.b);
    line.setAttribute("x1", String(a?.x ?? 0));
    line.setAttribute("y1", String(a?.y ?? 0));
    line.setAttribute("x2", String(b?.x ?? 0));
    line.setAttribute("y2", String(b?.y ?? 0));
  });
  picture.edges.append(added);
  for (const extra of lines.slice(scene.edges.length)) extra.remove();
  picture.ownColours = true;
}

/** Gives every node the scene's own colours back (the slice of the real start), as `draw` left them. */
export function sceneColours(picture: Picture, scene: Scene): void {
  picture.svg.setAttribute("data-slice", startSlice(scene));
  if (picture.ownColours) return;
  picture.ownColours = true;
  const outcomes = new Map(scene.nodes.map((node) => [String(node.id), node.outcome]));
  for (const group of Array.from(picture.nodes.children)) {
    setOwnOutcome(group, outcomes.get(group.getAttribute("data-node") ?? "") ?? null);
  }
}

/** A node's colour from the scene itself: its outcome (`null`: none), never undecided. */
function setOwnOutcome(group: Element, outcome: string | null): void {
  if (outcome === null) group.removeAttribute("data-outcome");
  else if (group.getAttribute("data-outcome") !== outcome) group.setAttribute("data-outcome", outcome);
  group.removeAttribute("data-undecided");
}

/** The slice a scene's own colours are of: the cat on its start, the first player to move ("2/mouse"). */
export function startSlice(scene: Scene): string {
  return `${scene.rules?.cat ?? 2}/${scene.rules?.first ?? "mouse"}`;
}

/** Where the mouse and cat tokens stand, and which nodes are legal to click. */
export function drawTokens(
  picture: Picture,
  scene: Scene,
  tokens: { mouse: number; cat: number } | null,
  choices: number[],
): void {
  for (const player of ["mouse", "cat"] as const) {
    let token = picture.overlay.querySelector<SVGGElement>(`[data-token="${player}"]`);
    const at = tokens === null ? undefined : scene.nodes.find((node) => node.id === tokens[player]);
    if (at === undefined) {
      token?.remove();
      continue;
    }
    if (token === null) {
      token = element("g", { class: "token", "data-token": player });
      token.append(element("circle", { r: TOKEN_RADIUS }), element("text", {}));
      token.lastChild!.textContent = player === "mouse" ? "M" : "C";
      picture.overlay.append(token);
    }
    // Offsets keep both tokens visible when they share a node (the cat caught the mouse).
    const dx = player === "mouse" ? -TOKEN_OFFSET : TOKEN_OFFSET;
    token.setAttribute("data-at", String(at.id));
    token.setAttribute("transform", `translate(${at.x + dx} ${at.y - TOKEN_OFFSET})`);
  }
  // Only the groups that were or become choices are touched.
  const chosen = choices.flatMap((id) => {
    const group = picture.nodes.querySelector(`[data-node="${id}"]`);
    return group === null ? [] : [group];
  });
  for (const group of picture.choices) {
    if (chosen.includes(group)) continue;
    group.classList.remove("choice");
    group.removeAttribute("tabindex");
    group.removeAttribute("role");
  }
  // A legal move is a button for the keyboard too (Tab to it, Enter or Space).
  for (const group of chosen) {
    group.classList.add("choice");
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
  }
  picture.choices = chosen;
}

/**
 * Colours the nodes by a slice of the table (explorer, replay, play): `data-outcome` is
 * the outcome if the mouse stood on the node, `data-undecided` marks a position the
 * replay has not settled yet. `shown` names the slice on the picture (`CAT/TURN`).
 */
export function colourNodes(picture: Picture, colours: Map<number, Shown>, shown: string): void {
  picture.svg.setAttribute("data-slice", shown);
  picture.ownColours = false;
  for (const group of Array.from(picture.nodes.children)) {
    const colour = colours.get(Number(group.getAttribute("data-node")));
    if (colour === undefined) continue;
    if (colour === "undecided") {
      group.removeAttribute("data-outcome");
      group.setAttribute("data-undecided", "true");
    } else {
      group.setAttribute("data-outcome", colour);
      group.removeAttribute("data-undecided");
    }
  }
}

/** Marks the edge of the last move (`data-last="true"`), or none: an edge `a-b` with `a < b`, a one-way edge from its start. */
export function markLastMove(picture: Picture, move: { from: number; to: number } | null): void {
  const key = move === null ? null : { oneWay: `${move.from}-${move.to}`, edge: `${Math.min(move.from, move.to)}-${Math.max(move.from, move.to)}` };
  const marked = picture.last;
  // The same edge as now: nothing to look up.
  if (key === null ? marked === null : marked !== null && marked.getAttribute("data-edge") === (marked.hasAttribute("data-one-way") ? key.oneWay : key.edge)) return;
  const edge = key === null ? null : picture.edges.querySelector(`[data-edge="${key.oneWay}"][data-one-way], [data-edge="${key.edge}"]:not([data-one-way])`);
  marked?.removeAttribute("data-last");
  picture.last = edge;
  edge?.setAttribute("data-last", "true");
  for (const line of [marked, edge]) if (line !== null) setArrow(line);
}

/** Marks the node whose mention the editor's cursor is on (`data-selected`), and only it. */
export function markSelected(picture: Picture, id: number | null): void {
  for (const marked of picture.nodes.querySelectorAll("[data-selected]")) marked.removeAttribute("data-selected");
  if (id !== null) picture.nodes.querySelector(`[data-node="${id}"]`)?.setAttribute("data-selected", "true");
}
