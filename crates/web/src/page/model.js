// The form's model over a scenario file's text: values read and written in place, by
// the byte offsets the server gives. Pure: no DOM, so `node --test` checks it.

const utf8 = new TextEncoder();
const text8 = new TextDecoder();

// `text` with bytes `start..end` (offsets in its UTF-8, as the server counts them)
// replaced by `literal`.
export function splice(text, start, end, literal) {
  const bytes = utf8.encode(text);
  return text8.decode(bytes.slice(0, start)) + literal + text8.decode(bytes.slice(end));
}

// The string value at bytes `start..end` of `text`, quoted either way in TOML.
export function stringAt(text, start, end) {
  return JSON.parse(text8.decode(utf8.encode(text).slice(start, end)).replace(/^'|'$/g, '"'));
}

// The text of bytes `start..end` of `text`, as written (a number's digits).
export const rawAt = (text, start, end) => text8.decode(utf8.encode(text).slice(start, end));

// `text` with `key = value` under its [settings] table, which is added if missing.
export function withSetting(text, key, value) {
  const line = `${key} = ${JSON.stringify(value)}\n`;
  const header = text.match(/^\[settings\][ \t]*(#.*)?\r?\n/m);
  if (header) {
    const at = header.index + header[0].length;
    return text.slice(0, at) + line + text.slice(at);
  }
  return `${text.replace(/\n*$/, "\n")}\n[settings]\n${line}`;
}

// Containers of a key's path, in players' words.
const PARTS = {
  firer: "Firer",
  target: "Target",
  passengers: "passengers",
  side: "Side",
  unit: "unit",
  company: "company",
  engagement: "Engagement",
  hand: "Hand",
  settings: "Setting",
};
// Values whose key alone says too little.
const LEAVES = {
  min_range: "closest range",
  closing: "closing each turn",
  rof: "rate of fire",
  aspect: "facing",
  stands: "stands",
  count: "how many",
  name: "name",
};

// A form field's label from its key in the file: `firer[0].weapon` is "Firer 1:
// weapon", `side[1].unit[0].count` "Side 2, unit 1: how many", `range` "Range".
export function fieldLabel(key) {
  const parts = key.split(".");
  const leaf = parts.pop().replace(/\[(\d+)\]$/, (_, i) => ` ${Number(i) + 1}`);
  const leafWords = LEAVES[leaf] || leaf.replace(/_/g, " ");
  const within = parts.map((p) => {
    // A key of the file's own making (quoted, with any characters) is said as written.
    const m = p.match(/^(\w+?)(?:\[(\d+)\])?$/) || [p, p];
    const word = PARTS[m[1]] || m[1].replace(/_/g, " ");
    return m[2] === undefined ? word : `${word} ${Number(m[2]) + 1}`;
  });
  if (!within.length) return leafWords[0].toUpperCase() + leafWords.slice(1);
  const head = within.join(", ");
  return `${head[0].toUpperCase()}${head.slice(1)}: ${leafWords}`;
}

// A choice's label: its field, then what kind of choice it is where that says more
// ("Firer 1: quality (troop quality)", but "Phase", not "Phase (phase)").
export function choiceLabel(key, what) {
  const label = fieldLabel(key);
  return label.toLowerCase().includes(what.toLowerCase()) ? label : `${label} (${what})`;
}

// A catalogue label without the marker the page says in its own words.
export const plainLabel = (label) => label.replace(/\s*\(illustrative\)\s*$/i, "");

// Where a message of the rules (`page.toml:7:9: ...`) points in `text`: the byte
// offset of line 7, column 9, and the message's words without the place; null when
// the message names no place.
export function placeOf(message, text) {
  const m = placed(message);
  if (!m) return null;
  const lines = text.split("\n");
  const before = lines.slice(0, m.line - 1).join("\n") + (m.line > 1 ? "\n" : "");
  const column = [...(lines[m.line - 1] || "")].slice(0, m.column - 1).join("");
  return { offset: utf8.encode(before + column).length, words: m.words };
}

// A message of the rules split into its place (1-based line and column) and its
// words; null when it names no place.
function placed(message) {
  const m = message.match(/^[^:\s]+:(\d+):(\d+): ([\s\S]*)$/);
  return m && { line: Number(m[1]), column: Number(m[2]), words: m[3] };
}

// The comparison form's fields by the key of the line the page writes for each.
const COMPARISON_FIELDS = {
  name: "Name",
  weapons: "Weapons",
  target: "Target",
  quality: "Quality",
  situation: "Situation",
  ranges_m: "Ranges in metres",
  rulesets: "Rulesets",
};

// A refusal of the comparison the page wrote (`text`, one `key = value` a line) in
// the form's words: the field its line is, never the file's place ("page.toml:6:13").
export function comparisonRefusal(message, text) {
  const m = placed(message);
  if (!m) return refusal(message);
  const key = ((text.split("\n")[m.line - 1] || "").match(/^(\w+) =/) || [])[1];
  return { setting: null, words: COMPARISON_FIELDS[key] ? `${COMPARISON_FIELDS[key]}: ${m.words}` : m.words };
}

// The field (of `fields`, each with `start`, `end`) a byte offset falls on, or none.
export const fieldAt = (fields, offset) => fields.find((f) => f.start <= offset && offset <= f.end) || null;

// A rules message about a field, in the field's own words: "range -3 must be a
// distance in inches, 0 or more" about `range` is "Range must be a distance in
// inches, 0 or more".
export function explain(words, field) {
  const leaf = field.key
    .split(".")
    .pop()
    .replace(/\[\d+\]$/, "");
  const literally = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const said = new RegExp(`^\`?${literally(leaf)}\`?(\\s+\`?${literally(field.text || "")}\`?)?\\s+`);
  const label = fieldLabel(field.key);
  return said.test(words) ? `${label} ${words.replace(said, "")}` : `${label}: ${words}`;
}

// The settings every request carries, in the page's words.
const SETTINGS = {
  trials: ["Monte Carlo trials", "a whole number, 1 or more"],
  seed: ["Seed", "a whole number, 0 or more"],
  exact_seconds: ["The time the exact answer may take", "a number of seconds, more than 0"],
  top: ["How many to list", "a whole number, 1 or more"],
};

// What is wrong with a setting's text as the user typed it, or null when it is a
// value the server takes.
export function checkSetting(name, text) {
  const [label, rule] = SETTINGS[name];
  const t = String(text).trim();
  const n = Number(t);
  const whole = t !== "" && /^\d+$/.test(t) && Number.isSafeInteger(n);
  if (name === "seed" ? whole : whole && n >= 1) return null;
  if (t === "") return `${label}: give ${rule}`;
  return `${label} must be ${rule}, not ${t}`;
}

// What is wrong with a number field's text (`kind` integer or float), or null.
export function checkNumber(kind, text, key) {
  const t = String(text).trim();
  if (t === "") return `${fieldLabel(key)}: give a number`;
  if (!Number.isFinite(Number(t))) return `${fieldLabel(key)} must be a number, not ${t}`;
  if (kind === "integer" && !/^[+-]?\d+$/.test(t)) return `${fieldLabel(key)} must be a whole number, not ${t}`;
  return null;
}

// A refusal of the server in the page's words, and the setting it is about (null for
// the scenario itself): no field names of the request, no status codes.
export function refusal(message) {
  // The request layer's "or a smaller exact_seconds" reads as a shorter time.
  message = message.replace(/a smaller `?exact_seconds`?/g, "less time for the exact answer");
  // A value of the wrong type, as the request layer names it by its field.
  const body = message.match(/^(\w+): invalid (?:type|value|length): /);
  if (body && SETTINGS[body[1]]) {
    const [label, rule] = SETTINGS[body[1]];
    return { setting: body[1], words: `${label} must be ${rule}` };
  }
  const leading = message.match(/^(\w+)\b/);
  if (leading && SETTINGS[leading[1]]) {
    const [label] = SETTINGS[leading[1]];
    const words = message.slice(leading[1].length).replace(/`exact_seconds`|exact_seconds/g, "the exact answer's time");
    return { setting: leading[1], words: `${label}${words}` };
  }
  const words = message
    .replace(/`exact_seconds`|exact_seconds/g, "the exact answer's time")
    .replace(/the server answered (\d+)/, "the server could not answer (it said $1)");
  return { setting: null, words };
}

// `text` with every edit ({ start, end, literal }, byte offsets into `text`) made, and
// `fields` (each with `start`, `end`) moved to where their values now are.
export function applyEdits(text, fields, edits) {
  let out = text;
  const moved = fields.map((f) => ({ ...f }));
  for (const e of edits.slice().sort((a, b) => b.start - a.start)) {
    out = splice(out, e.start, e.end, e.literal);
    const delta = utf8.encode(e.literal).length - (e.end - e.start);
    for (const f of moved) {
      if (f.start === e.start) f.end += delta;
      else if (f.start >= e.end) {
        f.start += delta;
        f.end += delta;
      }
    }
  }
  return { text: out, fields: moved };
}

// A heading from the form's own values: who fires (or the first side's units), at
// whom (or the second side's), and the range, e.g. "Sherman platoon vs Panther G,
// 8 in."; null when the file has no such names. `value(key)` reads a field.
export function headingOf(keys, value, unit) {
  const names = (re) =>
    keys
      .filter((k) => re.test(k))
      .map(value)
      .filter((n) => n);
  const firing = names(/^(firer\[\d+\]|side\[0\]\.unit\[\d+\])\.name$/);
  const facing = names(/^(target|side\[1\]\.unit\[\d+\])\.name$/);
  if (!firing.length || !facing.length) return null;
  const rangeKey = keys.find((k) => k === "range" || k === "engagement.range");
  const range = rangeKey ? `, ${value(rangeKey)}${unit ? ` ${unit}` : ""}` : "";
  return `${firing.join(" and ")} vs ${facing.join(" and ")}${range}`;
}

// The file's units: each `[[firer]]`, `[target]`, `[[side.unit]]` (any table whose
// header names a firer, target or unit) with its header and where its lines run, in
// text order; `nth` counts them from 1 (a side's units within their side, `side`).
export function units(text) {
  const out = [];
  const headers = [...text.matchAll(/^[ \t]*(\[\[?)([\w.]+)\]\]?[ \t]*(#.*)?$/gm)];
  const seen = {};
  let side = 0;
  headers.forEach((h, i) => {
    const name = h[2];
    if (name === "side") {
      side += 1;
      seen[`${name}.unit`] = 0;
    }
    if (!/(^|\.)(firer|target|unit)$/.test(name)) return;
    seen[name] = (seen[name] || 0) + 1;
    const end = i + 1 < headers.length ? headers[i + 1].index : text.length;
    out.push({ name, nth: seen[name], side: name.startsWith("side.") ? side : null, array: h[1] === "[[", start: h.index, end });
  });
  return out;
}

// The words a player uses for a unit of `units`.
export function unitWords(u) {
  if (u.side !== null) return `Side ${u.side}, unit ${u.nth}`;
  const word = { firer: "Firer", target: "Target" }[u.name] || u.name.replace(/_/g, " ");
  return u.array ? `${word} ${u.nth}` : word;
}

// `text` with unit `u` (of `units`) copied just after itself, so a copy of a side's
// unit stays on that side; its name, if any, marked as the copy.
export function duplicate(text, u) {
  const body = text.slice(u.start, u.end).replace(/\s*$/, "");
  const copy = body.replace(/^(\s*name\s*=\s*")([^"]*)"/m, (_, head, name) => `${head}${name} (2)"`);
  const rest = text.slice(u.end).replace(/^\s*/, "");
  return `${text.slice(0, u.start)}${body}\n\n${copy}\n${rest ? `\n${rest}` : ""}`;
}

// `text` with `value` added to unit `u`'s list `key` (e.g. modifiers), which is
// written under its header if the unit has none.
export function addToList(text, u, key, value) {
  const block = text.slice(u.start, u.end);
  const line = new RegExp(`^([ \\t]*${key}[ \\t]*=[ \\t]*\\[)([^\\]]*)\\]`, "m");
  const m = block.match(line);
  const edited = m
    ? block.replace(
        line,
        (_, head, items) => `${head}${items.trim() ? `${items.replace(/\s*$/, "")}, ` : ""}${JSON.stringify(value)}]`,
      )
    : block.replace(
        /^([^\n]*\n?)/,
        (header) => `${header.endsWith("\n") ? header : `${header}\n`}${key} = [${JSON.stringify(value)}]\n`,
      );
  return text.slice(0, u.start) + edited + text.slice(u.end);
}

// Where the table at key path `path` (`firer[0]`, `target.passengers[1]`,
// `side[1].unit[0]`: an array of tables counted from 0 within its parent) has its own
// header in `text`: the header's start, where its line ends and where the table's
// lines end (the next header), as string indices; null when the text writes it
// otherwise (inline, or with dotted keys).
export function tableAt(text, path) {
  const headers = [...text.matchAll(/^[ \t]*(\[\[?)[ \t]*([\w.-]+)[ \t]*\]\]?[ \t]*(#.*)?$/gm)];
  // The array of tables each header name now stands for (`side` is `side[1]` after
  // the second [[side]]), and how many each array has so far.
  const current = {};
  const seen = {};
  for (const [i, h] of headers.entries()) {
    const parts = h[2].split(".");
    let at = "";
    parts.forEach((p, k) => {
      const name = parts.slice(0, k + 1).join(".");
      const within = at ? `${at}.${p}` : p;
      if (k === parts.length - 1 && h[1] === "[[") {
        seen[within] = (seen[within] || 0) + 1;
        at = current[name] = `${within}[${seen[within] - 1}]`;
      } else at = k < parts.length - 1 && current[name] ? current[name] : within;
    });
    if (at === path) {
      return { start: h.index, line: h.index + h[0].length, end: i + 1 < headers.length ? headers[i + 1].index : text.length };
    }
  }
  return null;
}

// The edit ({ start, end, literal }, byte offsets as `applyEdits` takes them) that
// writes `key = value` into the table at `path` of `text`: after its last key line,
// so comments and blank lines before the next table stay where they are, with the
// indent and line ends the file uses. Null when the table has no header of its own.
export function countEdit(text, path, key, value) {
  const table = tableAt(text, path);
  if (!table) return null;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.slice(table.line, table.end).split("\n");
  // The lines after the header, each with where it ends (past its newline).
  let offset = table.line;
  let after = null;
  let indent = "";
  lines.forEach((line, i) => {
    const end = offset + line.length + (i < lines.length - 1 ? 1 : 0);
    const body = line.trim();
    if (i > 0 && body && !body.startsWith("#")) {
      after = end;
      indent = line.match(/^[ \t]*/)[0];
    }
    offset = end;
  });
  // No key yet: just under the header.
  if (after === null) after = Math.min(text.length, table.line + 1);
  const before = text.slice(0, after);
  const literal = `${before.endsWith("\n") || before === "" ? "" : eol}${indent}${key} = ${value}${eol}`;
  const at = utf8.encode(before).length;
  return { start: at, end: at, literal };
}

// What the balance finder may vary in a scenario, from the form's offers (POST
// /api/form): each key with the form's own label for it, never its path. Numbers
// first, a unit's counts the file leaves out beside them (a designer asks "at what
// range", "how many"), then choices and settings; names are not varied. `kind` is
// the value's (integer, float, boolean), or "choice" with the catalogue's `what`, or
// "setting".
export function keysToVary(form) {
  const labelled = (key, kind, label = fieldLabel(key)) => ({ key, label, kind });
  return [
    ...form.values.filter((v) => v.kind !== "name").map((v) => labelled(v.key, v.kind)),
    ...(form.counts || []).map((c) => labelled(`${c.table}.${c.key}`, "integer")),
    ...form.choices.map((c) => ({ ...labelled(c.key, "choice", choiceLabel(c.key, c.what)), what: c.what })),
    ...form.settings.map((u) => labelled(`settings.${u.key}`, "setting")),
  ];
}

// A sentence of the balance finder (crates/report/src/sweep/balance.rs), which names
// the key varied by its path as the command line takes it, in the form's words: the
// path as the field's label, quoted, and the sentence begun with a capital.
export function balanceWords(sentence, key, label) {
  const said = key ? sentence.split(key).join(`“${label}”`) : sentence;
  return said && `${said[0].toUpperCase()}${said.slice(1)}`;
}

// A value the balance finder tried, in the form's words: a catalogue entry by its
// label (`labels`: the form's, per kind of entry), another name in words; numbers and
// booleans as written.
export function triedWords(value, what, labels) {
  if (typeof value !== "string") return JSON.stringify(value);
  const entry = what && labels?.[what]?.[value];
  return entry ? plainLabel(entry.label) : value.replace(/_/g, " ");
}

// The scenario editor's pure parts (editor.js and its modules hold the DOM): a
// field's value written and read in place, an edit with the names that follow it, a
// count checked and written, a refusal's place, and what is saved and run.

// A value typed into field `field` as the file writes it: names and catalogue entries
// quoted, numbers and booleans as typed.
export const literal = (field, typed) => (field.kind === "name" || field.what ? JSON.stringify(typed) : typed);

// Field `key`'s value (of `fields`, placed in `text`) as the file now holds it,
// strings unquoted. Null when there is no such field, or when its place is of an older
// text (the file edited by hand while the form still reads the last text the rules
// took): never a failure over the answer on screen.
export function valueAt(text, fields, key) {
  const f = fields.find((x) => x.key === key);
  if (!f) return null;
  try {
    return f.kind === "name" || f.what ? stringAt(text, f.start, f.end) : rawAt(text, f.start, f.end);
  } catch {
    return null;
  }
}

// `file` ({ text, fields }) with its heading (the field `name`) following the form's
// own names and range (`unit` the range's unit), unless the player wrote the heading
// (`typed` holds "name") or the file has none or the names give none.
export function withHeading(file, typed, unit) {
  const title = file.fields.find((f) => f.key === "name");
  if (!title || typed.has("name")) return file;
  const keys = file.fields.map((f) => f.key);
  const heading = headingOf(keys, (key) => valueAt(file.text, file.fields, key), unit);
  if (!heading) return file;
  return applyEdits(file.text, file.fields, [{ start: title.start, end: title.end, literal: JSON.stringify(heading) }]);
}

// A catalogue entry `id` of list `what` in the form's words: its label (`labels`: the
// form's, per kind of entry), else the id in words.
export function entryWords(labels, what, id) {
  const entry = labels[what]?.[id];
  return entry ? plainLabel(entry.label) : String(id).replace(/_/g, " ");
}

// The text and fields after `edits` to the form's field `key`, with the names that
// follow it: a unit given another weapon (when it has no vehicle) or vehicle takes
// the entry's name, unless the player named the unit (`typed` holds its name's key);
// the heading follows the form unless the player wrote it, or this edit is to it.
// `labels` are the form's, per kind of entry; `unit` the range's unit.
export function editFile(text, fields, edits, key, { typed, labels, unit }) {
  let next = applyEdits(text, fields, edits);
  const owner = key.replace(/\.(weapon|vehicle)$/, "");
  if (owner !== key && !typed.has(`${owner}.name`)) {
    const vehicle = key.endsWith(".vehicle");
    const own = next.fields.find((f) => f.key === `${owner}.name`);
    if (own && (vehicle || !next.fields.some((f) => f.key === `${owner}.vehicle`))) {
      const name = entryWords(labels, vehicle ? "vehicle" : "weapon", JSON.parse(edits[0].literal));
      next = applyEdits(next.text, next.fields, [{ start: own.start, end: own.end, literal: JSON.stringify(name) }]);
    }
  }
  return key === "name" ? next : withHeading(next, typed, unit);
}

// Whether field `key` is a distance the page also says in metres (a range, the
// closest range, a closing each turn).
export const isDistance = (key) =>
  key === "range" || key.endsWith(".range") || key.endsWith("min_range") || key.endsWith("closing");

// A distance typed in the scenario's `unit` (`metres` to one), said in metres too
// ("8 in. = 160 m"); empty while what is typed is not a number.
export function metresWords(typed, unit, metres) {
  const n = Number(typed);
  return Number.isFinite(n) && typed.trim() !== "" ? `${typed} ${unit} = ${Math.round(n * metres)} m` : "";
}

// A setting's reading `name` in words, the first (the rules' default) marked so.
export const readingWords = (name, i) => (i === 0 ? `${name.replace(/_/g, " ")} (default)` : name.replace(/_/g, " "));

// A unit's count the file leaves out (`count`: the form's { table, key, min, max }),
// typed as `typed`, as the edit that writes it into the unit's table of `text`
// ({ edit }), or what is wrong with it ({ wrong }).
export function countChange(text, count, typed) {
  const key = `${count.table}.${count.key}`;
  const words = fieldLabel(key);
  const t = typed.trim();
  const n = Number(t);
  const wrong =
    checkNumber("integer", t, key) ||
    (n < count.min || n > count.max ? `${words} must be from ${count.min} to ${count.max}, not ${t}` : null);
  if (wrong) return { wrong };
  const edit = countEdit(text, count.table, count.key, n);
  return edit ? { edit } : { wrong: `${words}: write ${count.key} = ${n} in this unit's table in the scenario file` };
}

// Where a refusal's words about the scenario (`words`, as `refusal` gives them) are
// said: beside the field of `fields` its place in `text` falls on (`key`, with the
// words in the field's own terms, `beside`), else in the editor's own line (`words`,
// with the file's line when it names one).
export function scenarioPlace(words, text, fields) {
  const at = placeOf(words, text);
  const field = at && fieldAt(fields, at.offset);
  return {
    key: field ? field.key : null,
    beside: field ? explain(at.words, { ...field, text: valueAt(text, fields, field.key) }) : null,
    words: at ? `In the scenario file, line ${words.split(":")[1]}: ${at.words}` : words,
  };
}

// The modifiers a scenario may name (of GET /api/modifiers, those `applied` by name),
// grouped by their chart in words, each with what its option says.
export function modifierGroups(modifiers) {
  const groups = new Map();
  for (const m of modifiers.filter((x) => x.applied === "named")) {
    if (!groups.has(m.chart)) groups.set(m.chart, { chart: m.chart.replace(/_/g, " "), modifiers: [] });
    groups.get(m.chart).modifiers.push({ name: m.name, words: `${m.label} (${m.value})` });
  }
  return [...groups.values()];
}

// The name the scenario is saved by: a shipped file (`picked`) as shipped keeps its
// name, an edited one is saved as the player's own, never by the name it came from.
export const savedName = (picked, edited) => (!picked ? "scenario.toml" : edited ? `my_${picked}` : picked);

// The command line that answers what is on screen: `combat-odds sub` on the shipped
// file (`picked`) while it is as shipped, else on the file as saved, with `flags`, and
// the player's own table files (`mine`: { name, file }) in a rules folder where they
// are read; `files` says what each file named is.
export function commandLine(sub, flags, { picked, edited, mine, ruleset }) {
  const file = edited ? savedName(picked, edited) : `experiments/${picked}`;
  const files = [
    edited ? `${file} is the scenario as on screen (Download scenario saves it)` : null,
    ...mine.map(
      (m) => `my_rules/${ruleset}/${m.name} is your ${m.file}${m.name === m.file ? " (Export the catalogue saves it)" : ""}`,
    ),
  ].filter((f) => f);
  return { line: `combat-odds ${sub} ${file}${flags ? ` ${flags}` : ""}${mine.length ? " --rules my_rules" : ""}`, files };
}

// The illustrative entries (invented data) the form's choices (`fields` in `text`)
// now name, by their labels.
export function inventedNames(text, fields, labels) {
  return fields
    .map((f) => f.what && labels[f.what]?.[valueAt(text, fields, f.key)])
    .filter((entry) => entry?.illustrative)
    .map((entry) => plainLabel(entry.label));
}
