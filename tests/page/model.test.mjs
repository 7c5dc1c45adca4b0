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
  assert.equal(withSetting('range = 16\n[settings]\nc = "d"\n', "a", "b"), 'range = 16\n[settings]\na = "b"\nc = "d"\n');
});

import {
  fieldLabel,
  choiceLabel,
  placeOf,
  fieldAt,
  explain,
  checkSetting,
  checkNumber,
  refusal,
  applyEdits,
  headingOf,
  plainLabel,
} from "../../crates/web/src/page/model.js";

test("a field's label is in players' words, not the file's path", () => {
  assert.equal(fieldLabel("range"), "Range");
  assert.equal(fieldLabel("firer[0].weapon"), "Firer 1: weapon");
  assert.equal(fieldLabel("side[1].unit[0].count"), "Side 2, unit 1: how many");
  assert.equal(fieldLabel("engagement.min_range"), "Engagement: closest range");
  assert.equal(fieldLabel("settings.artillery_response"), "Setting: artillery response");
});

test("a rules message's place is found in the text, and said in the field's words", () => {
  const text = 'ruleset = "command-decision"\nname = "Straße"\nrange = -3\n';
  const at = placeOf("page.toml:3:9: range -3 must be a distance in inches, 0 or more", text);
  const start = new TextEncoder().encode('ruleset = "command-decision"\nname = "Straße"\nrange = ').length;
  assert.equal(at.offset, start);
  const field = fieldAt(
    [
      { key: "name", start: 36, end: 45 },
      { key: "range", start, end: start + 2 },
    ],
    at.offset,
  );
  assert.equal(field.key, "range");
  assert.equal(explain(at.words, { ...field, text: "-3" }), "Range must be a distance in inches, 0 or more");
  assert.equal(explain("must be listed", { key: "firer[0].weapon", text: "x" }), "Firer 1: weapon: must be listed");
  assert.equal(placeOf("trials must be at least 1", text), null);
});

test("trials and seed are checked as the server will take them", () => {
  assert.equal(checkSetting("trials", "100000"), null);
  assert.equal(checkSetting("seed", "0"), null);
  assert.equal(checkSetting("trials", "-10"), "Monte Carlo trials must be a whole number, 1 or more, not -10");
  assert.equal(checkSetting("trials", "2.5"), "Monte Carlo trials must be a whole number, 1 or more, not 2.5");
  assert.equal(checkSetting("trials", "0"), "Monte Carlo trials must be a whole number, 1 or more, not 0");
  assert.equal(checkSetting("seed", "-1"), "Seed must be a whole number, 0 or more, not -1");
  assert.equal(checkSetting("seed", ""), "Seed: give a whole number, 0 or more");
  assert.equal(checkNumber("integer", "", "range"), "Range: give a number");
  assert.equal(checkNumber("integer", "2.5", "range"), "Range must be a whole number, not 2.5");
  assert.equal(checkNumber("float", "2.5", "range"), null);
});

test("the server's refusals lose their request words and status codes", () => {
  const body = "seed: invalid value: integer `-1`, expected u64 at line 1 column 613";
  assert.deepEqual(refusal(body), { setting: "seed", words: "Seed must be a whole number, 0 or more" });
  assert.deepEqual(refusal("exact_seconds 99 is more than the server's 10"), {
    setting: "exact_seconds",
    words: "The time the exact answer may take 99 is more than the server's 10",
  });
  assert.equal(refusal("the server answered 500").words, "the server could not answer (it said 500)");
  assert.equal(refusal("page.toml:3:9: x").setting, null);
});

test("edits are made from the end, and the fields move with them", () => {
  const text = 'name = "A vs B"\nrange = 16\n';
  const fields = [
    { key: "name", start: 7, end: 15 },
    { key: "range", start: 24, end: 26 },
  ];
  const out = applyEdits(text, fields, [
    { start: 7, end: 15, literal: '"Sherman vs Panther"' },
    { start: 24, end: 26, literal: "8" },
  ]);
  assert.equal(out.text, 'name = "Sherman vs Panther"\nrange = 8\n');
  assert.deepEqual(
    out.fields.map((f) => [f.start, f.end]),
    [
      [7, 27],
      [36, 37],
    ],
  );
});

test("a heading follows the form's names and range", () => {
  const values = { "firer[0].name": "Shermans", "target.name": "Panther", range: "8" };
  assert.equal(
    headingOf(Object.keys(values), (k) => values[k], "in."),
    "Shermans vs Panther, 8 in.",
  );
  assert.equal(
    headingOf(["range"], (k) => values[k], "in."),
    null,
  );
  assert.equal(plainLabel("M4 Sherman (illustrative)"), "M4 Sherman");
});

import { units, unitWords, duplicate, addToList } from "../../crates/web/src/page/model.js";

const TWO =
  'ruleset = "command-decision"\n\n[[firer]]\nname = "HMG"\n\n[[firer]]\nname = "Rifles"\n\n[target]\nname = "Stand"\nmodifiers = ["light_cover"]\n';

test("a file's units are its firers, target and sides' units, in players' words", () => {
  assert.deepEqual(units(TWO).map(unitWords), ["Firer 1", "Firer 2", "Target"]);
  const fight =
    '[[side]]\nname = "A"\n[[side.unit]]\nname = "x"\n[[side]]\nname = "B"\n[[side.unit]]\nname = "y"\n[[side.unit]]\nname = "z"\n';
  assert.deepEqual(units(fight).map(unitWords), ["Side 1, unit 1", "Side 2, unit 1", "Side 2, unit 2"]);
});

