// Requests to the server: quick answers as JSON, long work as server-sent events with
// its progress bar, its Cancel button and its line of text.
import { $ } from "./dom.js";
import { remaining } from "./format.js";

// The static site (scripts/build-site marks its markup) has no server: its engine is
// the WebAssembly one in a Web Worker, which answers what a tab can and refuses the
// rest naming the command, so no request of the static site goes to /api.
export const inBrowser = document.querySelector('meta[name="combat-odds-engine"]')?.content === "worker";
// What a speed line adds in the static site: rayon has no threads in a browser tab.
export const ONE_THREAD = inBrowser
  ? "Monte Carlo runs on one thread in the browser; combat-odds on the command line uses every core"
  : "";

// The engine compiled once, as the site opens, and handed to every worker: one started
// later (after a Cancel, or for another endpoint) instantiates it at once rather than
// fetching and compiling it again. A host that does not send `application/wasm` gets
// the bytes compiled whole.
const WASM = "page/combat_odds_wasm_bg.wasm";
const engine = inBrowser
  ? WebAssembly.compileStreaming(fetch(WASM)).catch(() =>
      fetch(WASM)
        .then((r) => r.arrayBuffer())
        .then(WebAssembly.compile),
    )
  : null;

// One worker per endpoint, so that ending one (a changed value cancels the fire
// under way) never takes another's work with it (the form asked at the same time).
const workers = new Map();
let asked = 0;
// The worker's answer to one request; aborting `signal` ends its worker (its running
// call hears nothing else; whatever else waited on it is cancelled too) and the next
// request to that endpoint starts a fresh one.
async function inWorker(path, body, signal, progress) {
  const module = await engine;
  if (!workers.has(path)) {
    const worker = new Worker("page/worker.js", { type: "module" });
    worker.postMessage({ module });
    workers.set(path, { worker, waiting: new Set() });
  }
  const mine = workers.get(path);
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const cancelled = () => reject(new DOMException("cancelled", "AbortError"));
    const abort = () => {
      mine.worker.terminate();
      if (workers.get(path) === mine) workers.delete(path);
      for (const other of mine.waiting) other();
    };
    if (signal?.aborted) return cancelled();
    mine.waiting.add(cancelled);
    signal?.addEventListener("abort", abort, { once: true });
    mine.worker.addEventListener("message", function heard({ data }) {
      if (data.id !== id) return;
      if (data.progress) return progress?.(...data.progress);
      mine.worker.removeEventListener("message", heard);
      mine.waiting.delete(cancelled);
      signal?.removeEventListener("abort", abort);
      resolve(data);
    });
    mine.worker.postMessage({ id, path, body });
  });
}

// GETs `path`, one of the server's fixed answers (lists, tables, modifiers): in the
// static site, the copy scripts/build-site wrote under data/.
export function get(path) {
  return fetch(inBrowser ? `data/${path.slice("/api/".length)}` : path);
}

export async function post(path, body, signal) {
  if (inBrowser) {
    const { ok, body: answer, text } = await inWorker(path, body, signal);
    return { ok, body: answer, text };
  }
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  // The answer's text as well as its JSON: a fire's is the very text the command line
  // prints, offered as a download.
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { error: `the server answered ${response.status}` };
  }
  return { ok: response.ok, body: json, text };
}

// POSTs `body` to an endpoint that answers with server-sent events; `progress` hears
// each (done, planned). Resolves to { result } or { error, placed }: a request refused
// before it starts (placed beside its field) or work that failed. Aborting `signal`
// closes the stream, which stops the work on the server. In the static site the worker
// does the work (its refusals are the file's, placed like the server's) and aborting
// `signal` ends the worker: the answer is never half-shown.
export async function streamPost(path, body, signal, progress) {
  if (inBrowser) {
    const { ok, body: answer } = await inWorker(path, body, signal, progress);
    return ok ? { result: answer } : { error: answer.error, placed: true };
  }
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const refused = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
    return { error: refused.error, placed: true };
  }
  const reader = response.body.getReader();
  const utf8 = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { error: "the server closed the stream before the end" };
    buffer += utf8.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name) => (block.split("\n").find((l) => l.startsWith(`${name}:`)) || "").slice(name.length + 1).trim();
      const data = JSON.parse(field("data") || "null");
      const event = field("event");
      if (event === "progress") progress(data.done, data.planned);
      else if (event === "result") return { result: data };
      else if (event === "error") return { error: data.error };
    }
  }
}

// A progress bar and its line of text, for work counted in `unit`, with the time
// left at the pace so far once there is one.
export function progressOf(prefix, unit) {
  const started = performance.now();
  return (done, planned) => {
    $(`${prefix}-progress`).max = Math.max(1, planned);
    $(`${prefix}-progress`).value = done;
    const left = remaining(done, planned, (performance.now() - started) / 1000);
    $(`${prefix}-status`).textContent = planned
      ? `${done.toLocaleString()} of ${planned.toLocaleString()} ${unit}${left ? `, ${left}` : ""}`
      : "setting up...";
  };
}

// Starts long work on page `prefix`: its Run button off and Cancel on while it goes.
export function longWork(prefix, startId) {
  const controller = new AbortController();
  $(`${prefix}-cancel`).disabled = false;
  $(startId).disabled = true;
  $(`${prefix}-progress`).value = 0;
  $(`${prefix}-status`).textContent = "setting up...";
  $(`${prefix}-cancel`).onclick = () => controller.abort();
  const finish = (message) => {
    if (message.startsWith("done")) $(`${prefix}-progress`).value = $(`${prefix}-progress`).max;
    $(`${prefix}-status`).textContent = message;
    $(`${prefix}-cancel`).disabled = true;
    $(startId).disabled = false;
  };
  return { signal: controller.signal, finish, abort: () => controller.abort() };
}

export const CANCELLED = "cancelled: the work stopped and nothing was kept";
