// The game view in a real browser: `cmg view` on 127.0.0.1, opened in headless Chromium
// (Debian's package, never a downloaded one) through playwright-core. Checks the page,
// the colours against the solver (`cmg dot`, and `/slice`, which the Rust tests check
// against the solver), the stepper, the tokens on their nodes, play mode (move list,
// undo, restart, keyboard, the announced reply), the table explorer and its replay, live
// edits and the SVG export; screenshots go to target/artifacts/.
//
// Usage: node test/browser.mjs [path/to/cmg]   (default: $CARGO_TARGET_DIR/debug/cmg, or target/)

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { chromium } from "playwright-core";

import { openView, startView } from "./view-server.mjs";

const root = resolve(new URL("../..", import.meta.url).pathname);
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const cmg = resolve(process.argv[2] ?? join(target, "debug/cmg"));
const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const artifacts = join(target, "artifacts");
mkdirSync(artifacts, { recursive: true });
/** How long the page may take to follow an edit of the file. */
const EDIT_WAIT_MS = 5000;

let failures = 0;
let passes = 0;
function check(condition, what) {
  if (condition) {
    passes++;
    console.log(`ok - ${what}`);
  } else {
    failures++;
    console.log(`not ok - ${what}`);
  }
}

/** Who wins if the mouse starts on each node, as `cmg dot` colours it from the solver. */
function solverOutcomes(file) {
  const dot = execFileSync(cmg, ["dot", file], { encoding: "utf8" });
  // cmg dot fills with the page's own palette (web/src/scene.css), read from there.
  const css = readFileSync(join(root, "web/src/scene.css"), "utf8");
  const colours = {};
  for (const outcome of ["mouse", "cat", "draw"]) {
    const found = css.match(new RegExp(`--cmg-${outcome}:\\s*(#[0-9a-fA-F]{6})`));
    if (found) colours[found[1].toLowerCase()] = outcome;
  }
  const outcomes = new Map();
  for (const match of dot.matchAll(/^\s*(\d+) \[.*fillcolor="(#[0-9a-f]{6})"/gm)) {
    outcomes.set(match[1], colours[match[2]]);
  }
  return outcomes;
}

/** The page's canvas threshold, read from its source (web/src/canvas.ts). */
const CANVAS_ABOVE = Number(readFileSync(join(root, "web/src/canvas.ts"), "utf8").match(/CANVAS_ABOVE = (\d+)/)[1]);

/** A connected graph of `n` nodes: a path and n/2 chords from a fixed pseudo-random sequence. */
function bigGraph(n) {
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const lines = [];
  for (let i = 1; i < n; i++) lines.push(`${i - 1} -- ${i}`);
  for (let i = 0; i < n / 2; i++) {
    const [a, b] = [next(), next()];
    if (a !== b) lines.push(`${a} -- ${b}`);
  }
  return lines.join("\n") + "\n";
}

/** Each drawn node's outcome and whether its fill is the colour of that outcome. */
async function drawnNodes(page) {
  return page.evaluate(() => {
    const svg = document.querySelector("svg.cmg-scene");
    const probe = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    svg.append(probe);
    const colourOf = (outcome) => {
      probe.style.fill = getComputedStyle(svg).getPropertyValue(`--cmg-${outcome}`).trim();
      return getComputedStyle(probe).fill;
    };
    const nodes = [...document.querySelectorAll("[data-node]")].map((node) => {
      const outcome = node.getAttribute("data-outcome");
      const fill = getComputedStyle(node.querySelector(".shape")).fill;
      return { id: node.getAttribute("data-node"), outcome, fill, expected: colourOf(outcome) };
    });
    probe.remove();
    return nodes;
  });
}

const text = async (page, selector) => (await page.textContent(selector))?.trim() ?? "";

/** Whether each drawn token's centre lies inside its node's shape, and nearer it than any other node. */
async function tokensOnTheirNodes(page) {
  return page.evaluate(() => {
    const centre = (element) => {
      const box = element.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
    };
    const tokens = [...document.querySelectorAll("[data-token]")];
    return tokens.length > 0 && tokens.every((token) => {
      const at = token.getAttribute("data-at");
      const t = centre(token);
      const own = centre(document.querySelector(`[data-node="${at}"] .shape`));
      const inside = t.x > own.box.left && t.x < own.box.right && t.y > own.box.top && t.y < own.box.bottom;
      const nearest = [...document.querySelectorAll("[data-node]")]
        .map((node) => ({ id: node.getAttribute("data-node"), c: centre(node.querySelector(".shape")) }))
        .sort((a, b) => Math.hypot(a.c.x - t.x, a.c.y - t.y) - Math.hypot(b.c.x - t.x, b.c.y - t.y))[0];
      return inside && nearest.id === at;
    });
  });
}

/** Whether no drawn token covers any part of its node's number. */
async function tokensClearOfNumbers(page) {
  return page.evaluate(() => {
    const tokens = [...document.querySelectorAll("[data-token]")];
    return tokens.length > 0 && tokens.every((token) => {
      const t = token.querySelector("circle").getBoundingClientRect();
      const id = document.querySelector(`[data-node="${token.getAttribute("data-at")}"] .id`).getBoundingClientRect();
      const r = t.width / 2;
      // The nearest point of the number's box to the token's centre, outside its circle.
      const [cx, cy] = [t.x + r, t.y + r];
      const nx = Math.max(id.left, Math.min(cx, id.right));
      const ny = Math.max(id.top, Math.min(cy, id.bottom));
      return Math.hypot(nx - cx, ny - cy) >= r;
    });
  });
}

/** The slice `cmg view` serves for the cat on `cat` with `turn` to move. */
async function servedSlice(url, cat, turn) {
  return (await fetch(new URL(`slice?cat=${cat}&turn=${turn}`, url))).json();
}

/** Whether every drawn node shows the outcome `slice` gives it, and the picture names the slice. */
async function showsSlice(page, slice) {
  return page.evaluate((slice) => {
    const letters = { m: "mouse", c: "cat", d: "draw" };
    const svg = document.querySelector("svg.cmg-scene");
    return (
      svg.getAttribute("data-slice") === `${slice.cat}/${slice.turn}` &&
      slice.ids.every(
        (id, i) => document.querySelector(`[data-node="${id}"]`)?.getAttribute("data-outcome") === letters[slice.outcome[i]],
      )
    );
  }, slice);
}

const dir = mkdtempSync(join(tmpdir(), "cmg-view-"));
const file = join(dir, "game.cmg");
copyFileSync(join(root, "examples/long-game.cmg"), file);
const { child, url: urlPromise } = startView(cmg, file);
const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
try {
  const url = await urlPromise;
  const errors = [];
  const page = await openView(browser, url, errors);
  const scene = await (await fetch(new URL("scene.json", url))).json();

  // The page loads, with one element per node, coloured as the solver says.
  await page.waitForFunction((n) => document.querySelectorAll("[data-node]").length === n, scene.nodes.length, {
    timeout: 10000,
  });
  const solver = solverOutcomes(file);
  const nodes = await drawnNodes(page);
  check(nodes.length === solver.size && solver.size === 10, `one element per node (${nodes.length})`);
  check(
    nodes.every((n) => solver.get(n.id) === n.outcome),
    "every node's data-outcome is the solver's outcome",
  );
  check(
    nodes.every((n) => n.fill === n.expected && n.fill !== ""),
    "every node is filled with its outcome's colour",
  );
  const caption = async (expected, what) => {
    const shown = await text(page, "#caption");
    check(shown === expected, `${what}: "${shown}"`);
  };
  await caption("mouse to move, mouse wins in 21", "caption at the start");
  await page.screenshot({ path: join(artifacts, "view-start.png") });

  // The page's own exports: the picture as shown, with its legend (the playground's test
  // looks inside them).
  for (const kind of ["svg", "png"]) {
    const [saved] = await Promise.all([page.waitForEvent("download"), page.click(`[data-export="${kind}"]`)]);
    const bytes = readFileSync(await saved.path());
    const good =
      kind === "svg"
        ? /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/.test(bytes.toString()) && (bytes.toString().match(/data-node=/g) ?? []).length === 10
        : bytes.subarray(0, 8).toString("hex") === "89504e470d0a1a0a";
    check(good, `the page's [data-export="${kind}"] button downloads ${saved.suggestedFilename()}, an ${kind.toUpperCase()} of the 10 nodes`);
  }

  // ▶ advances the line: the mouse token goes to the line's next node.
  await page.click("#next");
  check((await text(page, "#step")) === "1/21", "▶ shows step 1 of 21");
  const mouseAt = await page.getAttribute('[data-token="mouse"]', "data-at");
  check(mouseAt === String(scene.line[1][0]), `the mouse token moved to node ${scene.line[1][0]}`);
  await caption("cat to move, mouse wins in 20", "caption after one move");
  await page.waitForTimeout(400); // the tokens glide for 250 ms
  check(await tokensOnTheirNodes(page), "the M and C tokens sit on their nodes");
  check(await tokensClearOfNumbers(page), "the M and C tokens leave their nodes' numbers readable");
  // The colours follow the line: the cat on its node, the cat to move.
  const stepSlice = await servedSlice(url, scene.line[1][1], "cat");
  await page.waitForFunction((key) => document.querySelector("svg.cmg-scene")?.getAttribute("data-slice") === key, `${stepSlice.cat}/cat`);
  check(await showsSlice(page, stepSlice), "at step 1 every node is coloured by the slice of that position");
  check((await text(page, "#colours")).includes(`the cat on ${stepSlice.cat}, cat to move`), "the page says which slice the colours are");
  check(
    (await page.$$eval('.edge[data-last="true"]', (all) => all.map((e) => e.getAttribute("data-edge")))).join() ===
      [Math.min(1, scene.line[1][0]), Math.max(1, scene.line[1][0])].join("-"),
    "the last move's edge is marked",
  );
  // The page's saved SVG marks that edge, and only it, in the last move's colour.
  const [savedLast] = await Promise.all([page.waitForEvent("download"), page.click('[data-export="svg"]')]);
  const savedMarks = readFileSync(await savedLast.path(), "utf8").match(/<line[^>]*data-last="true"[^>]*>/g) ?? [];
  const lastLine = await page.$eval('.edge[data-last="true"]', (line) => ({ edge: line.getAttribute("data-edge"), stroke: getComputedStyle(line).stroke }));
  check(
    savedMarks.length === 1 && savedMarks[0].includes(`data-edge="${lastLine.edge}"`) && savedMarks[0].includes(`stroke="${lastLine.stroke}"`),
    `the saved SVG marks the last move's edge ${lastLine.edge} in ${lastLine.stroke}: ${savedMarks.join(" ")}`,
  );
  await page.keyboard.press("ArrowRight");
  check((await text(page, "#step")) === "2/21", "→ steps the line");
  await page.keyboard.press("ArrowLeft");
  check((await text(page, "#step")) === "1/21", "← steps back");
  await page.screenshot({ path: join(artifacts, "view-step.png") });

  // Play runs the line on its own, and pauses.
  await page.click("#play");
  await page.waitForFunction(() => document.querySelector("#step")?.textContent === "3/21", null, { timeout: 5000 });
  await page.click("#play");
  const paused = await text(page, "#step");
  await page.waitForTimeout(1000);
  check((await text(page, "#step")) === paused, `play ran the line and pause stopped it at ${paused}`);

  // Clicking a node in line mode shows where the text first mentions it.
  await page.click('[data-node="5"]');
  check(/node 5 is first mentioned on line \d+, column \d+/.test(await text(page, "#status")), "click reveals line");

  // Play mode: the user moves the mouse, the solver answers with the cat's best move.
  await page.selectOption("#mode", "play-mouse");
  const n = scene.nodes.length;
  const index = new Map(scene.nodes.map((node, i) => [node.id, i]));
  const choices = await page.$$eval(".node.choice", (all) => all.map((g) => Number(g.getAttribute("data-node"))));
  const neighbours = scene.edges.flatMap((e) => (e.a === 1 ? [e.b] : e.b === 1 ? [e.a] : [])).sort((a, b) => a - b);
  check(JSON.stringify(choices) === JSON.stringify(neighbours), `the mouse's moves are offered (${choices})`);
  const move = choices[choices.length - 1];
  const reply = (await servedSlice(url, 2, "cat")).best[index.get(move)];
  await page.click(`[data-node="${move}"]`);
  await page.waitForFunction(() => document.querySelector("#step")?.textContent === "2", null, { timeout: 5000 });
  const catAt = await page.getAttribute('[data-token="cat"]', "data-at");
  check(
    catAt === String(reply) && catAt !== "2",
    `the solver answered mouse ${move} with cat ${reply} (page: ${catAt})`,
  );
  check(/^you play the mouse: you are (winning|losing|drawing)/.test(await text(page, "#caption")), "play status");
  check((await text(page, "#announce")) === `the solver moves cat 2 → ${reply}`, `the reply is announced: "${await text(page, "#announce")}"`);
  check((await page.getAttribute("#announce", "aria-live")) === "assertive", "the announcement is live for screen readers");
  const listed = await page.$$eval("#moves li", (all) => all.map((li) => li.textContent));
  check(JSON.stringify(listed) === JSON.stringify([`mouse 1 → ${move}`, `cat 2 → ${reply}`]), `the move list (${listed})`);
  check((await page.getAttribute("#moves li:last-child", "class")) === "last", "the last move is marked in the list");
  const playSlice = await servedSlice(url, reply, "mouse");
  await page.waitForFunction((key) => document.querySelector("svg.cmg-scene")?.getAttribute("data-slice") === key, `${reply}/mouse`);
  check(await showsSlice(page, playSlice), "in play the colours follow the position (the cat where it is, the mouse to move)");
  await page.waitForTimeout(400); // the tokens glide for 250 ms
  check(await tokensOnTheirNodes(page), "the tokens sit on their nodes in play");
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, "view-play.png") });
  // Undo with the keyboard takes back the move and the reply; restart starts again.
  await page.keyboard.press("u");
  check((await text(page, "#step")) === "0" && (await page.$$("#moves li")).length === 0, "u undoes the move and the reply");
  // A move by the keyboard: Tab to an offered node, Enter.
  await page.focus(`[data-node="${move}"]`);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("#step")?.textContent === "2", null, { timeout: 5000 });
  check(true, "Enter on a focused node moves there");
  await page.click("#restart");
  check((await text(page, "#step")) === "0", "restart goes back to the start");

  // The explorer: the cat on 5, the cat to move; every node coloured by that slice.
  await page.selectOption("#mode", "explore");
  await page.selectOption("#cat", "5");
  await page.selectOption("#turn", "cat");
  const explored = await servedSlice(url, 5, "cat");
  await page.waitForFunction(() => document.querySelector("svg.cmg-scene")?.getAttribute("data-slice") === "5/cat", null, {
    timeout: 5000,
  });
  check(await showsSlice(page, explored), "the explorer colours every node by the chosen slice");
  check(/^the cat on 5, cat to move: \d+ mouse wins, \d+ cat wins, \d+ draws$/.test(await text(page, "#caption")), "explorer caption");
  await page.screenshot({ path: join(artifacts, "view-explore.png") });
  // The replay at level k: only positions settled within k moves of the end are coloured.
  for (const level of [0, 2]) {
    await page.$eval("#replay", (input, level) => {
      input.value = String(level);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }, level);
    const undecided = await page.$$eval("[data-node][data-undecided]", (all) => all.map((g) => Number(g.getAttribute("data-node"))).sort((a, b) => a - b));
    const expected = explored.ids.filter((_, i) => explored.moves[i] < 0 || explored.moves[i] > level).sort((a, b) => a - b);
    check(JSON.stringify(undecided) === JSON.stringify(expected), `replay level ${level}: unsettled nodes ${undecided}`);
  }
  await page.screenshot({ path: join(artifacts, "view-replay.png") });
  await page.selectOption("#mode", "play-mouse");

  // An edit reaches the page: joining node 1 to the hole lets the mouse win at once.
  const before = await page.getAttribute('[data-node="8"]', "transform");
  appendFileSync(file, "\n1 -- 0\n");
  const started = Date.now();
  await page.waitForFunction(() => document.querySelector("#summary")?.textContent === "outcome: mouse wins in 1", null, {
    timeout: EDIT_WAIT_MS,
  });
  check(true, `the edit reached the page in ${Date.now() - started} ms`);
  const after = await page.getAttribute('[data-node="8"]', "transform");
  console.log(`# node 8 went from ${before} to ${after}`);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, "view-edited.png") });
  check((await page.title()).startsWith(`${basename(file)} — `), `the tab's title names the file: "${await page.title()}"`);

  // The file is deleted: the picture stays, and the page says the file is gone; back,
  // it shows again without the note.
  const kept = readFileSync(file, "utf8");
  rmSync(file);
  await page.waitForSelector('#diagnostics [data-note="source"]', { timeout: EDIT_WAIT_MS });
  check(
    (await text(page, '#diagnostics [data-note="source"]')).includes("is gone (deleted or moved)") &&
      (await page.$$("[data-node]")).length > 0,
    "a deleted file keeps its picture and the page says it is gone",
  );
  writeFileSync(file, kept);
  await page.waitForSelector('#diagnostics [data-note="source"]', { state: "detached", timeout: EDIT_WAIT_MS });
  check(true, "the file back, the note goes");
  check(errors.length === 0, `no errors on the page ${errors.join("; ")}`);

  // The VS Code host: scenes arrive as messages, clicks ask the extension to reveal the
  // text, a dark theme recolours, and an update keeps the elements and the zoom.
  const webview = await browser.newPage({ viewport: { width: 700, height: 500 } });
  webview.on("pageerror", (error) => errors.push(String(error)));
  webview.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await webview.addInitScript(() => {
    window.sent = [];
    window.acquireVsCodeApi = () => ({ postMessage: (message) => window.sent.push(message) });
    document.addEventListener("DOMContentLoaded", () => document.body.classList.add("vscode-dark"));
  });
  await webview.goto(url);
  await webview.waitForFunction(() => window.sent.some((m) => m.type === "ready"));
  await webview.evaluate((scene) => window.postMessage({ type: "scene", scene }, "*"), scene);
  await webview.waitForFunction((n) => document.querySelectorAll("[data-node]").length === n, scene.nodes.length);
  check(await webview.evaluate(() => document.body.classList.contains("cmg-dark")), "a dark VS Code theme turns the view dark");
  await webview.evaluate(() => {
    const svg = document.querySelector("svg.cmg-scene");
    svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -200, clientX: 300, clientY: 200, bubbles: true, cancelable: true }));
    document.querySelector('[data-node="3"]').marked = true;
  });
  const zoomBefore = await webview.getAttribute("g.viewport", "transform");
  const placeBefore = await webview.getAttribute('[data-node="3"]', "transform");
  // The same graph, node 3 renamed, and every node laid out elsewhere: the label changes
  // on the same element, and no node moves (a scene of the graph shown keeps positions).
  const moved = { ...scene, nodes: scene.nodes.map((n) => ({ ...n, x: n.x + 10, label: n.id === 3 ? "renamed" : n.label })) };
  await webview.evaluate((scene) => window.postMessage({ type: "scene", scene }, "*"), moved);
  await webview.waitForFunction(() => document.querySelector('[data-node="3"] text.label')?.textContent === "renamed");
  check(
    await webview.evaluate(() => document.querySelector('[data-node="3"]').marked === true),
    "an update changes the node's element instead of redrawing it",
  );
  check((await webview.getAttribute('[data-node="3"]', "transform")) === placeBefore, "a scene of the same graph laid out elsewhere moves no node");
  check((await webview.getAttribute("g.viewport", "transform")) === zoomBefore, `an update keeps the zoom (${zoomBefore})`);
  // The page asks the extension for slices; an answer colours the picture by it.
  await webview.waitForFunction(() => window.sent.some((m) => m.type === "slice"));
  const asked = await webview.evaluate(() => window.sent.find((m) => m.type === "slice"));
  const answer = await servedSlice(url, asked.cat, asked.turn);
  await webview.evaluate(([request, slice]) => window.postMessage({ type: "slice", request, slice }, "*"), [asked.request, answer]);
  await webview.waitForFunction((key) => document.querySelector("svg.cmg-scene")?.getAttribute("data-slice") === key, `${answer.cat}/${answer.turn}`);
  check(true, `a slice asked of VS Code (${asked.cat}/${asked.turn}) and answered is drawn`);
  await webview.click('[data-node="3"]');
  const reveal = await webview.evaluate(() => window.sent.find((m) => m.type === "reveal"));
  check(
    JSON.stringify(reveal?.mention) === JSON.stringify(scene.nodes.find((n) => n.id === 3).mention),
    "a click asks VS Code to reveal the node's first mention",
  );
  await webview.screenshot({ path: join(artifacts, "webview-dark.png") });
  check(errors.length === 0, `no errors in the webview ${errors.join("; ")}`);

  // The first draw at scale: a scene of 300 to 2000 nodes (the view's limit) posted to a
  // fresh page, timed from the message to the second frame after every node is in the
  // document, in each renderer (`?renderer=`: the canvas paints in a frame, so two frames
  // after the nodes are there it has painted), with the renderer's main-thread busy time
  // (Chromium's TaskDuration, steadier than the wall clock on a loaded machine). A
  // measurement for BENCHMARKS.md and for the canvas threshold (CANVAS_ABOVE in
  // web/src/canvas.ts), not a pass/fail bound.
  for (const size of [300, 400, 500, 1000, 2000]) {
    const big = join(dir, `big-${size}.cmg`);
    writeFileSync(big, bigGraph(size));
    // A debug build lays out and solves 2000 nodes before it serves: give it time.
    const opened = performance.now();
    const served = startView(cmg, big, 300000);
    try {
      const bigUrl = await served.url;
      // From starting `cmg view` to the second frame after the page has drawn every node,
      // as a user opens it (run this test with a release build for the figure in
      // BENCHMARKS.md: `node web/test/browser.mjs target/release/cmg`).
      const serving = performance.now() - opened;
      const first = await browser.newPage({ viewport: { width: 900, height: 700 } });
      first.on("pageerror", (error) => errors.push(String(error)));
      await first.goto(bigUrl);
      // The page has loaded (a fresh renderer process, the bundle): the rest is the scene.
      const loaded = performance.now() - opened;
      await first.waitForFunction((n) => document.querySelectorAll("svg.cmg-scene [data-node]").length === n, size, {
        polling: "raf",
        timeout: 300000,
      });
      await first.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const drawn = performance.now() - opened;
      await first.close();
      console.log(
        `# cmg view of ${size} nodes to its first draw: ${drawn.toFixed(0)} ms (serving after ${serving.toFixed(0)} ms, the page loaded after ${loaded.toFixed(0)} ms)`,
      );
      const bigScene = await (await fetch(new URL("scene.json", bigUrl))).json();
      check(bigScene.nodes.length === size && bigScene.too_large === null, `the ${size}-node graph is drawn (not too large)`);
      for (const renderer of ["svg", "canvas"]) {
        const times = [];
        const zooms = [];
        const busy = [];
        const zoomBusy = [];
        for (let run = 0; run < 3; run++) {
          const fresh = await browser.newPage({ viewport: { width: 900, height: 700 } });
          fresh.on("pageerror", (error) => errors.push(String(error)));
          await fresh.addInitScript(() => {
            window.acquireVsCodeApi = () => ({ postMessage: () => undefined });
          });
          await fresh.goto(`${bigUrl}?renderer=${renderer}`);
          const cdp = await fresh.context().newCDPSession(fresh);
          await cdp.send("Performance.enable");
          const taskSeconds = async () =>
            (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
          const idle = await taskSeconds();
          times.push(
            await fresh.evaluate(async (scene) => {
              const start = performance.now();
              window.postMessage({ type: "scene", scene }, "*");
              await new Promise((done) => {
                const wait = () =>
                  document.querySelectorAll("[data-node]").length === scene.nodes.length
                    ? requestAnimationFrame(() => requestAnimationFrame(done))
                    : setTimeout(wait, 1);
                wait();
              });
              return performance.now() - start;
            }, bigScene),
          );
          const drawnBusy = await taskSeconds();
          busy.push((drawnBusy - idle) * 1000);
          // Then one zoom step (a wheel turn over the picture) to the second frame after it.
          zooms.push(
            await fresh.evaluate(async () => {
              const start = performance.now();
              const stage = document.getElementById("stage");
              stage.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, clientX: 300, clientY: 300, bubbles: true, cancelable: true }));
              await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
              return performance.now() - start;
            }),
          );
          zoomBusy.push(((await taskSeconds()) - drawnBusy) * 1000);
          if (run === 0) await fresh.screenshot({ path: join(artifacts, `view-${size}-${renderer}.png`) });
          await fresh.close();
        }
        const median = (list) => [...list].sort((a, b) => a - b)[1].toFixed(0);
        const all = (list) => list.map((t) => t.toFixed(0)).join(", ");
        console.log(
          `# first draw of ${size} nodes and ${bigScene.edges.length} edges (${renderer}): median ${median(times)} ms of ${all(times)} (main thread busy ${median(busy)} ms); one zoom step: median ${median(zooms)} ms of ${all(zooms)} (busy ${median(zoomBusy)} ms)`,
        );
      }
      // Opened as a user would: above the threshold the page draws on the canvas, the
      // hidden SVG still has every node with its outcome, and play mode works by clicks
      // on the canvas (zoomed in on a legal move with the wheel, then clicked there).
      const page2 = await browser.newPage({ viewport: { width: 900, height: 700 } });
      page2.on("pageerror", (error) => errors.push(String(error)));
      await page2.goto(bigUrl);
      await page2.waitForFunction((n) => document.querySelectorAll("svg.cmg-scene [data-node]").length === n, size);
      const renderer = await page2.evaluate(() => document.body.dataset.renderer);
      const expected = size > CANVAS_ABOVE ? "canvas" : "svg";
      check(renderer === expected, `the ${size}-node graph is drawn with ${expected} (${renderer})`);
      if (renderer === "canvas") {
        // The accessible layer under the canvas is light (no shapes, text or line
        // coordinates) and complete: every node with its role, name and the scene's
        // outcome, every edge with its ends and whether it is critical.
        const layer = await page2.evaluate(() => ({
          nodes: Array.from(document.querySelectorAll("svg.cmg-scene [data-node]")).map((g) => ({
            id: Number(g.getAttribute("data-node")),
            role: g.getAttribute("data-role"),
            outcome: g.getAttribute("data-outcome"),
            label: g.getAttribute("aria-label"),
          })),
          edges: Array.from(document.querySelectorAll("svg.cmg-scene .edge")).map((l) => ({
            edge: l.getAttribute("data-edge"),
            critical: l.getAttribute("data-critical"),
          })),
          slice: document.querySelector("svg.cmg-scene").getAttribute("data-slice"),
          heavy: document.querySelectorAll("svg.cmg-scene .node > *, svg.cmg-scene .edge[x1]").length,
        }));
        check(layer.heavy === 0, `the layer under the canvas has no shapes, text or line coordinates (${layer.heavy})`);
        check(
          layer.slice === "2/mouse" &&
            layer.nodes.length === size &&
            layer.nodes.every((g, i) => {
              const node = bigScene.nodes[i];
              return g.id === node.id && g.role === node.role && g.outcome === node.outcome && g.label === `node ${node.id}`;
            }),
          `the layer under the canvas has all ${size} nodes with data-node, data-role, data-outcome and a name`,
        );
        check(
          layer.edges.length === bigScene.edges.length &&
            layer.edges.every((l, i) => l.edge === `${bigScene.edges[i].a}-${bigScene.edges[i].b}` && l.critical === String(bigScene.edges[i].critical)),
          `the layer under the canvas has all ${bigScene.edges.length} edges with data-edge and data-critical`,
        );
        // Zoomed in until a node is 12 pixels across or more, the canvas paints each node
        // in view in its group's colour: a pixel inside the shape, below the id and the
        // tokens, has the fill of the group's outcome.
        const painted = await page2.evaluate(async () => {
          const canvas = document.querySelector("canvas.cmg-canvas");
          const svg = document.querySelector("svg.cmg-scene");
          const box = canvas.getBoundingClientRect();
          const scale = () => svg.querySelector("g.viewport").getCTM().a;
          const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
          for (let step = 0; step < 100 && 18 * scale() < 12; step++) {
            const wheel = { deltaY: -100, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
            document.getElementById("stage").dispatchEvent(new WheelEvent("wheel", { ...wheel, bubbles: true, cancelable: true }));
          }
          await frames();
          const k = scale();
          const context = canvas.getContext("2d");
          const style = getComputedStyle(svg);
          const ratio = canvas.width / box.width;
          const hex = (rgb) => `#${[...rgb].slice(0, 3).map((c) => c.toString(16).padStart(2, "0")).join("")}`;
          const wrong = [];
          let checked = 0;
          for (const group of svg.querySelectorAll(".nodes [data-node]")) {
            const centre = new DOMPoint(0, 0).matrixTransform(group.getScreenCTM());
            const [x, y] = [centre.x, centre.y + 10 * k];
            if (x < box.left + 2 || x > box.right - 2 || y < box.top + 2 || y > box.bottom - 2) continue;
            const outcome = group.getAttribute("data-outcome");
            const expected = style.getPropertyValue(`--cmg-${outcome ?? "unsolved"}`).trim().toLowerCase();
            const pixel = context.getImageData(Math.floor((x - box.left) * ratio), Math.floor((y - box.top) * ratio), 1, 1).data;
            checked++;
            if (hex(pixel) !== expected) wrong.push(`${group.getAttribute("data-node")}: ${hex(pixel)} for ${expected}`);
          }
          return { checked, wrong };
        });
        check(
          painted.checked > 0 && painted.wrong.length === 0,
          `the canvas paints the ${painted.checked} nodes in view in their layer's colours ${painted.wrong.slice(0, 3).join("; ")}`,
        );
        await page2.click("#fit");
        await page2.selectOption("#mode", "play-mouse");
        await page2.waitForSelector("svg.cmg-scene .node.choice", { state: "attached" });
        // Where the node's centre is on the screen: its group's origin (the group is bare,
        // so it has no box to measure).
        const centre = () =>
          page2.evaluate(() => {
            const group = document.querySelector("svg.cmg-scene .node.choice");
            const at = new DOMPoint(0, 0).matrixTransform(group.getScreenCTM());
            return { id: group.getAttribute("data-node"), x: at.x, y: at.y };
          });
        let target = await centre();
        for (let zoom = 0; zoom < 4; zoom++) {
          await page2.mouse.move(target.x, target.y);
          await page2.mouse.wheel(0, -1500);
          await page2.waitForTimeout(50);
          target = await centre();
          if (target.x < 0 || target.y < 0) break;
        }
        const hit = await page2.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.tagName, target);
        check(hit === "CANVAS", `the click lands on the canvas (${hit})`);
        await page2.mouse.click(target.x, target.y);
        const moved = await page2
          .waitForFunction(
            (id) => document.querySelector('[data-token="mouse"]')?.getAttribute("data-at") === id,
            target.id,
            { timeout: EDIT_WAIT_MS },
          )
          .then(() => true, () => false);
        check(moved, `a click on node ${target.id} on the canvas moves the mouse there`);
        await page2.screenshot({ path: join(artifacts, `view-${size}-canvas-play.png`) });
      }
      await page2.close();
    } finally {
      served.child.kill();
    }
  }
  check(errors.length === 0, `no errors at scale ${errors.join("; ")}`);

  // The export has the page's elements and attributes, and renders for the README.
  // leetcode-draw has nodes of all three outcomes: it is the README's picture (docs/view.png).
  const example = join(root, "examples/leetcode-draw.cmg");
  const svgFile = join(artifacts, "leetcode-draw.svg");
  execFileSync(cmg, ["view", example, "--export", svgFile]);
  const exported = await browser.newPage();
  await exported.goto(`file://${svgFile}`);
  const exportedNodes = await drawnNodes(exported);
  const original = solverOutcomes(example);
  check(
    exportedNodes.length === original.size &&
      new Set(exportedNodes.map((n) => n.outcome)).size === 3 &&
      exportedNodes.every((n) => original.get(n.id) === n.outcome && n.fill === n.expected),
    "the export has one element per node with the solver's outcome and colour",
  );
  const size = await exported.evaluate(() => {
    const box = document.querySelector("svg").getBoundingClientRect();
    return { width: Math.ceil(box.width), height: Math.ceil(box.height) };
  });
  await exported.setViewportSize(size);
  await exported.screenshot({ path: join(artifacts, "export.png") });
  check(readFileSync(join(artifacts, "export.png")).length > 1000, "the export renders to PNG");
} finally {
  await browser.close();
  child.kill();
}
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
