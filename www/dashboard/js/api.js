// api.js -- the dashboard's JSON API.  Every state-changing request
// carries the session's CSRF token in X-CSRF-Token; the server refuses it
// otherwise (and refuses other sites' Origins).

import { t } from "./i18n.js";

let csrf = null;
let onSignedOut = () => {};

export function setCsrf(token) {
  csrf = token || null;
}

export function whenSignedOut(fn) {
  onSignedOut = fn;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || "HTTP " + status);
    this.status = status;
    this.code = body.error || "http_" + status;
    this.param = body.param || null;
    this.body = body;
    // The translated sentence, or the server's own (which names fields).
    const key = "err." + this.code;
    const tr = t(key);
    this.text = tr !== key ? tr : (body.message || t("err.generic"));
    if (this.param && tr !== key) this.text += " (" + this.param + ")";
  }
}

// body: JSON, or a Blob (a file) sent as it is with its type.
export async function api(method, path, body) {
  const opts = { method, headers: { Accept: "application/json" },
    credentials: "same-origin", cache: "no-store" };
  if (body instanceof Blob) {
    opts.headers["Content-Type"] = body.type;
    opts.body = body;
  } else if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (method !== "GET" && csrf) opts.headers["X-CSRF-Token"] = csrf;
  let r;
  try {
    r = await fetch("/dashboard/api/" + path, opts);
  } catch (e) {
    throw new ApiError(0, { error: "network", message: t("err.network") });
  }
  let j = {};
  try {
    j = await r.json();
  } catch (e) {
    j = { error: "http_" + r.status };
  }
  if (!r.ok) {
    const err = new ApiError(r.status, j);
    if (r.status === 401 && err.code === "not_signed_in") onSignedOut();
    throw err;
  }
  return j;
}
