// The engine off the page's thread, in the static site (scripts/build-site puts this
// module beside the page's): the page posts { module } (the engine, compiled), then
// { id, path, body } as it would POST to the server, and hears { id, progress: [done, planned] } while the work runs, then
// { id, ok, body, text }: the server's answer, from the same libraries, and its text. Cancel ends this
// worker (a running WebAssembly call hears no message), and the page starts another.
import init, { fire, fire_csv, exact, form, percent, command_dice, sensitivity, run, compare, sweep, balance } from "./combat_odds_wasm.js";

// The engine the page compiled, in the first message; every request comes after it.
let ready = null;
const SERVER_ONLY = "needs more than a browser tab: run `combat-odds serve` and open the page it serves";
// The shipped files (the server's list, written beside the site), where a sweep finds
// the base scenario it names: fetched once, when the first sweep asks.
let shipped = null;
const shippedFiles = () => (shipped ??= fetch(new URL("../data/scenarios", import.meta.url)).then((r) => r.text()));

// The server's endpoints this engine answers (quick ones ignore the progress callback);
// every other is refused, naming the command that answers it.
const ENDPOINTS = {
  "/api/fire": fire,
  // The browser's own: a fire's report as the CSV `fire --format csv` prints.
  "/api/fire.csv": fire_csv,
  "/api/exact": exact,
  "/api/form": form,
  "/api/percent": percent,
  "/api/command-dice": command_dice,
  "/api/sensitivity": sensitivity,
  "/api/run": run,
  "/api/compare": compare,
  "/api/balance": balance,
  "/api/sweep": async (request, progress) => sweep(request, await shippedFiles(), progress),
};

onmessage = async ({ data: { module, id, path, body } }) => {
  if (module) {
    ready = init({ module_or_path: module });
    return;
  }
  await ready;
  const answer = ENDPOINTS[path];
  if (!answer) {
    postMessage({ id, ok: false, body: { error: `${path.slice("/api/".length)} ${SERVER_ONLY}` } });
    return;
  }
  try {
    const json = await answer(JSON.stringify(body), (done, planned) => postMessage({ id, progress: [done, planned] }));
    postMessage({ id, ok: true, body: JSON.parse(json), text: json });
  } catch (error) {
    postMessage({ id, ok: false, body: { error: String(error) } });
  }
};
