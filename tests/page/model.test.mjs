// The form's model: values read and written in place in the scenario's text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { splice, stringAt, withSetting } from "../../crates/web/src/page/model.js";

test("a value is replaced by its UTF-8 byte offsets, text before it of any character", () => {
  const text = 'name = "Straße"\nrange = 16\n';
  const start = new TextEncoder().encode('name = "Straße"\nrange = ').length;
  assert.equal(splice(text, start, start + 2, "8"), 'name = "Straße"\nrange = 8\n');
});

test("a string value is read whichever quotes the file uses", () => {
  const text = `weapon = "de_75mm_kwk42"\nquality = 'veteran'\n`;
  assert.equal(stringAt(text, 9, 24), "de_75mm_kwk42");
  assert.equal(stringAt(text, 35, 44), "veteran");
});

test("a setting goes under the file's [settings], which is added when missing", () => {
  assert.equal(withSetting("range = 16\n", "a", "b"), 'range = 16\n\n[settings]\na = "b"\n');
  assert.equal(withSetting("range = 16\n[settings]\nc = \"d\"\n", "a", "b"), 'range = 16\n[settings]\na = "b"\nc = "d"\n');
});
