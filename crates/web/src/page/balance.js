// Balance: a sweep over a scenario's own keys, and the balance finder.
import { $, el } from "./dom.js";
import { post, streamPost, progressOf, longWork, CANCELLED, inBrowser, ONE_THREAD } from "./net.js";
import { saveState, shared } from "./state.js";
import { encode, decode } from "./url.js";
import { pct, percent, shade, best, show, titleOf, rulesetName, rulesetOf } from "./format.js";
import { line } from "./charts.js";
import { refusal } from "./model.js";

let sweeping = null, balancing = null, balanceScenarios = [], sweeps = [], kinds = {};
const KEYS = ["scenario", "vary", "values", "from", "to", "step", "target", "trials", "seed"];

// `scenarios` are those balance may vary, the shipped engagements first.
export function init(scenarios, shippedSweeps) {
  balanceScenarios = scenarios;
  sweeps = shippedSweeps;
  $("sweep-shipped").append(el("option", { value: "" }, "(choose)"));
  for (const s of sweeps) $("sweep-shipped").append(el("option", { value: s.name, title: s.name }, titleOf(s.text) || s.name));
  $("sweep-shipped").addEventListener("change", () => {
    const s = sweeps.find((x) => x.name === $("sweep-shipped").value);
    if (s) $("sweep-text").value = s.text;
  });
  for (const s of scenarios) $("balance-scenario").append(el("option", { value: s.name, title: s.name }, `${titleOf(s.text) || s.name} (${rulesetName(rulesetOf(s.text) || "other")})`));
  $("balance-scenario").addEventListener("change", balanceKeys);
  $("sweep-start").addEventListener("click", runSweep);
  $("balance-start").addEventListener("click", findBalance);
  shared.savers.balance = () => {
    const out = { sweep: encode($("sweep-text").value), "sweep-trials": $("sweep-trials").value, "sweep-seed": $("sweep-seed").value };
    for (const k of KEYS) if ($(`balance-${k}`).value !== "") out[k] = $(`balance-${k}`).value;
    return out;
  };
}

