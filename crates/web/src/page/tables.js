// Tables: every table with its source, the modifiers, and the recorded
// interpretations of the chosen ruleset.
import { $, el } from "./dom.js";
import { get, post } from "./net.js";
import { saveState, shared } from "./state.js";
import { rulesetName } from "./format.js";

let interpretations = "";

export function init(rulesets, notes) {
  interpretations = notes;
  for (const r of rulesets) $("ruleset").append(el("option", { value: r }, rulesetName(r)));
  $("ruleset").addEventListener("change", showTables);
  shared.savers.tables = () => ({ ruleset: $("ruleset").value });
}

export function restore(p) {
  if (p.has("ruleset")) $("ruleset").value = p.get("ruleset");
}

// A recorded interpretation's markdown as elements: headings, lists, paragraphs and
// inline code, no more.
function prose(markdown) {
  const out = el("div");
  let list = null;
  const inline = (text) => {
    const span = el("span");
    for (const part of text.split(/(`[^`]*`)/)) {
      span.append(part.startsWith("`") && part.endsWith("`") && part.length > 1 ? el("code", {}, part.slice(1, -1)) : part);
    }
    return span;
  };
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) out.append(el("p", {}, inline(paragraph.join(" "))));
    paragraph = [];
  };
  for (const line of markdown.split("\n")) {
    const heading = line.match(/^(#{2,4}) (.*)/);
    const item = line.match(/^\s*[-*] (.*)/);
    if (heading) {
      flush();
      list = null;
      out.append(el(`h${heading[1].length + 1}`, {}, inline(heading[2])));
    } else if (item) {
      flush();
      if (!list) {
        list = el("ul");
        out.append(list);
      }
      list.append(el("li", {}, inline(item[1])));
    } else if (line.trim() === "") {
      flush();
      list = null;
    } else if (list && /^\s+/.test(line)) list.lastChild.append(" ", inline(line.trim()));
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

export async function showTables() {
  saveState();
  const ruleset = $("ruleset").value;
  const response = await get(`/api/tables/${encodeURIComponent(ruleset)}`);
  const body = await response.json();
  $("tables-error").textContent = response.ok ? "" : body.error;
  const list = $("tables-list");
  list.replaceChildren();
  showInterpretations(ruleset);
  if (!response.ok) return;
  showModifiers(ruleset);
  const named = await entryNames(ruleset);
  list.append(el("p", { class: "muted" }, `rules hash ${body.rules_hash}`));
  // A table's rows named with a label beside (Mission Command's seed rows): the row's
  // name (what a catalogue points at) goes to hover, wherever it is shown.
  const rowLabels = new Map();
  for (const t of body.tables) for (const row of t.rows) if (row.name && row.label) rowLabels.set(row.name, row.label);
  for (const t of body.tables) {
    const columns = t.rows.length ? Object.keys(t.rows[0]).filter((c) => !(c === "name" && "label" in t.rows[0])) : [];
    // Headings in words; a catalogue's entries and the rows it points at by their
    // labels (the name a file gives them is there on hover).
    const table = el("tr", {}, ...columns.map((c) => el("th", {}, c.replace(/_/g, " "))));
    const cell = (c, value) => {
      const text = String(value ?? "");
      const label =
        named.get(`${c}.${text}`) ?? (c === "label" ? null : text.replace(/[A-Za-z0-9_]+/g, (w) => rowLabels.get(w) ?? w));
      const name = c === "label" ? t.rows.find((r) => r.label === value)?.name : null;
      return label && label !== text ? el("td", { title: text }, label) : el("td", name ? { title: name } : {}, text);
    };
    const rows = t.rows.map((row) => el("tr", {}, ...columns.map((c) => cell(c, row[c]))));
    const whole = el("table", {}, table, ...rows);
    // Each table by its title in the rules and its source by the seed's title; the
    // file a `--rules` directory overrides it with is there on hover.
    list.append(
      el("h3", { title: `${t.file} in a --rules directory's ${ruleset} folder` }, t.table),
      el(
        "p",
        { class: "muted" },
        `${t.seed_title}${t.rules ? `, ${t.rules}` : ""}${t.invented ? "; invented (illustrative) values" : ""}`,
      ),
      el("div", { class: "scroll" }, whole),
    );
  }
}

async function showModifiers(ruleset) {
  const response = await get(`/api/modifiers/${encodeURIComponent(ruleset)}`);
  if (!response.ok) return;
  const body = await response.json();
  const columns = ["chart", "name", "label", "value", "applied", "source"];
  const table = el("table", { id: "modifiers" }, el("tr", {}, ...columns.map((c) => el("th", {}, c))));
  for (const m of body.modifiers) table.append(el("tr", {}, ...columns.map((c) => el("td", {}, m[c]))));
  $("modifiers-list").replaceChildren(el("div", { class: "scroll" }, table));
}

// The labels of a ruleset's catalogue entries by `list.id` (POST /api/catalogue, the
// editor's reading); none where the ruleset has no catalogue.
async function entryNames(ruleset) {
  const answer = await post("/api/catalogue", { ruleset }).catch(() => null);
  const entries = answer?.ok ? answer.body.entries : [];
  return new Map(entries.map((e) => [`${e.list}.${e.id}`, e.label.replace(/ \(illustrative\)$/, "")]));
}
