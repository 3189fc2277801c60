// account.js -- the Account section: plan, API calls used this month,
// links used of the cap, password change.

import { api } from "./api.js";
import { $, h, clear, fmtNumber, fmtTime, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;

function meter(used, cap, label) {
  const pct = cap > 0 ? Math.min(100, Math.round((used * 100) / cap)) : 0;
  return h("div", { class: "meter-wrap" },
    h("meter", { min: 0, max: cap, value: Math.min(used, cap), low:
      cap * 0.7, high: cap * 0.9, optimum: 0, "aria-label": label }),
    h("p", {}, t("account.of", { used: fmtNumber(used), cap: fmtNumber(cap),
      pct })));
}

export function setup(c) {
  ctx = c;
  const form = $("#password-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    try {
      await api("POST", "password", { current_password: $("#pw-current").value,
        new_password: $("#pw-new").value });
      form.reset();
      ctx.status(t("account.changed"));
    } catch (e) {
      showError(form, e, "pw-");
      if (e.param === "current_password") $("#pw-current").focus();
      if (e.param === "new_password") $("#pw-new").focus();
    }
  });
}

export async function show() {
  const j = await api("GET", "account");
  const dl = clear($("#account-info"));
  const item = (k, v) => [h("dt", {}, t(k)), h("dd", {}, v)];
  dl.append(...item("account.email", j.account.email),
    ...item("account.plan", j.plan.name),
    ...item("account.conversions", j.plan.conversions ? t("yes") : t("no")),
    ...item("account.since", fmtTime(j.account.created_at)));
  clear($("#quota-meter")).append(meter(j.usage.calls, j.usage.quota,
    t("account.quota")), h("p", { class: "hint" }, t("account.resets",
    { time: fmtTime(j.usage.resets_at) })));
  clear($("#links-meter")).append(meter(j.links.used, j.links.cap,
    t("account.links")));
}
