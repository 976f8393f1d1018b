// The playground's page in headless Chromium (Debian's package, through playwright-core):
// the picture fits at every width with nothing over it, LeetCode's paste, short links and
// old ones, a broken link's notice, work kept across reloads, Markdown hovers and the
// hints' switch, the SVG and PNG exports and "Copy as Markdown", positions that stay
// put (a comment, a reload, a drag), a file with every rule, and the dark theme. Screenshots go to
// target/artifacts/.
//
// Usage: node test/playground-ui.mjs [SITE_DIR]   (default: $CARGO_TARGET_DIR/playground)

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { chromium } from "playwright-core";

import { checkEveryRule } from "./every-rule.mjs";
import { artifacts, browserPath, check, dragNode, finish, pasteText, root, serveSite, site } from "./site.mjs";

const WAIT_MS = 10000;
/** The strategy panel waits for the what-if, a solve per edge: seconds on the 50-node record. */
const EXPLAIN_WAIT_MS = 60000;

const record = readFileSync(join(root, "examples/records/n50-226-from-leetcode.cmg"), "utf8");
const oldLink = (text) => `#code=${Buffer.from(text, "utf8").toString("base64url")}`;

const { server, base } = await serveSite(site);
const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });

/**
 * Whether each node (or, with `choices`, each node the player may click) is fully in
 * sight: its shape inside the stage and inside the window, the element at its centre
 * the node itself, in the frame and (the frame at that point) in the page. Returns the
 * nodes that are not, with why.
 */
async function hiddenNodes(page, choices) {
  const frameBox = await page.locator("#view").boundingBox();
  const frame = page.frame({ url: /view\.html/ });
  const inFrame = await frame.evaluate((choices) => {
    const stage = document.getElementById("stage").getBoundingClientRect();
    const nodes = Array.from(document.querySelectorAll(choices ? "svg.cmg-scene [data-node].choice" : "svg.cmg-scene [data-node]"));
    return {
      count: nodes.length,
      bad: nodes.flatMap((node) => {
        const box = node.querySelector(".shape").getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        const id = node.getAttribute("data-node");
        const inside = box.left >= stage.left && box.right <= stage.right && box.top >= stage.top && box.bottom <= stage.bottom;
        const inWindow = box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
        const there = document.elementFromPoint(x, y)?.closest("[data-node]");
        if (!inside) return [`${id} outside the stage`];
        if (!inWindow) return [`${id} outside the frame's window`];
        if (there !== node) return [`${id} covered by ${there?.getAttribute("data-node") ?? document.elementFromPoint(x, y)?.tagName}`];
        return [];
      }),
      centres: nodes.map((node) => {
        const box = node.querySelector(".shape").getBoundingClientRect();
        return [node.getAttribute("data-node"), box.left + box.width / 2, box.top + box.height / 2];
      }),
    };
  }, choices);
  const bad = [...inFrame.bad];
  const inPage = await page.evaluate(
    ({ centres, frameBox }) =>
      centres.flatMap(([id, x, y]) => {
        const [px, py] = [frameBox.x + x, frameBox.y + y];
        if (px < 0 || py < 0 || px > innerWidth || py > innerHeight) return [`${id} outside the page's window`];
        return document.elementFromPoint(px, py) === document.getElementById("view") ? [] : [`${id} covered in the page`];
      }),
    { centres: inFrame.centres, frameBox },
  );
  return { count: inFrame.count, bad: [...bad, ...inPage] };
}

/** The page's and the frame's parts that overlap one another (they never should). */
async function overlaps(page) {
  const pairs = async (target, selectors) =>
    target.evaluate((selectors) => {
      const boxes = selectors
        .map((s) => [s, document.querySelector(s)])
        .filter(([, e]) => e !== null && e.getClientRects().length > 0)
        .map(([s, e]) => [s, e.getBoundingClientRect()])
        .filter(([, b]) => b.width > 0 && b.height > 0);
      const found = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const [[a, p], [b, q]] = [boxes[i], boxes[j]];
          // A pixel of shared border is not an overlap.
          if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) found.push(`${a} over ${b}`);
        }
      return found;
    }, selectors);
  const frame = page.frame({ url: /view\.html/ });
  return [
    ...(await pairs(page, ["header", "#text", "#view", "main > .panel"])),
    ...(await pairs(frame, ["header", "#caption", "#colours", "#stage", "#strategy", "footer"])),
  ];
}

