// A finished draft's review in the page: a section's text edited in place (what is typed is kept in this browser
// until the server has it, so a failed save or a reload loses nothing), each change against the precedent's own words
// accepted or rejected, and a section's precedent shown in its own document, the passage marked. The server keeps
// the edits and decisions with the job (hybrid.serve.review_routes); the table is drawn again from its answer.
// Loaded after form.js and jobs.js, before app.js. Text from the server is only ever set as textContent.
"use strict";

const UNSAVED_KEY = "hybrid.unsaved";  // localStorage: {"job:rank:index": text typed and not yet saved}

function unsavedAll() {
  try { return JSON.parse(localStorage.getItem(UNSAVED_KEY) || "{}"); } catch (e) { return {}; }
}

function unsaved(key) { return unsavedAll()[key]; }

function keepUnsaved(key, text) {
  const all = unsavedAll();
  if (text === null) delete all[key]; else all[key] = text;
  try { localStorage.setItem(UNSAVED_KEY, JSON.stringify(all)); } catch (e) { /* kept in the box only */ }
}

function sectionKey(rank, i) { return `${state.job}:${rank}:${i}`; }

function sectionUrl(rank, i) { return `/api/drafts/${state.job}/variants/${rank}/sections/${i}`; }

// the server's answer for one section, put in the page: the table and the preview drawn again
function applySection(rank, i, view) {
  const d = state.drafts.find((x) => x.rank === rank);
  d.sections[i] = { ...d.sections[i], ...view };
  showVariants(state.drafts, true);
}

async function reviewCall(method, url, body, spot) {
  const token = ownToken(state.job);
  let res, data;
  try {
    res = await api(method, url, body, { "X-Job-Token": token || "" });
    data = await res.json();
  } catch (e) {
    spot.textContent = `the server did not answer (${e}); nothing was lost: try again.`;
    return null;
  }
  if (!res.ok) { spot.textContent = data.error; return null; }
  return data;
}

function reviewSummary(sec) {
  const changes = (sec.review || []).filter((s) => s.change);
  const pending = changes.filter((s) => s.state === "pending").length;
  const mine = changes.filter((s) => s.by === "you").length;
  const against = sec.base === "precedent" ? "the precedent's own words" : "the engine's text";
  return `${changes.length} change${changes.length === 1 ? "" : "s"} against ${against}: ${pending} to review, `
    + `${changes.length - pending} accepted${mine ? `; ${mine} yours` : ""}`;
}

// the section against its base: words kept plain, each change struck and inserted, with accept / reject
function reviewNode(d, sec, i) {
  const box = el("div", { class: "redline", hidden: "" });
  const spot = el("div", { class: "error review-error" });
  box.append(el("div", { class: "review-summary", text: reviewSummary(sec) }), spot);
  const owner = Boolean(ownToken(state.job));
  const text = el("div", { class: "review-text" });
  for (const seg of sec.review || []) {
    if (!seg.change) { text.append(document.createTextNode(seg.text)); continue; }
    const change = el("span", { class: `change ${seg.state} by-${seg.by}`, "data-change": seg.change,
                                title: seg.by === "you" ? "your edit" : "the engine's change" });
    if (seg.delete) change.append(el("del", { text: seg.delete }));
    if (seg.insert) change.append(el("ins", { text: seg.insert }));
    if (seg.state === "pending" && owner) {
      for (const decision of ["accept", "reject"]) {
        const b = el("button", { type: "button", class: `decide ${decision}`, text: decision === "accept" ? "✓" : "✗",
                                 title: decision === "accept" ? "accept this change" : "reject: put the base's words back" });
        b.addEventListener("click", async () => {
          const view = await reviewCall("POST", `${sectionUrl(d.rank, i)}/changes/${encodeURIComponent(seg.change)}`,
                                        { decision }, spot);
          if (view) applySection(d.rank, i, view);
        });
        change.append(b);
      }
    }
    text.append(change);
  }
  box.append(text);
  return box;
}

