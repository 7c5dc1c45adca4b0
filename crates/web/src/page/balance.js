// Balance: a sweep over a scenario's own keys, and the balance finder over a scenario
// set in the same form as Fire's and Engagement's, each key said in the form's words.
import { $, el } from "./dom.js";
import { post, streamPost, progressOf, longWork, CANCELLED, inBrowser, ONE_THREAD } from "./net.js";
import { saveState, shared } from "./state.js";
import { encode, decode } from "./url.js";
import { pct, percent, shade, best, titleOf } from "./format.js";
import { line } from "./charts.js";
import { editor } from "./editor.js";
import { refusal, placeOf, fieldLabel, keysToVary, balanceWords, triedWords } from "./model.js";

let sweeping = null,
  balancing = null,
  keysRequest = null,
  balanceEditor,
  shipped = [],
  sweeps = [];
// What the finder may vary in the scenario in hand (model.js `keysToVary`), the
// catalogue's labels the form read with it, and the key a link asked for, kept until
// the scenario's keys are known.
let offered = [],
  labels = {},
  linkedVary = "";
const KEYS = ["values", "from", "to", "step", "percent", "trials", "seed"];

// The form's words for a key the finder varies: its label where the scenario in hand
// offers it, else the label its path gives.
const labelOf = (key) => (offered.find((k) => k.key === key) || { label: fieldLabel(key) }).label;

// `scenarios` are those balance may vary, the shipped engagements first.
export function init(scenarios, shippedSweeps) {
  shipped = scenarios;
  sweeps = shippedSweeps;
  // The designer's question opens: three Shermans against a Panther.
  balanceEditor = editor("balance", scenarios, "cd_engagement_shermans_vs_panther.toml", () => {
    balanceEditor.stale();
    balanceKeys();
    saveState();
  });
  $("sweep-shipped").append(el("option", { value: "" }, "(choose)"));
  for (const s of sweeps) $("sweep-shipped").append(el("option", { value: s.name, title: s.name }, titleOf(s.text) || s.name));
  $("sweep-shipped").addEventListener("change", () => {
    const s = sweeps.find((x) => x.name === $("sweep-shipped").value);
    if (s) $("sweep-text").value = s.text;
  });
  $("balance-vary").addEventListener("change", saveState);
  $("sweep-start").addEventListener("click", runSweep);
  $("balance-start").addEventListener("click", findBalance);
  shared.savers.balance = () => {
    const out = {
      sweep: encode($("sweep-text").value),
      "sweep-trials": $("sweep-trials").value,
      "sweep-seed": $("sweep-seed").value,
      scenario: encode(balanceEditor.text()),
      ...balanceEditor.link(),
    };
    const vary = $("balance-vary").value || linkedVary;
    if (vary) out.vary = vary;
    for (const k of KEYS) if ($(`balance-${k}`).value !== "") out[k] = $(`balance-${k}`).value;
    return out;
  };
}

// Fills the page from a link's settings (`linked`: the link is to Balance), or with
// the first shipped sweep; the finder's keys once its scenario (and any tables of the
// player's own the link carries) is in the form.
export async function restore(p, linked) {
  if (linked) {
    if (p.has("sweep")) $("sweep-text").value = decode(p.get("sweep"));
    for (const k of ["trials", "seed"]) if (p.has(`sweep-${k}`)) $(`sweep-${k}`).value = p.get(`sweep-${k}`);
    for (const k of KEYS) if (p.has(k)) $(`balance-${k}`).value = p.get(k);
    if (p.has("vary")) linkedVary = p.get("vary");
  }
  if (!$("sweep-text").value && sweeps.length) {
    const first = sweeps.find((x) => x.name === "sweep_mc_hmg_vs_rifle_sections.toml") || sweeps[0];
    $("sweep-shipped").value = first.name;
    $("sweep-text").value = first.text;
  }
  // A link written before the finder had a form names a shipped file, not its text.
  const named = linked && shipped.find((s) => s.name === p.get("scenario"));
  if (named) {
    p = new URLSearchParams(p);
    p.set("scenario", encode(named.text));
  }
  await balanceEditor.restore(p, linked ? "scenario" : "none");
  balanceKeys();
}

