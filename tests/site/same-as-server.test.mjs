// The static site's engine against the binary's server: for the same request, every
// endpoint of the request layer (a fire and its CSV, a link's exact answer, the form, the
// percent view and the ruleset's own answers, sensitivity, an engagement, a comparison, a
// sweep, a balance search) gives the very bytes `combat-odds serve` sends: its JSON body,
// or its `result` event for long work, and for a refusal (too many trials, an unknown
// weapon, a file that is not TOML, a player's broken catalogue) its JSON error. Run by
// .ci/run after the site is built:
//   COMBAT_ODDS_SITE=<site> COMBAT_ODDS_BIN=<binary> node --test tests/site/*.test.mjs
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const site = process.env.COMBAT_ODDS_SITE;
const bin = process.env.COMBAT_ODDS_BIN;
if (!site || !bin) throw new Error("set COMBAT_ODDS_SITE (the built site) and COMBAT_ODDS_BIN (the binary)");

const engine = await import(pathToFileURL(`${site}/page/combat_odds_wasm.js`));
engine.initSync({ module: readFileSync(`${site}/page/combat_odds_wasm_bg.wasm`) });

// The server on a free loopback port, ended when the tests are.
const server = spawn(bin, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
after(() => server.kill());
const base = await new Promise((resolve, reject) => {
  let said = "";
  server.stdout.on("data", (chunk) => {
    said += chunk;
    const url = said.match(/http:\/\/[^/\s]+/);
    if (url) resolve(url[0]);
  });
  server.on("exit", (code) => reject(new Error(`the server ended (${code}) before it listened`)));
});

// The shipped files as the server lists them (the static site's data/scenarios): where
// the worker's sweep finds the base scenario a sweep names.
const shipped = await (await fetch(`${base}/api/scenarios`)).text();
// The engine's one entry, as the worker calls it.
const answer = (path) => (request, progress) => engine.answer(path, request, path === "/api/sweep" ? shipped : "", progress);

const experiment = (name) => readFileSync(new URL(`../../experiments/${name}`, import.meta.url), "utf8");

// The server's bytes for a quick endpoint (its JSON body) or a long one (the data of its
// `result` event), and whether it answered.
async function served(path, body) {
  const post = () =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  // The engine runs on this thread, a shipped sweep for seconds, and the server closes a
  // connection idle past its header timeout (10 s) as it should; the fetch after such a
  // run may be sent on that closed connection before this thread has heard it close. It
  // is sent once more, on a new one, when it could not be sent at all.
  const response = await post().catch(async (error) => {
    if (error.message !== "fetch failed") throw error;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return post();
  });
  const text = await response.text();
  if (!(response.headers.get("content-type") || "").startsWith("text/event-stream")) return { ok: response.ok, text };
  const result = text.split("\n\n").find((block) => block.startsWith("event: result") || block.startsWith("event: error"));
  const data = result
    .split("\n")
    .find((line) => line.startsWith("data:"))
    .slice("data:".length)
    .trim();
  return { ok: result.startsWith("event: result"), text: data };
}

// The engine's bytes for the same request, and the last progress it heard.
function inBrowser(answer, body) {
  let last = null;
  try {
    return {
      ok: true,
      text: answer(JSON.stringify(body), (done, planned) => {
        last = [done, planned];
      }),
      last,
    };
  } catch (error) {
    return { ok: false, text: String(error), last };
  }
}

// A catalogue of the player's own: the rules' own Command Decision catalogue with the
// duel's KwK 42 at long range given less anti-armour, as a player who reads another
// source might.
const catalogue = readFileSync(new URL("../../rulesets/command-decision/catalogue.toml", import.meta.url), "utf8");
const LONG = "long = { range = 20, hit = 5, anti_armour = 8 }";
assert.ok(catalogue.includes(LONG), "the KwK 42's long band as the catalogue writes it");
const weaker = catalogue.replace(LONG, LONG.replace("anti_armour = 8", "anti_armour = 5"));
const duel = experiment("cd_tank_duel.toml");

const cases = [
  [
    "a fire's report, the text `fire --format json` prints",
    "/api/fire",
    answer("/api/fire"),
    { scenario: duel, trials: 20000, seed: 4 },
  ],
  ["a fire's report as CSV", "/api/fire.csv", answer("/api/fire.csv"), { scenario: duel, trials: 20000, seed: 4 }],
  [
    "a fire read against a catalogue of the player's own",
    "/api/fire",
    answer("/api/fire"),
    { scenario: duel, trials: 20000, seed: 4, tables: { "command-decision": { "catalogue.toml": weaker } } },
  ],
  ["a fire refused: too many trials", "/api/fire", answer("/api/fire"), { scenario: duel, trials: 99999999999 }],
  [
    "a comparison refused: too many trials for one run",
    "/api/compare",
    answer("/api/compare"),
    { scenario: experiment("compare_at_gun_vs_medium_tank.toml"), trials: 99999999 },
  ],
  [
    "a fire refused: an unknown weapon",
    "/api/fire",
    answer("/api/fire"),
    { scenario: duel.replace(/weapon = "[^"]+"/, 'weapon = "tiger_88"') },
  ],
  ["a fire refused: a file that is not TOML", "/api/fire", answer("/api/fire"), { scenario: "ruleset = [", name: "mine.toml" }],
  [
    "a fire refused: the player's own catalogue broken",
    "/api/fire",
    answer("/api/fire"),
    { scenario: duel, tables: { "command-decision": { "catalogue.toml": catalogue.replace(/rof = "2"/, 'rof = "two"') } } },
  ],
  ["a fire refused: a field it does not take", "/api/fire", answer("/api/fire"), { scenario: duel, path: "/etc/passwd" }],
  ["an exact answer refused: a bad exact budget", "/api/exact", answer("/api/exact"), { scenario: duel, exact_seconds: -1 }],
  [
    "an exact answer with a budget of any size, held to the front door's",
    "/api/exact",
    answer("/api/exact"),
    { scenario: duel, exact_seconds: 1e20 },
  ],
  [
    "a fire's exact stage alone, as a link opens it",
    "/api/exact",
    answer("/api/exact"),
    { scenario: experiment("cd_tank_duel.toml"), trials: 5000000 },
  ],
  ["the form over a Command Decision fire", "/api/form", answer("/api/form"), { scenario: experiment("cd_tank_duel.toml") }],
  [
    "the form over a file with a wrong value: the offers and the error",
    "/api/form",
    answer("/api/form"),
    { scenario: experiment("cd_tank_duel.toml").replace(/range = \S+/, 'range = "far"'), name: "mine.toml" },
  ],
  [
    "Company Commander's percent view",
    "/api/percent",
    answer("/api/percent"),
    { scenario: experiment("cc_panther_vs_sherman.toml"), trials: 20000, seed: 3 },
  ],
  [
    "a percent view refused: not a fire at a target",
    "/api/percent",
    answer("/api/percent"),
    { scenario: experiment("coc_five_dice_senior_leader.toml") },
  ],
  [
    "Chain of Command's command dice",
    "/api/answers",
    answer("/api/answers"),
    { scenario: experiment("coc_five_dice_senior_leader.toml") },
  ],
  [
    "which cells move a fire's kill chance",
    "/api/sensitivity",
    answer("/api/sensitivity"),
    { scenario: experiment("cd_tank_duel.toml"), top: 5 },
  ],
  [
    "which cells move a fight's kill chance, on paired trials",
    "/api/sensitivity",
    answer("/api/sensitivity"),
    { scenario: experiment("mc_engagement_hmg_vs_rifle_platoon.toml"), trials: 500, seed: 9, top: 5, exact_seconds: 0 },
  ],
  [
    "an engagement's report",
    "/api/run",
    answer("/api/run"),
    { scenario: experiment("cd_engagement_tank_duel.toml"), trials: 20000, seed: 11, mode: "literal" },
  ],
  [
    "a comparison across rulesets",
    "/api/compare",
    answer("/api/compare"),
    { scenario: experiment("compare_at_gun_vs_medium_tank.toml"), trials: 4000, seed: 5 },
  ],
  [
    "a shipped sweep's points, its base found among the shipped files",
    "/api/sweep",
    answer("/api/sweep"),
    {
      sweep: experiment("sweep_mc_hmg_vs_rifle_sections.toml").replace("to = 8", "to = 2"),
      trials: 3000,
      seed: 4,
      exact_seconds: 1,
    },
  ],
  // Every shipped sweep whole, at the page's trials: each point's exact stages are priced
  // by its own solver (a bound on its states, or a pilot of its solve), not at the whole
  // budget, so each is work a tab takes on.
  ...[
    "sweep_cc_veteran_vs_hull_down.toml",
    "sweep_cd_shermans_vs_panther.toml",
    "sweep_coc_force_morale_vs_dice.toml",
    "sweep_mc_hmg_vs_rifle_sections.toml",
  ].map((name) => [`the shipped ${name} at the page's trials`, "/api/sweep", answer("/api/sweep"), { sweep: experiment(name) }]),
  [
    "a sweep of a fire over a base given as text",
    "/api/sweep",
    answer("/api/sweep"),
    {
      sweep: 'kind = "sweep"\nscenario = "duel.toml"\n[[vary]]\nkey = "range"\nvalues = [8, 16, 32]\n',
      base: experiment("cd_tank_duel.toml"),
      trials: 5000,
      seed: 8,
      mode: "literal",
    },
  ],
  [
    "a balance over listed values",
    "/api/balance",
    answer("/api/balance"),
    {
      scenario: experiment("mc_engagement_hmg_vs_rifle_platoon.toml"),
      vary: "side[1].unit[0].count",
      values: [1, 3],
      target: 0.5,
      trials: 2000,
      seed: 6,
      exact_seconds: 1,
    },
  ],
  [
    "a balance bisected over a span",
    "/api/balance",
    answer("/api/balance"),
    { scenario: experiment("cd_tank_duel.toml"), vary: "range", from: 4, to: 48, tolerance: 4, trials: 4000, seed: 2 },
  ],
  [
    "a balance refused: no span",
    "/api/balance",
    answer("/api/balance"),
    { scenario: experiment("cd_tank_duel.toml"), vary: "range" },
  ],
];

for (const [what, path, answer, body] of cases) {
  test(`${what}: the static site's engine sends the server's bytes (${path})`, async () => {
    const [server, browser] = [await served(path, body), inBrowser(answer, body)];
    // The engine's refusals are the server's, byte for byte.
    if (!server.ok) return assert.equal(browser.text, server.text);
    // The refusals are cases of their own: every other request is answered.
    assert.equal(server.ok, !/refuse/.test(what), `${path}: the server said ${server.text}`);
    assert.equal(browser.ok, server.ok, `${path}: the server said ${server.text}, the engine ${browser.text}`);
    if (path === "/api/sweep") {
      // A sweep's answer also holds the number and names of the files the server kept.
      const points = (text) => text.slice(text.indexOf('"name":'), text.indexOf(',"files":'));
      assert.equal(points(browser.text), points(server.text));
      assert.deepEqual(JSON.parse(browser.text).files, []);
      const { points: answered, trials } = JSON.parse(browser.text);
      return assert.deepEqual(browser.last, [answered.length * trials, answered.length * trials]);
    }
    if (path !== "/api/run") return assert.equal(browser.text, server.text);
    // An engagement's answer also holds its wall time, and the server's the number and
    // names of the files it kept on its disk (a browser keeps none): its report is the
    // same bytes.
    const report = (text) => text.slice(text.indexOf('"report":'), text.indexOf(',"wall_time_s":'));
    assert.equal(report(browser.text), report(server.text));
    assert.deepEqual(JSON.parse(browser.text).files, []);
    assert.deepEqual(browser.last, [body.trials, body.trials]);
  });
}

test("a sweep a tab would work at past two minutes is refused before it starts, with its cost", () => {
  // The farmhouse (a company against a reinforced platoon) at 300 points, each set up
  // twice: each point's two exact stages priced by the solver's bound on its 1,200
  // fields (longer the more turns), at the tab's pace, and its trials at the tab's pace
  // are minutes of work before any trial.
  const farmhouse =
    'kind = "sweep"\nscenario = "cd_engagement_company_at_the_farmhouse.toml"\n' +
    '[[vary]]\nkey = "engagement.range"\nfrom = 2\nto = 51\n[[vary]]\nkey = "engagement.turns"\nvalues = [8, 10, 12, 14, 16, 18]\n';
  const heard = [];
  assert.throws(
    () => answer("/api/sweep")(JSON.stringify({ sweep: farmhouse }), (d, p) => heard.push([d, p])),
    (e) =>
      /^this is about [0-9.]+ minutes of work for one core \(300 points of 20000 trials at [0-9.]+ (µs|ms) a trial, set up in about [0-9.]+ \S+ in all, and 600 exact stage\(s\) of about [0-9.]+ (seconds|minutes) in all, each at most 10 seconds\), and a browser tab takes at most 2 minutes per request; ask for fewer points or trials, or a smaller exact_seconds; or run it with every core on the command line$/.test(
        JSON.parse(e).error,
      ),
  );
  assert.deepEqual(heard, [], "no work started");
});

test("a catalogue of the player's own changes the engine's answer as it changes the server's", () => {
  const fire = (tables) =>
    JSON.parse(answer("/api/fire")(JSON.stringify({ scenario: duel, trials: 20000, seed: 4, tables }), () => {}));
  const own = fire({ "command-decision": { "catalogue.toml": weaker } });
  const rules = fire(undefined);
  assert.ok(
    own.p_kill.exact < rules.p_kill.exact,
    `less anti-armour kills less: ${own.p_kill.exact} against ${rules.p_kill.exact}`,
  );
});

test("the engine answers at every path the server answers work at, and the server at every one of the engine's", async () => {
  for (const path of engine.paths()) {
    const { text } = await served(path, {});
    assert.doesNotMatch(text, /no such page or endpoint/, `${path}: ${text}`);
    assert.throws(
      () => answer(path)("{}", () => {}),
      (e) => JSON.parse(e).error === JSON.parse(text).error,
      path,
    );
  }
});
