// Saves the picture as shown (the zoom, the colours of the slice, the tokens, the theme)
// with its legend, as SVG or PNG: the buttons `[data-export="svg"]` and
// `[data-export="png"]`. The SVG is drawn afresh in full (under a canvas the page's own
// SVG is only its light layer), takes the shown state from the page's picture, and has
// every colour written on its elements, so that it needs no stylesheet.

import { createPicture, draw, markLastMove, type Picture } from "./render";
import type { Scene } from "./scene";

const SVG = "http://www.w3.org/2000/svg";
/** The properties a picture's look depends on, copied from the page's computed style. */
const STYLED = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-linejoin",
  "paint-order",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
] as const;
const LEGEND_ROW = 22;
/** PNGs are drawn at this many pixels per CSS pixel. */
const PNG_SCALE = 2;

/** The legend's entries: the page's own legend, each with the colour or shape it names. */
interface LegendEntry {
  text: string;
  fill: string | null;
  shape: "circle" | "square" | "diamond" | "ring" | "line" | "none";
  stroke: string;
}

function legendEntries(style: CSSStyleDeclaration): LegendEntry[] {
  const colour = (name: string) => style.getPropertyValue(`--cmg-${name}`).trim();
  const foreground = colour("foreground");
  const entries: LegendEntry[] = [];
  // The file's rules first, as the page shows them beside the outcome.
  const rules = document.getElementById("rules");
  if (rules !== null && !rules.hidden) entries.push({ text: rules.textContent ?? "", fill: null, shape: "none", stroke: foreground });
  for (const item of Array.from(document.querySelectorAll<HTMLElement>(".legend li"))) {
    if (item.hidden) continue;
    const text = item.textContent ?? "";
    const { outcome, role } = item.dataset;
    if (outcome !== undefined) entries.push({ text, fill: colour(outcome), shape: "circle", stroke: foreground });
    else if (role === "hole") entries.push({ text, fill: null, shape: "ring", stroke: foreground });
    else if (role === "mouse") entries.push({ text, fill: null, shape: "square", stroke: foreground });
    else if (role === "cat") entries.push({ text, fill: null, shape: "diamond", stroke: foreground });
    else if (item.dataset.critical !== undefined) entries.push({ text, fill: null, shape: "line", stroke: colour("critical") });
    else if (item.dataset.flagged !== undefined) entries.push({ text, fill: null, shape: "line", stroke: colour("flag") });
    else if (item.dataset.oneWay !== undefined) entries.push({ text, fill: null, shape: "line", stroke: colour("edge") });
  }
  return entries;
}

function element(name: string, attributes: Record<string, string | number>): SVGElement {
  const created = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) created.setAttribute(key, String(value));
  return created;
}

/** The legend under the picture, wrapped to `width`; returns its height. */
function addLegend(svg: SVGSVGElement, top: number, width: number, style: CSSStyleDeclaration): number {
  const group = element("g", { class: "legend", transform: `translate(0 ${top})` });
  const font = style.getPropertyValue("font-family") || "sans-serif";
  let [x, y] = [12, LEGEND_ROW / 2 + 4];
  for (const entry of legendEntries(style)) {
    // About 7 px a character at 12 px: close enough to wrap the rows.
    const room = 22 + entry.text.length * 7 + 16;
    if (x + room > width && x > 12) [x, y] = [12, y + LEGEND_ROW];
    const mark =
      entry.shape === "none"
        ? element("g", {})
        : entry.shape === "line"
        ? element("line", { x1: x, y1: y, x2: x + 14, y2: y, stroke: entry.stroke, "stroke-width": 4 })
        : entry.shape === "square"
          ? element("rect", { x, y: y - 6, width: 12, height: 12, fill: "none", stroke: entry.stroke })
          : entry.shape === "diamond"
            ? element("polygon", { points: `${x + 7},${y - 7} ${x + 14},${y} ${x + 7},${y + 7} ${x},${y}`, fill: "none", stroke: entry.stroke })
            : element("circle", { cx: x + 7, cy: y, r: 6, fill: entry.fill ?? "none", stroke: entry.stroke, "stroke-width": entry.shape === "ring" ? 3 : 1 });
    const label = element("text", { x: x + 20, y, "dominant-baseline": "central", "font-size": 12, "font-family": font, fill: style.getPropertyValue("--cmg-foreground").trim() });
    label.textContent = entry.text;
    group.append(mark, label);
    x += room;
  }
  svg.append(group);
  return y + LEGEND_ROW / 2;
}

