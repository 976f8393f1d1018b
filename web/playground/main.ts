// The playground: a CodeMirror editor, the WebAssembly core in a web worker, the outcome
// and diagnostics of the text as it is typed, the game view of web/ beside it (in a
// frame, fed the scene by messages as the VS Code extension feeds it), an examples menu,
// and the URL fragment following the text (`#code=`, share.ts). Nothing leaves the page.

import { setDiagnostics, lintGutter, type Diagnostic as LintDiagnostic } from "@codemirror/lint";
import { Compartment, EditorState, StateEffect, type StateEffectType, StateField, type Text } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, hoverTooltip, keymap, type DecorationSet } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { basicSetup } from "codemirror";

import { graphKey, type Scene } from "../src/scene";
import type { InlayHint, Method, Position, Request, Requests, Summary, TextEdit } from "../src/wasm/cmg";
import { MAX_KEPT_CHARS, MAX_KEPT_POSITIONS, keptTitle, loadKept, saveKept, withKept, withPin, type KeptText } from "./kept";
import { leetcodeInput, markdownOf } from "./copy";
import { renderMarkdown } from "./markdown";
import { setUpJudge } from "./judge";
import { fragmentOf, openFragment } from "./share";
import type { FromWorker, ToWorker } from "./worker";

/** The examples and record graphs, put in by the build (playground/build.mjs). */
declare const CMG_EXAMPLES: { name: string; text: string }[];

/**
 * A worker still busy after this long with a newer text waiting is replaced: its work is
 * of a stale text. The analysis worker answers the outcome and the editor's requests and
 * is given long; the view's worker lays out and computes the what-if (a solve per edge,
 * seconds on the 50-node records), which a new text makes useless at once.
 */
const ANALYSIS_STALE_AFTER_MS = 1500;
const VIEW_STALE_AFTER_MS = 100;
/** The view's worker gets a text once typing has paused this long. */
const VIEW_AFTER_MS = 150;
/** Texts longer than this are not put in the address bar (browsers cap URLs near 2 MB). */
const MAX_SHARED_BYTES = 1 << 20;

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

/**
 * A worker and what is asked of it: a text is sent only when the worker is idle (the
 * newest one; those typed meanwhile are never analysed), and a worker busy for too long
 * when a newer text comes is replaced.
 */
class Analyzer {
  private worker!: Worker;
  private generation = 0;
  /** The newest text not sent yet. */
  private waiting: { generation: number; text: string } | null = null;
  /** Texts and requests sent and not answered, and since when there have been any. */
  private inFlight = 0;
  private busySince = 0;
  private nextId = 0;
  private readonly answers = new Map<number, (answer: unknown) => void>();

  constructor(
    private readonly module: Promise<WebAssembly.Module>,
    private readonly staleAfterMs: number,
    private readonly onSummary: (summary: Summary, ms: number, generation: number) => void,
  ) {
    this.start();
  }

  /** The generation of the newest text given. */
  get current(): number {
    return this.generation;
  }

  private start(): void {
    this.worker = new Worker("worker.js");
    this.worker.addEventListener("message", (event: MessageEvent<FromWorker>) => this.received(event.data));
    void this.module.then((module) => this.post({ type: "module", module }));
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  open(text: string): void {
    this.waiting = { generation: ++this.generation, text };
    if (this.inFlight === 0) {
      this.sendWaiting();
    } else if (performance.now() - this.busySince > this.staleAfterMs) {
      // The work under way is for an older text and has taken long: start over.
      this.worker.terminate();
      this.inFlight = 0;
      for (const answer of this.answers.values()) answer(null);
      this.answers.clear();
      this.start();
      this.sendWaiting();
    }
  }

  private sendWaiting(): void {
    if (this.waiting === null) return;
    this.post({ type: "open", ...this.waiting });
    this.waiting = null;
    this.started();
  }

  private started(): void {
    if (this.inFlight++ === 0) this.busySince = performance.now();
  }

  private finished(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.sendWaiting();
  }

  request<M extends Method>(method: M, params: Requests[M]["params"]): Promise<Requests[M]["answer"] | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.answers.set(id, resolve as (answer: unknown) => void);
      this.post({ type: "request", id, request: { method, ...params } as Request });
      this.started();
    });
  }

  private received(message: FromWorker): void {
    if (message.type === "opened") {
      // An answer for a text that was edited since is dropped.
      if (message.generation === this.generation) this.onSummary(message.summary, message.ms, message.generation);
    } else {
      this.answers.get(message.id)?.(message.answer);
      this.answers.delete(message.id);
    }
    this.finished();
  }
}

