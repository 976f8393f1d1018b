// The page's one DOM helper shared by its modules.

/** The element with `id`; the page is broken without it. */
export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}
