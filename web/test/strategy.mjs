// The strategy panel and the what-if marks in a real browser: `cmg view` on 127.0.0.1 in
// headless Chromium, as test/browser.mjs runs it. Checks every edge's data-edge and
// data-critical against `cmg solve --json --what-if`, the hover title, the legend, and
// that clicking a move of the tree puts the tokens on its position; screenshots go to
// target/artifacts/.
//
// Usage: node test/strategy.mjs [path/to/cmg]

import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

import { startView } from "./view-server.mjs";

const root = resolve(new URL("../..", import.meta.url).pathname);
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const cmg = resolve(process.argv[2] ?? join(target, "debug/cmg"));
const artifacts = join(target, "artifacts");
mkdirSync(artifacts, { recursive: true });

let failures = 0;
function check(condition, what) {
  if (!condition) failures++;
  console.log(`${condition ? "ok" : "not ok"} - ${what}`);
}

const file = join(root, "examples/cat-wins.cmg");
const solved = JSON.parse(execFileSync(cmg, ["solve", "--json", "--what-if", file], { encoding: "utf8" }));
const { child, url: urlPromise } = startView(cmg, file);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(await urlPromise);
  await page.waitForSelector("#strategy button.move");

  // Every edge element names its edge (a < b) and says whether it is critical, as the CLI does.
  const edges = await page.$$eval("[data-edge]", (all) =>
    all.map((e) => ({
      edge: e.getAttribute("data-edge"),
      critical: e.getAttribute("data-critical"),
      title: e.querySelector("title")?.textContent ?? null,
      width: getComputedStyle(e).strokeWidth,
    })),
  );
  const expected = solved.what_if.map((w) => ({ edge: w.edge.join("-"), critical: String(w.critical) }));
  check(
    JSON.stringify(edges.map(({ edge, critical }) => ({ edge, critical }))) === JSON.stringify(expected),
    `data-edge and data-critical match cmg solve --what-if (${JSON.stringify(edges.map((e) => e.edge))})`,
  );
  check(edges.every((e) => Number(e.edge.split("-")[0]) < Number(e.edge.split("-")[1])), "data-edge is a-b with a < b");
  const drawn = new Set(edges.map((e) => `${e.critical} ${e.width}`));
  check(drawn.size === 2, `critical edges are drawn apart (${[...drawn].join(", ")})`);
  check(
    edges.find((e) => e.edge === "1-3")?.title === "without 1 -- 3: draw (now: cat wins in 2)",
    "hovering an edge shows its what-if (its SVG title)",
  );
  check((await page.textContent(".legend [data-critical]"))?.includes("critical edge") === true, "the legend explains the mark");

  // The panel sits beside the picture (under it below 700 px) and every node is in sight,
  // the element at its centre the node itself; "strategy" folds the panel.
  for (const [width, height] of [[1600, 900], [1280, 800], [420, 860]]) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const seen = await page.evaluate(() => {
      const stage = document.getElementById("stage").getBoundingClientRect();
      const panel = document.getElementById("strategy").getBoundingClientRect();
      const apart = panel.right <= stage.left + 1 || panel.left >= stage.right - 1 || panel.top >= stage.bottom - 1;
      const hidden = [...document.querySelectorAll("svg.cmg-scene [data-node]")].filter((node) => {
        const box = node.querySelector(".shape").getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        const inside = box.left >= stage.left && box.right <= stage.right && box.top >= stage.top && box.bottom <= stage.bottom;
        return !inside || document.elementFromPoint(x, y)?.closest("[data-node]") !== node;
      });
      return { apart, hidden: hidden.map((node) => node.getAttribute("data-node")) };
    });
    check(seen.apart && seen.hidden.length === 0, `${width} px: the panel is clear of the picture and every node is in sight${seen.hidden.length ? ` (hidden: ${seen.hidden.join(", ")})` : ""}`);
  }
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.click("#strategy-toggle");
  check(!(await page.isVisible("#strategy")) && (await page.getAttribute("#strategy-toggle", "aria-expanded")) === "false", "the strategy button folds the panel");
  await page.click("#strategy-toggle");
  check(await page.isVisible("#strategy"), "and shows it again");

  // The panel: the cat's tree; clicking a move shows the position after it.
  const title = await page.textContent("#strategy h2");
  check(title === "the cat's strategy, winning: cat wins in 2", `the panel's title: "${title}"`);
  const moves = await page.$$eval("#strategy button.move", (all) => all.map((b) => b.textContent));
  check(
    JSON.stringify(moves) === JSON.stringify(["mouse 1 -> 3: cat wins in 1", "cat 2 -> 3: caught: cat wins"]),
    `the tree's moves: ${JSON.stringify(moves)}`,
  );
  await page.click('#strategy button.move[data-line="0"]');
  await page.waitForTimeout(300);
  const mouseAt = await page.getAttribute('[data-token="mouse"]', "data-at");
  const catAt = await page.getAttribute('[data-token="cat"]', "data-at");
  check(mouseAt === "3" && catAt === "2", `clicking "mouse 1 -> 3" puts the mouse on 3, the cat on 2 (${mouseAt}, ${catAt})`);
  check((await page.textContent("#caption")) === "strategy: mouse 1 -> 3: cat wins in 1", "the caption names the picked move");
  check(await page.$eval("#strategy details", (d) => d.open), "picking a move does not fold the tree");
  await page.click("#strategy summary", { position: { x: 2, y: 6 } });
  check(!(await page.$eval("#strategy details", (d) => d.open)), "the tree folds");
  await page.screenshot({ path: join(artifacts, "view-strategy.png") });
  // The stepper takes the picture back to the optimal line.
  await page.click("#next");
  check((await page.textContent("#caption")) === "cat to move, cat wins in 1", "▶ goes back to the line");
  check(errors.length === 0, `no errors on the page ${errors.join("; ")}`);
} finally {
  await browser.close();
  child.kill();
}
process.exit(failures === 0 ? 0 : 1);
