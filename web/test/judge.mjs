// The judge panel in a real browser: the built site served from 127.0.0.1 by this test,
// opened in headless Chromium (Debian's package, never a downloaded one) through
// playwright-core. Right Python and JavaScript solutions pass; a Python search cut off
// after 2n turns and a JavaScript search that caches provisional draws are caught on the
// smallest graphs they fail, verified by the native build; a JavaScript infinite loop is
// a time limit while the main editor still answers keystrokes; "open" loads the
// counterexample; a Pyodide that does not start says why, and its load does not wait for
// the check of its files; no request leaves the page's origin. Prints what it measures
// (Pyodide's load, graphs a second) for BENCHMARKS.md. A screenshot goes to
// target/artifacts/playground-judge.png.
//
// Usage: node test/judge.mjs [SITE_DIR]   (default: $CARGO_TARGET_DIR/playground)
// With JUDGE_BENCH=1 it also measures graphs a second without a bound on time.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { chromium } from "playwright-core";

const root = resolve(new URL("../..", import.meta.url).pathname);
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const site = resolve(process.argv[2] ?? join(target, "playground"));
const cmg = resolve(process.env.CMG ?? join(target, "debug/cmg"));
const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const artifacts = join(target, "artifacts");
mkdirSync(artifacts, { recursive: true });
const fixture = (name) => readFileSync(join(root, "tests/judge", name), "utf8");
/** The solution `base` of tests/judge/ with `from` made `to` (which must change it), and its path as `name` in a folder of its own, for `cmg judge`. */
const variant = (base, name, from, to) => {
  const code = fixture(base).replace(from, to);
  check(code !== fixture(base), `${name} is made from ${base}`);
  const path = join(mkdtempSync(join(tmpdir(), "cmg-judge-web-")), name);
  writeFileSync(path, code);
  return { code, path };
};

let failures = 0;
function check(condition, what) {
  console.log(`${condition ? "ok" : "not ok"} - ${what}`);
  if (!condition) failures++;
}

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".zip": "application/zip",
};
/** A static host, as any will do; it counts what it serves, and lets the browser cache. */
const served = [];
/** Set while a part checks a start of Pyodide that fails: the file of Pyodide's the site then does not have. */
let pyodideGone = null;
/**
 * Set while a part checks that Pyodide's load does not wait for the check of its files:
 * the answer to the first HEAD request of pyodide/, held until Pyodide's module is asked for
 * (or HELD_MS have passed, so that a load that waits for them still ends), and whether it
 * was asked for while it was held.
 */
