// "Copy as Markdown": the graph as LeetCode's input, the outcome and the link, to paste
// into an issue, a chat or a solution's write-up. Pure: tested under node's test runner.

/**
 * LeetCode's input for the graph: list i holds node i's neighbours, in order. Null when
 * the ids are not 0 … n-1 without a gap (LeetCode's graphs have no other ids).
 */
export function leetcodeInput(nodes: number[], edges: { a: number; b: number }[]): string | null {
  const ids = [...nodes].sort((x, y) => x - y);
  if (ids.some((id, i) => id !== i)) return null;
  const lists: number[][] = ids.map(() => []);
  for (const { a, b } of edges) {
    if (a === b) continue;
    lists[a]?.push(b);
    lists[b]?.push(a);
  }
  return JSON.stringify(lists.map((list) => [...new Set(list)].sort((x, y) => x - y)));
}

/** The Markdown: the outcome, LeetCode's input (or why there is none) and the link. */
export function markdownOf(outcome: string, input: string | null, link: string): string {
  const lines = [`**${outcome}** (cmg)`, ""];
  if (input === null) lines.push("LeetCode's input: none (the node ids are not 0 … n-1 without a gap)");
  else lines.push("LeetCode's input:", "", "```text", `graph = ${input}`, "```");
  lines.push("", `[Open it in the cmg playground](${link})`, "");
  return lines.join("\n");
}
