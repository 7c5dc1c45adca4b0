// The mean the page writes beside a distribution (report.js `meanWords`), from the
// report's `mean` as `fire --format json` prints it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { meanWords } from "../../crates/web/src/page/report.js";

test("a mean is said exactly beside its Monte Carlo estimate and interval", () => {
  // Hits 0, 1, 2 at 4/25, 12/25, 9/25: 12/25 + 18/25 = 6/5.
  const mean = {
    leaves_out: [],
    exact: 1.2,
    exact_fraction: "6/5",
    estimate: 1.19909,
    ci_low: 1.197733,
    ci_high: 1.200447,
    count: 1000000,
  };
  assert.equal(meanWords("hits", mean), "Mean hits: 1.2000 exactly (6/5); Monte Carlo 1.1991 (95%: 1.1977 to 1.2004)");
});

test("the outcomes that are no number are said as left out", () => {
  const mean = {
    leaves_out: ["undecided"],
    exact: null,
    exact_fraction: null,
    estimate: 2.25,
    ci_low: 2.1,
    ci_high: 2.4,
    count: 1978,
  };
  assert.equal(
    meanWords("turns", mean),
    "Mean turns: Monte Carlo 2.2500 (95%: 2.1000 to 2.4000), over the 1,978 trials that ended on a number (leaving out undecided)",
  );
});

test("an exact mean alone, as a loaded link shows it, with its long fraction left to the downloads", () => {
  const long = `${"7".repeat(30)}/${"3".repeat(30)}`;
  assert.equal(
    meanWords("first_kill_turn", { leaves_out: ["none"], exact: 2.3333333, exact_fraction: long }),
    "Mean first kill turn: 2.3333 exactly (leaving out none)",
  );
});
