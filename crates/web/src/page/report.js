// A report as fire and run print it, in players' words: the kill chance as a
// percentage, how each number was reached, and every measure's distribution, exact
// beside Monte Carlo; invented (illustrative) data said plainly wherever it reaches
// the answer.
import { el } from "./dom.js";
import { percent, shortFraction, view, words, rulesetName, noteWords } from "./format.js";
import { bars } from "./charts.js";

// What an answer on illustrative data is, said once above it and under each chart.
export const INVENTED =
  "Invented data: the weapons and vehicles here come from an illustrative catalogue, made up to show " +
  "how the rules work, not the published rules' values. Read this answer as the rules applied to these numbers, not " +
  'as the game\'s verdict on the real equipment. Give your own values: change them under "Weapons and vehicles" ' +
  "above the form (or import your own catalogue there).";

// The illustrative names an answer rests on: those `chosen` in the form, and those the
// engine read from an invented catalogue (the report's `invented`).
export function inventedIn(r, chosen) {
  return [...new Set(chosen.concat(r.invented || []))];
}

function inventedNote(names, id) {
  return el(
    "p",
    { class: "invented", id, role: "note" },
    el("strong", {}, "Invented data. "),
    INVENTED.replace(/^Invented data: /, "").replace(/^./, (c) => c.toUpperCase()),
    names.length ? ` (Here: ${names.join("; ")}.)` : "",
  );
}

const killLine = (k) => `Chance the ${words(k.measure)} is ${words(k.outcome)}`;

// A number as a span that never breaks across lines.
const num = (text) => el("span", { class: "num" }, text);

// A mean as the page writes it: four decimals, as a mean of hits or turns reads.
const mean4 = (x) => x.toFixed(4);

// A measure's mean in words, where its outcomes are numbers (the report's `mean`, the
// JSON `fire` prints): exact where the distribution is, and the Monte Carlo estimate
// with its interval where trials were drawn; the outcomes that are no number (an
// engagement still undecided) said as left out.
export function meanWords(measure, m) {
  // An engagement's fraction runs to hundreds of digits: the JSON keeps it whole.
  const fraction = m.exact_fraction && m.exact_fraction.length <= 24 ? ` (${m.exact_fraction})` : "";
  const exact = m.exact === null || m.exact === undefined ? "" : `${mean4(m.exact)} exactly${fraction}`;
  const estimate =
    m.estimate === undefined ? "" : `Monte Carlo ${mean4(m.estimate)} (95%: ${mean4(m.ci_low)} to ${mean4(m.ci_high)})`;
  const over = !m.leaves_out.length
    ? ""
    : m.estimate === undefined
      ? ` (leaving out ${m.leaves_out.map(words).join(", ")})`
      : `, over the ${m.count.toLocaleString()} trials that ended on a number (leaving out ${m.leaves_out.map(words).join(", ")})`;
  return `Mean ${words(measure)}: ${[exact, estimate].filter((x) => x).join("; ")}${over}`;
}

// The mean line beside measure `m`'s distribution, where it has one.
const meanLine = (m) => (m.mean ? [el("p", { class: "mean", "data-measure": m.measure }, meanWords(m.measure, m.mean))] : []);

// Where the answer is announced: the live region of the answer's column.
function announce(into, text) {
  const said = into.closest(".answer")?.querySelector(".said");
  if (said) said.textContent = text;
}

