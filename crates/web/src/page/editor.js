// A scenario editor: open a shipped file or one's own, change its values in a form
// the rules themselves offer (POST /api/form), or edit the TOML directly.
import { $, el, download } from "./dom.js";
import { post } from "./net.js";
import { decode } from "./url.js";
import { splice, stringAt, withSetting } from "./model.js";

export function editor(prefix, shipped, firstName, changed) {
  const pick = el("select", { id: `${prefix}-shipped` }, el("option", { value: "" }, "(choose)"));
  for (const s of shipped) pick.append(el("option", { value: s.name }, s.name));
  const file = el("input", { id: `${prefix}-file`, type: "file", accept: ".toml" });
  const form = el("div", { id: `${prefix}-form`, class: "form" });
  const text = el("textarea", { id: `${prefix}-scenario`, spellcheck: "false" });
  const error = el("div", { id: `${prefix}-scenario-error`, class: "error", role: "alert" });
  const save = el("button", { id: `${prefix}-download` }, "Download scenario");
  $(`${prefix}-editor`).append(
    el("div", { class: "row" }, el("label", {}, "Open a shipped scenario ", pick),
      el("label", {}, "or a scenario file ", file), save),
    form, error,
    el("details", {}, el("summary", {}, "The scenario file (the TOML that combat-odds fire and run read)"), text));
  let formRequest = null;
  const refreshForm = async () => {
    if (formRequest) formRequest.abort();
    formRequest = new AbortController();
    let answer;
    try { answer = await post("/api/form", { scenario: text.value }, formRequest.signal); } catch (e) { return; }
    if (!answer.ok) return;
    renderForm(answer.body);
  };
  const put = (start, end, literal) => {
    text.value = splice(text.value, start, end, literal);
    update();
  };
  const renderForm = (f) => {
    form.replaceChildren();
    for (const c of f.choices) {
      const select = el("select", { "data-key": c.key, "aria-label": c.key });
      const value = stringAt(text.value, c.start, c.end);
      if (!c.names.includes(value)) select.append(el("option", { value }, `${value} (not in the list)`));
      for (const n of c.names) select.append(el("option", { value: n }, n));
      select.value = value;
      select.addEventListener("change", () => put(c.start, c.end, JSON.stringify(select.value)));
      form.append(el("label", {}, `${c.key} (${c.what})`, select));
    }
    for (const v of f.values) {
      const input = v.kind === "boolean"
        ? el("input", { type: "checkbox", "data-key": v.key, "aria-label": v.key })
        : el("input", { type: "number", step: v.kind === "float" ? "any" : "1", value: v.text, "data-key": v.key, "aria-label": v.key });
      if (v.kind === "boolean") input.checked = v.text === "true";
      const label = el("label", {}, v.key, input);
      const top = v.key === "range" || v.key.endsWith(".range") || v.key.endsWith("min_range") || v.key.endsWith("closing");
      if (f.scale && top) {
        const [unit, metres] = f.scale;
        const shown = el("span", { class: "metres" });
        const show = () => { shown.textContent = `${input.value} ${unit} = ${Math.round(Number(input.value) * metres)} m`; };
        input.addEventListener("input", show);
        show();
        label.append(shown);
      }
      input.addEventListener("change", () => put(v.start, v.end, v.kind === "boolean" ? String(input.checked) : input.value));
      form.append(label);
    }
    // Settings this file leaves at their defaults: choosing another reading writes it
    // under [settings] (see the Tables page for what each reading means).
    for (const u of f.settings) {
      const select = el("select", { "data-key": `settings.${u.key}`, "aria-label": `settings.${u.key}` });
      u.names.forEach((n, i) => select.append(el("option", { value: n }, i === 0 ? `${n} (default)` : n)));
      select.addEventListener("change", () => { text.value = withSetting(text.value, u.key, select.value); update(); });
      form.append(el("label", {}, `settings.${u.key} (setting)`, select));
    }
  };
  const update = () => { refreshForm(); changed(); };
  const open = (t) => { text.value = t; update(); };
  pick.addEventListener("change", () => {
    const s = shipped.find((x) => x.name === pick.value);
    if (s) open(s.text);
  });
  file.addEventListener("change", async () => { if (file.files[0]) open(await file.files[0].text()); });
  text.addEventListener("change", update);
  save.addEventListener("click", () => download(pick.value || "scenario.toml", text.value, "application/toml"));
  return {
    text: () => text.value,
    restore: (p, key) => {
      if (p.has(key)) { text.value = decode(p.get(key)); refreshForm(); return true; }
      const first = shipped.find((s) => s.name === firstName) || shipped[0];
      pick.value = first.name; text.value = first.text; refreshForm();
      return false;
    },
  };
}
