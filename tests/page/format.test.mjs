// How the page writes numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fixed, pct, best, view } from "../../crates/web/src/page/format.js";

test("a probability shows six decimals, and nothing when there is none", () => {
  assert.equal(fixed(0.6636), "0.663600");
  assert.equal(fixed(null), "");
});

test("a percentage keeps a second decimal near certainty and near nothing", () => {
  assert.equal(pct(0.6636), "66.4%");
  assert.equal(pct(0.999), "99.90%");
  assert.equal(pct(0.001), "0.10%");
});

test("the exact answer is preferred to the estimate", () => {
  assert.equal(best({ exact: 0.5, estimate: 0.49 }), 0.5);
  assert.equal(best({ exact: null, estimate: 0.49 }), 0.49);
});

test("at least and at most sum the outcomes above and below", () => {
  assert.deepEqual(view([0.25, 0.25, 0.5], ">="), [1, 0.75, 0.5]);
  assert.deepEqual(view([0.25, 0.25, 0.5], "<="), [0.25, 0.5, 1]);
  assert.deepEqual(view([0.25, 0.25, 0.5], "="), [0.25, 0.25, 0.5]);
});

import { percent, shortFraction, titleOf, grouped, remaining, rulesetName, words } from "../../crates/web/src/page/format.js";

test("players read chances as percentages, never 0.00% for a chance that is not nothing", () => {
  assert.equal(percent(0.6636), "66.36%");
  assert.equal(percent(0), "0.00%");
  assert.equal(percent(1), "100.00%");
  assert.equal(percent(0.00001), "under 0.01%");
  assert.equal(percent(0.99999), "over 99.99%");
});

test("a long exact fraction shows its leading digits and its size; a short one is left whole", () => {
  assert.equal(shortFraction("1659/2500"), "1659/2500");
  const long = `${"1".repeat(130)}/${"3".repeat(131)}`;
  assert.equal(shortFraction(long), "11111…/33333… (130/131 digits)");
  assert.equal(shortFraction(null), "");
});

test("a scenario's title is its top-level name, not a unit's", () => {
  assert.equal(titleOf('# c\nruleset = "x"\nname = "Panther vs Sherman"\n[[firer]]\nname = "Panthers"\n'), "Panther vs Sherman");
  assert.equal(titleOf('ruleset = "x"\n[target]\nname = "Shermans"\n'), null);
});

test("shipped scenarios are grouped by ruleset, in the order first met, each with its title", () => {
  const g = grouped([
    { name: "b.toml", kind: "direct_fire", text: 'ruleset = "command-decision"\nname = "B"\n' },
    { name: "a.toml", kind: "engagement", text: 'ruleset = "chain-of-command"\nname = "A"\n' },
    { name: "c.toml", kind: "morale", text: 'ruleset = "command-decision"\n' },
  ]);
  assert.deepEqual(
    g.map((x) => x.ruleset),
    ["command-decision", "chain-of-command"],
  );
  assert.deepEqual(
    g[0].items.map((x) => x.title),
    ["B", "c.toml"],
  );
});

test("the time left follows the pace so far, and waits until there is one", () => {
  assert.equal(remaining(0, 100, 10), null);
  assert.equal(remaining(10, 100, 0.1), null);
  assert.equal(remaining(20000, 800000, 7.5), "about 5 min left");
  assert.equal(remaining(50, 100, 10), "about 10 s left");
});

test("rulesets and outcomes in the game's words", () => {
  assert.equal(rulesetName("chain-of-command"), "Chain of Command");
  assert.equal(rulesetName("command-decision"), "Command Decision");
  assert.equal(words("forced_back"), "forced back");
});

import { vocabularyName, nameIn } from "../../crates/web/src/page/format.js";

test("a comparison's weapon is called by the name most rulesets give it, each ruleset's own where one is read", () => {
  const vocabulary = [
    {
      ruleset: "command-decision",
      weapon: [
        ["17pdr", "17-pounder anti-tank gun"],
        ["hmg", "Heavy MG platoon"],
      ],
    },
    {
      ruleset: "company-commander",
      weapon: [
        ["17pdr", "17-pounder anti-tank gun"],
        ["hmg", "MG 42 team, sustained fire"],
      ],
    },
    { ruleset: "mission-command", weapon: [["17pdr", "British 17 pdr"]] },
  ];
  // Two of three say "17-pounder anti-tank gun"; the MG's names tie, so the first.
  assert.equal(vocabularyName(vocabulary, "weapon", "17pdr"), "17-pounder anti-tank gun");
  assert.equal(vocabularyName(vocabulary, "weapon", "hmg"), "Heavy MG platoon");
  assert.equal(vocabularyName(vocabulary, "target", "medium_tank"), "medium tank");
  assert.equal(nameIn(vocabulary, "mission-command", "weapon", "17pdr"), "British 17 pdr");
  assert.equal(nameIn(vocabulary, "mission-command", "weapon", "hmg"), "Heavy MG platoon");
});

import { noteWords } from "../../crates/web/src/page/format.js";

test("a note's snake_case words read as words, a file's name and a quoted key as written", () => {
  assert.equal(
    noteWords("hit number 6 +1 veteran_elite -2 a_class_vs_strong_afv = 5"),
    "hit number 6 +1 veteran elite -2 a class vs strong afv = 5",
  );
  assert.equal(noteWords("a natural 10 is at least forced_back"), "a natural 10 is at least forced back");
  assert.equal(noteWords("dice_by_force_morale.toml lists levels 1 to 11"), "dice_by_force_morale.toml lists levels 1 to 11");
  assert.equal(noteWords("reaction row `enemy_seen_retreating` (+1)"), "reaction row `enemy_seen_retreating` (+1)");
});
