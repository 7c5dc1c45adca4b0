// The engine off the page's thread, in the static site (scripts/build-site puts this
// module beside the page's): the page posts { id, path, body } as it would POST to the
// server, and hears { id, progress: [done, planned] } while the work runs, then
// { id, ok, body }: the server's answer, from the same libraries. Cancel ends this
// worker (a running WebAssembly call hears no message), and the page starts another.
import init, { fire } from "./combat_odds_wasm.js";

const ready = init();

// The server's endpoints this engine answers; every other the page keeps to the server.
const ENDPOINTS = { "/api/fire": fire };

onmessage = async ({ data: { id, path, body } }) => {
  await ready;
  const answer = ENDPOINTS[path];
  if (!answer) {
    postMessage({ id, ok: false, body: { error: `${path}: the page in a browser alone does not answer this; \`combat-odds serve\` does` } });
    return;
  }
  try {
    const json = answer(JSON.stringify(body), (done, planned) => postMessage({ id, progress: [done, planned] }));
    postMessage({ id, ok: true, body: JSON.parse(json) });
  } catch (error) {
    postMessage({ id, ok: false, body: { error: String(error) } });
  }
};
