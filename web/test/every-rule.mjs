// The checks of a game view showing examples/every-rule.cmg, shared by the view's test
// (rules.mjs, `cmg view`) and the playground's (playground-ui.mjs, the WebAssembly): the
// game in words beside the outcome, every hole drawn as a hole, the tokens on the starts,
// one-way edges with their arrowheads, play as the cat, who moves first, taking the
// one-way edge 4 -> 9 into a hole and then only 9 -> 6, never back, and the explorer
// opening at the start.

const WAIT_MS = 10000;

/** The ids of the nodes the player to move may click. */
export const choices = (page) =>
  page.evaluate(() => Array.from(document.querySelectorAll("[data-node].choice"), (n) => Number(n.getAttribute("data-node"))).sort((a, b) => a - b));

/**
 * Checks the view in `page` (a Playwright page or frame) showing every-rule.cmg, whose
 * game in words is `game`; `check(condition, what)` reports, `screenshot(name)` keeps a picture.
 */
export async function checkEveryRule(page, game, check, screenshot) {
  await page.waitForFunction(() => document.querySelectorAll("[data-node]").length === 8 && document.querySelectorAll("[data-token]").length === 2, null, { timeout: WAIT_MS });
  // The game in words beside the outcome, the same words as `cmg solve` and the hover.
  const rules = await page.evaluate(() => {
    const line = document.getElementById("rules");
    return { text: line.textContent, shown: !line.hidden && line.getBoundingClientRect().width > 0 };
  });
  check(game !== undefined && rules.shown && rules.text === game, `the rules are shown: "${rules.text}"`);
  const legend = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".legend li"), (li) => (li.hidden ? "" : li.textContent)).filter((t) => t !== ""),
  );
  check(
    ["holes 0, 9", "mouse start 3", "cat start 5", "one-way edge: a move along its arrow only"].every((t) => legend.includes(t)),
    `the legend names the file's holes, starts and one-way edges: ${legend.join(" · ")}`,
  );

  // Every hole is drawn as a hole; the starts are where the rules put them, with the tokens.
  const roles = await page.evaluate(() =>
    Object.fromEntries(Array.from(document.querySelectorAll("[data-node]"), (n) => [n.getAttribute("data-node"), n.getAttribute("data-role")])),
  );
  check(
    roles["0"] === "hole" && roles["9"] === "hole" && roles["3"] === "mouse" && roles["5"] === "cat" && roles["1"] === "node" && roles["2"] === "node",
    `roles: ${JSON.stringify(roles)}`,
  );
  const rings = await page.evaluate(() => document.querySelectorAll('[data-node="9"] .ring').length);
  check(rings === 1, "the second hole has the hole's ring");
  const tokens = await page.evaluate(() =>
    Object.fromEntries(Array.from(document.querySelectorAll("[data-token]"), (t) => [t.getAttribute("data-token"), t.getAttribute("data-at")])),
  );
  check(tokens.mouse === "3" && tokens.cat === "5", `the tokens stand on the starts: ${JSON.stringify(tokens)}`);
  const expected = "cat to move, mouse wins in 6, 12 moves left";
  // The caption's verdict waits for the slice of the start.
  await page.waitForFunction((expected) => document.getElementById("caption")?.textContent?.trim() === expected, expected, { timeout: WAIT_MS }).catch(() => undefined);
  const caption = (await page.textContent("#caption"))?.trim();
  check(caption === expected, `the line starts with the cat to move, the limit counted: "${caption}"`);

  // One-way edges: marked, with the arrowhead that is drawn, and shown as the export draws it.
  const arrows = await page.evaluate(() => {
    const lines = Array.from(document.querySelectorAll("line.edge[data-one-way]"));
    const marker = document.querySelector("svg.cmg-scene marker#cmg-arrow path");
    return {
      edges: lines.map((l) => `${l.getAttribute("data-edge")} ${l.getAttribute("marker-end")}`),
      fill: marker === null ? null : getComputedStyle(marker).fill,
      // The edges' colour as the stylesheet names it, written the way computed styles are.
      edge: (() => {
        const probe = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        const svg = document.querySelector("svg.cmg-scene");
        svg.append(probe);
        probe.style.fill = getComputedStyle(svg).getPropertyValue("--cmg-edge").trim();
        const fill = getComputedStyle(probe).fill;
        probe.remove();
        return fill;
      })(),
    };
  });
  check(
    arrows.edges.join(", ") === "4-9 url(#cmg-arrow), 9-6 url(#cmg-arrow)" && arrows.fill === arrows.edge,
    `one-way edges carry the arrowhead in the edges' colour: ${arrows.edges.join(", ")} (${arrows.fill})`,
  );
  await screenshot("every-rule");

  // Play as the cat, who moves first: 5 -> 4, then from 4 the one-way edge to the hole 9
  // (the cat may enter holes here), and from 9 only on to 6, never back to 4.
  await page.selectOption("#mode", "play-cat");
  await page.waitForFunction(() => document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
  check((await choices(page)).join(",") === "4,6", `the cat starts on 5 and moves first: ${await choices(page)}`);
  await page.click('[data-node="4"]');
  await page.waitForFunction(() => document.querySelector('[data-token="cat"]')?.getAttribute("data-at") === "4" && document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
  const fromFour = await choices(page);
  check(fromFour.includes(9), `from 4 the cat may take the one-way edge into the hole 9: ${fromFour}`);
  await page.click('[data-node="9"]');
  await page.waitForFunction(() => document.querySelector('[data-token="cat"]')?.getAttribute("data-at") === "9" && document.querySelectorAll("[data-node].choice").length > 0, null, { timeout: WAIT_MS });
  const fromNine = await choices(page);
  check(fromNine.join(",") === "6", `from 9 only on to 6, not back along 4 -> 9: ${fromNine}`);
  const last = await page.evaluate(() => document.querySelector("line.edge[data-last]")?.getAttribute("data-edge"));
  check(last !== undefined, `the last move's edge is marked (${last})`);
  // The caption follows the position's slice, which may still be on its way.
  await page
    .waitForFunction(() => /moves left$/.test(document.querySelector("#caption")?.textContent?.trim() ?? ""), null, { timeout: WAIT_MS })
    .catch(() => undefined);
  const status = (await page.textContent("#caption"))?.trim() ?? "";
  check(/moves left$/.test(status), `play counts the moves left: "${status}"`);
  await screenshot("every-rule-play");

  // The explorer opens at the start (the cat on 5, the cat to move) and offers the holes
  // to the cat, who may enter them.
  await page.selectOption("#mode", "explore");
  await page.waitForFunction(() => document.querySelector("svg.cmg-scene")?.getAttribute("data-slice") === "5/cat", null, { timeout: WAIT_MS }).catch(() => undefined);
  const explorer = await page.evaluate(() => ({
    at: `${document.getElementById("cat").value}/${document.getElementById("turn").value} ${document.querySelector("svg.cmg-scene").getAttribute("data-slice")}`,
    cats: Array.from(document.getElementById("cat").options, (o) => o.value).join(","),
  }));
  check(explorer.at === "5/cat 5/cat" && explorer.cats === "0,1,2,3,4,5,6,9", `the explorer starts at the start, the holes among the cat's nodes: ${JSON.stringify(explorer)}`);
}
