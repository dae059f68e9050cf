// The template's form: labels and help from the template, limits shown before typing (never a silent cut), a
// "fill with example values" button, every field's error beside it, the values kept across a reload. Text from
// the server is only ever set as textContent, never parsed as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);
const FORM_KEY = "hybrid.form";  // localStorage: {template, fields} as last typed

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

// every field's error beside its field, and a count of them above the Draft button
function showErrors(data) {
  const errors = data.errors || [{ field: data.field, error: data.error }];
  for (const e of errors) showError(e.error, e.field);
  const placed = errors.filter((e) => e.field && document.querySelector(`.error[data-for="${CSS.escape(e.field)}"]`));
  if (placed.length > 1 || (placed.length === 1 && errors.length === 1)) {
    $("#error").textContent = placed.length === 1 ? "One field needs attention (shown beside it)."
      : `${placed.length} fields need attention (each shown beside it).`;
  }
}

function counter(input, max) {
  const note = el("span", { class: "limit" });
  const update = () => {
    const n = input.value.length;
    note.textContent = n > max ? `${n} of at most ${max} characters: ${n - max} too many` : `${n} of at most ${max} characters`;
    note.classList.toggle("over", n > max);
  };
  input.addEventListener("input", update);
  update();
  return [note, update];
}

function renderForm(t) {
  state.current = t;
  state.counters = [];
  $("#template-description").textContent = t.description || "";
  const form = $("#fields");
  form.replaceChildren();
  for (const f of t.fields) {
    const id = `field-${f.name}`;
    const label = el("label", { for: id, text: f.label || f.name });
    if (f.required) label.append(el("span", { class: "required-mark", title: "required", text: "*" }));
    let input;
    if (f.enum) {
      input = el("select", { id, name: f.name });
      input.append(el("option", { value: "", text: "" }));
      for (const v of f.enum) input.append(el("option", { value: String(v), text: String(v) }));
    } else if (f.multiline) {
      input = el("textarea", { id, name: f.name, rows: "3" });
    } else {
      input = el("input", { id, name: f.name, type: "text" });
    }
    if (f.required) input.dataset.required = "1";
    input.addEventListener("input", saveForm);
    const help = el("span", { class: "desc", text: f.description || "" });
    let limit = null;
    if (f.max_length) {
      const [note, update] = counter(input, f.max_length);
      limit = note;
      state.counters.push(update);
    }
    form.append(el("div", { class: "field" }, label, input, help, limit,
      el("span", { class: "error", "data-for": f.name })));
  }
}

function fillExample() {
  clearErrors();
  for (const f of state.current.fields) {
    const input = $("#fields").querySelector(`[name="${CSS.escape(f.name)}"]`);
    if (input && f.example !== "" && f.example !== null && f.example !== undefined) input.value = String(f.example);
  }
  state.counters.forEach((u) => u());
  saveForm();
}

function formValues() {
  const fields = {};
  for (const input of $("#fields").querySelectorAll("input, select, textarea")) fields[input.name] = input.value;
  return fields;
}

function saveForm() {
  try { localStorage.setItem(FORM_KEY, JSON.stringify({ template: $("#template").value, fields: formValues() })); }
  catch (e) { /* storage full or refused: the form still works, it is only not kept */ }
}

function restoreForm() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(FORM_KEY) || "null"); } catch (e) { saved = null; }
  if (!saved || !state.templates[saved.template]) return;
  $("#template").value = saved.template;
  renderForm(state.templates[saved.template]);
  for (const [name, value] of Object.entries(saved.fields || {})) {
    const input = $("#fields").querySelector(`[name="${CSS.escape(name)}"]`);
    if (input) input.value = String(value);
  }
  state.counters.forEach((u) => u());
}
