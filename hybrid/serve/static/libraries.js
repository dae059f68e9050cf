// The clause libraries, live: each listed with its clauses and files, a user library added from contracts chosen in
// the browser (their bytes sent as base64: nothing is read from the server's disk) or removed, and the Library
// choice of the draft form kept in step. Loaded after form.js (el, $, showError, clearErrors).
"use strict";

const libraries = { manage: false };

async function refreshLibraries(choose) {
  const res = await fetch("/api/libraries");
  const data = await res.json();
  libraries.manage = data.manage;
  const select = $("#library");
  const keep = choose || select.value;
  select.replaceChildren();
  const list = $("#library-list");
  list.replaceChildren();
  for (const lib of data.libraries) {
    if (lib.status === "ok") select.append(el("option", { value: lib.name, text: lib.name }));
    const what = lib.shipped ? "the shipped clause library"
      : lib.status === "ok" ? `${lib.precedents} clauses from ${lib.files} files` : `${lib.status}: ${lib.why}; ${lib.repair}`;
    const item = el("li", { "data-library": lib.name }, el("strong", { text: lib.name }), document.createTextNode(` (${what})`));
    if (!lib.shipped && data.manage) {
      const remove = el("button", { type: "button", class: "remove-library", text: "remove" });
      remove.addEventListener("click", () => removeLibrary(lib.name));
      item.append(remove);
    }
    list.append(item);
  }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  $("#library-add").hidden = !data.manage;
}

function base64Of(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function addLibrary() {
  clearErrors();
  const chosen = [...$("#library-files").files];
  if (!chosen.length) { showError("choose one or more contracts (.md, .txt or .docx) to add.", "library-files"); return; }
  $("#library-status").textContent = `Reading ${chosen.length} file(s) into clauses…`;
  const files = await Promise.all(chosen.map(async (f) => ({ name: f.name, data: base64Of(await f.arrayBuffer()) })));
  const name = $("#library-name").value.trim();
  const res = await fetch("/api/libraries", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, doc_type: $("#library-doc-type").value.trim(), files }),
  });
  const data = await res.json();
  if (!res.ok) { $("#library-status").textContent = ""; showError(data.error, data.field || "library-files"); return; }
  const skipped = data.skipped.map((s) => `${s.file} skipped: ${s.reason}`);
  $("#library-status").textContent = [`Library ${data.library}: ${data.precedents} clauses (` +
    data.added.map((a) => `${a.file}: ${a.clauses}`).join(", ") + "). It is chosen for the next draft.", ...skipped].join(" ");
  await refreshLibraries(data.library);
}

async function removeLibrary(name) {
  clearErrors();
  const res = await fetch(`/api/libraries/${encodeURIComponent(name)}`, { method: "DELETE" });
  const data = await res.json();
  if (!res.ok) { showError(data.error, data.field || "library-name"); return; }
  $("#library-status").textContent = `Library ${name} removed (your files are untouched).`;
  await refreshLibraries();
}

$("#library-add-button").addEventListener("click", addLibrary);
