// The workbench page: side-by-side variants (sections identical in every variant marked, "use variant N for every
// section"), each clause's sources and its review (review.js: edit in place, accept / reject, the precedent in its
// document), the scores in words, the assembled document as it will download, and the boot (templates, the form as last typed, this browser's drafts, the job in the URL). form.js and jobs.js
// are loaded first. Text from the server is only ever set as textContent, never parsed as HTML.
"use strict";

const state = { templates: {}, current: null, counters: [], job: null, source: null, drafts: [], picks: [],
                done: false, open: new Set() };

async function api(method, url, body, headers = {}) {
  return fetch(url, {
    method, headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function loadTemplates() {
  const res = await api("GET", "/api/templates");
  const data = await res.json();
  const select = $("#template");
  for (const t of data.templates) {
    state.templates[t.id] = t;
    select.append(el("option", { value: t.id, text: `${t.title} (${t.id})` }));
  }
  for (const name of data.libraries) $("#library").append(el("option", { value: name, text: name }));
  refreshLibraries();
  $("#n").max = data.max_n;
  $("#n-limit").textContent = `1 to ${data.max_n}`;
  select.value = state.templates["mutual-nda"] ? "mutual-nda" : data.templates[0].id;
  renderForm(state.templates[select.value]);
}

async function uploadTemplate(file) {
  clearErrors();
  if (file.size > 1 << 20) { showError(`template file too large: ${file.size} bytes, at most 1048576.`, "upload"); return; }
  const text = await file.text();
  const res = await api("POST", "/api/templates/upload", { name: file.name, text });
  const data = await res.json();
  if (!res.ok) { showError(data.error, data.field || "upload"); return; }
  state.templates[data.key] = { ...data, id: data.key };
  $("#template").append(el("option", { value: data.key, text: `${data.title} (uploaded ${file.name})` }));
  $("#template").value = data.key;
  renderForm(state.templates[data.key]);
}

function scoresNode(d) {
  const list = el("ul", { class: "scores" });
  for (const line of d.explained || []) list.append(el("li", { text: line }));
  return el("details", {}, el("summary", { text: "why this rank" }), list);
}

// what a lawyer reads first of a variant: the document it was drafted from and its market check
function checksNode(d) {
  const box = el("div", { class: "checks" });
  if (d.base) box.append(el("div", { class: "base-line", text: `Drafted from ${d.base}` }));
  if (d.market) {
    const lacking = d.market.lacking.length ? `; lacking: ${d.market.lacking.join(", ")}` : "";
    box.append(el("div", { class: "market", text: `Market check: holds ${d.market.held} of the ${d.market.total} clauses contracts of this kind usually hold${lacking}` }));
  }
  return box;
}

// the blanks [___] left to complete, each a link to its section's clause in this variant's column
function blanksNode(d) {
  const list = el("ol", { class: "todo" });
  for (const b of d.blanks || []) {
    const go = el("a", { href: "#", class: "todo-link", text: b.number ? `${b.number}. ${b.where}` : b.where });
    go.addEventListener("click", (e) => {
      e.preventDefault();
      const target = b.number ? document.getElementById(`v${d.rank}-s${b.number}`) : $("#preview");
      if (!b.number) $("#preview").open = true;
      target.scrollIntoView({ block: "center" });
      target.classList.add("flash");
      setTimeout(() => target.classList.remove("flash"), 1500);
    });
    list.append(el("li", {}, go, document.createTextNode(`: ${b.text}`)));
  }
  const n = (d.blanks || []).length;
  return el("details", { class: "blanks" }, el("summary", { text: n ? `To complete: ${n} blank${n === 1 ? "" : "s"} [___]` : "No blanks to complete" }), list);
}

function headerCell(d) {
  const take = el("button", { type: "button", class: "take-all", "data-rank": d.rank, text: `use variant ${d.rank} for every section` });
  take.addEventListener("click", () => { state.picks = state.picks.map(() => d.rank); syncPicks(); });
  return el("th", { class: "variant", "data-rank": d.rank },
    el("div", { text: `Variant ${d.rank}${d.rank === 1 ? " (ranked best)" : ""} · ${d.words} words` }), take,
    checksNode(d), blanksNode(d), scoresNode(d));
}

function clauseCell(d, sec, i) {
  const pick = el("input", { type: "radio", name: `pick-${i}`, value: String(d.rank), "data-rank": d.rank });
  pick.addEventListener("change", () => { state.picks[i] = d.rank; syncPicks(); });
  const cell = el("td", { class: "clause", "data-rank": d.rank, id: `v${d.rank}-s${sec.number}` },
    el("label", { class: "pick" }, pick, document.createTextNode(" use this")),
    el("div", { class: "body", text: sec.body }));
  if (sec.edited) cell.querySelector(".body").classList.add("edited");
  sec.sources.forEach((src, k) => {
    const line = el("div", { class: "source", text: `Source: ${src.line} ` });
    if (state.done) line.append(sourceButton(d, i, k));
    cell.append(line);
  });
  if (sec.origin) cell.append(el("div", { class: "origin", text: sec.origin }));
  cell.append(reviewTools(d, sec, i, cell));
  if (state.done && ownToken(state.job) && unsaved(sectionKey(d.rank, i)) !== undefined) editorNode(d, sec, i, cell);
  return cell;
}

// keep: the picks as they were (the same draft drawn again after an edit or a decision)
function showVariants(drafts, keep) {
  state.drafts = drafts;
  if (!keep || state.picks.length !== drafts[0].sections.length) state.picks = drafts[0].sections.map(() => drafts[0].rank);
  const table = $("#variants");
  table.replaceChildren();
  const head = el("tr", {}, el("th", { class: "section", text: "Section" }));
  for (const d of drafts) head.append(headerCell(d));
  table.append(el("thead", {}, head));
  const tbody = el("tbody");
  table.append(tbody);  // in the page before its cells: an editor reopened in one takes the focus
  let same = 0;
  drafts[0].sections.forEach((s, i) => {
    const identical = drafts.every((d) => d.sections[i].body === s.body);
    same += identical ? 1 : 0;
    const title = el("th", { class: "section", text: `${s.number}. ${s.heading}` });
    if (identical && drafts.length > 1) title.append(el("div", { class: "same-note", text: "identical in every variant" }));
    const row = el("tr", { "data-section": s.number, class: identical ? "same" : "differs" }, title);
    tbody.append(row);
    for (const d of drafts) row.append(clauseCell(d, d.sections[i], i));
  });
  $("#differences").textContent = drafts.length > 1
    ? `${same} of ${drafts[0].sections.length} sections are identical in every variant; the other ${drafts[0].sections.length - same} differ (highlighted).`
    : "";
  $("#compare").hidden = false;
  syncPicks();
}

function syncPicks() {
  document.querySelectorAll("#variants tbody tr").forEach((row, i) => {
    row.querySelectorAll("td.clause").forEach((td) => {
      const picked = Number(td.dataset.rank) === state.picks[i];
      td.classList.toggle("picked", picked);
      td.querySelector("input[type=radio]").checked = picked;
    });
  });
  renderPreview();
}

// the whole document as it will download: the best variant's title, preamble and closing around the picked sections
function renderPreview() {
  const box = $("#preview-doc");
  box.replaceChildren();
  if (!state.drafts.length) return;
  const base = state.drafts[0];
  const byRank = Object.fromEntries(state.drafts.map((d) => [d.rank, d]));
  box.append(el("h3", { text: base.title }), el("p", { class: "preamble", text: base.preamble || "" }));
  base.sections.forEach((s, i) => {
    const sec = byRank[state.picks[i]].sections[i];
    box.append(el("h4", { text: `${sec.number}. ${sec.heading}`, "data-from": state.picks[i] }),
      el("p", { class: "body", text: sec.body }));
  });
  if (base.tail) box.append(el("p", { class: "tail body", text: base.tail }));
}

async function download() {
  clearErrors();
  const fmt = $("#format").value;
  const res = await api("POST", `/api/drafts/${state.job}/export`,
    { picks: state.picks, format: fmt, redline: $("#redline-docx").checked });
  if (!res.ok) { const data = await res.json(); showError(data.error, data.field); return; }
  const blob = await res.blob();
  const name = (res.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
  const a = el("a", { href: URL.createObjectURL(blob), download: name ? name[1] : `draft.${fmt}` });
  document.body.append(a);
  a.click();
  a.remove();
}

$("#template").addEventListener("change", (e) => { clearErrors(); renderForm(state.templates[e.target.value]); saveForm(); });
$("#upload").addEventListener("change", (e) => { if (e.target.files[0]) uploadTemplate(e.target.files[0]); });
$("#example").addEventListener("click", fillExample);
$("#draft").addEventListener("click", startDraft);
$("#cancel").addEventListener("click", cancelDraft);
$("#download").addEventListener("click", download);
window.addEventListener("hashchange", () => { const job = jobFromHash(); if (job && job !== state.job) attach(job); });
loadTemplates().then(() => {
  restoreForm();
  renderHistory();
  const job = jobFromHash();
  if (job) attach(job);
});
