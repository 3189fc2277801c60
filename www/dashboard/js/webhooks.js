// webhooks.js -- the Webhooks section: add a receiving URL and its
// events (the signing secret is shown once), rotate the secret, disable,
// the delivery log with status codes, and a test event.

import { api } from "./api.js";
import { $, h, clear, copyText, fmtTime, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
// The events, and whether a new subscription has it ticked: the two of
// the first release are, as lzctl webhook add chooses them by default.
const EVENTS = [["click", true], ["link.created", true],
  ["link.updated", false], ["link.deleted", false]];

function secretBox(secret) {
  const input = h("input", { class: "mono", readonly: true, value: secret,
    id: "hook-secret", "aria-label": t("hooks.secret") });
  const box = h("div", { class: "card ok", tabindex: "-1", id: "hook-secret-box" },
    h("p", {}, t("hooks.secret_once")),
    h("div", { class: "copyrow" }, input,
      h("button", { type: "button", onclick: (ev) => copyText(secret,
        ev.currentTarget, ctx.status) }, t("copy"))));
  return box;
}

function addForm() {
  const form = h("form", { class: "card", novalidate: true, id: "hook-form" },
    h("h2", {}, t("hooks.add")),
    h("div", { class: "field" },
      h("label", { for: "hook-url" }, t("hooks.url")),
      h("input", { id: "hook-url", type: "url", required: true,
        placeholder: "https://", inputmode: "url" })),
    h("fieldset", { id: "hook-events" }, h("legend", {}, t("hooks.events")),
      EVENTS.map(([ev, on]) => h("div", { class: "field check" },
        h("input", { type: "checkbox", id: "hook-ev-" + ev.replace(".", "-"),
          value: ev, checked: on }),
        h("label", { for: "hook-ev-" + ev.replace(".", "-") },
          t("hooks.ev_" + ev.replace(".", "_")))))),
    h("p", { class: "error", role: "alert", "data-error": true }),
    h("button", { type: "submit" }, t("hooks.add_button")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    const events = [...form.querySelectorAll("#hook-events input:checked")]
      .map((i) => i.value);
    try {
      const j = await api("POST", "webhooks", { url: $("#hook-url").value
        .trim(), events });
      await show();
      const box = secretBox(j.secret);
      $("#hooks-body").prepend(box);
      box.focus();
      ctx.status(t("hooks.added"));
    } catch (e) {
      showError(form, e, "hook-");
    }
  });
  return form;
}

function deliveryTable(list) {
  if (!list.length) return h("p", { class: "hint" }, t("hooks.no_deliveries"));
  return h("div", { class: "table-wrap" }, h("table", { class: "deliveries" },
    h("thead", {}, h("tr", {},
      ["hooks.d_time", "hooks.d_event", "hooks.d_status", "hooks.d_code",
        "hooks.d_attempts", "hooks.d_next"].map((k) => h("th",
        { scope: "col" }, t(k))))),
    h("tbody", {}, list.map((d) => h("tr", {},
      h("td", {}, fmtTime(d.created_at)),
      h("td", { class: "mono" }, d.event),
      h("td", {}, h("span", { class: "badge " + d.state },
        t("hooks.ds_" + d.state))),
      h("td", { class: "num", title: d.last_error || "" },
        d.last_status_code ? String(d.last_status_code) :
          (d.last_error || "—")),
      h("td", { class: "num" }, String(d.attempts ?? 0)),
      h("td", {}, d.next_attempt_at ? fmtTime(d.next_attempt_at) : "—"))))));
}

function hookCard(w) {
  const log = h("div", { class: "log" });
  const act = async (what, ok) => {
    try {
      const j = await api("POST", "webhooks/" + w.id + "/" + what, {});
      if (j.secret) {
        const box = secretBox(j.secret);
        card.after(box);
        box.focus();
      }
      ctx.status(t(ok));
      if (what === "disable") await show();
      else await loadLog();
    } catch (e) {
      ctx.status(e.text);
    }
  };
  const loadLog = async () => {
    const j = await api("GET", "webhooks/" + w.id + "/deliveries");
    clear(log).append(h("h3", {}, t("hooks.log")), deliveryTable(j.deliveries));
  };
  const card = h("article", { class: "card hook", "data-id": w.id },
    h("h2", { class: "mono clip" }, w.url),
    h("p", {}, h("span", { class: "badge " + w.status },
      t("hooks.s_" + w.status)), " ",
    w.events.map((e) => t("hooks.ev_" + e.replace(".", "_"))).join(", ")),
    w.status === "disabled" && w.disabled_reason ?
      h("p", { class: "hint" }, t("hooks.why_disabled",
        { reason: w.disabled_reason })) : null,
    h("div", { class: "actions" },
      w.status === "active" ? h("button", { type: "button",
        class: "secondary", onclick: () => act("test", "hooks.test_sent") },
      t("hooks.test")) : null,
      w.status === "active" ? h("button", { type: "button",
        class: "secondary", onclick: () => {
          if (confirm(t("hooks.confirm_rotate"))) {
            act("rotate", "hooks.rotated");
          } } }, t("hooks.rotate")) : null,
      w.status === "active" ?
        h("button", { type: "button", class: "danger",
          onclick: () => { if (confirm(t("hooks.confirm_disable"))) {
            act("disable", "hooks.disabled");
          } } }, t("hooks.disable")) : null,
      h("button", { type: "button", class: "secondary",
        onclick: () => loadLog().catch((e) => ctx.status(e.text)) },
      t("hooks.refresh"))),
    log);
  loadLog().catch((e) => ctx.status(e.text));
  return card;
}

export function setup(c) {
  ctx = c;
}

export async function show() {
  const body = clear($("#hooks-body"));
  let j;
  try {
    j = await api("GET", "webhooks");
  } catch (e) {
    if (e.status === 404) {
      body.append(h("p", { class: "hint" }, t("hooks.unavailable")));
      return;
    }
    throw e;
  }
  body.append(addForm());
  if (!j.webhooks.length) body.append(h("p", { class: "hint" }, t("hooks.empty")));
  j.webhooks.forEach((w) => body.append(hookCard(w)));
}
