// The scenario editor's pure parts (model.js): what an edit in the form writes into
// the file, the names that follow it, a count checked and written, where a refusal is
// said, and what is saved and run. The DOM around them is tested in the browser
// (tests/browser/tests/page.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  commandLine,
  countChange,
  editFile,
  entryWords,
  inventedNames,
  isDistance,
  literal,
  metresWords,
  modifierGroups,
  readingWords,
  savedName,
  scenarioPlace,
  valueAt,
  withHeading,
} from "../../crates/web/src/page/model.js";

const bytes = (s) => new TextEncoder().encode(s).length;

// The form's field `key` over the first `written` in `text` after `after`, as the
// server places it (UTF-8 byte offsets), with its `kind` or `what`.
function field(text, key, written, extra, after = "") {
  const at = text.indexOf(written, text.indexOf(after));
  assert.ok(at >= 0, `${written} in the text`);
  const start = bytes(text.slice(0, at));
  return { key, start, end: start + bytes(written), ...extra };
}

const DUEL = `ruleset = "command-decision"
name = "Panzer IV vs Sherman, 16 in."
range = 16

[[firer]]
name = "Panzer IV"
weapon = "de_75mm_kwk40"

[target]
name = "Sherman"
vehicle = "us_m4_sherman"
`;

const DUEL_FIELDS = [
  field(DUEL, "name", '"Panzer IV vs Sherman, 16 in."', { kind: "name" }),
  field(DUEL, "range", "16", { kind: "integer" }, "range ="),
  field(DUEL, "firer[0].name", '"Panzer IV"', { kind: "name" }, "[[firer]]"),
  field(DUEL, "firer[0].weapon", '"de_75mm_kwk40"', { what: "weapon" }),
  field(DUEL, "target.name", '"Sherman"', { kind: "name" }, "[target]"),
  field(DUEL, "target.vehicle", '"us_m4_sherman"', { what: "vehicle" }),
];

const LABELS = {
  weapon: { de_88mm_kwk36: { label: "8.8 cm KwK 36" }, de_75mm_kwk40: { label: "7.5 cm KwK 40" } },
  vehicle: { us_m4a3e8: { label: "M4A3E8 (illustrative)", illustrative: true }, us_m4_sherman: { label: "M4 Sherman" } },
};

const edited = (key, literal) => {
  const f = DUEL_FIELDS.find((x) => x.key === key);
  return [{ start: f.start, end: f.end, literal }];
};

test("a typed value is written as the file writes it: names and entries quoted, numbers as typed", () => {
  assert.equal(literal({ kind: "name" }, 'Tiger "131"'), '"Tiger \\"131\\""');
  assert.equal(literal({ what: "weapon" }, "de_88mm_kwk36"), '"de_88mm_kwk36"');
  assert.equal(literal({ kind: "integer" }, "8"), "8");
  assert.equal(literal({ kind: "boolean" }, "true"), "true");
});

test("a field's value is read from the text, strings unquoted; an old place reads as none", () => {
  assert.equal(valueAt(DUEL, DUEL_FIELDS, "firer[0].name"), "Panzer IV");
  assert.equal(valueAt(DUEL, DUEL_FIELDS, "target.vehicle"), "us_m4_sherman");
  assert.equal(valueAt(DUEL, DUEL_FIELDS, "range"), "16");
  assert.equal(valueAt(DUEL, DUEL_FIELDS, "side[0].name"), null);
  // The file edited by hand: the name's old place now falls across other text.
  assert.equal(valueAt(`# a comment\n${DUEL}`, DUEL_FIELDS, "firer[0].name"), null);
});

test("a unit given another weapon takes its name, and the heading follows", () => {
  const next = editFile(DUEL, DUEL_FIELDS, edited("firer[0].weapon", '"de_88mm_kwk36"'), "firer[0].weapon", {
    typed: new Set(),
    labels: LABELS,
    unit: "in.",
  });
  assert.equal(valueAt(next.text, next.fields, "firer[0].weapon"), "de_88mm_kwk36");
  assert.equal(valueAt(next.text, next.fields, "firer[0].name"), "8.8 cm KwK 36");
  assert.equal(valueAt(next.text, next.fields, "name"), "8.8 cm KwK 36 vs Sherman, 16 in.");
  assert.ok(next.text.includes('name = "8.8 cm KwK 36 vs Sherman, 16 in."\nrange = 16\n'), next.text);
});

