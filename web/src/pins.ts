// The pins a host keeps for a file across a reload of the page: `cmg view` in the
// browser's localStorage under the file's path, VS Code in the webview's state. Pure
// functions over a store, no DOM: tested under node's test runner.

/** Nodes the user dragged, by id: where they were put. */
export type Pins = Record<number, [number, number]>;

/** Where a host keeps text by key: the browser's localStorage, or the webview's state. */
export interface PinStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The key of a file's pins in `cmg view`'s localStorage. */
export function pinsKey(file: string): string {
  return `cmg-view-pins:${file}`;
}

/** The pins kept as `text`; whatever is not a pin (or not JSON) is left out. */
export function parsePins(text: string | null): Pins {
  let value: unknown;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const pins: Pins = {};
  for (const [id, at] of Object.entries(value)) {
    const node = Number(id);
    if (Number.isInteger(node) && node >= 0 && Array.isArray(at) && at.length === 2 && at.every(Number.isFinite)) pins[node] = [at[0], at[1]];
  }
  return pins;
}

/** The pins of `key` in `store`; none when the store cannot be read (storage turned off). */
export function loadPins(store: PinStore, key: string): Pins {
  try {
    return parsePins(store.getItem(key));
  } catch {
    return {};
  }
}

/** Keeps node `node` pinned at `at`, or unpinned (`null`), in `store`; a store that refuses leaves the pins to this page. */
export function savePin(store: PinStore, key: string, node: number, at: [number, number] | null): void {
  const pins = loadPins(store, key);
  if (at === null) delete pins[node];
  else pins[node] = at;
  try {
    // A file with no pins left keeps no entry: the store holds only files that have pins.
    if (Object.keys(pins).length === 0) store.removeItem(key);
    else store.setItem(key, JSON.stringify(pins));
  } catch {
    // Full or turned off: the pins stay for this page only.
  }
}
