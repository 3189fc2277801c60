// stats.js -- statistics of one link (and the drawing the Overview of
// the account shares, overview.js): totals (clicks, visitors,
// conversions, revenue, conversion rate), clicks over time, breakdowns of
// clicks by country, device, OS, browser, referrer host, suffix and
// variant, and of conversions by channel, currency and variant (GET
// links/<id>/stats: the handler of /api/v1/links/<id>/stats, shape in
// lz-links(8)).  The server reads them from rollups: a link's millionth
// click costs the page nothing.

import { api } from "./api.js";
import { $, h, clear, fmtNumber } from "./dom.js";
import { t, lang } from "./i18n.js";
import { lineChart, barChart } from "./chart.js";

let ctx;
let current = null;
let seq = 0;     // the latest load: an older answer arriving late is dropped
let last = null; // the data shown, drawn again when the width changes

const DIMS = ["country", "device", "os", "browser", "referrer_host",
  "suffix", "variant"];
// conversion_breakdowns: rows {key, conversions, revenue}; variant rows
// add clicks and conversion_rate, and key null for conversions that no
// click of the visitor's led to.
const CONV_DIMS = ["suffix", "currency", "variant"];

// A bucket {t, clicks}; a breakdown row {key, clicks}.
const bucketTime = (b) => b.t;
const count = (r) => Number(r.clicks ?? 0);
const keyOf = (r) => String(r.key ?? "");

function label(iso, hourly) {
  const d = new Date(iso);
  if (isNaN(d)) return String(iso);
  return hourly ? d.toLocaleTimeString(lang(), { hour: "2-digit",
    minute: "2-digit" }) : d.toLocaleDateString(lang(), { month: "short",
    day: "numeric" });
}

function money(rev) {
  const parts = Object.entries(rev || {}).map(([cur, amt]) => {
    try {
      return Number(amt).toLocaleString(lang(), { style: "currency",
        currency: cur });
    } catch (e) {
      return amt + " " + cur;
    }
  });
  return parts.length ? parts.join(" · ") : "—";
}

function pct(rate) {
  return (rate * 100).toLocaleString(lang(), { maximumFractionDigits: 2 }) +
    "%";
}

function total(name, value) {
  return h("div", { class: "total" }, h("span", { class: "total-label" },
    t(name)), h("span", { class: "total-value" }, value));
}

// Draws statistics j (of days days) into the elements #P-totals,
// #P-series and #P-breakdowns: P "stats" for a link, "ov" for the
// Overview (overview.js).
export function render(j, days, p = "stats") {
  const s = j.totals || {};
  const clicks = s.clicks ?? 0;
  // Conversions come with conversion tracking; until the server reports
  // them for the period, they show as "—" rather than a made-up 0.
  const has = s.conversions !== undefined;
  const conv = s.conversions ?? 0;
  const rate = s.conversion_rate ?? (clicks ? conv / clicks : 0);
  clear($("#" + p + "-totals")).append(
    total("stats.clicks", fmtNumber(clicks)),
    total("stats.visitors", fmtNumber(s.visitors ?? 0)),
    total("stats.conversions", has ? fmtNumber(conv) : "—"),
    total("stats.revenue", has ? money(s.revenue) : "—"),
    total("stats.rate", has ? pct(rate) : "—"));
  const hourly = days <= 1;
  const series = (j.series || []).map((b) => ({ label: label(bucketTime(b),
    hourly), value: count(b) }));
  const box0 = $("#" + p + "-series");
  clear(box0).append(lineChart(series, { width: box0.clientWidth,
    title: t("stats.over_time"), colLabel: t("stats.time"),
    colValue: t("stats.clicks"), fmt: (v) => fmtNumber(v) }));
  const box = clear($("#" + p + "-breakdowns"));
  const br = j.breakdowns || {};
  for (const dim of DIMS) {
    const rows = (br[dim] || []).map((r) => ({ label: keyOf(r) ||
      t("stats.unknown"), value: count(r) })).slice(0, 10);
    box.append(h("div", { class: "card" }, h("h2", {}, t("stats.by_" + dim)),
      rows.length ? barChart(rows, { title: t("stats.by_" + dim),
        colLabel: t("stats.dim_" + dim), colValue: t("stats.clicks"),
        fmt: (v) => fmtNumber(v) }) : h("p", { class: "hint" },
        t("stats.none"))));
  }
  const cb = j.conversion_breakdowns || {};
  for (const dim of CONV_DIMS) {
    const rows = (cb[dim] || []).slice(0, 10);
    if (rows.length) box.append(convCard(dim, rows));
  }
}

// A table: value, conversions, revenue (and for variants, clicks and the
// rate: the A/B comparison).
function convCard(dim, rows) {
  const variant = dim === "variant";
  const cols = [t("stats.dim_" + dim), t("stats.conversions"),
    t("stats.revenue")];
  if (variant) cols.push(t("stats.clicks"), t("stats.rate"));
  const label = (r) => r.key === null ? t("stats.not_attributed") :
    keyOf(r) || t("stats.unknown");
  const maybe = (v, f) => v === null || v === undefined ? "—" : f(v);
  return h("div", { class: "card conv-card", "data-dim": dim },
    h("h2", {}, t("stats.conv_by_" + dim)),
    h("div", { class: "table-wrap" }, h("table", {},
      h("thead", {}, h("tr", {}, cols.map((c, i) => h("th", { scope: "col",
        class: i ? "num" : null }, c)))),
      h("tbody", {}, rows.map((r) => h("tr", {},
        h("th", { scope: "row" }, label(r)),
        h("td", { class: "num" }, fmtNumber(r.conversions)),
        h("td", { class: "num" }, money(r.revenue)),
        variant ? [h("td", { class: "num" }, maybe(r.clicks, fmtNumber)),
          h("td", { class: "num" }, maybe(r.conversion_rate, pct))] :
          null))))));
}

// The query of the last days days: from, to, interval.
export function rangeQuery(days) {
  // Whole seconds, the current one included: a conversion reported a
  // moment ago must not fall after "to".
  const to = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000);
  const from = new Date(to.getTime() - days * 86400000);
  return new URLSearchParams({ from: from.toISOString().replace(/\.\d+Z$/,
    "Z"), to: to.toISOString().replace(/\.\d+Z$/, "Z"),
  interval: days <= 1 ? "hour" : "day" });
}

async function load() {
  const days = Number($("#stats-range").value);
  const q = rangeQuery(days);
  const mine = ++seq;
  const j = await api("GET", "links/" + current + "/stats?" + q);
  if (mine !== seq) return;
  last = [j, days];
  render(j, days);
}

export function setup(c) {
  ctx = c;
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (last && !$("#view-stats").hidden) render(...last);
    }, 150);
  });
  $("#stats-range").addEventListener("change", () => load()
    .catch((e) => ctx.status(e.text)));
}

export async function show(id) {
  current = /^\d+$/.test(id || "") ? id : null;
  if (!current) {
    location.hash = "#links";
    return;
  }
  const j = await api("GET", "links/" + current);
  const l = j.link;
  clear($("#stats-link")).append(h("a", { href: l.short_url, target: "_blank",
    rel: "noopener noreferrer" }, l.short_url), " → ",
  h("span", { class: "clip" }, l.target_url));
  $("#stats-title").textContent = t("stats.title_of", { slug: l.slug });
  await load();
}