/** The CodeMirror offset of a position from the core (line from 0, UTF-16 character). */
function offsetOf(doc: Text, position: Position): number {
  const line = doc.line(Math.min(position.line + 1, doc.lines));
  return Math.min(line.from + position.character, line.to);
}

function positionOf(doc: Text, offset: number): Position {
  const line = doc.lineAt(offset);
  return { line: line.number - 1, character: offset - line.from };
}

/** Quick fixes are asked for the first this many diagnostics of a text. */
const MAX_FIXED_DIAGNOSTICS = 20;

/** The inlay hints of the text: the outcome on the first line, each node's at its mentions. */
class HintWidget extends WidgetType {
  constructor(private readonly hint: InlayHint) {
    super();
  }
  eq(other: HintWidget): boolean {
    return other.hint.label === this.hint.label && other.hint.tooltip === this.hint.tooltip;
  }
  toDOM(): HTMLElement {
    const span = document.createElement("span");
    span.className = `cmg-hint cmg-hint-${this.hint.kind}`;
    span.textContent = `${this.hint.paddingLeft ? " " : ""}${this.hint.label}${this.hint.paddingRight ? " " : ""}`;
    if (this.hint.tooltip !== null) span.title = this.hint.tooltip;
    return span;
  }
}
const setHints = StateEffect.define<DecorationSet>();
const setTokens = StateEffect.define<DecorationSet>();
/**
 * Decorations that follow the text's edits until `replace` brings a new set: the
 * worker's answers come after the text they were asked for.
 */
function decorationField(replace: StateEffectType<DecorationSet>): StateField<DecorationSet> {
  return StateField.define<DecorationSet>({
    create: () => Decoration.none,
    update(decorations, transaction) {
      decorations = decorations.map(transaction.changes);
      for (const effect of transaction.effects) if (effect.is(replace)) decorations = effect.value;
      return decorations;
    },
    provide: (field) => EditorView.decorations.from(field),
  });
}
/** The colours of the text, from the language server's token table (semanticTokens). */
const tokenField = decorationField(setTokens);
/** Texts longer than this are coloured only where they are shown. */
const MAX_COLOURED_WHOLE = 256 * 1024;
const hintField = decorationField(setHints);

function applyEdits(editor: EditorView, edits: TextEdit[]): void {
  const doc = editor.state.doc;
  editor.dispatch({
    changes: edits.map((edit) => ({ from: offsetOf(doc, edit.range.start), to: offsetOf(doc, edit.range.end), insert: edit.newText })),
  });
}

/**
 * What needs more requests, asked of the view's worker (so that the outcome's never
 * waits for them): the quick fixes, the inlay hints and the colours. One at a time, and
 * none once the text has changed.
 */
