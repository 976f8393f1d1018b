// Unit tests of the playground's share links: `#code=` and base64url (RFC 4648 §5) with no padding.

import { test } from "node:test";
import assert from "node:assert/strict";

import { decodeText, encodeText, fragmentOf, textOfFragment } from "../playground/share";

test("texts round-trip through the fragment, non-ASCII and long ones included", () => {
  const long = Array.from({ length: 20000 }, (_, i) => `${i} -- ${i + 1}`).join("\n");
  for (const text of ["", "1 -- 2\n", 'node 5 "𝄞 é"\n1 -- 2', "\u0000\r\n", long]) {
    const fragment = fragmentOf(text);
    assert.match(fragment, /^#code=[A-Za-z0-9_-]*$/, "base64url, no padding");
    assert.equal(textOfFragment(fragment), text);
  }
});

test("the encoding is RFC 4648's base64url, as Node's", () => {
  for (const text of ["?>?", "1 -- 2", "ÿ~~", "a"]) {
    assert.equal(encodeText(text), Buffer.from(text, "utf8").toString("base64url"));
  }
  // Padded links (from other tools) are read too.
  assert.equal(decodeText("YQ=="), "a");
});

test("what is not a share link opens nothing", () => {
  assert.equal(textOfFragment(""), null);
  assert.equal(textOfFragment("#other=YQ"), null);
  assert.equal(textOfFragment("#code=not base64!"), null);
  // Bytes that are not UTF-8.
  assert.equal(textOfFragment("#code=_w"), null);
});
