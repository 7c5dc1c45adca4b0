// Compare: the words every ruleset's equivalents.toml gives, a comparison built from
// them, and kill probability against range drawn as steps, as the tables are banded.
import { $, el, download } from "./dom.js";
import { get, streamPost, progressOf, longWork, CANCELLED } from "./net.js";
import { saveState, shared } from "./state.js";
import { encode, decode } from "./url.js";
import { best, percent, rulesetName, titleOf, vocabularyName, nameIn, words as spoken } from "./format.js";
import { steps } from "./charts.js";
import { comparisonRefusal } from "./model.js";

let weaponOrder = [],
  comparing = null,
  comparisons = [];
// The rulesets that can answer at ranges in metres: those with a ground scale.
const offered = () => shared.words.filter((w) => w.scale);

export function init(shipped) {
  fillForm();
  comparisons = shipped;
  shared.savers.compare = () => ({
    trials: $("compare-trials").value,
    seed: $("compare-seed").value,
    comparison: encode(comparisonText()),
  });
  $("compare-shipped").append(el("option", { value: "" }, "(choose)"));
  for (const s of comparisons)
    $("compare-shipped").append(el("option", { value: s.name, title: s.name }, titleOf(s.text) || s.name));
  $("compare-shipped").addEventListener("change", () => {
    const s = comparisons.find((x) => x.name === $("compare-shipped").value);
    if (s) openShipped(s);
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

// Runs shipped comparison `s` (the first one when none is given) in the rulesets
// that can answer it, its form filled from it.
export function openShipped(s) {
  s = s || comparisons.find((x) => x.name === "compare_at_gun_vs_medium_tank.toml") || comparisons[0];
  $("compare-shipped").value = s.name;
  const c = readComparison(s.text);
  if (!c) return runCompare(s.text);
  setComparison(c);
  runCompare(comparisonText());
}

// Whether the tab shows a comparison, or one under way.
export const opened = () => $("compare-result").children.length > 0 || $("compare-start").disabled;

function fillForm() {
  const words = offered();
  const union = (kind) => {
    const seen = new Map();
    for (const w of words)
      for (const [word, label] of w[kind]) {
        if (!seen.has(word)) seen.set(word, []);
        seen.get(word).push(`${w.ruleset}: ${label}`);
      }
    return [...seen.entries()].sort();
  };
  const weapons = $("compare-weapons");
  for (const [word, labels] of union("weapon"))
    weapons.append(
      el(
        "label",
        { title: labels.join("\n"), class: "inline" },
        el("input", { type: "checkbox", value: word, "data-weapon": word }),
        vocabularyName(words, "weapon", word),
      ),
    );
  for (const w of words)
    $("compare-rulesets").append(
      el(
        "label",
        { class: "inline" },
        el("input", { type: "checkbox", value: w.ruleset, "data-ruleset": w.ruleset, checked: "" }),
        rulesetName(w.ruleset),
      ),
    );
  const without = shared.words.filter((w) => !w.scale).map((w) => rulesetName(w.ruleset));
  if (without.length)
    $("compare-unavailable").textContent =
      `Not offered: ${without.join(", ")}. ` +
      `${without.length > 1 ? "These rulesets give" : "Its rules give"} no ground scale, so no range in metres can be turned into ` +
      "a distance on its tables.";
  for (const [id, kind, optional] of [
    ["compare-target", "target", false],
    ["compare-quality", "quality", true],
    ["compare-situation", "situation", true],
  ]) {
    if (optional) $(id).append(el("option", { value: "" }, "(none)"));
    // A target by its catalogue name; a quality or situation is the rules' own word.
    const name = (word) => (kind === "target" ? vocabularyName(words, kind, word) : spoken(word));
    for (const [word, labels] of union(kind)) $(id).append(el("option", { value: word, title: labels.join("\n") }, name(word)));
  }
}

function comparisonText() {
  const list = (xs) => `[${xs.map((x) => JSON.stringify(x)).join(", ")}]`;
  const weapons = [...document.querySelectorAll("[data-weapon]")].filter((c) => c.checked).map((c) => c.value);
  const order = weaponOrder.filter((w) => weapons.includes(w)).concat(weapons.filter((w) => !weaponOrder.includes(w)));
  const rulesets = [...document.querySelectorAll("[data-ruleset]")].filter((c) => c.checked).map((c) => c.value);
  const ranges = $("compare-ranges")
    .value.split(/[ ,]+/)
    .filter((x) => x !== "");
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
  const c = { name: "", weapons: [], rulesets: offered().map((w) => w.ruleset), target: "", ranges_m: [] };
  for (const line of text.split("\n")) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const pair = line.match(/^(\w+) = (.*)$/);
    if (!pair) return null;
    try {
      c[pair[1]] = JSON.parse(pair[2]);
    } catch {
      return null;
    }
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
  for (const id of ["compare-error", "compare-trials-error", "compare-seed-error"]) $(id).textContent = "";
  const work = longWork("compare", "compare-start");
  comparing = work;
  try {
    const answer = await streamPost(
      "/api/compare",
      { scenario: text, trials: Number($("compare-trials").value), seed: Number($("compare-seed").value) },
      work.signal,
      progressOf("compare", "runs"),
    );
    if (answer.error) {
      const r = comparisonRefusal(answer.error, text);
      // A setting's refusal beside its field (a seed of 2.5), the comparison's above it.
      $(r.setting && $(`compare-${r.setting}-error`) ? `compare-${r.setting}-error` : "compare-error").textContent = r.words;
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
  for (const [ri, ruleset] of c.comparison.rulesets.entries()) {
    for (const [wi, weapon] of c.comparison.weapons.entries()) {
      const cells = c.cells.filter((x) => x.ruleset === ruleset && x.weapon === weapon);
      series.push({ ruleset, weapon, colour: COLOURS[ri % COLOURS.length], dash: wi ? "6 3" : "", cells });
    }
  }
  // Weapons and the target in the catalogues' names: the vocabulary's word is the file's.
  const own = (ruleset, weapon) => nameIn(shared.words, ruleset, "weapon", weapon);
  const target = vocabularyName(shared.words, "target", c.comparison.target);
  const weapons = c.comparison.weapons.map((w) => vocabularyName(shared.words, "weapon", w));
  const into = $("compare-result");
  into.replaceChildren(el("h2", {}, `${c.comparison.name}: against ${target}`));
  $("compare-said").textContent =
    `${c.comparison.name}: the kill chance of ${weapons.join(" and ")} against ${target}` +
    (ranges.length ? ` at ${ranges.length} ranges, from ${Math.min(...ranges)} to ${Math.max(...ranges)} m` : "") +
    `, in ${c.comparison.rulesets.map(rulesetName).join(", ")}`;
  if (ranges.length) {
    const lines = series.map((s) => ({
      label: `${rulesetName(s.ruleset)}, ${own(s.ruleset, s.weapon)}`,
      colour: s.colour,
      dash: s.dash,
      points: s.cells.filter((cell) => cell.answer.odds).map((cell) => ({ range: cell.range_m, p: best(cell.answer.odds.turn) })),
    }));
    // As wide as the column, but never so narrow that its legend and labels run off
    // it: on a phone it is drawn 560 wide (its text 12 px) and scrolls in its own box.
    const width = Math.max(560, Math.min(720, into.clientWidth));
    into.append(
      el(
        "div",
        { class: "scroll" },
        steps(
          ranges,
          lines,
          "range (m); one turn's kill chance, held to the next range asked",
          "compare-chart",
          `Kill chance against range, ${weapons.join(" and ")} against ${target}`,
          width,
        ),
      ),
    );
    invented(c.comparison.rulesets, into);
  }
  const table = el(
    "table",
    { id: "compare-table" },
    el(
      "tr",
      {},
      el("th", {}, "ruleset"),
      el("th", {}, "weapon"),
      ...(ranges.length ? ranges.map((m) => el("th", {}, `${m} m`)) : [el("th", {}, "kill chance")]),
    ),
  );
  for (const s of series) {
    const row = el("tr", {}, el("td", {}, rulesetName(s.ruleset)), el("td", {}, own(s.ruleset, s.weapon)));
    for (const cell of s.cells) {
      const o = cell.answer.odds;
      row.append(
        o
          ? el(
              "td",
              {
                title: `${o.equivalent}${o.table_range ? `, ${o.table_range}` : ""}; Monte Carlo ${percent(o.turn.estimate)} (95%: ${percent(o.turn.ci_low)} to ${percent(o.turn.ci_high)})`,
              },
              (o.turn.exact === null ? "~" : "") + percent(best(o.turn)),
            )
          : el("td", { title: whyNot(cell), class: "none" }, cell.answer.out_of_range ? "out of range" : "no answer"),
      );
    }
    table.append(row);
  }
  into.append(
    el("h3", {}, "Kill chance over one turn's fire (~ marks Monte Carlo where no exact answer; hover for how)"),
    el("div", { class: "scroll" }, table),
  );
  if (c.differences.length) {
    const diff = el(
      "table",
      { id: "compare-differences" },
      el(
        "tr",
        {},
        el("th", {}, "ruleset"),
        el("th", {}, "weapon minus"),
        el("th", {}, "range"),
        el("th", {}, "exact"),
        el("th", {}, "paired estimate (95%)"),
        el("th", {}, "independent runs' interval"),
      ),
    );
    const points = (d) => `${d >= 0 ? "+" : ""}${(100 * d).toFixed(2)}`;
    for (const d of c.differences)
      diff.append(
        el(
          "tr",
          {},
          el("td", {}, rulesetName(d.ruleset)),
          el("td", {}, `${own(d.ruleset, d.weapon)} - ${own(d.ruleset, d.against)}`),
          el("td", {}, d.range_m === null ? "" : `${d.range_m} m`),
          el("td", {}, d.exact === null ? "no exact answer" : points(d.exact)),
          el("td", {}, `${points(d.common.estimate)} (${points(d.common.low)} to ${points(d.common.high)})`),
          el("td", {}, `${points(d.independent.low)} to ${points(d.independent.high)}`),
        ),
      );
    into.append(
      el("h3", {}, "Paired differences on common random numbers, in percentage points"),
      el("div", { class: "scroll" }, diff),
    );
  }
  // Why a ruleset could not answer, once per reason (the ranges it holds for listed).
  const reasons = new Map();
  for (const cell of c.cells)
    if (!cell.answer.odds) {
      const key = `${cell.ruleset}|${cell.weapon}|${cell.answer.out_of_range ? "range" : whyNot(cell)}`;
      if (!reasons.has(key)) reasons.set(key, { cell, ranges: [] });
      if (cell.range_m !== null) reasons.get(key).ranges.push(cell.range_m);
    }
  const notes = el("ul", { class: "notes", id: "compare-notes" });
  for (const { cell, ranges: at } of reasons.values())
    notes.append(
      el(
        "li",
        {},
        `${rulesetName(cell.ruleset)}, ${own(cell.ruleset, cell.weapon)}${at.length ? ` at ${at.join(", ")} m` : ""}: ` +
          (cell.answer.out_of_range ? `out of range (${whyNot(cell)})` : whyNot(cell)),
      ),
    );
  if (notes.children.length) into.append(el("h3", {}, "Where a ruleset could not answer"), notes);
}

// The rulesets whose tables are illustrative (invented) data, by name: their listing
// (GET /api/tables) marks each such file `invented`.
const illustrative = new Map();
async function invented(rulesets, into) {
  const marked = [];
  for (const r of rulesets) {
    if (!illustrative.has(r)) {
      const listing = await get(`/api/tables/${encodeURIComponent(r)}`)
        .then((x) => x.json())
        .catch(() => ({ tables: [] }));
      illustrative.set(
        r,
        (listing.tables || []).some((t) => t.invented),
      );
    }
    if (illustrative.get(r)) marked.push(rulesetName(r));
  }
  if (!marked.length || !into.querySelector("#compare-chart")) return;
  // After the chart's own scrolling box, so it is read without scrolling the chart.
  into
    .querySelector("#compare-chart")
    .parentElement.after(
      el(
        "p",
        { class: "chart-footer", id: "compare-invented" },
        `Invented data: ${marked.join(", ")} ${marked.length > 1 ? "take" : "takes"} these weapons and vehicles from an illustrative ` +
          "catalogue, made up to show how the rules work, not the published rules' values.",
      ),
    );
}

// Why a cell has no kill chance: beyond the weapon's reach in that ruleset (every
// ruleset's answer alike, whatever its own fire makes of it), or the ruleset's reason.
const whyNot = (cell) => cell.answer.out_of_range || cell.answer.none || "";