test("a name the player typed stays when the equipment changes; an entry not in the labels is said in words", () => {
  const next = editFile(DUEL, DUEL_FIELDS, edited("firer[0].weapon", '"de_88mm_kwk36"'), "firer[0].weapon", {
    typed: new Set(["firer[0].name"]),
    labels: LABELS,
    unit: "in.",
  });
  assert.equal(valueAt(next.text, next.fields, "firer[0].name"), "Panzer IV");
  assert.equal(valueAt(next.text, next.fields, "name"), "Panzer IV vs Sherman, 16 in.");
  const unlisted = editFile(DUEL, DUEL_FIELDS, edited("target.vehicle", '"us_m10_wolverine"'), "target.vehicle", {
    typed: new Set(),
    labels: LABELS,
    unit: "in.",
  });
  assert.equal(valueAt(unlisted.text, unlisted.fields, "target.name"), "us m10 wolverine");
  assert.equal(entryWords(LABELS, "vehicle", "us_m4a3e8"), "M4A3E8");
});

test("a unit with a vehicle is named by the vehicle, not by a change of its weapon", () => {
  const text = `[[firer]]\nname = "Panzer IV"\nvehicle = "de_pz4h"\nweapon = "de_75mm_kwk40"\n`;
  const fields = [
    field(text, "firer[0].name", '"Panzer IV"', { kind: "name" }),
    field(text, "firer[0].vehicle", '"de_pz4h"', { what: "vehicle" }),
    field(text, "firer[0].weapon", '"de_75mm_kwk40"', { what: "weapon" }),
  ];
  const weapon = fields[2];
  const next = editFile(text, fields, [{ start: weapon.start, end: weapon.end, literal: '"de_88mm_kwk36"' }], "firer[0].weapon", {
    typed: new Set(),
    labels: LABELS,
    unit: "",
  });
  assert.equal(next.text, text.replace("de_75mm_kwk40", "de_88mm_kwk36"));
});

test("the heading is the player's once typed, or when the edit is to it", () => {
  const range = edited("range", "8");
  const typed = editFile(DUEL, DUEL_FIELDS, range, "range", { typed: new Set(["name"]), labels: LABELS, unit: "in." });
  assert.equal(valueAt(typed.text, typed.fields, "name"), "Panzer IV vs Sherman, 16 in.");
  const followed = editFile(DUEL, DUEL_FIELDS, range, "range", { typed: new Set(), labels: LABELS, unit: "in." });
  assert.equal(valueAt(followed.text, followed.fields, "name"), "Panzer IV vs Sherman, 8 in.");
  const own = editFile(DUEL, DUEL_FIELDS, edited("name", '"Kursk"'), "name", { typed: new Set(), labels: LABELS, unit: "in." });
  assert.equal(valueAt(own.text, own.fields, "name"), "Kursk");
});

test("a heading follows the file's names after a rewrite, and a file without one is left as it is", () => {
  const file = { text: DUEL.replace('"Panzer IV"', '"Panzer IV (2)"'), fields: DUEL_FIELDS.map((f) => ({ ...f })) };
  // Fields placed in the new text, as the form reads them again.
  file.fields = [
    field(file.text, "name", '"Panzer IV vs Sherman, 16 in."', { kind: "name" }),
    field(file.text, "range", "16", { kind: "integer" }, "range ="),
    field(file.text, "firer[0].name", '"Panzer IV (2)"', { kind: "name" }),
    field(file.text, "target.name", '"Sherman"', { kind: "name" }, "[target]"),
  ];
  const moved = withHeading(file, new Set(), "in.");
  assert.equal(valueAt(moved.text, moved.fields, "name"), "Panzer IV (2) vs Sherman, 16 in.");
  assert.equal(withHeading(file, new Set(["name"]), "in."), file);
  const untitled = { text: "range = 16\n", fields: [field("range = 16\n", "range", "16", { kind: "integer" })] };
  assert.equal(withHeading(untitled, new Set(), "in."), untitled);
});

test("a unit's count is checked against the rules' bounds, then written into its table", () => {
  const count = { table: "firer[0]", key: "stands", min: 1, max: 6, default: 3 };
  assert.deepEqual(countChange(DUEL, count, "7"), { wrong: "Firer 1: stands must be from 1 to 6, not 7" });
  assert.deepEqual(countChange(DUEL, count, "2.5"), { wrong: "Firer 1: stands must be a whole number, not 2.5" });
  assert.deepEqual(countChange(DUEL, count, " "), { wrong: "Firer 1: stands: give a number" });
  const { edit } = countChange(DUEL, count, " 4 ");
  const at = bytes(DUEL.slice(0, DUEL.indexOf("\n\n[target]") + 1));
  assert.deepEqual(edit, { start: at, end: at, literal: "stands = 4\n" });
  const inline = 'firer = [{ name = "x" }]\n';
  assert.deepEqual(countChange(inline, count, "4"), {
    wrong: "Firer 1: stands: write stands = 4 in this unit's table in the scenario file",
  });
});

