// Charts drawn by the page as SVG: the distribution of totals (a histogram), a game's
// totals turn by turn (lines), and in the review each person's value step by step (lines). Each is a picture (role img) named by its title, described
// in words for screen readers (<desc>), the same words shown under it.

import { h, seatClass } from "./dom.js";
import { num, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 340; // the drawing's width: about a phone's, so that its words stay readable there
const H = 210;
const PAD = { left: 40, right: 18, top: 26, bottom: 40 };
let charts = 0;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children.flat());
  return el;
}

/** The smallest step of 1, 2, 2.5 or 5 times a power of ten that cuts `span` in `most` parts at most. */
export function niceStep(span, most) {
  for (let power = 1; ; power *= 10) {
    for (const s of [1, 2, 2.5, 5]) {
      const step = s * power;
      if (Number.isInteger(step) && span / step <= most) return step;
    }
  }
}

/** A figure: the picture named by `title`, described by `summary` and `details`. */
function figure(title, summary, details, drawing, legend = null) {
  const id = `chart-${++charts}`;
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-desc` },
  svg("title", { id: `${id}-title` }, title),
  svg("desc", { id: `${id}-desc` }, [summary, ...details].join(" ")),
  drawing);
  return h("figure", { class: "chart-figure" }, h("h3", {}, title), picture, legend,
    h("figcaption", {}, summary));
}

/** Lines across the plot at `step`, labelled on the left (by `format`), from `bottom` to `top`. */
function grid(top, step, y, format = num, bottom = 0) {
  const lines = [];
  for (let value = bottom; value <= top; value += step) {
    lines.push(svg("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(value), y2: y(value) }),
      svg("text", { class: "tick", x: PAD.left - 5, y: y(value) + 4, "text-anchor": "end" }, format(value)));
  }
  return lines;
}

/** What the axes count: across under the plot, up above it. */
function axes(across, up) {
  return [
    svg("text", { class: "axis", x: (PAD.left + W - PAD.right) / 2, y: H - 4, "text-anchor": "middle" }, across),
    svg("text", { class: "axis", x: 2, y: 12 }, up),
  ];
}

/** The distribution of `totals` (final totals): five to ten bins of a round width. */
export function histogram(totals, title) {
  if (!totals.length) return null;
  const low = Math.min(...totals);
  const high = Math.max(...totals);
  // Bins no narrower than a fifth of the highest total, and at least five of them, so that
  // a few close totals still show where they stand.
  const width = niceStep(Math.max(high - low, high / 5, 1), 8);
  let first = Math.floor(low / width) * width;
  const needed = Math.floor((high - first) / width) + 1;
  if (needed < 5) first = Math.max(0, first - Math.floor((5 - needed) / 2) * width);
  const count = Math.max(5, Math.floor((high - first) / width) + 1);
  const bins = [];
  for (let n = 0; n < count; n++) {
    bins.push({ low: first + n * width, high: first + (n + 1) * width - 1, count: 0 });
  }
  for (const total of totals) bins[Math.floor((total - first) / width)].count += 1;
  const most = Math.max(...bins.map((b) => b.count));
  const top = Math.ceil(most / niceStep(most, 4)) * niceStep(most, 4);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (value) => PAD.top + plotH - (plotH * value) / top;
  const barW = plotW / bins.length;
  const every = bins.length > 6 ? 2 : 1; // labels far enough apart to read on a phone
  const drawing = [...grid(top, niceStep(top, 4), y)];
  bins.forEach((bin, i) => {
    const x = PAD.left + i * barW;
    if (bin.count) {
      drawing.push(svg("rect", { class: "bar", x: x + 1.5, width: Math.max(barW - 3, 1), y: y(bin.count),
        height: y(0) - y(bin.count), rx: 2 }));
    }
    if (i % every === 0) {
      drawing.push(svg("text", { class: "tick", x, y: H - PAD.bottom + 15, "text-anchor": "middle" }, num(bin.low)));
    }
  });
  if (bins.length % every === 0) {
    drawing.push(svg("text", { class: "tick", x: W - PAD.right, y: H - PAD.bottom + 15, "text-anchor": "middle" },
      num(first + bins.length * width)));
  }
  drawing.push(svg("line", { class: "axis-line", x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }),
    ...axes(t("axis-total"), t("axis-games")));
  const peak = bins.find((b) => b.count === most);
  const range = (bin) => `${num(bin.low)}–${num(bin.high)}`;
  const summary = t("chart-totals-about", { n: num(totals.length), low: num(low), high: num(high),
    bin: range(peak), count: num(most) });
  const details = bins.map((bin) => `${t("chart-bin", { low: num(bin.low), high: num(bin.high), count: num(bin.count) })}.`);
  return figure(title, summary, details, drawing);
}

/** A game's totals turn by turn: `turns[k]` the totals of each seat after turn k + 1. */
export function lines(players, turns, title) {
  if (!turns.length) return null;
  const rows = [players.map(() => 0), ...turns];
  const most = Math.max(1, ...rows.flat());
  const step = niceStep(most, 4);
  const top = Math.ceil(most / step) * step;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (k) => PAD.left + (plotW * k) / turns.length;
  const y = (value) => PAD.top + plotH - (plotH * value) / top;
  const drawing = [...grid(top, step, y)];
  const every = niceStep(turns.length, 7);
  for (let k = every; k <= turns.length; k += every) {
    drawing.push(svg("text", { class: "tick", x: x(k), y: H - PAD.bottom + 15, "text-anchor": "middle" }, num(k)));
  }
  drawing.push(svg("line", { class: "axis-line", x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }),
    ...axes(t("axis-turn"), t("axis-points")));
  players.forEach((_, seat) => {
    const points = rows.map((row, k) => `${x(k).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
    const last = rows.at(-1)[seat];
    drawing.push(svg("g", { class: seatClass(seat) },
      svg("polyline", { class: "line", points }),
      svg("circle", { class: "dot", cx: x(turns.length), cy: y(last), r: 4 })));
  });
  const finals = players.map((name, seat) => `${name} ${num(turns.at(-1)[seat])}`).join(", ");
  const summary = t("chart-progress-about", { turns: num(turns.length), totals: finals });
  const details = turns.map((row, k) =>
    `${t("axis-turn")} ${k + 1}: ${players.map((name, seat) => `${name} ${num(row[seat])}`).join(", ")}.`);
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, players.map((name, seat) =>
    h("li", { class: seatClass(seat) }, h("span", { class: "swatch" }), name)));
  return figure(title, summary, details, drawing, legend);
}

