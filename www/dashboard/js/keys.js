// keys.js -- the Developer API section: generate a key (shown once, with
// a copy button) with the scopes it may use and an optional end, list
// keys by prefix and last four, revoke; and the account's audit log.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtTime, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
let auditCursor = null;
// What a key may do (lz-links(8) "API keys"); a new key gets all but the
// audit log checked.
const SCOPES = ["links:read", "links:write", "stats:read", "conversions:read",
  "domains:read", "domains:write", "tags:write", "audit:read"];

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
    h("td", { "data-label": t("api.col_scopes"), class: "mono" },
      (k.scopes || []).join(" ")),
    h("td", { "data-label": t("api.col_status") }, h("span",
      { class: "badge " + k.status }, t("api.status_" + k.status))),
    h("td", { "data-label": t("api.col_expires") }, k.expires_at ?
      fmtTime(k.expires_at) : t("api.never")),
    h("td", { "data-label": t("api.col_created") }, fmtTime(k.created_at)),
    h("td", { "data-label": t("api.col_used") }, k.last_used_at ?
      fmtTime(k.last_used_at) : t("api.never")),
    h("td", { class: "actions" }, k.status === "active" ?
      h("button", { type: "button", class: "danger", onclick: revoke,
        "aria-label": t("api.revoke_aria", { key: k.prefix + "…" +
          k.last4 }) }, t("api.revoke")) : null));
}

function auditRow(e) {
  return h("tr", { "data-id": String(e.id) },
    h("td", { "data-label": t("audit.col_at") }, fmtTime(e.at)),
    h("td", { "data-label": t("audit.col_action"), class: "mono" },
      e.action),
    h("td", { "data-label": t("audit.col_target") }, e.target || "—"),
    h("td", { "data-label": t("audit.col_actor"), class: "mono" }, e.actor),
    h("td", { "data-label": t("audit.col_network"), class: "mono" },
      e.network || "—"));
}

async function loadAudit(more) {
  const q = more && auditCursor ? "?cursor=" +
    encodeURIComponent(auditCursor) : "";
  const j = await api("GET", "audit" + q);
  const tbody = $("#audit-table tbody");
  if (!more) clear(tbody);
  j.entries.forEach((e) => tbody.append(auditRow(e)));
  auditCursor = j.next_cursor;
  $("#audit-more").hidden = !auditCursor;
}

function scopeBoxes() {
  const box = $("#key-scopes");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const s of SCOPES) {
    const id = "key-scope-" + s.replace(":", "-");
    box.append(h("label", { for: id, class: "check" },
      h("input", { type: "checkbox", id, value: s,
        checked: s !== "audit:read" }), " " + t("api.scope_" + s)));
  }
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
      const scopes = [...document.querySelectorAll("#key-scopes input")]
        .filter((x) => x.checked).map((x) => x.value);
      const day = $("#key-expires").value;
      const j = await api("POST", "keys", { name: $("#key-name").value.trim(),
        scopes, expires_at: day ? day + "T00:00:00Z" : null });
      form.reset();
      scopeBoxes();
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
  $("#audit-more").addEventListener("click", () => loadAudit(true)
    .catch((e) => ctx.status(e.text)));
}

export async function show() {
  // The secret of the last key made is not kept once the section is left.
  $("#key-new").hidden = true;
  $("#key-new-secret").value = "";
  $("#key-example").textContent = "";
  scopeBoxes();
  await load();
  await loadAudit(false);
}
