// What the tests under tests/site hold the browser's engine to against the binary.
import assert from "node:assert/strict";

// Every byte the same, the chi-square p-values too: core computes them with the libm
// crate's exp, ln and ln-gamma on every target, not the platform's (glibc's natively,
// Rust's own in WebAssembly), so nothing is left to the platform's mathematics.
export function sameReport(browser, cli) {
  assert.equal(browser, cli);
}
