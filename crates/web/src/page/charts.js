// The page's charts, drawn as SVG: bars of a distribution, a line over one swept
// parameter, and steps of kill chance against range.
import { svgEl } from "./dom.js";

const text = (attrs, content) => {
  const t = svgEl("text", attrs);
  t.textContent = content;
  return t;
};

// An SVG `w` by `h` that shrinks to the width it is given (a phone's), named for
// screen readers by `name`.
function figure(w, h, name, id) {
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, width: w, role: "img", "aria-label": name, class: "chart" });
  if (id) svg.id = id;
  const title = svgEl("title");
  title.textContent = name;
  svg.append(title);
  return svg;
}

// Horizontal probability bars, one per label, with whiskers from `lows` to `highs`.
export function bars(labels, values, lows, highs, name) {
  const w = 560,
    rowH = 22,
    left = 150,
    h = rowH * labels.length + 24;
  const svg = figure(w, h, name || "the chance of each outcome");
  const x = (p) => left + p * (w - left - 20);
  labels.forEach((label, i) => {
    const y = 4 + i * rowH;
    svg.append(
      text({ x: 0, y: y + 14, "font-size": 12 }, label),
      svgEl("rect", { class: "bar", x: x(0), y: y + 3, width: Math.max(0, x(values[i]) - x(0)), height: rowH - 8 }),
    );
    if (lows)
      svg.append(svgEl("line", { class: "whisker", x1: x(lows[i]), x2: x(highs[i]), y1: y + rowH / 2, y2: y + rowH / 2 }));
  });
  svg.append(text({ x: x(0), y: h - 4, "font-size": 11 }, "chance, 0 to 100%; whiskers: the Monte Carlo 95% interval"));
  return svg;
}

// A line of `points` ({ x, p, lo, hi }) with its band from lo to hi, over axis `label`;
// where `target` is given (a chance sought, as the balance finder's), a dashed line
// across at it. A value is labelled only where it clears the one before (a bisection
// tries 5 and 5.000001 side by side).
export function line(points, label, id, name, target) {
  const w = 640,
    h = 280,
    left = 48,
    bottom = 40,
    top = 10,
    right = 20;
  const xs = points.map((p) => p.x);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const x = (v) => left + (x1 === x0 ? 0.5 : (v - x0) / (x1 - x0)) * (w - left - right);
  const y = (p) => top + (1 - p) * (h - top - bottom);
  const svg = figure(w, h, name || label, id);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(svgEl("line", { x1: left, x2: w - right, y1: y(p), y2: y(p), stroke: "#d5dadf" }));
    svg.append(text({ x: 4, y: y(p) + 4, "font-size": 11 }, `${p * 100}%`));
  }
  const pts = points.slice().sort((a, b) => a.x - b.x);
  const band = pts
    .map((p) => `${x(p.x)},${y(p.hi)}`)
    .concat(
      pts
        .slice()
        .reverse()
        .map((p) => `${x(p.x)},${y(p.lo)}`),
    );
  svg.append(svgEl("polygon", { points: band.join(" "), fill: "#3b7ea1", "fill-opacity": 0.2 }));
  svg.append(
    svgEl("polyline", {
      points: pts.map((p) => `${x(p.x)},${y(p.p)}`).join(" "),
      fill: "none",
      stroke: "#3b7ea1",
      "stroke-width": 2,
    }),
  );
  let cleared = -Infinity;
  for (const p of pts) {
    if (x(p.x) - cleared < 34) continue;
    svg.append(text({ x: x(p.x), y: h - bottom + 14, "font-size": 10, "text-anchor": "middle" }, p.x));
    cleared = x(p.x);
  }
  if (target !== undefined) {
    svg.append(
      svgEl("line", {
        class: "target",
        x1: left,
        x2: w - right,
        y1: y(target),
        y2: y(target),
        stroke: "#b5472d",
        "stroke-width": 1.5,
        "stroke-dasharray": "6 4",
      }),
    );
    svg.append(
      text(
        { x: w - right, y: y(target) - 4, "font-size": 11, "text-anchor": "end", fill: "#b5472d" },
        `target ${Number((100 * target).toFixed(2))}%`,
      ),
    );
  }
  svg.append(text({ x: left, y: h - 4, "font-size": 11 }, label));
  return svg;
}

// Steps of kill chance against range: `series` are { label, colour, dash, points:
// [{ range, p }] }, each answer holding to the next range asked. The legend is a row a
// series under the plot, so a long name is never cut at the edge and a phone's narrow
// chart keeps its plot wide; a range is labelled only where it clears the one before.
// `w` wide: a phone draws it as wide as its screen, so its text stays 12 px.
export function steps(ranges, series, label, id, name, w = 720) {
  const plotH = 290,
    left = 48,
    bottom = 36,
    right = 20,
    top = 10,
    row = 18;
  const h = plotH + 6 + row * series.length;
  const maxR = Math.max(...ranges);
  const x = (m) => left + (m / maxR) * (w - left - right);
  const y = (p) => top + (1 - p) * (plotH - top - bottom);
  const svg = figure(w, h, name || label, id);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(svgEl("line", { x1: left, x2: w - right, y1: y(p), y2: y(p), stroke: "#d5dadf" }));
    svg.append(text({ x: 4, y: y(p) + 4, "font-size": 12 }, `${p * 100}%`));
  }
  let cleared = -Infinity;
  for (const m of ranges.slice().sort((a, b) => a - b)) {
    if (x(m) - cleared < 34) continue;
    svg.append(text({ x: x(m), y: plotH - bottom + 16, "font-size": 12, "text-anchor": "middle" }, m));
    cleared = x(m);
  }
  svg.append(text({ x: left, y: plotH - 4, "font-size": 12 }, label));
  series.forEach((s, i) => {
    let d = "";
    s.points.forEach((point, k) => {
      const next = k + 1 < s.points.length ? s.points[k + 1].range : point.range;
      d += `${k ? "L" : "M"}${x(point.range)},${y(point.p)} L${x(next)},${y(point.p)} `;
    });
    if (d) svg.append(svgEl("path", { class: "step", d, stroke: s.colour, "stroke-dasharray": s.dash }));
    const ly = plotH + 6 + row * i + row / 2;
    svg.append(
      svgEl("line", { x1: left, x2: left + 28, y1: ly, y2: ly, stroke: s.colour, "stroke-width": 2, "stroke-dasharray": s.dash }),
    );
    svg.append(text({ x: left + 36, y: ly + 4, "font-size": 12 }, s.label));
  });
  return svg;
}
