// `cmg view FILE --no-open` as the browser tests start it: the child process and the URL it prints.

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
