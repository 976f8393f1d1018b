// The game view of a file with every rule (examples/every-rule.cmg), in headless Chromium
// (Debian's package, through playwright-core): the game in words beside the outcome,
// every hole drawn as a hole, the tokens on the starts, one-way edges with their
// arrowheads (SVG, canvas, and `cmg view --export`), and play that takes a one-way edge
// only in its direction. Screenshots go to target/artifacts/.
//
// Usage: node test/rules.mjs [path/to/cmg]   (default: $CARGO_TARGET_DIR/debug/cmg, or target/)

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

import { artifacts, browserPath, check, dragNode, finish, root, target } from "./site.mjs";
import { checkEveryRule } from "./every-rule.mjs";
import { openView, startView } from "./view-server.mjs";

const cmg = resolve(process.argv[2] ?? join(target, "debug/cmg"));
const WAIT_MS = 10000;

const file = join(root, "examples/every-rule.cmg");
/** The game in the hover's words, as `cmg solve` prints it. */
const game = execFileSync(cmg, ["solve", file], { encoding: "utf8" })
  .split("\n")
  .find((line) => line.startsWith("the game: "));

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

/**
 * How the view draws node `id` once `count` nodes are drawn: its roles, its shapes'
 * elements (SVG), its polygon's points, and for each spot (scene units from its centre)
 * whether the canvas paints it (not the page's white background; null without a canvas).
 */
async function drawnNode(page, count, id, spots) {
  await page.waitForFunction((count) => document.querySelectorAll("[data-node]").length === count, count, { timeout: WAIT_MS });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(
    ({ id, spots }) => {
      const group = document.querySelector(`[data-node="${id}"]`);
      const shapes = Array.from(group.children, (c) => `${c.tagName} ${c.getAttribute("class")}`).filter((t) => !t.startsWith("text"));
      const canvas = document.querySelector("#stage canvas");
      const background = getComputedStyle(document.querySelector("svg.cmg-scene")).getPropertyValue("--cmg-background").trim();
      const painted = spots.map(([dx, dy]) => {
        if (canvas === null || document.body.dataset.renderer !== "canvas" || background !== "#ffffff") return null;
        const matrix = document.querySelector("svg.cmg-scene .viewport").getCTM();
        const [x, y] = group.getAttribute("transform").match(/-?[\d.]+/g).map(Number);
        const ratio = canvas.width / canvas.clientWidth;
        const at = [matrix.a * (x + dx) + matrix.e, matrix.d * (y + dy) + matrix.f].map((v) => Math.round(v * ratio));
        const [r, g, b] = canvas.getContext("2d").getImageData(at[0], at[1], 1, 1).data;
        return `${r},${g},${b}` !== "255,255,255";
      });
      const points = group.querySelector("polygon")?.getAttribute("points") ?? null;
      return { role: group.getAttribute("data-role"), also: group.getAttribute("data-also"), shapes, points, painted };
    },
    { id, spots },
  );
}

/**
 * Node `id` of the view of `text` (saved as NAME.cmg, `count` nodes) as each renderer
 * draws it (`drawnNode`), by renderer; a screenshot of each goes to artifacts/view-NAME-RENDERER.png.
 */
async function drawnByEach(browser, errors, name, text, count, id, spots) {
  const path = join(mkdtempSync(join(tmpdir(), `cmg-${name}-`)), `${name}.cmg`);
  writeFileSync(path, text);
  const view = startView(cmg, path);
  try {
    const url = await view.url;
    const drawn = {};
    for (const renderer of ["svg", "canvas"]) {
      const page = await openView(browser, `${url}?renderer=${renderer}`, errors);
      drawn[renderer] = await drawnNode(page, count, id, spots);
      await page.screenshot({ path: join(artifacts, `view-${name}-${renderer}.png`) });
      // Closed before its server stops, which would otherwise be a page error.
      await page.close();
    }
    return drawn;
  } finally {
    view.child.kill();
  }
}