test("another unit like one is written just after it, named as the copy", () => {
  const out = duplicate(TWO, units(TWO)[0]);
  assert.equal(
    out,
    'ruleset = "command-decision"\n\n[[firer]]\nname = "HMG"\n\n[[firer]]\nname = "HMG (2)"\n\n[[firer]]\nname = "Rifles"\n\n[target]\nname = "Stand"\nmodifiers = ["light_cover"]\n',
  );
});

test("a modifier joins the unit's list, or starts one under its header", () => {
  const [first, , target] = units(TWO);
  assert.ok(addToList(TWO, target, "modifiers", "in_cover").endsWith('modifiers = ["light_cover", "in_cover"]\n'));
  assert.ok(addToList(TWO, first, "modifiers", "op_fire").includes('[[firer]]\nmodifiers = ["op_fire"]\nname = "HMG"\n'));
});

test("a choice's label says what kind of choice it is only where its field's words do not", () => {
  assert.equal(choiceLabel("phase", "phase"), "Phase");
  assert.equal(choiceLabel("firer[0].weapon", "weapon"), "Firer 1: weapon");
  assert.equal(choiceLabel("settings.artillery_response", "setting"), "Setting: artillery response");
  assert.equal(choiceLabel("firer[0].quality", "troop quality"), "Firer 1: quality (troop quality)");
});

import { tableAt, countEdit } from "../../crates/web/src/page/model.js";

// A count written into its unit's table, as the page writes it.
const withCount = (text, path, key, value) => {
  const e = countEdit(text, path, key, value);
  return e && splice(text, e.start, e.end, e.literal);
};

const DUEL = `range = 16

[[firer]]
name = "Panther platoon"
mount = "tank"

[target]
name = "Sherman platoon"

[[target.passengers]]
quality = "regular"
stands = 1
`;

test("a unit's count goes after its table's last key, before the blank line and the next table", () => {
  assert.equal(withCount(DUEL, "firer[0]", "stands", 3), DUEL.replace('mount = "tank"\n', 'mount = "tank"\nstands = 3\n'));
  assert.equal(
    withCount(DUEL, "target", "stands", 2),
    DUEL.replace('name = "Sherman platoon"\n', 'name = "Sherman platoon"\nstands = 2\n'),
  );
  assert.equal(withCount(DUEL, "target.passengers[0]", "count", 2), `${DUEL}count = 2\n`);
});

test("the table is found by its place among arrays of tables, within its parent's", () => {
  const sides =
    '[[side]]\nname = "A"\n[[side.unit]]\nname = "a1"\n[[side.unit]]\nname = "a2"\n' +
    '[[side]]\nname = "B"\n[[side.unit]] # the only one\n  name = "b1"\n\n# B\'s reserve follows\n[[firer]]\n';
  const b1 = withCount(sides, "side[1].unit[0]", "count", 4);
  assert.ok(b1.includes('[[side.unit]] # the only one\n  name = "b1"\n  count = 4\n\n# B\'s reserve follows\n'), b1);
  assert.ok(withCount(sides, "side[0].unit[1]", "count", 2).includes('name = "a2"\ncount = 2\n[[side]]'));
  assert.equal(tableAt(sides, "side[1].unit[1]"), null);
  assert.ok(withCount(sides, "firer[0]", "stands", 2).endsWith("[[firer]]\nstands = 2\n"));
});

test("a file without a last newline, with CRLF or with UTF-8 before the table keeps its own form", () => {
  assert.equal(withCount('[[firer]]\nname = "x"', "firer[0]", "stands", 2), '[[firer]]\nname = "x"\nstands = 2\n');
  assert.equal(withCount('[[firer]]\r\nname = "x"\r\n', "firer[0]", "stands", 2), '[[firer]]\r\nname = "x"\r\nstands = 2\r\n');
  const umlaut = 'name = "Straße"\n[[firer]]\nname = "Müller"\n';
  assert.equal(withCount(umlaut, "firer[0]", "stands", 2), `${umlaut}stands = 2\n`);
});

test("a unit written inline or with dotted keys has no table to write into", () => {
  assert.equal(countEdit('firer = [{ name = "x" }]\n', "firer[0]", "stands", 2), null);
  assert.equal(countEdit('target.name = "x"\n', "target", "stands", 2), null);
});

test("a key of the file's own making, quoted with parentheses, is labelled as written, not a failure", () => {
  assert.equal(fieldLabel('firer[0]."odd (key)".range'), 'Firer 1, "odd (key)": range');
});

test("asking for a smaller exact_seconds reads as less time for the exact answer", () => {
  const said = refusal(
    "trials 10000000: about 40 minutes of work, past this server's 2 minutes; ask for fewer trials, or a smaller exact_seconds",
  );
  assert.equal(said.setting, "trials");
  assert.ok(said.words.endsWith("ask for fewer trials, or less time for the exact answer"), said.words);
});

import { comparisonRefusal } from "../../crates/web/src/page/model.js";

test("a comparison's refusal names the form's field, not the file's place", () => {
  const text = 'kind = "compare"\nname = "AT"\nweapons = ["pak40"]\ntarget = "tiger"\n';
  // Line 4 is the target's.
  assert.deepEqual(comparisonRefusal("page.toml:4:10: unknown target `tiger`", text), {
    setting: null,
    words: "Target: unknown target `tiger`",
  });
  assert.equal(comparisonRefusal("trials 0: give 1 or more", text).setting, "trials");
});
