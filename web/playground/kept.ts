// The work kept in the browser: the last few texts, newest first, in localStorage, so
// that a reload restores the text and opening a link or an example loses none of it.
// Pure but for the storage given, so that node's test runner checks it.

/** A text longer than this is not kept (as ruff's playground does). */
export const MAX_KEPT_CHARS = 500_000;
/** How many texts are kept, and how many characters they may hold together. */
export const KEPT_TEXTS = 6;
export const MAX_KEPT_TOTAL = 1_000_000;
/** A text's positions are kept up to this many nodes (20 characters or so each). */
export const MAX_KEPT_POSITIONS = 2000;
export const KEPT_KEY = "cmg-playground-texts";

export interface KeptText {
  /** Stays the same while the text is edited: the entry it updates. */
  id: string;
  text: string;
  /** When it was last saved, in milliseconds since the epoch. */
  at: number;
  /** Where the game view drew each node of it last, so that a reload draws them there again. */
  positions?: Record<number, [number, number]>;
  /** The nodes the user dragged in the view and where to, pinned until unpinned there. */
  pins?: Record<number, [number, number]>;
}

/** The texts kept in `storage`, newest first; none when there are none or they are unreadable. */
export function loadKept(storage: Pick<Storage, "getItem">): KeptText[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(KEPT_KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is KeptText =>
        typeof entry?.id === "string" &&
        typeof entry?.text === "string" &&
        typeof entry?.at === "number" &&
        (entry.positions === undefined || (typeof entry.positions === "object" && entry.positions !== null)) &&
        (entry.pins === undefined || (typeof entry.pins === "object" && entry.pins !== null)),
    );
  } catch {
    return [];
  }
}

/**
 * The list with `entry` first (replacing the entry of the same id, and any other entry
 * of the same text), then as many older ones as fit in KEPT_TEXTS and MAX_KEPT_TOTAL.
 * An entry longer than MAX_KEPT_CHARS is left out, and the list is otherwise unchanged.
 */
export function withKept(list: KeptText[], entry: KeptText): KeptText[] {
  if (entry.text.length > MAX_KEPT_CHARS) return list;
  const kept = [entry];
  let total = entry.text.length;
  for (const other of list) {
    if (other.id === entry.id || other.text === entry.text) continue;
    if (kept.length >= KEPT_TEXTS || total + other.text.length > MAX_KEPT_TOTAL) break;
    kept.push(other);
    total += other.text.length;
  }
  return kept;
}

/** `entry` with node `node` pinned at `at`, or unpinned (`null`). */
export function withPin(entry: KeptText, node: number, at: [number, number] | null): KeptText {
  const pins = { ...(entry.pins ?? {}) };
  if (at === null) delete pins[node];
  else pins[node] = at;
  return { ...entry, pins };
}

/** Writes the list; false when the storage refuses it (full, or disabled). */
export function saveKept(storage: Pick<Storage, "setItem">, list: KeptText[]): boolean {
  try {
    storage.setItem(KEPT_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/** "2 -- 3 … (12 lines, 14:05)": how the menu names a kept text. */
export function keptTitle(entry: KeptText): string {
  const lines = entry.text.split("\n");
  const first = lines.find((line) => line.trim() !== "" && !line.trim().startsWith("#")) ?? lines[0] ?? "";
  const short = first.length > 40 ? `${first.slice(0, 40)}…` : first;
  const time = new Date(entry.at).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
  return `${short || "(empty)"} (${lines.length} lines, ${time})`;
}