// A refusal of long work on page `prefix`, in the page's words, beside the setting
// it is about (a trials field) or above the result; in the static site, work too
// heavy for a tab is said beside its button, with the command that does it.
function say(prefix, message) {
  if (inBrowser && message.includes(TOO_HEAVY)) return tooHeavy(prefix, message);
  const r = refusal(message);
  $(r.setting && $(`${prefix}-${r.setting}-error`) ? `${prefix}-${r.setting}-error` : `${prefix}-error`).textContent = r.words;
}

async function runSweep() {
  if (sweeping) sweeping.abort();
  saveState();
  $("sweep-error").textContent = "";
  $("sweep-trials-error").textContent = "";
  $("sweep-too-heavy")?.remove();
  $("sweep-result").replaceChildren();
  const work = longWork("sweep", "sweep-start");
  sweeping = work;
  try {
    const sweep = $("sweep-text").value;
    const answer = await streamPost(
      "/api/sweep",
      { sweep, trials: Number($("sweep-trials").value), seed: Number($("sweep-seed").value) },
      work.signal,
      progressOf("sweep", "trials"),
    );
    if (answer.error) {
      say("sweep", answer.error);
      return work.finish("");
    }
    showSweep(answer.result, titleOf(sweep) || "The sweep");
    work.finish(ONE_THREAD ? `done (${ONE_THREAD})` : "done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

// A sweep's answer under its `title` (the file's own name; never the name the request
// gives a file that has none, which is a file's).
function showSweep(r, title) {
  const into = $("sweep-result");
  const k0 = r.points[0][2];
  into.append(el("h3", {}, `${title}: P(${k0.measure} = ${k0.outcome})`));
  const ps = r.parameters;
  const numeric = (p) => p.values.every((v) => typeof v === "number");
  if (ps.length === 1 && numeric(ps[0]) && r.design === "full_factorial") {
    const lo = (k) => (k.exact === null ? k.ci_low : k.exact),
      hi = (k) => (k.exact === null ? k.ci_high : k.exact);
    const points = r.points.map((p) => ({ x: p[1][0], p: best(p[2]), lo: lo(p[2]), hi: hi(p[2]) }));
    into.append(line(points, `${fieldLabel(ps[0].key)}; band: the 95% interval`, "sweep-chart"));
  } else if (ps.length === 2 && r.design === "full_factorial") {
    const corner = `${fieldLabel(ps[1].key)} (down) by ${fieldLabel(ps[0].key)} (across)`;
    const table = el(
      "table",
      { id: "sweep-heat" },
      el("tr", {}, el("th", {}, corner), ...ps[0].values.map((v) => el("th", {}, triedWords(v)))),
    );
    for (const row of ps[1].values.slice().reverse()) {
      const tr = el("tr", {}, el("th", {}, triedWords(row)));
      for (const col of ps[0].values) {
        const point = r.points.find((p) => JSON.stringify(p[1]) === JSON.stringify([col, row]));
        const p = point ? best(point[2]) : null;
        const td = el("td", { class: point && point[2].exact !== null ? "exact" : undefined }, p === null ? "n/a" : pct(p));
        // Through the style object, which the page's policy allows; a style attribute it does not.
        if (p !== null) Object.assign(td.style, { background: shade(p), color: p > 0.55 ? "#fff" : "#1d2329" });
        tr.append(td);
      }
      table.append(tr);
    }
    into.append(
      el("div", { class: "scroll" }, table),
      el("p", { class: "muted" }, "Cells in bold are exact; the others are Monte Carlo estimates."),
    );
  }
  const table = el(
    "table",
    { id: "sweep-points" },
    el(
      "tr",
      {},
      el("th", {}, "point"),
      ...ps.map((p) => el("th", {}, fieldLabel(p.key))),
      el("th", {}, "chance"),
      el("th", {}, "95% interval"),
    ),
  );
  for (const [index, values, k] of r.points)
    table.append(
      el(
        "tr",
        {},
        el("td", {}, index + 1),
        ...values.map((v) => el("td", {}, triedWords(v))),
        el("td", { class: k.exact === null ? undefined : "exact" }, percent(best(k))),
        el("td", {}, k.exact === null ? `${percent(k.ci_low)} to ${percent(k.ci_high)}` : "exact"),
      ),
    );
  // The server keeps the sweep's files on its disk; the static site keeps none, and
  // says plainly which command writes them.
  const files = r.files.length
    ? el("p", { class: "downloads", id: "sweep-downloads" }, "Download, as combat-odds sweep writes them: ")
    : el(
        "p",
        { class: "downloads", id: "sweep-downloads" },
        "The sweep's frames (CSV and Parquet), its design, sweep.json and its chart are written by ",
        el(
          "code",
          {},
          COMMANDS.sweep((k) => $(k).value.trim()),
        ),
        " (or combat-odds serve, to download them from this page).",
      );
  for (const [name, bytes] of r.files)
    files.append(
      el("a", { href: `/api/results/${r.id}/${encodeURIComponent(name)}`, download: name, title: `${bytes} bytes` }, name),
    );
  into.append(
    files,
    el("div", { class: "scroll" }, table),
    el("p", { class: "muted" }, `${r.trials} trials at each point, seed ${r.seed}: common random numbers`),
  );
}

// Offers what the scenario in hand may vary, by the form's labels (the key's path is
// only the option's value), keeping the key chosen where the scenario still has it.
async function balanceKeys() {
  if (keysRequest) keysRequest.abort();
  keysRequest = new AbortController();
  const answer = await post(
    "/api/form",
    { scenario: balanceEditor.text(), tables: balanceEditor.tables() },
    keysRequest.signal,
  ).catch(() => null);
  // A file the rules refuse keeps the offers it had: the form says what is wrong.
  if (!answer?.ok || (answer.body.error && offered.length)) return;
  offered = keysToVary(answer.body);
  labels = answer.body.labels || {};
  const pick = $("balance-vary");
  const chosen = pick.value || linkedVary;
  pick.replaceChildren(...offered.map((k) => el("option", { value: k.key, title: k.key }, k.label)));
  if (offered.some((k) => k.key === chosen)) pick.value = chosen;
  linkedVary = "";
}

// A refusal of the finder: about the scenario (a place in its file, or a value a key
// was given) beside the form's field, about a setting beside it, the rest above the
// result; the key varied named by its label throughout.
function refused(message, key) {
  if (inBrowser && message.includes(TOO_HEAVY)) return tooHeavy("balance", message);
  const r = refusal(message);
  if (r.setting || placeOf(r.words, balanceEditor.text())) return balanceEditor.place(message);
  $("balance-error").textContent = balanceWords(r.words, key, labelOf(key));
}

async function findBalance() {
  if (balancing) balancing.abort();
  saveState();
  $("balance-error").textContent = "";
  $("balance-trials-error").textContent = "";
  $("balance-too-heavy")?.remove();
  $("balance-result").replaceChildren();
  const key = $("balance-vary").value;
  const kind = offered.find((k) => k.key === key)?.kind;
  const body = {
    scenario: balanceEditor.text(),
    tables: balanceEditor.tables(),
    vary: key,
    target: Number($("balance-percent").value) / 100,
    trials: Number($("balance-trials").value),
    seed: Number($("balance-seed").value),
  };
  const listed = $("balance-values").value.trim();
  if (listed)
    body.values = listed
      .split(/\s*,\s*/)
      .map((v) => (v !== "" && !Number.isNaN(Number(v)) ? Number(v) : v === "true" ? true : v === "false" ? false : v));
  else {
    for (const k of ["from", "to", "step"]) if ($(`balance-${k}`).value !== "") body[k] = Number($(`balance-${k}`).value);
    // A count is whole: bisecting it would try halves, so each whole value is answered.
    if (kind === "integer" && body.step === undefined && body.from !== undefined && body.to !== undefined) body.step = 1;
  }
  const work = longWork("balance", "balance-start");
  balancing = work;
  try {
    const answer = await streamPost("/api/balance", body, work.signal, progressOf("balance", "values"));
    if (answer.error) {
      refused(answer.error, key);
      return work.finish("");
    }
    balanceEditor.fresh();
    const b = answer.result;
    const label = labelOf(b.key);
    const what = offered.find((k) => k.key === b.key)?.what;
    const table = el(
      "table",
      { id: "balance-tried" },
      el("tr", {}, el("th", {}, label), el("th", {}, `chance (${b.chance})`), el("th", {}, "95% interval")),
    );
    for (const t of b.tried)
      table.append(
        el(
          "tr",
          { class: t.ci_low <= b.target && b.target <= t.ci_high ? "bracket" : undefined },
          el("td", {}, triedWords(t.value, what, labels)),
          el("td", { class: t.exact ? "exact" : undefined }, percent(t.p)),
          el("td", {}, t.exact ? "exact" : `${percent(t.ci_low)} to ${percent(t.ci_high)}`),
        ),
      );
    const numeric = b.tried.filter((t) => typeof t.value === "number");
    const chart =
      numeric.length > 1
        ? line(
            numeric.map((t) => ({ x: t.value, p: t.p, lo: t.exact ? t.p : t.ci_low, hi: t.exact ? t.p : t.ci_high })),
            `${label}; band: the 95% interval; dashed: the target`,
            "balance-chart",
            `The chance (${b.chance}) at each value of ${label} tried, and the target`,
            b.target,
          )
        : "";
    $("balance-result").replaceChildren(
      el("p", { class: "kill", id: "balance-answer" }, balanceWords(b.answer, b.key, label)),
      chart,
      el("div", { class: "scroll" }, table),
      el("p", { class: "muted" }, `${b.trials} trials at each value, seed ${b.seed}: common random numbers`),
    );
    work.finish(ONE_THREAD ? `done (${ONE_THREAD})` : "done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

// How a refusal of work too heavy for a tab says so (the request layer's words,
// crates/report/src/request: a tab's limit is lower than a server's).
const TOO_HEAVY = "and a browser tab takes at most";

// The command that does page `prefix`'s work with every core, written from the fields
// as they stand.
const COMMANDS = {
  sweep: (value) =>
    `combat-odds sweep ${value("sweep-shipped") || "sweep.toml"} --trials ${value("sweep-trials")} --seed ${value("sweep-seed")}`,
  // The scenario as the form holds it (a shipped file while it is as shipped, else as
  // Download scenario saves it); the key by the path the command line takes.
  balance: (value) => {
    const values = value("balance-values");
    const span = values
      ? ` --values ${values.replace(/\s+/g, "")}`
      : ["from", "to", "step"]
          .filter((k) => value(`balance-${k}`))
          .map((k) => ` --${k} ${value(`balance-${k}`)}`)
          .join("");
    const target = Number(value("balance-percent")) / 100;
    return balanceEditor.command(
      "balance",
      `--vary '${value("balance-vary") || "KEY"}'${span} --target ${target}` +
        ` --trials ${value("balance-trials")} --seed ${value("balance-seed")}`,
    ).line;
  },
};

// Says beside page `prefix`'s button that its work is too heavy for a tab (the
// engine's `message`, with its estimate) and names the command that does it.
function tooHeavy(prefix, message) {
  const note = el(
    "p",
    { class: "muted", id: `${prefix}-too-heavy` },
    `${message[0].toUpperCase()}${message.slice(1)}: `,
    el(
      "code",
      {},
      COMMANDS[prefix]((k) => $(k).value.trim()),
    ),
    " (or combat-odds serve, to run it from this page).",
  );
  $(`${prefix}-start`).parentElement.after(note);
}
