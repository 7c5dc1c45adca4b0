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
