// Fire: one resolution, exact beside Monte Carlo, answered at every change; the
// command line's other answers about the same file; which cells matter.
import { $, el, settings, download } from "./dom.js";
import { post, streamPost, progressOf, longWork, CANCELLED, ONE_THREAD } from "./net.js";
import { checkSetting, refusal } from "./model.js";
import { percent, rulesetName } from "./format.js";
import { saveState, shared } from "./state.js";
import { editor } from "./editor.js";
import { encode } from "./url.js";
import { showReport, showExact } from "./report.js";

let fireEditor,
  fireRequest = null,
  searching = null;

export function init(scenarios) {
  fireEditor = editor("fire", scenarios, "cd_tank_duel.toml", compute);
  shared.savers.fire = () => ({
    trials: $("fire-trials").value,
    seed: $("fire-seed").value,
    mode: $("fire-mode").value,
    top: $("sensitivity-top").value,
    scenario: encode(fireEditor.text()),
    ...fireEditor.link(),
  });
  $("fire-compute").addEventListener("click", compute);
  $("sensitivity-start").addEventListener("click", findSensitivity);
}

// Fills the editor from a link's settings (`scenario` only when the link is to Fire).
export const restore = (p, key) => fireEditor.restore(p, key);

// The trials and seed as typed, each checked beside its field: false when one is not
// a value the server takes (the answer on screen is then marked as not theirs).
export function settingsHold(prefix, edited) {
  let hold = true;
  for (const name of ["trials", "seed"]) {
    const wrong = checkSetting(name, $(`${prefix}-${name}`).value);
    $(`${prefix}-${name}-error`).textContent = wrong || "";
    if (wrong) hold = false;
  }
  if (!hold) edited.stale();
  return hold;
}

// Where a refused request's message goes, and the answer on screen marked as not
// the form's.
function refused(message) {
  fireEditor.place(message);
  fireEditor.stale();
  $("fire-status").textContent = "";
}

export async function compute() {
  if (fireRequest) fireRequest.abort();
  fireRequest = new AbortController();
  saveState();
  if (!settingsHold("fire", fireEditor)) {
    $("fire-status").textContent = "";
    return;
  }
  $("fire-status").textContent = "computing...";
  try {
    // The form is asked at the same time; the answer names what it holds.
    const body = { scenario: fireEditor.text(), tables: fireEditor.tables(), ...settings("fire") };
    const [answer] = await Promise.all([post("/api/fire", body, fireRequest.signal), fireEditor.ready()]);
    if (!answer.ok) return refused(answer.body.error);
    fireEditor.fresh();
    showReport(answer.body, $("fire-result"), "p-kill", fireEditor.invented());
    offerReport(answer.text, body);
    // When each answer was on screen, for tests/page/bench.mjs.
    performance.mark("fire-answer");
    $("fire-status").textContent = ONE_THREAD ? `done (${ONE_THREAD})` : "done";
    extras(answer.body, fireRequest.signal);
  } catch (e) {
    if (e.name === "AbortError") return;
    // Whatever failed, the answer on screen is no longer the form's.
    fireEditor.stale();
    $("fire-status").textContent = `failed: ${e.message}`;
  }
}

// Either engine answers a fire with the very text `fire --format json` prints: offered
// as a file, and beside it the CSV `--format csv` prints, which the engine writes when
// asked (`body`, the fire's request, drawn again on its seed), with the command that
// prints both for what is on screen.
let reportUrl = null;
function offerReport(text, body) {
  if (reportUrl) URL.revokeObjectURL(reportUrl);
  reportUrl = URL.createObjectURL(new Blob([`${text}\n`], { type: "application/json" }));
  const { trials, seed, mode } = settings("fire");
  const command = fireEditor.command("fire", `--trials ${trials} --seed ${seed} --mode ${mode}`);
  const csv = el("button", { type: "button", id: "fire-report-csv" }, "report.csv");
  csv.addEventListener("click", async () => {
    const answer = await post("/api/fire.csv", body);
    if (answer.ok) download("report.csv", answer.body, "text/csv");
  });
  const files = command.files.length ? `; ${command.files.join("; ")}` : "";
  $("fire-result").append(
    el(
      "p",
      { class: "downloads", id: "fire-downloads" },
      "Download: ",
      el("a", { href: reportUrl, download: "report.json", id: "fire-report-json" }, "report.json"),
      " ",
      csv,
      " (what ",
      el("code", { id: "fire-command" }, command.line),
      ` prints with --format json and --format csv${files})`,
    ),
  );
}

