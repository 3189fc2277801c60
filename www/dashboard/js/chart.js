// chart.js -- small SVG charts drawn here (no library, no CDN): a line
// and area chart for a time series, horizontal bars for a breakdown.
// Each chart has a text alternative: a table for screen readers.

import { h } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";

function s(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const c of children) {
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

// A step of 1, 2 or 5 times a power of ten (counts: at least 1) so that
// four steps reach v: the axis then reads 0, 5, 10, 15, 20.
function niceStep(v) {
  const raw = Math.max(v / 4, 1);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

// points: [{label, value}], one per bucket.  opts.title names the chart
// for assistive technology; opts.fmt formats values; opts.width is the
// width it will have on screen, so that its text keeps its size on a
// phone instead of shrinking with the drawing.
export function lineChart(points, opts = {}) {
  const W = Math.max(300, Math.round(opts.width || 640));
  const H = W < 500 ? 200 : 220, L = 44, R = 12, T = 12, B = 30;
  const fmt = opts.fmt || String;
  const step = niceStep(Math.max(0, ...points.map((p) => p.value)));
  const max = step * 4;
  const n = Math.max(points.length, 2);
  const x = (i) => L + (i * (W - L - R)) / (n - 1);
  const y = (v) => T + (H - T - B) * (1 - v / max);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg",
    role: "img", "aria-label": opts.title || "" });
  for (let i = 0; i <= 4; i++) {
    const v = step * i;
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v),
      class: "grid" }));
    svg.append(s("text", { x: L - 6, y: y(v) + 4, class: "axis",
      "text-anchor": "end" }, fmt(v)));
  }
  if (points.length) {
    const line = points.map((p, i) => `${x(i)},${y(p.value)}`).join(" ");
    svg.append(s("polygon", { class: "area", points:
      `${x(0)},${y(0)} ${line} ${x(points.length - 1)},${y(0)}` }));
    svg.append(s("polyline", { class: "line", points: line }));
    const every = Math.ceil(points.length / (W < 500 ? 4 : 6));
    points.forEach((p, i) => {
      const dot = s("circle", { cx: x(i), cy: y(p.value), r: 3,
        class: "dot" }, s("title", {}, `${p.label}: ${fmt(p.value)}`));
      svg.append(dot);
      if (i % every === 0 || i === points.length - 1) {
        svg.append(s("text", { x: x(i), y: H - 10, class: "axis",
          "text-anchor": i === 0 ? "start" :
            i === points.length - 1 ? "end" : "middle" }, p.label));
      }
    });
  }
  return h("figure", { class: "chart-fig" }, svg,
    dataTable(points, opts.title, opts.colLabel, opts.colValue, fmt));
}

// rows: [{label, value}] sorted by the caller.
export function barChart(rows, opts = {}) {
  const fmt = opts.fmt || String;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const rowH = 26, W = 320, labelW = 110, H = Math.max(rowH, rows.length *
    rowH);
  // Room after the longest bar for the longest value (a popular link's
  // counts run to millions), about 7 units a character of the axis font.
  const valW = 12 + 7 * Math.max(...rows.map((r) => fmt(r.value).length));
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg bars",
    role: "img", "aria-label": opts.title || "" });
  rows.forEach((r, i) => {
    const w = ((W - labelW - valW) * r.value) / max;
    const yy = i * rowH;
    svg.append(s("text", { x: labelW - 6, y: yy + 17, class: "axis",
      "text-anchor": "end" }, r.label.length > 16 ?
      r.label.slice(0, 15) + "…" : r.label));
    svg.append(s("rect", { x: labelW, y: yy + 5, width: Math.max(w, 1),
      height: rowH - 10, rx: 3, class: "bar" },
    s("title", {}, `${r.label}: ${fmt(r.value)}`)));
    svg.append(s("text", { x: labelW + w + 6, y: yy + 17, class: "axis" },
      fmt(r.value)));
  });
  return h("figure", { class: "chart-fig" }, svg,
    dataTable(rows, opts.title, opts.colLabel, opts.colValue, fmt));
}

function dataTable(rows, caption, colLabel, colValue, fmt) {
  return h("table", { class: "sr-only" },
    h("caption", {}, caption || ""),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, colLabel || ""),
      h("th", { scope: "col" }, colValue || ""))),
    h("tbody", {}, rows.map((r) => h("tr", {}, h("th", { scope: "row" },
      r.label), h("td", {}, fmt(r.value))))));
}
