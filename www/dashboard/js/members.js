// members.js -- the Members section (the account's people and roles,
// invitations made and pending: /dashboard/api/members, for owners and
// admins), the account switcher, and the page an invitation leads to
// (#invite/TOKEN).  The server checks every role; the page only shows.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtTime, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
let token = null;
const ROLES = ["viewer", "member", "admin", "owner"];

function memberRow(m, you) {
  const sel = h("select", { "aria-label": t("team.role_aria",
    { email: m.email }) }, ROLES.map((r) => h("option", { value: r,
    selected: r === m.role }, t("role." + r))));
  sel.addEventListener("change", async () => {
    try {
      await api("PATCH", "members/" + m.id, { role: sel.value });
      ctx.status(t("team.changed", { email: m.email,
        role: t("role." + sel.value) }));
    } catch (e) {
      sel.value = m.role;
      ctx.status(e.text);
    }
  });
  const remove = async () => {
    if (!confirm(t("team.confirm_remove", { email: m.email }))) return;
    try {
      await api("DELETE", "members/" + m.id);
      ctx.status(t("team.removed", { email: m.email }));
      await show();
    } catch (e) {
      ctx.status(e.text);
    }
  };
  return h("tr", { "data-id": String(m.id) },
    h("td", { "data-label": t("team.col_email") }, m.email,
      m.id === you ? " " + t("team.you") : ""),
    h("td", { "data-label": t("team.col_role") }, sel),
    h("td", { "data-label": t("team.col_joined") }, fmtTime(m.joined_at)),
    h("td", { class: "actions" }, h("button", { type: "button",
      class: "danger", onclick: remove, "aria-label": t("team.remove_aria",
        { email: m.email }) }, t("team.remove"))));
}

export async function show() {
  $("#invite-new").hidden = true;
  const j = await api("GET", "members");
  clear($("#members-table tbody")).append(...j.members.map((m) =>
    memberRow(m, j.you)));
  clear($("#invites-pending")).append(...j.invitations.map((i) =>
    h("li", {}, t("team.pending", { email: i.email, role: t("role." + i.role),
      until: fmtTime(i.expires_at) }))));
}

// The account switcher: the accounts of the user signed in.
export function drawSwitch(session) {
  const sel = $("#account-switch");
  const list = session.signed_in ? session.accounts || [] : [];
  sel.hidden = list.length < 2;
  clear(sel).append(...list.map((a) => h("option", { value: String(a.id),
    selected: session.account && a.id === session.account.id },
  a.email + " (" + t("role." + a.role) + ")")));
}

// #invite/TOKEN: join, with a password unless signed in.
export async function showInvite(arg) {
  token = arg || null;
  const signed = ctx.session().signed_in;
  $("#accept-signed").hidden = !signed;
  $("#accept-pw-field").hidden = signed;
}

export function setup(c) {
  ctx = c;
  const form = $("#invite-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    try {
      const j = await api("POST", "members", {
        email: $("#invite-email").value.trim(),
        role: $("#invite-role").value });
      form.reset();
      $("#invite-url").value = j.invitation_url;
      $("#invite-mailed").hidden = !j.mailed;
      $("#invite-new").hidden = false;
      $("#invite-new").focus();
      const list = await api("GET", "members");
      clear($("#invites-pending")).append(...list.invitations.map((i) =>
        h("li", {}, t("team.pending", { email: i.email,
          role: t("role." + i.role), until: fmtTime(i.expires_at) }))));
    } catch (e) {
      showError(form, e, "invite-");
    }
  });
  $("#invite-copy").addEventListener("click", (ev) =>
    copyText($("#invite-url").value, ev.currentTarget, ctx.status));
  const accept = $("#accept-form");
  accept.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(accept, null);
    try {
      const body = { token: token || "" };
      if (!ctx.session().signed_in)
        body.password = $("#accept-password").value;
      const j = await api("POST", "invitation", body);
      accept.reset();
      ctx.signedIn(j);
      location.hash = "#links";
    } catch (e) {
      showError(accept, e, "accept-");
    }
  });
  $("#account-switch").addEventListener("change", async (ev) => {
    try {
      const j = await api("POST", "switch",
        { account_id: Number(ev.target.value) });
      ctx.signedIn(j);
      location.hash = "#links";
    } catch (e) {
      ctx.status(e.text);
    }
  });
}
