// The static site's engine (the WebAssembly scripts/build-site writes) against the
// binary: the same scenario, trials and seed give the very bytes of
// `combat-odds fire --format json` and `--format csv`, the chi-square p-values too: core
// computes them with the libm crate's exp, ln and ln-gamma on every target, not the
// platform's (glibc's natively, Rust's own in WebAssembly). Run by .ci/run after the
// site is built:
//   COMBAT_ODDS_SITE=<site> COMBAT_ODDS_BIN=<binary> node --test tests/site/*.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const site = process.env.COMBAT_ODDS_SITE;
const bin = process.env.COMBAT_ODDS_BIN;
if (!site || !bin) throw new Error("set COMBAT_ODDS_SITE (the built site) and COMBAT_ODDS_BIN (the binary)");

const engine = await import(pathToFileURL(`${site}/page/combat_odds_wasm.js`));
engine.initSync({ module: readFileSync(`${site}/page/combat_odds_wasm_bg.wasm`) });
// The engine's fire and its CSV, as the worker asks them.
const fire = (request, progress) => engine.answer("/api/fire", request, "", progress);
const fireCsv = (request, progress) => engine.answer("/api/fire.csv", request, "", progress);

// The CLI's default fire scenario, under the name the CLI gives it.
const name = "experiments/cd_tank_duel.toml";
const scenario = readFileSync(new URL(`../../${name}`, import.meta.url), "utf8");

for (const mode of ["compiled", "literal"]) {
  test(`the browser's engine prints the default fire's ${mode} report as the CLI does, byte for byte`, () => {
    const [trials, seed] = [200000, 7];
    const cli = execFileSync(bin, ["fire", "--format", "json", "--trials", `${trials}`, "--seed", `${seed}`, "--mode", mode], {
      encoding: "utf8",
    });
    const progress = [];
    const json = fire(JSON.stringify({ scenario, name, trials, seed, mode, exact_seconds: 60 }), (done, planned) =>
      progress.push([done, planned]),
    );
    assert.equal(`${json}\n`, cli);
    assert.deepEqual(progress.at(-1), [trials, trials]);
  });
}

for (const mode of ["compiled", "literal"]) {
  test(`the browser's engine writes the default fire's ${mode} report as the CSV the CLI prints, byte for byte`, () => {
    const [trials, seed] = [50000, 3];
    const cli = execFileSync(bin, ["fire", "--format", "csv", "--trials", `${trials}`, "--seed", `${seed}`, "--mode", mode], {
      encoding: "utf8",
    });
    const csv = JSON.parse(fireCsv(JSON.stringify({ scenario, name, trials, seed, mode, exact_seconds: 60 }), () => {}));
    assert.equal(csv, cli);
  });
}

test("a bad request is the server's one-line error, not a panic", () => {
  assert.throws(
    () => fire(JSON.stringify({ scenario, name, mode: "fast" }), () => {}),
    (e) => e === JSON.stringify({ error: "mode `fast`: give `compiled` or `literal`" }),
  );
  assert.throws(
    () => fire(JSON.stringify({ scenario: "ruleset = 3", name: "mine.toml" }), () => {}),
    (e) => JSON.parse(e).error.startsWith("mine.toml"),
  );
});
