// A draft's life in the page: submit (the button off while the request is out), its place in the queue, progress
// in real counts, cancel ("cancelling" at once), and the history of this browser's drafts (localStorage holds each
// job's id and owner token; the URL's #job=ID holds the one shown, so a reload reattaches to it).
"use strict";

const HISTORY_KEY = "hybrid.jobs";
const PHASES = { library: "building the clause library: document", precedents: "precedents: variant",
                 rank: "ranking: variant", fill: "filling: step" };

function jobHistory() {
  try { return JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]"); } catch (e) { return []; }
}

function saveHistory(list) {
  try { localStorage.setItem(HISTORY_KEY, JSON.stringify(list.slice(0, 50))); } catch (e) { /* not kept */ }
}

function rememberJob(entry) {
  saveHistory([entry, ...jobHistory().filter((h) => h.job !== entry.job)]);
  renderHistory();
}

function forgetJob(job) {
  saveHistory(jobHistory().filter((h) => h.job !== job));
  renderHistory();
}

function labelText(label) {
  if (!label) return "draft";
  const parties = (label.parties || []).join(" and ");
  return `${label.title || label.template}${parties ? `: ${parties}` : ""} (${label.date || ""})`;
}

async function renderHistory() {
  const list = $("#history-list");
  list.replaceChildren();
  const entries = jobHistory();
  $("#history").hidden = entries.length === 0;
  for (const h of entries) {
    const status = el("span", { class: "job-state", text: "…" });
    const open = el("button", { type: "button", class: "open-job", text: "open" });
    open.addEventListener("click", () => attach(h.job));
    const remove = el("button", { type: "button", class: "delete-job", text: "delete" });
    remove.addEventListener("click", () => deleteJob(h));
    list.append(el("li", { "data-job": h.job }, el("span", { text: labelText(h.label) }), status, open, remove));
    api("GET", `/api/drafts/${h.job}`).then(async (res) => {
      if (res.status === 404) { status.textContent = "gone from the server"; open.disabled = true; return; }
      const s = await res.json();
      status.textContent = s.state === "queued" ? `queued, place ${s.position}` : s.state;
    });
  }
}

async function deleteJob(h) {
  const res = await api("DELETE", `/api/drafts/${h.job}`, undefined, { "X-Job-Token": h.token });
  if (res.ok || res.status === 404) {
    forgetJob(h.job);
    if (state.job === h.job) {
      if (state.source) state.source.close();
      state.job = null;
      location.hash = "";
      $("#progress").hidden = true;
      $("#compare").hidden = true;
    }
  } else {
    showError((await res.json()).error);
  }
}

async function startDraft() {
  clearErrors();
  const button = $("#draft");
  if (button.disabled) return;
  button.disabled = true;  // until the server answered: a double click sends one request
  const body = { template: $("#template").value, fields: formValues(), n: $("#n").value, seed: $("#seed").value,
                 library: $("#library").value };
  let res, data;
  try {
    res = await api("POST", "/api/drafts", body);
    data = await res.json();
  } catch (e) {
    button.disabled = false;
    showError(`the server did not answer: ${e}`);
    return;
  }
  if (!res.ok) { button.disabled = false; showErrors(data); return; }
  rememberJob({ job: data.job, token: data.token, label: data.label, created: Date.now() });
  attach(data.job);
}

function stage(text, cls) {
  const last = $("#stages").lastElementChild;
  if (cls && last && last.classList.contains(cls)) { last.textContent = text; return; }
  $("#stages").append(el("li", { class: cls || "", text }));
}

function setNow(text, done, total) {
  $("#now").textContent = text;
  const bar = $("#fill-bar");
  bar.max = Math.max(total || 1, 1);
  bar.value = done || 0;
}

function attach(job) {
  if (state.source) state.source.close();
  state.job = job;
  state.done = false;
  state.open = new Set();
  delete $("#compare").dataset.reviewed;
  if (location.hash !== `#job=${job}`) location.hash = `job=${job}`;
  $("#stages").replaceChildren();
  setNow("waiting for the server", 0, 1);
  $("#progress").hidden = false;
  $("#compare").hidden = true;
  $("#draft").disabled = true;
  $("#cancel").disabled = !ownToken(job);
  $("#cancel").textContent = "Cancel";
  follow(job);
}

function ownToken(job) {
  const h = jobHistory().find((x) => x.job === job);
  return h ? h.token : null;
}

function follow(job) {
  const source = new EventSource(`/api/drafts/${job}/events`);
  state.source = source;
  const on = (kind, fn) => source.addEventListener(kind, (e) => { if (state.job === job) fn(JSON.parse(e.data)); });
  on("queued", (ev) => setNow(`queued: place ${ev.position} of ${ev.waiting} waiting (one draft runs at a time)`, 0, 1));
  on("started", () => setNow("started", 0, 1));
  on("cancelling", () => { $("#cancel").disabled = true; $("#cancel").textContent = "Cancelling…"; setNow("cancelling…", 0, 1); });
  on("plan_token", (ev) => { stage(`planning: ${ev.tokens} tokens`, "stage-planning"); setNow(`planning: ${ev.tokens} tokens`, 0, 1); });
  on("plan", (ev) => stage(`plan: ${ev.sections.length} sections (${ev.sections.join(", ")})`, "stage-plan"));
  on("progress", (ev) => {
    const text = `${PHASES[ev.phase] || ev.phase} ${Math.min(ev.done + 1, ev.total)} of ${ev.total}`;
    const shown = ev.done >= ev.total ? `${ev.phase}: ${ev.total} of ${ev.total} done` : text;
    stage(shown, `progress-${ev.phase}`);
    setNow(shown, ev.done, ev.total);
  });
  on("precedents", (ev) => stage(`precedents: ${ev.cited} clauses start from a precedent`, "stage-precedents"));
  on("fill_step", (ev) => {
    const text = `fill: step ${ev.step} of ${ev.steps}`;
    stage(text, "stage-fill");
    setNow(text, ev.step, ev.steps);
  });
  on("rank", (ev) => { stage(`rank: ${ev.drafts.length} variants ranked`, "stage-rank"); showVariants(ev.drafts); });
  const end = (msg) => {
    source.close();
    $("#draft").disabled = false;
    $("#cancel").disabled = true;
    $("#cancel").textContent = "Cancel";
    if (msg) { stage(msg, "stage-end"); setNow(msg, 1, 1); }
    renderHistory();
  };
  on("done", () => { end("done"); loadReviewed(job); });
  on("cancelled", () => end("cancelled: nothing was kept"));
  on("failed", (ev) => { showError(ev.error); end("failed"); });
  source.onerror = async () => {
    if (source.readyState !== EventSource.CLOSED) return;  // the browser reconnects, resuming at its last event
    const res = await api("GET", `/api/drafts/${job}`);
    if (res.status === 404) { forgetJob(job); end("this draft is no longer on the server (it restarted, or the draft was deleted)"); }
  };
}

async function cancelDraft() {
  const token = ownToken(state.job);
  if (!state.job || !token) return;
  $("#cancel").disabled = true;
  $("#cancel").textContent = "Cancelling…";
  setNow("cancelling…", 0, 1);
  const res = await api("POST", `/api/drafts/${state.job}/cancel`, undefined, { "X-Job-Token": token });
  if (!res.ok) showError((await res.json()).error);
}

function jobFromHash() {
  const m = location.hash.match(/job=([0-9a-f]{32})/);
  return m ? m[1] : null;
}