let headsHeld = null;
const HELD_MS = 10000;
const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
  const file = join(site, path === "/" ? "index.html" : path);
  served.push(path);
  const answer = () => {
    if (!file.startsWith(site) || !statSync(file, { throwIfNoEntry: false })?.isFile() || (pyodideGone !== null && path === `/pyodide/${pyodideGone}`)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", "cache-control": "max-age=3600" });
    response.end(readFileSync(file));
  };
  if (headsHeld !== null && path.startsWith("/pyodide/")) {
    // One answer held is enough: a check that waits for all of them waits for it. Holding
    // one keeps the browser's other connections to the site free for the module's GET,
    // whichever of the requests reaches the server first.
    const held = headsHeld;
    if (request.method === "HEAD" && !held.released && held.answers.length === 0) {
      held.answers.push(answer);
      setTimeout(() => held.release(false), HELD_MS).unref();
      return;
    }
    if (request.method === "GET" && path === "/pyodide/pyodide.mjs") held.release(true);
  }
  answer();
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const base = `http://127.0.0.1:${server.address().port}/`;
const origin = new URL(base).origin;

const link = (code, lang) => `${base}index.html#judge=${Buffer.from(code, "utf8").toString("base64url")}&lang=${lang}`;
const nativeJudge = (name, args) =>
  JSON.parse(execFileSync(cmg, ["judge", resolve(root, "tests/judge", name), "--json", ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).toString());
/** `cmg judge` exits 1 on a counterexample: its JSON all the same. */
const nativeJudgeFailing = (name, args) => {
  try {
    return nativeJudge(name, args);
  } catch (error) {
    return JSON.parse(error.stdout);
  }
};
const nativeSolve = (lists) => {
  const file = join(mkdtempSync(join(tmpdir(), "cmg-judge-web-")), "graph.json");
  writeFileSync(file, JSON.stringify(lists));
  return JSON.parse(execFileSync(cmg, ["solve", "--json", file], { encoding: "utf8" }));
};

const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const foreign = [];
context.on("request", (request) => {
  const url = request.url();
  if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin) foreign.push(url);
});
const errors = [];
/** JUDGE_ONLY=WORD runs only the parts whose name holds WORD (while working on one). */
const wanted = (name) => process.env.JUDGE_ONLY === undefined || name.includes(process.env.JUDGE_ONLY);

/** Opens a judge link, sets the budget, runs; the verdict element once it is done, and the time it took. */
async function judge(page, { seconds, graphs = null, wait = 240000 }) {
  await page.locator("[data-judge-seconds]").fill(String(seconds));
  if (graphs !== null) {
    await page.locator(".judge-more summary").click();
    await page.locator("[data-judge-graphs]").fill(String(graphs));
  }
  const started = Date.now();
  await page.locator("[data-judge-run]").click();
  await page.waitForFunction(
    () => !["running", ""].includes(document.querySelector("[data-verdict]")?.getAttribute("data-verdict") ?? ""),
    null,
    { timeout: wait, polling: 100 },
  );
  const verdict = page.locator("[data-verdict]");
  return {
    verdict: await verdict.getAttribute("data-verdict"),
    nodes: await verdict.getAttribute("data-nodes"),
    graph: await verdict.getAttribute("data-graph"),
    report: await page.locator("[data-judge-report]").innerText(),
    ms: Date.now() - started,
    loadMs: Number(await page.locator("[data-judge-progress]").getAttribute("data-load-ms")),
  };
}

async function newPage(url) {
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(url);
  await page.locator("[data-judge-run]").waitFor({ timeout: 10000 });
  return page;
}

try {
  // The panel is there on `#judge`, and loads nothing of the judge before a run.
  if (wanted("panel")) {
    const page = await newPage(`${base}index.html#judge`);
    check(await page.locator("#judge").isVisible(), "index.html#judge opens the panel");
    check((await page.locator("select[data-judge-lang] option").evaluateAll((o) => o.map((x) => x.value))).join() === "python,javascript", "the language picker offers python and javascript");
    check((await page.locator("[data-judge-seconds]").inputValue()) === "30", "the time budget is 30 s by default");
    check(!served.some((path) => path.includes("judge.wasm") || path.includes("pyodide") || path.includes("judge-worker")), "nothing of the judge is loaded before a run");
    await page.close();
  }

  // A right JavaScript solution: the same graphs and verdict as `cmg judge --graphs N --seed K`.
  if (wanted("right.js")) {
    const page = await newPage(link(fixture("right.js"), "javascript"));
    check((await page.locator("[data-judge-lang]").inputValue()) === "javascript", "the link's lang picks the language");
    const result = await judge(page, { seconds: 120, graphs: 20000 });
    check(result.verdict === "no-counterexample", `right.js passes 20 000 graphs (${result.verdict})`);
    const native = nativeJudge("right.js", ["--graphs", "20000", "--seed", "1"]);
    check(native.verdict === "no-counterexample" && result.report.includes("answered all 20000 graphs right"), "as cmg judge --graphs 20000 --seed 1 does");
    console.log(`# JavaScript right.js: 20 000 graphs in ${(result.ms / 1000).toFixed(1)} s in the browser; cmg judge: ${native.seconds.toFixed(1)} s`);
    await page.close();
  }

  // A right Python solution, in Pyodide.
  if (wanted("right.py")) {
    const page = await newPage(link(fixture("right.py"), "python"));
    const result = await judge(page, { seconds: 120, graphs: 3000 });
    check(result.verdict === "no-counterexample", `right.py passes 3 000 graphs in Pyodide (${result.verdict}: ${result.report.slice(0, 300)})`);
    const native = nativeJudge("right.py", ["--graphs", "3000", "--seed", "1"]);
    console.log(`# Python right.py: 3 000 graphs in ${(result.ms / 1000).toFixed(1)} s in the browser, of which ${(result.loadMs / 1000).toFixed(1)} s to load Pyodide and run the file; cmg judge: ${native.seconds.toFixed(1)} s`);
    check(served.filter((path) => path.startsWith("/pyodide/")).length >= 3, "Pyodide comes from the site's own pyodide/ folder");
    await page.close();
  }

  // A JavaScript search that caches provisional draws: caught where `cmg judge` catches
  // it, and "open" puts the counterexample in the editor.
  if (wanted("provisional_draw.js")) {
    const page = await newPage(link(fixture("provisional_draw.js"), "javascript"));
    const result = await judge(page, { seconds: 60 });
    const native = nativeJudgeFailing("provisional_draw.js", ["--seconds", "60"]);
    check(result.verdict === "wrong-answer" && result.nodes === "5", `provisional_draw.js: wrong answer on 5 nodes (${result.verdict}, ${result.nodes})`);
    check(result.graph === JSON.stringify(native.graph), `the same counterexample as cmg judge (${result.graph} vs ${JSON.stringify(native.graph)})`);
    const solved = nativeSolve(JSON.parse(result.graph));
    check(result.report.includes(`expected: ${solved.result}`) && solved.result !== 0, `the native solver's answer is the expected one (${solved.result})`);
    // The report is the command line's, word for word, times aside.
    let nativeText = "";
    try {
      execFileSync(cmg, ["judge", join(root, "tests/judge/provisional_draw.js"), "--seconds", "60"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch (error) {
      nativeText = error.stdout;
    }
    const timeless = (text) => text.replace(/\d+\.\d s/g, "T s").replace(/^note: .*\n/, "").trim();
    const same = timeless(result.report) === timeless(nativeText);
    check(same, "the report is cmg judge's text, word for word (times aside)");
    if (!same) console.log(`${result.report}\n--- cmg judge:\n${nativeText}`);
    check(page.url().includes("#judge="), "the address bar still links to the solution");
    const drawn = page.frameLocator(".judge-view").locator("[data-node]");
    await drawn.first().waitFor({ timeout: 10000 });
    check((await drawn.count()) === 5, `the counterexample is drawn in the game view beside the report (${await drawn.count()} nodes)`);
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(artifacts, "playground-judge.png") });
    await page.locator("[data-judge-open]").click();
    await page.waitForFunction((r) => document.querySelector("#outcome")?.getAttribute("data-outcome") === ["draw", "mouse", "cat"][r], solved.result, { timeout: 10000 });
    check((await page.locator("[data-editor]").innerText()).includes("expect "), "open puts the counterexample, with its expect line, into the editor");
    await page.close();
  }

  // An infinite loop: a time limit, while the main editor answers keystrokes.
  if (wanted("forever")) {
    // right.js, stuck for ever on the graphs of 4 nodes with an edge 1 -- 2.
    const forever = fixture("right.js").replace(
      "var catMouseGame = function (graph) {",
      "$&\n  while (graph.length === 4 && graph[1].includes(2)) {}",
    );
    check(forever !== fixture("right.js"), "the infinite loop is put into right.js");
    const page = await newPage(link(forever, "javascript"));
    await page.locator("[data-judge-seconds]").fill("30");
    await page.locator("[data-judge-run]").click();
    // The loop starts on the first graphs of 4 nodes, within a second.
    await page.waitForTimeout(1500);
    const editor = page.locator("[data-editor]");
    await editor.click();
    await page.keyboard.press("Control+End");
    const latencies = [];
    // Keystrokes typed while the judge still ran (a loaded machine types slowly, and the
    // judge ends on the time limit after about 10 s: the first ones are what counts).
    let whileRunning = 0;
    for (const key of "# typed while judging") {
      const before = await editor.innerText();
      const running = (await page.locator("[data-verdict]").getAttribute("data-verdict")) === "running";
      const at = Date.now();
      await page.keyboard.type(key);
      await page.waitForFunction((b) => document.querySelector("[data-editor]")?.innerText !== b, before, { timeout: 2000 });
      latencies.push(Date.now() - at);
      if (running) whileRunning += 1;
    }
    check(whileRunning >= 3, `the keystrokes came while the judge ran (${whileRunning} of ${latencies.length})`);
    check((await editor.innerText()).includes("# typed while judging"), `the editor took every keystroke (slowest ${Math.max(...latencies)} ms)`);
    await page.waitForFunction(() => document.querySelector("[data-verdict]")?.getAttribute("data-verdict") !== "running", null, { timeout: 60000 });
    const verdict = await page.locator("[data-verdict]").getAttribute("data-verdict");
    check(verdict === "time-limit" && (await page.locator("[data-verdict]").getAttribute("data-nodes")) === "4", `an infinite loop: time-limit on 4 nodes (${verdict})`);
    await page.close();
  }

  // Pyodide that cannot start, one of its files not on the site (in a browser that has
  // none of them cached): the report says at once which file and what to do, never
  // "[object Object]", and never waits for the setup's 60 s (a missing .wasm left
  // Pyodide waiting that long).
  for (const gone of ["pyodide.mjs", "python_stdlib.zip", "pyodide.asm.wasm"]) {
    if (!wanted(`pyodide-fails ${gone}`)) continue;
    pyodideGone = gone;
    const fresh = await browser.newContext();
    try {
      const page = await fresh.newPage();
      await page.goto(link(fixture("right.py"), "python"));
      await page.locator("[data-judge-run]").waitFor({ timeout: 10000 });
      const result = await judge(page, { seconds: 60, wait: 30000 }).catch((error) => ({ report: `no verdict: ${error.message.split("\n")[0]}` }));
      const first = result.report.split("\n")[0];
      const why = first.split("does not run: ")[1] ?? "";
      check(
        why.includes(gone) && why.includes("npm ci") && !why.includes("[object"),
        `a Pyodide without ${gone} says so and what to do: "${first}"`,
      );
    } finally {
      await fresh.close();
      pyodideGone = null;
    }
  }

  // Pyodide's load does not wait for the check of its files: in a browser that has none
  // of them cached, the site holds its answer to the check's first HEAD request until
  // Pyodide's module is asked for, and Python still starts and judges.
  if (wanted("pyodide-check-beside")) {
    headsHeld = {
      answers: [],
      released: false,
      loadWhileHeld: null,
      release(whileHeld) {
        if (this.released) return;
        this.released = true;
        this.loadWhileHeld = whileHeld;
        for (const answer of this.answers.splice(0)) answer();
      },
    };
    const fresh = await browser.newContext();
    try {
      const page = await fresh.newPage();
      await page.goto(link(fixture("right.py"), "python"));
      await page.locator("[data-judge-run]").waitFor({ timeout: 10000 });
      const result = await judge(page, { seconds: 60, graphs: 50 });
      check(result.verdict === "no-counterexample", `right.py is judged with the check's answers held (${result.verdict})`);
      check(headsHeld.loadWhileHeld === true, `Pyodide's module is asked for while the check's HEAD requests wait (${headsHeld.loadWhileHeld})`);
    } finally {
      await fresh.close();
      headsHeld = null;
    }
  }

  // A Python crash: a runtime error with its message and the solution's own frame, on
  // the graph `cmg judge` finds.
  if (wanted("crash.py")) {
    const opening = "        n = len(graph)\n";
    const crash = variant("right.py", "crash.py", opening, `        if len(graph) == 5:\n            raise ValueError('five nodes')\n${opening}`);
    const page = await newPage(link(crash.code, "python"));
    const result = await judge(page, { seconds: 60 });
    const native = nativeJudgeFailing(crash.path, ["--seconds", "60"]);
    check(result.verdict === "runtime-error" && result.graph === JSON.stringify(native.graph), `crash.py: runtime-error on cmg judge's graph (${result.verdict}, ${result.graph})`);
    check(/File "solution.py", line \d+, in catMouseGame/.test(result.report) && result.report.includes("ValueError: five nodes"), "the error keeps its message and the solution's frame");
    await page.close();
  }

  // The stop button: the report so far.
  if (wanted("stop")) {
    const page = await newPage(link(fixture("right.js"), "javascript"));
    await page.locator("[data-judge-seconds]").fill("120");
    await page.locator("[data-judge-run]").click();
    await page.waitForFunction(() => /[1-9]\d* graphs tried/.test(document.querySelector("[data-judge-progress]")?.textContent ?? ""), null, { timeout: 20000 });
    await page.locator("[data-judge-stop]").click();
    await page.waitForFunction(() => document.querySelector("[data-verdict]")?.getAttribute("data-verdict") !== "running", null, { timeout: 10000 });
    const report = await page.locator("[data-judge-report]").innerText();
    check((await page.locator("[data-verdict]").getAttribute("data-verdict")) === "no-counterexample" && report.includes("interrupted by the stop button"), `stop ends the run with the report so far (${report.split("\n")[0]})`);
    await page.close();
  }

  // A Python search cut off after n turns (limit_2n.py with n for 2n): caught on the
  // graph `cmg judge` catches it on, the smallest it fails.
  if (wanted("limit_n.py")) {
    const limited = variant("limit_2n.py", "limit_n.py", "if turn == 2 * n:", "if turn == n:");
    const page = await newPage(link(limited.code, "python"));
    const result = await judge(page, { seconds: 120 });
    const native = nativeJudgeFailing(limited.path, ["--seconds", "120"]);
    check(result.verdict === "wrong-answer" && result.nodes === String(native.graph.length), `a Python n-turn limit: wrong answer on ${native.graph.length} nodes, as cmg judge says (${result.verdict}, ${result.nodes})`);
    check(result.graph === JSON.stringify(native.graph), `the same counterexample as cmg judge (${result.graph} vs ${JSON.stringify(native.graph)})`);
    const solved = nativeSolve(JSON.parse(result.graph || "[]"));
    check(result.report.includes(`expected: ${solved.result}`) && result.report.includes(`got:      ${native.got}`), `the native solver's answer is the expected one (${solved.result}), the solution's the one cmg judge got (${native.got})`);
    check(result.report.includes("cause, checked on every graph it answered: ") === (native.cause !== null), `a cause where cmg judge names one (${JSON.stringify(native.cause)})`);
    await page.close();
  }

  // Measurements (JUDGE_BENCH=1): the time to catch a 2n-turn limit in each language.
  if (process.env.JUDGE_BENCH === "1") {
    const js = `var catMouseGame = function (graph) {
  const n = graph.length;
  const memo = new Map();
  const play = (turn, m, c) => {
    if (turn === 2 * n) return 0;
    if (m === 0) return 1;
    if (m === c) return 2;
    const key = (turn * n + m) * n + c;
    if (memo.has(key)) return memo.get(key);
    let best;
    if (turn % 2 === 0) {
      best = 2;
      for (const nm of graph[m]) { const r = play(turn + 1, nm, c); if (r === 1) { best = 1; break; } if (r === 0) best = 0; }
    } else {
      best = 1;
      for (const nc of graph[c]) { if (nc === 0) continue; const r = play(turn + 1, m, nc); if (r === 2) { best = 2; break; } if (r === 0) best = 0; }
    }
    memo.set(key, best);
    return best;
  };
  return play(0, 1, 2);
};
`;
    // Pyodide's load, cold (the first in this browser) and from the HTTP cache.
    for (const when of ["cold", "cached"]) {
      const page = await newPage(link(fixture("right.py"), "python"));
      const result = await judge(page, { seconds: 60, graphs: 1 });
      console.log(`# Pyodide load and the file run, ${when}: ${(result.loadMs / 1000).toFixed(2)} s`);
      await page.close();
    }
    // Graphs a second on every game of 3 to 7 nodes (195 829 graphs), against the command line.
    for (const [name, lang] of [["right.js", "javascript"], ["right.py", "python"]]) {
      const page = await newPage(link(fixture(name), lang));
      const result = await judge(page, { seconds: 900, graphs: 195829, wait: 1200000 });
      const seconds = (result.ms - result.loadMs) / 1000;
      const native = nativeJudge(name, ["--graphs", "195829", "--seconds", "900"]);
      console.log(`# ${name}: 195 829 graphs in ${seconds.toFixed(1)} s in the browser (${(195829 / seconds).toFixed(0)} a second, load aside); cmg judge ${native.seconds.toFixed(1)} s (${(195829 / native.seconds).toFixed(0)} a second)`);
      await page.close();
    }
    for (const [name, code, lang] of [["limit_2n.py", fixture("limit_2n.py"), "python"], ["limit_2n.js", js, "javascript"]]) {
      const page = await newPage(link(code, lang));
      const result = await judge(page, { seconds: 900, wait: 1200000 });
      console.log(`# ${name}: ${result.verdict} on ${result.nodes} nodes in ${(result.ms / 1000).toFixed(1)} s in the browser (load ${(result.loadMs / 1000).toFixed(1)} s)`);
      await page.close();
    }
  }

  check(foreign.length === 0, `no request left the page's origin (${foreign.slice(0, 3).join(", ")})`);
  check(errors.length === 0, `no page errors (${errors.slice(0, 3).join(" | ")})`);
} finally {
  await browser.close();
  server.close();
}
if (failures > 0) {
  console.log(`${failures} failed`);
  process.exit(1);
}
