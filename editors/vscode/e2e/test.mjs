// The cmg extension in a real VS Code: code-server in Debian's headless Chromium,
// driven by playwright-core. Each scenario starts a fresh code-server (its own user
// data, extensions and config, no gallery), installs the packaged .vsix, opens the
// examples as a user would (Quick Open) and checks what is on the screen.
//
//   node test.mjs --code-server BIN --vsix FILE --cmg BIN --examples DIR --artifacts DIR
//                 [--bundled-vsix FILE] [--web-vsix FILE] [--only NAME] [--user-loads N]
//
// `--vsix` is the universal package, run against `--cmg` through the setting;
// `--bundled-vsix` is a platform package with the server inside, installed with no
// `cmg` on PATH and no setting (its scenario is left out without it); `--web-vsix` is
// the extension with only its `browser` entry, which code-server can run only in the
// browser's web worker extension host (VS Code for the Web). `--cmg` also
// gives the diagnostics the Problems panel must list.
//
// Screenshots and the extension's output channel go to the artefacts folder; every
// check prints "ok"/"FAIL", and the exit code is 1 when any check failed.

import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";

import { chromium } from "playwright-core";

const { values: args } = parseArgs({
  options: {
    "code-server": { type: "string" },
    vsix: { type: "string" },
    "bundled-vsix": { type: "string" },
    "web-vsix": { type: "string" },
    cmg: { type: "string" },
    examples: { type: "string" },
    artifacts: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    // Runs only the scenarios whose name contains this, while working on one.
    only: { type: "string", default: "" },
    // Window loads in the User settings scenario (the setting once went missing in
    // some loads only).
    "user-loads": { type: "string", default: "4" },
  },
});
for (const name of ["code-server", "vsix", "cmg", "examples", "artifacts"]) {
  if (args[name] === undefined) {
    console.error(`test.mjs: --${name} is required`);
    process.exit(2);
  }
}
const artifacts = path.resolve(args.artifacts);
/** The repository's root, for the judge's test solutions (tests/judge/). */
const repositoryRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..", "..");
fs.mkdirSync(artifacts, { recursive: true });

/** How long anything the user waits for may take before the check fails. */
const PATIENCE_MS = 30_000;

let passed = 0;
let failed = 0;

