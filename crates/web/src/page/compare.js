// Compare: the words every ruleset's equivalents.toml gives, a comparison built from
// them, and kill probability against range drawn as steps, as the tables are banded.
import { $, el, download } from "./dom.js";
import { streamPost, progressOf, longWork, CANCELLED } from "./net.js";
import { saveState, shared } from "./state.js";
import { encode, decode } from "./url.js";
import { fixed, best } from "./format.js";
import { steps } from "./charts.js";

let weaponOrder = [], comparing = null, comparisons = [];

export function init(shipped) {
  fillForm();
  comparisons = shipped;
  shared.savers.compare = () => ({ trials: $("compare-trials").value, seed: $("compare-seed").value, comparison: encode(comparisonText()) });
  $("compare-shipped").append(el("option", { value: "" }, "(choose)"));
  for (const s of comparisons) $("compare-shipped").append(el("option", { value: s.name }, s.name));
  $("compare-shipped").addEventListener("change", () => {
    const s = comparisons.find((x) => x.name === $("compare-shipped").value);
    if (s) runCompare(s.text);
  });
  $("compare-start").addEventListener("click", () => runCompare(comparisonText()));
  $("compare-download").addEventListener("click", () => download("comparison.toml", comparisonText(), "application/toml"));
}

// Fills the form from a link's settings, or with the first shipped comparison: it
// waits for Compare.
export function restore(p) {
  for (const k of ["trials", "seed"]) if (p.has(k)) $(`compare-${k}`).value = p.get(k);
  const shippedFirst = comparisons.find((s) => s.name === "compare_at_gun_vs_medium_tank.toml") || comparisons[0];
  if (!p.has("comparison")) $("compare-shipped").value = shippedFirst.name;
  const c = readComparison(p.has("comparison") ? decode(p.get("comparison")) : shippedFirst.text);
  if (c) setComparison(c);
  else $("compare-error").textContent = "the link's comparison is not one this page wrote: choose one, or set the form";
  $("compare-status").textContent = "press Compare to run it";
}

function fillForm() {
  const words = shared.words;
  const union = (kind) => {
    const seen = new Map();
    for (const w of words) for (const [word, label] of w[kind]) {
      if (!seen.has(word)) seen.set(word, []);
      seen.get(word).push(`${w.ruleset}: ${label}`);
    }
    return [...seen.entries()].sort();
  };
  const weapons = $("compare-weapons");
  for (const [word, labels] of union("weapon"))
    weapons.append(el("label", { title: labels.join("\n"), class: "inline" },
      el("input", { type: "checkbox", value: word, "data-weapon": word }), word));
  for (const w of words)
    $("compare-rulesets").append(el("label", { class: "inline" },
      el("input", { type: "checkbox", value: w.ruleset, "data-ruleset": w.ruleset, checked: "" }), w.ruleset));
  for (const [id, kind, optional] of [["compare-target", "target", false], ["compare-quality", "quality", true], ["compare-situation", "situation", true]]) {
    if (optional) $(id).append(el("option", { value: "" }, "(none)"));
    for (const [word, labels] of union(kind)) $(id).append(el("option", { value: word, title: labels.join("\n") }, word));
  }
}

function comparisonText() {
  const list = (xs) => "[" + xs.map((x) => JSON.stringify(x)).join(", ") + "]";
  const weapons = [...document.querySelectorAll("[data-weapon]")].filter((c) => c.checked).map((c) => c.value);
  const order = (weaponOrder.filter((w) => weapons.includes(w))).concat(weapons.filter((w) => !weaponOrder.includes(w)));
  const rulesets = [...document.querySelectorAll("[data-ruleset]")].filter((c) => c.checked).map((c) => c.value);
  const ranges = $("compare-ranges").value.split(/[ ,]+/).filter((x) => x !== "");
  let text = `kind = "compare"\nname = ${JSON.stringify($("compare-name").value)}\nweapons = ${list(order)}\ntarget = ${JSON.stringify($("compare-target").value)}\n`;
  if ($("compare-quality").value) text += `quality = ${JSON.stringify($("compare-quality").value)}\n`;
  if ($("compare-situation").value) text += `situation = ${JSON.stringify($("compare-situation").value)}\n`;
  if (ranges.length) text += `ranges_m = [${ranges.join(", ")}]\n`;
  text += `rulesets = ${list(rulesets)}\n`;
  return text;
}

// A comparison file as the page writes it (and the shipped ones are written): one
// `key = value` a line, each value a JSON literal. Null for any other.
function readComparison(text) {
  const c = { name: "", weapons: [], rulesets: shared.words.map((w) => w.ruleset), target: "", ranges_m: [] };
  for (const line of text.split("\n")) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const pair = line.match(/^(\w+) = (.*)$/);
    if (!pair) return null;
    try { c[pair[1]] = JSON.parse(pair[2]); } catch (e) { return null; }
  }
  return [c.weapons, c.rulesets, c.ranges_m].every(Array.isArray) ? c : null;
}

