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
    for (let j = 0; j < values.length; j++)
      if ((how === ">=" && j >= i) || (how === "<=" && j <= i)) out[i] += values[j];
  return out;
}
