// The player's own tables, and the catalogue editor over them: a ruleset's weapons and
// vehicles in the rules' words (POST /api/catalogue), changed or copied field by field,
// each change read by the same loader as `--rules DIR`, kept in this browser across
// visits (shared by every tab), exported as the file `--rules DIR` reads, imported
// from it, and carried by a share link.
import { el, download } from "./dom.js";
import { get, post } from "./net.js";
import { rulesetName } from "./format.js";
import { pack, unpack } from "./url.js";

// Kept in localStorage: { ruleset: { file the rules name: { file: the player's file
// name, text } } }. The slot "before" holds what a link or "use the rules' own"
// replaced, so nothing of the player's is lost without a way back.
const KEPT = "combat-odds-own-tables";
const BEFORE = "combat-odds-own-tables-before";
const read = (key) => {
  try {
    return JSON.parse(localStorage.getItem(key)) || {};
  } catch {
    return {};
  }
};
const write = (key, value) => localStorage.setItem(key, JSON.stringify(value));

// Writes `files` as the whole of `ruleset`'s (none: forgotten) and tells every editor.
function store(ruleset, files) {
  const all = read(KEPT);
  if (Object.keys(files).length) all[ruleset] = files;
  else delete all[ruleset];
  write(KEPT, all);
  for (const heard of listeners) heard(ruleset);
}

export const own = {
  // The player's files for `ruleset`, by the rules' file each replaces ({} for none).
  of: (ruleset) => read(KEPT)[ruleset] || {},
  // Sets (or, with null, forgets) the player's file `name` of `ruleset`.
  set(ruleset, name, file) {
    const mine = { ...own.of(ruleset) };
    if (file) mine[name] = file;
    else delete mine[name];
    store(ruleset, mine);
  },
  // Replaces the whole of `ruleset`'s files, keeping what they replace in "before"
  // when it is something else.
  replace(ruleset, files) {
    const was = own.of(ruleset);
    if (Object.keys(was).length && JSON.stringify(was) !== JSON.stringify(files))
      write(BEFORE, { ...read(BEFORE), [ruleset]: was });
    store(ruleset, files);
  },
  // What "before" holds for `ruleset`, if anything.
  before: (ruleset) => read(BEFORE)[ruleset] || null,
  // Brings "before" back for `ruleset`, and forgets it there.
  bringBack(ruleset) {
    const was = own.before(ruleset);
    if (!was) return;
    const all = read(BEFORE);
    delete all[ruleset];
    write(BEFORE, all);
    own.replace(ruleset, was);
  },
};
// Every editor hears a change any of them makes (Fire's and Engagement's share one
// catalogue per ruleset).
const listeners = new Set();

