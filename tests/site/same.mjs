// What the tests under tests/site hold the browser's engine to against the binary.
import assert from "node:assert/strict";

// A chi-square p-value is the one number left to the platform's mathematics: statrs
// computes it with f64::exp and ln, glibc's natively and Rust's own libm in
// WebAssembly, which differ in the last bit or two (0.5564987926683045 against
// ...044 was seen). Those are held to 1e-14 relative and every other byte to equality,
// until the p-value is computed the same way everywhere.
const P_VALUE = /"p_value": ?([-0-9.eE+]+|null)/g;

export function sameReport(browser, cli) {
  const masked = (text) => text.replace(P_VALUE, (m) => m.replace(/[-0-9.eE+]+$|null$/, "_"));
  assert.equal(masked(browser), masked(cli));
  const ps = (text) => [...text.matchAll(P_VALUE)].map((m) => Number(m[1]));
  const [a, b] = [ps(browser), ps(cli)];
  assert.equal(a.length, b.length);
  a.forEach((p, i) => assert.ok(Math.abs(p - b[i]) <= 1e-14 * Math.max(Math.abs(b[i]), 1e-300), `p_value ${p} against ${b[i]}`));
}
