// The judge panel: paste a LeetCode 913 solution in Python or JavaScript and run
// `cmg judge`'s phases on it, in workers (judge-worker.ts, judge-solution.ts), with the
// command line's verdicts, shrinking, checked causes and report. The page only sends
// and receives messages: the editor answers while a judge runs. Its workers, judge.wasm
// and Pyodide are loaded when a judge first runs (Pyodide only for Python).
//
// The contract for tests and automation (docs/playground.md): `#judge` opens the panel,
// `#judge=<base64url>&lang=python|javascript` opens it with that code.

import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";

import { decodeText, encodeText } from "./share";
import type { FromJudge, ToJudge } from "./judge-worker";

type Lang = "python" | "javascript";

const EXAMPLES: Record<Lang, string> = {
  python: "class Solution:\n    def catMouseGame(self, graph: List[List[int]]) -> int:\n        ...\n",
  javascript: "/**\n * @param {number[][]} graph\n * @return {number}\n */\nvar catMouseGame = function(graph) {\n    \n};\n",
};

/** The code and language of a `#judge` fragment; null when the fragment is not one. */
export function judgeOfFragment(hash: string): { code: string | null; lang: Lang | null } | null {
  if (hash !== "#judge" && !hash.startsWith("#judge=") && !hash.startsWith("#judge&")) return null;
  const params = new URLSearchParams(hash.slice(1));
  const encoded = params.get("judge");
  const lang = params.get("lang");
  return {
    code: encoded === null || encoded === "" ? null : decodeText(encoded),
    lang: lang === "python" || lang === "javascript" ? lang : null,
  };
}

export function judgeFragment(code: string, lang: Lang): string {
  return `#judge=${encodeText(code)}&lang=${lang}`;
}

function element<T extends HTMLElement>(tag: string, attributes: Record<string, string>, text = ""): T {
  const made = document.createElement(tag) as T;
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  if (text !== "") made.textContent = text;
  return made;
}

/**
 * Builds the panel (hidden until asked for) and a button in the page's header that shows
 * it; `openGraph` puts a `.cmg` text into the main editor.
 */
