// The engine off the page's thread, in the static site (scripts/build-site puts this
// module beside the page's): the page posts { module } (the engine, compiled), then
// { id, path, body } as it would POST to the server, and hears { id, progress: [done, planned] }
// while the work runs, then { id, ok, body, text }: the server's answer, from the same
// request layer, and its text. Every endpoint is the engine's: it answers what the
// server answers, and refuses what a tab cannot finish in the server's words. Cancel
// ends this worker (a running WebAssembly call hears no message), and the page starts
// another.
import init, { answer } from "./combat_odds_wasm.js";

// The engine the page compiled, in the first message; every request comes after it.
let ready = null;
// The shipped files (the server's list, written beside the site), where a sweep finds
// the base scenario it names: fetched once, when the first sweep asks.
let shipped = null;
const shippedFiles = () => (shipped ??= fetch(new URL("../data/scenarios", import.meta.url)).then((r) => r.text()));

self.onmessage = async ({ data: { module, id, path, body } }) => {
  if (module) {
    ready = init({ module_or_path: module });
    return;
  }
  await ready;
  try {
    const list = path === "/api/sweep" ? await shippedFiles() : "";
    const json = answer(path, JSON.stringify(body), list, (done, planned) => postMessage({ id, progress: [done, planned] }));
    postMessage({ id, ok: true, body: JSON.parse(json), text: json });
  } catch (error) {
    // The engine's refusals are the server's JSON; anything else (the engine itself
    // failing) is said in one line the same way.
    let refused;
    try {
      refused = JSON.parse(String(error));
    } catch {
      refused = null;
    }
    postMessage({ id, ok: false, body: refused && typeof refused.error === "string" ? refused : { error: String(error) } });
  }
};