async function addFixesAndHints(summary: Summary, stale: () => boolean): Promise<void> {
  if (stale()) return;
  const lint = lintOf(summary, view.state.doc);
  const fixed: LintDiagnostic[] = [];
  for (const [i, diagnostic] of lint.entries()) {
    const shown = summary.diagnostics[i];
    if (i >= MAX_FIXED_DIAGNOSTICS) {
      fixed.push(diagnostic);
      continue;
    }
    if (stale()) return;
    const actions = (await viewer.request("codeActions", { range: shown.range })) ?? [];
    const fixes = actions.filter((action) => action.kind === "quickfix" && action.fixes === shown.code);
    fixed.push(
      fixes.length === 0
        ? diagnostic
        : { ...diagnostic, actions: fixes.map((fix) => ({ name: fix.title, apply: (editor: EditorView) => applyEdits(editor, fix.edits) })) },
    );
  }
  if (stale()) return;
  const hints = (await viewer.request("inlayHints", {})) ?? [];
  if (stale()) return;
  const askedDoc = view.state.doc;
  const shown = view.viewport;
  const tokens = await viewer.request(
    "semanticTokens",
    askedDoc.length <= MAX_COLOURED_WHOLE ? {} : { range: { start: positionOf(askedDoc, shown.from), end: positionOf(askedDoc, shown.to) } },
  );
  // Answers about a text edited since are dropped.
  if (stale()) return;
  const doc = view.state.doc;
  const decorations = hints
    .map((hint) => Decoration.widget({ widget: new HintWidget(hint), side: 1 }).range(offsetOf(doc, hint.position)))
    .sort((a, b) => a.from - b.from);
  const marks = [];
  if (tokens !== null) {
    const { kinds, data } = tokens;
    for (let i = 0; i + 3 < data.length; i += 4) {
      const from = offsetOf(doc, { line: data[i], character: data[i + 1] });
      const to = Math.min(from + data[i + 2], doc.length);
      if (to > from) marks.push(Decoration.mark({ class: `cmg-token-${kinds[data[i + 3]]}` }).range(from, to));
    }
  }
  view.dispatch(setDiagnostics(view.state, fixed), {
    effects: [setHints.of(Decoration.set(decorations, true)), setTokens.of(Decoration.set(marks, true))],
  });
  // The list offers the same fixes as the squiggles' tooltips.
  fixed.forEach((diagnostic, i) => {
    const item = diagnosticsElement.children[i];
    for (const action of diagnostic.actions ?? []) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fix";
      button.textContent = `fix: ${action.name}`;
      button.addEventListener("click", () => action.apply(view, diagnostic.from, diagnostic.to));
      item?.append(" ", button);
    }
  });
}

const lintSeverity = { error: "error", warning: "warning", information: "info", hint: "hint" } as const;

const outcomeElement = byId("outcome");
const diagnosticsElement = byId<HTMLUListElement>("diagnostics");
const statusElement = byId("status");
const frame = byId<HTMLIFrameElement>("view");
const examplesMenu = byId<HTMLSelectElement>("examples");

let view: EditorView;
/** Where the game view drew each node last, so that a new layout keeps them there. */
let positions: Record<number, [number, number]> = {};
let frameReady = false;
/** The entry of the kept texts that this text updates; a new one for a new text (an example, a link). */
let keptEntry: KeptText = { id: newKeptId(), text: "", at: 0 };
function newKeptId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
let lastScene: unknown = null;

function lintOf(summary: Summary, doc: Text): LintDiagnostic[] {
  return summary.diagnostics.map((d) => ({
    from: offsetOf(doc, d.range.start),
    to: offsetOf(doc, d.range.end),
    severity: lintSeverity[d.severity],
    source: d.code,
    message: d.message,
  }));
}

/** The outcome shown, for "Copy as Markdown". */
let outcomeText = "";

function showSummary(summary: Summary, ms: number): void {
  const doc = view.state.doc;
  outcomeText = summary.summary;
  outcomeElement.dataset.outcome = summary.outcome ?? "none";
  outcomeElement.dataset.moves = summary.moves === null ? "" : String(summary.moves);
  outcomeElement.textContent = summary.summary + (summary.complete ? "" : " (the statements that parsed)");
  statusElement.textContent = `${summary.nodes} nodes, ${summary.edges} edges; ${summary.outcome === null ? "analysed" : "analysed and solved"} in ${ms.toFixed(1)} ms`;

  const lint = lintOf(summary, doc);
  view.dispatch(setDiagnostics(view.state, lint));

  const items = summary.diagnostics.map((d, i) => {
    const item = document.createElement("li");
    item.dataset.code = d.code;
    item.dataset.severity = d.severity;
    const where = document.createElement("button");
    where.type = "button";
    where.textContent = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
    where.title = "select it in the text";
    where.addEventListener("click", () => select(lint[i].from, lint[i].to));
    const code = document.createElement("code");
    code.textContent = d.code;
    code.title = `\`cmg explain ${d.code}\` says more`;
    item.append(where, " ", d.severity, " ", code, " ", d.message);
    return item;
  });
  if (summary.diagnosticsOmitted > 0) {
    const more = document.createElement("li");
    more.textContent = `and ${summary.diagnosticsOmitted} more`;
    items.push(more);
  }
  diagnosticsElement.replaceChildren(...items);
}

/**
 * The view's worker has the text: the scene at once, the editor's fixes, hints and
 * colours, then the scene with its strategies and what-if (a solve per edge).
 */
