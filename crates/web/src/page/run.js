// Engagement: a study run on the server, its progress streamed as server-sent
// events; Cancel closes the stream, which stops the run.
import { $, el, settings, download } from "./dom.js";
import { streamPost, progressOf, longWork, CANCELLED, inBrowser, ONE_THREAD } from "./net.js";
import { settingsHold } from "./fire.js";
import { saveState, shared } from "./state.js";
import { editor } from "./editor.js";
import { encode } from "./url.js";
import { showReport } from "./report.js";

let runEditor,
  running = null;

export function init(engagementsFirst) {
  runEditor = editor("run", engagementsFirst, "cd_engagement_tank_duel.toml", () => {
    runEditor.stale();
    saveState();
  });
  shared.savers.run = () => ({
    trials: $("run-trials").value,
    seed: $("run-seed").value,
    mode: $("run-mode").value,
    scenario: encode(runEditor.text()),
    ...runEditor.link(),
  });
  $("run-start").addEventListener("click", startRun);
}

export const restore = (p, key) => runEditor.restore(p, key);

async function startRun() {
  if (running) running.abort();
  saveState();
  if (!settingsHold("run", runEditor)) return;
  runEditor.fresh();
  $("run-result").replaceChildren();
  const work = longWork("run", "run-start");
  running = work;
  try {
    const answer = await streamPost(
      "/api/run",
      { scenario: runEditor.text(), tables: runEditor.tables(), ...settings("run") },
      work.signal,
      progressOf("run", "trials"),
    );
    if (answer.error) {
      runEditor.place(answer.error);
      return work.finish("");
    }
    showRun(answer.result);
    const { wall_time_s: seconds, report } = answer.result;
    const rate = Math.round(report.trials / Math.max(seconds, 1e-3)).toLocaleString();
    work.finish(`done in ${seconds.toFixed(2)} s (${rate} trials/s${ONE_THREAD ? `; ${ONE_THREAD}` : ""})`);
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

function showRun(data) {
  const files = inBrowser
    ? inBrowserDownloads(data.report)
    : el("p", { class: "downloads", id: "run-downloads" }, "Download, as combat-odds run writes them: ");
  for (const [name, bytes] of data.files)
    files.append(
      el("a", { href: `/api/results/${data.id}/${encodeURIComponent(name)}`, download: name, title: `${bytes} bytes` }, name),
    );
  const into = $("run-result");
  showReport(data.report, into, "run-p-kill", runEditor.invented());
  $("run-p-kill").after(files);
}

// The static site keeps no run's files (they are the server's, on its disk): the
// browser offers what it holds, the report as JSON and the scenario file, and names
// the command that writes the frames as `run` does.
function inBrowserDownloads(report) {
  const name = $("run-shipped").value || "scenario.toml";
  const save = (id, label, file, text, type) => {
    const button = el("button", { id, type: "button" }, label);
    button.addEventListener("click", () => download(file, text, type));
    return button;
  };
  return el(
    "p",
    { class: "downloads", id: "run-downloads" },
    "Download: ",
    save("run-report-json", "report.json", "report.json", JSON.stringify(report, null, 2), "application/json"),
    " ",
    save("run-scenario-toml", name, name, runEditor.text(), "application/toml"),
    ` (the frames as CSV and Parquet, with summary.json: combat-odds run ${name})`,
  );
}
