// A scenario editor: open a shipped scenario (listed by ruleset, by title) or one's
// own file, change its values in a form the rules themselves offer (POST /api/form),
// in the game's words and the catalogue's names, or edit the TOML directly. A value
// the rules refuse keeps the form and what the user typed, is explained beside its
// field, and marks the answer on screen as no longer the form's.
//
// This module lays the editor out, holds its state and reads the form; the form's
// fields are drawn by editor-form.js, the edits made by editor-edits.js, refusals
// placed by editor-refusals.js, and the unit and modifier tools are editor-tools.js.
// What needs no DOM is in model.js, under Node's tests.
import { $, el, download } from "./dom.js";
import { post } from "./net.js";
import { decode } from "./url.js";
import { grouped, rulesetName, rulesetOf, words } from "./format.js";
import { catalogueBox } from "./catalogue.js";
import { commandLine, inventedNames, savedName } from "./model.js";
import { renderForm } from "./editor-form.js";
import { fresh, place, stale } from "./editor-refusals.js";
import { toolsRow, wireTools } from "./editor-tools.js";

// The editor of tab `prefix` (its elements' ids begin with it) over the `shipped`
// scenarios, `firstName` open when a link names none; `changed()` asks for a new
// answer. Returns what the tab asks of it.
export function editor(prefix, shipped, firstName, changed) {
  const ed = state(prefix, shipped, firstName, changed);
  Object.assign(ed, layout(prefix, shipped));
  // The player's own tables and the catalogue editor over them; the form is read
  // again when the catalogue's entries change, so its lists name them.
  ed.cat = catalogueBox(prefix, {
    ruleset: () => rulesetOf(ed.text.value),
    changed: () => changed(),
    stale: () => stale(ed),
    offered: () => ed.refresh(false),
  });
  $(`${prefix}-editor`).append(
    el(
      "div",
      { class: "row" },
      el("label", {}, "Open a shipped scenario ", ed.pick),
      el("label", {}, "or a scenario file ", ed.file),
      ed.save,
    ),
    ed.cat.element,
    ed.form,
    ed.tools,
    ed.error,
    el("details", {}, el("summary", {}, "The scenario file (the TOML that combat-odds fire and run read)"), ed.text),
  );
  wireTools(ed);
  wireFile(ed);
  return api(ed);
}

// The editor's state: what it was made with, and the form as it last read the file.
function state(prefix, shipped, firstName, changed) {
  return {
    prefix,
    shipped,
    firstName,
    changed,
    // The form's fields ({ key, start, end, kind or what, ... }) and what the
    // ruleset's tables call their entries; the range's unit and metres to one.
    fields: [],
    labels: {},
    scale: null,
    // The ruleset's own views of an answer (its screen's whole percentage), as the
    // form last read them.
    views: [],
    // The user's own names (field keys), kept when equipment changes.
    typed: new Set(),
    // Each field's message span, by key.
    errors: new Map(),
    // The form's request under way (to abort), and its reading as a promise, for an
    // answer that names what the form holds.
    formRequest: null,
    pending: Promise.resolve(),
    // The modifiers a scenario may name, by chart, per ruleset (GET /api/modifiers).
    named: new Map(),
    // Reads the form again; `keep` keeps the form on screen when the rules refuse.
    refresh(keep) {
      this.pending = readForm(this, keep);
      return this.pending;
    },
  };
}

// The editor's elements: the shipped scenarios by ruleset, a file to open, the form,
// the unit tools, the message line, the file's text and its download.
function layout(prefix, shipped) {
  const pick = el("select", { id: `${prefix}-shipped` }, el("option", { value: "" }, "(choose)"));
  for (const g of grouped(shipped)) {
    const group = el("optgroup", { label: rulesetName(g.ruleset) });
    for (const s of g.items) group.append(el("option", { value: s.name, title: s.name }, `${s.title} (${words(s.kind)})`));
    pick.append(group);
  }
  return {
    pick,
    file: el("input", { id: `${prefix}-file`, type: "file", accept: ".toml" }),
    form: el("div", { id: `${prefix}-form`, class: "form" }),
    ...toolsRow(prefix),
    text: el("textarea", { id: `${prefix}-scenario`, spellcheck: "false", "aria-label": "The scenario file" }),
    error: el("div", { id: `${prefix}-scenario-error`, class: "error", role: "alert" }),
    save: el("button", { id: `${prefix}-download` }, "Download scenario"),
  };
}

