// Monte Carlo in the browser's engine against the binary on one thread (not a test:
// figures to read), for the default fire (a Command Decision single resolution):
//
//   COMBAT_ODDS_SITE=<site> COMBAT_ODDS_BIN=<binary> node tests/site/rate.mjs [trials] [mode]
//
// Node runs the same WebAssembly on the same V8 as Chromium's worker. Each side is
// timed at `trials` (4,000,000 unless told) and at one trial, so the difference is
// the trials alone (set-up and the exact stage cancel out); the best of three. `mode`
// is `compiled` (the default: a draw from the compiled table per trial) or `literal`
// (every die of the resolution rolled).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const site = process.env.COMBAT_ODDS_SITE;
const bin = process.env.COMBAT_ODDS_BIN;
if (!site || !bin) throw new Error("set COMBAT_ODDS_SITE (the built site) and COMBAT_ODDS_BIN (the binary)");
const trials = Number(process.argv[2] || 4_000_000);
const mode = process.argv[3] || "compiled";

const engine = await import(pathToFileURL(`${site}/page/combat_odds_wasm.js`));
const wasm = readFileSync(`${site}/page/combat_odds_wasm_bg.wasm`);
const compiled = performance.now();
engine.initSync({ module: wasm });
console.log(`engine instantiated in ${(performance.now() - compiled).toFixed(0)} ms`);

const name = "experiments/cd_tank_duel.toml";
const scenario = readFileSync(new URL(`../../${name}`, import.meta.url), "utf8");
const best = (run) =>
  Math.min(
    ...[0, 1, 2].map(() => {
      const t = performance.now();
      run();
      return performance.now() - t;
    }),
  );
const browser = (n) => best(() => engine.answer("/api/fire", JSON.stringify({ scenario, name, trials: n, mode }), "", () => {}));
const native = (n) =>
  best(() => execFileSync(bin, ["fire", "--format", "json", "--threads", "1", "--trials", `${n}`, "--mode", mode]));

const rate = (run) => trials / ((run(trials) - run(1)) / 1000);
const [inBrowser, onOneThread] = [rate(browser), rate(native)];
const m = (r) => `${(r / 1e6).toFixed(2)} M trials/s`;
console.log(`${mode}, ${trials} trials`);
console.log(`browser engine (wasm32, one thread): ${m(inBrowser)}`);
console.log(`native, --threads 1:                 ${m(onOneThread)}`);
console.log(`native is ${(onOneThread / inBrowser).toFixed(2)}x the browser's rate (target: within 3x)`);
