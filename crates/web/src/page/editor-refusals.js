// Where the scenario editor says what is wrong: a refusal of the rules or the server
// beside the field it is about, in the page's words (a setting's beside the setting,
// the player's own table file's in the catalogue's box); and the answer on screen
// marked as one for other inputs until a fresh one comes.
import { $, el } from "./dom.js";
import { refusal, scenarioPlace } from "./model.js";

// Says `message` beside field `key` of editor `ed`'s form (empty clears it): false
// when the form has no such field.
export function fieldError(ed, key, message) {
  const span = ed.errors.get(key);
  if (span) span.textContent = message;
  return Boolean(span);
}

// Marks the answer on screen as one for other inputs.
export function stale(ed) {
  const result = $(`${ed.prefix}-result`);
  if (!result?.children.length || result.classList.contains("stale")) return;
  result.classList.add("stale");
  result.prepend(
    el(
      "p",
      { id: `${ed.prefix}-stale`, class: "stale-note", role: "status" },
      "This answer is for the inputs before your last change: it no longer matches the form.",
    ),
  );
}

// Puts a message of the rules or the server beside what it is about, in the page's
// words; true when it was about the scenario (not a setting).
export function place(ed, message) {
  const r = refusal(message);
  // About the player's own table file: said in the catalogue's box, by its own name and line.
  if (ed.cat.place(r.words)) return true;
  if (r.setting) {
    const beside = $(`${ed.prefix}-${r.setting}-error`);
    (beside || ed.error).textContent = r.words;
    return false;
  }
  const at = scenarioPlace(r.words, ed.text.value, ed.fields);
  if (at.key && fieldError(ed, at.key, at.beside)) return true;
  ed.error.textContent = at.words;
  return true;
}

// A fresh answer: no message stands, nothing is stale.
export function fresh(ed) {
  ed.error.textContent = "";
  for (const span of ed.errors.values()) span.textContent = "";
  $(`${ed.prefix}-result`)?.classList.remove("stale");
}
