// i18n.js -- English and Traditional Chinese.  Static text carries
// data-i18n (text), data-i18n-placeholder and data-i18n-aria-label
// attributes; scripts call t("key", {name: value}).

const LANGS = ["en", "zh-Hant"];
let current = "en";
let strings = {};
let fallback = {};

async function load(code) {
  const r = await fetch("i18n/" + code + ".json", { cache: "no-cache" });
  if (!r.ok) throw new Error("i18n " + code + ": " + r.status);
  return r.json();
}

export function lang() {
  return current;
}

export function pickLang() {
  const saved = localStorage.getItem("lz.lang");
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    if (/^zh(-(hant|tw|hk|mo)\b|$)/i.test(l)) return "zh-Hant";
    if (/^en\b/i.test(l)) return "en";
  }
  return "en";
}

export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  strings = code === "en" ? fallback : await load(code);
  current = code;
  localStorage.setItem("lz.lang", code);
  document.documentElement.lang = code;
  apply(document);
}

export function t(key, vars) {
  let s = strings[key] ?? fallback[key] ?? key;
  if (vars) {
    s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  }
  return s;
}

export function apply(root) {
  root.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.dataset.i18n);
  });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  });
  root.querySelectorAll("[data-i18n-aria-label]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  });
  document.title = t("title");
}
