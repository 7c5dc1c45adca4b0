// A report as fire and run print it: the kill chance, how each number was reached, and
// every measure's distribution, exact beside Monte Carlo.
import { el } from "./dom.js";
import { fixed, view } from "./format.js";
import { bars } from "./charts.js";

function measureBlock(m) {
  const block = el("div");
  const how = el("select", { "aria-label": `${m.measure} view` },
    el("option", { value: "=" }, "exactly"), el("option", { value: ">=" }, "at least"),
    el("option", { value: "<=" }, "at most"));
  const body = el("div");
  const draw = () => {
    const rows = m.outcomes;
    const plain = how.value === "=";
    const exact = rows.every((r) => r.exact !== null) ? view(rows.map((r) => r.exact), how.value) : null;
    const estimate = view(rows.map((r) => r.estimate), how.value);
    const table = el("table", {}, el("tr", {}, el("th", {}, "outcome"),
      el("th", {}, "exact"), el("th", {}, "exact fraction"), el("th", {}, "Monte Carlo"), el("th", {}, "95% interval")));
    rows.forEach((r, i) => {
      table.append(el("tr", {}, el("td", {}, r.outcome), el("td", {}, exact ? fixed(exact[i]) : "n/a"),
        el("td", {}, plain && r.exact_fraction ? r.exact_fraction : ""), el("td", {}, fixed(estimate[i])),
        el("td", {}, plain ? `[${fixed(r.ci_low)}, ${fixed(r.ci_high)}]` : "")));
    });
    body.replaceChildren(table, bars(rows.map((r) => r.outcome), exact || estimate,
      plain ? rows.map((r) => r.ci_low) : null, plain ? rows.map((r) => r.ci_high) : null));
    if (m.agreement) body.append(el("p", { class: "muted" },
      `Monte Carlo against exact: chi-square ${m.agreement.chi_square.toFixed(2)} on ${m.agreement.dof} dof, p = ${m.agreement.p_value.toFixed(3)}`));
  };
  how.addEventListener("change", draw);
  block.append(el("h3", {}, m.measure, " ", how), body);
  draw();
  return block;
}

export function showReport(r, into, killId) {
  const k = r.p_kill;
  const exact = k.exact === null ? "no exact answer" : `exact ${fixed(k.exact)}`;
  const notes = el("ul", { class: "notes" });
  for (const n of r.notes) notes.append(el("li", {}, n));
  // A long audit trail (an engagement's every fire) folds away behind its first line.
  const how = r.notes.length > 12
    ? el("details", {}, el("summary", { class: "notes" }, `How each number was reached (${r.notes.length} lines): ${r.notes[0]}`), notes)
    : notes;
  into.replaceChildren(
    el("h2", {}, `${r.scenario} (${r.ruleset}, ${r.kind})`),
    el("p", { class: "kill", id: killId },
      `p_kill (${k.measure} = ${k.outcome}): ${exact}; Monte Carlo ${fixed(k.estimate)} [${fixed(k.ci_low)}, ${fixed(k.ci_high)}]`),
    el("p", { class: "muted" }, `${r.trials} trials (${r.mode}), seed ${r.seed}, ${r.generator}; intervals: ${r.interval}; rules hash ${r.rules_hash}`),
    how);
  for (const m of r.measures) into.append(measureBlock(m));
}

export function showExact(r, into) {
  const k = r.p_kill;
  const exact = k.exact === null ? "no exact answer" : `exact ${fixed(k.exact)}`;
  const notes = el("ul", { class: "notes" });
  for (const n of r.notes) notes.append(el("li", {}, n));
  into.replaceChildren(
    el("h2", {}, `${r.scenario} (${r.ruleset}, ${r.kind})`),
    el("p", { class: "kill", id: "p-kill" }, `p_kill (${k.measure} = ${k.outcome}): ${exact}; Monte Carlo: press Compute`),
    notes);
  for (const m of r.measures) {
    const table = el("table", {}, el("tr", {}, el("th", {}, "outcome"), el("th", {}, "exact"), el("th", {}, "exact fraction")));
    for (const o of m.outcomes)
      table.append(el("tr", {}, el("td", {}, o.outcome), el("td", {}, o.exact === null ? "n/a" : fixed(o.exact)), el("td", {}, o.exact_fraction || "")));
    into.append(el("h3", {}, m.measure), table);
  }
}
