// import.js -- the Import section: a CSV file checked first (a dry run
// of POST import: what would happen, row by row), then imported, with
// the engine of lzctl import csv (lz-links(8) "Importing").  A file of
// any size goes in pieces of whole records, the header before each,
// each a request under the body's limit: the page shows how far it got,
// and an import stopped half-way is run again (nothing is made twice).

import { api } from "./api.js";
import { $, h, clear, showError } from "./dom.js";
import { t } from "./i18n.js";

let ctx;
let file = null;

// The first rows as a table, split naively (a preview, not the import).
function preview(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).slice(0, 6)
    .filter((l) => l.length);
  const sep = (lines[0] || "").includes(";") && !(lines[0] || "")
    .includes(",") ? ";" : ",";
  const rows = lines.map((l) => l.split(sep).map((c) => c.replace(/^"|"$/g,
    "")));
  return [h("thead", {}, h("tr", {}, (rows[0] || []).map((c) =>
    h("th", { scope: "col" }, c)))), h("tbody", {}, rows.slice(1).map((r) =>
    h("tr", {}, r.map((c) => h("td", {}, c)))))];
}

function summary(j) {
  $("#imp-summary").textContent = t(j.dry_run ? "imp.summary_dry" :
    "imp.summary", { rows: j.rows, imported: j.imported,
    renamed: j.renamed, already: j.already_imported, skipped: j.skipped });
  clear($("#imp-skipped")).append(...j.skipped_rows.map((s) => h("li", {},
    t("imp.line", { line: s.line, message: s.message }))));
}

const PIECE_ROWS = 2000;
const PIECE_BYTES = 768 * 1024;   // the server takes 1 MiB a request

// The file cut into records where a line break is outside quotes (RFC
// 4180), each with the line it starts on.  The server reads the
// records itself; this only finds where a piece may end.
function records(text) {
  const out = [];
  let start = 0, line = 1, startLine = 1, quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\n") {
      line++;
      if (!quoted) {
        out.push({ text: text.slice(start, i + 1), line: startLine });
        start = i + 1;
        startLine = line;
      }
    }
  }
  if (start < text.length)
    out.push({ text: text.slice(start), line: startLine });
  return out;
}

// Pieces of the records after the header, each with the header first.
function pieces(recs) {
  const out = [];
  let cur = null;
  for (const r of recs.slice(1)) {
    if (!cur || cur.rows === PIECE_ROWS ||
        cur.bytes + r.text.length > PIECE_BYTES) {
      cur = { parts: [recs[0].text], rows: 0, bytes: recs[0].text.length,
        line: r.line };
      out.push(cur);
    }
    cur.parts.push(r.text);
    cur.rows++;
    cur.bytes += r.text.length;
  }
  return out;
}

function bar(done, rows) {
  const p = $("#imp-progress");
  p.hidden = false;
  p.max = Math.max(rows, 1);
  p.value = done;
  $("#imp-progress-text").textContent = t("imp.progress", { done, rows });
}

// Every piece in turn (dry: checked only); the answers summed, the
// skipped rows' lines counted in the file.
async function send(dry) {
  const recs = records((await file.text()).replace(/^\uFEFF/, ""));
  const header = recs.length ? recs[0].text.split("\n").length - 1 : 0;
  const q = "import?on_conflict=" + $("#imp-conflict").value +
    (dry ? "&dry_run=1" : "");
  const sum = { dry_run: dry, rows: 0, imported: 0, renamed: 0,
    already_imported: 0, skipped: 0, skipped_rows: [] };
  const all = pieces(recs);
  const rows = all.reduce((n, p) => n + p.rows, 0);
  if (!all.length)   // a header alone: the server says what is wrong
    return api("POST", q, new Blob([recs.length ? recs[0].text : ""],
      { type: "text/csv" }));
  bar(0, rows);
  for (const p of all) {
    const j = await api("POST", q, new Blob(p.parts, { type: "text/csv" }));
    for (const k of ["rows", "imported", "renamed", "already_imported",
      "skipped"])
      sum[k] += j[k];
    for (const s of j.skipped_rows)
      sum.skipped_rows.push(Object.assign({}, s, s.line ? {
        line: s.line - 1 - header + p.line } : {}));
    bar(sum.rows, rows);
  }
  return sum;
}

export function setup(c) {
  ctx = c;
  const form = $("#imp-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, null);
    file = $("#imp-file").files[0] || null;
    if (!file) return;
    try {
      const j = await send(true);
      clear($("#imp-rows")).append(...preview(await file.text()));
      summary(j);
      $("#imp-go").hidden = j.imported === 0;
      $("#imp-preview").hidden = false;
    } catch (e) {
      showError(form, e, "imp-");
    }
  });
  $("#imp-go").addEventListener("click", async () => {
    try {
      const j = await send(false);
      summary(j);
      $("#imp-go").hidden = true;
      ctx.status($("#imp-summary").textContent);
    } catch (e) {
      ctx.status(e.text);
    }
  });
}

export async function show() {
  $("#imp-preview").hidden = true;
  $("#imp-progress").hidden = true;
  $("#imp-progress-text").textContent = "";
}
