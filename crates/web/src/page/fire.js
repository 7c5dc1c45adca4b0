// Fire: one resolution, exact beside Monte Carlo, answered at every change; the
// command line's other answers about the same file; which cells matter.
import { $, el, settings, clearErrors } from "./dom.js";
import { post, placeError, streamPost, progressOf, longWork, CANCELLED } from "./net.js";
import { saveState, shared } from "./state.js";
import { editor } from "./editor.js";
import { encode } from "./url.js";
import { showReport, showExact } from "./report.js";

let fireEditor, fireRequest = null, searching = null;

export function init(scenarios) {
  fireEditor = editor("fire", scenarios, "cd_tank_duel.toml", compute);
  shared.savers.fire = () => ({ trials: $("fire-trials").value, seed: $("fire-seed").value, mode: $("fire-mode").value,
    scenario: encode(fireEditor.text()) });
  $("fire-compute").addEventListener("click", compute);
  $("sensitivity-start").addEventListener("click", findSensitivity);
}

// Fills the editor from a link's settings (`scenario` only when the link is to Fire).
export const restore = (p, key) => fireEditor.restore(p, key);

export async function compute() {
  if (fireRequest) fireRequest.abort();
  fireRequest = new AbortController();
  saveState();
  clearErrors("fire");
  $("fire-status").textContent = "computing...";
  try {
    const answer = await post("/api/fire", { scenario: fireEditor.text(), ...settings("fire") }, fireRequest.signal);
    if (!answer.ok) { placeError("fire", answer.body.error); $("fire-status").textContent = ""; return; }
    showReport(answer.body, $("fire-result"), "p-kill");
    $("fire-status").textContent = "done";
    extras(answer.body.kind, fireRequest.signal);
  } catch (e) {
    if (e.name !== "AbortError") $("fire-status").textContent = `failed: ${e.message}`;
  }
}

// The exact answer alone, as a loaded link gets it: the link may ask for any number
// of trials, and a page elsewhere may open it, so its Monte Carlo waits for Compute.
export async function computeExact() {
  fireRequest = new AbortController();
  clearErrors("fire");
  $("fire-status").textContent = "computing the exact answer...";
  try {
    const answer = await post("/api/exact", { scenario: fireEditor.text(), ...settings("fire") }, fireRequest.signal);
    if (!answer.ok) { placeError("fire", answer.body.error); $("fire-status").textContent = ""; return; }
    showExact(answer.body, $("fire-result"));
    $("fire-status").textContent = "opened from a link: the exact answer alone; Compute runs the Monte Carlo trials";
  } catch (e) {
    if (e.name !== "AbortError") $("fire-status").textContent = `failed: ${e.message}`;
  }
}

// What the command line says besides fire about the same file: the destroy chance as
// a game screen's whole percentage (a fire at a target), or every allocation policy
// (a hand of Command Dice).
async function extras(kind, signal) {
  const into = $("fire-extra");
  into.replaceChildren();
  const body = { scenario: fireEditor.text(), ...settings("fire") };
  try {
    if (kind === "command_dice") {
      const { mode, trials, seed, ...hand } = body;
      const answer = await post("/api/command-dice", hand, signal);
      if (!answer.ok) return;
      const table = el("table", { id: "command-dice" }, el("tr", {}, el("th", {}, "policy"), el("th", {}, "answer"),
        el("th", {}, "value"), el("th", {}, "exact fraction")));
      for (const a of answer.body.answers)
        table.append(el("tr", {}, el("td", {}, a.policy), el("td", {}, a.answer), el("td", {}, a.value.toFixed(6)), el("td", {}, a.exact_fraction)));
      into.append(el("h3", {}, "Every allocation policy, exactly (command-dice)"), table);
      return;
    }
    const answer = await post("/api/percent", body, signal);
    if (!answer.ok) return; // not a fire at a target: nothing to show as a percentage
    const v = answer.body;
    const fraction = (p) => (p.exact_fraction ? ` (exact ${p.exact_fraction})` : "");
    into.append(el("p", { id: "percent" },
      `As a whole percentage, as a game screen would show it: destroyed ${v.destroy.percent}%${fraction(v.destroy)}; ` +
      `at least ${v.mildest} ${v.at_least_mildest.percent}%${fraction(v.at_least_mildest)} (${v.method})`));
  } catch (e) {
    // A newer change superseded this one.
  }
}

// Which cells matter: every one-step change to the tables and named modifiers,
// ranked by how far it moves p_kill.
async function findSensitivity() {
  if (searching) searching.abort();
  $("sensitivity-error").textContent = "";
  const work = longWork("sensitivity", "sensitivity-start");
  searching = work;
  const { mode, ...plan } = settings("fire");
  try {
    const answer = await streamPost("/api/sensitivity", { scenario: fireEditor.text(), ...plan,
      top: Number($("sensitivity-top").value) }, work.signal, progressOf("sensitivity", "changes"));
    if (answer.error) { $("sensitivity-error").textContent = answer.error; return work.finish(""); }
    const r = answer.result;
    const table = el("table", { id: "sensitivity" }, el("tr", {}, ...["rank", "file", "cell", "now", "changed", "p_kill after", "change", "source"].map((h) => el("th", {}, h))));
    for (const row of r.rows) {
      const after = row.exact_after ? `${row.p_kill_after.toFixed(4)} (${row.exact_after})` : row.p_kill_after.toFixed(4);
      const delta = row.delta_ci_low === null ? row.delta.toFixed(4) : `${row.delta.toFixed(4)} [${row.delta_ci_low.toFixed(4)}, ${row.delta_ci_high.toFixed(4)}]`;
      table.append(el("tr", {}, el("td", {}, row.rank), el("td", {}, row.file), el("td", {}, row.cell), el("td", {}, row.now),
        el("td", {}, row.changed), el("td", {}, after), el("td", {}, delta), el("td", {}, `${row.source_seed || ""}${row.source_table ? `, "${row.source_table}"` : ""}`)));
    }
    $("sensitivity-result").replaceChildren(
      el("p", {}, `p_kill (${r.kill}) ${r.p_kill.value.toFixed(6)} (${r.p_kill.method}${r.p_kill.exact_fraction ? ", " + r.p_kill.exact_fraction : ""}): ` +
        `${r.changes} one-step changes, ${r.moving} move it, ${r.not_moving} do not, ${r.refused} the rules refuse.`),
      table);
    work.finish("done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}