// The exact answer alone, as a loaded link gets it: the link may ask for any number
// of trials, and a page elsewhere may open it, so its Monte Carlo waits for Compute.
export async function computeExact() {
  fireRequest = new AbortController();
  if (!settingsHold("fire", fireEditor)) return;
  $("fire-status").textContent = "computing the exact answer...";
  try {
    const [answer] = await Promise.all([
      post("/api/exact", { scenario: fireEditor.text(), tables: fireEditor.tables(), ...settings("fire") }, fireRequest.signal),
      fireEditor.ready(),
    ]);
    if (!answer.ok) return refused(answer.body.error);
    fireEditor.fresh();
    showExact(answer.body, $("fire-result"), fireEditor.invented());
    $("fire-status").textContent = "opened from a link: the exact answer alone; Compute runs the Monte Carlo trials";
  } catch (e) {
    if (e.name !== "AbortError") $("fire-status").textContent = `failed: ${e.message}`;
  }
}

// What the command line says besides fire about the same file, where it is the
// ruleset's own view (the form says which): the ruleset's own answers about the file
// (every allocation policy of a hand of Command Dice), or the destroy chance as its
// screen shows it, a whole percentage.
async function extras(report, signal) {
  const into = $("fire-extra");
  into.replaceChildren();
  const body = { scenario: fireEditor.text(), tables: fireEditor.tables(), ...settings("fire") };
  try {
    const views = await fireEditor.views();
    if (views.includes("answers")) {
      const { mode, trials, seed, ...file } = body;
      const answer = await post("/api/answers", file, signal);
      if (!answer.ok) return;
      const table = el(
        "table",
        { id: "own-answers" },
        el("tr", {}, el("th", {}, "policy"), el("th", {}, "answer"), el("th", {}, "value"), el("th", {}, "exact fraction")),
      );
      for (const a of answer.body.answers)
        table.append(
          el(
            "tr",
            {},
            el("td", {}, a.policy.replace(/_/g, " ")),
            el("td", {}, a.answer),
            el("td", {}, a.value.toFixed(4)),
            el("td", {}, a.exact_fraction),
          ),
        );
      into.append(el("h3", {}, `${rulesetName(report.ruleset)}'s own answers, exactly`), el("div", { class: "scroll" }, table));
      return;
    }
    if (!views.includes("percent")) return;
    const answer = await post("/api/percent", body, signal);
    if (!answer.ok) return; // not a fire at a target: nothing to show as a percentage
    const v = answer.body;
    const fraction = (p) => (p.exact_fraction ? ` (exact ${p.exact_fraction})` : "");
    into.append(
      el(
        "p",
        { id: "percent" },
        `As ${rulesetName(report.ruleset)}'s screen shows it: destroyed ${v.destroy.percent}%${fraction(v.destroy)}; ` +
          `at least ${v.mildest} ${v.at_least_mildest.percent}%${fraction(v.at_least_mildest)} (${v.method})`,
      ),
    );
  } catch {
    // A newer change superseded this one.
  }
}

// Which cells matter: every one-step change to the tables and named modifiers,
// ranked by how far it moves p_kill.
async function findSensitivity() {
  if (searching) searching.abort();
  saveState();
  $("sensitivity-error").textContent = "";
  const work = longWork("sensitivity", "sensitivity-start");
  searching = work;
  const { mode, ...plan } = settings("fire");
  try {
    const answer = await streamPost(
      "/api/sensitivity",
      { scenario: fireEditor.text(), tables: fireEditor.tables(), ...plan, top: Number($("sensitivity-top").value) },
      work.signal,
      progressOf("sensitivity", "changes"),
    );
    if (answer.error) {
      $("sensitivity-error").textContent = refusal(answer.error).words;
      return work.finish("");
    }
    const r = answer.result;
    const table = el(
      "table",
      { id: "sensitivity" },
      el(
        "tr",
        {},
        ...["rank", "file", "cell", "now", "changed", "kill chance after", "change", "source"].map((h) => el("th", {}, h)),
      ),
    );
    const points = (d) => `${d >= 0 ? "+" : ""}${(100 * d).toFixed(2)} points`;
    for (const row of r.rows) {
      const after = row.exact_after ? `${percent(row.p_kill_after)} (${row.exact_after})` : percent(row.p_kill_after);
      const delta =
        row.delta_ci_low === null
          ? points(row.delta)
          : `${points(row.delta)} (${points(row.delta_ci_low)} to ${points(row.delta_ci_high)})`;
      table.append(
        el(
          "tr",
          {},
          el("td", {}, row.rank),
          el("td", {}, row.file),
          el("td", {}, row.cell),
          el("td", {}, row.now),
          el("td", {}, row.changed),
          el("td", {}, after),
          el("td", {}, delta),
          el("td", {}, `${row.source_title || ""}${row.source_table ? `, "${row.source_table}"` : ""}`),
        ),
      );
    }
    $("sensitivity-result").replaceChildren(
      el(
        "p",
        {},
        `Kill chance (${r.kill}) ${percent(r.p_kill.value)} (${r.p_kill.method}${r.p_kill.exact_fraction ? `, ${r.p_kill.exact_fraction}` : ""}): ` +
          `${r.changes} one-step changes, ${r.moving} move it, ${r.not_moving} do not, ${r.refused} the rules refuse.`,
      ),
      el("div", { class: "scroll" }, table),
    );
    work.finish("done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}
