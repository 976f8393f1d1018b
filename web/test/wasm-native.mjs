// The WebAssembly build against the native one: on every example and on several hundred
// random graphs (made from a fixed seed), the .wasm's outcome, moves, optimal line and
// diagnostics (code, severity and, on ASCII text, range) must be those of
// `cmg solve --json` and `cmg check --json`. Prints the .wasm's time to open each example.
//
// Usage: node --test test/wasm-native.mjs, with CMG_WASM (the .wasm, default
// $CARGO_TARGET_DIR/wasm/cmg.wasm) and CMG (the native binary, default
// $CARGO_TARGET_DIR/debug/cmg); CMG_RANDOM_GRAPHS sets how many random graphs (400).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { build } from "esbuild";

const root = resolve(new URL("../..", import.meta.url).pathname);
const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
const wasmPath = resolve(process.env.CMG_WASM ?? join(target, "wasm/cmg.wasm"));
const cmg = resolve(process.env.CMG ?? join(target, "debug/cmg"));
const randomCount = Number(process.env.CMG_RANDOM_GRAPHS ?? 400);

/** The loader (web/src/wasm/cmg.ts), bundled here so that the test needs no build step. */
async function loadCmg() {
  const bundled = await build({
    entryPoints: [join(root, "web/src/wasm/cmg.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "warning",
  });
  const source = bundled.outputFiles[0].text;
  const { Cmg } = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
  return Cmg.load(readFileSync(wasmPath));
}

/** A small fast generator (mulberry32), so that the random graphs are the same on every run. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random .cmg text: 3 to 14 nodes, edges at a random density, the hole sometimes, and
 * now and then what makes diagnostics: a self-loop, a repeated edge, a missing cat, an
 * `expect`, a broken statement, a group product.
 */
function randomGraph(random) {
  const pick = (n) => Math.floor(random() * n);
  const nodes = 3 + pick(12);
  const density = 0.15 + random() * 0.5;
  const lines = [];
  const firstNode = random() < 0.7 ? 0 : 1;
  for (let a = firstNode; a < nodes; a++) {
    for (let b = a + 1; b < nodes; b++) {
      if (random() < density) lines.push(`${a} -- ${b}`);
    }
  }
  if (random() < 0.3) lines.push(`node ${pick(nodes + 2)}`);
  if (random() < 0.1) lines.push(`${pick(nodes)} -- ${pick(nodes)}`);
  if (random() < 0.1 && lines.length > 0) lines.push(lines[pick(lines.length)]);
  if (random() < 0.1) lines.push(`{${pick(nodes)} ${pick(nodes)}} -- {${pick(nodes)} ${pick(nodes)}}`);
  if (random() < 0.05) lines.push(`${pick(nodes)} --`);
  if (random() < 0.15) lines.push(`expect ${["mouse", "cat", "draw"][pick(3)]}`);
  // Shuffled, so that statements come in any order.
  for (let i = lines.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  let text = lines.join(random() < 0.2 ? ";" : "\n");
  if (random() < 0.5) text += "\n";
  // Without node 2 there is no game.
  if (random() < 0.05) text = text.replace(/\b2\b/g, "9");
  return text;
}

function run(args) {
  const result = spawnSync(cmg, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (result.error) throw result.error;
  if (result.status !== 0 && result.status !== 1) {
    throw new Error(`cmg ${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}

/** `cmg check --json` of many files at once: each file's diagnostics, by path. */
function nativeDiagnostics(paths) {
  const byFile = new Map(paths.map((path) => [path, []]));
  for (const diagnostic of run(["check", "--json", ...paths])) byFile.get(diagnostic.file).push(diagnostic);
  return byFile;
}

/** What both builds must agree on, from the .wasm's summary. */
function fromWasm(summary, ascii) {
  return {
    outcome: summary.outcome,
    moves: summary.moves,
    line: summary.line,
    diagnostics: summary.diagnostics
      .map((d) => [d.code, d.severity, ascii ? `${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1}` : ""].join(" "))
      .sort(),
  };
}

/** The same, from `cmg solve --json` and the file's `cmg check --json` diagnostics. */
function fromNative(solved, diagnostics, ascii) {
  return {
    outcome: solved.outcome,
    moves: solved.moves,
    line: solved.line,
    diagnostics: diagnostics
      .map((d) => [d.code, d.severity, ascii ? `${d.start.line}:${d.start.column}-${d.end.line}:${d.end.column}` : ""].join(" "))
      .sort(),
  };
}

const isAscii = (text) => /^[\x00-\x7f]*$/.test(text);

const cmgWasm = await loadCmg();

test("every example: the .wasm answers as cmg solve and cmg check do", () => {
  const dir = join(root, "examples");
  const files = [
    ...readdirSync(dir).filter((name) => name.endsWith(".cmg")).map((name) => join(dir, name)),
    ...readdirSync(join(dir, "records")).filter((name) => name.endsWith(".cmg")).map((name) => join(dir, "records", name)),
  ];
  assert.ok(files.length >= 10, `found only ${files.length} examples`);
  const diagnostics = nativeDiagnostics(files);
  const times = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    // The median of five opens: the first also compiles the code it runs.
    const elapsed = [];
    let summary;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      summary = cmgWasm.open(text);
      elapsed.push(performance.now() - started);
    }
    elapsed.sort((a, b) => a - b);
    times.push([file.slice(root.length + 1), elapsed[2], summary.nodes]);
    const ascii = isAscii(text);
    assert.deepEqual(
      fromWasm(summary, ascii),
      fromNative(run(["solve", "--json", file]), diagnostics.get(file), ascii),
      file,
    );
  }
  console.log("the .wasm's open (analysis and solve; median of 5) per example:");
  for (const [file, ms, nodes] of times) console.log(`  ${ms.toFixed(2).padStart(8)} ms  ${String(nodes).padStart(4)} nodes  ${file}`);
});

test(`${randomCount} random graphs: the .wasm answers as cmg solve and cmg check do`, () => {
  const dir = mkdtempSync(join(tmpdir(), "cmg-wasm-"));
  mkdirSync(dir, { recursive: true });
  const random = generator(0x5eed);
  const texts = [];
  const paths = [];
  for (let i = 0; i < randomCount; i++) {
    const text = randomGraph(random);
    const path = join(dir, `g${String(i).padStart(4, "0")}.cmg`);
    writeFileSync(path, text);
    texts.push(text);
    paths.push(path);
  }
  const diagnostics = nativeDiagnostics(paths);
  let total = 0;
  const outcomes = { mouse: 0, cat: 0, draw: 0, none: 0 };
  const mismatches = [];
  for (let i = 0; i < randomCount; i++) {
    const started = performance.now();
    const summary = cmgWasm.open(texts[i]);
    total += performance.now() - started;
    outcomes[summary.outcome ?? "none"]++;
    const wasm = fromWasm(summary, true);
    const native = fromNative(run(["solve", "--json", paths[i]]), diagnostics.get(paths[i]), true);
    try {
      assert.deepEqual(wasm, native);
    } catch {
      mismatches.push({ text: texts[i], wasm, native });
    }
  }
  console.log(`random graphs: ${JSON.stringify(outcomes)}; the .wasm's open: ${(total / randomCount).toFixed(3)} ms on average`);
  assert.deepEqual(mismatches.slice(0, 3), [], `${mismatches.length} of ${randomCount} graphs differ`);
  // The generator must reach every outcome, or the comparison proves little.
  for (const outcome of Object.keys(outcomes)) assert.ok(outcomes[outcome] > 0, `no random graph with outcome ${outcome}`);
});

test("features answer on the .wasm", () => {
  cmgWasm.open("node 0 \"hole\"\n0 -- 3 -- 1\n2 -- 3\n1--4\n");
  assert.equal(cmgWasm.request("format", {}).text, "node 0 \"hole\"\n0 -- 3 -- 1\n2 -- 3\n1 -- 4\n");
  assert.match(cmgWasm.request("hover", { position: { line: 1, character: 5 } }).markdown, /node 3/);
  assert.ok(cmgWasm.request("inlayHints", {}).some((hint) => hint.kind === "outcome"));
  const scene = cmgWasm.request("scene", {});
  assert.equal(scene.outcome, "cat");
  assert.equal(scene.nodes.length, 5);
  assert.throws(() => cmgWasm.request("nothing", {}), /bad request/);
});

/** A connected graph of `n` nodes and about 3n edges, hole included, from a fixed seed. */
function bigGraph(n, seed) {
  const random = generator(seed);
  const lines = [];
  for (let i = 1; i < n; i++) lines.push(`${Math.floor(random() * i)} -- ${i}`);
  for (let i = 0; i < 2 * n; i++) {
    const a = Math.floor(random() * n);
    const b = Math.floor(random() * n);
    if (a !== b) lines.push(`${Math.min(a, b)} -- ${Math.max(a, b)}`);
  }
  return [...new Set(lines)].join("\n") + "\n";
}

test("timings: open a 1000-node graph, lay out 300 nodes (printed, not checked)", () => {
  const median = (f) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      f();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[2].toFixed(1);
  };
  const thousand = bigGraph(1000, 1);
  const opened = median(() => cmgWasm.open(thousand));
  console.log(`open (analysis and solve) of a 1000-node graph of ${cmgWasm.open(thousand).edges} edges: ${opened} ms, median of 5`);
  cmgWasm.open(bigGraph(300, 2));
  const laidOut = median(() => cmgWasm.request("scene", { explain: false }));
  console.log(`the scene of a 300-node graph, laid out from scratch: ${laidOut} ms, median of 5`);
  const explained = median(() => cmgWasm.request("scene", {}));
  console.log(`... with the strategies and the what-if (computed once, then kept): ${explained} ms`);
});