function setComparison(c) {
  $("compare-name").value = c.name;
  weaponOrder = c.weapons.slice();
  for (const box of document.querySelectorAll("[data-weapon]")) box.checked = c.weapons.includes(box.value);
  for (const box of document.querySelectorAll("[data-ruleset]")) box.checked = c.rulesets.includes(box.value);
  $("compare-target").value = c.target;
  $("compare-quality").value = c.quality || "";
  $("compare-situation").value = c.situation || "";
  $("compare-ranges").value = c.ranges_m.join(", ");
}

async function runCompare(text) {
  if (comparing) comparing.abort();
  $("compare-error").textContent = "";
  $("compare-trials-error").textContent = "";
  const work = longWork("compare", "compare-start");
  comparing = work;
  try {
    const answer = await streamPost("/api/compare", { scenario: text, trials: Number($("compare-trials").value),
      seed: Number($("compare-seed").value) }, work.signal, progressOf("compare", "runs"));
    if (answer.error) {
      $(/^trials\b/.test(answer.error) ? "compare-trials-error" : "compare-error").textContent = answer.error;
      return work.finish("");
    }
    setComparison(answer.result.comparison);
    saveState();
    showComparison(answer.result);
    work.finish("done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

const COLOURS = ["#3b7ea1", "#c2562b", "#4f8a3c", "#8c5fa8", "#a8893a", "#2f3b45"];

function showComparison(c) {
  const ranges = c.comparison.ranges_m;
  const series = [];
  c.comparison.rulesets.forEach((ruleset, ri) => c.comparison.weapons.forEach((weapon, wi) => {
    const cells = c.cells.filter((x) => x.ruleset === ruleset && x.weapon === weapon);
    series.push({ ruleset, weapon, colour: COLOURS[ri % COLOURS.length], dash: wi ? "6 3" : "", cells });
  }));
  const into = $("compare-result");
  into.replaceChildren(el("h2", {}, `${c.comparison.name}: ${c.comparison.target}`));
  if (ranges.length) {
    const lines = series.map((s) => ({ label: `${s.ruleset}, ${s.weapon}`, colour: s.colour, dash: s.dash,
      points: s.cells.filter((cell) => cell.answer.odds).map((cell) => ({ range: cell.range_m, p: best(cell.answer.odds.turn) })) }));
    into.append(steps(ranges, lines,
      "range (m); p_kill over one turn's fire, exact where known; steps: each answer holds to the next range asked", "compare-chart"));
  }
  const table = el("table", { id: "compare-table" }, el("tr", {}, el("th", {}, "ruleset"), el("th", {}, "weapon"),
    ...(ranges.length ? ranges.map((m) => el("th", {}, `${m} m`)) : [el("th", {}, "p_kill")])));
  for (const s of series) {
    const row = el("tr", {}, el("td", {}, s.ruleset), el("td", {}, s.weapon));
    for (const cell of s.cells) {
      const o = cell.answer.odds;
      row.append(o
        ? el("td", { title: `${o.equivalent}${o.table_range ? ", " + o.table_range : ""}; Monte Carlo ${fixed(o.turn.estimate)} [${fixed(o.turn.ci_low)}, ${fixed(o.turn.ci_high)}]` },
            (o.turn.exact === null ? "~" : "") + best(o.turn).toFixed(4))
        : el("td", { title: cell.answer.none }, "n/a"));
    }
    table.append(row);
  }
  into.append(el("h3", {}, "Kill probability over one turn's fire (~ marks Monte Carlo where no exact answer; hover for how)"), table);
  if (c.differences.length) {
    const diff = el("table", { id: "compare-differences" }, el("tr", {}, el("th", {}, "ruleset"), el("th", {}, "weapon minus"),
      el("th", {}, "range"), el("th", {}, "exact"), el("th", {}, "paired estimate [95%]"), el("th", {}, "independent runs' interval")));
    for (const d of c.differences)
      diff.append(el("tr", {}, el("td", {}, d.ruleset), el("td", {}, `${d.weapon} - ${d.against}`),
        el("td", {}, d.range_m === null ? "" : `${d.range_m} m`), el("td", {}, d.exact === null ? "n/a" : d.exact.toFixed(4)),
        el("td", {}, `${d.common.estimate.toFixed(4)} [${d.common.low.toFixed(4)}, ${d.common.high.toFixed(4)}]`),
        el("td", {}, `[${d.independent.low.toFixed(4)}, ${d.independent.high.toFixed(4)}]`)));
    into.append(el("h3", {}, "Paired differences on common random numbers"), diff);
  }
  const notes = el("ul", { class: "notes" });
  for (const cell of c.cells) if (cell.answer.none) notes.append(el("li", {}, `${cell.ruleset}, ${cell.weapon}${cell.range_m === null ? "" : ` at ${cell.range_m} m`}: ${cell.answer.none}`));
  if (notes.children.length) into.append(el("h3", {}, "Where a ruleset could not answer"), notes);
}
