// The share link: `#code=` and the base64url encoding (RFC 4648 §5, no padding) of the
// UTF-8 text, so that the address bar always reproduces the page.

const PREFIX = "#code=";

export function encodeText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text of a base64url string, padded or not; null when it is not one. */
export function decodeText(encoded: string): string | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(encoded)) return null;
  const base64 = encoded.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  try {
    const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The text a fragment carries, if it is a share link. */
export function textOfFragment(hash: string): string | null {
  return hash.startsWith(PREFIX) ? decodeText(hash.slice(PREFIX.length)) : null;
}

export function fragmentOf(text: string): string {
  return PREFIX + encodeText(text);
}
