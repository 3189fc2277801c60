// keys.js -- the Developer API section: generate a key (shown once, with
// a copy button), list keys by prefix and last four, revoke.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtTime, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;

function keyRow(k) {
  const revoke = async () => {
    if (!confirm(t("api.confirm_revoke", { key: k.prefix + "…" + k.last4 }))) {
      return;
    }
    try {
      await api("DELETE", "keys/" + k.id);
      ctx.status(t("api.revoked_status"));
      await load();
    } catch (e) {
      ctx.status(e.text);
    }
  };
  return h("tr", { "data-id": k.id },
    h("td", { class: "mono" }, k.prefix + "…" + k.last4),
    h("td", { "data-label": t("api.col_name") }, k.name || "—"),
    h("td", { "data-label": t("api.col_status") }, h("span",
      { class: "badge " + k.status }, t("api.status_" + k.status))),
    h("td", { "data-label": t("api.col_created") }, fmtTime(k.created_at)),
    h("td", { "data-label": t("api.col_used") }, k.last_used_at ?
      fmtTime(k.last_used_at) : t("api.never")),
    h("td", { class: "actions" }, k.status === "active" ?
      h("button", { type: "button", class: "danger", onclick: revoke,
        "aria-label": t("api.revoke_aria", { key: k.prefix + "…" +
          k.last4 }) }, t("api.revoke")) : null));
}

async function load() {
  const j = await api("GET", "keys");
  const tbody = clear($("#keys-table tbody"));
  j.keys.slice().reverse().forEach((k) => tbody.append(keyRow(k)));
  $("#keys-empty").hidden = j.keys.length > 0;
}

export function setup(c) {
  ctx = c;
  const form = $("#key-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    try {
      const j = await api("POST", "keys", { name: $("#key-name").value.trim() });
      form.reset();
      $("#key-new-secret").value = j.secret;
      $("#key-example").textContent = "curl -H 'Authorization: Bearer " +
        j.secret + "' " + (ctx.session().base_url || location.origin) +
        "/api/v1/links";
      $("#key-new").hidden = false;
      $("#key-new").focus();
      ctx.status(t("api.created_status"));
      await load();
    } catch (e) {
      showError(form, e, "key-");
    }
  });
  $("#key-new-copy").addEventListener("click", (ev) =>
    copyText($("#key-new-secret").value, ev.currentTarget, ctx.status));
}

export async function show() {
  // The secret of the last key made is not kept once the section is left.
  $("#key-new").hidden = true;
  $("#key-new-secret").value = "";
  $("#key-example").textContent = "";
  await load();
}