// Fills the page from a link's settings (`linked`: the link is to Balance), or with
// the first shipped sweep.
export function restore(p, linked) {
  if (linked) {
    if (p.has("sweep")) $("sweep-text").value = decode(p.get("sweep"));
    for (const k of ["trials", "seed"]) if (p.has(`sweep-${k}`)) $(`sweep-${k}`).value = p.get(`sweep-${k}`);
    for (const k of KEYS) if (p.has(k)) $(`balance-${k}`).value = p.get(k);
  }
  if (!$("sweep-text").value && sweeps.length) {
    const first = sweeps.find((x) => x.name === "sweep_mc_hmg_vs_rifle_sections.toml") || sweeps[0];
    $("sweep-shipped").value = first.name; $("sweep-text").value = first.text;
  }
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
  $("sweep-error").textContent = ""; $("sweep-trials-error").textContent = ""; $("sweep-too-heavy")?.remove();
  $("sweep-result").replaceChildren();
  const work = longWork("sweep", "sweep-start");
  sweeping = work;
  try {
    const answer = await streamPost("/api/sweep", { sweep: $("sweep-text").value, trials: Number($("sweep-trials").value),
      seed: Number($("sweep-seed").value) }, work.signal, progressOf("sweep", "trials"));
    if (answer.error) {
      say("sweep", answer.error);
      return work.finish("");
    }
    showSweep(answer.result);
    work.finish(ONE_THREAD ? `done (${ONE_THREAD})` : "done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

function showSweep(r) {
  const into = $("sweep-result");
  const k0 = r.points[0][2];
  into.append(el("h3", {}, `${r.name}: P(${k0.measure} = ${k0.outcome})`));
  const ps = r.parameters;
  const numeric = (p) => p.values.every((v) => typeof v === "number");
  if (ps.length === 1 && numeric(ps[0]) && r.design === "full_factorial") {
    const lo = (k) => (k.exact === null ? k.ci_low : k.exact), hi = (k) => (k.exact === null ? k.ci_high : k.exact);
    const points = r.points.map((p) => ({ x: p[1][0], p: best(p[2]), lo: lo(p[2]), hi: hi(p[2]) }));
    into.append(line(points, `${ps[0].key}; band: the 95% interval`, "sweep-chart"));
  } else if (ps.length === 2 && r.design === "full_factorial") {
    const table = el("table", { id: "sweep-heat" }, el("tr", {}, el("th", {}, `${ps[1].key} \\ ${ps[0].key}`), ...ps[0].values.map((v) => el("th", {}, show(v)))));
    for (const row of ps[1].values.slice().reverse()) {
      const tr = el("tr", {}, el("th", {}, show(row)));
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
    into.append(el("div", { class: "scroll" }, table),
      el("p", { class: "muted" }, "Cells in bold are exact; the others are Monte Carlo estimates."));
  }
  const table = el("table", { id: "sweep-points" }, el("tr", {}, el("th", {}, "point"), ...ps.map((p) => el("th", {}, p.key)), el("th", {}, "chance"), el("th", {}, "95% interval")));
  for (const [index, values, k] of r.points)
    table.append(el("tr", {}, el("td", {}, index + 1), ...values.map((v) => el("td", {}, show(v))), el("td", { class: k.exact === null ? undefined : "exact" }, percent(best(k))),
      el("td", {}, k.exact === null ? `${percent(k.ci_low)} to ${percent(k.ci_high)}` : "exact")));
  // The server keeps the sweep's files on its disk; the static site keeps none, and
  // says plainly which command writes them.
  const files = r.files.length ? el("p", { class: "downloads", id: "sweep-downloads" }, "Download, as combat-odds sweep writes them: ")
    : el("p", { class: "downloads", id: "sweep-downloads" }, "The sweep's frames (CSV and Parquet), its design, sweep.json and its chart are written by ",
      el("code", {}, COMMANDS.sweep((k) => $(k).value.trim())), " (or combat-odds serve, to download them from this page).");
  for (const [name, bytes] of r.files)
    files.append(el("a", { href: `/api/results/${r.id}/${encodeURIComponent(name)}`, download: name, title: `${bytes} bytes` }, name));
  into.append(files, el("div", { class: "scroll" }, table), el("p", { class: "muted" }, `${r.trials} trials at each point, seed ${r.seed}: common random numbers`));
}

async function balanceKeys() {
  const text = balanceScenarios.find((x) => x.name === $("balance-scenario").value)?.text || "";
  const answer = await post("/api/form", { scenario: text }).catch(() => null);
  if (!answer || !answer.ok) return;
  const values = answer.body.values.filter((v) => v.kind !== "name");
  kinds = Object.fromEntries(values.map((v) => [v.key, v.kind]));
  const keys = answer.body.choices.map((c) => c.key).concat(values.map((v) => v.key), answer.body.settings.map((u) => `settings.${u.key}`));
  $("balance-keys").replaceChildren(...keys.map((k) => el("option", { value: k })));
}

async function findBalance() {
  if (balancing) balancing.abort();
  saveState();
  $("balance-error").textContent = ""; $("balance-trials-error").textContent = ""; $("balance-too-heavy")?.remove();
  $("balance-result").replaceChildren();
  const s = balanceScenarios.find((x) => x.name === $("balance-scenario").value);
  const body = { scenario: s ? s.text : "", name: s ? s.name : undefined, vary: $("balance-vary").value,
    target: Number($("balance-target").value), trials: Number($("balance-trials").value), seed: Number($("balance-seed").value) };
  const listed = $("balance-values").value.trim();
  if (listed) body.values = listed.split(/\s*,\s*/).map((v) => (v !== "" && !isNaN(Number(v)) ? Number(v) : v === "true" ? true : v === "false" ? false : v));
  else {
    for (const k of ["from", "to", "step"]) if ($(`balance-${k}`).value !== "") body[k] = Number($(`balance-${k}`).value);
    // A count is whole: bisecting it would try halves, so each whole value is answered.
    if (kinds[body.vary] === "integer" && body.step === undefined && body.from !== undefined && body.to !== undefined) body.step = 1;
  }
  const work = longWork("balance", "balance-start");
  balancing = work;
  try {
    const answer = await streamPost("/api/balance", body, work.signal, progressOf("balance", "values"));
    if (answer.error) {
      say("balance", answer.error);
      return work.finish("");
    }
    const b = answer.result;
    const table = el("table", { id: "balance-tried" }, el("tr", {}, el("th", {}, b.key), el("th", {}, `chance (${b.chance})`), el("th", {}, "95% interval")));
    for (const t of b.tried) table.append(el("tr", { class: t.ci_low <= b.target && b.target <= t.ci_high ? "bracket" : undefined },
      el("td", {}, show(t.value)), el("td", { class: t.exact ? "exact" : undefined }, percent(t.p)), el("td", {}, t.exact ? "exact" : `${percent(t.ci_low)} to ${percent(t.ci_high)}`)));
    const numeric = b.tried.filter((t) => typeof t.value === "number");
    const chart = numeric.length > 1
      ? line(numeric.map((t) => ({ x: t.value, p: t.p, lo: t.exact ? t.p : t.ci_low, hi: t.exact ? t.p : t.ci_high })),
        `${b.key}; band: the 95% interval; target ${percent(b.target)}`, "balance-chart", `The chance (${b.chance}) at each value of ${b.key} tried`)
      : "";
    $("balance-result").replaceChildren(el("p", { class: "kill", id: "balance-answer" }, b.answer), chart, el("div", { class: "scroll" }, table),
      el("p", { class: "muted" }, `${b.trials} trials at each value, seed ${b.seed}: common random numbers`));
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
  sweep: (value) => `combat-odds sweep ${value("sweep-shipped") || "sweep.toml"} --trials ${value("sweep-trials")} --seed ${value("sweep-seed")}`,
  balance: (value) => {
    const values = value("balance-values");
    const span = values ? ` --values ${values.replace(/\s+/g, "")}`
      : ["from", "to", "step"].filter((k) => value(`balance-${k}`)).map((k) => ` --${k} ${value(`balance-${k}`)}`).join("");
    return `combat-odds balance ${value("balance-scenario") || "scenario.toml"} --vary ${value("balance-vary") || "KEY"}${span}` +
      ` --target ${value("balance-target")} --trials ${value("balance-trials")} --seed ${value("balance-seed")}`;
  },
};

// Says beside page `prefix`'s button that its work is too heavy for a tab (the
// engine's `message`, with its estimate) and names the command that does it.
function tooHeavy(prefix, message) {
  const note = el("p", { class: "muted", id: `${prefix}-too-heavy` }, `${message[0].toUpperCase()}${message.slice(1)}: `,
    el("code", {}, COMMANDS[prefix]((k) => $(k).value.trim())), " (or combat-odds serve, to run it from this page).");
  $(`${prefix}-start`).parentElement.after(note);
}
