// A scenario editor: open a shipped scenario (listed by ruleset, by title) or one's
// own file, change its values in a form the rules themselves offer (POST /api/form),
// in the game's words and the catalogue's names, or edit the TOML directly. A value
// the rules refuse keeps the form and what the user typed, is explained beside its
// field, and marks the answer on screen as no longer the form's.
import { $, el, download } from "./dom.js";
import { get, post } from "./net.js";
import { decode } from "./url.js";
import { grouped, rulesetName, rulesetOf, words } from "./format.js";
import { catalogueBox } from "./catalogue.js";
import {
  applyEdits, stringAt, rawAt, withSetting, units, unitWords, duplicate, addToList, countEdit, fieldLabel, choiceLabel, plainLabel, placeOf, fieldAt, explain, refusal, checkNumber, headingOf,
} from "./model.js";

// The file's values as their places in the text: strings come quoted.
const literal = (field, text) => (field.kind === "name" || field.what ? JSON.stringify(text) : text);

export function editor(prefix, shipped, firstName, changed) {
  const pick = el("select", { id: `${prefix}-shipped` }, el("option", { value: "" }, "(choose)"));
  for (const g of grouped(shipped)) {
    const group = el("optgroup", { label: rulesetName(g.ruleset) });
    for (const s of g.items) group.append(el("option", { value: s.name, title: s.name }, `${s.title} (${words(s.kind)})`));
    pick.append(group);
  }
  const file = el("input", { id: `${prefix}-file`, type: "file", accept: ".toml" });
  const form = el("div", { id: `${prefix}-form`, class: "form" });
  // What the form cannot ask by changing a value: another unit like one there, and a
  // modifier the rules name.
  const unitPick = el("select", { id: `${prefix}-unit`, "aria-label": "Which unit" });
  const copy = el("button", { id: `${prefix}-copy`, type: "button" }, "Add another like it");
  const modifierPick = el("select", { id: `${prefix}-modifier`, "aria-label": "Which modifier" });
  const addModifier = el("button", { id: `${prefix}-add-modifier`, type: "button" }, "Add this modifier to it");
  const tools = el("div", { class: "row tools", id: `${prefix}-tools` },
    el("label", {}, "Unit ", unitPick), copy, el("label", {}, "Modifier ", modifierPick), addModifier);
  const text = el("textarea", { id: `${prefix}-scenario`, spellcheck: "false", "aria-label": "The scenario file" });
  const error = el("div", { id: `${prefix}-scenario-error`, class: "error", role: "alert" });
  const save = el("button", { id: `${prefix}-download` }, "Download scenario");
  // The player's own tables and the catalogue editor over them; the form is read
  // again when the catalogue's entries change, so its lists name them.
  const cat = catalogueBox(prefix, { ruleset: () => rulesetOf(text.value), changed: () => changed(), stale: () => stale(),
    offered: () => refreshForm(false) });
  const tables = cat.tables;

  $(`${prefix}-editor`).append(
    el("div", { class: "row" }, el("label", {}, "Open a shipped scenario ", pick),
      el("label", {}, "or a scenario file ", file), save),
    cat.element, form, tools, error,
    el("details", {}, el("summary", {}, "The scenario file (the TOML that combat-odds fire and run read)"), text));
  // A unit added or changed outside the form: the heading follows once the form knows
  // the file's new fields.
  const rewrite = async (next) => {
    text.value = next;
    await refreshForm(false);
    const title = fields.find((f) => f.key === "name");
    if (title && !typed.has("name")) {
      const heading = headingOf(fields.map((f) => f.key), value, scale ? scale[0] : "");
      if (heading) {
        const moved = applyEdits(text.value, fields, [{ start: title.start, end: title.end, literal: JSON.stringify(heading) }]);
        text.value = moved.text;
        fields = moved.fields;
        const input = form.querySelector('[data-key="name"]');
        if (input) input.value = heading;
      }
    }
    changed();
  };
  copy.addEventListener("click", () => {
    const u = units(text.value)[Number(unitPick.value)];
    if (u) rewrite(duplicate(text.value, u));
  });
  addModifier.addEventListener("click", () => {
    const u = units(text.value)[Number(unitPick.value)];
    if (u && modifierPick.value) rewrite(addToList(text.value, u, "modifiers", modifierPick.value));
  });
  // The modifiers a scenario may name, per ruleset (GET /api/modifiers).
  const named = new Map();
  const showTools = async () => {
    const list = units(text.value);
    unitPick.replaceChildren(...list.map((u, i) => el("option", { value: i }, unitWords(u))));
    tools.hidden = !list.length;
    const ruleset = rulesetOf(text.value);
    if (!ruleset) return;
    if (!named.has(ruleset)) {
      named.set(ruleset, get(`/api/modifiers/${encodeURIComponent(ruleset)}`).then((r) => (r.ok ? r.json() : { modifiers: [] }))
        .then((b) => b.modifiers.filter((m) => m.applied === "named")).catch(() => []));
    }
    const modifiers = await named.get(ruleset);
    const groups = new Map();
    for (const m of modifiers) {
      if (!groups.has(m.chart)) groups.set(m.chart, el("optgroup", { label: m.chart.replace(/_/g, " ") }));
      groups.get(m.chart).append(el("option", { value: m.name, title: m.name }, `${m.label} (${m.value})`));
    }
    modifierPick.replaceChildren(...groups.values());
  };

  // The form's fields ({ key, start, end, kind or what, ... }) and what the ruleset's
  // tables call their entries; the user's own names, kept when equipment changes.
  let fields = [], labels = {}, scale = null, formRequest = null;
  // The ruleset's own views of an answer (its screen's whole percentage), as the form
  // last read them.
  let views = [];
  const typed = new Set();
  const errors = new Map();

  // The form's request under way, for an answer that names what the form holds.
  let pending = Promise.resolve();
  const refreshForm = (keep) => (pending = askForm(keep));
  const askForm = async (keep) => {
    if (formRequest) formRequest.abort();
    formRequest = new AbortController();
    let answer;
    const signal = formRequest.signal;
    try { answer = await post("/api/form", { scenario: text.value, tables: tables() }, signal); } catch (e) { return; }
    if (!answer.ok) return;
    // A file of the player's own the rules refuse is said in the catalogue's box; the
    // form is read with the rules' own tables meanwhile, so it keeps every field.
    const theirs = answer.body.error;
    if (theirs && tables() && /^your /.test(theirs)) {
      try { answer = await post("/api/form", { scenario: text.value }, signal); } catch (e) { return; }
      if (!answer.ok) return;
      answer.body.error = theirs;
    }
    // A value the rules refuse stops their reading there: the offers past it would
    // vanish. Keep the form as it was (its places already moved with the edit).
    if (keep && answer.body.error && fields.length) return;
    fields = answer.body.choices.concat(answer.body.values);
    labels = answer.body.labels || {};
    views = answer.body.views || [];
    if (answer.body.scale) scale = answer.body.scale;
    renderForm(answer.body);
  };

  // A field's value as the file now holds it, strings unquoted.
  // A field whose place is of an older text (the file edited by hand while the form
  // still reads the last text the rules took) has no value here: null, never a failure
  // over the answer on screen.
  const read = (within, list, key) => {
    const f = list.find((x) => x.key === key);
    if (!f) return null;
    try {
      return f.kind === "name" || f.what ? stringAt(within, f.start, f.end) : rawAt(within, f.start, f.end);
    } catch (e) {
      return null;
    }
  };
  const value = (key) => read(text.value, fields, key);

  // Makes `edits` to the file, and with them the names that follow: a unit given other
  // equipment takes its name (unless the user named it), and the heading follows the
  // form (unless the user wrote it).
  const edit = (edits, changedKey) => {
    let next = applyEdits(text.value, fields, edits);
    const follow = [];
    const unit = changedKey.replace(/\.(weapon|vehicle)$/, "");
    if (unit !== changedKey && !typed.has(`${unit}.name`)) {
      const own = next.fields.find((f) => f.key === `${unit}.name`);
      const id = JSON.parse(edits[0].literal);
      const list = labels[changedKey.endsWith(".vehicle") ? "vehicle" : "weapon"] || {};
      if (own && (changedKey.endsWith(".vehicle") || !next.fields.some((f) => f.key === `${unit}.vehicle`)))
        follow.push({ start: own.start, end: own.end, literal: JSON.stringify(list[id] ? plainLabel(list[id].label) : words(id)) });
    }
    if (follow.length) next = applyEdits(next.text, next.fields, follow);
    const title = next.fields.find((f) => f.key === "name");
    if (title && !typed.has("name") && changedKey !== "name") {
      const heading = headingOf(next.fields.map((f) => f.key), (key) => read(next.text, next.fields, key), scale ? scale[0] : "");
      if (heading) next = applyEdits(next.text, next.fields, [{ start: title.start, end: title.end, literal: JSON.stringify(heading) }]);
    }
    text.value = next.text;
    fields = next.fields;
    for (const input of form.querySelectorAll("[data-key]")) {
      const f = fields.find((x) => x.key === input.dataset.key);
      if (f && f.kind === "name" && input.dataset.key !== changedKey) input.value = stringAt(text.value, f.start, f.end);
    }
    refreshForm(true);
    changed();
  };

  const fieldError = (key, message) => {
    const span = errors.get(key);
    if (span) span.textContent = message;
    return Boolean(span);
  };

  const renderForm = (f) => {
    form.replaceChildren();
    errors.clear();
    const labelled = (key, words, input, ...after) => {
      const span = el("span", { class: "error field-error", role: "alert", "data-error-for": key });
      errors.set(key, span);
      return el("label", {}, words, input, ...after, span);
    };
    for (const c of f.choices) {
      const words = fieldLabel(c.key);
      const select = el("select", { "data-key": c.key, "aria-label": words });
      const current = stringAt(text.value, c.start, c.end);
      const list = labels[c.what] || {};
      const name = (n) => (list[n] ? plainLabel(list[n].label) : n.replace(/_/g, " "));
      if (!c.names.includes(current)) select.append(el("option", { value: current }, `${current} (not in the list)`));
      for (const n of c.names) select.append(el("option", { value: n, title: n }, name(n)));
      select.value = current;
      select.addEventListener("change", () => {
        const now = fields.find((x) => x.key === c.key);
        edit([{ start: now.start, end: now.end, literal: JSON.stringify(select.value) }], c.key);
      });
      form.append(labelled(c.key, choiceLabel(c.key, c.what), select));
    }
    for (const v of f.values) {
      const words = fieldLabel(v.key);
      let input;
      if (v.kind === "boolean") {
        input = el("input", { type: "checkbox", "data-key": v.key, "aria-label": words });
        input.checked = v.text === "true";
      } else if (v.kind === "name") {
        input = el("input", { type: "text", value: stringAt(text.value, v.start, v.end), "data-key": v.key, "aria-label": words,
          size: v.key === "name" ? 40 : 18 });
      } else {
        input = el("input", { type: "text", inputmode: v.kind === "float" ? "decimal" : "numeric", value: v.text, "data-key": v.key,
          "aria-label": words, class: "number" });
      }
      const extra = [];
      const top = v.key === "range" || v.key.endsWith(".range") || v.key.endsWith("min_range") || v.key.endsWith("closing");
      if (f.scale && top) {
        const [unit, metres] = f.scale;
        const shown = el("span", { class: "metres" });
        const show = () => { shown.textContent = Number.isFinite(Number(input.value)) && input.value.trim() !== "" ? `${input.value} ${unit} = ${Math.round(Number(input.value) * metres)} m` : ""; };
        input.addEventListener("input", show);
        show();
        extra.push(shown);
      }
      input.addEventListener("change", () => {
        const now = fields.find((x) => x.key === v.key);
        fieldError(v.key, "");
        if (v.kind === "name") typed.add(v.key);
        if (v.kind === "integer" || v.kind === "float") {
          const wrong = checkNumber(v.kind, input.value, v.key);
          // The file keeps its last good value: the user's text stays in the field.
          if (wrong) { fieldError(v.key, wrong); stale(); return; }
        }
        const said = v.kind === "boolean" ? String(input.checked) : v.kind === "name" ? input.value : input.value.trim();
        edit([{ start: now.start, end: now.end, literal: literal(v, said) }], v.key);
      });
      form.append(labelled(v.key, words, input, ...extra));
    }
    // Units' counts the file leaves out (a platoon's stands), at the rules' default,
    // beside the unit's other fields: a change writes the key into the unit's table.
    for (const c of f.counts || []) {
      const key = `${c.table}.${c.key}`;
      const words = fieldLabel(key);
      const input = el("input", { type: "text", inputmode: "numeric", value: String(c.default), "data-key": key,
        "aria-label": words, class: "number" });
      input.addEventListener("change", () => {
        fieldError(key, "");
        const t = input.value.trim();
        const wrong = checkNumber("integer", t, key)
          || (Number(t) < c.min || Number(t) > c.max ? `${words} must be from ${c.min} to ${c.max}, not ${t}` : null);
        if (wrong) { fieldError(key, wrong); stale(); return; }
        const insert = countEdit(text.value, c.table, c.key, Number(t));
        if (!insert) {
          fieldError(key, `${words}: write ${c.key} = ${Number(t)} in this unit's table in the scenario file`);
          stale();
          return;
        }
        edit([insert], key);
      });
      const field = labelled(key, words, input, el("span", { class: "default" }, " (the rules' default)"));
      const own = [...form.querySelectorAll("[data-key]")].filter((i) => i.dataset.key.startsWith(`${c.table}.`)).pop();
      if (own) own.closest("label").after(field); else form.append(field);
    }
    // Settings this file leaves at their defaults: choosing another reading writes it
    // under [settings] (see the Tables page for what each reading means).
    for (const u of f.settings) {
      const words = fieldLabel(`settings.${u.key}`);
      const select = el("select", { "data-key": `settings.${u.key}`, "aria-label": words });
      u.names.forEach((n, i) => select.append(el("option", { value: n }, i === 0 ? `${n.replace(/_/g, " ")} (default)` : n.replace(/_/g, " "))));
      select.addEventListener("change", () => { text.value = withSetting(text.value, u.key, select.value); refreshForm(false); changed(); });
      form.append(labelled(`settings.${u.key}`, words, select));
    }
    // The catalogue is read first: its message is redrawn with it, and a message about
    // the player's file this answer brings must not be cleared after it is placed
    // (a fire's answer that came first says the same, and is placed again here).
    cat.refresh().then(() => {
      showStats();
      if (f.error) place(f.error);
    });
    showTools();
  };

  // Beside each weapon or vehicle picked, its numbers as the catalogue in use holds them.
  const showStats = () => {
    for (const select of form.querySelectorAll("select[data-key]")) {
      const c = fields.find((x) => x.key === select.dataset.key);
      const label = select.closest("label");
      label.querySelector(".stats")?.remove();
      const stats = c && c.what ? cat.stats(c.what, select.value) : null;
      if (stats) label.append(stats);
    }
  };

  // Marks the answer on screen as one for other inputs.
  const stale = () => {
    const result = $(`${prefix}-result`);
    if (!result || !result.children.length || result.classList.contains("stale")) return;
    result.classList.add("stale");
    result.prepend(el("p", { id: `${prefix}-stale`, class: "stale-note", role: "status" },
      "This answer is for the inputs before your last change: it no longer matches the form."));
  };

  // Puts a message of the rules or the server beside what it is about, in the page's
  // words; true when it was about the scenario (not a setting).
  const place = (message) => {
    const r = refusal(message);
    // About the player's own table file: said in the catalogue's box, by its own name and line.
    if (cat.place(r.words)) return true;
    if (r.setting) {
      const beside = $(`${prefix}-${r.setting}-error`);
      (beside || error).textContent = r.words;
      return false;
    }
    const at = placeOf(r.words, text.value);
    const field = at && fieldAt(fields, at.offset);
    if (field && fieldError(field.key, explain(at.words, { ...field, text: value(field.key) }))) return true;
    error.textContent = at ? `In the scenario file, line ${r.words.split(":")[1]}: ${at.words}` : r.words;
    return true;
  };

  const open = (t) => { text.value = t; fields = []; typed.clear(); refreshForm(false); changed(); };
  pick.addEventListener("change", () => {
    const s = shipped.find((x) => x.name === pick.value);
    if (s) open(s.text);
  });
  file.addEventListener("change", async () => { if (file.files[0]) open(await file.files[0].text()); });
  text.addEventListener("change", () => { refreshForm(false); changed(); });
  // Whether the file in hand is no longer a shipped one as shipped, and the name it is
  // saved by: an edited shipped file is saved as the player's own, never by the name of
  // the file it came from.
  const edited = () => text.value !== shipped.find((s) => s.name === pick.value)?.text;
  const savedName = () => (!pick.value ? "scenario.toml" : edited() ? `my_${pick.value}` : pick.value);
  save.addEventListener("click", () => download(savedName(), text.value, "application/toml"));
  return {
    text: () => text.value,
    tables,
    // What a link adds for the scenario: the player's own tables, packed.
    link: () => cat.link(),
    // Settles once a link's own tables (if it carries any) are the player's.
    restore: async (p, key) => {
      if (key !== "none" && p.has("tables")) await cat.restore(p.get("tables"));
      if (p.has(key)) { text.value = decode(p.get(key)); refreshForm(false); return true; }
      const first = shipped.find((s) => s.name === firstName) || shipped[0];
      pick.value = first.name; text.value = first.text; refreshForm(false);
      return false;
    },
    place,
    stale,
    // Settles when the form has fields (at once after the first: a change moves the
    // fields with it, so an answer need not wait for the form's next reading).
    ready: () => (fields.length ? Promise.resolve() : pending),
    // The ruleset's own views, once the form has read the file now in hand.
    views: async () => { await pending; return views; },
    // A fresh answer: no message stands, nothing is stale.
    fresh: () => {
      error.textContent = "";
      for (const span of errors.values()) span.textContent = "";
      const result = $(`${prefix}-result`);
      if (result) result.classList.remove("stale");
    },
    // The command line that answers what is on screen (`sub` with `flags`): the shipped
    // file while it is as shipped, else the file as Download scenario saves it, and the
    // player's own table file in a rules folder where it is read; `files` says what
    // each file named is.
    command: (sub, flags) => {
      const file = edited() ? savedName() : `experiments/${pick.value}`;
      const mine = cat.files();
      const ruleset = rulesetOf(text.value);
      const files = [edited() ? `${file} is the scenario as on screen (Download scenario saves it)` : null,
        ...mine.map((m) => `my_rules/${ruleset}/${m.name} is your ${m.file}${m.name === m.file ? " (Export the catalogue saves it)" : ""}`)]
        .filter((f) => f);
      return { line: `combat-odds ${sub} ${file}${flags ? ` ${flags}` : ""}${mine.length ? " --rules my_rules" : ""}`, files };
    },
    // The illustrative entries (invented data) the form's choices now name.
    invented: () => fields.filter((f) => f.what && labels[f.what]?.[value(f.key)]?.illustrative)
      .map((f) => plainLabel(labels[f.what][value(f.key)].label)),
  };
}
