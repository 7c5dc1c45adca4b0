"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
};
const svgEl = (tag, attrs = {}) => {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};
const fixed = (x) => (x === null || x === undefined ? "" : x.toFixed(6));
const PAGES = ["fire", "run", "compare", "balance", "tables"];

// Long work's progress bar and its line of text.
for (const row of document.querySelectorAll("[data-progress]")) {
  const p = row.dataset.progress;
  row.append(el("progress", { id: `${p}-progress`, max: "1", value: "0" }),
    el("span", { id: `${p}-status`, class: "muted", "aria-live": "polite" }));
}

// The Monte Carlo settings of a page, ahead of its buttons: trials (with the place a
// message about them goes), seed and sampling.
for (const row of document.querySelectorAll("[data-prefix]")) {
  const p = row.dataset.prefix;
  row.prepend(
    el("label", {}, "Monte Carlo trials ", el("input", { id: `${p}-trials`, type: "number", min: "1", value: row.dataset.trials }),
      el("span", { id: `${p}-trials-error`, class: "error", role: "alert" })),
    el("label", {}, "Seed ", el("input", { id: `${p}-seed`, type: "number", min: "0", value: "2026" })),
    el("label", {}, "Sampling ", el("select", { id: `${p}-mode` }, el("option", {}, "compiled"), el("option", {}, "literal"))));
}

// The page's whole state lives in its address: a link reproduces the same numbers.
function encode(text) {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decode(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}
let current = "fire";
const savers = {};
function saveState() {
  const p = new URLSearchParams({ page: current, ...(savers[current] ? savers[current]() : {}) });
  history.replaceState(null, "", "#" + p.toString());
}
const hashState = () => new URLSearchParams(location.hash.slice(1));

async function post(path, body, signal) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body), signal });
  const json = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  return { ok: response.ok, body: json };
}
// A message about the trials goes beside that field; any other is about the file.
function placeError(prefix, message) {
  $(/^trials\b/.test(message) ? `${prefix}-trials-error` : `${prefix}-scenario-error`).textContent = message;
}
function download(name, text, type) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  a.click();
}

