// The playground in a real browser: the built site served from 127.0.0.1 by a static
// server of this test, opened in headless Chromium (Debian's package, never a downloaded
// one) through playwright-core. Opens a share link, checks the outcome and diagnostics
// against `cmg solve`, types and sees them change and the fragment follow, opens an
// example, checks the game view's nodes and a click on one selecting its mention, and
// measures first paint, keystroke to outcome and the layout of 300 nodes. Screenshots go to target/artifacts/.
//
// Usage: node test/playground.mjs [SITE_DIR]   (default: $CARGO_TARGET_DIR/playground)

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { chromium } from "playwright-core";

const root = resolve(new URL("../..", import.meta.url).pathname);
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const site = resolve(process.argv[2] ?? join(target, "playground"));
const cmg = resolve(process.env.CMG ?? join(target, "debug/cmg"));
const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const artifacts = join(target, "artifacts");
mkdirSync(artifacts, { recursive: true });
const WAIT_MS = 10000;

let failures = 0;
function check(condition, what) {
  if (condition) {
    console.log(`ok - ${what}`);
  } else {
    failures++;
    console.log(`not ok - ${what}`);
  }
}

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
};
/** Any static host will do: this one serves files and nothing else. */
const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
  const file = join(site, path === "/" ? "index.html" : path);
  if (!file.startsWith(site) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  response.end(readFileSync(file));
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const base = `http://127.0.0.1:${server.address().port}/`;

/** A connected graph of `n` nodes and about 3n edges, from a fixed seed; `1 -- 2` first. */
function bigGraph(n, seed) {
  let state = seed;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
  const lines = ["1 -- 2"];
  for (let i = 3; i < n; i++) lines.push(`${1 + Math.floor(random() * (i - 1))} -- ${i}`);
  for (let i = 0; i < 2 * n; i++) {
    const a = 1 + Math.floor(random() * (n - 1));
    const b = 1 + Math.floor(random() * (n - 1));
    if (a < b) lines.push(`${a} -- ${b}`);
  }
  return `${[...new Set(lines)].join("\n")}\n0 -- ${n - 1}\n`;
}

const encode = (text) => Buffer.from(text, "utf8").toString("base64url");
const decode = (fragment) => Buffer.from(fragment.replace(/^#code=/, ""), "base64url").toString("utf8");
const nativeSolve = (file) => JSON.parse(execFileSync(cmg, ["solve", "--json", file], { encoding: "utf8" }));

const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));

  // A share link: the text with a self-loop, whose outcome the native build knows.
  const shared = "# shared\nnode 0 \"hole\"\n0 -- 3 -- 1\n2 -- 3\n1 -- 1\n";
  const started = Date.now();
  await page.goto(`${base}index.html#code=${encode(shared)}`);
  const outcome = page.locator("[data-outcome]").first();
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") !== "none", null, { timeout: WAIT_MS });
  const firstOutcomeMs = Date.now() - started;
  const paint = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
  console.log(`# first contentful paint: ${paint === null ? "?" : paint.toFixed(0)} ms; first outcome after ${firstOutcomeMs} ms`);
  check((await page.locator("[data-editor]").innerText()).includes("# shared"), "the share link opens its text in the editor");
  check((await outcome.getAttribute("data-outcome")) === "cat" && (await outcome.getAttribute("data-moves")) === "2", "the outcome is cat in 2, as cmg solve says");
  check((await page.locator('#diagnostics [data-code="self-loop"][data-severity="warning"], #diagnostics [data-code="self-loop"][data-severity="error"]').count()) === 1, "the self-loop is shown with its code and severity");
  await page.waitForSelector("#view", { timeout: WAIT_MS });
  const frame = page.frameLocator("#view");
  await frame.locator('[data-node="3"]').first().waitFor({ timeout: WAIT_MS });
  check((await frame.locator("[data-node][data-outcome]").count()) >= 4, "the game view draws the nodes with their outcomes");
  await page.screenshot({ path: join(artifacts, "playground-shared.png") });

  // Typing: remove the cat's way to node 3, so that the mouse walks to the hole.
  const editor = page.locator("[data-editor]");
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("1 -- 4 -- 0\n");
  const typedAt = Date.now();
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") === "mouse", null, { timeout: WAIT_MS });
  console.log(`# typing to a new outcome: ${Date.now() - typedAt} ms (includes the last keystrokes' own analyses)`);
  check((await outcome.getAttribute("data-moves")) === "3", "after typing, the outcome changes to mouse in 3");
  const followed = decode(new URL(page.url()).hash);
  check(followed === `${shared}1 -- 4 -- 0\n`, "the fragment follows the typed text");
  // The hints, colours and fixes come from the view's worker once typing pauses.
  await page.locator(".cmg-hint").first().waitFor({ timeout: WAIT_MS });
  check((await page.locator(".cmg-hint").count()) > 0, "the text has inlay hints (the outcome, the nodes')");
  check(
    (await page.locator(".cmg-token-keyword").first().innerText()) === "node" && (await page.locator(".cmg-token-hole").count()) > 0,
    "the text is coloured by the language server's token kinds",
  );
  // The self-loop's quick fix, from the list of diagnostics, clears it.
  const fix = page.locator('#diagnostics [data-code="self-loop"] button.fix').first();
  await fix.waitFor({ timeout: WAIT_MS });
  const fixTitle = await fix.innerText();
  await fix.click();
  await page.waitForFunction(() => document.querySelector('#diagnostics [data-code="self-loop"]') === null, null, { timeout: WAIT_MS });
  check(!decode(new URL(page.url()).hash).includes("1 -- 1"), `the quick fix "${fixTitle}" removes the self-loop and its diagnostic`);
  await page.screenshot({ path: join(artifacts, "playground-typed.png") });

  // Picture to text: a click on node 3 selects its first mention.
  await frame.locator('[data-node="3"]').first().click();
  await page.waitForFunction(() => window.getSelection()?.toString() === "3" || document.activeElement?.matches("[data-editor]"), null, { timeout: WAIT_MS });
  const selected = await page.evaluate(() => {
    const view = document.querySelector(".cm-content");
    return view === null ? "" : window.getSelection()?.toString() ?? "";
  });
  check(selected === "3", `a click on node 3 in the view selects its mention in the text (selected: ${JSON.stringify(selected)})`);

  // Text to picture: the cursor on a mention of node 4 marks node 4 in the view.
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("ArrowUp");
  // The line is `1 -- 4 -- 0`: the cursor goes just before the 4.
  await page.keyboard.press("Home");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  await frame.locator('[data-node="4"][data-selected]').waitFor({ state: "attached", timeout: WAIT_MS });
  check((await frame.locator("[data-selected]").count()) === 1, "the cursor on a mention of node 4 marks node 4, and only it, in the view");
  await page.screenshot({ path: join(artifacts, "playground-selected.png") });

  // An example from the menu, checked against the native build.
  const example = "records/n50-226-from-leetcode.cmg";
  await page.selectOption("#examples", example);
  const expected = nativeSolve(join(root, "examples", example));
  await page.waitForFunction(
    (moves) => document.querySelector("#outcome")?.getAttribute("data-moves") === moves,
    String(expected.moves ?? ""),
    { timeout: WAIT_MS },
  );
  check((await outcome.getAttribute("data-outcome")) === expected.outcome, `the example ${example} shows ${expected.outcome} in ${expected.moves}, as cmg solve does`);
  check(decode(new URL(page.url()).hash) === readFileSync(join(root, "examples", example), "utf8"), "the fragment follows the example");
  await frame.locator('[data-node="49"]').first().waitFor({ state: "attached", timeout: WAIT_MS });
  await page.screenshot({ path: join(artifacts, "playground-example.png") });

  // Keystroke to outcome on the 50-node record: an edit that changes the outcome.
  // Typing `#` in front of a line of the mouse's edges and deleting it again, five times
  // each: every keystroke changes the outcome.
  const times = [];
  const mouseLine = readFileSync(join(root, "examples", example), "utf8").split("\n").findIndex((line) => line.startsWith("1 -- "));
  await editor.click();
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < mouseLine; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Home");
  for (let i = 0; i < 10; i++) {
    // Measured in the page: from the key's event to the outcome's change.
    times.push(await timeKeystroke(page, i % 2 === 0 ? "#" : "Delete", "#outcome", { attributes: true, attributeFilter: ["data-moves", "data-outcome"] }));
    if (i % 2 === 0) await page.keyboard.press("ArrowLeft");
  }
  console.log(`# keystroke to a changed outcome on ${example}, in order: ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
  times.sort((a, b) => a - b);
  console.log(`# median ${times[5].toFixed(0)} ms`);

  // Pasting: a LeetCode input works as it does in a file.
  const paste = (text) =>
    page.evaluate((text) => {
      const content = document.querySelector("[data-editor]");
      content.focus();
      document.execCommand("selectAll");
      const data = new DataTransfer();
      data.setData("text/plain", text);
      content.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  await paste("[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]");
  await page.waitForFunction(() => document.querySelector("#outcome")?.getAttribute("data-outcome") === "draw", null, { timeout: WAIT_MS });
  check((await outcome.getAttribute("data-moves")) === "", "a pasted LeetCode input is a draw, as LeetCode's first example says");

  // A 1000-node graph: keystroke to outcome, measured in the page as above.
  await paste(bigGraph(1000, 7));
  await page.waitForFunction(() => /1000 nodes/.test(document.querySelector("#status")?.textContent ?? ""), null, { timeout: WAIT_MS });
  const bigTimes = [];
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < 6; i++) {
    // `1 -- 2` is the first line: commenting it out and back changes the edge count.
    bigTimes.push(await timeKeystroke(page, i % 2 === 0 ? "#" : "Delete", "#status", { childList: true, characterData: true, subtree: true }));
    if (i % 2 === 0) await page.keyboard.press("ArrowLeft");
  }
  console.log(`# keystroke to the new analysis shown, 1000 nodes: ${bigTimes.map((t) => t.toFixed(0)).join(", ")} ms`);

  // Laying out 300 nodes in the page: a worker of the site's own, asked for the scene of a
  // 300-node graph without the what-if, from scratch each time (printed, not checked).
  const layoutMs = await page.evaluate(async (text) => {
    const module = await WebAssembly.compileStreaming(fetch("cmg.wasm"));
    const worker = new Worker("worker.js");
    const ask = (message) =>
      new Promise((answered) => {
        worker.onmessage = (event) => answered(event.data);
        worker.postMessage(message);
      });
    worker.postMessage({ type: "module", module });
    await ask({ type: "open", generation: 1, text });
    const times = [];
    for (let id = 0; id < 5; id++) {
      const started = performance.now();
      const { answer } = await ask({ type: "request", id, request: { method: "scene", explain: false } });
      times.push(performance.now() - started);
      if (answer?.nodes?.length !== 300) throw new Error(`no scene of 300 nodes: ${JSON.stringify(answer)?.slice(0, 200)}`);
    }
    worker.terminate();
    return times.sort((a, b) => a - b);
  }, bigGraph(300, 2));
  console.log(`# the scene of a 300-node graph laid out from scratch in a worker of the page: ${layoutMs.map((t) => t.toFixed(0)).join(", ")} ms (median ${layoutMs[2].toFixed(0)})`);

  // A paste of 2 MB: beyond the live-solve limit, said so, and the page stays usable.
  const huge = bigGraph(40000, 8);
  await paste(huge);
  await page.waitForSelector('#diagnostics [data-code="too-large"]', { timeout: 4 * WAIT_MS });
  check((await outcome.getAttribute("data-outcome")) === "none", `a paste of ${(huge.length / 1e6).toFixed(1)} MB is not solved live, and a too-large diagnostic says so`);
  check((await page.locator("#share").innerText()).includes("too long"), "a text too long for a link says so");
  await page.screenshot({ path: join(artifacts, "playground-large-paste.png") });

  check(errors.length === 0, `no errors in the page${errors.length ? `: ${errors.join("; ")}` : ""}`);
} finally {
  await browser.close();
  server.close();
}
console.log(failures === 0 ? "# playground: all passed" : `# playground: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);

/**
 * Presses `key` and returns the milliseconds, measured in the page, from the key's event
 * to the first change of the element `selector` that `observed` (MutationObserver
 * options) sees. The watch is set up before the key is pressed.
 */
async function timeKeystroke(page, key, selector, observed) {
  await page.evaluate(
    ([selector, observed]) => {
      const watch = { at: null, took: null };
      window.cmgKeystroke = watch;
      document.addEventListener("keydown", () => (watch.at = performance.now()), { capture: true, once: true });
      new MutationObserver((_, observer) => {
        if (watch.at === null) return;
        observer.disconnect();
        watch.took = performance.now() - watch.at;
      }).observe(document.querySelector(selector), observed);
    },
    [selector, observed],
  );
  await page.keyboard.press(key);
  await page.waitForFunction(() => window.cmgKeystroke.took !== null, null, { timeout: WAIT_MS });
  return page.evaluate(() => window.cmgKeystroke.took);
}
