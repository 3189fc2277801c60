// links.js -- the Links section: create a link with every option of the
// API (spec 2.1, DESIGN 3.2), edit it with the same form (DESIGN 3.9: a
// merge patch), search and filter the list, copy, show the QR code,
// export the clicks and delete.  The server checks everything; this form
// only shapes the body.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtTime, fmtNumber, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
let cursor = null;
// The link the form edits: its id, slug and create fields as loaded.
let editing = null;

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

function geoRow(i, country = "", url = "") {
  return h("div", { class: "row" },
    h("div", { class: "field small" },
      h("label", { for: `l-geo-${i}-country` }, t("links.country")),
      h("input", { id: `l-geo-${i}-country`, maxlength: 2, placeholder: "TW",
        value: country, autocapitalize: "characters", "data-geo": "country" })),
    h("div", { class: "field grow" },
      h("label", { for: `l-geo-${i}-url` }, t("links.country_url")),
      h("input", { id: `l-geo-${i}-url`, type: "url", placeholder: "https://",
        value: url, "data-geo": "url" })),
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
  // The default domain is the option without a value; fixed once made.
  if (!editing && $("#l-domain").value) b.domain = $("#l-domain").value;
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
  if (formTags.length) b.tags = [...formTags];
  if ($("#l-notes").value.trim()) b.notes = $("#l-notes").value;
  if ($("#l-archived").checked) b.archived = true;
  return b;
}

// ---- tags -------------------------------------------------------------

// The form's tags, as chips; the same tag in another case is one.
let formTags = [];
const fold = (t) => t.trim().toLocaleLowerCase();

function chip(name, label, onremove) {
  return h("span", { class: "chip" }, name,
    h("button", { type: "button", class: "chip-x", "aria-label": label,
      onclick: onremove }, "×"));
}

function drawTags() {
  const box = clear($("#l-tags"));
  formTags.forEach((name) => box.append(chip(name,
    t("links.remove_tag_aria", { tag: name }), () => {
      formTags = formTags.filter((x) => x !== name);
      drawTags();
      $("#l-tags-input").focus();
    })));
}

function setTags(list) {
  formTags = [...(list || [])];
  drawTags();
}

function addTag() {
  const input = $("#l-tags-input");
  const name = input.value.trim().replace(/,$/, "").trim();
  if (name && !formTags.some((x) => fold(x) === fold(name)) &&
      formTags.length < 20) {
    formTags.push(name);
    drawTags();
  }
  input.value = "";
}

// The list's tag filter: links carrying every tag chosen (by clicking
// one in the list).
let filterTags = [];

function drawFilter() {
  const box = clear($("#links-tag-filter"));
  box.hidden = !filterTags.length;
  if (filterTags.length) box.append(h("span", { class: "sub" },
    t("links.tag_filter")));
  filterTags.forEach((name) => box.append(chip(name,
    t("links.unfilter_tag_aria", { tag: name }), () => {
      filterTags = filterTags.filter((x) => x !== name);
      drawFilter();
      loadPage(false).catch((e) => ctx.status(e.text));
    })));
}

function filterBy(name) {
  if (!filterTags.some((x) => fold(x) === fold(name))) {
    filterTags.push(name);
    drawFilter();
    loadPage(false).catch((e) => ctx.status(e.text));
  }
}

function statusText(s) {
  return t("status." + s);
}

// ---- editing ----------------------------------------------------------

// The create fields of a link as GET shows it, in formBody()'s shape.
const FIELDS = ["target_url", "title", "mode", "variants", "redirect_type",
  "og", "pixel_fb", "pixel_ga", "pixel_gtm", "pixel_tiktok", "pixel_line",
  "escape_inapp", "expires_at", "max_clicks", "utm", "tags", "notes",
  "archived"];

function createFields(l) {
  const b = {};
  for (const k of FIELDS) {
    if (l[k] !== null && l[k] !== false && l[k] !== 0 &&
        !(Array.isArray(l[k]) && !l[k].length)) b[k] = l[k];
  }
  return b;
}

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The same instant to the minute (what datetime-local can hold).
function sameMinute(a, b) {
  return typeof a === "string" && typeof b === "string" &&
    Math.floor(Date.parse(a) / 60000) === Math.floor(Date.parse(b) / 60000);
}

// A JSON merge patch (RFC 7396) from the link as loaded to the form:
// what changed, and null for what was emptied (member by member in og,
// utm and the device and geo variants).
export function patchOf(before, after) {
  const p = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[k], b = after[k];
    if (b === undefined) {
      if (a !== undefined) p[k] = null;
    } else if (isObj(a) && isObj(b)) {
      const sub = patchOf(a, b);
      if (Object.keys(sub).length) p[k] = sub;
    } else if (k === "expires_at" && sameMinute(a, b)) {
      continue;
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      p[k] = b;
    }
  }
  return p;
}

