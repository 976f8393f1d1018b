// The game view webview's pure parts, kept free of the `vscode` module so that node's
// test runner can check them: the page's HTML with the webview's Content-Security-Policy,
// and scene positions (line and column in characters) as VS Code positions (UTF-16).

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
