// Requests to the server: quick answers as JSON, long work as server-sent events with
// its progress bar, its Cancel button and its line of text.
import { $ } from "./dom.js";
import { remaining } from "./format.js";

export async function post(path, body, signal) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body), signal });
  const json = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  return { ok: response.ok, body: json };
}

// POSTs `body` to an endpoint that answers with server-sent events; `progress` hears
// each (done, planned). Resolves to { result } or { error, placed }: a request refused
// before it starts (placed beside its field) or work that failed. Aborting `signal`
// closes the stream, which stops the work on the server.
export async function streamPost(path, body, signal, progress) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body), signal });
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
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name) => (block.split("\n").find((l) => l.startsWith(name + ":")) || "").slice(name.length + 1).trim();
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