async function followUp(summary: Summary, generation: number): Promise<void> {
  const edit = viewerEdit;
  const stale = () => generation !== viewer.current || edit !== editGeneration;
  for (const explain of [false, true]) {
    const scene = (await viewer.request("scene", { positions, explain })) as Scene | null;
    if (scene === null || stale()) return;
    // The same graph as before (a comment, a label): the nodes stay exactly where they
    // were, as the view keeps them, so that the next layout starts from what is shown.
    const previous = lastScene as Scene | null;
    if (previous !== null && graphKey(scene) === graphKey(previous)) {
      for (const node of scene.nodes) [node.x, node.y] = positions[node.id] ?? [node.x, node.y];
    }
    positions = Object.fromEntries(scene.nodes.map((n) => [n.id, [n.x, n.y]]));
    keepPositions();
    lastScene = scene;
    if (frameReady) frame.contentWindow?.postMessage({ type: "scene", scene }, "*");
    if (!explain) await addFixesAndHints(summary, stale);
  }
}

function select(from: number, to: number): void {
  view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
  view.focus();
}

// The game view's messages: the protocol of the VS Code extension (web/src/hosts.ts, vscodeHost).
window.addEventListener("message", (event: MessageEvent<{ type?: string; request?: number; node?: number; at?: [number, number] | null; cat?: number; turn?: "mouse" | "cat"; mention?: { start: { line: number; column: number }; end: { line: number; column: number } } }>) => {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  if (message.type === "ready") {
    viewLoaded();
  } else if (message.type === "slice" && message.cat !== undefined && message.turn !== undefined) {
    void viewer.request("slice", { cat: message.cat, turn: message.turn }).then((slice) =>
      frame.contentWindow?.postMessage({ type: "slice", request: message.request, slice: slice ?? null }, "*"),
    );
  } else if (message.type === "moved" && typeof message.node === "number") {
    // A node dragged (or unpinned) in the view: the next layout starts from there, and a
    // reload too. The pins are saved at once (not with the next scene's positions): a
    // reload right after a drag keeps them.
    const at = Array.isArray(message.at) ? message.at : null;
    if (at !== null) positions[message.node] = at;
    keptEntry = withPin(keptEntry, message.node, at);
    if (keptEntry.text !== "") saveKept(localStorage, withKept(loadKept(localStorage), keptEntry));
    keepPositions();
  } else if (message.type === "reveal" && message.mention) {
    // Columns from 1 in characters (docs/view.md): UTF-16 units for every text but astral characters.
    const doc = view.state.doc;
    const at = (p: { line: number; column: number }) => offsetOf(doc, { line: p.line - 1, character: p.column - 1 });
    select(at(message.mention.start), at(message.mention.end));
  }
});

// The view says "ready" once it listens; if that came before this script ran (the frame
// loads beside it), its load event, or its state now, says the same.
function viewLoaded(): void {
  if (frameReady) return;
  frameReady = true;
  // The nodes pinned in this text, before the first scene: it is drawn with them, never
  // first without. Until the first text is chosen (its link is read), `start` sends them.
  if (textChosen) postPins();
  if (lastScene !== null) frame.contentWindow?.postMessage({ type: "scene", scene: lastScene }, "*");
  frame.contentWindow?.postMessage({ type: "select", node: selectedNode }, "*");
}
/** Whether the page's first text, and so its kept entry with its pins, is chosen. */
let textChosen = false;

/** Sends the view the nodes pinned in this text, kept with it. */
function postPins(): void {
  if (keptEntry.pins !== undefined) frame.contentWindow?.postMessage({ type: "pins", pins: keptEntry.pins }, "*");
}

frame.addEventListener("load", viewLoaded);
if (frame.contentDocument?.readyState === "complete" && frame.contentDocument.querySelector("#stage") !== null) viewLoaded();

const hover = hoverTooltip(async (editor, offset) => {
  // Without the what-if, which would hold the analysis worker for seconds on a large
  // game: the view shows each edge's what-if.
  const answer = await analyzer.request("hover", { position: positionOf(editor.state.doc, offset), explain: false });
  if (answer === null || answer === undefined) return null;
  return {
    pos: offsetOf(editor.state.doc, answer.range.start),
    end: offsetOf(editor.state.doc, answer.range.end),
    create() {
      const dom = document.createElement("div");
      dom.className = "cmg-hover";
      renderMarkdown(dom, answer.markdown);
      return { dom };
    },
  };
});

