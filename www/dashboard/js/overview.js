// overview.js -- the Overview section: the statistics of all the
// account's links summed (GET stats: the handler of /api/v1/stats,
// lz-links(8) "Statistics across links"), of one tag and/or one domain
// when chosen, with the links that had most clicks in the period.  The
// server reads account and tag sums kept beside each link's: the page
// costs the same with ten links or ten thousand.

import { api } from "./api.js";
import { $, h, clear, fmtNumber } from "./dom.js";
import { t } from "./i18n.js";
import { render, rangeQuery } from "./stats.js";

let ctx;
let seq = 0;     // the latest load: an older answer arriving late is dropped
let last = null;

function topTable(rows) {
  if (!rows.length) return h("p", { class: "hint" }, t("stats.none"));
  return h("div", { class: "table-wrap" }, h("table", { id: "ov-top-table" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("ov.link")),
      h("th", { scope: "col", class: "num" }, t("stats.clicks")),
      h("th", { scope: "col", class: "num" }, t("stats.conversions")))),
    h("tbody", {}, rows.map((r) => h("tr", { "data-id": String(r.id) },
      h("th", { scope: "row" }, h("a", { href: "#stats/" + r.id },
        r.short_url)),
      h("td", { class: "num" }, fmtNumber(r.clicks)),
      h("td", { class: "num" }, fmtNumber(r.conversions)))))));
}

async function load() {
  const days = Number($("#ov-range").value);
  const q = rangeQuery(days);
  if ($("#ov-tag").value) q.set("tag", $("#ov-tag").value);
  if ($("#ov-domain").value) q.set("domain", $("#ov-domain").value);
  const mine = ++seq;
  const j = await api("GET", "stats?" + q);
  if (mine !== seq) return;
  last = [j, days];
  render(j, days, "ov");
  clear($("#ov-top")).append(topTable(j.top_links || []));
}

// The choices of a filter: "" (all) first, the chosen one kept.
function fill(sel, all, values) {
  const was = sel.value;
  clear(sel).append(h("option", { value: "" }, all),
    ...values.map((v) => h("option", { value: v }, v)));
  sel.value = values.includes(was) ? was : "";
}

export function setup(c) {
  ctx = c;
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (last && !$("#view-overview").hidden) render(...last, "ov");
    }, 150);
  });
  for (const id of ["#ov-range", "#ov-tag", "#ov-domain"])
    $(id).addEventListener("change", () => load()
      .catch((e) => ctx.status(e.text)));
}

// arg: a tag to show at once (#overview/TAG, from a tag's chip).
export async function show(arg) {
  const [tags, doms] = await Promise.all([api("GET", "tags"),
    api("GET", "domains")]);
  fill($("#ov-tag"), t("ov.all_tags"), (tags.tags || []).map((x) => x.name));
  fill($("#ov-domain"), t("ov.all_domains"), (doms.domains || [])
    .filter((d) => d.verified !== false).map((d) => d.host));
  if (arg) {
    const want = decodeURIComponent(arg);
    if ([...$("#ov-tag").options].some((o) => o.value === want))
      $("#ov-tag").value = want;
  }
  await load();
}
