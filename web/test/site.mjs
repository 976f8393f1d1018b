// What the browser tests of the playground and of rules.mjs share: where things are (the built site, the
// browser, the screenshots), a static server for the site on 127.0.0.1 (any static
// host will do: this one serves files and nothing else), and TAP-like checks.

import { mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve } from "node:path";

export const root = resolve(new URL("../..", import.meta.url).pathname);
export const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
/** The built site: the first argument, or $CARGO_TARGET_DIR/playground. */
export const site = resolve(process.argv[2] ?? join(target, "playground"));
export const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const artifacts = join(target, "artifacts");
mkdirSync(artifacts, { recursive: true });

let failures = 0;
export function check(condition, what) {
  if (condition) {
    console.log(`ok - ${what}`);
  } else {
    failures++;
    console.log(`not ok - ${what}`);
  }
}

/** Says how the checks went and exits with their status. */
export function finish(name) {
  console.log(failures === 0 ? `# ${name}: all passed` : `# ${name}: ${failures} failed`);
  process.exit(failures === 0 ? 0 : 1);
}

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
};

/** Serves `site`; resolves to the server and its base address (ending in `/`). */
export async function serveSite(site) {
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
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

/** Pastes `text` over the whole editor of the playground's `page`, as a user's Ctrl+V does. */
export function pasteText(page, text) {
  return page.evaluate((text) => {
    const content = document.querySelector("[data-editor]");
    content.focus();
    document.execCommand("selectAll");
    const data = new DataTransfer();
    data.setData("text/plain", text);
    content.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** Drags the node `node` (a locator of its group) of `page`'s picture by (dx, dy) screen pixels, in two legs, as a hand does. */
export async function dragNode(page, node, dx, dy) {
  const box = await node.locator(".shape").boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx + dx / 2, cy + dy / 2, { steps: 5 });
  await page.mouse.move(cx + dx, cy + dy, { steps: 5 });
  await page.mouse.up();
}
