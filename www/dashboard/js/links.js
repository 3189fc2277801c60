// links.js -- the Links section: create a link with every option of the
// API (spec 2.1, DESIGN 3.2), list, copy and delete.  The server checks
// everything; this form only shapes the body.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtTime, fmtNumber, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
let cursor = null;

function abRow(i, url = "", weight = 50) {
  return h("div", { class: "row" },
    h("div", { class: "field grow" },
      h("label", { for: `l-variants-${i}-url` }, t("links.variant_url",
        { n: i + 1 })),
      h("input", { id: `l-variants-${i}-url`, type: "url", value: url,
        placeholder: "https://", "data-ab": "url" })),
    h("div", { class: "field small" },
      h("label", { for: `l-variants-${i}-weight` }, t("links.weight")),
      h("input", { id: `l-variants-${i}-weight`, type: "number", min: 1,
        max: 100, value: weight, "data-ab": "weight" })),
    h("button", { type: "button", class: "secondary icon",
      "aria-label": t("links.remove_variant", { n: i + 1 }),
      onclick: (ev) => { ev.currentTarget.parentElement.remove(); } }, "×"));
}

function geoRow(i) {
  return h("div", { class: "row" },
    h("div", { class: "field small" },
      h("label", { for: `l-geo-${i}-country` }, t("links.country")),
      h("input", { id: `l-geo-${i}-country`, maxlength: 2, placeholder: "TW",
        autocapitalize: "characters", "data-geo": "country" })),
    h("div", { class: "field grow" },
      h("label", { for: `l-geo-${i}-url` }, t("links.country_url")),
      h("input", { id: `l-geo-${i}-url`, type: "url", placeholder: "https://",
        "data-geo": "url" })),
    h("button", { type: "button", class: "secondary icon",
      "aria-label": t("links.remove_country"),
      onclick: (ev) => { ev.currentTarget.parentElement.remove(); } }, "×"));
}

function modeChanged() {
  const mode = $("#l-mode").value;
  for (const m of ["ab", "device", "geo"]) {
    $("#variants-" + m).hidden = mode !== m;
  }
  if (mode === "ab" && !$("#ab-rows").children.length) {
    $("#ab-rows").append(abRow(0), abRow(1));
  }
  if (mode === "geo" && !$("#geo-rows").children.length) {
    $("#geo-rows").append(geoRow(0));
  }
}

const val = (id) => $(id).value.trim();

// The create body from the form: only what was filled in.
export function formBody() {
  const b = { target_url: val("#l-target_url") };
  if (val("#l-slug")) b.slug = val("#l-slug");
  if (val("#l-title")) b.title = val("#l-title");
  b.mode = $("#l-mode").value;
  b.redirect_type = Number($("#l-redirect_type").value);
  if (b.mode === "ab") {
    b.variants = [...$("#ab-rows").children].map((row) => ({
      url: row.querySelector("[data-ab=url]").value.trim(),
      weight: Number(row.querySelector("[data-ab=weight]").value),
    }));
  } else if (b.mode === "device") {
    b.variants = {};
    for (const d of ["ios", "android", "desktop"]) {
      if (val("#l-variants-" + d)) b.variants[d] = val("#l-variants-" + d);
    }
  } else if (b.mode === "geo") {
    b.variants = {};
    for (const row of $("#geo-rows").children) {
      const c = row.querySelector("[data-geo=country]").value.trim()
        .toUpperCase();
      const u = row.querySelector("[data-geo=url]").value.trim();
      if (c || u) b.variants[c] = u;
    }
  }
  const og = {};
  for (const k of ["title", "description", "image"]) {
    if (val("#l-og-" + k)) og[k] = val("#l-og-" + k);
  }
  if (Object.keys(og).length) b.og = og;
  for (const p of ["fb", "ga", "gtm", "tiktok", "line"]) {
    if (val("#l-pixel_" + p)) b["pixel_" + p] = val("#l-pixel_" + p);
  }
  if ($("#l-escape_inapp").checked) b.escape_inapp = true;
  if ($("#l-expires_at").value) {
    // datetime-local is the reader's local time; send it with its offset.
    const d = new Date($("#l-expires_at").value);
    if (!isNaN(d)) b.expires_at = d.toISOString();
    else b.expires_at = $("#l-expires_at").value;
  }
  if (val("#l-max_clicks") !== "") {
    const n = Number(val("#l-max_clicks"));
    b.max_clicks = Number.isInteger(n) ? n : val("#l-max_clicks");
  }
  const utm = {};
  for (const k of ["source", "medium", "campaign", "term", "content"]) {
    if (val("#l-utm-" + k)) utm[k] = val("#l-utm-" + k);
  }
  if (Object.keys(utm).length) b.utm = utm;
  if ($("#l-password").value) b.password = $("#l-password").value;
  return b;
}

