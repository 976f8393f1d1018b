// The language server of VS Code for the Web: the WebAssembly core (crates/cmg-wasm,
// embedded in this bundle) in the extension's web worker, behind the protocol. It
// answers what the desktop server answers from the same Rust functions: diagnostics,
// inlay hints, hover, formatting, quick fixes, semantic tokens (the native legend,
// generated into legend.ts), document highlights and the game view's `cmg/scene` and
// `cmg/slice`.
//
// The scheduling rules of the native server, in one thread:
// - Edits in order: the worker handles one message at a time, in the order sent, so a
//   request sees exactly the text the client had when it sent it.
// - No stale result: diagnostics are published with the version they were made from,
//   once the messages that arrived meanwhile are applied; a request whose document
//   changed while it waited for the core is answered ContentModified.
// - Bounded memory: one instance of the core, holding one text at a time (the document
//   asked about is opened again when another was open), under the core's own limits
//   (texts over 8 MiB are refused, solves stay within its memory budget); a trap drops
//   the instance and starts a new one.

import {
  BrowserMessageReader,
  BrowserMessageWriter,
  CodeActionKind,
  createConnection,
  DiagnosticSeverity,
  DiagnosticTag,
  DocumentHighlightKind,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Diagnostic,
  type InlayHint,
  type TextEdit,
} from "vscode-languageserver/browser";
import { TextDocument } from "vscode-languageserver-textdocument";

import wasm from "cmg:wasm";
import { UNNECESSARY } from "../../../../web/src/generated/words";
import { Cmg, type Requests, type Summary } from "../../../../web/src/wasm/cmg";
import { minimalEdit } from "./edits";
import { ENCODING, LEGEND } from "./legend";

type Scope = ConstructorParameters<typeof BrowserMessageReader>[0];
const scope = globalThis as unknown as Scope;
const connection = createConnection(new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
const documents = new TextDocuments(TextDocument);

let core: Promise<Cmg> = Cmg.load(wasm);
/** The document and version the core holds, with its summary. */
let held: { uri: string; version: number; summary: Summary } | null = null;

/**
 * The core with `document` open at its current version: opened again only when the
 * core holds another text. A trap (out of memory, a bug) drops the instance.
 */
async function open(document: TextDocument): Promise<{ cmg: Cmg; summary: Summary }> {
  const asked = document.version;
  const cmg = await core;
  // The core may have been loading while edits arrived: never answer about a newer text
  // than the one the request was about.
  if (document.version !== asked) throw new ResponseError(LSPErrorCodes.ContentModified, "cmg: the document changed");
  if (held?.uri === document.uri && held.version === document.version) return { cmg, summary: held.summary };
  try {
    held = { uri: document.uri, version: document.version, summary: cmg.open(document.getText()) };
  } catch (error) {
    held = null;
    core = Cmg.load(wasm);
    throw new ResponseError(ErrorCodes.InternalError, `cmg: the analysis stopped: ${String(error)}`);
  }
  return { cmg, summary: held.summary };
}

/** Asks the core about `uri`'s open text; null for a document the client has not opened. */
async function ask<M extends keyof Requests>(
  uri: string,
  method: M,
  params: Requests[M]["params"],
): Promise<Requests[M]["answer"] | null> {
  const document = documents.get(uri);
  if (document === undefined) return null;
  const { cmg } = await open(document);
  try {
    return cmg.request(method, params);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      held = null;
      core = Cmg.load(wasm);
    }
    throw new ResponseError(ErrorCodes.InternalError, `cmg: ${method}: ${String(error)}`);
  }
}

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
} as const;

function diagnostics(uri: string, summary: Summary): Diagnostic[] {
  return summary.diagnostics.map((d) => ({
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: "cmg",
    message: d.message,
    ...(d.related === undefined
      ? {}
      : { relatedInformation: [{ location: { uri, range: d.related.range }, message: d.related.message }] }),
    ...(UNNECESSARY.includes(d.code) ? { tags: [DiagnosticTag.Unnecessary] } : {}),
  }));
}

// Diagnostics: one publication per document once the messages queued behind an edit are
// applied, of the text it then has.
const waiting = new Set<string>();
function publishSoon(uri: string): void {
  if (waiting.has(uri)) return;
  waiting.add(uri);
  setTimeout(() => {
    waiting.delete(uri);
    const document = documents.get(uri);
    if (document === undefined) return;
    open(document).then(
      ({ summary }) => {
        if (documents.get(uri) === document) {
          void connection.sendDiagnostics({ uri, version: document.version, diagnostics: diagnostics(uri, summary) });
        }
      },
      // A newer version is on its way, or the core stopped: the next edit publishes.
      () => {},
    );
  }, 0);
}
documents.onDidChangeContent((event) => publishSoon(event.document.uri));
documents.onDidClose((event) => {
  if (held?.uri === event.document.uri) held = null;
  void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
});

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    hoverProvider: true,
    inlayHintProvider: true,
    documentFormattingProvider: true,
    documentHighlightProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
    semanticTokensProvider: { legend: LEGEND, full: true, range: true },
  },
  serverInfo: { name: "cmg (WebAssembly)" },
}));

