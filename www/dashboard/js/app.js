// app.js -- the dashboard: session, sign-in and sign-up, the language
// switch and the sections (location.hash: #overview, #links, #stats/ID,
// #api, #import, #domains, #webhooks, #conversions/ID, #members,
// #account, #invite/TOKEN).

import { api, setCsrf, whenSignedOut } from "./api.js";
import { $, h, showError } from "./dom.js";
import { apply, pickLang, setLang, t, lang } from "./i18n.js";
import * as links from "./links.js";
import * as stats from "./stats.js";
import * as overview from "./overview.js";
import * as imports from "./import.js";
import * as members from "./members.js";
import * as keys from "./keys.js";
import * as hooks from "./webhooks.js";
import * as domains from "./domains.js";
import * as conv from "./conversions.js";
import * as account from "./account.js";

const views = {
  overview: overview.show, links: links.show, stats: stats.show,
  api: keys.show, import: imports.show, members: members.show,
  invite: members.showInvite,
  domains: domains.show, webhooks: hooks.show, conversions: conv.show, account: account.show,
};
let session = { signed_in: false, signup: "closed" };

// The status line (role=status) for short confirmations.
export function status(msg) {
  const el = $("#status");
  el.textContent = "";
  // A new text node so screen readers announce a repeated message too.
  setTimeout(() => { el.textContent = msg; }, 30);
}
const ctx = { status, session: () => session, signedIn: (j) => signedIn(j),
  route: () => route() };

function showOnly(name) {
  document.querySelectorAll(".view").forEach((v) => {
    v.hidden = v.id !== "view-" + name;
  });
  $("#loading").hidden = true;
  $("#nav").hidden = !session.signed_in;
  $("#signout").hidden = !session.signed_in;
  document.querySelectorAll("#nav a").forEach((a) => {
    const cur = a.dataset.view === name ||
      (name === "stats" && a.dataset.view === "links");
    if (cur) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
}

let lastView = null;
async function route() {
  members.drawSwitch(session);
  // An invitation's page opens signed in or not.
  if (location.hash.startsWith("#invite/")) {
    showOnly("invite");
    $("#nav").hidden = true;
    await members.showInvite(location.hash.slice("#invite/".length));
    return;
  }
  if (!session.signed_in) {
    showOnly("auth");
    $("#signup-form").hidden = session.signup !== "open" ||
      $("#signup-form").dataset.chosen !== "1";
    $("#signin-form").hidden = !$("#signup-form").hidden;
    $("#signup-closed").hidden = session.signup === "open";
    $("#auth-switch").hidden = session.signup !== "open";
    $("#auth-switch").textContent = $("#signup-form").hidden ?
      t("auth.to_signup") : t("auth.to_signin");
    return;
  }
  const [name, arg] = location.hash.slice(1).split("/");
  const view = views[name] ? name : "links";
  if (lastView !== null && lastView !== location.hash) {
    $("#status").textContent = "";
    document.querySelectorAll("[data-error]").forEach((e) => {
      e.textContent = "";
    });
  }
  showOnly(view);
  try {
    await views[view](arg, ctx);
  } catch (e) {
    status(e.text || String(e));
  }
  // Moving between sections: put the keyboard focus on the new heading.
  if (lastView !== null && lastView !== location.hash) {
    const h1 = $("#view-" + view + " h1");
    if (h1) {
      h1.tabIndex = -1;
      h1.focus();
    }
  }
  lastView = location.hash;
}

async function refreshSession() {
  session = await api("GET", "session");
  setCsrf(session.csrf_token);
}

function signedIn(j) {
  session = j;
  setCsrf(j.csrf_token);
  if (!location.hash || location.hash === "#") location.hash = "#links";
  route();
}

function credentials(form) {
  return { email: form.elements.email.value.trim(),
    password: form.elements.password.value };
}

function setupAuth() {
  const signin = $("#signin-form"), signup = $("#signup-form");
  const sw = h("button", { type: "button", class: "linklike",
    id: "auth-switch" });
  $("#view-auth").append(h("p", {}, sw));
  sw.addEventListener("click", () => {
    signup.dataset.chosen = signup.hidden ? "1" : "0";
    route();
    (signup.hidden ? signin : signup).querySelector("input").focus();
  });
  signin.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(signin, null);
    try {
      const j = await api("POST", "signin", credentials(signin));
      signin.reset();
      signedIn(j);
    } catch (e) {
      showError(signin, e, "signin-");
    }
  });
  signup.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(signup, null);
    try {
      const j = await api("POST", "signup", credentials(signup));
      signup.reset();
      signedIn(j);
      status(t("auth.welcome"));
    } catch (e) {
      showError(signup, e, "signup-");
    }
  });
  $("#signout").addEventListener("click", async () => {
    try {
      await api("POST", "signout");
    } catch (e) {
      /* signed out either way */
    }
    session = { signed_in: false, signup: session.signup };
    setCsrf(null);
    route();
    status(t("auth.signed_out"));
  });
}

async function main() {
  await setLang(pickLang());
  const sel = $("#lang");
  sel.value = lang();
  sel.addEventListener("change", async () => {
    await setLang(sel.value);
    route();
  });
  whenSignedOut(() => {
    if (!session.signed_in) return;
    session = { signed_in: false, signup: session.signup };
    setCsrf(null);
    route();
    status(t("auth.expired"));
  });
  setupAuth();
  links.setup(ctx);
  keys.setup(ctx);
  hooks.setup(ctx);
  domains.setup(ctx);
  conv.setup(ctx);
  account.setup(ctx);
  stats.setup(ctx);
  overview.setup(ctx);
  imports.setup(ctx);
  members.setup(ctx);
  window.addEventListener("hashchange", route);
  try {
    await refreshSession();
  } catch (e) {
    status(e.text || String(e));
  }
  apply(document);
  await route();
  document.body.dataset.ready = "1";
}

main();