// A scenario editor: open a shipped file or one's own, change its values in a form
// the rules themselves offer (POST /api/form), or edit the TOML directly.
function editor(prefix, shipped, firstName, changed) {
  const pick = el("select", { id: `${prefix}-shipped` }, el("option", { value: "" }, "(choose)"));
  for (const s of shipped) pick.append(el("option", { value: s.name }, s.name));
  const file = el("input", { id: `${prefix}-file`, type: "file", accept: ".toml" });
  const form = el("div", { id: `${prefix}-form`, class: "form" });
  const text = el("textarea", { id: `${prefix}-scenario`, spellcheck: "false" });
  const error = el("div", { id: `${prefix}-scenario-error`, class: "error", role: "alert" });
  const save = el("button", { id: `${prefix}-download` }, "Download scenario");
  $(`${prefix}-editor`).append(
    el("div", { class: "row" }, el("label", {}, "Open a shipped scenario ", pick),
      el("label", {}, "or a scenario file ", file), save),
    form, error,
    el("details", {}, el("summary", {}, "The scenario file (the TOML that combat-odds fire and run read)"), text));
  let formRequest = null;
  const refreshForm = async () => {
    if (formRequest) formRequest.abort();
    formRequest = new AbortController();
    let answer;
    try { answer = await post("/api/form", { scenario: text.value }, formRequest.signal); } catch (e) { return; }
    if (!answer.ok) return;
    renderForm(answer.body);
  };
  const splice = (start, end, literal) => {
    // Offsets are bytes of UTF-8: splice in bytes, so text before the value may hold any character.
    const bytes = new TextEncoder().encode(text.value);
    const before = new TextDecoder().decode(bytes.slice(0, start));
    const after = new TextDecoder().decode(bytes.slice(end));
    text.value = before + literal + after;
    update();
  };
  const renderForm = (f) => {
    form.replaceChildren();
    for (const c of f.choices) {
      const select = el("select", { "data-key": c.key, "aria-label": c.key });
      const value = JSON.parse(new TextDecoder().decode(new TextEncoder().encode(text.value).slice(c.start, c.end)).replace(/^'|'$/g, '"'));
      if (!c.names.includes(value)) select.append(el("option", { value }, `${value} (not in the list)`));
      for (const n of c.names) select.append(el("option", { value: n }, n));
      select.value = value;
      select.addEventListener("change", () => splice(c.start, c.end, JSON.stringify(select.value)));
      form.append(el("label", {}, `${c.key} (${c.what})`, select));
    }
    for (const v of f.values) {
      const input = v.kind === "boolean"
        ? el("input", { type: "checkbox", "data-key": v.key, "aria-label": v.key })
        : el("input", { type: "number", step: v.kind === "float" ? "any" : "1", value: v.text, "data-key": v.key, "aria-label": v.key });
      if (v.kind === "boolean") input.checked = v.text === "true";
      const label = el("label", {}, v.key, input);
      const top = v.key === "range" || v.key.endsWith(".range") || v.key.endsWith("min_range") || v.key.endsWith("closing");
      if (f.scale && top) {
        const [unit, metres] = f.scale;
        const shown = el("span", { class: "metres" });
        const show = () => { shown.textContent = `${input.value} ${unit} = ${Math.round(Number(input.value) * metres)} m`; };
        input.addEventListener("input", show);
        show();
        label.append(shown);
      }
      input.addEventListener("change", () => splice(v.start, v.end, v.kind === "boolean" ? String(input.checked) : input.value));
      form.append(label);
    }
    // Settings this file leaves at their defaults: choosing another reading writes it
    // under [settings] (see the Tables page for what each reading means).
    for (const u of f.settings) {
      const select = el("select", { "data-key": `settings.${u.key}`, "aria-label": `settings.${u.key}` });
      u.names.forEach((n, i) => select.append(el("option", { value: n }, i === 0 ? `${n} (default)` : n)));
      select.addEventListener("change", () => setSetting(u.key, select.value));
      form.append(el("label", {}, `settings.${u.key} (setting)`, select));
    }
  };
  const setSetting = (key, value) => {
    const line = `${key} = ${JSON.stringify(value)}\n`;
    const header = text.value.match(/^\[settings\][ \t]*(#.*)?\r?\n/m);
    if (header) {
      const at = header.index + header[0].length;
      text.value = text.value.slice(0, at) + line + text.value.slice(at);
    } else {
      text.value = text.value.replace(/\n*$/, "\n") + "\n[settings]\n" + line;
    }
    update();
  };
  const update = () => { refreshForm(); changed(); };
  const open = (t) => { text.value = t; update(); };
  pick.addEventListener("change", () => {
    const s = shipped.find((x) => x.name === pick.value);
    if (s) open(s.text);
  });
  file.addEventListener("change", async () => { if (file.files[0]) open(await file.files[0].text()); });
  text.addEventListener("change", update);
  save.addEventListener("click", () => download(pick.value || "scenario.toml", text.value, "application/toml"));
  return {
    text: () => text.value,
    restore: (p, key) => {
      if (p.has(key)) { text.value = decode(p.get(key)); refreshForm(); return true; }
      const first = shipped.find((s) => s.name === firstName) || shipped[0];
      pick.value = first.name; text.value = first.text; refreshForm();
      return false;
    },
  };
}

// Views of one measure: the chance of each outcome, of it or a later one, of it or
// an earlier one (outcomes run from nothing to the worst).
function view(values, how) {
  if (how === "=") return values;
  const out = values.map(() => 0);
  for (let i = 0; i < values.length; i++)
    for (let j = 0; j < values.length; j++)
      if ((how === ">=" && j >= i) || (how === "<=" && j <= i)) out[i] += values[j];
  return out;
}

function chart(labels, values, lows, highs) {
  const w = 560, rowH = 22, left = 150, h = rowH * labels.length + 24;
  const svg = svgEl("svg", { width: w, height: h, role: "img" });
  const x = (p) => left + p * (w - left - 20);
  labels.forEach((label, i) => {
    const y = 4 + i * rowH;
    const t = svgEl("text", { x: 0, y: y + 14, "font-size": 12 });
    t.textContent = label;
    svg.append(t, svgEl("rect", { class: "bar", x: x(0), y: y + 3, width: Math.max(0, x(values[i]) - x(0)), height: rowH - 8 }));
    if (lows) svg.append(svgEl("line", { class: "whisker", x1: x(lows[i]), x2: x(highs[i]), y1: y + rowH / 2, y2: y + rowH / 2 }));
  });
  const axis = svgEl("text", { x: x(0), y: h - 4, "font-size": 11 });
  axis.textContent = "probability 0 to 1; whiskers: the Monte Carlo 95% interval";
  svg.append(axis);
  return svg;
}

function measureBlock(m) {
  const block = el("div");
  const how = el("select", { "aria-label": `${m.measure} view` },
    el("option", { value: "=" }, "exactly"), el("option", { value: ">=" }, "at least"),
    el("option", { value: "<=" }, "at most"));
  const body = el("div");
  const draw = () => {
    const rows = m.outcomes;
    const plain = how.value === "=";
    const exact = rows.every((r) => r.exact !== null) ? view(rows.map((r) => r.exact), how.value) : null;
    const estimate = view(rows.map((r) => r.estimate), how.value);
    const table = el("table", {}, el("tr", {}, el("th", {}, "outcome"),
      el("th", {}, "exact"), el("th", {}, "exact fraction"), el("th", {}, "Monte Carlo"), el("th", {}, "95% interval")));
    rows.forEach((r, i) => {
      table.append(el("tr", {}, el("td", {}, r.outcome), el("td", {}, exact ? fixed(exact[i]) : "n/a"),
        el("td", {}, plain && r.exact_fraction ? r.exact_fraction : ""), el("td", {}, fixed(estimate[i])),
        el("td", {}, plain ? `[${fixed(r.ci_low)}, ${fixed(r.ci_high)}]` : "")));
    });
    body.replaceChildren(table, chart(rows.map((r) => r.outcome), exact || estimate,
      plain ? rows.map((r) => r.ci_low) : null, plain ? rows.map((r) => r.ci_high) : null));
    if (m.agreement) body.append(el("p", { class: "muted" },
      `Monte Carlo against exact: chi-square ${m.agreement.chi_square.toFixed(2)} on ${m.agreement.dof} dof, p = ${m.agreement.p_value.toFixed(3)}`));
  };
  how.addEventListener("change", draw);
  block.append(el("h3", {}, m.measure, " ", how), body);
  draw();
  return block;
}

function showReport(r, into, killId) {
  const k = r.p_kill;
  const exact = k.exact === null ? "no exact answer" : `exact ${fixed(k.exact)}`;
  const notes = el("ul", { class: "notes" });
  for (const n of r.notes) notes.append(el("li", {}, n));
  // A long audit trail (an engagement's every fire) folds away behind its first line.
  const how = r.notes.length > 12
    ? el("details", {}, el("summary", { class: "notes" }, `How each number was reached (${r.notes.length} lines): ${r.notes[0]}`), notes)
    : notes;
  into.replaceChildren(
    el("h2", {}, `${r.scenario} (${r.ruleset}, ${r.kind})`),
    el("p", { class: "kill", id: killId },
      `p_kill (${k.measure} = ${k.outcome}): ${exact}; Monte Carlo ${fixed(k.estimate)} [${fixed(k.ci_low)}, ${fixed(k.ci_high)}]`),
    el("p", { class: "muted" }, `${r.trials} trials (${r.mode}), seed ${r.seed}, ${r.generator}; intervals: ${r.interval}; rules hash ${r.rules_hash}`),
    how);
  for (const m of r.measures) into.append(measureBlock(m));
}

function settings(prefix) {
  return { trials: Number($(`${prefix}-trials`).value), seed: Number($(`${prefix}-seed`).value), mode: $(`${prefix}-mode`).value };
}
function clearErrors(prefix) {
  for (const id of [`${prefix}-scenario-error`, `${prefix}-trials-error`]) if ($(id)) $(id).textContent = "";
}

// Fire: one resolution, exact beside Monte Carlo, answered at every change.
let fireEditor, fireRequest = null;
async function compute() {
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
async function computeExact() {
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
function showExact(r, into) {
  const k = r.p_kill;
  const exact = k.exact === null ? "no exact answer" : `exact ${fixed(k.exact)}`;
  const notes = el("ul", { class: "notes" });
  for (const n of r.notes) notes.append(el("li", {}, n));
  into.replaceChildren(
    el("h2", {}, `${r.scenario} (${r.ruleset}, ${r.kind})`),
    el("p", { class: "kill", id: "p-kill" }, `p_kill (${k.measure} = ${k.outcome}): ${exact}; Monte Carlo: press Compute`),
    notes);
  for (const m of r.measures) {
    const table = el("table", {}, el("tr", {}, el("th", {}, "outcome"), el("th", {}, "exact"), el("th", {}, "exact fraction")));
    for (const o of m.outcomes)
      table.append(el("tr", {}, el("td", {}, o.outcome), el("td", {}, o.exact === null ? "n/a" : fixed(o.exact)), el("td", {}, o.exact_fraction || "")));
    into.append(el("h3", {}, m.measure), table);
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
let searching = null;
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

// Engagement: a study run on the server, its progress streamed as server-sent
// events; Cancel closes the stream, which stops the run.
let runEditor, running = null;
// POSTs `body` to an endpoint that answers with server-sent events; `progress` hears
// each (done, planned). Resolves to { result } or { error, placed }: a request refused
// before it starts (placed beside its field) or work that failed. Aborting `signal`
// closes the stream, which stops the work on the server.
async function streamPost(path, body, signal, progress) {
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
// A progress bar and its line of text, for work counted in `unit`.
function progressOf(prefix, unit) {
  return (done, planned) => {
    $(`${prefix}-progress`).max = Math.max(1, planned);
    $(`${prefix}-progress`).value = done;
    $(`${prefix}-status`).textContent = planned ? `${done.toLocaleString()} of ${planned.toLocaleString()} ${unit}` : "setting up...";
  };
}
// Starts long work on page `prefix`: its Run button off and Cancel on while it goes.
function longWork(prefix, startId) {
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
const CANCELLED = "cancelled: the work stopped and nothing was kept";
async function startRun() {
  if (running) running.abort();
  saveState();
  clearErrors("run");
  $("run-result").replaceChildren();
  const work = longWork("run", "run-start");
  running = work;
  try {
    const answer = await streamPost("/api/run", { scenario: runEditor.text(), ...settings("run") }, work.signal,
      progressOf("run", "trials"));
    if (answer.error) {
      if (answer.placed) placeError("run", answer.error); else $("run-scenario-error").textContent = answer.error;
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
  showReport(data.report, into, "run-p-kill");
  into.insertBefore(files, into.children[2]);
}

// Compare: the words every ruleset's equivalents.toml gives, a comparison built from
// them, and kill probability against range drawn as steps, as the tables are banded.
let words = [];
function fillCompareForm() {
  const union = (kind) => {
    const seen = new Map();
    for (const w of words) for (const [word, label] of w[kind]) {
      if (!seen.has(word)) seen.set(word, []);
      seen.get(word).push(`${w.ruleset}: ${label}`);
    }
    return [...seen.entries()].sort();
  };
  const weapons = $("compare-weapons");
  for (const [word, labels] of union("weapon"))
    weapons.append(el("label", { title: labels.join("\n"), class: "inline" },
      el("input", { type: "checkbox", value: word, "data-weapon": word }), word));
  for (const w of words)
    $("compare-rulesets").append(el("label", { class: "inline" },
      el("input", { type: "checkbox", value: w.ruleset, "data-ruleset": w.ruleset, checked: "" }), w.ruleset));
  for (const [id, kind, optional] of [["compare-target", "target", false], ["compare-quality", "quality", true], ["compare-situation", "situation", true]]) {
    if (optional) $(id).append(el("option", { value: "" }, "(none)"));
    for (const [word, labels] of union(kind)) $(id).append(el("option", { value: word, title: labels.join("\n") }, word));
  }
}
function comparisonText() {
  const list = (xs) => "[" + xs.map((x) => JSON.stringify(x)).join(", ") + "]";
  const weapons = [...document.querySelectorAll("[data-weapon]")].filter((c) => c.checked).map((c) => c.value);
  const order = (weaponOrder.filter((w) => weapons.includes(w))).concat(weapons.filter((w) => !weaponOrder.includes(w)));
  const rulesets = [...document.querySelectorAll("[data-ruleset]")].filter((c) => c.checked).map((c) => c.value);
  const ranges = $("compare-ranges").value.split(/[ ,]+/).filter((x) => x !== "");
  let text = `kind = "compare"\nname = ${JSON.stringify($("compare-name").value)}\nweapons = ${list(order)}\ntarget = ${JSON.stringify($("compare-target").value)}\n`;
  if ($("compare-quality").value) text += `quality = ${JSON.stringify($("compare-quality").value)}\n`;
  if ($("compare-situation").value) text += `situation = ${JSON.stringify($("compare-situation").value)}\n`;
  if (ranges.length) text += `ranges_m = [${ranges.join(", ")}]\n`;
  text += `rulesets = ${list(rulesets)}\n`;
  return text;
}
// A comparison file as the page writes it (and the shipped ones are written): one
// `key = value` a line, each value a JSON literal. Null for any other.
function readComparison(text) {
  const c = { name: "", weapons: [], rulesets: words.map((w) => w.ruleset), target: "", ranges_m: [] };
  for (const line of text.split("\n")) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const pair = line.match(/^(\w+) = (.*)$/);
    if (!pair) return null;
    try { c[pair[1]] = JSON.parse(pair[2]); } catch (e) { return null; }
  }
  return [c.weapons, c.rulesets, c.ranges_m].every(Array.isArray) ? c : null;
}
let weaponOrder = [];
function setComparison(c) {
  $("compare-name").value = c.name;
  weaponOrder = c.weapons.slice();
  for (const box of document.querySelectorAll("[data-weapon]")) box.checked = c.weapons.includes(box.value);
  for (const box of document.querySelectorAll("[data-ruleset]")) box.checked = c.rulesets.includes(box.value);
  $("compare-target").value = c.target;
  $("compare-quality").value = c.quality || "";
  $("compare-situation").value = c.situation || "";
  $("compare-ranges").value = c.ranges_m.join(", ");
}
let comparing = null;
async function runCompare(text) {
  if (comparing) comparing.abort();
  $("compare-error").textContent = "";
  $("compare-trials-error").textContent = "";
  const work = longWork("compare", "compare-start");
  comparing = work;
  try {
    const answer = await streamPost("/api/compare", { scenario: text, trials: Number($("compare-trials").value),
      seed: Number($("compare-seed").value) }, work.signal, progressOf("compare", "runs"));
    if (answer.error) {
      $(/^trials\b/.test(answer.error) ? "compare-trials-error" : "compare-error").textContent = answer.error;
      return work.finish("");
    }
    setComparison(answer.result.comparison);
    saveState();
    showComparison(answer.result);
    work.finish("done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}
const COLOURS = ["#3b7ea1", "#c2562b", "#4f8a3c", "#8c5fa8", "#a8893a", "#2f3b45"];
function showComparison(c) {
  const best = (o) => (o.exact === null ? o.estimate : o.exact);
  const ranges = c.comparison.ranges_m;
  const series = [];
  c.comparison.rulesets.forEach((ruleset, ri) => c.comparison.weapons.forEach((weapon, wi) => {
    const cells = c.cells.filter((x) => x.ruleset === ruleset && x.weapon === weapon);
    series.push({ ruleset, weapon, colour: COLOURS[ri % COLOURS.length], dash: wi ? "6 3" : "", cells });
  }));
  const into = $("compare-result");
  into.replaceChildren(el("h2", {}, `${c.comparison.name}: ${c.comparison.target}`));
  if (ranges.length) {
    const w = 720, h = 300, left = 48, bottom = 36, right = 180, top = 10;
    const maxR = Math.max(...ranges);
    const x = (m) => left + (m / maxR) * (w - left - right);
    const y = (p) => top + (1 - p) * (h - top - bottom);
    const svg = svgEl("svg", { width: w, height: h, role: "img", id: "compare-chart" });
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      svg.append(svgEl("line", { x1: left, x2: w - right, y1: y(p), y2: y(p), stroke: "#d5dadf" }));
      const t = svgEl("text", { x: 4, y: y(p) + 4, "font-size": 11 }); t.textContent = p.toFixed(2); svg.append(t);
    }
    for (const m of ranges) {
      const t = svgEl("text", { x: x(m) - 10, y: h - bottom + 14, "font-size": 10 }); t.textContent = m; svg.append(t);
    }
    const axis = svgEl("text", { x: left, y: h - 4, "font-size": 11 });
    axis.textContent = "range (m); p_kill over one turn's fire, exact where known; steps: each answer holds to the next range asked";
    svg.append(axis);
    series.forEach((s, i) => {
      let d = "";
      const points = s.cells.filter((cell) => cell.answer.odds);
      points.forEach((cell, k) => {
        const p = best(cell.answer.odds.turn);
        const next = k + 1 < points.length ? points[k + 1].range_m : cell.range_m;
        d += `${k ? "L" : "M"}${x(cell.range_m)},${y(p)} L${x(next)},${y(p)} `;
      });
      if (d) svg.append(svgEl("path", { class: "step", d, stroke: s.colour, "stroke-dasharray": s.dash }));
      const ly = top + 14 * i + 6;
      svg.append(svgEl("line", { x1: w - right + 8, x2: w - right + 30, y1: ly, y2: ly, stroke: s.colour, "stroke-width": 2, "stroke-dasharray": s.dash }));
      const t = svgEl("text", { x: w - right + 34, y: ly + 4, "font-size": 10 }); t.textContent = `${s.ruleset}, ${s.weapon}`; svg.append(t);
    });
    into.append(svg);
  }
  const table = el("table", { id: "compare-table" }, el("tr", {}, el("th", {}, "ruleset"), el("th", {}, "weapon"),
    ...(ranges.length ? ranges.map((m) => el("th", {}, `${m} m`)) : [el("th", {}, "p_kill")])));
  for (const s of series) {
    const row = el("tr", {}, el("td", {}, s.ruleset), el("td", {}, s.weapon));
    for (const cell of s.cells) {
      const o = cell.answer.odds;
      row.append(o
        ? el("td", { title: `${o.equivalent}${o.table_range ? ", " + o.table_range : ""}; Monte Carlo ${fixed(o.turn.estimate)} [${fixed(o.turn.ci_low)}, ${fixed(o.turn.ci_high)}]` },
            (o.turn.exact === null ? "~" : "") + best(o.turn).toFixed(4))
        : el("td", { title: cell.answer.none }, "n/a"));
    }
    table.append(row);
  }
  into.append(el("h3", {}, "Kill probability over one turn's fire (~ marks Monte Carlo where no exact answer; hover for how)"), table);
  if (c.differences.length) {
    const diff = el("table", { id: "compare-differences" }, el("tr", {}, el("th", {}, "ruleset"), el("th", {}, "weapon minus"),
      el("th", {}, "range"), el("th", {}, "exact"), el("th", {}, "paired estimate [95%]"), el("th", {}, "independent runs' interval")));
    for (const d of c.differences)
      diff.append(el("tr", {}, el("td", {}, d.ruleset), el("td", {}, `${d.weapon} - ${d.against}`),
        el("td", {}, d.range_m === null ? "" : `${d.range_m} m`), el("td", {}, d.exact === null ? "n/a" : d.exact.toFixed(4)),
        el("td", {}, `${d.common.estimate.toFixed(4)} [${d.common.low.toFixed(4)}, ${d.common.high.toFixed(4)}]`),
        el("td", {}, `[${d.independent.low.toFixed(4)}, ${d.independent.high.toFixed(4)}]`)));
    into.append(el("h3", {}, "Paired differences on common random numbers"), diff);
  }
  const notes = el("ul", { class: "notes" });
  for (const cell of c.cells) if (cell.answer.none) notes.append(el("li", {}, `${cell.ruleset}, ${cell.weapon}${cell.range_m === null ? "" : ` at ${cell.range_m} m`}: ${cell.answer.none}`));
  if (notes.children.length) into.append(el("h3", {}, "Where a ruleset could not answer"), notes);
}

// Balance: a sweep over a scenario's own keys, and the balance finder.
let sweeping = null, balancing = null;
const pct = (p) => `${(100 * p).toFixed(p > 0.995 || p < 0.005 ? 2 : 1)}%`;
const shade = (p) => `rgb(${Math.round(255 - 222 * p)}, ${Math.round(255 - 153 * p)}, ${Math.round(255 - 83 * p)})`;
const best = (k) => (k.exact === null ? k.estimate : k.exact);
const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));
async function runSweep() {
  if (sweeping) sweeping.abort();
  saveState();
  $("sweep-error").textContent = ""; $("sweep-trials-error").textContent = "";
  $("sweep-result").replaceChildren();
  const work = longWork("sweep", "sweep-start");
  sweeping = work;
  try {
    const answer = await streamPost("/api/sweep", { sweep: $("sweep-text").value, trials: Number($("sweep-trials").value),
      seed: Number($("sweep-seed").value) }, work.signal, progressOf("sweep", "trials"));
    if (answer.error) {
      $(/^trials\b/.test(answer.error) ? "sweep-trials-error" : "sweep-error").textContent = answer.error;
      return work.finish("");
    }
    showSweep(answer.result);
    work.finish("done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}
function showSweep(r) {
  const into = $("sweep-result");
  const k0 = r.points[0][2];
  into.append(el("h3", {}, `${r.name}: P(${k0.measure} = ${k0.outcome})`));
  const ps = r.parameters;
  const numeric = (p) => p.values.every((v) => typeof v === "number");
  if (ps.length === 1 && numeric(ps[0]) && r.design === "full_factorial") {
    const w = 640, h = 280, left = 48, bottom = 40, top = 10, right = 20;
    const xs = r.points.map((p) => p[1][0]);
    const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
    const x = (v) => left + (x1 === x0 ? 0.5 : (v - x0) / (x1 - x0)) * (w - left - right);
    const y = (p) => top + (1 - p) * (h - top - bottom);
    const svg = svgEl("svg", { width: w, height: h, role: "img", id: "sweep-chart" });
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      svg.append(svgEl("line", { x1: left, x2: w - right, y1: y(p), y2: y(p), stroke: "#d5dadf" }));
      const t = svgEl("text", { x: 4, y: y(p) + 4, "font-size": 11 }); t.textContent = p.toFixed(2); svg.append(t);
    }
    const pts = r.points.map((p) => ({ x: p[1][0], k: p[2] })).sort((a, b) => a.x - b.x);
    const lo = (k) => (k.exact === null ? k.ci_low : k.exact), hi = (k) => (k.exact === null ? k.ci_high : k.exact);
    const band = pts.map((p) => `${x(p.x)},${y(hi(p.k))}`).concat(pts.slice().reverse().map((p) => `${x(p.x)},${y(lo(p.k))}`));
    svg.append(svgEl("polygon", { points: band.join(" "), fill: "#3b7ea1", "fill-opacity": 0.2 }));
    svg.append(svgEl("polyline", { points: pts.map((p) => `${x(p.x)},${y(best(p.k))}`).join(" "), fill: "none", stroke: "#3b7ea1", "stroke-width": 2 }));
    for (const p of pts) {
      const t = svgEl("text", { x: x(p.x) - 8, y: h - bottom + 14, "font-size": 10 }); t.textContent = p.x; svg.append(t);
    }
    const axis = svgEl("text", { x: left, y: h - 4, "font-size": 11 }); axis.textContent = `${ps[0].key}; band: the 95% interval`; svg.append(axis);
    into.append(svg);
  } else if (ps.length === 2 && r.design === "full_factorial") {
    const table = el("table", { id: "sweep-heat" }, el("tr", {}, el("th", {}, `${ps[1].key} \\ ${ps[0].key}`), ...ps[0].values.map((v) => el("th", {}, show(v)))));
    for (const row of ps[1].values.slice().reverse()) {
      const tr = el("tr", {}, el("th", {}, show(row)));
      for (const col of ps[0].values) {
        const point = r.points.find((p) => JSON.stringify(p[1]) === JSON.stringify([col, row]));
        const p = point ? best(point[2]) : null;
        const td = el("td", {}, p === null ? "n/a" : pct(p));
        // Through the style object, which the page's policy allows; a style attribute it does not.
        if (p !== null) Object.assign(td.style, { background: shade(p), color: p > 0.55 ? "#fff" : "#1d2329" });
        tr.append(td);
      }
      table.append(tr);
    }
    into.append(table);
  }
  const table = el("table", { id: "sweep-points" }, el("tr", {}, el("th", {}, "point"), ...ps.map((p) => el("th", {}, p.key)), el("th", {}, "P"), el("th", {}, "95% interval")));
  for (const [index, values, k] of r.points)
    table.append(el("tr", {}, el("td", {}, index + 1), ...values.map((v) => el("td", {}, show(v))), el("td", {}, best(k).toFixed(6)),
      el("td", {}, k.exact === null ? `[${fixed(k.ci_low)}, ${fixed(k.ci_high)}]` : "exact")));
  const files = el("p", { class: "downloads", id: "sweep-downloads" }, "Download, as combat-odds sweep writes them: ");
  for (const [name, bytes] of r.files)
    files.append(el("a", { href: `/api/results/${r.id}/${encodeURIComponent(name)}`, download: name, title: `${bytes} bytes` }, name));
  into.append(files, table, el("p", { class: "muted" }, `${r.trials} trials at each point, seed ${r.seed}: common random numbers`));
}
async function balanceKeys() {
  const text = balanceScenarios.find((x) => x.name === $("balance-scenario").value)?.text || "";
  const answer = await post("/api/form", { scenario: text }).catch(() => null);
  if (!answer || !answer.ok) return;
  const keys = answer.body.choices.map((c) => c.key).concat(answer.body.values.map((v) => v.key), answer.body.settings.map((u) => `settings.${u.key}`));
  $("balance-keys").replaceChildren(...keys.map((k) => el("option", { value: k })));
}
let balanceScenarios = [];
async function findBalance() {
  if (balancing) balancing.abort();
  saveState();
  $("balance-error").textContent = ""; $("balance-trials-error").textContent = "";
  $("balance-result").replaceChildren();
  const s = balanceScenarios.find((x) => x.name === $("balance-scenario").value);
  const body = { scenario: s ? s.text : "", name: s ? s.name : undefined, vary: $("balance-vary").value,
    target: Number($("balance-target").value), trials: Number($("balance-trials").value) };
  const listed = $("balance-values").value.trim();
  if (listed) body.values = listed.split(/\s*,\s*/).map((v) => (v !== "" && !isNaN(Number(v)) ? Number(v) : v === "true" ? true : v === "false" ? false : v));
  else {
    for (const k of ["from", "to", "step"]) if ($(`balance-${k}`).value !== "") body[k] = Number($(`balance-${k}`).value);
  }
  const work = longWork("balance", "balance-start");
  balancing = work;
  try {
    const answer = await streamPost("/api/balance", body, work.signal, progressOf("balance", "values"));
    if (answer.error) {
      $(/^trials\b/.test(answer.error) ? "balance-trials-error" : "balance-error").textContent = answer.error;
      return work.finish("");
    }
    const b = answer.result;
    const table = el("table", { id: "balance-tried" }, el("tr", {}, el("th", {}, b.key), el("th", {}, `P(${b.chance})`), el("th", {}, "95% interval")));
    for (const t of b.tried) table.append(el("tr", { class: t.ci_low <= b.target && b.target <= t.ci_high ? "bracket" : undefined },
      el("td", {}, show(t.value)), el("td", {}, t.p.toFixed(6)), el("td", {}, t.exact ? "exact" : `[${fixed(t.ci_low)}, ${fixed(t.ci_high)}]`)));
    $("balance-result").replaceChildren(el("p", { class: "kill", id: "balance-answer" }, b.answer), table,
      el("p", { class: "muted" }, `${b.trials} trials at each value, seed ${b.seed}: common random numbers`));
    work.finish("done");
  } catch (e) {
    work.finish(e.name === "AbortError" ? CANCELLED : `failed: ${e.message}`);
  }
}

// Tables: every table with its source, and the recorded interpretations of the
// chosen ruleset.
let interpretations = "";
function prose(markdown) {
  const out = el("div");
  let list = null;
  const inline = (text) => {
    const span = el("span");
    text.split(/(`[^`]*`)/).forEach((part) => span.append(part.startsWith("`") && part.endsWith("`") && part.length > 1 ? el("code", {}, part.slice(1, -1)) : part));
    return span;
  };
  let paragraph = [];
  const flush = () => { if (paragraph.length) out.append(el("p", {}, inline(paragraph.join(" ")))); paragraph = []; };
  for (const line of markdown.split("\n")) {
    const heading = line.match(/^(#{2,4}) (.*)/);
    const item = line.match(/^\s*[-*] (.*)/);
    if (heading) { flush(); list = null; out.append(el(`h${heading[1].length + 1}`, {}, inline(heading[2]))); }
    else if (item) { flush(); if (!list) { list = el("ul"); out.append(list); } list.append(el("li", {}, inline(item[1]))); }
    else if (line.trim() === "") { flush(); list = null; }
    else if (list && /^\s+/.test(line)) list.lastChild.append(" ", inline(line.trim()));
    else paragraph.push(line.trim());
  }
  flush();
  return out;
}
function showInterpretations(ruleset) {
  const name = ruleset.replace(/-/g, " ").toLowerCase();
  const sections = interpretations.split(/\n(?=## )/).filter((s) => {
    const title = s.split("\n")[0].toLowerCase();
    return title.startsWith(`## ${name}`) || title.startsWith("## engagements in every ruleset");
  });
  $("interpretations").replaceChildren(prose(sections.join("\n")));
}
async function showTables() {
  saveState();
  const ruleset = $("ruleset").value;
  const response = await fetch(`/api/tables/${encodeURIComponent(ruleset)}`);
  const body = await response.json();
  $("tables-error").textContent = response.ok ? "" : body.error;
  const list = $("tables-list");
  list.replaceChildren();
  showInterpretations(ruleset);
  if (!response.ok) return;
  showModifiers(ruleset);
  list.append(el("p", { class: "muted" }, `rules hash ${body.rules_hash}`));
  for (const t of body.tables) {
    const columns = t.rows.length ? Object.keys(t.rows[0]) : [];
    const table = el("table", {}, el("tr", {}, ...columns.map((c) => el("th", {}, c))));
    for (const row of t.rows) table.append(el("tr", {}, ...columns.map((c) => el("td", {}, row[c]))));
    list.append(el("h3", {}, t.file), el("p", { class: "muted" },
      `${t.seed}, "${t.table}"${t.rules ? ` [${t.rules}]` : ""}`), table);
  }
}

async function showModifiers(ruleset) {
  const response = await fetch(`/api/modifiers/${encodeURIComponent(ruleset)}`);
  if (!response.ok) return;
  const body = await response.json();
  const columns = ["chart", "name", "label", "value", "applied", "source"];
  const table = el("table", { id: "modifiers" }, el("tr", {}, ...columns.map((c) => el("th", {}, c))));
  for (const m of body.modifiers) table.append(el("tr", {}, ...columns.map((c) => el("td", {}, m[c]))));
  $("modifiers-list").replaceChildren(table);
}

function engagementsFirstOf(scenarios) {
  return scenarios.filter((s) => s.kind === "engagement").concat(scenarios.filter((s) => s.kind !== "engagement"));
}

function showPage(page) {
  current = page;
  for (const p of PAGES) { $(`tab-${p}`).setAttribute("aria-selected", p === page); $(p).hidden = p !== page; }
  saveState();
  if (page === "tables") showTables();
}

async function start() {
  // A link's state (anything after `#`) fills the forms; the work it describes waits
  // for a click, but for the exact answer.
  const linked = location.hash.length > 1;
  const [shipped, rulesets, w, notes] = await Promise.all([
    fetch("/api/scenarios").then((r) => r.json()), fetch("/api/rulesets").then((r) => r.json()),
    fetch("/api/words").then((r) => r.json()), fetch("/api/interpretations").then((r) => r.text())]);
  words = w;
  interpretations = notes;
  const scenarios = shipped.filter((s) => s.kind !== "compare" && s.kind !== "sweep");
  const sweeps = shipped.filter((s) => s.kind === "sweep");
  balanceScenarios = scenarios;
  $("sweep-shipped").append(el("option", { value: "" }, "(choose)"));
  for (const s of sweeps) $("sweep-shipped").append(el("option", { value: s.name }, s.name));
  $("sweep-shipped").addEventListener("change", () => {
    const s = sweeps.find((x) => x.name === $("sweep-shipped").value);
    if (s) $("sweep-text").value = s.text;
  });
  for (const s of engagementsFirstOf(scenarios)) $("balance-scenario").append(el("option", { value: s.name }, s.name));
  $("balance-scenario").addEventListener("change", balanceKeys);
  $("sweep-start").addEventListener("click", runSweep);
  $("balance-start").addEventListener("click", findBalance);
  const engagementsFirst = engagementsFirstOf(scenarios);
  fireEditor = editor("fire", scenarios, "cd_tank_duel.toml", compute);
  runEditor = editor("run", engagementsFirst, "cd_engagement_tank_duel.toml", saveState);
  const settingsOf = (prefix) => () => ({ trials: $(`${prefix}-trials`).value, seed: $(`${prefix}-seed`).value,
    ...($(`${prefix}-mode`) ? { mode: $(`${prefix}-mode`).value } : {}) });
  savers.fire = () => ({ ...settingsOf("fire")(), scenario: encode(fireEditor.text()) });
  savers.run = () => ({ ...settingsOf("run")(), scenario: encode(runEditor.text()) });
  savers.compare = () => ({ ...settingsOf("compare")(), comparison: encode(comparisonText()) });
  savers.tables = () => ({ ruleset: $("ruleset").value });
  savers.balance = () => {
    const out = { sweep: encode($("sweep-text").value) };
    for (const k of ["scenario", "vary", "values", "from", "to", "step", "target"]) if ($(`balance-${k}`).value !== "") out[k] = $(`balance-${k}`).value;
    return out;
  };
  for (const r of rulesets) $("ruleset").append(el("option", {}, r));
  $("ruleset").addEventListener("change", showTables);
  fillCompareForm();
  const comparisons = shipped.filter((s) => s.kind === "compare");
  $("compare-shipped").append(el("option", { value: "" }, "(choose)"));
  for (const s of comparisons) $("compare-shipped").append(el("option", { value: s.name }, s.name));
  $("compare-shipped").addEventListener("change", () => {
    const s = comparisons.find((x) => x.name === $("compare-shipped").value);
    if (s) runCompare(s.text);
  });
  $("compare-start").addEventListener("click", () => runCompare(comparisonText()));
  $("compare-download").addEventListener("click", () => download("comparison.toml", comparisonText(), "application/toml"));
  $("fire-compute").addEventListener("click", compute);
  $("sensitivity-start").addEventListener("click", findSensitivity);
  $("run-start").addEventListener("click", startRun);
  for (const p of PAGES) $(`tab-${p}`).addEventListener("click", () => showPage(p));

  const p = hashState();
  const page = PAGES.includes(p.get("page")) ? p.get("page") : "fire";
  for (const prefix of ["fire", "run", "compare"]) if (page === prefix)
    for (const k of ["trials", "seed", "mode"]) if (p.has(k) && $(`${prefix}-${k}`)) $(`${prefix}-${k}`).value = p.get(k);
  fireEditor.restore(p, page === "fire" ? "scenario" : "none");
  runEditor.restore(p, page === "run" ? "scenario" : "none");
  if (page === "tables" && p.has("ruleset")) $("ruleset").value = p.get("ruleset");
  if (page === "balance") {
    if (p.has("sweep")) $("sweep-text").value = decode(p.get("sweep"));
    for (const k of ["vary", "values", "from", "to", "step", "target", "scenario"]) if (p.has(k)) $(`balance-${k}`).value = p.get(k);
  }
  if (!$("sweep-text").value && sweeps.length) {
    const first = sweeps.find((x) => x.name === "sweep_mc_hmg_vs_rifle_sections.toml") || sweeps[0];
    $("sweep-shipped").value = first.name; $("sweep-text").value = first.text;
  }
  balanceKeys();
  showPage(page);
  if (page === "compare") {
    const shippedFirst = comparisons.find((s) => s.name === "compare_at_gun_vs_medium_tank.toml") || comparisons[0];
    if (!p.has("comparison")) $("compare-shipped").value = shippedFirst.name;
    const c = readComparison(p.has("comparison") ? decode(p.get("comparison")) : shippedFirst.text);
    if (c) setComparison(c);
    else $("compare-error").textContent = "the link's comparison is not one this page wrote: choose one, or set the form";
    $("compare-status").textContent = "press Compare to run it";
  }
  if (linked) computeExact(); else compute();
}

start();
