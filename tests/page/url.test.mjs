// The address holds a page's whole state: what encode writes, decode reads back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encode, decode, toHash, fromHash, pack, unpack } from "../../crates/web/src/page/url.js";
import { readFileSync } from "node:fs";

test("a file survives the address byte for byte, any character included", () => {
  for (const text of ["", "range = 16\n", 'name = "Panzer IV – Ausf. H, 800 m"\n# ü ✓ 戦車\n', "a+b/c==?&#"]) {
    assert.equal(decode(encode(text)), text);
  }
});

test("the encoded text needs no escaping in a URL", () => {
  const encoded = encode("\u00ff\u00fe\u00fd>>>???~~~");
  assert.match(encoded, /^[A-Za-z0-9_-]*$/);
});

test("a page's settings go into the fragment and come back", () => {
  const hash = toHash("fire", { trials: "100000", seed: "7", scenario: encode("range = 8\n") });
  assert.ok(hash.startsWith("#page=fire&"));
  const back = fromHash(hash);
  assert.equal(back.get("page"), "fire");
  assert.equal(back.get("seed"), "7");
  assert.equal(decode(back.get("scenario")), "range = 8\n");
});

test("a player's catalogue goes into a link deflated and comes back whole", async () => {
  const text = readFileSync(new URL("../../rulesets/command-decision/catalogue.toml", import.meta.url), "utf8");
  const tables = { "catalogue.toml": { file: "catalogue.toml", text: `${text}\n# ü ✓\n` } };
  const packed = await pack(tables);
  assert.match(packed, /^[A-Za-z0-9_-]*$/);
  // The catalogue is 5 KB of text: deflated, its link is under half what base64 alone writes.
  assert.ok(packed.length < encode(JSON.stringify(tables)).length / 2, `${packed.length} characters`);
  assert.deepEqual(await unpack(packed), tables);
});

test("a link cut short unpacks to nothing rather than failing", async () => {
  const packed = await pack({ a: "b".repeat(100) });
  assert.equal(await unpack(packed.slice(0, 5)), null);
  assert.equal(await unpack("%%%"), null);
});
