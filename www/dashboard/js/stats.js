// stats.js -- statistics of one link: totals (clicks, conversions,
// revenue, conversion rate), clicks over time, and breakdowns by country,
// device, OS, browser, referrer host, suffix and variant (GET
// links/<id>/stats: the handler of /api/v1/links/<id>/stats).

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

function total(name, value) {
  return h("div", { class: "total" }, h("span", { class: "total-label" },
    t(name)), h("span", { class: "total-value" }, value));
}

function render(j, days) {
  const s = j.totals || {};
  const clicks = s.clicks ?? 0;
  // Conversions come with conversion tracking; until the server reports
  // them for the period, they show as "—" rather than a made-up 0.
  const has = s.conversions !== undefined;
  const conv = s.conversions ?? 0;
  const rate = s.conversion_rate ?? (clicks ? conv / clicks : 0);
  clear($("#stats-totals")).append(
    total("stats.clicks", fmtNumber(clicks)),
    total("stats.conversions", has ? fmtNumber(conv) : "—"),
    total("stats.revenue", has ? money(s.revenue) : "—"),
    total("stats.rate", has ? (rate * 100).toLocaleString(lang(),
      { maximumFractionDigits: 2 }) + "%" : "—"));
  const hourly = days <= 1;
  const series = (j.series || []).map((b) => ({ label: label(bucketTime(b),
    hourly), value: count(b) }));
  const box0 = $("#stats-series");
  clear(box0).append(lineChart(series, { width: box0.clientWidth,
    title: t("stats.over_time"), colLabel: t("stats.time"),
    colValue: t("stats.clicks"), fmt: (v) => fmtNumber(v) }));
  const box = clear($("#stats-breakdowns"));
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
  const convRows = j.conversions_by_suffix || [];
  if (convRows.length) {
    box.append(h("div", { class: "card" }, h("h2", {},
      t("stats.conv_by_suffix")), barChart(convRows.map((r) => ({
      label: keyOf(r) || t("stats.unknown"),
      value: Number(r.conversions ?? 0) })), {
      title: t("stats.conv_by_suffix"), colLabel: t("stats.dim_suffix"),
      colValue: t("stats.conversions"), fmt: (v) => fmtNumber(v) })));
  }
}

async function load() {
  const days = Number($("#stats-range").value);
  const to = new Date();
  const from = new Date(to.getTime() - days * 86400000);
  const q = new URLSearchParams({ from: from.toISOString().replace(/\.\d+Z$/,
    "Z"), to: to.toISOString().replace(/\.\d+Z$/, "Z"),
  interval: days <= 1 ? "hour" : "day" });
  const mine = ++seq;
  try {
    const j = await api("GET", "links/" + current + "/stats?" + q);
    if (mine !== seq) return;
    $("#stats-unavailable").hidden = true;
    last = [j, days];
    render(j, days);
  } catch (e) {
    if (e.status === 404 && e.code === "not_found" && !e.param) {
      $("#stats-unavailable").hidden = false;
      return;
    }
    throw e;
  }
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
