// Unit tests of the playground's share links: `#z=` (deflate-raw, then base64url) and
// the older `#code=` (base64url of the text), with what a broken link says.

import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";

import { decodeText, encodeText, fragmentOf, openFragment } from "../playground/share";

test("texts round-trip through the compressed fragment, non-ASCII and long ones included", async () => {
  const long = Array.from({ length: 20000 }, (_, i) => `${i} -- ${i + 1}`).join("\n");
  for (const text of ["", "1 -- 2\n", 'node 5 "𝄞 é"\n1 -- 2', "\u0000\r\n", long]) {
    const fragment = await fragmentOf(text);
    assert.match(fragment, /^#z=[A-Za-z0-9_-]*$/, "base64url, no padding");
    assert.deepEqual(await openFragment(fragment), { kind: "text", text });
  }
  // Compressed: a long regular text takes far less room than its base64.
  assert.ok((await fragmentOf(long)).length * 2 < encodeText(long).length);
});

test("the new key is raw deflate (RFC 1951) in base64url, as zlib reads it", async () => {
  const text = "1 -- 2 -- 3\n".repeat(50);
  const fromNode = `#z=${deflateRawSync(Buffer.from(text)).toString("base64url")}`;
  assert.deepEqual(await openFragment(fromNode), { kind: "text", text });
});

test("old #code= links still open", async () => {
  for (const text of ["?>?", "1 -- 2", "ÿ~~", "a"]) {
    assert.equal(encodeText(text), Buffer.from(text, "utf8").toString("base64url"));
    assert.deepEqual(await openFragment(`#code=${encodeText(text)}`), { kind: "text", text });
  }
  // Padded links (from other tools) are read too.
  assert.equal(decodeText("YQ=="), "a");
});

test("what is not a share link opens nothing, and a broken one says what is wrong", async () => {
  assert.deepEqual(await openFragment(""), { kind: "none" });
  assert.deepEqual(await openFragment("#other=YQ"), { kind: "none" });
  const why = async (hash: string) => {
    const opened = await openFragment(hash);
    assert.equal(opened.kind, "broken", hash);
    return opened.kind === "broken" ? opened.why : "";
  };
  assert.match(await why("#code=not base64!"), /base64/);
  assert.match(await why("#z=not base64!"), /base64/);
  // Bytes that are not UTF-8, plain and deflated.
  assert.match(await why("#code=_w"), /UTF-8/);
  assert.match(await why(`#z=${deflateRawSync(Buffer.from([0xff, 0xfe])).toString("base64url")}`), /UTF-8/);
  // Not deflate at all, and a valid stream cut short.
  assert.match(await why("#z=_____w"), /deflate/);
  const whole = (await fragmentOf("1 -- 2 -- 3 -- 4\n".repeat(40))).slice(3);
  assert.match(await why(`#z=${whole.slice(0, whole.length - 4)}`), /deflate/);
  // A link that inflates beyond the limit is refused, not read whole.
  const bomb = deflateRawSync(Buffer.alloc(5 << 20, 0x31)).toString("base64url");
  assert.match(await why(`#z=${bomb}`), /larger than/);
});
