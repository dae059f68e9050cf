// The workbench page: template form, draft with live progress (server-sent events), side-by-side
// variants with sources and redlines, section picks and the download. Text from the server is only
// ever set as textContent, never parsed as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = { templates: {}, current: null, job: null, source: null, drafts: [], picks: [] };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

function clearErrors() {
  document.querySelectorAll(".error").forEach((e) => { e.textContent = ""; });
  document.querySelectorAll(".invalid").forEach((e) => e.classList.remove("invalid"));
}

function showError(message, field) {
  const spot = field && document.querySelector(`.error[data-for="${CSS.escape(field)}"]`);
  (spot || $("#error")).textContent = message;
  const input = field && document.querySelector(`[name="${CSS.escape(field)}"]`);
  if (input) input.classList.add("invalid");
}

async function api(method, url, body) {
  const res = await fetch(url, {
    method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res;
}

function renderForm(t) {
  state.current = t;
  $("#template-description").textContent = t.description || "";
  const form = $("#fields");
  form.replaceChildren();
  for (const f of t.fields) {
    const id = `field-${f.name}`;
    const label = el("label", { for: id, text: f.name });
    if (f.required) label.append(el("span", { class: "required-mark", title: "required", text: "*" }));
    let input;
    if (f.enum) {
      input = el("select", { id, name: f.name });
      input.append(el("option", { value: "", text: "" }));
      for (const v of f.enum) input.append(el("option", { value: String(v), text: String(v) }));
    } else if (f.multiline) {
      input = el("textarea", { id, name: f.name, rows: "3" });
    } else {
      input = el("input", { id, name: f.name, type: f.type === "integer" || f.type === "number" ? "text" : "text" });
    }
    if (f.example !== "" && f.example !== undefined && f.example !== null) input.placeholder = String(f.example);
    if (f.max_length) input.maxLength = f.max_length * 2;  // the server checks the real limit, with its message
    if (f.required) input.dataset.required = "1";
    form.append(el("div", { class: "field" }, label, input,
      el("span", { class: "desc", text: f.description || "" }),
      el("span", { class: "error", "data-for": f.name })));
  }
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
  $("#n").max = data.max_n;
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

function stage(text, cls) {
  $("#stages").append(el("li", { class: cls || "", text }));
}

async function startDraft() {
  clearErrors();
  const fields = {};
  for (const input of $("#fields").querySelectorAll("input, select, textarea")) fields[input.name] = input.value;
  const body = { template: $("#template").value, fields, n: $("#n").value, seed: $("#seed").value,
                 library: $("#library").value };
  const res = await api("POST", "/api/drafts", body);
  const data = await res.json();
  if (!res.ok) { showError(data.error, data.field); return; }
  state.job = data.job;
  $("#stages").replaceChildren();
  $("#fill-bar").value = 0;
  $("#progress").hidden = false;
  $("#compare").hidden = true;
  $("#draft").disabled = true;
  $("#cancel").disabled = false;
  follow(data.job);
}

function follow(job) {
  const source = new EventSource(`/api/drafts/${job}/events`);
  state.source = source;
  const on = (kind, fn) => source.addEventListener(kind, (e) => fn(JSON.parse(e.data)));
  on("plan_token", (ev) => {
    const last = $("#stages").lastElementChild;
    const text = `planning: ${ev.tokens} tokens`;
    if (last && last.classList.contains("stage-planning")) last.textContent = text; else stage(text, "stage-planning");
  });
  on("plan", (ev) => stage(`plan: ${ev.sections.length} sections (${ev.sections.join(", ")})`, "stage-plan"));
  on("precedents", (ev) => stage(`precedents: ${ev.cited} clauses start from a precedent`, "stage-precedents"));
  on("fill_step", (ev) => {
    const bar = $("#fill-bar");
    bar.max = ev.steps; bar.value = ev.step;
    const last = $("#stages").lastElementChild;
    const text = `fill: step ${ev.step} of ${ev.steps}`;
    if (last && last.classList.contains("stage-fill")) last.textContent = text; else stage(text, "stage-fill");
  });
  on("rank", (ev) => { stage(`rank: ${ev.drafts.length} variants ranked`, "stage-rank"); showVariants(ev.drafts); });
  const end = (msg) => { source.close(); $("#draft").disabled = false; $("#cancel").disabled = true; if (msg) stage(msg); };
  on("done", () => end("done"));
  on("cancelled", () => end("cancelled: nothing was kept"));
  on("failed", (ev) => { showError(ev.error); end("failed"); });
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) end(); };
}

async function cancelDraft() {
  if (state.job) await api("POST", `/api/drafts/${state.job}/cancel`);
}

function redlineNode(ops) {
  const box = el("div", { class: "redline", hidden: "" });
  for (const [op, text] of ops) {
    box.append(op === "equal" ? document.createTextNode(text) : el(op === "insert" ? "ins" : "del", { text }));
  }
  return box;
}

function scoresNode(d) {
  const table = el("table", { class: "scores" });
  for (const [k, v] of Object.entries(d.scores)) {
    table.append(el("tr", {}, el("td", { text: k }), el("td", { text: v === null ? "n/a" : Number(v).toFixed(3) })));
  }
  return el("details", {}, el("summary", { text: "score breakdown" }), table);
}

function showVariants(drafts) {
  state.drafts = drafts;
  state.picks = drafts[0].sections.map(() => drafts[0].rank);
  const table = $("#variants");
  table.replaceChildren();
  const head = el("tr", {}, el("th", { class: "section", text: "Section" }));
  for (const d of drafts) {
    head.append(el("th", { class: "variant", "data-rank": d.rank },
      el("div", { text: `Variant ${d.rank} (score ${d.score === null ? "n/a" : d.score.toFixed(3)})` }), scoresNode(d)));
  }
  table.append(el("thead", {}, head));
  const tbody = el("tbody");
  drafts[0].sections.forEach((s, i) => {
    const row = el("tr", { "data-section": s.number }, el("th", { class: "section", text: `${s.number}. ${s.heading}` }));
    for (const d of drafts) {
      const sec = d.sections[i];
      const pick = el("input", { type: "radio", name: `pick-${i}`, value: String(d.rank), "data-rank": d.rank });
      if (d.rank === state.picks[i]) pick.checked = true;
      pick.addEventListener("change", () => { state.picks[i] = d.rank; markPicked(); });
      const cell = el("td", { class: "clause", "data-rank": d.rank },
        el("label", { class: "pick" }, pick, document.createTextNode(" use this")),
        el("div", { class: "body", text: sec.body }));
      for (const src of sec.sources) cell.append(el("div", { class: "source", text: `Source: ${src.line}` }));
      if (!sec.sources.length) cell.append(el("div", { class: "source", text: "Source: drafted from scratch" }));
      if (sec.redline) {
        const box = redlineNode(sec.redline);
        const button = el("button", { type: "button", class: "show-redline", text: "redline against source" });
        button.addEventListener("click", () => { box.hidden = !box.hidden; });
        cell.append(button, box);
      }
      row.append(cell);
    }
    tbody.append(row);
  });
  table.append(tbody);
  $("#compare").hidden = false;
  markPicked();
}

function markPicked() {
  document.querySelectorAll("#variants tbody tr").forEach((row, i) => {
    row.querySelectorAll("td.clause").forEach((td) => td.classList.toggle("picked", Number(td.dataset.rank) === state.picks[i]));
  });
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

$("#template").addEventListener("change", (e) => { clearErrors(); renderForm(state.templates[e.target.value]); });
$("#upload").addEventListener("change", (e) => { if (e.target.files[0]) uploadTemplate(e.target.files[0]); });
$("#draft").addEventListener("click", startDraft);
$("#cancel").addEventListener("click", cancelDraft);
$("#download").addEventListener("click", download);
loadTemplates();
