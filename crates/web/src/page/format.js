// How the page writes numbers and values. Pure: no DOM, so `node --test` checks it.

// A probability to six decimals, as the command line prints it; nothing for none.
export const fixed = (x) => (x === null || x === undefined ? "" : x.toFixed(6));

// A probability as a percentage, with a second decimal near 0 and 1.
export const pct = (p) => `${(100 * p).toFixed(p > 0.995 || p < 0.005 ? 2 : 1)}%`;

// A heat map's colour for a probability, white to the bars' blue.
export const shade = (p) => `rgb(${Math.round(255 - 222 * p)}, ${Math.round(255 - 153 * p)}, ${Math.round(255 - 83 * p)})`;

// The exact answer where there is one, else the Monte Carlo estimate.
export const best = (k) => (k.exact === null ? k.estimate : k.exact);

// A sweep's or balance's value as written in the file.
export const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));

// Views of one measure: the chance of each outcome, of it or a later one, of it or
// an earlier one (outcomes run from nothing to the worst).
export function view(values, how) {
  if (how === "=") return values;
  const out = values.map(() => 0);
  for (let i = 0; i < values.length; i++)
    for (let j = 0; j < values.length; j++) if ((how === ">=" && j >= i) || (how === "<=" && j <= i)) out[i] += values[j];
  return out;
}

// A probability as players read it: a percentage to two decimals, "under 0.01%" for a
// chance too small to show and never "0.00%" for one that is not nothing.
export function percent(p) {
  if (p === null || p === undefined) return "";
  if (p > 0 && p < 0.00005) return "under 0.01%";
  if (p < 1 && p > 0.99995) return "over 99.99%";
  return `${(100 * p).toFixed(2)}%`;
}

// An exact fraction short enough for a table cell: a long one (an engagement's can
// run to hundreds of digits) as its leading digits and its size; the downloads keep
// it whole.
export function shortFraction(fraction, most = 24) {
  if (!fraction || fraction.length <= most) return fraction || "";
  const [n, d] = fraction.split("/");
  return `${n.slice(0, 5)}…/${d.slice(0, 5)}… (${n.length}/${d.length} digits)`;
}

// A snake_case word of the files (`no_effect`, `forced_back`) as a game's words.
export const words = (id) => String(id).replace(/_/g, " ");

// A run's note as a player reads it: the files' snake_case words (`veteran_elite`,
// `forced_back`) in plain words, but a file's name (`setbacks_table.toml`) and a
// quoted `key` as written, since those are what a player would type.
export const noteWords = (note) =>
  String(note)
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") ? part : part.replace(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b(?![.\w(])/g, words)))
    .join("");

// What a word of the comparison vocabulary (`17pdr`, `medium_tank`) is called: the
// name most of the rulesets that have it give it (`words` is GET /api/words's list,
// each ruleset's `kind` a list of [word, name]), the first ruleset's on a tie, the
// word itself where none names it.
export function vocabularyName(vocabulary, kind, word) {
  const counts = new Map();
  for (const w of vocabulary)
    for (const [x, name] of w[kind] || []) if (x === word && name) counts.set(name, (counts.get(name) || 0) + 1);
  let chosen = null;
  for (const [name, n] of counts) if (!chosen || n > counts.get(chosen)) chosen = name;
  return chosen || words(word);
}

// What ruleset `ruleset` calls vocabulary word `word` of `kind`: its own entry's name.
export function nameIn(vocabulary, ruleset, kind, word) {
  const w = vocabulary.find((x) => x.ruleset === ruleset);
  const entry = (w?.[kind] || []).find(([x]) => x === word);
  return entry?.[1] || vocabularyName(vocabulary, kind, word);
}

// A ruleset's name as its cover prints it: `command-decision` is Command Decision.
export const rulesetName = (id) =>
  String(id)
    .split("-")
    .map((w, i) => (i && ["of", "the", "and"].includes(w) ? w : w[0].toUpperCase() + w.slice(1)))
    .join(" ");

// The title a scenario file gives itself (its top-level `name`), or none.
export function titleOf(text) {
  for (const line of text.split("\n")) {
    if (/^\s*\[/.test(line)) return null;
    const m = line.match(/^\s*name\s*=\s*(".*"|'.*')\s*(#.*)?$/);
    if (m) {
      try {
        return JSON.parse(m[1].replace(/^'|'$/g, '"'));
      } catch {
        return null;
      }
    }
  }
  return null;
}

// The ruleset a scenario file names, or none.
export const rulesetOf = (text) => (text.match(/^\s*ruleset\s*=\s*"([^"]*)"/m) || [])[1] || null;

// Shipped scenarios grouped by ruleset, each with its title: [{ ruleset, items:
// [{ name, title, kind }] }], the rulesets in the order first met.
export function grouped(shipped) {
  const groups = new Map();
  for (const s of shipped) {
    const ruleset = rulesetOf(s.text) || "other";
    if (!groups.has(ruleset)) groups.set(ruleset, []);
    groups.get(ruleset).push({ name: s.name, title: titleOf(s.text) || s.name, kind: s.kind });
  }
  return [...groups.entries()].map(([ruleset, items]) => ({ ruleset, items }));
}

// About how long `left` more units take at the pace `done` took `seconds`: none
// until there is a pace to go by.
export function remaining(done, planned, seconds) {
  if (!(done > 0) || !(planned > done) || !(seconds > 0.5)) return null;
  const left = ((planned - done) * seconds) / done;
  if (left < 1) return "under a second left";
  if (left < 90) return `about ${Math.round(left)} s left`;
  if (left < 5400) return `about ${Math.round(left / 60)} min left`;
  return `about ${(left / 3600).toFixed(1)} h left`;
}
