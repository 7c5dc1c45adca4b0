// Engagement: a study run on the server, its progress streamed as server-sent
// events; Cancel closes the stream, which stops the run.
import { $, el, settings } from "./dom.js";
import { streamPost, progressOf, longWork, CANCELLED } from "./net.js";
import { settingsHold } from "./fire.js";
import { saveState, shared } from "./state.js";
import { editor } from "./editor.js";
import { encode } from "./url.js";
import { showReport } from "./report.js";

let runEditor, running = null;

export function init(engagementsFirst) {
  runEditor = editor("run", engagementsFirst, "cd_engagement_tank_duel.toml", () => { runEditor.stale(); saveState(); });
  shared.savers.run = () => ({ trials: $("run-trials").value, seed: $("run-seed").value, mode: $("run-mode").value,
    scenario: encode(runEditor.text()) });
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
    const answer = await streamPost("/api/run", { scenario: runEditor.text(), tables: runEditor.tables(), ...settings("run") }, work.signal,
      progressOf("run", "trials"));
    if (answer.error) {
      runEditor.place(answer.error);
      return work.finish("");
    }
    showRun(answer.result);
    work.finish(`done in ${answer.result.wall_time_s.toFixed(2)} s`);
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

function showRun(data) {
  const files = el("p", { class: "downloads", id: "run-downloads" }, "Download, as combat-odds run writes them: ");
  for (const [name, bytes] of data.files)
    files.append(el("a", { href: `/api/results/${data.id}/${encodeURIComponent(name)}`, download: name, title: `${bytes} bytes` }, name));
  const into = $("run-result");
  showReport(data.report, into, "run-p-kill", runEditor.invented());
  $("run-p-kill").after(files);
}
