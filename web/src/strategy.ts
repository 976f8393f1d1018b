// The strategy panel: the scene's strategy trees (crates/cmg-ide/src/view/explain.rs) as
// foldable lists beside the picture; clicking a move shows its position in the picture.

import type { Position, SceneStrategy, SceneTreeLine } from "./scene";

/** Levels shown unfolded when the panel is drawn: the first move, the replies and the answers. */
export const OPEN_DEPTH = 2;

/** The position after a tree line's move, as the picture shows positions. */
export function linePosition(line: SceneTreeLine): Position {
  return { mouse: line.mouse, cat: line.cat, turn: line.turn === 0 ? "mouse" : "cat" };
}

/** "mouse 1 -> 3: cat wins in 3", with where a repeated position first appeared. */
export function lineCaption(lines: SceneTreeLine[], index: number): string {
  const line = lines[index];
  const repeat =
    line.repeat_of === null ? "" : line.repeat_of < 0 ? ", back to the start" : `, as after ${lines[line.repeat_of].text}`;
  return `${line.text}: ${line.note}${repeat}`;
}

/** Which lines have lines beneath them: the next line is one level deeper. */
export function hasChildren(lines: SceneTreeLine[], index: number): boolean {
  return index + 1 < lines.length && lines[index + 1].depth > lines[index].depth;
}

/**
 * The strategies the panel shows: those with a move in them. A player with no move at
 * all (the mouse on a node with no neighbour) gets no heading over an empty tree.
 */
export function shownStrategies(strategies: SceneStrategy[]): SceneStrategy[] {
  return strategies.filter((strategy) => strategy.lines.length > 0);
}

/**
 * Fills `panel` with one foldable tree per strategy. A line with moves beneath it is a
 * `<details>` (open down to OPEN_DEPTH); every move is a button that calls `pick` with
 * the position after it and its caption.
 */
export function showStrategies(
  panel: HTMLElement,
  strategies: SceneStrategy[],
  pick: (position: Position, caption: string) => void,
): void {
  panel.replaceChildren();
  for (const strategy of shownStrategies(strategies)) {
    const heading = document.createElement("h2");
    heading.textContent = strategy.title;
    panel.append(heading);
    // One open container per depth: a line goes into the container of its depth.
    const root = document.createElement("ul");
    root.className = "tree";
    panel.append(root);
    const containers: HTMLElement[] = [root];
    strategy.lines.forEach((line, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.line = String(index);
      button.dataset.player = strategy.player;
      button.textContent = lineCaption(strategy.lines, index);
      button.addEventListener("click", (event) => {
        // Inside a <summary> a click would also fold the tree; picking a move must not.
        event.preventDefault();
        pick(linePosition(line), lineCaption(strategy.lines, index));
      });
      const parent = containers[line.depth] ?? containers[containers.length - 1];
      if (hasChildren(strategy.lines, index)) {
        const details = document.createElement("details");
        details.open = line.depth < OPEN_DEPTH;
        const summary = document.createElement("summary");
        summary.append(button);
        const below = document.createElement("ul");
        details.append(summary, below);
        item.append(details);
        containers[line.depth + 1] = below;
      } else {
        item.append(button);
      }
      parent.append(item);
    });
    if (strategy.truncated) {
      const more = document.createElement("p");
      more.textContent = "… the tree goes on: `cmg solve --strategy --depth all` prints it whole";
      panel.append(more);
    }
  }
}