const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
const view = startView(cmg, file);
const { child } = view;
try {
  const errors = [];
  const url = await view.url;
  const page = await openView(browser, url, errors);
  await checkEveryRule(page, game, check, (name) => page.screenshot({ path: join(artifacts, `view-${name}.png`) }));

  // The canvas paints the same arrowheads.
  const canvas = await openView(browser, `${url}?renderer=canvas`, errors);
  await canvas.waitForFunction(() => document.body.dataset.renderer === "canvas" && document.querySelectorAll("[data-node]").length === 8, null, { timeout: WAIT_MS });
  // Two frames: the canvas has painted the scene.
  await canvas.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
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
    (exported.match(/data-one-way="true" marker-end="url\(#cmg-arrow\)"/g) ?? []).length === 2 &&
      exported.includes('data-legend="one-way"') &&
      exported.includes(game) &&
      exported.includes("hole (0, 9)"),
    "the export draws both one-way edges with arrowheads, one in its legend, the game and the holes",
  );
  const picture = await browser.newPage();
  await picture.goto(`file://${svgFile}`);
  await picture.screenshot({ path: join(artifacts, "every-rule-export.png") });

  // A highlighted one-way edge has its arrowhead in its line's colour: 1 -> 0 is critical
  // (without it the mouse must step onto the cat), 2 -> 3 flagged (3 has no move out), the
  // others plain.
  const highlighted = join(mkdtempSync(join(tmpdir(), "cmg-arrows-")), "arrows.cmg");
  writeFileSync(highlighted, "1 -> 0\n1 -- 2\n2 -> 3\n2 -- 4\n4 -> 5 -> 2\n");
  const arrowsView = startView(cmg, highlighted);
  try {
    const arrowsPage = await openView(browser, await arrowsView.url, errors);
    await arrowsPage.waitForFunction(() => document.querySelector('line.edge[data-edge="1-0"]')?.getAttribute("data-critical") === "true", null, { timeout: WAIT_MS });
    const heads = await arrowsPage.evaluate(() =>
      Array.from(document.querySelectorAll("line.edge[data-one-way]"), (line) => {
        const id = /^url\(#(.*)\)$/.exec(line.getAttribute("marker-end") ?? "")?.[1];
        const head = id === undefined ? null : document.getElementById(id)?.querySelector("path");
        return { edge: line.getAttribute("data-edge"), line: getComputedStyle(line).stroke, head: head == null ? null : getComputedStyle(head).fill };
      }),
    );
    const colours = new Set(heads.map((h) => h.head));
    check(
      heads.length === 4 && heads.every((h) => h.head === h.line) && colours.size === 3,
      `each one-way edge's arrowhead is in its line's colour, critical, flagged or plain: ${JSON.stringify(heads)}`,
    );
    await arrowsPage.screenshot({ path: join(artifacts, "view-highlighted-arrows.png") });
    // The last move along a one-way edge: the mouse takes 1 -> 0 into the hole. Its
    // arrowhead is in the last move's colour, on the page and in the page's saved SVG.
    await arrowsPage.selectOption("#mode", "play-mouse");
    await arrowsPage.waitForFunction(() => document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
    await arrowsPage.click('[data-node="0"]');
    await arrowsPage.waitForFunction(() => document.querySelector('line.edge[data-edge="1-0"]')?.hasAttribute("data-last"), null, { timeout: WAIT_MS });
    const lastHead = await arrowsPage.evaluate(() => {
      const line = document.querySelector('line.edge[data-edge="1-0"]');
      const id = /^url\(#(.*)\)$/.exec(line.getAttribute("marker-end") ?? "")?.[1];
      const head = id === undefined ? null : document.getElementById(id)?.querySelector("path");
      return { id, line: getComputedStyle(line).stroke, head: head == null ? null : getComputedStyle(head).fill };
    });
    check(lastHead.id === "cmg-arrow-last" && lastHead.head === lastHead.line, `the last move's arrowhead is in its line's colour: ${JSON.stringify(lastHead)}`);
    const [saved] = await Promise.all([arrowsPage.waitForEvent("download"), arrowsPage.click('[data-export="svg"]')]);
    const savedSvg = readFileSync(await saved.path(), "utf8");
    const savedLine = /<line[^>]*data-edge="1-0"[^>]*>/.exec(savedSvg)?.[0] ?? "";
    const savedId = /marker-end="url\(#([^)]*)\)"/.exec(savedLine)?.[1];
    const savedMarker = new RegExp(`<marker[^>]*id="${savedId}"[^>]*>\\s*<path[^>]*fill="([^"]*)"`).exec(savedSvg)?.[1];
    const savedStroke = /stroke="([^"]*)"/.exec(savedLine)?.[1];
    check(savedId === "cmg-arrow-last" && savedMarker !== undefined && savedMarker === savedStroke, `the saved SVG draws it so too: ${savedId} ${savedMarker} ${savedStroke}`);
    // Closed before its server stops, which would otherwise be a page error.
    await arrowsPage.close();
  } finally {
    arrowsView.child.kill();
  }

  // A hole where the cat starts is drawn as both, in the SVG and on the canvas: the cat's
  // diamond with the hole's ring inside. Inside the diamond's top corner, outside a circle
  // of the node's radius: painted only for a diamond.
  const holeText = "rule holes 0 2\nrule cat-enters-holes\n0 -- 1 -- 2\n";
  const hole = await drawnByEach(browser, errors, "hole-start", holeText, 3, "2", [[0, -20]]);
  for (const [renderer, drawn] of Object.entries(hole)) {
    check(
      drawn.role === "hole" && drawn.also === "cat" &&
        (renderer === "svg" ? drawn.shapes.join(", ") === "polygon shape, circle ring" : drawn.painted[0] === true),
      `${renderer}: the hole where the cat starts is the cat's diamond with the hole's ring: ${JSON.stringify(drawn)}`,
    );
  }

  // A node where the mouse and the cat both start (the game over at once) is drawn as
  // both, in the SVG and on the canvas: the mouse's square on the left, the cat's diamond
  // on the right. The bottom corners (clear of the tokens above): the square's, painted;
  // the diamond's side leaves its corner bare.
  const both = await drawnByEach(browser, errors, "both-start", "0 -- 1 -- 2\nrule start 1 1\n", 3, "1", [[-15, 15], [15, 15]]);
  for (const [renderer, drawn] of Object.entries(both)) {
    check(
      drawn.role === "mouse" && drawn.also === "cat" &&
        (renderer === "svg"
          ? drawn.shapes.join(", ") === "polygon shape" && drawn.points === "-18,-18 0,-18 0,-23.400000000000002 23.400000000000002,0 0,23.400000000000002 0,18 -18,18"
          : drawn.painted[0] === true && drawn.painted[1] === false),
      `${renderer}: the node where both start is the mouse's square and the cat's diamond: ${JSON.stringify(drawn)}`,
    );
  }

  const holeStart = join(mkdtempSync(join(tmpdir(), "cmg-hole-start-")), "hole-start.cmg");
  writeFileSync(holeStart, holeText);
  const holeView = startView(cmg, holeStart);
  try {
    const holeUrl = await holeView.url;
    // A dragged node stays pinned through a reload of the page (kept in localStorage
    // under the file's path), until a double click unpins it, also through a reload.
    const pinPage = await openView(browser, `${holeUrl}?renderer=svg`, errors);
    const node = pinPage.locator('svg.cmg-scene [data-node="1"]');
    await node.waitFor({ state: "attached", timeout: WAIT_MS });
    const laid = await node.getAttribute("transform");
    await dragNode(pinPage, node, 60, 80);
    const put = await node.getAttribute("transform");
    check(put !== laid && (await node.getAttribute("data-pinned")) === "true", `a dragged node moves and is pinned (${laid} to ${put})`);
    const reload = async () => {
      await pinPage.reload();
      await node.waitFor({ state: "attached", timeout: WAIT_MS });
      return [await node.getAttribute("data-pinned"), await node.getAttribute("transform")];
    };
    const [pinned, at] = await reload();
    check(pinned === "true" && at === put, `after a reload, the node is still pinned where it was put (${pinned}, ${at})`);
    await node.dblclick();
    const [unpinned, back] = await reload();
    check(unpinned === null && back !== put, `unpinned by a double click, it stays unpinned after a reload (${unpinned}, ${back})`);
    await pinPage.close();
  } finally {
    holeView.child.kill();
  }

  check(errors.length === 0, `no page errors ${errors.join("; ")}`);
} finally {
  await browser.close();
  child.kill();
}
finish("the view of a file with every rule");