function measureBlock(m, invented) {
  const block = el("div");
  const how = el(
    "select",
    { "aria-label": `${words(m.measure)}: show the chance of exactly, at least or at most each outcome` },
    el("option", { value: "=" }, "exactly"),
    el("option", { value: ">=" }, "at least"),
    el("option", { value: "<=" }, "at most"),
  );
  const body = el("div");
  const draw = () => {
    const rows = m.outcomes;
    const plain = how.value === "=";
    const exact = rows.every((r) => r.exact !== null)
      ? view(
          rows.map((r) => r.exact),
          how.value,
        )
      : null;
    const estimate = view(
      rows.map((r) => r.estimate),
      how.value,
    );
    const table = el(
      "table",
      {},
      el(
        "tr",
        {},
        el("th", {}, "outcome"),
        el("th", {}, "exact"),
        el("th", {}, "exact fraction"),
        el("th", {}, "Monte Carlo"),
        el("th", {}, "95% interval"),
      ),
    );
    rows.forEach((r, i) => {
      const fraction = plain && r.exact_fraction ? shortFraction(r.exact_fraction) : "";
      table.append(
        el(
          "tr",
          {},
          el("td", {}, words(r.outcome)),
          el("td", {}, exact ? percent(exact[i]) : "n/a"),
          el(
            "td",
            {
              title: plain && r.exact_fraction && fraction !== r.exact_fraction ? r.exact_fraction : undefined,
              class: "fraction",
            },
            fraction,
          ),
          el("td", {}, percent(estimate[i])),
          el("td", {}, plain ? `${percent(r.ci_low)} to ${percent(r.ci_high)}` : ""),
        ),
      );
    });
    const chart = bars(
      rows.map((r) => words(r.outcome)),
      exact || estimate,
      plain ? rows.map((r) => r.ci_low) : null,
      plain ? rows.map((r) => r.ci_high) : null,
      `${words(m.measure)}: the chance of each outcome${invented ? " (invented data)" : ""}`,
    );
    body.replaceChildren(...meanLine(m), el("div", { class: "scroll" }, table), chart);
    if (invented)
      body.append(el("p", { class: "chart-footer" }, "Invented (illustrative) catalogue data, not the published rules' values."));
    if (rows.some((r) => r.exact_fraction && r.exact_fraction.length > 24))
      body.append(
        el(
          "p",
          { class: "muted" },
          "Long exact fractions are shortened here; the downloads (summary.json and each measure's CSV) keep every digit.",
        ),
      );
    if (m.agreement)
      body.append(
        el(
          "p",
          { class: "muted" },
          `Monte Carlo against exact: chi-square ${m.agreement.chi_square.toFixed(2)} on ${m.agreement.dof} degrees of freedom, p = ${m.agreement.p_value.toFixed(3)}`,
        ),
      );
  };
  how.addEventListener("change", draw);
  block.append(el("h3", {}, words(m.measure), " ", how), body);
  draw();
  return block;
}

function heading(r) {
  return [el("h2", {}, r.scenario), el("p", { class: "muted" }, `${rulesetName(r.ruleset)}, ${words(r.kind)}`)];
}

// `chosen`: the illustrative names the form's choices hold.
export function showReport(r, into, killId, chosen = []) {
  const k = r.p_kill;
  const notes = el("ul", { class: "notes" });
  for (const n of r.notes) notes.append(el("li", {}, noteWords(n)));
  // A long audit trail (an engagement's every fire) folds away behind its first line.
  const how =
    r.notes.length > 12
      ? el(
          "details",
          {},
          el("summary", { class: "notes" }, `How each number was reached (${r.notes.length} lines): ${noteWords(r.notes[0])}`),
          notes,
        )
      : notes;
  const invented = inventedIn(r, chosen);
  into.replaceChildren(...heading(r));
  if (invented.length) into.append(inventedNote(invented, `${killId}-invented`));
  const answer = el(
    "p",
    { class: "kill", id: killId },
    `${killLine(k)}: `,
    k.exact === null ? "no exact answer" : num(`exact ${percent(k.exact)}`),
    "; Monte Carlo ",
    num(percent(k.estimate)),
    " (95%: ",
    num(percent(k.ci_low)),
    " to ",
    num(percent(k.ci_high)),
    ")",
  );
  announce(into, answer.textContent);
  into.append(
    answer,
    el(
      "p",
      { class: "muted" },
      `${r.trials.toLocaleString()} trials (${r.mode}), seed ${r.seed}, ${r.generator}; intervals: ${r.interval}; rules hash ${r.rules_hash}`,
    ),
    how,
  );
  for (const m of r.measures) into.append(measureBlock(m, invented.length > 0));
}

export function showExact(r, into, chosen = []) {
  const k = r.p_kill;
  const exact = k.exact === null ? "no exact answer" : `exact ${percent(k.exact)}`;
  const notes = el("ul", { class: "notes" });
  for (const n of r.notes) notes.append(el("li", {}, noteWords(n)));
  const invented = inventedIn(r, chosen);
  into.replaceChildren(...heading(r));
  if (invented.length) into.append(inventedNote(invented, "p-kill-invented"));
  const answer = el(
    "p",
    { class: "kill", id: "p-kill" },
    `${killLine(k)}: `,
    k.exact === null ? exact : num(exact),
    "; Monte Carlo: press Compute",
  );
  announce(into, answer.textContent);
  into.append(answer, notes);
  for (const m of r.measures) {
    const table = el("table", {}, el("tr", {}, el("th", {}, "outcome"), el("th", {}, "exact"), el("th", {}, "exact fraction")));
    for (const o of m.outcomes)
      table.append(
        el(
          "tr",
          {},
          el("td", {}, words(o.outcome)),
          el("td", {}, o.exact === null ? "n/a" : percent(o.exact)),
          el("td", { title: o.exact_fraction || undefined, class: "fraction" }, shortFraction(o.exact_fraction)),
        ),
      );
    into.append(el("h3", {}, words(m.measure)), ...meanLine(m), el("div", { class: "scroll" }, table));
  }
}