/**
 * Copies the computed look of every element of `from` onto the same element of `to`, as
 * presentation attributes (a `style` attribute would break the pages' content policies).
 */
function inlineStyles(from: Element, to: Element): void {
  const style = getComputedStyle(from);
  for (const name of STYLED) to.setAttribute(name, style.getPropertyValue(name));
  to.removeAttribute("class");
  Array.from(from.children).forEach((child, i) => {
    const twin = to.children[i];
    if (twin !== undefined) inlineStyles(child, twin);
  });
}

/**
 * The picture of `shown` as a standalone SVG document: `scene` drawn in full, the nodes'
 * and edges' state (colours, choices, the last move, the selection) and the tokens
 * taken from it, at its zoom, with the legend below.
 */
export function pictureSvg(shown: Picture, scene: Scene, stage: HTMLElement): string {
  const full = createPicture();
  draw(full, scene, false);
  const byNode = new Map(Array.from(shown.nodes.children).map((group) => [group.getAttribute("data-node"), group]));
  for (const group of Array.from(full.nodes.children)) {
    const twin = byNode.get(group.getAttribute("data-node"));
    if (twin === undefined) continue;
    for (const name of ["data-outcome", "data-undecided", "data-selected"]) {
      const value = twin.getAttribute(name);
      if (value === null) group.removeAttribute(name);
      else group.setAttribute(name, value);
    }
    group.classList.toggle("choice", twin.classList.contains("choice"));
  }
  // The edge's key read as a move finds the same edge: a one-way edge's key is its move.
  const last = shown.last?.getAttribute("data-edge")?.split("-").map(Number);
  markLastMove(full, last === undefined ? null : { from: last[0], to: last[1] });
  full.overlay.replaceChildren(...Array.from(shown.overlay.children).map((token) => token.cloneNode(true)));
  full.viewport.setAttribute("transform", shown.viewport.getAttribute("transform") ?? "");
  // In the stage, off screen, the page's stylesheet gives it the look it has there.
  const { width, height } = stage.getBoundingClientRect();
  Object.assign(full.svg.style, { position: "absolute", left: "-100000px", top: "0", width: `${width}px`, height: `${height}px` });
  stage.append(full.svg);
  try {
    const copy = full.svg.cloneNode(true) as SVGSVGElement;
    inlineStyles(full.svg, copy);
    // Its place off screen is the page's business, not the picture's.
    copy.removeAttribute("style");
    const style = getComputedStyle(full.svg);
    copy.setAttribute("xmlns", SVG);
    copy.setAttribute("width", String(Math.round(width)));
    const legend = addLegend(copy, height, width, style);
    const total = Math.round(height + legend);
    copy.setAttribute("height", String(total));
    // The background (its rect is 100% high) covers the legend too.
    copy.setAttribute("viewBox", `0 0 ${Math.round(width)} ${total}`);
    return new XMLSerializer().serializeToString(copy);
  } finally {
    full.svg.remove();
  }
}

/** The SVG drawn on a canvas at PNG_SCALE, as PNG bytes. */
export async function svgToPng(svg: string): Promise<Blob> {
  const image = new Image();
  // A data: address: the pages' policies allow images from data: (not blob:).
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(image.naturalWidth * PNG_SCALE));
  canvas.height = Math.max(1, Math.round(image.naturalHeight * PNG_SCALE));
  const context = canvas.getContext("2d");
  if (context === null) throw new Error("no 2D canvas");
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob === null ? reject(new Error("the PNG could not be made")) : resolve(blob)), "image/png"));
}

/** Offers `blob` as a download named `name`. */
export function download(blob: Blob, name: string): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
