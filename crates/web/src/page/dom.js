// The page's small DOM helpers: elements by id, new elements, files to download.
export const $ = (id) => document.getElementById(id);

export const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
};

export const svgEl = (tag, attrs = {}) => {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

export function download(name, text, type) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  a.click();
}

// The Monte Carlo settings of page `prefix` as a request gives them.
export function settings(prefix) {
  return {
    trials: Number($(`${prefix}-trials`).value),
    seed: Number($(`${prefix}-seed`).value),
    mode: $(`${prefix}-mode`).value,
  };
}
