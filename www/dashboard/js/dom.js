// dom.js -- building elements without HTML strings.  Text from the server
// only ever becomes a text node or an attribute value, never markup, so a
// title like "<img onerror=...>" shows as the characters it is.

import { t, lang } from "./i18n.js";

// h("a", {href: "#x", class: "y"}, "text", child, ...)
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v);
    } else if (k === "class") {
      el.className = v;
    } else {
      el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

// A date-time from the API ("2026-01-02T03:04:05Z") in the reader's zone.
export function fmtTime(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  if (isNaN(d)) return iso;
  return d.toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
}

export function fmtNumber(n) {
  return Number(n || 0).toLocaleString(lang());
}

// Copies text; the button says so for a moment (and screen readers hear
// it through the status line).
export async function copyText(text, button, status) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch (e) {
    const ta = h("textarea", { "aria-hidden": "true", class: "offscreen" },
      text);
    document.body.append(ta);
    ta.select();
    try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
    ta.remove();
  }
  if (button) {
    const was = button.textContent;
    button.textContent = ok ? t("copied") : t("copy_failed");
    setTimeout(() => { button.textContent = was; }, 1500);
  }
  if (status) status(ok ? t("copied") : t("copy_failed"));
  return ok;
}

// Shows an API error in the form's [data-error] and focuses the field it
// names (param "og.title" -> #l-og-title, "variants[1].url" -> its row).
export function showError(form, err, prefix = "") {
  const box = form.querySelector("[data-error]");
  if (box) box.textContent = err ? err.text : "";
  form.querySelectorAll("[aria-invalid]").forEach(
    (el) => el.removeAttribute("aria-invalid"));
  if (!err || !err.param) return;
  const id = prefix + err.param.replace(/\[(\d+)\]/g, "-$1").replace(/\./g, "-");
  const field = document.getElementById(id) ||
    document.getElementById(prefix + err.param.split(/[.[]/)[0]);
  if (field) {
    field.setAttribute("aria-invalid", "true");
    if (box && box.id) field.setAttribute("aria-describedby", box.id);
    field.focus();
  }
}