// Asks the rules for the form over the file in hand (POST /api/form) and draws it.
async function readForm(ed, keep) {
  if (ed.formRequest) ed.formRequest.abort();
  ed.formRequest = new AbortController();
  const signal = ed.formRequest.signal;
  const tables = ed.cat.tables();
  let answer;
  try {
    answer = await post("/api/form", { scenario: ed.text.value, tables }, signal);
  } catch {
    return;
  }
  if (!answer.ok) return;
  // A file of the player's own the rules refuse is said in the catalogue's box; the
  // form is read with the rules' own tables meanwhile, so it keeps every field.
  const theirs = answer.body.error;
  if (theirs && tables && /^your /.test(theirs)) {
    try {
      answer = await post("/api/form", { scenario: ed.text.value }, signal);
    } catch {
      return;
    }
    if (!answer.ok) return;
    answer.body.error = theirs;
  }
  // A value the rules refuse stops their reading there: the offers past it would
  // vanish. Keep the form as it was (its places already moved with the edit).
  if (keep && answer.body.error && ed.fields.length) return;
  ed.fields = answer.body.choices.concat(answer.body.values);
  ed.labels = answer.body.labels || {};
  ed.views = answer.body.views || [];
  if (answer.body.scale) ed.scale = answer.body.scale;
  renderForm(ed, answer.body);
}

// Whether the file in hand is no longer a shipped one as shipped.
const edited = (ed) => ed.text.value !== ed.shipped.find((s) => s.name === ed.pick.value)?.text;

// A new file in the editor: the form read anew, the player's names forgotten.
function open(ed, text) {
  ed.text.value = text;
  ed.fields = [];
  ed.typed.clear();
  ed.refresh(false);
  ed.changed();
}

// The shipped pick, the file to open, the text edited by hand, and the download.
function wireFile(ed) {
  ed.pick.addEventListener("change", () => {
    const s = ed.shipped.find((x) => x.name === ed.pick.value);
    if (s) open(ed, s.text);
  });
  ed.file.addEventListener("change", async () => {
    if (ed.file.files[0]) open(ed, await ed.file.files[0].text());
  });
  ed.text.addEventListener("change", () => {
    ed.refresh(false);
    ed.changed();
  });
  ed.save.addEventListener("click", () => download(savedName(ed.pick.value, edited(ed)), ed.text.value, "application/toml"));
}

// Fills the editor from a link's settings `p` (its scenario under `key`, or "none"):
// the link's own tables (if it carries any) become the player's first. True when the
// link carried the scenario; else the editor opens its first file.
async function restore(ed, p, key) {
  if (key !== "none" && p.has("tables")) await ed.cat.restore(p.get("tables"));
  if (p.has(key)) {
    ed.text.value = decode(p.get(key));
    ed.refresh(false);
    return true;
  }
  const first = ed.shipped.find((s) => s.name === ed.firstName) || ed.shipped[0];
  ed.pick.value = first.name;
  ed.text.value = first.text;
  ed.refresh(false);
  return false;
}

// What a tab asks of its editor.
function api(ed) {
  return {
    text: () => ed.text.value,
    tables: () => ed.cat.tables(),
    // What a link adds for the scenario: the player's own tables, packed.
    link: () => ed.cat.link(),
    // Settles once a link's own tables (if it carries any) are the player's.
    restore: (p, key) => restore(ed, p, key),
    place: (message) => place(ed, message),
    stale: () => stale(ed),
    // Settles when the form has fields (at once after the first: a change moves the
    // fields with it, so an answer need not wait for the form's next reading).
    ready: () => (ed.fields.length ? Promise.resolve() : ed.pending),
    // The ruleset's own views, once the form has read the file now in hand.
    views: async () => {
      await ed.pending;
      return ed.views;
    },
    fresh: () => fresh(ed),
    // The command line that answers what is on screen (`sub` with `flags`).
    command: (sub, flags) =>
      commandLine(sub, flags, {
        picked: ed.pick.value,
        edited: edited(ed),
        mine: ed.cat.files(),
        ruleset: rulesetOf(ed.text.value),
      }),
    // The illustrative entries (invented data) the form's choices now name.
    invented: () => inventedNames(ed.text.value, ed.fields, ed.labels),
  };
}