// The catalogue box of editor `prefix`: `ruleset()` names the scenario's ruleset;
// `changed()` asks for a new answer; `stale()` marks the answer on screen as not the
// form's; `offered()` has the scenario's form read again (its lists name the
// catalogue's entries).
export function catalogueBox(prefix, { ruleset, changed, stale, offered }) {
  const id = (part) => `${prefix}-catalogue-${part}`;
  const entryPick = el("select", { id: id("entry"), "aria-label": "Which weapon or vehicle" });
  const copy = el("button", { id: id("copy"), type: "button" }, "Add one like it");
  const save = el("button", { id: id("export"), type: "button" }, "Export the catalogue");
  const importFile = el("input", { id: id("import"), type: "file", accept: ".toml" });
  const importName = el("select", { id: id("import-name"), "aria-label": "Which of the rules' files it replaces" });
  const forget = el("button", { id: id("forget"), type: "button" }, "Use the rules' own");
  const bringBack = el("button", { id: id("bring-back"), type: "button" }, "Bring back your earlier tables");
  const status = el("p", { id: id("status"), role: "status", class: "muted" });
  const fields = el("div", { id: id("fields"), class: "form" });
  const error = el("div", { id: id("error"), class: "error", role: "alert" });
  const heading = el("summary", { id: id("summary") }, "Weapons and vehicles (the catalogue)");
  const box = el(
    "details",
    { id: id("box"), class: "catalogue" },
    heading,
    el(
      "p",
      { class: "muted" },
      "Change any number of a weapon or vehicle, or add one like it: the answer follows, and your entries are kept in this browser, exported as the file combat-odds --rules reads, and carried by Share links.",
    ),
    el("div", { class: "row" }, el("label", {}, "Entry ", entryPick), copy, save, forget, bringBack),
    fields,
    error,
    status,
    el("div", { class: "row" }, el("label", {}, "Import a table file ", importFile), el("label", {}, "in place of ", importName)),
  );

  // The catalogue as the engine last read it ({ ruleset, file, title, text, yours,
  // entries, error }), and the entry shown.
  let form = null,
    shown = "",
    shippedTitle = "";
  const mine = () => (form ? own.of(form.ruleset)[form.file] : null);

  const ask = async (body) => {
    const answer = await post("/api/catalogue", body).catch(() => null);
    return answer?.ok ? answer.body : { refused: answer ? answer.body.error : "the catalogue could not be read" };
  };

  const label = (e) => `${e.label}${e.own ? " (yours)" : e.invented ? " (invented)" : ""}`;
  const render = () => {
    const groups = new Map();
    for (const e of form.entries) {
      const words = { weapon: "Weapons", vehicle: "Vehicles" }[e.list] || e.list;
      if (!groups.has(words)) groups.set(words, el("optgroup", { label: words }));
      groups.get(words).append(el("option", { value: `${e.list}.${e.id}` }, label(e)));
    }
    entryPick.replaceChildren(...groups.values());
    if (!form.entries.some((e) => `${e.list}.${e.id}` === shown))
      shown = form.entries.length ? `${form.entries[0].list}.${form.entries[0].id}` : "";
    entryPick.value = shown;
    const yours = form.entries.filter((e) => e.own).length;
    heading.textContent = `Weapons and vehicles (the catalogue${yours ? `: ${yours} of yours` : ""})`;
    const file = mine();
    forget.hidden = !file;
    bringBack.hidden = !own.before(form.ruleset);
    status.textContent = file
      ? `Your ${file.file} is read in place of ${shippedTitle} (${rulesetName(form.ruleset)}). Export it and put it in my_rules/${form.ruleset}/${form.file} to run the same numbers with combat-odds --rules my_rules.`
      : `The rules' own ${shippedTitle} (${rulesetName(form.ruleset)}) is read.`;
    showFields();
    if (form.error) say(form.error);
  };

  const errors = new Map();
  // Each field an input under its words; fields whose words share a part before ": "
  // ("Close band: hit number ...") on one line under it, each by the rest of its words
  // (the whole on hover), so a data line reads as the card prints it: a band a line.
  const showFields = () => {
    const entry = form.entries.find((e) => `${e.list}.${e.id}` === shown);
    errors.clear();
    error.textContent = "";
    const lines = new Map();
    for (const f of entry ? entry.fields : []) {
      const [group, rest] = f.words.includes(": ") ? f.words.split(/: (.*)/s) : ["", f.words];
      const input =
        f.kind === "boolean"
          ? el("input", { type: "checkbox", "data-field": f.key, "aria-label": f.words })
          : el("input", {
              type: "text",
              value: f.text,
              "data-field": f.key,
              "aria-label": f.words,
              class: f.kind === "string" && f.text.length > 8 ? undefined : "number",
              size: f.key === "label" ? 40 : undefined,
            });
      if (f.kind === "boolean") input.checked = f.text === "true";
      const span = el("span", { class: "error field-error", role: "alert", "data-error-for": f.key });
      errors.set(f.key, span);
      input.addEventListener("change", () => set(entry, f.key, f.kind === "boolean" ? String(input.checked) : input.value));
      const key = group || f.key;
      if (!lines.has(key))
        lines.set(key, el("fieldset", { class: "catalogue-line" }, ...(group ? [el("legend", {}, group)] : [])));
      lines.get(key).append(el("label", { title: f.words }, group ? rest.replace(/ \([^()]*\)$/, "") : rest, input, span));
    }
    fields.replaceChildren(...lines.values());
  };

  // A message about one of the player's files ("your catalogue.toml (ruleset):L:C:
  // ..."), by the player's own name for the file and its line; null for another.
  const inFile = (message) => {
    const about = /^your ([^ ]+\.toml) \(([^)]*)\)(?::(\d+):\d+)?: (.*)$/.exec(message);
    if (!about) return null;
    const file = own.of(about[2])[about[1]];
    return `In your ${file ? file.file : about[1]}${about[3] ? `, line ${about[3]}` : ""}: ${about[4]}`;
  };
  // The loader's refusal beside the field it is about, else under the fields.
  const say = (refusal) => {
    const span = refusal.entry === shown && refusal.key ? errors.get(refusal.key) : null;
    if (span) span.textContent = refusal.words;
    else error.textContent = inFile(refusal.message) || refusal.words;
  };

  // Keeps `next` (an answer the loader took) as the player's catalogue.
  const keep = (next) => {
    own.set(next.ruleset, next.file, next.yours ? { file: next.file, text: next.text } : null);
  };

  const set = async (entry, key, value) => {
    for (const span of errors.values()) span.textContent = "";
    error.textContent = "";
    const next = await ask({
      ruleset: form.ruleset,
      text: form.text,
      edit: { set: { entry: `${entry.list}.${entry.id}`, key, value } },
    });
    if (next.refused) {
      error.textContent = next.refused;
      stale();
      return;
    }
    if (next.error) {
      // The catalogue in use keeps its last good value; the typed one stays in its field.
      say(next.error);
      stale();
      return;
    }
    if (key === "name") shown = `${entry.list}.${value.trim()}`;
    form = next;
    keep(next);
    render();
    offered();
    changed();
  };

  copy.addEventListener("click", async () => {
    const next = await ask({ ruleset: form.ruleset, text: form.text, edit: { copy: { entry: shown } } });
    if (next.refused || next.error) {
      error.textContent = next.refused || next.error.words;
      return;
    }
    const before = new Set(form.entries.map((e) => `${e.list}.${e.id}`));
    const added = next.entries.find((e) => !before.has(`${e.list}.${e.id}`));
    form = next;
    if (added) shown = `${added.list}.${added.id}`;
    keep(next);
    render();
    offered();
  });
  entryPick.addEventListener("change", () => {
    shown = entryPick.value;
    showFields();
  });
  save.addEventListener("click", () => download(form.file, form.text, "application/toml"));
  forget.addEventListener("click", () => {
    own.replace(form.ruleset, {});
  });
  bringBack.addEventListener("click", () => own.bringBack(form.ruleset));

  // The files of a ruleset's tables (GET /api/tables), to say which one a file replaces.
  const listings = new Map();
  const filesOf = (name) => {
    if (!listings.has(name)) {
      listings.set(
        name,
        get(`/api/tables/${encodeURIComponent(name)}`)
          .then((r) => (r.ok ? r.json() : { tables: [] }))
          // The listing names a table of a file ("catalogue.toml (weapons, illustrative)"):
          // each file once, by its own name.
          .then((b) =>
            [...new Map(b.tables.map((t) => [(/^[\w-]+\.toml/.exec(t.file) || [])[0], t.table]))]
              .filter(([file]) => file)
              .map(([file, table]) => ({ file, table })),
          )
          .catch(() => []),
      );
    }
    return listings.get(name);
  };
  importFile.addEventListener("change", async () => {
    const chosen = importFile.files[0];
    const name = ruleset();
    if (!chosen || !name) return;
    const files = await filesOf(name);
    const replaces = files.some((f) => f.file === chosen.name) ? chosen.name : importName.value;
    own.set(name, replaces, { file: chosen.name, text: await chosen.text() });
    importFile.value = "";
  });

  // Reads the scenario's ruleset's catalogue again (the player's, where they have one).
  let asked = null;
  const refresh = async () => {
    const name = ruleset();
    box.hidden = !name;
    if (!name) return;
    const files = await filesOf(name);
    importName.replaceChildren(...files.map((f) => el("option", { value: f.file }, f.table)));
    if (form && form.ruleset === name) importName.value = form.file;
    const mineNow = own.of(name);
    const question = JSON.stringify({ name, mineNow });
    if (question === asked && form) return;
    asked = question;
    packed = Object.keys(mineNow).length ? { tables: await pack({ ruleset: name, files: mineNow }) } : {};
    const shape = await ask({ ruleset: name });
    if (shape.refused) {
      box.hidden = true;
      return;
    }
    const file = mineNow[shape.file];
    shippedTitle = shape.title;
    importName.value = shape.file;
    const next = file ? await ask({ ruleset: name, text: file.text }) : shape;
    if (next.refused) {
      error.textContent = next.refused;
      return;
    }
    form = next;
    render();
    // Another of the player's files (not the catalogue) is said here too.
    const others = Object.entries(mineNow).filter(([n]) => n !== shape.file);
    if (others.length)
      status.textContent += ` Also read in place of the rules' own: ${others.map(([n, f]) => `your ${f.file} for ${files.find((x) => x.file === n)?.table || n}`).join("; ")}.`;
    if (file || others.length) box.open = true;
  };
  // The link's part (the player's files of the scenario's ruleset, packed), made
  // whenever they change, so the address is written at once.
  let packed = {};
  listeners.add(async (changedRuleset) => {
    if (changedRuleset !== ruleset()) return;
    asked = null;
    await refresh();
    offered();
    changed();
  });

  return {
    element: box,
    refresh,
    // The player's files for the scenario's ruleset, as a request sends them.
    tables: () => {
      const name = ruleset();
      const files = name ? own.of(name) : {};
      return Object.keys(files).length
        ? { [name]: Object.fromEntries(Object.entries(files).map(([n, f]) => [n, f.text])) }
        : undefined;
    },
    // The player's files the command line reads, for the command on screen.
    files: () => Object.entries(own.of(ruleset() || "")).map(([name, f]) => ({ name, file: f.file })),
    // A message about one of the player's files ("your catalogue.toml (ruleset):L:C:
    // ..."), said in this box: true when it was one.
    place: (message) => {
      const said = inFile(message);
      if (!said) return false;
      box.open = true;
      // Beside its field where the catalogue's own reading placed it there.
      if (![...errors.values()].some((span) => span.textContent)) error.textContent = said;
      return true;
    },
    // The numbers of entry `id` of list `what`, for beside a pick; null if none.
    stats: (what, entryId) => {
      const entry = form?.entries.find((e) => e.list === what && e.id === entryId);
      if (!entry) return null;
      const rows = entry.fields.filter((f) => f.key !== "label" && f.key !== "name");
      return el(
        "details",
        { class: "stats" },
        el("summary", {}, "its numbers"),
        el(
          "table",
          {},
          ...rows.map((f) => el("tr", {}, el("th", {}, f.words.replace(/ \([^()]*\)$/, "")), el("td", {}, f.text))),
        ),
      );
    },
    // The link's part: the player's files of the scenario's ruleset, packed.
    link: () => packed,
    // Takes a link's files (`packed`), keeping what they replace.
    restore: async (packed) => {
      const linked = await unpack(packed);
      if (linked && typeof linked.ruleset === "string" && linked.files) own.replace(linked.ruleset, linked.files);
    },
  };
}