/** The text a `#z=` fragment holds, read by zlib. */
function inflated(hash) {
  try {
    return inflateRawSync(Buffer.from(hash.replace(/^#z=/, ""), "base64url")).toString("utf8");
  } catch {
    return null;
  }
}
const editorText = (page) => page.locator("[data-editor]").innerText();
const outcomeOf = (page) => page.locator("#outcome").getAttribute("data-outcome");
/** Waits for the address bar to hold a new link (`#z=`) of `text`; returns its fragment, or null. */
async function linkOf(page, text) {
  for (const started = Date.now(); Date.now() - started < WAIT_MS; await page.waitForTimeout(50)) {
    const hash = new URL(page.url()).hash;
    if (hash.startsWith("#z=") && inflated(hash) === text) return hash;
  }
  return null;
}

/** Waits until the newest text kept in the browser holds `part`. */
const keptFirst = (page, part) =>
  page.waitForFunction((part) => JSON.parse(localStorage.getItem("cmg-playground-texts") ?? "[]")[0]?.text.includes(part), part, { timeout: WAIT_MS });

const paste = pasteText;

/** Two animation frames in the view's frame: the fit after a resize has run. */
const settle = (page) => page.frame({ url: /view\.html/ }).evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

try {
  // 1. The picture fits at every width, in the line view and in play mode.
  for (const [width, height] of [[1600, 900], [1280, 800], [420, 860]]) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(`${base}index.html${oldLink(record)}`);
    const frame = page.frameLocator("#view");
    await frame.locator('[data-node="49"]').first().waitFor({ state: "attached", timeout: WAIT_MS });
    // The strategy panel comes with the second scene and takes room from the picture.
    await frame.locator("body[data-strategy='shown']").waitFor({ state: "attached", timeout: EXPLAIN_WAIT_MS });
    await page.locator("#view").evaluate((view) => view.scrollIntoView({ block: "start" }));
    await settle(page);
    const all = await hiddenNodes(page, false);
    check(all.count === 50 && all.bad.length === 0, `${width} px: all ${all.count} nodes are in sight, the element at each centre the node itself${all.bad.length ? `: ${all.bad.slice(0, 5).join("; ")}` : ""}`);
    const over = await overlaps(page);
    check(over.length === 0, `${width} px: no part of the page covers another${over.length ? `: ${over.join("; ")}` : ""}`);
    await page.screenshot({ path: join(artifacts, `playground-${width}.png`) });
    await frame.locator("#mode").selectOption("play-mouse");
    await frame.locator("[data-node].choice").first().waitFor({ state: "attached", timeout: WAIT_MS });
    await settle(page);
    const choices = await hiddenNodes(page, true);
    check(choices.count > 0 && choices.bad.length === 0, `${width} px, playing the mouse: the ${choices.count} nodes to click are fully in sight${choices.bad.length ? `: ${choices.bad.join("; ")}` : ""}`);
    // One more panel (an element of class "panel" in <main>, as the judge's will be) takes
    // a column of its own, or stacks below, and the picture refits beside it.
    await page.evaluate(() => {
      const panel = Object.assign(document.createElement("section"), { className: "panel", textContent: "another panel ".repeat(40) });
      document.querySelector("main").append(panel);
    });
    await page.locator("#view").evaluate((view) => view.scrollIntoView({ block: "start" }));
    await settle(page);
    const withPanel = await hiddenNodes(page, false);
    const overPanel = await overlaps(page);
    check(withPanel.bad.length === 0 && overPanel.length === 0, `${width} px, with one more panel: nothing covers another, every node in sight${[...withPanel.bad, ...overPanel].length ? `: ${[...withPanel.bad, ...overPanel].slice(0, 5).join("; ")}` : ""}`);
    await page.close();
  }

  // 2. LeetCode's paste, as LeetCode shows it, with line breaks and spaces.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") !== "none", null, { timeout: WAIT_MS });
  await paste(page, "graph = [[2,5],[3],\n  [0,4,5], [1,4,5],\n[2,3],[0,2,3]]\n");
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") === "draw", null, { timeout: WAIT_MS });
  check((await page.locator("#diagnostics li").count()) === 0, "LeetCode's paste `graph = [[2,5],[3],…]` is read as the list: a draw, and no diagnostic");
  await paste(page, "graph=[[1,3],[0],[3],[0,2]]");
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") === "mouse", null, { timeout: WAIT_MS });
  check((await page.locator("#diagnostics li").count()) === 0, "`graph=[[…]]` without spaces too");

  // 3. Short links: the 50-node record's, its length, and its round trip.
  await paste(page, record);
  const link = await linkOf(page, record);
  check(link !== null, "the address bar holds the text, deflated, under #z=");
  const url = `${base}index.html${link}`;
  console.log(`# the 50-node record's link: ${link?.length} characters of fragment, ${url.length} with this test's address (the old #code= link: ${oldLink(record).length})`);
  check(link !== null && link.length < 1000 - 60, "the 50-node record's link is under 1000 characters, with 60 to spare for the site's address");
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForFunction((moves) => document.querySelector("#outcome")?.getAttribute("data-moves") === moves, "226", { timeout: WAIT_MS });
  check((await linkOf(other, record)) === link, "the link opens the record's exact text (the page's own link is the same)");
  await other.close();

  // An old #code= link still opens.
  const older = "# an old link\n0 -- 1\n1 -- 2\n";
  await page.goto(`${base}index.html${oldLink(older)}`);
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") === "mouse", null, { timeout: WAIT_MS });
  check((await editorText(page)).startsWith("# an old link"), "an old #code= link opens its text");
  check((await linkOf(page, older)) !== null, "and the address bar moves to the new form");

  // 4. The work kept: a reload without a link restores the last text.
  await page.locator("[data-editor]").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("# my work\n");
  const mine = `${older}# my work\n`;
  await keptFirst(page, "# my work");
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => document.querySelector("[data-editor]")?.textContent?.includes("# my work"), null, { timeout: WAIT_MS });
  check((await linkOf(page, mine)) !== null, "a page opened without a link restores the last text, exactly");
  // A link wins, and the text kept is still there, in the menu.
  const linked = "# from a link\n0 -- 1 -- 2\n";
  await page.goto(`${base}index.html${await page.evaluate(async (text) => {
    const bytes = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const data = new Uint8Array(await new Response(bytes).arrayBuffer());
    return `#z=${btoa(String.fromCharCode(...data)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
  }, linked)}`);
  await page.waitForFunction(() => document.querySelector("[data-editor]")?.textContent?.includes("# from a link"), null, { timeout: WAIT_MS });
  check(true, "a link wins over the kept text");
  await page
    .waitForFunction(() => Array.from(document.querySelectorAll("#kept option")).some((o) => o.textContent.startsWith("0 -- 1 (5 lines")), null, { timeout: WAIT_MS })
    .catch(() => undefined);
  const choice = await page.$$eval("#kept option", (options) => options.find((o) => o.textContent.startsWith("0 -- 1 (5 lines"))?.value ?? null);
  check(choice !== null, `the text kept before is in the menu of your texts (${await page.$$eval("#kept option", (options) => options.map((o) => o.textContent).join(" | "))})`);
  if (choice !== null) await page.selectOption("#kept", choice);
  check((await linkOf(page, mine)) !== null, "choosing it brings it back");
  await keptFirst(page, "# my work");

  // A broken link says what was wrong, and the editor holds the kept text.
  // Opened in a new page, and (the last) pasted into the address bar of an open one.
  for (const [hash, why, fresh] of [["#z=not*base64", /base64/, true], ["#z=_____w", /deflate/, true], ["#code=_w", /UTF-8/, true], ["#z=AAAA", /deflate/, false]]) {
    if (fresh) await page.goto("about:blank");
    await page.goto(`${base}index.html${hash}`);
    const shown = page.locator("[data-notice]");
    await shown.waitFor({ timeout: WAIT_MS });
    const said = await shown.innerText();
    check(why.test(said) && (await shown.isVisible()), `the broken link ${hash}${fresh ? "" : " (in an open page)"} shows a notice: "${said.replace(/\s*close$/, "")}"`);
    check((await linkOf(page, mine)) !== null, "and the editor holds the kept text");
  }
  await page.screenshot({ path: join(artifacts, "playground-notice.png") });
  check(errors.length === 0, `no errors in the page${errors.length ? `: ${errors.join("; ")}` : ""}`);
  await context.close();

  // 5. Hovers in Markdown; the hints' switch, off by default on a narrow screen.
  for (const [width, on] of [[1280, true], [420, false]]) {
    const narrow = await browser.newPage({ viewport: { width, height: 800 } });
    await narrow.goto(`${base}index.html${oldLink("node 1 \"start\"\n0 -- 1 -- 2\n")}`);
    await narrow.locator(".cmg-hint").first().waitFor({ state: "attached", timeout: WAIT_MS });
    const shown = async () => (await narrow.locator(".cmg-hint").first().isVisible()) && (await narrow.locator("#hints").isChecked());
    check((await shown()) === on, `${width} px: the inlay hints are ${on ? "on" : "off"} by default`);
    await narrow.locator("#hints").click();
    check((await shown()) === !on, `${width} px: the switch turns them ${on ? "off" : "on"}`);
    if (width === 1280) {
      await narrow.locator(".cmg-token-mouse-start").first().hover();
      const hover = narrow.locator(".cmg-hover");
      await hover.waitFor({ timeout: WAIT_MS });
      const bold = await hover.locator("strong").first().innerText();
      const text = await hover.innerText();
      check(bold.startsWith("node 1") && !text.includes("**"), `the hover is drawn from its Markdown: bold "${bold}", no raw ** in "${text.replace(/\n/g, " / ")}"`);
      await narrow.screenshot({ path: join(artifacts, "playground-hover.png") });
    }
    await narrow.close();
  }

  // 6. The exports, from the view in the playground's frame, and "Copy as Markdown".
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.goto(`${base}index.html${oldLink("[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]\n")}`);
    const frame = page.frameLocator("#view");
    await frame.locator("body[data-strategy='shown']").waitFor({ state: "attached", timeout: EXPLAIN_WAIT_MS });
    // Played one move, so that the picture "as shown" differs from the scene's own.
    await frame.locator("#mode").selectOption("play-mouse");
    await frame.locator("[data-node].choice").first().waitFor({ state: "attached", timeout: WAIT_MS });
    const saved = async (kind) => {
      const [file] = await Promise.all([page.waitForEvent("download", { timeout: WAIT_MS }), frame.locator(`[data-export="${kind}"]`).click()]);
      return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
    };
    const svg = await saved("svg");
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const legend = Array.from(doc.querySelectorAll(".legend text, g text")).map((t) => t.textContent);
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        nodes: doc.querySelectorAll("[data-node]").length,
        outcomes: Array.from(doc.querySelectorAll("[data-node] > *:first-child")).map((shape) => shape.getAttribute("fill") ?? undefined),
        tokens: doc.querySelectorAll("[data-token]").length,
        rootStyle: doc.documentElement.hasAttribute("style"),
        legend: legend.includes("mouse wins") && legend.includes("cat start 2"),
        choices: doc.querySelectorAll("[data-node].choice, [data-node][class~='choice']").length,
      };
    }, svg.bytes.toString("utf8"));
    check(svg.name.endsWith(".svg") && parsed.error === null && parsed.nodes === 6, `[data-export="svg"] downloads ${svg.name}, an SVG that parses with the 6 nodes${parsed.error ? `: ${parsed.error}` : ""}`);
    check(parsed.tokens === 2 && parsed.legend, "with the tokens where they stand, and the legend");
    check(parsed.outcomes.every((fill) => fill !== undefined && fill !== "none"), `every node's colour is written on it (no stylesheet needed): ${parsed.outcomes.join(", ")}`);
    const png = await saved("png");
    writeFileSync(join(artifacts, "playground-export.png"), png.bytes);
    const signature = png.bytes.subarray(0, 8).toString("hex") === "89504e470d0a1a0a";
    const size = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
      return [bitmap.width, bitmap.height];
    }, png.bytes.toString("base64"));
    check(png.name.endsWith(".png") && signature && size[0] > 400 && size[1] > 300, `[data-export="png"] downloads ${png.name}, a PNG that decodes (${size.join(" × ")})`);
    await page.locator("#copy-markdown").click();
    await page.waitForFunction(() => document.querySelector("#share")?.textContent === "copied as Markdown", null, { timeout: WAIT_MS });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const link = copied.match(/\]\((http[^)]+)\)/)?.[1] ?? "";
    check(
      copied.startsWith("**draw**") && copied.includes("graph = [[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]") && inflated(new URL(link).hash) === "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]\n",
      "Copy as Markdown gives the outcome, LeetCode's input and the link to the text",
    );
    check(errors.length === 0, `no errors in the page or its frame (the content policies allow the exports)${errors.length ? `: ${errors[0].slice(0, 200)}` : ""}`);
    check(!parsed.rootStyle, "the SVG carries no style attribute of the page's");
    await context.close();
  }

  // 7. Positions stay put: a comment moves no node; they come back after a reload.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base}index.html${oldLink(record)}`);
    const frame = page.frameLocator("#view");
    await frame.locator("body[data-strategy='shown']").waitFor({ state: "attached", timeout: EXPLAIN_WAIT_MS });
    const where = () => frame.locator("svg.cmg-scene [data-node]").evaluateAll((nodes) => Object.fromEntries(nodes.map((n) => [n.getAttribute("data-node"), n.getAttribute("transform")])));
    const first = await where();
    // The view gets the new text once typing pauses, and draws its scene twice (the
    // second with the what-if, seconds later on this graph).
    const typed = async (text) => {
      await page.locator("[data-editor]").click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type(text);
      await page.waitForTimeout(400);
      await frame.locator("body[data-strategy='shown']").waitFor({ state: "attached", timeout: EXPLAIN_WAIT_MS });
      await page.waitForTimeout(1500);
    };
    // A new edge first: the layout starts from the last picture and existing nodes move little.
    await typed("7 -- 44\n");
    const before = await where();
    const shift = (a, b) => {
      const [x0, y0] = a.match(/-?[\d.]+/g).map(Number);
      const [x1, y1] = b.match(/-?[\d.]+/g).map(Number);
      return Math.hypot(x1 - x0, y1 - y0);
    };
    const shifts = Object.keys(first).map((id) => shift(first[id], before[id])).sort((a, b) => a - b);
    console.log(`# a new edge on the 50-node record: nodes moved by a median of ${shifts[25].toFixed(0)} px, at most ${shifts[49].toFixed(0)} px`);
    await typed("# a comment, then the same graph\n");
    const after = await where();
    const moved = Object.keys(before).filter((id) => before[id] !== after[id]);
    check(Object.keys(before).length === 50 && moved.length === 0, `a comment moves no node${moved.length ? ` (moved: ${moved.join(", ")})` : ""}`);
    // Whatever the layout answers: a scene of the same graph with every node elsewhere
    // (as a layout might give after a comment) moves nothing in the view; one with an
    // edge fewer is drawn where it says.
    const sceneNow = await page.evaluate(async (text) => {
      const module = await WebAssembly.compileStreaming(fetch("cmg.wasm"));
      const worker = new Worker("worker.js");
      const ask = (message) => new Promise((answered) => { worker.onmessage = (event) => answered(event.data); worker.postMessage(message); });
      worker.postMessage({ type: "module", module });
      await ask({ type: "open", generation: 1, text });
      const { answer } = await ask({ type: "request", id: 0, request: { method: "scene", explain: false } });
      worker.terminate();
      return answer;
    }, `${record}7 -- 44\n`);
    const shifted = (scene) => ({ ...scene, nodes: scene.nodes.map((n) => ({ ...n, x: n.x + 100, y: n.y + 50 })) });
    const post = (scene) => page.evaluate((scene) => document.getElementById("view").contentWindow.postMessage({ type: "scene", scene }, "*"), scene);
    await post(shifted(sceneNow));
    await page.waitForTimeout(300);
    const kept = await where();
    check(Object.keys(before).every((id) => kept[id] === before[id]), "a scene of the same graph laid out elsewhere moves no node in the view");
    await post(shifted({ ...sceneNow, edges: sceneNow.edges.slice(1) }));
    // Drawn when it is drawn: polled, not a fixed wait that a loaded machine outlasts.
    let other = await where();
    for (const started = Date.now(); Date.now() - started < WAIT_MS; await page.waitForTimeout(50)) {
      other = await where();
      if (Object.keys(before).every((id) => other[id] !== before[id])) break;
    }
    check(Object.keys(before).every((id) => other[id] !== before[id]), "one with an edge fewer is drawn where its layout says");
    await post(sceneNow);
    await page.waitForTimeout(300);
    await page.goto("about:blank");
    await page.goto(`${base}index.html`);
    await frame.locator('[data-node="49"]').first().waitFor({ state: "attached", timeout: WAIT_MS });
    await page.waitForTimeout(500);
    const reloaded = await where();
    const jumped = Object.keys(before).filter((id) => before[id] !== reloaded[id]);
    check(jumped.length === 0, `after a reload every node is where it was${jumped.length ? ` (moved: ${jumped.join(", ")})` : ""}`);
    // A dragged node stays where it is put, through an edit of the graph, until a double click.
    await frame.locator("body[data-strategy='shown']").waitFor({ state: "attached", timeout: EXPLAIN_WAIT_MS });
    const node = frame.locator('svg.cmg-scene [data-node="49"]');
    await dragNode(page, node, 60, 40);
    const put = await node.getAttribute("transform");
    check(put !== reloaded["49"] && (await node.getAttribute("data-pinned")) === "true", `a dragged node moves and is pinned (${reloaded["49"]} to ${put})`);
    // The pin is saved when the drag ends, with no new scene to wait for; a reload right
    // away draws the node pinned from the first picture (the pins reach the view before it).
    await page.waitForFunction(() => JSON.parse(localStorage.getItem("cmg-playground-texts") ?? "[]")[0]?.pins?.["49"] !== undefined, null, { timeout: WAIT_MS });
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem("cmg-playground-texts"))[0].pins["49"]);
    check(`translate(${saved.join(" ")})` === put, `the pin is kept as soon as the drag ends (${saved})`);
    const reloadedPinned = async (what) => {
      await page.goto("about:blank");
      await page.goto(`${base}index.html`);
      await frame.locator('svg.cmg-scene [data-node="49"]').waitFor({ state: "attached", timeout: WAIT_MS });
      const [pinned, at] = [await node.getAttribute("data-pinned"), await node.getAttribute("transform")];
      check(pinned === "true" && at === put, `${what} (${pinned}, ${at})`);
    };
    await reloadedPinned("after a reload right after the drag, the node is drawn pinned where it was put");
    await typed("3 -- 40\n");
    check((await node.getAttribute("transform")) === put, "after a new edge, the pinned node is still where it was put");
    await keptFirst(page, "3 -- 40");
    await reloadedPinned("after an edit and a reload, it is still pinned there");
    await node.dblclick();
    check((await node.getAttribute("data-pinned")) === null && (await node.getAttribute("transform")) !== put, "a double click unpins it, back where the layout puts it");
    await context.close();
  }

  // 7b. A file with every rule, through the WebAssembly: its holes, starts and one-way
  // edges drawn, its game in words, and play along a one-way edge in its direction only.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${base}index.html${oldLink(readFileSync(join(root, "examples/every-rule.cmg"), "utf8"))}`);
    const frame = await (await page.locator("#view").elementHandle({ timeout: WAIT_MS })).contentFrame();
    // The game in the hover's words, as the scene carries it (web/test/fixtures, kept current by the Rust tests).
    const { game } = JSON.parse(readFileSync(join(root, "web/test/fixtures/every-rule.json"), "utf8")).rules;
    await checkEveryRule(frame, game, check, (name) => page.screenshot({ path: join(artifacts, `playground-${name}.png`) }));
    check(errors.length === 0, `no errors in the playground with every rule${errors.length ? `: ${errors[0].slice(0, 200)}` : ""}`);
    await context.close();
  }

  // 8. The dark theme follows the system's (prefers-color-scheme), page, editor and view.
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(`${base}index.html${oldLink("[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]\n")}`);
    const frame = page.frameLocator("#view");
    await frame.locator('[data-node="5"]').first().waitFor({ state: "attached", timeout: WAIT_MS });
    /** The relative luminance (0 black, 1 white) of a computed colour. */
    const luminance = (css) => {
      const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => Number(v) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (target, selector) => target.locator(selector).first().evaluate((e) => getComputedStyle(e).backgroundColor);
    const page_ = luminance(await background(page, "body"));
    const gutter = luminance(await background(page, ".cm-gutters"));
    const editorText = luminance(await page.locator(".cm-content[data-editor]").evaluate((e) => getComputedStyle(e).color));
    check(page_ < 0.05 && gutter < 0.05 && editorText > 0.4, `the page and the editor are dark, the text light (luminance ${page_.toFixed(3)}, ${gutter.toFixed(3)}, ${editorText.toFixed(2)})`);
    const viewBody = await frame.locator("body").evaluate((e) => ({ dark: e.classList.contains("cmg-dark"), background: getComputedStyle(e).backgroundColor }));
    const stage = await frame.locator("svg.cmg-scene .background").evaluate((e) => getComputedStyle(e).fill);
    check(viewBody.dark && luminance(viewBody.background) < 0.05 && luminance(stage) < 0.05, "the game view is dark too, its picture's background included");
    const fills = await frame.locator("svg.cmg-scene [data-node][data-outcome] > .shape").evaluateAll((shapes) => shapes.map((s) => [s.parentElement.getAttribute("data-outcome"), getComputedStyle(s).fill]));
    const byOutcome = new Map(fills);
    check(byOutcome.size === 3 && new Set(byOutcome.values()).size === 3, `the three outcomes keep three colours in the dark (${[...byOutcome].map(([o, f]) => `${o} ${f}`).join(", ")})`);
    await page.screenshot({ path: join(artifacts, "playground-dark.png") });
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
finish("playground-ui");