export function setUpJudge(openGraph: (text: string) => void): void {
  const style = element<HTMLLinkElement>("link", { rel: "stylesheet", href: "judge.css" });
  document.head.append(style);

  const panel = element<HTMLElement>("section", { id: "judge", "aria-label": "judge a solution" });
  panel.hidden = true;
  const bar = element<HTMLDivElement>("div", { class: "judge-bar" });
  const title = element<HTMLElement>("strong", {}, "judge a solution");
  const lang = element<HTMLSelectElement>("select", { "data-judge-lang": "", "aria-label": "language" });
  lang.append(element("option", { value: "python" }, "Python"), element("option", { value: "javascript" }, "JavaScript"));
  const seconds = element<HTMLInputElement>("input", {
    "data-judge-seconds": "", type: "number", min: "1", max: "3600", step: "any", value: "30", "aria-label": "seconds",
  });
  const secondsLabel = element<HTMLLabelElement>("label", {}, "seconds ");
  secondsLabel.append(seconds);
  // The same seed and count of graphs try the same graphs as `cmg judge --seed K --graphs N`.
  const seed = element<HTMLInputElement>("input", { "data-judge-seed": "", type: "number", min: "0", step: "1", value: "1" });
  const graphs = element<HTMLInputElement>("input", { "data-judge-graphs": "", type: "number", min: "1", step: "1", placeholder: "no limit" });
  const more = element<HTMLDetailsElement>("details", { class: "judge-more" });
  const seedLabel = element<HTMLLabelElement>("label", {}, "seed ");
  seedLabel.append(seed);
  const graphsLabel = element<HTMLLabelElement>("label", {}, "graphs ");
  graphsLabel.append(graphs);
  more.append(element("summary", {}, "options"), seedLabel, graphsLabel);
  const run = element<HTMLButtonElement>("button", { type: "button", "data-judge-run": "" }, "run");
  const stop = element<HTMLButtonElement>("button", { type: "button", "data-judge-stop": "" }, "stop");
  stop.disabled = true;
  const close = element<HTMLButtonElement>("button", { type: "button", "data-judge-close": "", title: "close the judge" }, "close");
  bar.append(title, lang, secondsLabel, more, run, stop, close);
  const editorHost = element<HTMLDivElement>("div", { class: "judge-editor" });
  const progress = element<HTMLParagraphElement>("p", { "data-judge-progress": "", "aria-live": "polite" });
  const verdict = element<HTMLOutputElement>("output", { "data-verdict": "", "data-nodes": "", "data-graph": "" });
  const report = element<HTMLPreElement>("pre", { "data-judge-report": "" });
  const open = element<HTMLButtonElement>("button", { type: "button", "data-judge-open": "" }, "open the counterexample");
  open.hidden = true;
  // The counterexample in the game view, beside the report (created on the first one).
  let frame: HTMLIFrameElement | null = null;
  let scene: unknown = null;
  const showScene = () => frame?.contentWindow?.postMessage({ type: "scene", scene }, "*");
  window.addEventListener("message", (event: MessageEvent<{ type?: string; request?: number }>) => {
    if (frame === null || event.source !== frame.contentWindow) return;
    if (event.data.type === "ready") showScene();
    // The strategy tables are the main view's: this one has none to give.
    else if (event.data.type === "slice") frame.contentWindow?.postMessage({ type: "slice", request: event.data.request, slice: null }, "*");
  });
  const draw = (next: unknown) => {
    scene = next;
    if (frame === null) {
      frame = element<HTMLIFrameElement>("iframe", { class: "judge-view", src: "view.html", title: "the counterexample in the game view" });
      frame.addEventListener("load", showScene);
      report.after(frame);
    } else {
      showScene();
    }
    frame.hidden = next === null;
  };
  panel.append(bar, editorHost, progress, verdict, report, open);
  (document.querySelector("main") ?? document.body).append(panel);

  const toggle = element<HTMLButtonElement>("button", { type: "button", id: "judge-toggle", title: "judge a LeetCode solution" }, "judge");
  (document.querySelector("header") ?? document.body).append(toggle);

  const link = judgeOfFragment(location.hash);
  if (link?.lang) lang.value = link.lang;
  const editor = new EditorView({
    parent: editorHost,
    state: EditorState.create({
      doc: link?.code ?? EXAMPLES[lang.value as Lang],
      extensions: [
        basicSetup,
        EditorView.contentAttributes.of({ "data-judge-editor": "", "aria-label": "the solution" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) follow();
        }),
      ],
    }),
  });
  const code = () => editor.state.doc.toString();
  // The address bar reproduces the judge while its code is what was last edited.
  const follow = () => history.replaceState(null, "", judgeFragment(code(), lang.value as Lang));
  lang.addEventListener("change", () => {
    const current = code();
    if (current === EXAMPLES.python || current === EXAMPLES.javascript) {
      editor.dispatch({ changes: { from: 0, to: current.length, insert: EXAMPLES[lang.value as Lang] } });
    }
    follow();
  });

  const show = (shown: boolean) => {
    panel.hidden = !shown;
    document.body.classList.toggle("judging", shown);
  };
  toggle.addEventListener("click", () => {
    show(panel.hidden !== false);
    if (!panel.hidden) follow();
  });
  close.addEventListener("click", () => show(false));
  if (link !== null) {
    show(true);
    // After the page's own first update of the address bar, which follows the graph.
    if (link.code !== null) setTimeout(follow, 0);
  }

  let worker: Worker | null = null;
  let counterexample: string | null = null;
  const finish = () => {
    run.disabled = false;
    stop.disabled = true;
    worker?.terminate();
    worker = null;
  };
  run.addEventListener("click", () => {
    if (worker !== null) return;
    const budget = Number(seconds.value);
    const seedValue = seed.value === "" ? 1 : Number(seed.value);
    const graphCount = graphs.value === "" ? null : Number(graphs.value);
    if (!(budget > 0) || !Number.isSafeInteger(seedValue) || seedValue < 0 || (graphCount !== null && !(Number.isSafeInteger(graphCount) && graphCount > 0))) {
      progress.textContent = "seconds must be above 0, the seed a whole number from 0, and graphs empty or at least 1";
      return;
    }
    counterexample = null;
    open.hidden = true;
    report.textContent = "";
    verdict.dataset.verdict = "running";
    verdict.dataset.nodes = "";
    verdict.dataset.graph = "";
    verdict.textContent = "running";
    progress.textContent = lang.value === "python" ? "loading Python (Pyodide)…" : "starting…";
    run.disabled = true;
    stop.disabled = false;
    worker = new Worker("judge-worker.js");
    worker.addEventListener("message", (event: MessageEvent<FromJudge>) => {
      const message = event.data;
      if (message.type === "progress") {
        progress.textContent = message.status;
      } else if (message.type === "loaded") {
        // The last load of the solution's runtime (for measurements).
        progress.dataset.loadMs = message.ms.toFixed(0);
      } else if (message.type === "error") {
        verdict.dataset.verdict = "error";
        verdict.textContent = "not judged";
        progress.textContent = "";
        report.textContent = message.message;
        finish();
      } else {
        const result = message.report;
        const word = String(result.verdict);
        verdict.dataset.verdict = word;
        verdict.textContent = word;
        const graph = result.graph as number[][] | undefined;
        verdict.dataset.nodes = graph === undefined ? "" : String(graph.length);
        verdict.dataset.graph = graph === undefined ? "" : JSON.stringify(graph);
        report.textContent = message.text;
        progress.textContent = "";
        counterexample = message.cmg;
        open.hidden = counterexample === null;
        if (message.scene !== null || frame !== null) draw(message.scene);
        finish();
      }
    });
    const start: ToJudge = {
      type: "start", code: code(), lang: lang.value as Lang, seconds: budget, seed: seedValue, graphs: graphCount,
    };
    worker.postMessage(start);
  });
  stop.addEventListener("click", () => {
    const message: ToJudge = { type: "stop" };
    worker?.postMessage(message);
    progress.textContent = "stopping…";
  });
  open.addEventListener("click", () => {
    if (counterexample !== null) openGraph(counterexample);
  });
}
