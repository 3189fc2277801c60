// domains.js -- the Domains section: the short domains the account may
// use (the default one, the instance's, its own), adding one of its own
// with the DNS TXT record to publish, verifying it, setting where its
// visitors go (its root, unknown slugs, expired links), and removing it.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtNumber, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
const URLS = ["root_url", "not_found_url", "expired_url"];

function fieldId(d, name) {
  return "dom-" + d.host.replace(/[^a-z0-9]/g, "-") + "-" + name;
}

function addForm() {
  const form = h("form", { class: "card", novalidate: true, id: "dom-form" },
    h("h2", {}, t("dom.add")),
    h("div", { class: "field" },
      h("label", { for: "dom-host" }, t("dom.host")),
      h("input", { id: "dom-host", type: "text", required: true,
        placeholder: "go.example.com", autocapitalize: "none",
        spellcheck: "false" })),
    h("p", { class: "error", role: "alert", "data-error": true }),
    h("button", { type: "submit" }, t("dom.add_button")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    try {
      const j = await api("POST", "domains", { host: $("#dom-host").value
        .trim() });
      await show();
      ctx.status(t("dom.added", { host: j.domain.host }));
      const card = document.querySelector(
        'article.domain[data-host="' + CSS.escape(j.domain.host) + '"]');
      if (card) card.focus();
    } catch (e) {
      showError(form, e, "dom-");
    }
  });
  return form;
}

// The TXT record of a domain not verified yet, with copy buttons.
function recordBox(v) {
  const row = (label, value) => h("div", { class: "copyrow" },
    h("span", { class: "label" }, label),
    h("input", { class: "mono", readonly: true, value,
      "aria-label": label }),
    h("button", { type: "button", class: "secondary",
      onclick: (ev) => copyText(value, ev.currentTarget, ctx.status) },
    t("copy")));
  return h("div", { class: "record" },
    h("p", {}, t("dom.publish")),
    row(t("dom.rec_type"), v.type), row(t("dom.rec_name"), v.name),
    row(t("dom.rec_value"), v.value));
}

function urlsForm(d) {
  const form = h("form", { class: "urls", novalidate: true },
    URLS.map((u) => h("div", { class: "field" },
      h("label", { for: fieldId(d, u) }, t("dom." + u)),
      h("input", { id: fieldId(d, u), type: "url", inputmode: "url",
        placeholder: "https://", value: d[u] || "" }))),
    h("p", { class: "error", role: "alert", "data-error": true }),
    h("button", { type: "submit", class: "secondary" }, t("dom.save")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    const body = {};
    for (const u of URLS) {
      const v = $("#" + fieldId(d, u)).value.trim();
      body[u] = v === "" ? null : v;
    }
    try {
      await api("PATCH", "domains/" + encodeURIComponent(d.host), body);
      ctx.status(t("dom.saved"));
    } catch (e) {
      showError(form, e, fieldId(d, ""));
    }
  });
  return form;
}

function domainCard(d) {
  const own = d.scope === "account";
  const state = d.default ? "default" : d.verified ? "verified" :
    "unverified";
  const act = async (method, path, ok) => {
    try {
      await api(method, "domains/" + encodeURIComponent(d.host) + path,
        method === "POST" ? {} : undefined);
      ctx.status(t(ok, { host: d.host }));
      await show();
    } catch (e) {
      ctx.status(e.text);
    }
  };
  return h("article", { class: "card domain", "data-host": d.host,
    tabindex: "-1" },
  h("h2", { class: "mono clip" }, d.host),
  h("p", {}, h("span", { class: "badge " + state }, t("dom.s_" + state)),
    " ", t(d.default ? "dom.scope_default" : "dom.scope_" + d.scope), " · ",
    t("dom.links", { n: fmtNumber(d.links) })),
  own && !d.verified && d.verification ? recordBox(d.verification) : null,
  own ? urlsForm(d) : null,
  own ? h("div", { class: "actions" },
    !d.verified ? h("button", { type: "button",
      onclick: () => act("POST", "/verify", "dom.verified") },
    t("dom.verify")) : null,
    h("button", { type: "button", class: "danger", onclick: () => {
      if (confirm(t("dom.confirm_remove", { host: d.host }))) {
        act("DELETE", "", "dom.removed");
      } } }, t("dom.remove"))) : null);
}

export function setup(c) {
  ctx = c;
}

export async function show() {
  const body = clear($("#domains-body"));
  const j = await api("GET", "domains");
  body.append(addForm());
  j.domains.forEach((d) => body.append(domainCard(d)));
}

// The domains links may go on, for the create form's chooser: the
// default one first.
export async function usable() {
  const j = await api("GET", "domains");
  return j.domains.filter((d) => d.verified);
}