function statusText(s) {
  return t("status." + s);
}

function linkRow(l) {
  const short = l.short_url;
  const del = async (ev) => {
    if (!confirm(t("links.confirm_delete", { slug: l.slug }))) return;
    try {
      await api("DELETE", "links/" + l.id);
      ev.target.closest("tr").remove();
      ctx.status(t("links.deleted", { slug: l.slug }));
      if (!$("#links-table tbody").children.length) {
        $("#links-empty").hidden = false;
      }
    } catch (e) {
      ctx.status(e.text);
    }
  };
  return h("tr", { "data-id": l.id },
    h("td", {},
      h("a", { href: short, class: "mono", rel: "noopener noreferrer",
        target: "_blank" }, short.replace(/^https?:\/\//, "")),
      l.title ? h("div", { class: "sub" }, l.title) : null,
      h("div", { class: "sub" }, t("mode." + l.mode),
        l.has_password ? " · " + t("links.protected") : "")),
    h("td", { class: "target", "data-label": t("links.col_target") },
      h("span", { class: "clip", title:
      l.target_url }, l.target_url)),
    h("td", { class: "num", "data-label": t("links.col_clicks") },
      fmtNumber(l.stats && l.stats.clicks)),
    h("td", { "data-label": t("links.col_status") }, h("span",
      { class: "badge " + l.status }, statusText(l.status))),
    h("td", { "data-label": t("links.col_created") }, fmtTime(l.created_at)),
    h("td", { class: "actions" },
      h("button", { type: "button", class: "secondary",
        "aria-label": t("links.copy_aria", { slug: l.slug }),
        onclick: (ev) => copyText(short, ev.currentTarget, ctx.status) },
      t("copy")),
      h("a", { class: "button secondary", href: "#stats/" + l.id,
        "aria-label": t("links.stats_aria", { slug: l.slug }) },
      t("links.stats")),
      h("a", { class: "button secondary", href: "#conversions/" + l.id,
        "aria-label": t("links.conv_aria", { slug: l.slug }) },
      t("links.conv")),
      h("button", { type: "button", class: "danger",
        "aria-label": t("links.delete_aria", { slug: l.slug }),
        onclick: del }, t("delete"))));
}

async function loadPage(more) {
  const tbody = $("#links-table tbody");
  const q = "links?limit=50" + (more && cursor ? "&cursor=" +
    encodeURIComponent(cursor) : "");
  const j = await api("GET", q);
  if (!more) clear(tbody);
  j.links.forEach((l) => tbody.append(linkRow(l)));
  cursor = j.next_cursor;
  $("#links-more").hidden = !cursor;
  $("#links-empty").hidden = tbody.children.length > 0;
}

export function setup(c) {
  ctx = c;
  $("#l-mode").addEventListener("change", modeChanged);
  $("#ab-add").addEventListener("click", () => {
    const n = $("#ab-rows").children.length;
    if (n < 10) {
      $("#ab-rows").append(abRow(n));
      $(`#l-variants-${n}-url`).focus();
    }
  });
  $("#geo-add").addEventListener("click", () => {
    const n = $("#geo-rows").children.length;
    $("#geo-rows").append(geoRow(n));
    $(`#l-geo-${n}-country`).focus();
  });
  $("#links-more").addEventListener("click", () => loadPage(true)
    .catch((e) => ctx.status(e.text)));
  $("#link-created-copy").addEventListener("click", (ev) =>
    copyText($("#link-created-url").value, ev.currentTarget, ctx.status));
  const form = $("#link-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    try {
      const j = await api("POST", "links", formBody());
      form.reset();
      clear($("#ab-rows"));
      clear($("#geo-rows"));
      modeChanged();
      $("#link-created-url").value = j.short_url;
      $("#link-created").hidden = false;
      $("#link-created").focus();
      ctx.status(t("links.created_status", { url: j.short_url }));
      await loadPage(false);
    } catch (e) {
      // Options tucked into a closed <details> are opened to show the
      // field at fault.
      if (e.param) {
        const id = "l-" + e.param.replace(/\[(\d+)\]/g, "-$1")
          .replace(/\./g, "-");
        const el = document.getElementById(id) ||
          document.getElementById("l-" + e.param.split(/[.[]/)[0]);
        const d = el && el.closest("details");
        if (d) d.open = true;
      }
      showError(form, e, "l-");
    }
  });
}

export async function show() {
  $("#link-created").hidden = true;
  modeChanged();
  await loadPage(false);
}
