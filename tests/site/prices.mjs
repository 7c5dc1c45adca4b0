// What the browser's engine prices each shipped sweep at, at the page's trials (not a
// test: figures to read), against the two minutes a tab takes on:
//
//   COMBAT_ODDS_SITE=<site> node tests/site/prices.mjs [runs]
//
// Node runs the same WebAssembly on the same V8 as Chromium's worker: the first sweep
// is priced by a fresh engine, as a tab's first is, the rest by a warm one. Each is
// priced by the engine's `price`, as its `answer` prices a request before it starts:
// the seconds in all, and its parts (a trial's price, and its exact stages' in all).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const site = process.env.COMBAT_ODDS_SITE;
if (!site) throw new Error("set COMBAT_ODDS_SITE (the built site)");
const runs = Number(process.argv[2] || 3);
const PAGE_TRIALS = 20_000;
const SWEEPS = [
  "sweep_cc_veteran_vs_hull_down.toml",
  "sweep_cd_shermans_vs_panther.toml",
  "sweep_coc_force_morale_vs_dice.toml",
  "sweep_mc_hmg_vs_rifle_sections.toml",
];
const SECONDS = { µs: 1e-6, ms: 1e-3, seconds: 1, minutes: 60, hours: 3600 };

const engine = await import(pathToFileURL(`${site}/page/combat_odds_wasm.js`));
engine.initSync({ module: readFileSync(`${site}/page/combat_odds_wasm_bg.wasm`) });
const shipped = readFileSync(`${site}/data/scenarios`, "utf8");
// "40 points of 20000 trials at 3.94 µs a trial, and 80 exact stage(s) of about 65
// seconds in all, each at most 10 seconds"
const PARTS = /^\d+ points of \d+ trials at ([0-9.]+) (µs|ms) a trial/;

for (const name of SWEEPS) {
  const sweep = readFileSync(new URL(`../../experiments/${name}`, import.meta.url), "utf8");
  const seen = [];
  for (let run = 0; run < runs; run++) {
    const { seconds, parts } = JSON.parse(engine.price("/api/sweep", JSON.stringify({ sweep, trials: PAGE_TRIALS }), shipped));
    const trial = parts.match(PARTS);
    if (!trial) throw new Error(`${name}: no trial's price in ${parts}`);
    seen.push({ perTrial: Number(trial[1]) * SECONDS[trial[2]], price: seconds });
  }
  const trials = seen.map((s) => (s.perTrial * 1e6).toFixed(2)).join(", ");
  const prices = seen.map((s) => s.price.toFixed(1)).join(", ");
  console.log(`${name}: a trial at ${trials} µs; at ${PAGE_TRIALS} trials a point, ${prices} s (a tab takes on 120)`);
}