// the section's words in a box to edit: kept in this browser as they are typed, until the server has them
function editorNode(d, sec, i, cell) {
  const key = sectionKey(d.rank, i);
  const typed = unsaved(key);
  const lines = sec.body.split("\n").reduce((n, line) => n + 1 + Math.floor(line.length / 60), 0);
  const area = el("textarea", { class: "editor", rows: String(Math.min(24, Math.max(6, lines + 2))),
                                "aria-label": `edit section ${sec.number} of variant ${d.rank}` });
  area.value = typed !== undefined ? typed : sec.body;
  area.addEventListener("input", () => keepUnsaved(key, area.value));
  const spot = el("div", { class: "error edit-error" });
  const note = el("div", { class: "hint unsaved-note", text: typed !== undefined ? "Not saved yet: your text as you left it." : "" });
  const save = el("button", { type: "button", class: "save-edit", text: "Save" });
  save.addEventListener("click", async () => {
    keepUnsaved(key, area.value);
    save.disabled = true;
    const view = await reviewCall("PUT", sectionUrl(d.rank, i), { text: area.value }, spot);
    save.disabled = false;
    if (!view) { note.textContent = "Not saved: your text stays here and in this browser."; return; }
    keepUnsaved(key, null);
    applySection(d.rank, i, view);
  });
  const discard = el("button", { type: "button", class: "discard-edit", text: "Discard" });
  discard.addEventListener("click", () => { keepUnsaved(key, null); showVariants(state.drafts, true); });
  const box = el("div", { class: "edit-box" }, area, el("div", { class: "row" }, save, discard), note, spot);
  if (sec.edited) {
    const restore = el("button", { type: "button", class: "restore-edit", text: "Restore the engine's text" });
    restore.addEventListener("click", async () => {
      const view = await reviewCall("PUT", sectionUrl(d.rank, i), { text: null }, spot);
      if (view) { keepUnsaved(key, null); applySection(d.rank, i, view); }
    });
    box.querySelector(".row").append(restore);
  }
  cell.querySelector(".body").replaceWith(box);
  area.focus();
}

// what a section cell offers to review: edit, the review pane, and each source's document
function reviewTools(d, sec, i, cell) {
  const tools = el("div", { class: "review-tools" });
  if (ownToken(state.job) && state.done) {
    const edit = el("button", { type: "button", class: "edit-section", text: sec.edited ? "edit (edited)" : "edit" });
    edit.addEventListener("click", () => { if (!cell.querySelector(".editor")) editorNode(d, sec, i, cell); });
    tools.append(edit);
  }
  if (sec.review) {
    const box = reviewNode(d, sec, i);
    const key = sectionKey(d.rank, i);
    box.hidden = !state.open.has(key);
    const label = sec.base === "precedent" ? "redline against the precedent's own words" : "your edits against the engine's text";
    const button = el("button", { type: "button", class: "show-redline", text: label });
    button.addEventListener("click", () => {
      box.hidden = !box.hidden;
      if (box.hidden) state.open.delete(key); else state.open.add(key);
    });
    tools.append(button, box);
  }
  return tools;
}

function sourceButton(d, i, k) {
  const b = el("button", { type: "button", class: "show-context", text: "in its document" });
  b.addEventListener("click", () => showContext(d.rank, i, k));
  return b;
}

function contextPart(cls, number, heading, text) {
  return el("div", { class: `ctx-part ${cls}` }, el("h4", { text: `${number}. ${heading}` }), el("p", { class: "body", text }));
}

async function showContext(rank, i, k) {
  const dialog = $("#context");
  const body = $("#context-body");
  body.replaceChildren(el("p", { text: "loading…" }));
  if (!dialog.open) dialog.showModal();
  const res = await api("GET", `${sectionUrl(rank, i)}/sources/${k}`);
  const ctx = await res.json();
  if (!res.ok) { body.replaceChildren(el("p", { class: "error", text: ctx.error })); return; }
  body.replaceChildren(el("h3", { text: ctx.document }),
    el("div", { class: "source", text: `${ctx.heading} · ${ctx.source}, ${ctx.license}` }));
  if (ctx.note) body.append(el("p", { class: "origin", text: ctx.note }));
  for (const b of ctx.before) body.append(contextPart("neighbour", b.number, b.heading, b.text));
  if (ctx.clause) {
    const c = ctx.clause;
    const p = el("p", { class: "body" }, document.createTextNode(c.before), el("mark", { text: c.passage }),
                 document.createTextNode(c.after));
    body.append(el("div", { class: "ctx-part cited" }, el("h4", { text: `${c.number}. ${c.heading}` }), p));
  }
  for (const a of ctx.after) body.append(contextPart("neighbour", a.number, a.heading, a.text));
  const mark = body.querySelector("mark");
  if (mark) mark.scrollIntoView({ block: "center" });
}

// the job's variants as reviewed (its edits and decisions), read once it is done: what a reload shows
async function loadReviewed(job) {
  const res = await api("GET", `/api/drafts/${job}/variants`);
  if (!res.ok || state.job !== job) return;
  state.done = true;
  showVariants((await res.json()).variants, true);
  $("#compare").dataset.reviewed = job;  // what a test or a script waits for: the table drawn as reviewed
}

$("#context-close").addEventListener("click", () => $("#context").close());
