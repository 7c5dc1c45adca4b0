// What the scenario editor's form cannot ask by changing a value: another unit like
// one there, and a modifier the rules name (GET /api/modifiers) added to a unit.
import { el } from "./dom.js";
import { get } from "./net.js";
import { rulesetOf } from "./format.js";
import { addToList, duplicate, modifierGroups, units, unitWords } from "./model.js";
import { rewrite } from "./editor-edits.js";

// The tools' elements for editor `prefix`: the unit and modifier picks, their
// buttons, and the row that holds them (`tools`).
export function toolsRow(prefix) {
  const unitPick = el("select", { id: `${prefix}-unit`, "aria-label": "Which unit" });
  const copy = el("button", { id: `${prefix}-copy`, type: "button" }, "Add another like it");
  const modifierPick = el("select", { id: `${prefix}-modifier`, "aria-label": "Which modifier" });
  const addModifier = el("button", { id: `${prefix}-add-modifier`, type: "button" }, "Add this modifier to it");
  const tools = el(
    "div",
    { class: "row tools", id: `${prefix}-tools` },
    el("label", {}, "Unit ", unitPick),
    copy,
    el("label", {}, "Modifier ", modifierPick),
    addModifier,
  );
  return { unitPick, copy, modifierPick, addModifier, tools };
}

// The buttons of editor `ed`'s tools: each rewrites the file for the unit picked.
export function wireTools(ed) {
  const picked = () => units(ed.text.value)[Number(ed.unitPick.value)];
  ed.copy.addEventListener("click", () => {
    const u = picked();
    if (u) rewrite(ed, duplicate(ed.text.value, u));
  });
  ed.addModifier.addEventListener("click", () => {
    const u = picked();
    if (u && ed.modifierPick.value) rewrite(ed, addToList(ed.text.value, u, "modifiers", ed.modifierPick.value));
  });
}

// The modifiers ruleset `ruleset` lets a scenario name, by chart, asked once per
// editor; none when the server cannot say.
function modifiersOf(ed, ruleset) {
  if (!ed.named.has(ruleset)) {
    const asked = get(`/api/modifiers/${encodeURIComponent(ruleset)}`)
      .then((r) => (r.ok ? r.json() : { modifiers: [] }))
      .then((b) => modifierGroups(b.modifiers))
      .catch(() => []);
    ed.named.set(ruleset, asked);
  }
  return ed.named.get(ruleset);
}

// Fills the tools for the file in hand: its units, and its ruleset's modifiers by chart.
export async function showTools(ed) {
  const list = units(ed.text.value);
  ed.unitPick.replaceChildren(...list.map((u, i) => el("option", { value: i }, unitWords(u))));
  ed.tools.hidden = !list.length;
  const ruleset = rulesetOf(ed.text.value);
  if (!ruleset) return;
  const groups = await modifiersOf(ed, ruleset);
  ed.modifierPick.replaceChildren(
    ...groups.map((g) =>
      el("optgroup", { label: g.chart }, ...g.modifiers.map((m) => el("option", { value: m.name, title: m.name }, m.words))),
    ),
  );
}
