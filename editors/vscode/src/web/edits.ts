// Pure helpers of the web server, free of the protocol and the worker so that node's
// test runner checks them.

export interface Position {
  line: number;
  character: number;
}

/**
 * The one edit that turns `old` into `formatted`, trimmed to the part that differs (so
 * that the editor keeps the cursor and folds where nothing changed), as the native
 * server answers `textDocument/formatting`; null when nothing changes. Offsets are in
 * UTF-16 code units and never split a surrogate pair.
 */
export function minimalEdit(
  old: string,
  formatted: string,
  positionAt: (offset: number) => Position,
): { range: { start: Position; end: Position }; newText: string } | null {
  if (old === formatted) return null;
  const shorter = Math.min(old.length, formatted.length);
  let prefix = 0;
  while (prefix < shorter && old.charCodeAt(prefix) === formatted.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(old.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    old.charCodeAt(old.length - 1 - suffix) === formatted.charCodeAt(formatted.length - 1 - suffix)
  ) {
    suffix++;
  }
  if (suffix > 0 && isLowSurrogate(old.charCodeAt(old.length - suffix))) suffix--;
  return {
    range: { start: positionAt(prefix), end: positionAt(old.length - suffix) },
    newText: formatted.slice(prefix, formatted.length - suffix),
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
