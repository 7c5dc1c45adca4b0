// The balance finder in the form's words: what it may vary, its answer and the
// values it tried, never a key's path or a catalogue id.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keysToVary, balanceWords, triedWords } from "../../crates/web/src/page/model.js";

// POST /api/form's answer about experiments/cd_engagement_shermans_vs_panther.toml,
// cut to one of each offer.
const FORM = {
  choices: [{ key: "side[0].unit[0].vehicle", what: "vehicle", names: ["m4_sherman", "panther_g"] }],
  values: [
    { key: "name", kind: "name" },
    { key: "engagement.range", kind: "float" },
    { key: "side[0].unit[0].name", kind: "name" },
    { key: "side[0].unit[0].count", kind: "integer" },
  ],
  counts: [{ table: "side[1].unit[0]", key: "count", default: 1, min: 1, max: 50 }],
  settings: [{ key: "shaken_companies", names: ["rally", "keep_firing"] }],
};

test("a balance varies the form's numbers, counts, choices and settings, each by the form's label", () => {
  assert.deepEqual(keysToVary(FORM), [
    { key: "engagement.range", label: "Engagement: range", kind: "float" },
    { key: "side[0].unit[0].count", label: "Side 1, unit 1: how many", kind: "integer" },
    { key: "side[1].unit[0].count", label: "Side 2, unit 1: how many", kind: "integer" },
    { key: "side[0].unit[0].vehicle", label: "Side 1, unit 1: vehicle", kind: "choice", what: "vehicle" },
    { key: "settings.shaken_companies", label: "Setting: shaken companies", kind: "setting" },
  ]);
});

test("the finder's answer names the key by its label, not its path", () => {
  const jump = "no value of engagement.range gives 30%: P(winner = US) jumps from 42.87% to 12.63% at 5 in.";
  assert.equal(
    balanceWords(jump, "engagement.range", "Engagement: range"),
    "No value of “Engagement: range” gives 30%: P(winner = US) jumps from 42.87% to 12.63% at 5 in.",
  );
  const crossing = "P(winner = US) crosses 50% between side[0].unit[0].count = 3 and side[0].unit[0].count = 4";
  assert.equal(
    balanceWords(crossing, "side[0].unit[0].count", "Side 1, unit 1: how many"),
    "P(winner = US) crosses 50% between “Side 1, unit 1: how many” = 3 and “Side 1, unit 1: how many” = 4",
  );
  assert.equal(balanceWords("", "range", "Range"), "");
});

test("a value tried is said as the form says it: a catalogue entry by its label", () => {
  const labels = { vehicle: { m4_sherman: { label: "M4 Sherman (illustrative)", illustrative: true } } };
  assert.equal(triedWords("m4_sherman", "vehicle", labels), "M4 Sherman");
  assert.equal(triedWords("most_dangerous", undefined, labels), "most dangerous");
  assert.equal(triedWords(4.5, undefined, labels), "4.5");
  assert.equal(triedWords(true, undefined, labels), "true");
});
