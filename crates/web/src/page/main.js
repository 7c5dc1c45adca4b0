// The page's entry: the shared lists fetched once, each tab set up, a link's settings
// restored, and the first answer asked for.
import { $, el } from "./dom.js";
import { get } from "./net.js";
import { fromHash } from "./url.js";
import { PAGES, shared, saveState } from "./state.js";
import * as fire from "./fire.js";
import * as run from "./run.js";
import * as compare from "./compare.js";
import * as balance from "./balance.js";
import * as tables from "./tables.js";

// What each long work's progress bar is named, for a screen reader.
const PROGRESS = {
  run: "the engagement's trials",
  compare: "the comparison's runs",
  sweep: "the sweep's points",
  balance: "the balance finder's points",
};

// Long work's progress bar and its line of text.
for (const row of document.querySelectorAll("[data-progress]")) {
  const p = row.dataset.progress;
  row.append(
    el("progress", { id: `${p}-progress`, max: "1", value: "0", "aria-label": `Progress of ${PROGRESS[p]}` }),
    el("span", { id: `${p}-status`, class: "muted", "aria-live": "polite" }),
  );
}

// The Monte Carlo settings of a page, ahead of its buttons: trials (with the place a
// message about them goes), seed and sampling.
for (const row of document.querySelectorAll("[data-prefix]")) {
  const p = row.dataset.prefix;
  row.prepend(
    el(
      "label",
      {},
      "Monte Carlo trials ",
      el("input", { id: `${p}-trials`, type: "text", inputmode: "numeric", value: row.dataset.trials, class: "narrow" }),
      el("span", { id: `${p}-trials-error`, class: "error", role: "alert" }),
    ),
    el(
      "label",
      {},
      "Seed ",
      el("input", { id: `${p}-seed`, type: "text", inputmode: "numeric", value: "2026", class: "narrow" }),
      el("span", { id: `${p}-seed-error`, class: "error", role: "alert" }),
    ),
    el("label", {}, "Sampling ", el("select", { id: `${p}-mode` }, el("option", {}, "compiled"), el("option", {}, "literal"))),
  );
}

const engagementsFirstOf = (scenarios) =>
  scenarios.filter((s) => s.kind === "engagement").concat(scenarios.filter((s) => s.kind !== "engagement"));

function showPage(page) {
  shared.current = page;
  for (const p of PAGES) {
    $(`tab-${p}`).setAttribute("aria-selected", p === page);
    $(`tab-${p}`).tabIndex = p === page ? 0 : -1;
    $(p).hidden = p !== page;
  }
  saveState();
  if (page === "tables") tables.showTables();
}

async function start() {
  // A link's state (anything after `#`) fills the forms; the work it describes waits
  // for a click, but for the exact answer.
  const linked = location.hash.length > 1;
  const p = fromHash(location.hash);
  const page = PAGES.includes(p.get("page")) ? p.get("page") : "fire";
  shared.current = page;
  // Every list is asked for at once; the first answer needs the scenarios alone, so
  // it is asked for as soon as they come, and the other tabs are set up after it.
  const later = Promise.all([
    get("/api/rulesets").then((r) => r.json()),
    get("/api/words").then((r) => r.json()),
    get("/api/interpretations").then((r) => r.text()),
  ]);
  const shipped = await get("/api/scenarios").then((r) => r.json());
  const scenarios = shipped.filter((s) => s.kind !== "compare" && s.kind !== "sweep");
  fire.init(scenarios);
  if (page === "fire") for (const k of ["trials", "seed", "mode"]) if (p.has(k)) $(`fire-${k}`).value = p.get(k);
  if (page === "fire" && p.has("top")) $("sensitivity-top").value = p.get("top");
  await fire.restore(p, page === "fire" ? "scenario" : "none");
  const first = linked ? fire.computeExact() : fire.compute();

  const [rulesets, words, notes] = await later;
  shared.words = words;
  const engagementsFirst = engagementsFirstOf(scenarios);
  balance.init(
    engagementsFirst,
    shipped.filter((s) => s.kind === "sweep"),
  );
  run.init(engagementsFirst);
  tables.init(rulesets, notes);
  compare.init(shipped.filter((s) => s.kind === "compare"));
  for (const p of PAGES)
    $(`tab-${p}`).addEventListener("click", () => {
      showPage(p);
      // The Compare tab opens on a shipped comparison rather than blank.
      if (p === "compare" && !compare.opened()) compare.openShipped();
    });
  // Arrow keys move between tabs, as in any tab list.
  $("tabs").addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    const next = PAGES[(PAGES.indexOf(shared.current) + step + PAGES.length) % PAGES.length];
    $(`tab-${next}`).click();
    $(`tab-${next}`).focus();
  });

  if (page === "run") for (const k of ["trials", "seed", "mode"]) if (p.has(k)) $(`run-${k}`).value = p.get(k);
  if (page === "tables") tables.restore(p);
  showPage(page);
  if (page === "compare") compare.restore(p);
  // The other tabs' forms wait for the first answer.
  await first;
  await run.restore(p, page === "run" ? "scenario" : "none");
  balance.restore(p, page === "balance");
}

start();