/**
 * Each person's value after every step of a game (the review's V): `series` one per person
 * (`seat`, `name`, `values`: from the start, in the unit drawn: points, or percents of a
 * chance of winning, then 0 to 100), `up` what the values are, `format(value, digits)` how
 * one is written; `chance`: drawn from 0 to 100. Described by each person's start and end,
 * and their highest and lowest.
 */
export function valueLines(series, title, up, format, { chance = false } = {}) {
  const steps = Math.max(...series.map((s) => s.values.length)) - 1;
  if (steps < 1) return null;
  const all = series.flatMap((s) => s.values);
  const most = Math.max(1, ...all);
  // A chance from 0 to 100 %; points from a round figure under the lowest, so that the
  // lines' moves show rather than the space under them.
  const least = chance ? 0 : Math.max(0, Math.min(...all));
  const step = chance ? 25 : niceStep(Math.max(most - least, 1), 4);
  const bottom = Math.floor(least / step) * step;
  const top = Math.max(Math.ceil(most / step) * step, bottom + step);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (k) => PAD.left + (plotW * k) / steps;
  const y = (value) => PAD.top + plotH - (plotH * (value - bottom)) / (top - bottom);
  const drawing = [...grid(top, step, y, (value) => format(value), bottom)];
  const every = niceStep(steps, 6);
  for (let k = every; k <= steps; k += every) {
    drawing.push(svg("text", { class: "tick", x: x(k), y: H - PAD.bottom + 15, "text-anchor": "middle" }, num(k)));
  }
  drawing.push(svg("line", { class: "axis-line", x1: PAD.left, x2: W - PAD.right, y1: y(bottom), y2: y(bottom) }),
    ...axes(t("axis-step"), up));
  for (const { seat, values } of series) {
    const points = values.map((value, k) => `${x(k).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
    drawing.push(svg("g", { class: seatClass(seat) },
      svg("polyline", { class: "line", points }),
      svg("circle", { class: "dot", cx: x(values.length - 1), cy: y(values.at(-1)), r: 4 })));
  }
  const changes = series.map(({ name, values }) =>
    t("chart-value-change", { name, start: format(values[0], 1),
      end: format(values.at(-1), Number.isInteger(values.at(-1)) ? 0 : 1) })); // a final total: whole
  const summary = t("chart-values-about", { steps: num(steps), people: changes.join(", ") });
  const details = series.map(({ name, values }) => {
    const high = values.indexOf(Math.max(...values));
    const low = values.indexOf(Math.min(...values));
    return `${t("chart-value-range", { name, high: format(values[high], 1), high_at: num(high),
      low: format(values[low], 1), low_at: num(low) })}.`;
  });
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, series.map(({ seat, name }) =>
    h("li", { class: seatClass(seat) }, h("span", { class: "swatch" }), name)));
  return figure(title, summary, details, drawing, legend);
}

/**
 * Each person's cost per decision over the games, oldest first: `series` maps a name to its
 * figures (one a game); `write` writes a figure; `reference`, if any, is `{ value, label }`:
 * a dashed line across at that figure (Verhoeff's mark for Yams, set in stats.js).
 */
export function costLines(series, title, write, reference = null) {
  const names = Object.keys(series).filter((name) => series[name].length);
  if (!names.length) return null;
  const longest = Math.max(...names.map((name) => series[name].length));
  const most = Math.max(...names.flatMap((name) => series[name]), reference?.value ?? 0, 1e-9);
  // Steps of 1, 2, 2.5 or 5 times a power of ten, below 1 as well: counted in millionths.
  const scale = 1e6;
  const step = niceStep(Math.ceil(most * scale), 4) / scale;
  const top = Math.ceil(most / step - 1e-9) * step;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (k) => PAD.left + (longest > 1 ? (plotW * k) / (longest - 1) : plotW / 2);
  const y = (value) => PAD.top + plotH - (plotH * value) / top;
  const drawing = [];
  for (let n = 0; n * step <= top + 1e-12; n++) {
    const value = n * step;
    drawing.push(svg("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(value), y2: y(value) }),
      svg("text", { class: "tick", x: PAD.left - 5, y: y(value) + 4, "text-anchor": "end" }, write(value)));
  }
  const every = niceStep(longest, 7);
  for (let k = every; k <= longest; k += every) {
    drawing.push(svg("text", { class: "tick", x: x(k - 1), y: H - PAD.bottom + 15, "text-anchor": "middle" }, num(k)));
  }
  drawing.push(svg("line", { class: "axis-line", x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }),
    ...axes(t("axis-game"), t("axis-cost-per-decision")));
  if (reference) {
    drawing.push(svg("g", { class: "reference" },
      svg("line", { class: "reference-line", x1: PAD.left, x2: W - PAD.right, y1: y(reference.value),
        y2: y(reference.value), "stroke-dasharray": "5 4" }),
      svg("text", { class: "tick", x: W - PAD.right, y: y(reference.value) - 4, "text-anchor": "end" },
        reference.label)));
  }
  names.forEach((name, seat) => {
    const values = series[name];
    const points = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    drawing.push(svg("g", { class: seatClass(seat) },
      svg("polyline", { class: "line", points }),
      ...values.map((v, k) => svg("circle", { class: "dot", cx: x(k), cy: y(v), r: 3 }))));
  });
  const means = names.map((name) => {
    const values = series[name];
    return `${name} ${write(values.reduce((a, b) => a + b, 0) / values.length)}`;
  }).join(", ");
  const summary = t("chart-cost-about", { games: num(longest), means })
    + (reference ? ` ${reference.label}.` : "");
  const details = names.map((name) =>
    `${name}: ${series[name].map((v, k) => `${t("axis-game")} ${k + 1} ${write(v)}`).join(", ")}.`);
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, names.map((name, seat) =>
    h("li", { class: seatClass(seat) }, h("span", { class: "swatch" }), name)));
  return figure(title, summary, details, drawing, legend);
}
