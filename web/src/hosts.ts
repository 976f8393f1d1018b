// Where the game view's scenes and slices come from: `cmg view` over HTTP, or the VS Code
// extension (and the playground, which plays its part) through messages.

import { byId } from "./dom";
import { follow } from "./follow";
import { loadPins, pinsKey, savePin, type PinStore } from "./pins";
import type { Player, Scene, SceneNode, Slice } from "./scene";

/** Where scenes and slices come from and where "reveal in the text" goes. */
export interface Host {
  /**
   * `onSelect`: the editor's cursor is on a mention of this node (null: on none).
   * `onPins`: the nodes pinned when this file was last shown, which the host kept.
   */
  start(onScene: (scene: Scene) => void, onSelect: (node: number | null) => void, onPins: (pins: Record<number, [number, number]>) => void): void;
  /** One slice of the current file's table; null when there is none (not solved, stale). */
  slice(cat: number, turn: Player): Promise<Slice | null>;
  /** Shows the node's first mention; returns what to tell the user, if anything. */
  reveal(node: SceneNode): string | null;
  /** The user dragged a node there (pinned), or unpinned it (null): a host may seed its next layout with it. */
  moved?(node: number, at: [number, number] | null): void;
}

export interface VsCodeApi {
  postMessage(message: unknown): void;
  /** The webview's state, kept by VS Code when the page is loaded again (the playground's stand-in has none). */
  getState?(): unknown;
  setState?(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The file `cmg view` shows, as its page names it (`<meta name="cmg-file">`); null elsewhere. */
function viewedFile(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="cmg-file"]')?.content || null;
}

/** The browser's localStorage, or null where it cannot be reached. */
function browserStorage(): PinStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function browserHost(): Host {
  // The pins are kept per file in this browser, so that a reload draws them again.
  const file = viewedFile();
  const storage = file === null ? null : browserStorage();
  return {
    start(onScene, _onSelect, onPins) {
      if (file !== null && storage !== null) onPins(loadPins(storage, pinsKey(file)));
      const connection = byId("connection");
      follow(
        "events",
        (data) => onScene(JSON.parse(data)),
        (text) => {
          connection.textContent = text ?? "";
          connection.hidden = text === null;
        },
      );
    },
    async slice(cat, turn) {
      const response = await fetch(`slice?cat=${cat}&turn=${turn}`, { cache: "no-store" });
      return response.ok ? ((await response.json()) as Slice | null) : null;
    },
    reveal(node) {
      const at = node.mention?.start;
      return at === undefined ? null : `node ${node.id} is first mentioned on line ${at.line}, column ${at.column}`;
    },
    moved(node, at) {
      if (file !== null && storage !== null) savePin(storage, pinsKey(file), node, at);
    },
  };
}

/** The webview's state as a store of one key: the pins of the panel's one document. */
function webviewStore(api: VsCodeApi): PinStore {
  const state = (): Record<string, unknown> => {
    const kept = api.getState?.();
    return typeof kept === "object" && kept !== null ? (kept as Record<string, unknown>) : {};
  };
  return {
    getItem: (key) => {
      const value = state()[key];
      return typeof value === "string" ? value : null;
    },
    setItem: (key, value) => api.setState?.({ ...state(), [key]: value }),
    removeItem: (key) => {
      const { [key]: _removed, ...rest } = state();
      api.setState?.(rest);
    },
  };
}

/** The key of the pins in the webview's state: a panel shows one document. */
const WEBVIEW_PINS = "pins";

export function vscodeHost(api: VsCodeApi): Host {
  // The extension answers each slice request by its number (editors/vscode/src/gameView.ts).
  const waiting = new Map<number, (slice: Slice | null) => void>();
  let next = 0;
  return {
    start(onScene, onSelect, onPins) {
      // The pins of this panel's document, kept in the webview's state through a reload of the page.
      onPins(loadPins(webviewStore(api), WEBVIEW_PINS));
      window.addEventListener(
        "message",
        (event: MessageEvent<{ type?: string; scene?: Scene; request?: number; slice?: Slice | null; node?: number | null; pins?: Record<number, [number, number]> }>) => {
          if (event.data?.type === "scene" && event.data.scene !== undefined) onScene(event.data.scene);
          if (event.data?.type === "pins" && typeof event.data.pins === "object" && event.data.pins !== null) onPins(event.data.pins);
          if (event.data?.type === "select") onSelect(event.data.node ?? null);
          if (event.data?.type === "slice" && typeof event.data.request === "number") {
            waiting.get(event.data.request)?.(event.data.slice ?? null);
            waiting.delete(event.data.request);
          }
        },
      );
      api.postMessage({ type: "ready" });
    },
    slice(cat, turn) {
      const request = next++;
      return new Promise((resolve) => {
        waiting.set(request, resolve);
        api.postMessage({ type: "slice", request, cat, turn });
      });
    },
    reveal(node) {
      if (node.mention !== null) api.postMessage({ type: "reveal", mention: node.mention });
      return null;
    },
    moved(node, at) {
      savePin(webviewStore(api), WEBVIEW_PINS, node, at);
      api.postMessage({ type: "moved", node, at });
    },
  };
}

/** The host of this page: the VS Code extension's webview when it has its API, else `cmg view`. */
export function pageHost(): Host {
  return typeof acquireVsCodeApi === "function" ? vscodeHost(acquireVsCodeApi()) : browserHost();
}