const NODE_TOKENS = new Set(["cmg-token-hole", "cmg-token-mouse-start", "cmg-token-cat-start", "cmg-token-node"]);

/** The node whose mention the cursor is on, from the coloured tokens (semanticTokens). */
function nodeAtCursor(state: EditorState): number | null {
  const at = state.selection.main.head;
  let found: number | null = null;
  state.field(tokenField).between(at, at, (from, to, mark) => {
    if (NODE_TOKENS.has(String(mark.spec.class))) {
      const id = Number(state.doc.sliceString(from, to));
      if (Number.isSafeInteger(id)) found = id;
    }
  });
  return found;
}

/** Text to picture: the view marks the node the cursor is on. */
let selectedNode: number | null = null;
function selectInView(node: number | null): void {
  if (node === selectedNode) return;
  selectedNode = node;
  if (frameReady) frame.contentWindow?.postMessage({ type: "select", node }, "*");
}

let shareTimer: ReturnType<typeof setTimeout> | null = null;
let viewTimer: ReturnType<typeof setTimeout> | null = null;
/** Counts the edits; `viewerEdit` is the count when the view's worker got its text. */
let editGeneration = 0;
let viewerEdit = -1;
/**
 * Whether the address bar follows the text. A page opened from a `#judge=` link keeps
 * linking to the judge's solution until the text itself is edited (the judge panel
 * writes its own link as its code is edited): the address is the last edited thing's.
 */
let addressFollowsText = !location.hash.startsWith("#judge");
function textChanged(text: string): void {
  const edit = ++editGeneration;
  analyzer.open(text);
  // The picture follows once typing pauses: its layout and what-if would otherwise take
  // a core from the outcome's analysis on every keystroke.
  if (viewTimer !== null) clearTimeout(viewTimer);
  viewTimer = setTimeout(() => {
    viewerEdit = edit;
    viewer.open(text);
  }, VIEW_AFTER_MS);
  // The address bar follows the text; replaceState, so that Back leaves the page.
  if (shareTimer !== null) clearTimeout(shareTimer);
  if (addressFollowsText) shareTimer = setTimeout(() => void share(text, edit), 0);
  if (keepTimer !== null) clearTimeout(keepTimer);
  keepTimer = setTimeout(() => keep(text), KEEP_AFTER_MS);
}

let keepTimer: ReturnType<typeof setTimeout> | null = null;
/** The text is kept once typing has paused this long. */
const KEEP_AFTER_MS = 300;

async function share(text: string, edit: number): Promise<void> {
  if (text.length > MAX_SHARED_BYTES) {
    history.replaceState(null, "", location.pathname + location.search);
    byId("share").textContent = "too long for a link";
    return;
  }
  const fragment = await fragmentOf(text);
  // A newer text may have been compressed first: only the newest goes in the address bar.
  if (edit !== editGeneration) return;
  history.replaceState(null, "", fragment);
  byId("share").textContent = "";
}


function keep(text: string): void {
  keptEntry = { ...keptEntry, text, at: Date.now(), positions };
  const note = byId("kept-status");
  if (text.length > MAX_KEPT_CHARS) {
    note.textContent = `longer than ${MAX_KEPT_CHARS} characters: not kept in this browser`;
    return;
  }
  note.textContent = saveKept(localStorage, withKept(loadKept(localStorage), keptEntry))
    ? ""
    : "the browser refused to keep this text (its storage is full or disabled)";
  fillKeptMenu();
}

/** The positions go with the kept text they are of, so that a reload draws the nodes where they were. */
function keepPositions(): void {
  if (Object.keys(positions).length > MAX_KEPT_POSITIONS || keptEntry.text !== view.state.doc.toString()) return;
  keptEntry = { ...keptEntry, positions };
  saveKept(localStorage, withKept(loadKept(localStorage), keptEntry));
}

function statusNote(text: string): void {
  byId("share").textContent = text;
}

