// conversions.js -- the Conversions section: the pixel tag and a POST
// snippet for a chosen link, prefilled (spec 2.4, DESIGN 3.7).  Both run
// in the buyer's browser on the thank-you page: the service knows a
// visitor by address and User-Agent, as for clicks (lz-links(8)).

import { api } from "./api.js";
import { $, h, clear, copyText } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
let linksById = new Map();

function render() {
  const l = linksById.get($("#conv-link").value);
  // The service's own address: the dashboard may live on a host of its
  // own (dashboard_host), reports go to the short links' host.
  const origin = ctx.session().base_url || location.origin;
  if (!l) {
    $("#conv-pixel").value = "";
    $("#conv-post").value = "";
    return;
  }
  const q = new URLSearchParams({ slug: l.slug });
  const value = $("#conv-value").value.trim();
  const currency = $("#conv-currency").value.trim().toUpperCase();
  const suffix = $("#conv-suffix").value.trim();
  if (value) q.set("value", value);
  if (currency) q.set("currency", currency);
  if (suffix) q.set("suffix", suffix);
  // The snippet is text for the reader to paste elsewhere; it is shown in
  // a read-only textarea, never inserted as markup here.
  const src = origin + "/api/conv?" + q.toString();
  $("#conv-pixel").value = '<img src="' + src.replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;") + '" width="1" height="1" alt="" ' +
    'style="display:none">';
  const body = { slug: l.slug };
  // A JSON number when it is one (the service reads its digits, not a
  // float), else the text as typed, for the service to judge.
  if (value) body.value = /^(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/
    .test(value) ? Number(value) : value;
  if (currency) body.currency = currency;
  if (suffix) body.suffix = suffix;
  // "<" escaped, so no typed text can close the script element.
  const json = JSON.stringify(body).replace(/</g, "\\u003c");
  $("#conv-post").value = "<script>\n" +
    "fetch(" + JSON.stringify(origin + "/api/conv") + ", {\n" +
    "  method: \"POST\", keepalive: true,\n" +
    "  headers: { \"Content-Type\": \"application/json\" },\n" +
    "  body: JSON.stringify(" + json + ")\n" +
    "});\n" +
    "</script>";
}

export function setup(c) {
  ctx = c;
  for (const id of ["#conv-link", "#conv-value", "#conv-currency",
    "#conv-suffix"]) {
    $(id).addEventListener("input", render);
    $(id).addEventListener("change", render);
  }
  $("#conv-pixel-copy").addEventListener("click", (ev) =>
    copyText($("#conv-pixel").value, ev.currentTarget, ctx.status));
  $("#conv-post-copy").addEventListener("click", (ev) =>
    copyText($("#conv-post").value, ev.currentTarget, ctx.status));
}

export async function show(id) {
  const [j, acct] = await Promise.all([api("GET", "links?limit=100"),
    api("GET", "account")]);
  $("#conv-plan").hidden = !!acct.plan.conversions;
  linksById = new Map(j.links.map((l) => [String(l.id), l]));
  const sel = clear($("#conv-link"));
  j.links.forEach((l) => sel.append(h("option", { value: l.id },
    l.slug + (l.title ? " — " + l.title : ""))));
  if (id && linksById.has(id)) sel.value = id;
  $("#conv-empty").hidden = j.links.length > 0;
  $("#conv-form").hidden = j.links.length === 0;
  render();
}
