// The scenario editor's edits: a change in the form written into the file in place,
// with the names that follow it (model.js's `editFile`), and a rewrite of the whole
// file (a unit copied, a modifier added), after which the heading follows the form.
import { stringAt, valueAt, withHeading, editFile } from "./model.js";

// The range's unit, for the heading ("8 in."), as the form last read it.
const unitOf = (ed) => (ed.scale ? ed.scale[0] : "");

// Makes `edits` to editor `ed`'s file for the form's field `key`, and with them the
// names that follow; the form's other name boxes show the names now in the file, and
// the form is read again, kept on screen if the rules refuse.
export function edit(ed, edits, key) {
  const next = editFile(ed.text.value, ed.fields, edits, key, { typed: ed.typed, labels: ed.labels, unit: unitOf(ed) });
  ed.text.value = next.text;
  ed.fields = next.fields;
  for (const input of ed.form.querySelectorAll("[data-key]")) {
    const f = ed.fields.find((x) => x.key === input.dataset.key);
    if (f && f.kind === "name" && input.dataset.key !== key) input.value = stringAt(ed.text.value, f.start, f.end);
  }
  ed.refresh(true);
  ed.changed();
}

// A unit added or changed outside the form (`next`, the whole file): the heading
// follows once the form knows the file's new fields.
export async function rewrite(ed, next) {
  ed.text.value = next;
  await ed.refresh(false);
  const file = { text: ed.text.value, fields: ed.fields };
  const moved = withHeading(file, ed.typed, unitOf(ed));
  if (moved !== file) {
    ed.text.value = moved.text;
    ed.fields = moved.fields;
    const input = ed.form.querySelector('[data-key="name"]');
    if (input) input.value = valueAt(moved.text, moved.fields, "name");
  }
  ed.changed();
}
