// `cmg view FILE --no-open` as the browser tests start it (the child process and the URL it
// prints), and a page opened on it.

import { spawn } from "node:child_process";

export function startView(cmg, file, timeoutMs = 10000) {
  const child = spawn(cmg, ["view", file, "--no-open"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = new Promise((resolveUrl, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (found) resolveUrl(found[0]);
    });
    child.on("exit", (code) => reject(new Error(`cmg view exited with ${code}`)));
    setTimeout(() => reject(new Error("cmg view printed no URL")), timeoutMs);
  });
  return { child, url };
}

/** A page of `browser` (900 × 700) opened on `url`, its errors and console errors pushed onto `errors`. */
export async function openView(browser, url, errors) {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(url);
  return page;
}
