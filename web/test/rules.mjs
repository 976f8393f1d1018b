// The game view of a file with every rule (examples/every-rule.cmg), in headless Chromium
// (Debian's package, through playwright-core): the game in words beside the outcome,
// every hole drawn as a hole, the tokens on the starts, one-way edges with their
// arrowheads (SVG, canvas, and `cmg view --export`), and play that takes a one-way edge
// only in its direction. Screenshots go to target/artifacts/.
//
// Usage: node test/rules.mjs [path/to/cmg]   (default: $CARGO_TARGET_DIR/debug/cmg, or target/)

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

import { artifacts, browserPath, check, finish, root, target } from "./site.mjs";
import { openView, startView } from "./view-server.mjs";

const cmg = resolve(process.argv[2] ?? join(target, "debug/cmg"));
const WAIT_MS = 10000;

const file = join(root, "examples/every-rule.cmg");
/** The game in the hover's words, as `cmg solve` prints it. */
const game = execFileSync(cmg, ["solve", file], { encoding: "utf8" })
  .split("\n")
  .find((line) => line.startsWith("the game: "));

/** The ids of the nodes the player to move may click. */
const choices = (page) =>
  page.evaluate(() => Array.from(document.querySelectorAll("[data-node].choice"), (n) => Number(n.getAttribute("data-node"))).sort((a, b) => a - b));

/**
 * Whether the canvas paints the arrowhead of the one-way edge `from -> to`: a pixel beside
 * the line near `to` (3 px off it, where the 2 px line does not reach) has the edges'
 * colour, and the same spot by the start of the line does not.
 */
async function canvasArrow(page, from, to) {
  return page.evaluate(
    ({ from, to }) => {
      const canvas = document.querySelector("#stage canvas");
      const context = canvas.getContext("2d");
      const node = (id) => document.querySelector(`[data-node="${id}"]`);
      // The hidden SVG's groups carry the nodes' places; the viewport's transform is the zoom.
      const matrix = document.querySelector("svg.cmg-scene .viewport").getCTM();
      const place = (id) => {
        const [x, y] = node(id).getAttribute("transform").match(/-?[\d.]+/g).map(Number);
        return { x: matrix.a * x + matrix.e, y: matrix.d * y + matrix.f, k: matrix.a };
      };
      const [a, b] = [place(from), place(to)];
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      const [ux, uy] = [(b.x - a.x) / length, (b.y - a.y) / length];
      const ratio = canvas.width / canvas.clientWidth;
      const sample = (x, y) => Array.from(context.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data.slice(0, 3));
      // 25 px back from the end's centre: inside the arrowhead (18 to 28 px back), 3 px aside.
      const back = (p, along) => [p.x - ux * along * a.k - uy * 3 * a.k, p.y - uy * along * a.k + ux * 3 * a.k];
      const edge = getComputedStyle(document.querySelector("svg.cmg-scene")).getPropertyValue("--cmg-edge").trim();
      const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
      const head = hex(sample(...back(b, 25)));
      const tail = hex(sample(...back({ x: a.x + ux * (length + 0), y: a.y + uy * length }, length - 25)));
      return { head, tail, edge };
    },
    { from, to },
  );
}