connection.onHover(async ({ textDocument, position }) => {
  const hover = await ask(textDocument.uri, "hover", { position });
  return hover === null || hover === undefined
    ? null
    : { contents: { kind: "markdown", value: hover.markdown }, range: hover.range };
});

/** The client asks for the visible range; at most this many hints, as the native server. */
const MAX_INLAY_HINTS = 5_000;

connection.languages.inlayHint.on(async ({ textDocument, range }) => {
  const hints = (await ask(textDocument.uri, "inlayHints", {})) ?? [];
  const inside = (p: { line: number; character: number }): boolean =>
    (p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character)) &&
    (p.line < range.end.line || (p.line === range.end.line && p.character <= range.end.character));
  return hints
    .filter((hint) => inside(hint.position))
    .slice(0, MAX_INLAY_HINTS)
    .map(
      (hint): InlayHint => ({
        position: hint.position,
        label: hint.label,
        paddingLeft: hint.paddingLeft,
        paddingRight: hint.paddingRight,
        ...(hint.tooltip === null ? {} : { tooltip: hint.tooltip }),
      }),
    );
});

/** At most this many semantic tokens in one answer, as the native server. */
const MAX_SEMANTIC_TOKENS = 100_000;

/**
 * The core's tokens (absolute: line, character, length, kind) in the protocol's
 * relative encoding, with the native server's legend; kinds left to the grammar are
 * skipped.
 */
function encodeTokens(answer: { kinds: string[]; data: number[] } | null | undefined): { data: number[] } {
  const data: number[] = [];
  if (answer === null || answer === undefined) return { data };
  let [line, character] = [0, 0];
  for (let i = 0; i + 3 < answer.data.length && data.length < MAX_SEMANTIC_TOKENS * 5; i += 4) {
    const [at, from, length, kind] = answer.data.slice(i, i + 4) as [number, number, number, number];
    const encoding = ENCODING[answer.kinds[kind] ?? ""];
    if (encoding === null || encoding === undefined || length === 0) continue;
    data.push(at - line, at === line ? from - character : from, length, encoding[0], encoding[1]);
    [line, character] = [at, from];
  }
  return { data };
}

connection.languages.semanticTokens.on(async ({ textDocument }) =>
  encodeTokens(await ask(textDocument.uri, "semanticTokens", {})),
);
connection.languages.semanticTokens.onRange(async ({ textDocument, range }) =>
  encodeTokens(await ask(textDocument.uri, "semanticTokens", { range })),
);

connection.onDocumentFormatting(async ({ textDocument }) => {
  const document = documents.get(textDocument.uri);
  const formatted = await ask(textDocument.uri, "format", {});
  if (document === undefined || formatted === null || formatted === undefined) return null;
  const edit = minimalEdit(document.getText(), formatted.text, (offset) => document.positionAt(offset));
  return edit === null ? [] : [edit];
});

connection.onDocumentHighlight(async ({ textDocument, position }) => {
  const highlights = (await ask(textDocument.uri, "highlights", { position })) ?? [];
  return highlights.map((h) => ({
    range: h.range,
    kind: h.kind === "write" ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
});

connection.onCodeAction(async ({ textDocument, range, context }) => {
  const actions = (await ask(textDocument.uri, "codeActions", { range })) ?? [];
  return actions.map((action): CodeAction => {
    const edits: TextEdit[] = action.edits;
    const fixed = action.fixes === null ? [] : context.diagnostics.filter((d) => d.code === action.fixes);
    return {
      title: action.title,
      kind: action.kind === "quickfix" ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite,
      edit: { changes: { [textDocument.uri]: edits } },
      ...(fixed.length > 0 ? { diagnostics: fixed } : {}),
      ...(action.preferred ? { isPreferred: true } : {}),
    };
  });
});

// The game view's requests, answered as the native server answers them: the scene or
// slice of the version the client has, never pending (the core solves as it opens).
interface ViewParams {
  textDocument: { uri: string };
  version?: number;
}

function current(params: ViewParams): TextDocument | null {
  const document = documents.get(params.textDocument.uri);
  if (document === undefined) return null;
  if (params.version !== undefined && params.version !== document.version) {
    throw new ResponseError(LSPErrorCodes.ContentModified, "cmg: the document changed");
  }
  return document;
}

connection.onRequest("cmg/scene", async (params: ViewParams & { positions?: Record<number, [number, number]> }) => {
  const document = current(params);
  if (document === null) return null;
  const scene = await ask(document.uri, "scene", params.positions === undefined ? {} : { positions: params.positions });
  return { uri: document.uri, version: document.version, pending: false, scene };
});

connection.onRequest("cmg/slice", async (params: ViewParams & { cat: number; turn: "mouse" | "cat" }) => {
  const document = current(params);
  if (document === null) return null;
  const slice = await ask(document.uri, "slice", { cat: params.cat, turn: params.turn });
  return { uri: document.uri, version: document.version, pending: false, slice };
});

documents.listen(connection);
connection.listen();