/** The menu of kept texts: every one but the text being edited. */
function fillKeptMenu(): void {
  const menu = byId<HTMLSelectElement>("kept");
  const others = loadKept(localStorage).filter((entry) => entry.id !== keptEntry.id);
  menu.replaceChildren(
    Object.assign(document.createElement("option"), { value: "", textContent: others.length === 0 ? "none yet" : "go back to…" }),
    ...others.map((entry) => Object.assign(document.createElement("option"), { value: entry.id, textContent: keptTitle(entry) })),
  );
  menu.disabled = others.length === 0;
}

/** "Copy as Markdown": the outcome, LeetCode's input and the link, on the clipboard. */
async function copyAsMarkdown(): Promise<void> {
  const text = view.state.doc.toString();
  const scene = lastScene as { nodes?: { id: number }[]; edges?: { a: number; b: number }[] } | null;
  const input = scene?.nodes === undefined ? null : leetcodeInput(scene.nodes.map((n) => n.id), scene.edges ?? []);
  const link = text.length > MAX_SHARED_BYTES ? "(too long for a link)" : `${location.origin}${location.pathname}${await fragmentOf(text)}`;
  try {
    await navigator.clipboard.writeText(markdownOf(outcomeText, input, link));
    statusNote("copied as Markdown");
  } catch (error) {
    statusNote(`the clipboard refused the text: ${String(error)}`);
  }
}

/** Shows a notice above the page (an element with `data-notice`) that the user can close. */
function notice(kind: string, text: string): void {
  const item = document.createElement("p");
  item.dataset.notice = kind;
  item.setAttribute("role", "alert");
  const close = Object.assign(document.createElement("button"), { type: "button", textContent: "close" });
  close.addEventListener("click", () => item.remove());
  item.append(text, " ", close);
  // A newer notice of the same kind replaces the last one.
  byId("notices").querySelector(`[data-notice="${kind}"]`)?.remove();
  byId("notices").append(item);
}

