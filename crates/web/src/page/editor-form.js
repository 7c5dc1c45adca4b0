// The scenario editor's form, drawn from the rules' offers (POST /api/form): a list
// for each choice the catalogue names, a box for each value, a unit's counts the file
// leaves out, and the settings at their defaults; each change becomes an edit of the
// file (editor-edits.js).
import { el } from "./dom.js";
import {
  checkNumber,
  choiceLabel,
  countChange,
  entryWords,
  fieldLabel,
  isDistance,
  literal,
  metresWords,
  readingWords,
  stringAt,
  withSetting,
} from "./model.js";
import { edit } from "./editor-edits.js";
import { fieldError, place, stale } from "./editor-refusals.js";
import { showTools } from "./editor-tools.js";

// Draws editor `ed`'s form from the rules' `offers`, then the catalogue's numbers
// beside each pick and any refusal the offers bring.
export function renderForm(ed, offers) {
  ed.form.replaceChildren();
  ed.errors.clear();
  for (const c of offers.choices) ed.form.append(choiceField(ed, c));
  for (const v of offers.values) ed.form.append(valueField(ed, v, offers.scale));
  // Units' counts the file leaves out (a platoon's stands), at the rules' default,
  // beside the unit's other fields: a change writes the key into the unit's table.
  for (const c of offers.counts || []) {
    const field = countField(ed, c);
    const own = [...ed.form.querySelectorAll("[data-key]")].filter((i) => i.dataset.key.startsWith(`${c.table}.`)).pop();
    if (own) own.closest("label").after(field);
    else ed.form.append(field);
  }
  // Settings this file leaves at their defaults: choosing another reading writes it
  // under [settings] (see the Tables page for what each reading means).
  for (const u of offers.settings) ed.form.append(settingField(ed, u));
  // The catalogue is read first: its message is redrawn with it, and a message about
  // the player's file this answer brings must not be cleared after it is placed
  // (a fire's answer that came first says the same, and is placed again here).
  ed.cat.refresh().then(() => {
    showStats(ed);
    if (offers.error) place(ed, offers.error);
  });
  showTools(ed);
}

// A field's label: its words, its input and what follows it, and the span its
// refusals are said in.
function labelled(ed, key, words, input, ...after) {
  const span = el("span", { class: "error field-error", role: "alert", "data-error-for": key });
  ed.errors.set(key, span);
  return el("label", {}, words, input, ...after, span);
}

// A choice of the catalogue's (a weapon, a vehicle, a quality): its entries by their
// labels, and the file's own value kept when the list lacks it.
function choiceField(ed, c) {
  const words = fieldLabel(c.key);
  const select = el("select", { "data-key": c.key, "aria-label": words });
  const current = stringAt(ed.text.value, c.start, c.end);
  if (!c.names.includes(current)) select.append(el("option", { value: current }, `${current} (not in the list)`));
  for (const n of c.names) select.append(el("option", { value: n, title: n }, entryWords(ed.labels, c.what, n)));
  select.value = current;
  select.addEventListener("change", () => {
    const now = ed.fields.find((x) => x.key === c.key);
    edit(ed, [{ start: now.start, end: now.end, literal: JSON.stringify(select.value) }], c.key);
  });
  return labelled(ed, c.key, choiceLabel(c.key, c.what), select);
}

// A value of the file: a box to tick, a name, or a number (checked before it is
// written; a distance also said in metres when the rules give the `scale`).
function valueField(ed, v, scale) {
  const words = fieldLabel(v.key);
  let input;
  if (v.kind === "boolean") {
    input = el("input", { type: "checkbox", "data-key": v.key, "aria-label": words });
    input.checked = v.text === "true";
  } else if (v.kind === "name") {
    const size = v.key === "name" ? 40 : 18;
    const value = stringAt(ed.text.value, v.start, v.end);
    input = el("input", { type: "text", value, "data-key": v.key, "aria-label": words, size });
  } else {
    const inputmode = v.kind === "float" ? "decimal" : "numeric";
    input = el("input", { type: "text", inputmode, value: v.text, "data-key": v.key, "aria-label": words, class: "number" });
  }
  const extra = [];
  if (scale && isDistance(v.key)) {
    const [unit, metres] = scale;
    const shown = el("span", { class: "metres" });
    const show = () => {
      shown.textContent = metresWords(input.value, unit, metres);
    };
    input.addEventListener("input", show);
    show();
    extra.push(shown);
  }
  input.addEventListener("change", () => {
    const now = ed.fields.find((x) => x.key === v.key);
    fieldError(ed, v.key, "");
    if (v.kind === "name") ed.typed.add(v.key);
    if (v.kind === "integer" || v.kind === "float") {
      const wrong = checkNumber(v.kind, input.value, v.key);
      // The file keeps its last good value: the user's text stays in the field.
      if (wrong) {
        fieldError(ed, v.key, wrong);
        stale(ed);
        return;
      }
    }
    const said = v.kind === "boolean" ? String(input.checked) : v.kind === "name" ? input.value : input.value.trim();
    edit(ed, [{ start: now.start, end: now.end, literal: literal(v, said) }], v.key);
  });
  return labelled(ed, v.key, words, input, ...extra);
}

// A unit's count the file leaves out, at the rules' default: a change writes it into
// the unit's table, or says why it cannot.
function countField(ed, c) {
  const key = `${c.table}.${c.key}`;
  const words = fieldLabel(key);
  const input = el("input", {
    type: "text",
    inputmode: "numeric",
    value: String(c.default),
    "data-key": key,
    "aria-label": words,
    class: "number",
  });
  input.addEventListener("change", () => {
    fieldError(ed, key, "");
    const change = countChange(ed.text.value, c, input.value);
    if (change.wrong) {
      fieldError(ed, key, change.wrong);
      stale(ed);
      return;
    }
    edit(ed, [change.edit], key);
  });
  return labelled(ed, key, words, input, el("span", { class: "default" }, " (the rules' default)"));
}

// A setting the file leaves at its default: another reading is written under
// [settings], and the form read again.
function settingField(ed, u) {
  const key = `settings.${u.key}`;
  const words = fieldLabel(key);
  const select = el("select", { "data-key": key, "aria-label": words });
  for (const [i, n] of u.names.entries()) select.append(el("option", { value: n }, readingWords(n, i)));
  select.addEventListener("change", () => {
    ed.text.value = withSetting(ed.text.value, u.key, select.value);
    ed.refresh(false);
    ed.changed();
  });
  return labelled(ed, key, words, select);
}

// Beside each weapon or vehicle picked, its numbers as the catalogue in use holds them.
function showStats(ed) {
  for (const select of ed.form.querySelectorAll("select[data-key]")) {
    const c = ed.fields.find((x) => x.key === select.dataset.key);
    const label = select.closest("label");
    label.querySelector(".stats")?.remove();
    const stats = c?.what ? ed.cat.stats(c.what, select.value) : null;
    if (stats) label.append(stats);
  }
}