const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
const view = startView(cmg, file);
const { child } = view;
try {
  const errors = [];
  const url = await view.url;
  const page = await openView(browser, url, errors);
  await page.waitForFunction(() => document.querySelectorAll("[data-node]").length === 8, null, { timeout: WAIT_MS });

  // The game in words beside the outcome, the same words as `cmg solve` and the hover.
  const rules = await page.evaluate(() => {
    const line = document.getElementById("rules");
    return { text: line.textContent, shown: !line.hidden && line.getBoundingClientRect().width > 0 };
  });
  check(game !== undefined && rules.shown && rules.text === game, `the rules are shown: "${rules.text}"`);
  const legend = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".legend li"), (li) => (li.hidden ? "" : li.textContent)).filter((t) => t !== ""),
  );
  check(
    ["holes 0, 9", "mouse start 3", "cat start 5", "one-way edge: a move along its arrow only"].every((t) => legend.includes(t)),
    `the legend names the file's holes, starts and one-way edges: ${legend.join(" · ")}`,
  );

  // Every hole is drawn as a hole; the starts are where the rules put them, with the tokens.
  const roles = await page.evaluate(() =>
    Object.fromEntries(Array.from(document.querySelectorAll("[data-node]"), (n) => [n.getAttribute("data-node"), n.getAttribute("data-role")])),
  );
  check(
    roles["0"] === "hole" && roles["9"] === "hole" && roles["3"] === "mouse" && roles["5"] === "cat" && roles["1"] === "node" && roles["2"] === "node",
    `roles: ${JSON.stringify(roles)}`,
  );
  const rings = await page.evaluate(() => document.querySelectorAll('[data-node="9"] .ring').length);
  check(rings === 1, "the second hole has the hole's ring");
  const tokens = await page.evaluate(() =>
    Object.fromEntries(Array.from(document.querySelectorAll("[data-token]"), (t) => [t.getAttribute("data-token"), t.getAttribute("data-at")])),
  );
  check(tokens.mouse === "3" && tokens.cat === "5", `the tokens stand on the starts: ${JSON.stringify(tokens)}`);
  const caption = (await page.textContent("#caption"))?.trim();
  check(caption === "cat to move, mouse wins in 6, 12 moves left", `the line starts with the cat to move, the limit counted: "${caption}"`);

  // One-way edges: marked, with the arrowhead that is drawn, and shown as the export draws it.
  const arrows = await page.evaluate(() => {
    const lines = Array.from(document.querySelectorAll("line.edge[data-one-way]"));
    const marker = document.querySelector("svg.cmg-scene marker#cmg-arrow path");
    return {
      edges: lines.map((l) => `${l.getAttribute("data-edge")} ${l.getAttribute("marker-end")}`),
      fill: marker === null ? null : getComputedStyle(marker).fill,
      // The edges' colour as the stylesheet names it, written the way computed styles are.
      edge: (() => {
        const probe = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        const svg = document.querySelector("svg.cmg-scene");
        svg.append(probe);
        probe.style.fill = getComputedStyle(svg).getPropertyValue("--cmg-edge").trim();
        const fill = getComputedStyle(probe).fill;
        probe.remove();
        return fill;
      })(),
    };
  });
  check(
    arrows.edges.join(", ") === "4-9 url(#cmg-arrow), 9-6 url(#cmg-arrow)" && arrows.fill === arrows.edge,
    `one-way edges carry the arrowhead in the edges' colour: ${arrows.edges.join(", ")} (${arrows.fill})`,
  );
  await page.screenshot({ path: join(artifacts, "view-every-rule.png") });

  // Play as the cat, who moves first: 5 -> 4, then from 4 the one-way edge to the hole 9
  // (the cat may enter holes here), and from 9 only on to 6, never back to 4.
  await page.selectOption("#mode", "play-cat");
  await page.waitForFunction(() => document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
  check((await choices(page)).join(",") === "4,6", `the cat starts on 5 and moves first: ${await choices(page)}`);
  await page.click('[data-node="4"]');
  await page.waitForFunction(() => document.querySelector('[data-token="cat"]')?.getAttribute("data-at") === "4" && document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
  const fromFour = await choices(page);
  check(fromFour.includes(9), `from 4 the cat may take the one-way edge into the hole 9: ${fromFour}`);
  await page.click('[data-node="9"]');
  await page.waitForFunction(() => document.querySelector('[data-token="cat"]')?.getAttribute("data-at") === "9" && document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
  const fromNine = await choices(page);
  check(fromNine.join(",") === "6", `from 9 only on to 6, not back along 4 -> 9: ${fromNine}`);
  const last = await page.evaluate(() => document.querySelector("line.edge[data-last]")?.getAttribute("data-edge"));
  check(last !== undefined, `the last move's edge is marked (${last})`);
  const status = (await page.textContent("#caption"))?.trim() ?? "";
  check(/moves left$/.test(status), `play counts the moves left: "${status}"`);
  await page.screenshot({ path: join(artifacts, "view-every-rule-play.png") });

  // The canvas paints the same arrowheads.
  const canvas = await browser.newPage({ viewport: { width: 900, height: 700 } });
  canvas.on("pageerror", (error) => errors.push(String(error)));
  await canvas.goto(`${url}?renderer=canvas`);
  await canvas.waitForFunction(() => document.body.dataset.renderer === "canvas" && document.querySelectorAll("[data-node]").length === 8, null, { timeout: WAIT_MS });
  await canvas.waitForTimeout(200);
  for (const [from, to] of [[4, 9], [9, 6]]) {
    const painted = await canvasArrow(canvas, from, to);
    check(painted.head === painted.edge && painted.tail !== painted.edge, `the canvas paints the arrowhead of ${from} -> ${to} at ${to} (${JSON.stringify(painted)})`);
  }
  await canvas.screenshot({ path: join(artifacts, "view-every-rule-canvas.png") });

  // The export: the same marker, the same lines, the game and the roles in its legend.
  const svgFile = join(artifacts, "every-rule.svg");
  execFileSync(cmg, ["view", file, "--export", svgFile]);
  const exported = readFileSync(svgFile, "utf8");
  const marker = readFileSync(join(root, "web/src/render.ts"), "utf8").match(/ARROW_MARKER = `([^`]*)`/)[1];
  check(exported.includes(marker), "the export has the page's arrowhead");
  check(
    (exported.match(/data-one-way="true" marker-end="url\(#cmg-arrow\)"/g) ?? []).length === 3 &&
      exported.includes(game) &&
      exported.includes("hole (0, 9)"),
    "the export draws both one-way edges with arrowheads (and one in its legend), the game and the holes",
  );
  const picture = await browser.newPage();
  await picture.goto(`file://${svgFile}`);
  await picture.screenshot({ path: join(artifacts, "every-rule-export.png") });
  check(errors.length === 0, `no page errors ${errors.join("; ")}`);
} finally {
  await browser.close();
  child.kill();
}
finish("the view of a file with every rule");