/** Puts a text in the editor as a new piece of work: the one edited so far stays kept. */
function replaceText(text: string, entry: KeptText = { id: newKeptId(), text, at: Date.now() }): void {
  keptEntry = entry;
  // A new graph: a fresh view, which fits its first scene to the window, with the
  // positions the text had when it was kept.
  positions = entry.positions ?? {};
  lastScene = null;
  frameReady = false;
  frame.src = "view.html";
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

async function formatText(): Promise<void> {
  const answer = await analyzer.request("format", {});
  if (answer === null) return;
  const current = view.state.doc.toString();
  if (answer.text !== current) view.dispatch({ changes: { from: 0, to: current.length, insert: answer.text } });
}

/**
 * The text the page opens with: a link's, else the last text kept in this browser, else
 * the first example. A broken link is said, and the kept text or the example opens.
 */
async function initialText(): Promise<string> {
  const opened = await openFragment(location.hash);
  const kept = loadKept(localStorage);
  if (opened.kind === "text") {
    // A link to a text kept here (a reload, mostly) is that text, with its positions.
    const same = kept.find((entry) => entry.text === opened.text);
    if (same !== undefined) {
      keptEntry = same;
      positions = same.positions ?? {};
    }
    return opened.text;
  }
  if (opened.kind === "broken") {
    notice("broken-link", `This link could not be opened: ${opened.why}. The editor holds ${kept.length > 0 ? "your last text" : "an example"} instead.`);
  }
  if (kept.length > 0) {
    keptEntry = kept[0];
    positions = kept[0].positions ?? {};
    return kept[0].text;
  }
  return CMG_EXAMPLES[0]?.text ?? "";
}

const wasmModule = fetch("cmg.wasm")
  .then((response) => response.arrayBuffer())
  .then((bytes) => WebAssembly.compile(bytes));
const analyzer = new Analyzer(wasmModule, ANALYSIS_STALE_AFTER_MS, showSummary);
const viewer = new Analyzer(wasmModule, VIEW_STALE_AFTER_MS, (summary, _ms, generation) => void followUp(summary, generation));

/**
 * The inlay hints' switch: on by default, off below 700 px where they crowd the text;
 * the user's choice is kept in the browser.
 */
const HINTS_KEY = "cmg-playground-hints";
function setUpHintsSwitch(): void {
  const box = byId<HTMLInputElement>("hints");
  let chosen: string | null = null;
  try {
    chosen = localStorage.getItem(HINTS_KEY);
  } catch {
    // Storage disabled: the default.
  }
  box.checked = chosen === null ? !window.matchMedia("(max-width: 700px)").matches : chosen === "on";
  const apply = () => (document.body.dataset.hints = box.checked ? "on" : "off");
  apply();
  box.addEventListener("change", () => {
    apply();
    try {
      localStorage.setItem(HINTS_KEY, box.checked ? "on" : "off");
    } catch {
      // Not kept: the switch still works for this page.
    }
  });
}

/**
 * The editor's colours in a dark system theme (`prefers-color-scheme`); the light ones
 * are CodeMirror's own. The page, the text's colours and the game view follow the same
 * setting in their stylesheets.
 */
const darkEditor = EditorView.theme(
  {
    "&": { backgroundColor: "#1e1e1e", color: "#d4d4d4" },
    ".cm-content": { caretColor: "#aeafad" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#aeafad" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": { backgroundColor: "#264f78" },
    ".cm-activeLine": { backgroundColor: "#2a2d2e" },
    ".cm-gutters": { backgroundColor: "#1e1e1e", color: "#858585", borderRight: "1px solid #333" },
    ".cm-activeLineGutter": { backgroundColor: "#2a2d2e" },
    ".cm-tooltip": { backgroundColor: "#252526", color: "#d4d4d4", border: "1px solid #454545" },
    ".cm-panels": { backgroundColor: "#252526", color: "#d4d4d4" },
  },
  { dark: true },
);
const editorTheme = new Compartment();
const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
const themeNow = () => (darkQuery.matches ? darkEditor : []);

/** Opens the first text, then builds the editor around it. */
async function start(): Promise<void> {
  setUpHintsSwitch();
  // Before the text's own link replaces the address: a #judge= link opens the panel.
  setUpJudge((text) => replaceText(text));
  const initial = await initialText();
  // The view may have loaded while the link was read: its pins go now, before any scene
  // (none is made before the editor holds the text).
  textChosen = true;
  if (frameReady) postPins();
  view = new EditorView({
    parent: byId("editor"),
    state: EditorState.create({
      doc: initial,
      extensions: [
        basicSetup,
        editorTheme.of(themeNow()),
        lintGutter(),
        hintField,
        tokenField,
        hover,
        keymap.of([indentWithTab, { key: "Shift-Alt-f", run: () => (void formatText(), true) }]),
        EditorView.contentAttributes.of({ "data-editor": "", "aria-label": "the .cmg text" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) {
            addressFollowsText = true;
            textChanged(update.state.doc.toString());
          }
          if (update.docChanged || update.selectionSet || update.transactions.some((t) => t.effects.some((e) => e.is(setTokens)))) {
            selectInView(nodeAtCursor(update.state));
          }
        }),
      ],
    }),
  });
  textChanged(initial);
  fillKeptMenu();

  for (const example of CMG_EXAMPLES) {
    const option = document.createElement("option");
    option.value = example.name;
    option.textContent = example.name;
    examplesMenu.append(option);
  }
  examplesMenu.addEventListener("change", () => {
    const example = CMG_EXAMPLES.find((e) => e.name === examplesMenu.value);
    if (example === undefined) return;
    replaceText(example.text);
    examplesMenu.value = "";
  });
  byId<HTMLSelectElement>("kept").addEventListener("change", (event) => {
    const menu = event.target as HTMLSelectElement;
    const entry = loadKept(localStorage).find((e) => e.id === menu.value);
    if (entry !== undefined) replaceText(entry.text, entry);
  });
  byId("format").addEventListener("click", () => void formatText());
  byId("copy-markdown").addEventListener("click", () => void copyAsMarkdown());
  darkQuery.addEventListener("change", () => view.dispatch({ effects: editorTheme.reconfigure(themeNow()) }));
  // A link pasted into the address bar of this page opens as it would in a new one (the
  // page's own updates use replaceState, which fires no hashchange).
  window.addEventListener("hashchange", () => void openLink());
}

async function openLink(): Promise<void> {
  const opened = await openFragment(location.hash);
  if (opened.kind === "text" && opened.text !== view.state.doc.toString()) replaceText(opened.text);
  if (opened.kind === "broken") {
    notice("broken-link", `This link could not be opened: ${opened.why}. The editor keeps its text.`);
    void share(view.state.doc.toString(), editGeneration);
  }
}
void start();
