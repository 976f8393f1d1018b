// The share link. New links are `#z=` and the base64url encoding (RFC 4648 §5, no
// padding) of the UTF-8 text compressed by the browser's own deflate (raw, RFC 1951,
// `CompressionStream("deflate-raw")`); the links of before, `#code=` and the base64url of
// the UTF-8 text uncompressed, still open. Reading a link says what was wrong with it.

const COMPRESSED = "#z=";
const PLAIN = "#code=";

/** A link's text is read up to this many UTF-8 bytes; a link that inflates beyond is refused. */
export const MAX_LINK_TEXT_BYTES = 4 << 20;

/** What a fragment holds: no share link, a text, or why the link could not be read. */
export type Opened = { kind: "none" } | { kind: "text"; text: string } | { kind: "broken"; why: string };

export function encodeBytes(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of a base64url string, padded or not; null when it is not one. */
export function decodeBytes(encoded: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(encoded)) return null;
  const base64 = encoded.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  try {
    const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export function encodeText(text: string): string {
  return encodeBytes(new TextEncoder().encode(text));
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The text of a base64url string of UTF-8 bytes; null when it is not one. */
export function decodeText(encoded: string): string | null {
  const bytes = decodeBytes(encoded);
  return bytes === null ? null : utf8(bytes);
}

/** All of a stream's bytes, or null past `limit` bytes (the stream is cancelled). */
async function readAll(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const all = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** Runs `bytes` through a compression or decompression stream. */
function through(bytes: Uint8Array, transform: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array | null> {
  const source = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(transform);
  return readAll(source as ReadableStream<Uint8Array>, limit);
}

/** The fragment of a new share link: the text deflated, in base64url. */
export async function fragmentOf(text: string): Promise<string> {
  const deflated = await through(new TextEncoder().encode(text), new CompressionStream("deflate-raw"), Infinity);
  return COMPRESSED + encodeBytes(deflated ?? new Uint8Array());
}

/** What the fragment `hash` (with its `#`) holds. */
export async function openFragment(hash: string): Promise<Opened> {
  if (hash.startsWith(PLAIN)) {
    const bytes = decodeBytes(hash.slice(PLAIN.length));
    if (bytes === null) return { kind: "broken", why: "the link's text is not valid base64url" };
    const text = utf8(bytes);
    return text === null ? { kind: "broken", why: "the link's text is not UTF-8" } : { kind: "text", text };
  }
  if (!hash.startsWith(COMPRESSED)) return { kind: "none" };
  const bytes = decodeBytes(hash.slice(COMPRESSED.length));
  if (bytes === null) return { kind: "broken", why: "the link's text is not valid base64url" };
  let inflated: Uint8Array | null;
  try {
    inflated = await through(bytes, new DecompressionStream("deflate-raw"), MAX_LINK_TEXT_BYTES);
  } catch {
    return { kind: "broken", why: "the link's text is not valid deflate data (cut short or changed?)" };
  }
  if (inflated === null) return { kind: "broken", why: `the link's text is larger than ${MAX_LINK_TEXT_BYTES >> 20} MB` };
  const text = utf8(inflated);
  return text === null ? { kind: "broken", why: "the link's text is not UTF-8" } : { kind: "text", text };
}
