// The game view webview's pure parts, kept free of the `vscode` module so that node's
// test runner can check them: the page's HTML with the webview's Content-Security-Policy,
// scene positions (line and column in characters) as VS Code positions (UTF-16), and the
// pins kept in the workspace's state.

/** The files the game view needs, copied from `web/` into `media/` by the build. */
export const MEDIA_FILES = ["index.html", "view.js", "view.css"] as const;

export interface WebviewResources {
  /** `webview.cspSource`: where the webview may load the bundle from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** A fresh random nonce per page load. */
  nonce: string;
}

/**
 * The page of `web/src/index.html` (its one home) for a webview: the browser page's
 * policy replaced by a stricter one (scripts only with the nonce, styles and images only
 * from the extension, no connections at all: scenes arrive as messages), and the bundle
 * loaded from the extension's `media/` folder.
 */
export function webviewHtml(template: string, resources: WebviewResources): string {
  const policy = [
    "default-src 'none'",
    `img-src ${resources.cspSource} data:`,
    `style-src ${resources.cspSource}`,
    `script-src 'nonce-${resources.nonce}'`,
  ].join("; ");
  const html = template
    .replace(
      /<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
      `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    )
    .replace('href="view.css"', `href="${resources.styleUri}"`)
    .replace('<script src="view.js"></script>', `<script nonce="${resources.nonce}" src="${resources.scriptUri}"></script>`);
  if (!html.includes(resources.scriptUri) || !html.includes(`content="${policy}"`)) {
    throw new Error("the game view page does not have the expected policy and script tags");
  }
  return html;
}

/** A scene position: line and column from 1, the column in Unicode characters. */
export interface LineColumn {
  line: number;
  column: number;
}

/** The zero-based line and UTF-16 character of `at` in `lineText` (the text of that line). */
export function toUtf16(at: LineColumn, lineText: string): { line: number; character: number } {
  let character = 0;
  let seen = 0;
  for (const char of lineText) {
    if (seen >= at.column - 1) break;
    character += char.length;
    seen++;
  }
  return { line: Math.max(0, at.line - 1), character };
}

/** Nodes the user dragged in a document's view, by id: where they were put. */
export type Pins = Record<string, [number, number]>;

/** Where the extension keeps the pins: the workspace's state (a `vscode.Memento`). */
export interface PinMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** The key of every document's pins in the workspace's state. */
export const PINS_KEY = "cmg.gameView.pins";
/** The pins of at most this many documents are kept, the least recently pinned forgotten first. */
export const PINNED_DOCUMENTS = 100;

/** Every document's pins as kept, by URI; whatever is not a pin is left out. */
function allPins(memory: PinMemory): Record<string, Pins> {
  const kept = memory.get(PINS_KEY);
  const all: Record<string, Pins> = {};
  if (typeof kept !== "object" || kept === null) return all;
  for (const [uri, pins] of Object.entries(kept)) {
    if (typeof pins !== "object" || pins === null) continue;
    const valid: Pins = {};
    for (const [node, at] of Object.entries(pins as Record<string, unknown>)) {
      if (Array.isArray(at) && at.length === 2) {
        const x: unknown = at[0];
        const y: unknown = at[1];
        if (typeof x === "number" && typeof y === "number" && Number.isFinite(x) && Number.isFinite(y)) valid[node] = [x, y];
      }
    }
    all[uri] = valid;
  }
  return all;
}

/** The pins kept for the document at `uri`: a view opened again, or after VS Code restarts, draws them. */
export function keptPins(memory: PinMemory, uri: string): Pins {
  return allPins(memory)[uri] ?? {};
}

/** Keeps node `node` of the document at `uri` pinned at `at`, or unpinned (`null`). */
export function keepPin(memory: PinMemory, uri: string, node: number, at: [number, number] | null): Thenable<void> {
  const all = allPins(memory);
  const pins = { ...(all[uri] ?? {}) };
  if (at === null) delete pins[String(node)];
  else pins[String(node)] = at;
  // The document pinned last goes last, so that the oldest are dropped first.
  delete all[uri];
  if (Object.keys(pins).length > 0) all[uri] = pins;
  const uris = Object.keys(all);
  for (const old of uris.slice(0, Math.max(0, uris.length - PINNED_DOCUMENTS))) delete all[old];
  return memory.update(PINS_KEY, all);
}
