// The game's rules on the page: the file's game in the hover's words beside the outcome
// ("the game: the cat moves first, limit 16"), and the legend's holes, starts and one-way
// edges as the file has them. A file without rules shows LeetCode 913's legend.

import type { Scene } from "./scene";

/** The legend's words for each role, with the nodes that have it. */
export function roleLegend(scene: Scene): { hole: string; mouse: string; cat: string } {
  const rules = scene.rules;
  const holes = rules?.holes ?? [0];
  return {
    hole: `${holes.length === 1 ? "hole" : "holes"} ${holes.join(", ")}`,
    mouse: `mouse start ${rules?.mouse ?? 1}`,
    cat: `cat start ${rules?.cat ?? 2}`,
  };
}

/** Fills `#rules` and the legend of the page from `scene`. */
export function showRules(scene: Scene): void {
  const line = document.getElementById("rules");
  if (line !== null) {
    line.textContent = scene.rules?.game ?? "";
    line.hidden = scene.rules === undefined;
  }
  const words = roleLegend(scene);
  for (const role of ["hole", "mouse", "cat"] as const) {
    const item = document.querySelector(`.legend li[data-role="${role}"]`);
    if (item !== null && item.textContent !== words[role]) item.textContent = words[role];
  }
  const oneWay = document.querySelector<HTMLElement>(".legend li[data-one-way]");
  if (oneWay !== null) oneWay.hidden = !scene.edges.some((edge) => edge.one_way === true);
}