function check(name, ok, detail = "") {
  if (ok) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}${detail === "" ? "" : `: ${detail}`}`);
  }
  return ok;
}

/** Waits for `probe` to return a truthy value; returns the last value either way. */
async function until(probe, timeout = PATIENCE_MS) {
  const deadline = Date.now() + timeout;
  let value = await probe();
  while (!value && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await probe();
  }
  return value;
}

/**
 * One code-server with its own directories. `user` and `machine` are the User and the
 * Remote (machine) settings; code-server windows are remote windows, which is where
 * the scope of a setting decides whether it is read.
 */
class Session {
  constructor(name, { user = {}, machine = {}, vsix = args.vsix, env = process.env }) {
    this.name = name;
    this.vsix = vsix;
    this.env = { ...env, EXTENSIONS_GALLERY: "{}" };
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `cmg-e2e-${name}-`));
    this.workspace = path.join(this.dir, "workspace");
    fs.cpSync(args.examples, this.workspace, { recursive: true });
    const base = {
      "workbench.startupEditor": "none",
      "workbench.secondarySideBar.defaultVisibility": "hidden",
      "chat.disableAIFeatures": true,
      "workbench.colorTheme": "Default Dark Modern",
      "security.workspace.trust.enabled": false,
      "telemetry.telemetryLevel": "off",
      "update.mode": "none",
      "extensions.autoCheckUpdates": false,
      "window.commandCenter": false,
    };
    this.userSettings = path.join(this.dir, "data", "User", "settings.json");
    this.writeJson(this.userSettings, { ...base, ...user });
    if (Object.keys(machine).length > 0) {
      this.writeJson(path.join(this.dir, "data", "Machine", "settings.json"), machine);
    }
    this.config = path.join(this.dir, "config.yaml");
    fs.writeFileSync(this.config, "bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n");
    this.shots = 0;
  }

  writeJson(file, value) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  }

  codeServerArgs() {
    return [
      "--config", this.config,
      "--user-data-dir", path.join(this.dir, "data"),
      "--extensions-dir", path.join(this.dir, "extensions"),
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
    ];
  }

  async start(browser) {
    // code-server keeps its own files under the XDG folders (a default config.yaml,
    // its state): pointing them into the session's folder leaves the user's home alone.
    const env = {
      ...this.env,
      XDG_CONFIG_HOME: path.join(this.dir, "xdg-config"),
      XDG_DATA_HOME: path.join(this.dir, "xdg-data"),
      XDG_CACHE_HOME: path.join(this.dir, "xdg-cache"),
    };
    execFileSync(args["code-server"], [...this.codeServerArgs(), "--install-extension", path.resolve(this.vsix)], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    this.log = path.join(this.dir, "code-server.log");
    const logFd = fs.openSync(this.log, "w");
    this.server = spawn(args["code-server"], [...this.codeServerArgs(), this.workspace], {
      env,
      stdio: ["ignore", logFd, logFd],
      detached: true,
    });
    const url = await until(() => /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(fs.readFileSync(this.log, "utf8"))?.[1], 20_000);
    if (!url) {
      throw new Error(`code-server did not start:\n${fs.readFileSync(this.log, "utf8")}`);
    }
    this.url = url;
    this.context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    this.page = await this.context.newPage();
    // The page's console, its workers' included (the web extension host and its
    // language server), kept with the artefacts.
    this.console = [];
    const keep = (where) => (message) => this.console.push(`${where} ${message.type()}: ${message.text()}`);
    this.page.on("console", keep("page"));
    this.page.on("pageerror", (error) => this.console.push(`page error: ${error.message}`));
    this.page.on("worker", (worker) => worker.on("console", keep(`worker ${worker.url().slice(0, 80)}`)));
    await this.load();
  }

  /** Loads (or reloads) the window; each load starts a new extension host. */
  async load() {
    await this.page.goto(`${this.url}/?folder=${encodeURIComponent(this.workspace)}`);
    await this.page.waitForSelector(".monaco-workbench .part.editor", { timeout: 60_000 });
    // The file index behind Quick Open is ready once the explorer lists the files.
    await this.page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 60_000 });
  }

  async screenshot(label) {
    this.shots += 1;
    const file = path.join(artifacts, `${this.name}-${String(this.shots).padStart(2, "0")}-${label}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Opens a file the way a user does: Quick Open, type the name, Enter. */
  async open(name) {
    const page = this.page;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+p");
      await page.waitForSelector(".quick-input-widget .quick-input-box input", { state: "visible" });
      await page.keyboard.type(name);
      const row = `.quick-input-list .monaco-list-row[aria-label*="${name}"]`;
      const listed = await page.waitForSelector(row, { timeout: 10_000 }).then(() => true, () => false);
      if (listed) {
        await page.keyboard.press("Enter");
        const opened = await page
          .waitForSelector(`.editor-instance .monaco-editor[data-uri$="/${name}"]`, { timeout: 10_000 })
          .then(() => true, () => false);
        if (opened) {
          return;
        }
      }
    }
    throw new Error(`could not open ${name} with Quick Open`);
  }

  /**
   * The lines of the editor showing `name`, in order, each with its text and tokens
   * (text, colour, class); inlay hints are part of the text, as on the screen.
   */
  async lines(name) {
    return this.page.evaluate((file) => {
      const editor = [...document.querySelectorAll(".editor-instance .monaco-editor")].find((element) =>
        (element.getAttribute("data-uri") ?? "").endsWith(`/${file}`),
      );
      if (!editor) {
        return [];
      }
      const lines = [...editor.querySelectorAll(".view-lines .view-line")].map((line) => ({
        top: parseFloat(line.style.top),
        text: line.textContent.replace(/\u00a0/g, " "),
        tokens: [...line.querySelectorAll(":scope > span > span")].map((span) => {
          const box = span.getBoundingClientRect();
          return {
            text: span.textContent.replace(/\u00a0/g, " "),
            color: getComputedStyle(span).color,
            className: span.className,
            x: box.x + box.width / 2,
            y: box.y + box.height / 2,
          };
        }),
      }));
      return lines.sort((a, b) => a.top - b.top);
    }, name);
  }

  /** The code lens titles of the editor showing `name`. */
  async lenses(name) {
    return this.page.$$eval(
      `.editor-instance .monaco-editor[data-uri$="/${name}"] .codelens-decoration`,
      (elements) => elements.map((element) => element.textContent ?? ""),
    );
  }

  /** The token with exactly `text` on the first line that starts with `prefix`. */
  async token(name, prefix, text) {
    const line = (await this.lines(name)).find((candidate) => candidate.text.startsWith(prefix));
    return line?.tokens.find((token) => token.text === text);
  }

  async notifications() {
    return this.page.$$eval(".notifications-toasts .notification-toast", (toasts) =>
      toasts.map((toast) => ({
        message: toast.querySelector(".notification-list-item-message")?.textContent ?? "",
        buttons: [...toast.querySelectorAll(".notification-list-item-buttons-container .monaco-button")].map(
          (button) => button.textContent ?? "",
        ),
      })),
    );
  }

  /**
   * Every notification of the window, from the notification centre: toasts can be
   * hidden (several at once collapse into the centre), the centre keeps them all.
   */
  async allNotifications() {
    const page = this.page;
    await page.keyboard.press("Escape");
    await page.click('[id="status.notifications"]');
    await page.waitForSelector(".notifications-center.visible", { timeout: 5000 }).catch(() => {});
    const messages = await page.$$eval(".notifications-center .notification-list-item-message", (elements) =>
      elements.map((element) => element.textContent ?? ""),
    );
    await page.click('[id="status.notifications"]');
    return messages;
  }

  /** The text of the cmg output channel, as the editor logs it to disk. */
  outputChannel() {
    const logs = path.join(this.dir, "data", "logs");
    const found = fs.existsSync(logs)
      ? fs.readdirSync(logs, { recursive: true }).filter((file) => /output_logging_.*-cmg\.log$/.test(String(file)))
      : [];
    return found
      .sort()
      .map((file) => fs.readFileSync(path.join(logs, String(file)), "utf8"))
      .join("\n--- next window ---\n");
  }

  async close() {
    fs.writeFileSync(path.join(artifacts, `${this.name}-output-channel.log`), this.outputChannel());
    fs.copyFileSync(this.log, path.join(artifacts, `${this.name}-code-server.log`));
    fs.writeFileSync(path.join(artifacts, `${this.name}-console.log`), (this.console ?? []).join("\n"));
    await this.context?.close();
    if (this.server?.pid !== undefined) {
      try {
        process.kill(-this.server.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The diagnostics the Problems panel should list: `cmg check --json`, hints left out (VS Code lists none). */
function expectedProblems(file) {
  let output;
  try {
    output = execFileSync(args.cmg, ["check", "--json", file], { encoding: "utf8" });
  } catch (error) {
    // Exit code 1 means "errors found"; the JSON is still on stdout.
    output = error.stdout;
  }
  return JSON.parse(output)
    .filter((diagnostic) => diagnostic.severity !== "hint")
    .map((diagnostic) => `${diagnostic.code} ${diagnostic.start.line}:${diagnostic.start.column}`)
    .sort();
}

/**
 * The Problems panel's rows of `file` (a name in the workspace's top folder) as
 * "code line:column", read from each row's text. The server reports every .cmg file of
 * the workspace (workspace diagnostics), so the panel holds other files' rows too: a
 * file's row (tree level 1, its text starting with the file's name) heads the rows of
 * its diagnostics (level 2).
 */
async function problems(page, file) {
  const rows = await page.$$eval('[id="workbench.panel.markers"] .monaco-list-row', (elements) =>
    elements.map((element) => ({ level: element.getAttribute("aria-level"), text: element.textContent ?? "" })),
  );
  let inFile = false;
  const mine = [];
  for (const row of rows) {
    if (row.level === "1") {
      inFile = row.text.startsWith(file);
    } else if (inFile) {
      mine.push(row.text);
    }
  }
  // A row reads "<message>cmg<code>[Ln 6, Col 6]"; the brackets around the code are CSS.
  return mine
    .map((row) => /cmg([a-z-]+)\[Ln (\d+), Col (\d+)\]$/.exec(row))
    .filter((match) => match !== null)
    .map((match) => `${match[1]} ${match[2]}:${match[3]}`)
    .sort();
}

/**
 * The colours of the hole, the mouse's and the cat's start and a plain id in
 * leetcode-draw.cmg, once they are four different ones (semantic tokens have arrived).
 */
async function roleColors(session) {
  const hole = await session.token("leetcode-draw.cmg", "node 0", "0");
  const mouse = await session.token("leetcode-draw.cmg", "node 1", "1");
  const cat = await session.token("leetcode-draw.cmg", "node 2", "2");
  // "3 --": the line shows a "critical" hint after its `--` (without 3 -- 4 the cat wins).
  const plain = await session.token("leetcode-draw.cmg", "3 --", "3");
  const colors = [hole, mouse, cat, plain].map((token) => token?.color);
  return new Set(colors).size === 4 && !colors.includes(undefined) ? colors : undefined;
}

/**
 * Every non-hint diagnostic of every-diagnostic.cmg in the Problems panel, with code and
 * position (the panel lists the other files of the workspace too; only this file's rows
 * count). Leaves the panel maximized.
 */
async function checkProblems(session, label) {
  const page = session.page;
  await session.open("every-diagnostic.cmg");
  await page.keyboard.press("Control+Shift+m");
  // Maximized, the panel has room for every row (its list only renders visible rows).
  await page.click('.panel .action-label[aria-label="Maximize Panel"]', { timeout: 5000 }).catch(() => {});
  const want = expectedProblems(path.join(args.examples, "every-diagnostic.cmg"));
  const got = await until(async () => {
    const shown = await problems(page, "every-diagnostic.cmg");
    return shown.length >= want.length ? shown : undefined;
  });
  await session.screenshot("problems");
  check(
    `${label}Problems panel: every diagnostic with its code and position`,
    JSON.stringify(got) === JSON.stringify(want),
    `want ${JSON.stringify(want)}\n     got  ${JSON.stringify(got ?? (await problems(page, "every-diagnostic.cmg")))}`,
  );
}

/** The hover on node 3 (a plain node) in leetcode-draw.cmg's `1 -- 3`, which must be open. */
async function checkHover(session, label) {
  const page = session.page;
  const three = await session.token("leetcode-draw.cmg", "1 -- 3", "3");
  let hover;
  if (three) {
    await page.mouse.move(three.x, three.y);
    hover = await until(async () =>
      (await page.$$eval(".monaco-hover:not(.hidden)", (els) => els.map((el) => el.textContent ?? ""))).find((text) =>
        text.includes("node 3"),
      ),
    );
  }
  check(`${label}hover on node 3 shows its neighbours and outcomes`, /neighbours: 1, 4, 5/.test(hover ?? "") && /mouse starts here/.test(hover ?? ""), hover);
  await session.screenshot("hover");
  await page.mouse.move(5, 450);
}

/**
 * The panel closed, leetcode-draw.cmg open and its outcome, a draw, as a hint at the
 * end of its first line: that line, or `undefined` if the hint did not come.
 */
async function checkOutcomeHint(session, label) {
  const page = session.page;
  await page.click('.panel .action-label[aria-label="Restore Panel Size"]').catch(() => {});
  await page.keyboard.press("Control+j");
  await session.open("leetcode-draw.cmg");
  const first = await until(async () => {
    const [line] = await session.lines("leetcode-draw.cmg");
    return line?.text.includes("⟹ outcome: draw") ? line : undefined;
  });
  check(`${label}outcome hint "⟹ outcome: draw" ends line 1`, first !== undefined, JSON.stringify((await session.lines("leetcode-draw.cmg"))[0]?.text));
  return first;
}

/**
 * What a user sees in a Dark Modern window with a working server: every diagnostic of
 * every-diagnostic.cmg in the Problems panel, the outcome hint and lens of
 * leetcode-draw.cmg, the role colours and a hover. `label` starts each check's name.
 */
async function checkFeatures(session, label) {
  const page = session.page;

  await checkProblems(session, label);
  // A pull the client gave up on (VS Code's client never pulls that document again).
  const failedPulls = session.outputChannel().split("\n").filter((line) => line.includes("pull failed"));
  check(`${label}no diagnostic pull failed`, failedPulls.length === 0, failedPulls.join("\n"));
  // A file that is not open is listed too, from the server's workspace diagnostics.
  const closedWant = expectedProblems(path.join(args.examples, "no-game.cmg"));
  const closedGot = await until(async () => {
    const shown = await problems(page, "no-game.cmg");
    return shown.length >= closedWant.length ? shown : undefined;
  });
  check(
    `${label}Problems panel: the diagnostics of no-game.cmg, which is not open`,
    JSON.stringify(closedGot) === JSON.stringify(closedWant),
    `want ${JSON.stringify(closedWant)}\n     got  ${JSON.stringify(closedGot ?? (await problems(page, "no-game.cmg")))}`,
  );
  // The outcome: a labelled hint at the end of the first line, and the lens.
  const first = await checkOutcomeHint(session, label);
  if (first) {
    const hint = first.tokens.find((token) => token.text.includes("⟹ outcome"));
    const comment = first.tokens[0];
    check(`${label}the outcome hint is not coloured like the comment`, hint?.color !== comment?.color, `${hint?.color} vs ${comment?.color}`);
  }
  const lens = await until(async () => (await session.lenses("leetcode-draw.cmg")).find((text) => text.includes("optimal line")));
  check(`${label}code lens names the outcome and the optimal line`, /^▶ draw · optimal line: 1,2 → /.test(lens ?? ""), lens);

  // Colouring: the roles of nodes 0, 1 and 2 differ from a plain id and from each other.
  const roles = await until(() => roleColors(session));
  check(`${label}hole, mouse start, cat start and a plain id have four colours (Dark Modern)`, roles !== undefined, JSON.stringify(roles));
  await session.screenshot("draw-dark");

  await checkHover(session, label);
}

async function machineSettingsScenario(browser) {
  const session = new Session("machine", { machine: { "cmg.server.path": path.resolve(args.cmg) } });
  try {
    await session.start(browser);
    await checkFeatures(session, "");
    const page = session.page;

    // Why: the hover on `expect` shows the top of both strategy trees (a draw), and the
    // hover on the `--` of `1 -- 3` the outcome without that edge.
    const hoverText = async (token, wanted) => {
      if (!token) return undefined;
      await page.mouse.move(token.x, token.y);
      const text = await until(async () =>
        (await page.$$eval(".monaco-hover:not(.hidden)", (els) => els.map((el) => el.textContent ?? ""))).find((t) => t.includes(wanted)),
      );
      return text;
    };
    const why = await hoverText(await session.token("leetcode-draw.cmg", "expect draw", "expect"), "why");
    check(
      "hover on expect shows why: both players' strategies, the first moves and replies",
      /the mouse's strategy, never losing/.test(why ?? "") && /the cat's strategy, never losing/.test(why ?? "") && /mouse 1 -> 3: draw/.test(why ?? ""),
      why,
    );
    await session.screenshot("hover-why");
    await page.mouse.move(5, 450);
    const edgeHover = await hoverText(await session.token("leetcode-draw.cmg", "1 -- 3", "--"), "without");
    check("hover on -- shows the outcome without the edge", /without 1 -- 3: draw \(as now\)/.test(edgeHover ?? ""), edgeHover);
    await session.screenshot("hover-what-if");
    await page.mouse.move(5, 450);

    // Per-node hints of an adjacency literal sit on their own rows.
    await session.open("long-game.cmg");
    const rows = await until(async () => {
      const lines = (await session.lines("long-game.cmg")).map((line) => line.text.trim());
      return lines.some((text) => text.startsWith("node 1: mouse wins in 21 ▸")) ? lines : undefined;
    });
    const rowOf = (id) => (rows ?? []).find((text) => text.startsWith(`node ${id}:`));
    check(
      "long-game.cmg: node 1's hint starts row 1, node 5's starts row 5, none inside row 0",
      rowOf(1)?.includes("[3, 4, 5, 6]") && rowOf(5)?.includes("[0, 1, 2, 4, 8]") && (rows ?? []).includes("[5, 7, 9],"),
      JSON.stringify(rows),
    );
    const longLens = await until(async () => (await session.lenses("long-game.cmg")).find((text) => text.includes("optimal line")));
    check("long-game.cmg: the lens says mouse wins in 21", /^▶ mouse wins in 21 · optimal line: 1,2 → 6,2 → /.test(longLens ?? ""), longLens);
    await session.screenshot("long-game");

    const output = session.outputChannel();
    check("output channel: the server came from cmg.server.path", /found via cmg\.server\.path in the User settings \(or the Remote settings/.test(output), output);
    const centre = await session.allNotifications();
    check("no notification was shown", centre.length === 0, JSON.stringify(centre));
  } finally {
    await session.close();
  }
}

/**
 * The setting in the User settings of a remote window, read on every start; and the
 * role colours in the light theme.
 */
async function userSettingsScenario(browser, starts) {
  const session = new Session("user", {
    user: { "cmg.server.path": path.resolve(args.cmg), "workbench.colorTheme": "Default Light Modern" },
  });
  try {
    await session.start(browser);
    let good = 0;
    for (let start = 1; start <= starts; start += 1) {
      if (start > 1) {
        await session.load();
      }
      await session.open("leetcode-mouse.cmg");
      const hint = await until(async () => {
        const [line] = await session.lines("leetcode-mouse.cmg");
        return line?.text.includes("⟹ outcome: mouse wins in 1");
      });
      good += hint ? 1 : 0;
    }
    await session.screenshot("mouse");
    await session.open("leetcode-draw.cmg");
    const light = await until(() => roleColors(session));
    check("hole, mouse start, cat start and a plain id have four colours (Light Modern)", light !== undefined, JSON.stringify(light));
    await session.screenshot("draw-light");
    const output = session.outputChannel();
    const reads = output.match(/found via cmg\.server\.path in the User settings/g) ?? [];
    check(`User settings: the server ran in ${starts} of ${starts} window loads`, good === starts, `${good} of ${starts}\n${output}`);
    check(`User settings: the setting was read in every load`, reads.length === starts, output);
    const centre = await session.allNotifications();
    check("User settings: no notification", centre.length === 0, JSON.stringify(centre));
  } finally {
    await session.close();
  }
}

/** A wrong path: one message naming it and the scope; the grammar still colours. */
async function missingServerScenario(browser) {
  const wrong = "/nonexistent/cmg";
  const session = new Session("missing", { user: { "cmg.server.path": wrong } });
  try {
    await session.start(browser);
    await session.open("cat-wins.cmg");
    const notes = await until(async () => {
      const shown = await session.notifications();
      return shown.length > 0 ? shown : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const all = await session.notifications();
    await session.screenshot("missing-server");
    const centre = await session.allNotifications();
    check("wrong path: exactly one notification", all.length === 1 && centre.length === 1, JSON.stringify(centre));
    const [note] = notes ?? [{ message: "", buttons: [] }];
    check(
      "wrong path: it names the path and the scope it was read from",
      note.message.includes(`"${wrong}"`) && note.message.includes("the User settings"),
      note.message,
    );
    check("wrong path: actions Show output and Open settings", JSON.stringify(note.buttons) === JSON.stringify(["Show output", "Open settings"]), JSON.stringify(note.buttons));
    // Without a server only the TextMate grammar colours: comment, keyword and number differ.
    const comment = await session.token("cat-wins.cmg", "# A graph", "# A graph where the cat wins: the mouse's only way to the hole runs through");
    const commentColor = comment?.color ?? (await session.lines("cat-wins.cmg"))[0]?.tokens[0]?.color;
    const keyword = await session.token("cat-wins.cmg", "node 0", "node");
    const edge = await session.token("cat-wins.cmg", "0 -- 3", "--");
    const colors = [commentColor, keyword?.color, edge?.color];
    check("grammar colours comments, keywords and `--` apart without a server", new Set(colors).size === 3 && !colors.includes(undefined), JSON.stringify(colors));
  } finally {
    await session.close();
  }
}

/** A server that dies as it starts: one message with its stderr, no restarts. */
async function crashingServerScenario(browser) {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "cmg-e2e-crashing-"));
  const crashing = path.join(bin, "cmg");
  const starts = path.join(bin, "starts.log");
  fs.writeFileSync(
    crashing,
    `#!/bin/sh\necho started >> '${starts}'\necho 'cmg: simulated start-up failure' >&2\nexit 3\n`,
    { mode: 0o755 },
  );
  const session = new Session("crash", { user: { "cmg.server.path": crashing } });
  try {
    await session.start(browser);
    await session.open("leetcode-mouse.cmg");
    await until(async () => (await session.notifications()).length > 0);
    // Give a restart loop time to show itself.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const all = await session.notifications();
    await session.screenshot("crashing-server");
    const centre = await session.allNotifications();
    check("crash at start-up: exactly one notification", all.length === 1 && centre.length === 1, JSON.stringify(centre));
    const message = all[0]?.message ?? "";
    check(
      "crash at start-up: it names the path, the exit code and the server's stderr",
      message.includes(crashing) && message.includes("exit code 3") && message.includes("simulated start-up failure"),
      message,
    );
    check("crash at start-up: actions Show output and Open settings", JSON.stringify(all[0]?.buttons) === JSON.stringify(["Show output", "Open settings"]), JSON.stringify(all[0]?.buttons));
    const output = session.outputChannel();
    const started = fs.existsSync(starts) ? fs.readFileSync(starts, "utf8").split("\n").filter(Boolean).length : 0;
    check("crash at start-up: the server was started once, not restarted", started === 1, `${started} starts`);
    check("crash at start-up: no stack traces in the output channel", !/^\s+at /m.test(output), output);
  } finally {
    await session.close();
    fs.rmSync(bin, { recursive: true, force: true });
  }
}

/** The ids of the processes whose executable is `file`, read from /proc (Linux). */
function processesOf(file) {
  const wanted = fs.realpathSync(file);
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/exe`) === wanted;
      } catch {
        // Gone, or not ours to read.
        return false;
      }
    });
}

/**
 * The platform .vsix with the server inside, as a person with VS Code and no Rust
 * installs it: no `cmg` on PATH and no cmg.server.path setting. Every feature works,
 * and the server that runs is the one inside the installed extension.
 */
async function bundledServerScenario(browser) {
  // PATH without any directory that holds a `cmg` (a `cargo install` or the wheel).
  const directories = (process.env.PATH ?? "").split(path.delimiter).filter((directory) => {
    return directory !== "" && !fs.existsSync(path.join(directory, "cmg"));
  });
  const env = { ...process.env, PATH: directories.join(path.delimiter) };
  const session = new Session("bundled", { vsix: args["bundled-vsix"], env });
  try {
    const onPath = execFileSync("sh", ["-c", "command -v cmg || true"], { env, encoding: "utf8" }).trim();
    check("bundled: no cmg on the PATH code-server runs with", onPath === "", onPath);
    const settings = fs.readFileSync(session.userSettings, "utf8");
    check("bundled: cmg.server.path is not set", !settings.includes("cmg.server.path"), settings);
    await session.start(browser);
    await checkFeatures(session, "bundled: ");

    const output = session.outputChannel();
    const started = /cmg: starting (.+) \(found via bundled\)/.exec(output)?.[1] ?? "";
    const extensions = path.join(session.dir, "extensions") + path.sep;
    check(
      "bundled: the output channel says the server inside the installed extension was started",
      started.startsWith(extensions) && started.endsWith(`${path.sep}server${path.sep}cmg`),
      output,
    );
    const running = started === "" ? [] : processesOf(started);
    check("bundled: that binary is the cmg process running", running.length === 1, `${running.length} processes run ${started}`);
    const centre = await session.allNotifications();
    check("bundled: no notification was shown", centre.length === 0, JSON.stringify(centre));
  } finally {
    await session.close();
  }
}

/** The frame of the game view's webview, once it has drawn `nodes` nodes. */
async function gameViewFrame(page, nodes) {
  return until(async () => {
    for (const frame of page.frames()) {
      const count = await frame.evaluate(() => document.querySelectorAll("[data-node]").length).catch(() => 0);
      if (count === nodes) {
        return frame;
      }
    }
    return undefined;
  });
}

/**
 * Both ways between text and picture in `frame`, the game view of long-game.cmg:
 * clicking node 5 selects its first mention, the `5` at line 4, column 4 (the status
 * bar shows the cursor after it, at column 5); then the cursor is on that id, and the
 * node is marked in the view. Returns the probe of the marked nodes, for more checks.
 */
async function checkTextAndPicture(page, frame, label) {
  await frame.click('[data-node="5"]');
  const selection = () => page.textContent('[id="status.editor.selection"]').catch(() => "");
  const revealed = await until(async () => /Ln 4, Col 5 \(1 selected\)/.test(await selection()));
  check(`${label}: clicking a node selects its first mention`, revealed, await selection());
  const marked = () => frame.$$eval("[data-node][data-selected]", (all) => all.map((g) => g.getAttribute("data-node")));
  const onFive = await until(async () => JSON.stringify(await marked()) === '["5"]');
  check(`${label}: the node whose id the cursor is on is marked`, onFive, JSON.stringify(await marked()));
  return marked;
}

/** The game view beside long-game.cmg: opened from the editor title, following edits. */
async function gameViewScenario(browser) {
  const session = new Session("gameview", { machine: { "cmg.server.path": path.resolve(args.cmg) } });
  try {
    await session.start(browser);
    const page = session.page;
    await session.open("long-game.cmg");
    await page.click('.editor-actions .action-label[aria-label*="Open Game View to the Side"]', { timeout: 20_000 });
    const frame = await gameViewFrame(page, 10);
    check("game view: the editor-title button opens a webview with one element per node", frame !== undefined);
    if (!frame) {
      await session.screenshot("game-view-missing");
      return;
    }
    const summary = () => frame.textContent("#summary").catch(() => "");
    const solved = await until(async () => (await summary()) === "outcome: mouse wins in 21");
    check("game view: the outcome from cmg/scene", solved, await summary());
    const outcomes = await frame.$$eval("[data-node]", (all) => all.map((g) => g.getAttribute("data-outcome")));
    check("game view: every node has an outcome", outcomes.every((o) => o === "mouse" || o === "cat"), JSON.stringify(outcomes));
    check("game view: the dark theme reaches the view", await frame.evaluate(() => document.body.classList.contains("cmg-dark")));
    await session.screenshot("game-view");

    // An edit reaches the view: joining node 1 to the hole lets the mouse win at once.
    await page.click('.editor-instance .monaco-editor[data-uri$="/long-game.cmg"] .view-lines');
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n1 -- 0\n");
    const followed = await until(async () => (await summary()) === "outcome: mouse wins in 1");
    check("game view: an edit changes the picture's winner", followed, await summary());
    await session.screenshot("game-view-edited");

    // The cursor is on node 5's mention now; two steps right it is on the `7` of
    // `[5, 7, 9]`.
    const marked = await checkTextAndPicture(page, frame, "game view");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const onSeven = await until(async () => JSON.stringify(await marked()) === '["7"]');
    check("game view: moving the cursor to another id marks that node instead", onSeven, JSON.stringify(await marked()));
    await session.screenshot("game-view-cursor");
  } finally {
    await session.close();
  }
}

/** The frame of a webview whose page has a `[data-verdict]` (the judge's report), whose title and heading match `heading`. */
async function judgeReportFrame(page, heading = /./) {
  return until(async () => {
    for (const frame of page.frames()) {
      const found = await frame
        .evaluate(() => {
          const verdict = document.querySelector("[data-verdict]");
          return verdict === null ? null : `${document.title}\n${verdict.textContent ?? ""}`;
        })
        .catch(() => null);
      if (found !== null && heading.test(found)) {
        return frame;
      }
    }
    return undefined;
  }, 120_000);
}

/**
 * "cmg: Judge this solution" on a JavaScript solution that lets the cat into the hole:
 * from the editor title, the report in a panel, and "Open counterexample" opening the
 * graph as a new .cmg document with its expect line and the game view beside it.
 * `session.workspace` must hold tests/judge/cat_into_hole.js.
 */
async function checkJudge(session, label) {
  const page = session.page;
  await session.open("cat_into_hole.js");
  await page.click('.editor-actions .action-label[aria-label*="Judge this solution"]', { timeout: 20_000 });
  const frame = await judgeReportFrame(page);
  check(`${label}the editor-title button runs the judge and opens its report`, frame !== undefined);
  if (!frame) {
    await session.screenshot("judge-report-missing");
    return;
  }
  const verdict = await frame.getAttribute("[data-verdict]", "data-verdict");
  check(`${label}the report's verdict is wrong-answer`, verdict === "wrong-answer", verdict);
  const report = (await frame.textContent("#report")) ?? "";
  check(
    `${label}the report is the CLI's, with the checked cause`,
    report.startsWith("wrong answer on a graph of 5 nodes") && report.includes("the cat may enter the hole"),
    report,
  );
  await session.screenshot("judge-report");
  await frame.click("[data-judge-open]");
  const view = await gameViewFrame(page, 5);
  check(`${label}Open counterexample shows the 5-node graph in the game view`, view !== undefined);
  const untitled = await until(async () =>
    page.evaluate(() =>
      [...document.querySelectorAll(".editor-instance .monaco-editor")]
        .filter((editor) => (editor.getAttribute("data-uri") ?? "").startsWith("untitled:"))
        .map((editor) => editor.querySelector(".view-lines")?.textContent?.replace(/\u00a0/g, " ") ?? "")
        .find((text) => text.includes("expect mouse")),
    ),
  );
  check(`${label}the counterexample opens as a new .cmg document with its expect line`, untitled !== undefined, untitled);
  await session.screenshot("judge-counterexample");
}

/** Copies tests/judge/`names` into the session's workspace. */
function copySolutions(session, ...names) {
  for (const name of names) {
    fs.copyFileSync(path.join(repositoryRoot, "tests", "judge", name), path.join(session.workspace, name));
  }
}

async function judgeScenario(browser) {
  const session = new Session("judge", { machine: { "cmg.server.path": path.resolve(args.cmg), "cmg.judge.seconds": 20 } });
  copySolutions(session, "cat_into_hole.js");
  try {
    await session.start(browser);
    await checkJudge(session, "judge: ");
  } finally {
    await session.close();
  }
}

/**
 * The web judge's progress notification: its Cancel stops a right solution's run, and
 * the report says no counterexample was found, stopped early. Python runs in Pyodide,
 * from the extension's own files; a Go file is told plainly it needs the desktop.
 */
async function checkWebJudgeLimits(session) {
  const page = session.page;
  await session.open("right.js");
  await page.click('.editor-actions .action-label[aria-label*="Judge this solution"]', { timeout: 20_000 });
  const toast = page.locator(".notification-toast", { hasText: "cmg: judging right.js" });
  const cancel = toast.locator(".monaco-button", { hasText: "Cancel" });
  const shown = await cancel.waitFor({ state: "visible", timeout: PATIENCE_MS }).then(() => true, () => false);
  check("web judge: a cancellable progress notification shows while the judge runs", shown);
  if (shown) {
    const progress = await until(async () => /searching: \d+ graphs tried; \d+ s left/.test((await toast.textContent()) ?? ""));
    check("web judge: the notification says the phase, graphs tried and time left", progress, (await toast.textContent()) ?? "");
    await cancel.click();
    const stopped = await judgeReportFrame(page, /stopped early/);
    const verdict = await stopped?.getAttribute("[data-verdict]", "data-verdict");
    check("web judge: Cancel stops the run and the report says what was found so far", verdict === "no-counterexample", verdict);
  }
  await session.open("provisional_draw.py");
  const clicked = Date.now();
  await page.click('.editor-actions .action-label[aria-label*="Judge this solution"]', { timeout: 20_000 });
  const python = await judgeReportFrame(page, /Judge: provisional_draw\.py/);
  console.log(`# web judge: provisional_draw.py judged in ${((Date.now() - clicked) / 1000).toFixed(1)} s, Pyodide's load included`);
  const pythonReport = (await python?.textContent("#report")) ?? "";
  check("web judge: a Python solution is judged in Pyodide: wrong answer", pythonReport.startsWith("wrong answer on a graph of"), pythonReport);
  await session.open("right.go");
  await page.click('.editor-actions .action-label[aria-label*="Judge this solution"]', { timeout: 20_000 });
  const words = "judging Go needs the desktop VS Code";
  const told = await until(async () => (await session.notifications()).some((note) => note.message.includes(words)));
  check(`web judge: right.go is told "${words}"`, told, JSON.stringify(await session.notifications()));
}

/**
 * "Find a longer game from this graph" on long-game.cmg (the mouse wins in 21): offered
 * in the code action menu, it replaces the document with a longer game, and undo
 * brings the old one back.
 */
async function longerGameScenario(browser) {
  const session = new Session("longergame", { machine: { "cmg.server.path": path.resolve(args.cmg) } });
  try {
    await session.start(browser);
    const page = session.page;
    await session.open("long-game.cmg");
    const lens = async () => (await session.lenses("long-game.cmg")).find((text) => text.includes("optimal line")) ?? "";
    const moves = async () => Number(/wins in (\d+)/.exec(await lens())?.[1] ?? 0);
    check("longer game: the lens says 21 moves first", await until(async () => (await moves()) === 21), await lens());
    await page.click('.editor-instance .monaco-editor[data-uri$="/long-game.cmg"] .view-lines');
    await page.keyboard.press("Control+Home");
    // The code action menu (Ctrl+.) lists refactorings too, under "Rewrite".
    const title = "Find a longer game from this graph";
    const item = page.locator(".action-widget").getByText(title).first();
    let offered = false;
    for (let attempt = 0; attempt < 3 && !offered; attempt += 1) {
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+.");
      offered = await item.waitFor({ state: "visible", timeout: 10_000 }).then(() => true, () => false);
    }
    check(`longer game: the code action menu offers "${title}"`, offered);
    if (!offered) {
      await session.screenshot("longer-game-menu");
      return;
    }
    await item.click();
    const first = async () => (await session.lines("long-game.cmg"))[0]?.text ?? "";
    const replaced = await until(async () => (await first()).startsWith("# A longer game"));
    check("longer game: the document is replaced by the game found", replaced, await first());
    const longer = await until(async () => (await moves()) > 21);
    check("longer game: the lens names a game longer than 21 moves", longer, await lens());
    await session.screenshot("longer-game");
    await page.keyboard.press("Control+z");
    const back = await until(async () => (await moves()) === 21 && !(await first()).startsWith("# A longer game"));
    check("longer game: undo brings the old graph back", back, `${await first()} / ${await lens()}`);
  } finally {
    await session.close();
  }
}

/**
 * VS Code for the Web: the extension with only its `browser` entry, so the page's web
 * worker extension host runs it, with the WebAssembly server in a worker of its own.
 * No `cmg` process may start; diagnostics, the outcome hint, hover, formatting and the
 * game view all come from the worker, and a JavaScript solution is judged in workers.
 */
async function webScenario(browser) {
  const session = new Session("web", { vsix: args["web-vsix"], machine: { "cmg.judge.seconds": 20 } });
  copySolutions(session, "cat_into_hole.js", "right.js", "provisional_draw.py", "right.go");
  try {
    await session.start(browser);
    const page = session.page;

    await checkProblems(session, "web: ");
    await checkOutcomeHint(session, "web: ");
    const roles = await until(() => roleColors(session));
    check("web: hole, mouse start, cat start and a plain id have four colours (semantic tokens)", roles !== undefined, JSON.stringify(roles));
    await checkHover(session, "web: ");

    // Formatting: a line typed without spaces is laid out as `cmg fmt` lays it out
    // (Ctrl+Shift+I, Format Document on Linux), and the outcome follows the edit:
    // joining the mouse's start to the hole lets it win at once.
    await page.click('.editor-instance .monaco-editor[data-uri$="/leetcode-draw.cmg"] .view-lines');
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n1--0\n");
    await page.keyboard.press("Control+Shift+i");
    const formatted = await until(async () =>
      (await session.lines("leetcode-draw.cmg")).some((line) => line.text.startsWith("1 -- 0")),
    );
    check("web: Format Document lays the new line out as cmg fmt does", formatted, JSON.stringify((await session.lines("leetcode-draw.cmg")).map((line) => line.text)));
    const after = await until(async () => {
      const [line] = await session.lines("leetcode-draw.cmg");
      return line?.text.includes("⟹ outcome: mouse wins in 1") ? line.text : undefined;
    });
    check("web: the outcome hint follows the edit", after !== undefined, JSON.stringify((await session.lines("leetcode-draw.cmg"))[0]?.text));
    await session.screenshot("edited");

    // A quick fix: a self-loop typed on a line of its own is offered its removal.
    await page.keyboard.type("5 -- 5");
    await page.keyboard.press("Home");
    const fix = page.locator(".action-widget").getByText("Remove the self-loop 5 -- 5").first();
    let offered = false;
    for (let attempt = 0; attempt < 5 && !offered; attempt += 1) {
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+.");
      offered = await fix.waitFor({ state: "visible", timeout: 5_000 }).then(() => true, () => false);
    }
    check('web: the code action menu offers "Remove the self-loop 5 -- 5"', offered);
    if (offered) {
      await fix.click();
      const removed = await until(async () => !(await session.lines("leetcode-draw.cmg")).some((line) => line.text.includes("5 -- 5")));
      check("web: the quick fix removes the self-loop", removed, JSON.stringify((await session.lines("leetcode-draw.cmg")).map((line) => line.text)));
    } else {
      await session.screenshot("quick-fix-menu");
    }
    await page.keyboard.press("Control+z");
    await page.keyboard.press("Control+z");

    await session.open("long-game.cmg");
    await page.click('.editor-actions .action-label[aria-label*="Open Game View to the Side"]', { timeout: 20_000 });
    const frame = await gameViewFrame(page, 10);
    check("web: the game view draws one element per node", frame !== undefined);
    if (frame) {
      const summary = () => frame.textContent("#summary").catch(() => "");
      const solved = await until(async () => (await summary()) === "outcome: mouse wins in 21");
      check("web: the game view's outcome from the worker's cmg/scene", solved, await summary());
      // Both ways between text and picture (the marks from the worker's highlights).
      await checkTextAndPicture(page, frame, "web");
      await session.screenshot("game-view");
    }

    // A file with every rule, drawn from the worker's WebAssembly: the game in words,
    // both holes, the starts where its rules put them, and its two one-way edges.
    await session.open("every-rule.cmg");
    await page.click('.editor-actions .action-label[aria-label*="Open Game View to the Side"]', { timeout: 20_000 });
    const rules = await gameViewFrame(page, 8);
    check("web: the game view of every-rule.cmg draws its 8 nodes", rules !== undefined);
    if (rules) {
      const drawn = () =>
        rules
          .evaluate(() => ({
            game: document.getElementById("rules")?.textContent ?? "",
            roles: Array.from(document.querySelectorAll("[data-node]"), (g) => `${g.getAttribute("data-node")}:${g.getAttribute("data-role")}`).join(" "),
            oneWay: Array.from(document.querySelectorAll("line.edge[data-one-way]"), (l) => l.getAttribute("data-edge")).join(" "),
          }))
          .catch(() => ({ game: "", roles: "", oneWay: "" }));
      const shown = await until(async () => (await drawn()).game.startsWith("the game: the cat moves first"));
      const seen = await drawn();
      check("web: the game view says every-rule.cmg's game", shown, seen.game);
      check("web: both holes and the starts of the rules", seen.roles.includes("0:hole") && seen.roles.includes("9:hole") && seen.roles.includes("3:mouse") && seen.roles.includes("5:cat"), seen.roles);
      check("web: the one-way edges carry their arrowheads", seen.oneWay === "4-9 9-6", seen.oneWay);
      await session.screenshot("game-view-every-rule");
    }

    // The judge, in the extension host's workers as the playground runs it.
    await checkJudge(session, "web judge: ");
    await checkWebJudgeLimits(session);

    const running = processesOf(args.cmg);
    check("web: no cmg process runs (the server is the worker's WebAssembly)", running.length === 0, `${running.length} processes run ${args.cmg}`);
  } finally {
    await session.close();
  }
}

const browser = await chromium.launch({
  executablePath: args.chromium,
  // Chromium's sandbox refuses to run as root, which CI containers often are.
  args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
});
try {
  const scenarios = [
    ["machine settings", () => machineSettingsScenario(browser)],
    ["user settings", () => userSettingsScenario(browser, Number(args["user-loads"]))],
    ["missing server", () => missingServerScenario(browser)],
    ["crashing server", () => crashingServerScenario(browser)],
    ["game view", () => gameViewScenario(browser)],
    ["longer game", () => longerGameScenario(browser)],
    ["judge", () => judgeScenario(browser)],
  ];
  if (args["web-vsix"] === undefined) {
    console.log("scenario web: left out (no --web-vsix)");
  } else {
    scenarios.push(["web", () => webScenario(browser)]);
  }
  if (args["bundled-vsix"] === undefined) {
    console.log("scenario bundled server: left out (no --bundled-vsix)");
  } else {
    scenarios.push(["bundled server", () => bundledServerScenario(browser)]);
  }
  const chosen = scenarios.filter(([name]) => name.includes(args.only));
  // A typo in --only must not pass as a clean run of nothing.
  if (chosen.length === 0) {
    check(`--only ${JSON.stringify(args.only)} names a scenario (${scenarios.map(([name]) => name).join(", ")})`, false);
  }
  for (const [name, run] of chosen) {
    console.log(`scenario ${name}`);
    try {
      await run();
    } catch (error) {
      check(`${name}: the scenario ran to the end`, false, error instanceof Error ? error.stack : String(error));
    }
  }
} finally {
  await browser.close();
}
console.log(`vscode e2e: ${passed} passed, ${failed} failed; artefacts in ${artifacts}`);
process.exit(failed === 0 ? 0 : 1);
