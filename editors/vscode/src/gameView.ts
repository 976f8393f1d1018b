// The game view beside a .cmg file: a webview running the web UI of `web/` (shipped in
// the .vsix under media/), fed with the language server's `cmg/scene` on every edit and
// with `cmg/slice` (one slice of the position table) whenever the page asks for one.

import * as vscode from "vscode";

import { keepPin, keptPins, toUtf16, webviewHtml, type LineColumn } from "./gameViewContent";

/** Edits closer together than this are drawn once. */
const DEBOUNCE_MS = 150;
/** Cursor moves closer together than this mark one node in the view. */
const CURSOR_DEBOUNCE_MS = 80;
/** While the server still solves the version, ask again this often, this many times. */
const PENDING_RETRY_MS = 150;
const PENDING_RETRIES = 100;

interface PageMessage {
  type?: string;
  mention?: { start: LineColumn; end: LineColumn };
  request?: number;
  cat?: number;
  turn?: string;
  /** "moved": a node the user dragged (pinned) to `at`, or unpinned (null). */
  node?: number;
  at?: [number, number] | null;
}

interface SliceResponse {
  version: number;
  pending: boolean;
  slice: unknown;
}

interface Highlight {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

interface SceneResponse {
  version: number;
  pending: boolean;
  scene: { nodes: { id: number; x: number; y: number }[] };
}

/** What the view needs of the language client: the desktop's or the web worker's. */
export interface RequestSender {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export function registerGameView(
  context: vscode.ExtensionContext,
  client: () => RequestSender | undefined,
): vscode.Disposable {
  return vscode.commands.registerCommand("cmg.openGameView", () => {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || editor.document.languageId !== "cmg") {
      void vscode.window.showInformationMessage("cmg: open a .cmg file to see its game view.");
      return;
    }
    void openGameView(context, editor.document, client);
  });
}

/**
 * The positions of each document's last picture, by URI, for as long as the extension
 * runs: closing the view and opening it again keeps every node where it was.
 */
const rememberedPositions = new Map<string, Record<string, [number, number]>>();
const REMEMBERED_DOCUMENTS = 100;

async function openGameView(
  context: vscode.ExtensionContext,
  document: vscode.TextDocument,
  client: () => RequestSender | undefined,
): Promise<void> {
  const media = vscode.Uri.joinPath(context.extensionUri, "media");
  const panel = vscode.window.createWebviewPanel(
    "cmg.gameView",
    `Game: ${vscode.workspace.asRelativePath(document.uri)}`,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    // Kept alive while hidden, so that zoom, pan and play survive switching tabs.
    { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true },
  );
  const webview = panel.webview;
  // Through the editor's file system and the platform's crypto, so that the same view
  // runs in VS Code for the Web.
  const template = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(media, "index.html")));
  const nonce = btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(16))));
  webview.html = webviewHtml(template, {
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, "view.js")).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, "view.css")).toString(),
    nonce,
  });

  // Where the last view of this document drew its nodes: a view opened again draws them there.
  const key = document.uri.toString();
  let positions: Record<string, [number, number]> = rememberedPositions.get(key) ?? {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const update = async (retries: number): Promise<void> => {
    const running = client();
    if (running === undefined || disposed) return;
    const version = document.version;
    let response: SceneResponse | null;
    try {
      response = await running.sendRequest<SceneResponse | null>("cmg/scene", {
        textDocument: { uri: document.uri.toString() },
        version,
        positions,
      });
    } catch {
      // ContentModified: a newer edit is on its way and asks again itself.
      return;
    }
    // Never show a scene of text the editor no longer has.
    if (response === null || disposed || response.version !== document.version) return;
    positions = Object.fromEntries(response.scene.nodes.map((n) => [String(n.id), [n.x, n.y]]));
    rememberedPositions.delete(key);
    rememberedPositions.set(key, positions);
    // The oldest go first: a long session opens many documents.
    while (rememberedPositions.size > REMEMBERED_DOCUMENTS) rememberedPositions.delete(rememberedPositions.keys().next().value as string);
    void webview.postMessage({ type: "scene", scene: response.scene });
    if (response.pending && retries > 0) {
      timer = setTimeout(() => void update(retries - 1), PENDING_RETRY_MS);
    }
  };
  // The page asks for the slice it shows; the answer goes back under the request's number,
  // null when there is none (not solved yet, another version: the next scene asks again).
  const slice = async (message: PageMessage): Promise<void> => {
    const running = client();
    let answer: SliceResponse | null = null;
    try {
      answer =
        running === undefined
          ? null
          : await running.sendRequest<SliceResponse | null>("cmg/slice", {
              textDocument: { uri: document.uri.toString() },
              version: document.version,
              cat: message.cat,
              turn: message.turn,
            });
    } catch {
      answer = null;
    }
    if (disposed) return;
    void webview.postMessage({ type: "slice", request: message.request, slice: answer?.slice ?? null });
  };
  const schedule = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void update(PENDING_RETRIES), DEBOUNCE_MS);
  };
  // Text to picture: the node whose id the cursor is on is marked in the view. The
  // server's highlights of the mention under the cursor name it (none in a comment, a
  // label or between the ids of an adjacency list), so the rule is the server's.
  let selected: number | null = null;
  let cursorTimer: ReturnType<typeof setTimeout> | undefined;
  const select = async (position: vscode.Position): Promise<void> => {
    const running = client();
    if (running === undefined || disposed) return;
    const version = document.version;
    let highlights: Highlight[] | null = null;
    try {
      highlights = await running.sendRequest<Highlight[] | null>("textDocument/documentHighlight", {
        textDocument: { uri: document.uri.toString() },
        position: { line: position.line, character: position.character },
      });
    } catch {
      highlights = null;
    }
    // An answer about text the editor no longer has marks nothing.
    if (disposed || version !== document.version) return;
    const first = highlights?.[0]?.range;
    const id =
      first === undefined
        ? NaN
        : Number(
            document.getText(
              new vscode.Range(first.start.line, first.start.character, first.end.line, first.end.character),
            ),
          );
    const node = Number.isSafeInteger(id) ? id : null;
    if (node === selected) return;
    selected = node;
    void webview.postMessage({ type: "select", node });
  };
  const followCursor = (position: vscode.Position): void => {
    if (cursorTimer !== undefined) clearTimeout(cursorTimer);
    cursorTimer = setTimeout(() => void select(position), CURSOR_DEBOUNCE_MS);
  };

  const subscriptions = [
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document) schedule();
    }),
    vscode.window.onDidChangeTextEditorSelection((event) => {
      if (event.textEditor.document === document) followCursor(event.textEditor.selection.active);
    }),
    webview.onDidReceiveMessage((message: PageMessage) => {
      if (message.type === "ready") {
        // The nodes pinned in this document's view, before its first scene.
        void webview.postMessage({ type: "pins", pins: keptPins(context.workspaceState, key) });
        schedule();
        // A page loaded again marks the node the cursor is on.
        if (selected !== null) void webview.postMessage({ type: "select", node: selected });
      }
      if (message.type === "reveal" && message.mention !== undefined) void reveal(document, message.mention);
      if (message.type === "slice" && typeof message.request === "number") void slice(message);
      // A dragged node: the next layout starts from where it was put.
      if (message.type === "moved" && typeof message.node === "number" && Array.isArray(message.at)) {
        positions = { ...positions, [String(message.node)]: message.at };
        rememberedPositions.set(key, positions);
      }
      // The pin (or unpin) too, kept with the workspace through a closed view and a restart.
      if (message.type === "moved" && typeof message.node === "number" && (message.at === null || Array.isArray(message.at))) {
        void keepPin(context.workspaceState, key, message.node, message.at ?? null);
      }
    }),
  ];
  panel.onDidDispose(() => {
    disposed = true;
    if (timer !== undefined) clearTimeout(timer);
    if (cursorTimer !== undefined) clearTimeout(cursorTimer);
    for (const subscription of subscriptions) subscription.dispose();
  });
  context.subscriptions.push(panel);
}

/** Shows the document with the node's first mention selected. */
async function reveal(document: vscode.TextDocument, mention: { start: LineColumn; end: LineColumn }): Promise<void> {
  const position = (at: LineColumn): vscode.Position => {
    const line = Math.min(Math.max(0, at.line - 1), document.lineCount - 1);
    const converted = toUtf16(at, document.lineAt(line).text);
    return new vscode.Position(line, converted.character);
  };
  const range = new vscode.Range(position(mention.start), position(mention.end));
  const shown = vscode.window.visibleTextEditors.find((e) => e.document === document);
  const editor = await vscode.window.showTextDocument(document, {
    viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One,
    selection: range,
  });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