test("a refusal is said beside the field its place falls on, else with the file's line", () => {
  const at = scenarioPlace("page.toml:3:9: range -3 must be a distance in inches, 0 or more", DUEL, DUEL_FIELDS);
  assert.deepEqual(at.key, "range");
  assert.equal(at.beside, "Range -3 must be a distance in inches, 0 or more");
  const between = scenarioPlace("page.toml:4:1: expected a table", DUEL, DUEL_FIELDS);
  assert.deepEqual(between, { key: null, beside: null, words: "In the scenario file, line 4: expected a table" });
  const nowhere = scenarioPlace("the scenario names no ruleset", DUEL, DUEL_FIELDS);
  assert.deepEqual(nowhere, { key: null, beside: null, words: "the scenario names no ruleset" });
});

test("a distance is said in metres too, while what is typed is a number", () => {
  assert.ok(isDistance("range") && isDistance("engagement.range") && isDistance("engagement.min_range"));
  assert.ok(isDistance("side[0].closing") && !isDistance("firer[0].stands"));
  assert.equal(metresWords("8", "in.", 20), "8 in. = 160 m");
  assert.equal(metresWords("2.5", "in.", 20), "2.5 in. = 50 m");
  assert.equal(metresWords("", "in.", 20), "");
  assert.equal(metresWords("x", "in.", 20), "");
});

test("a setting's readings are in words, the rules' default marked", () => {
  assert.equal(readingWords("by_the_book", 0), "by the book (default)");
  assert.equal(readingWords("house_rule", 1), "house rule");
});

test("the modifiers a scenario may name are grouped by their chart", () => {
  const groups = modifierGroups([
    { name: "light_cover", chart: "fire_chart", label: "Light cover", value: "-1", applied: "named" },
    { name: "range_band", chart: "fire_chart", label: "Range", value: "varies", applied: "by_the_rules" },
    { name: "dug_in", chart: "fire_chart", label: "Dug in", value: "-2", applied: "named" },
    { name: "flank", chart: "armour", label: "Flank shot", value: "+1", applied: "named" },
  ]);
  assert.deepEqual(groups, [
    {
      chart: "fire chart",
      modifiers: [
        { name: "light_cover", words: "Light cover (-1)" },
        { name: "dug_in", words: "Dug in (-2)" },
      ],
    },
    { chart: "armour", modifiers: [{ name: "flank", words: "Flank shot (+1)" }] },
  ]);
});

test("a shipped file is saved and run by its name until edited, then as the player's own", () => {
  assert.equal(savedName("", true), "scenario.toml");
  assert.equal(savedName("cd_tank_duel.toml", false), "cd_tank_duel.toml");
  assert.equal(savedName("cd_tank_duel.toml", true), "my_cd_tank_duel.toml");
  const shipped = commandLine("fire", "--trials 1000", { picked: "cd_tank_duel.toml", edited: false, mine: [], ruleset: "x" });
  assert.deepEqual(shipped, { line: "combat-odds fire experiments/cd_tank_duel.toml --trials 1000", files: [] });
  const own = commandLine("run", "", {
    picked: "cd_tank_duel.toml",
    edited: true,
    mine: [
      { name: "catalogue.toml", file: "catalogue.toml" },
      { name: "my_fire.toml", file: "fire_table.toml" },
    ],
    ruleset: "command-decision",
  });
  assert.deepEqual(own, {
    line: "combat-odds run my_cd_tank_duel.toml --rules my_rules",
    files: [
      "my_cd_tank_duel.toml is the scenario as on screen (Download scenario saves it)",
      "my_rules/command-decision/catalogue.toml is your catalogue.toml (Export the catalogue saves it)",
      "my_rules/command-decision/my_fire.toml is your fire_table.toml",
    ],
  });
});

test("the illustrative entries the form's choices name are listed by their labels", () => {
  assert.deepEqual(inventedNames(DUEL, DUEL_FIELDS, LABELS), []);
  const text = DUEL.replace("us_m4_sherman", "us_m4a3e8");
  const fields = DUEL_FIELDS.map((f) => (f.key === "target.vehicle" ? { ...f, end: f.end + 4 } : f));
  assert.deepEqual(inventedNames(text, fields, LABELS), ["M4A3E8"]);
});