// datetime-local wants the reader's local time, "YYYY-MM-DDTHH:MM".
function localTime(iso) {
  const d = new Date(iso);
  const z = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${z(d.getMonth() + 1)}-${z(d.getDate())}T` +
    `${z(d.getHours())}:${z(d.getMinutes())}`;
}

// Puts link l into the form.
function fill(l) {
  const form = $("#link-form");
  form.reset();
  clear($("#ab-rows"));
  clear($("#geo-rows"));
  $("#l-target_url").value = l.target_url;
  $("#l-slug").value = l.slug;
  domainOption(l.domain);
  $("#l-domain").value = [...$("#l-domain").options].find((o) =>
    o.textContent === l.domain)?.value ?? "";
  $("#l-title").value = l.title || "";
  $("#l-mode").value = l.mode;
  $("#l-redirect_type").value = String(l.redirect_type);
  if (l.mode === "ab") {
    l.variants.forEach((v, i) => $("#ab-rows").append(abRow(i, v.url,
      v.weight)));
  } else if (l.mode === "device") {
    for (const d of ["ios", "android", "desktop"]) {
      $("#l-variants-" + d).value = l.variants[d] || "";
    }
  } else if (l.mode === "geo") {
    Object.entries(l.variants).forEach(([c, u], i) =>
      $("#geo-rows").append(geoRow(i, c, u)));
  }
  modeChanged();
  for (const k of ["title", "description", "image"]) {
    $("#l-og-" + k).value = (l.og && l.og[k]) || "";
  }
  for (const p of ["fb", "ga", "gtm", "tiktok", "line"]) {
    $("#l-pixel_" + p).value = l["pixel_" + p] || "";
  }
  $("#l-escape_inapp").checked = l.escape_inapp;
  $("#l-expires_at").value = l.expires_at ? localTime(l.expires_at) : "";
  $("#l-max_clicks").value = l.max_clicks ? String(l.max_clicks) : "";
  for (const k of ["source", "medium", "campaign", "term", "content"]) {
    $("#l-utm-" + k).value = (l.utm && l.utm[k]) || "";
  }
  setTags(l.tags);
  $("#l-notes").value = l.notes || "";
  $("#l-archived").checked = !!l.archived;
}

// The form in create mode (l null) or editing link l.
function editMode(l) {
  editing = l && { id: l.id, slug: l.slug, before: createFields(l) };
  $("#l-slug").disabled = !!l;
  $("#l-domain").disabled = !!l;
  $("#l-slug-hint").hidden = !!l;
  $("#l-slug-fixed").hidden = !l;
  $("#l-password-keep").hidden = !(l && l.has_password);
  $("#l-password-clear-field").hidden = !(l && l.has_password);
  $("#link-cancel").hidden = !l;
  $("#link-form-title").textContent = l ? t("links.editing",
    { slug: l.slug }) : t("links.create");
  $("#link-submit").textContent = t(l ? "links.save_button" :
    "links.create_button");
  if (!l) {
    $("#link-form").reset();
    clear($("#ab-rows"));
    clear($("#geo-rows"));
    setTags([]);
    modeChanged();
  }
}

async function startEdit(id) {
  const j = await api("GET", "links/" + id);
  showError($("#link-form"), null);
  $("#link-created").hidden = true;
  fill(j.link);
  editMode(j.link);
  $("#link-form").scrollIntoView({ block: "start" });
  $("#l-target_url").focus();
}

// ---- QR codes ---------------------------------------------------------

function showQr(l) {
  const base = "/dashboard/api/links/" + l.id + "/qr";
  $("#qr-url").textContent = l.short_url;
  $("#qr-img").src = base + "?size=256";
  $("#qr-img").alt = t("links.qr_alt", { url: l.short_url });
  $("#qr-svg").href = base + "?format=svg&size=1024";
  $("#qr-svg").setAttribute("download", l.slug + ".svg");
  $("#qr-png").href = base + "?format=png&size=1024";
  $("#qr-png").setAttribute("download", l.slug + ".png");
  $("#qr-dialog").showModal();
}

// ---- the list ---------------------------------------------------------

function linkRow(l) {
  const short = l.short_url;
  const del = async (ev) => {
    if (!confirm(t("links.confirm_delete", { slug: l.slug }))) return;
    try {
      await api("DELETE", "links/" + l.id);
      ev.target.closest("tr").remove();
      ctx.status(t("links.deleted", { slug: l.slug }));
      if (editing && editing.id === l.id) editMode(null);
      if (!$("#links-table tbody").children.length) {
        $("#links-empty").hidden = false;
      }
    } catch (e) {
      ctx.status(e.text);
    }
  };
  return h("tr", { "data-id": l.id },
    h("td", { class: "select" }, h("input", { type: "checkbox",
      class: "link-select", value: String(l.id),
      "aria-label": t("links.select_aria", { slug: l.slug }),
      onchange: bulkBar })),
    h("td", {},
      h("a", { href: short, class: "mono", rel: "noopener noreferrer",
        target: "_blank" }, short.replace(/^https?:\/\//, "")),
      l.title ? h("div", { class: "sub" }, l.title) : null,
      h("div", { class: "sub" }, t("mode." + l.mode),
        l.has_password ? " · " + t("links.protected") : "",
        l.archived ? " · " + t("links.archived_badge") : ""),
      l.tags && l.tags.length ? h("div", { class: "chips" },
        l.tags.map((name) => h("button", { type: "button",
          class: "chip tag", "aria-label": t("links.filter_tag_aria",
            { tag: name }), onclick: () => filterBy(name) }, name))) :
        null),
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
      h("button", { type: "button", class: "secondary", "data-edit": l.id,
        "aria-label": t("links.edit_aria", { slug: l.slug }),
        onclick: () => startEdit(l.id).catch((e) => ctx.status(e.text)) },
      t("links.edit")),
      h("button", { type: "button", class: "secondary", "data-qr": l.id,
        "aria-label": t("links.qr_aria", { slug: l.slug }),
        onclick: () => showQr(l) }, t("links.qr")),
      h("a", { class: "button secondary", href: "#stats/" + l.id,
        "aria-label": t("links.stats_aria", { slug: l.slug }) },
      t("links.stats")),
      h("a", { class: "button secondary", "data-export": l.id,
        href: "/dashboard/api/links/" + l.id + "/clicks?format=csv",
        download: "lz-clicks-" + l.slug + ".csv",
        "aria-label": t("links.export_aria", { slug: l.slug }) },
      t("links.export")),
      h("a", { class: "button secondary", href: "#conversions/" + l.id,
        "aria-label": t("links.conv_aria", { slug: l.slug }) },
      t("links.conv")),
      h("button", { type: "button", class: "secondary", "data-archive": l.id,
        "aria-label": t(l.archived ? "links.unarchive_aria" :
          "links.archive_aria", { slug: l.slug }),
        onclick: () => archive(l, !l.archived) },
      t(l.archived ? "links.unarchive" : "links.archive")),
      h("button", { type: "button", class: "danger",
        "aria-label": t("links.delete_aria", { slug: l.slug }),
        onclick: del }, t("delete"))));
}

// The links ticked in the list.
function selected() {
  return [...document.querySelectorAll("#links-table .link-select")]
    .filter((x) => x.checked).map((x) => Number(x.value));
}

function bulkBar() {
  const n = selected().length;
  $("#links-bulk").hidden = n === 0;
  $("#links-bulk-count").textContent = t("links.bulk_count", { n });
}

// One bulk call (PATCH or DELETE links/bulk) on the ticked links; the
// list again, and how many items went through.
async function bulk(method, body) {
  const ids = selected();
  if (!ids.length) return;
  try {
    const j = await api(method, "links/bulk", { ids, ...body });
    const ok = j.results.filter((x) => x.ok).length;
    ctx.status(t("links.bulk_done", { ok, failed: ids.length - ok }));
    $("#links-select-all").checked = false;
    await loadPage(false);
    bulkBar();
  } catch (e) {
    ctx.status(e.text);
  }
}

function bulkTag(key) {
  const name = val("#links-bulk-tag");
  if (name) bulk("PATCH", { [key]: [name] });
}

async function archive(l, on) {
  try {
    await api("PATCH", "links/" + l.id, { archived: on });
    ctx.status(t(on ? "links.archived_done" : "links.unarchived_done",
      { slug: l.slug }));
    await loadPage(false);
  } catch (e) {
    ctx.status(e.text);
  }
}

async function loadPage(more) {
  const tbody = $("#links-table tbody");
  const q = val("#links-q"), st = $("#links-status").value;
  const arch = $("#links-archived").value;
  const path = "links?limit=50" + (q ? "&q=" + encodeURIComponent(q) : "") +
    (st ? "&status=" + st : "") +
    (arch !== "exclude" ? "&archived=" + arch : "") +
    filterTags.map((x) => "&tag=" + encodeURIComponent(x)).join("") +
    (more && cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
  const j = await api("GET", path);
  if (!more) clear(tbody);
  j.links.forEach((l) => tbody.append(linkRow(l)));
  cursor = j.next_cursor;
  $("#links-more").hidden = !cursor;
  const none = tbody.children.length === 0;
  const filtered = !!(q || st || filterTags.length || arch !== "exclude");
  $("#links-empty").hidden = !none || filtered;
  $("#links-no-match").hidden = !none || !filtered;
}

function setupBulk() {
  $("#links-select-all").addEventListener("change", (ev) => {
    document.querySelectorAll("#links-table .link-select").forEach((x) => {
      x.checked = ev.target.checked;
    });
    bulkBar();
  });
  $("#links-bulk-archive").addEventListener("click",
    () => bulk("PATCH", { patch: { archived: true } }));
  $("#links-bulk-tag-add").addEventListener("click",
    () => bulkTag("add_tags"));
  $("#links-bulk-tag-remove").addEventListener("click",
    () => bulkTag("remove_tags"));
  $("#links-bulk-delete").addEventListener("click", () => {
    if (confirm(t("links.bulk_confirm_delete", { n: selected().length })))
      bulk("DELETE", {});
  });
}

export function setup(c) {
  setupBulk();
  ctx = c;
  $("#l-tags-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === ",") {
      ev.preventDefault();
      addTag();
    }
  });
  $("#l-tags-input").addEventListener("blur", addTag);
  $("#links-archived").addEventListener("change",
    () => loadPage(false).catch((e) => ctx.status(e.text)));
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
  $("#links-search").addEventListener("submit", (ev) => {
    ev.preventDefault();
    loadPage(false).catch((e) => ctx.status(e.text));
  });
  $("#link-cancel").addEventListener("click", () => editMode(null));
  $("#qr-close").addEventListener("click", () => $("#qr-dialog").close());
  const form = $("#link-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    try {
      if (editing) {
        const body = formBody();
        delete body.slug;
        const patch = patchOf(editing.before, body);
        if ($("#l-password-clear").checked) patch.password = null;
        const j = await api("PATCH", "links/" + editing.id, patch);
        editMode(null);
        ctx.status(t("links.saved", { slug: j.link.slug }));
        await loadPage(false);
        const row = $(`#links-table tr[data-id="${j.link.id}"]`);
        if (row) row.querySelector("[data-edit]").focus();
        return;
      }
      const j = await api("POST", "links", formBody());
      editMode(null);
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

// The chooser of domains: the default one (no value) first.
let domainsLoaded = false;
function domainOption(host) {
  const sel = $("#l-domain");
  if (host && ![...sel.options].some((o) => o.textContent === host)) {
    sel.append(h("option", { value: sel.options.length ? host : "" },
      host));
  }
}

async function loadDomains() {
  if (domainsLoaded) return;
  const j = await api("GET", "domains");
  const sel = clear($("#l-domain"));
  j.domains.filter((d) => d.verified).forEach((d) => sel.append(
    h("option", { value: d.default ? "" : d.host }, d.host)));
  domainsLoaded = true;
}

export async function show() {
  $("#link-created").hidden = true;
  domainsLoaded = false;
  await loadDomains();
  editMode(null);
  await loadPage(false);
}
