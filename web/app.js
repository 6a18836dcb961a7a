// Page glue: form ⇄ URL ⇄ worker ⇄ DOM. Every number shown comes from the kvcalc core (at
// build time for the first paint, then from Python in the worker); this file only moves data
// and formats it for the reader's locale. DOM writes use textContent / replaceChildren only.

import { STRINGS } from "./i18n.js";

const PR = JSON.parse(document.getElementById("prerender").textContent);
const CAT = PR.catalog;
const $ = (id) => document.getElementById(id);
const T0 = performance.now();

// --- state ------------------------------------------------------------------------------
const state = {
  lang: "en",
  ready: false,
  computeWanted: false, // a change made before Python was ready
  hf: null, // {id, config, weights_bytes, exact}
  lastResult: PR.default_result,
  lastValidation: PR.validation,
  validationLive: false,
  runtime: null,
  timings: { navToScript: T0 },
};
window.__kvcalc = state; // for tests, benchmarks and anyone scripting the page

// --- i18n & number formatting ---------------------------------------------------------------
function pickLang() {
  let stored = null;
  try { stored = localStorage.getItem("kvcalc.lang"); } catch { /* storage may be blocked */ }
  if (stored === "en" || stored === "zh") return stored;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}
const S = (key) => STRINGS[state.lang][key] ?? STRINGS.en[key] ?? key;
const locale = () => (state.lang === "zh" ? "zh-CN" : "en-US");
const NF = new Map();
function nf(opts) {
  const k = locale() + JSON.stringify(opts);
  if (!NF.has(k)) NF.set(k, new Intl.NumberFormat(locale(), opts));
  return NF.get(k);
}
const F = {
  int: (v) => nf({ maximumFractionDigits: 0 }).format(v),
  gib: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v),
  x: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v) + "x",
  pct: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(v) + "%",
  dec1: (v) => nf({ minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v),
  dec2: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v),
  raw: (v) => String(v),
};
const show = (v, f) => (v === null || v === undefined ? "–" : F[f](v));

function fill(template, data) {
  return template.replace(/\{([\w.#-]+)(?::(\w+))?\}/g, (_, path, f) => {
    const v = path.split(".").reduce((o, k) => (o == null ? o : o[k]), data);
    if (v === null || v === undefined) return "–";
    return f ? F[f](v) : String(v);
  });
}

function applyStaticText() {
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = S(el.dataset.i18n);
  document.title = S("title");
  const btn = $("lang-toggle");
  btn.textContent = S("lang_button");
  btn.setAttribute("aria-label", S("lang_button_label"));
  btn.lang = state.lang === "zh" ? "en" : "zh";
  if (!state.ready && $("status").dataset.state !== "failed") $("status").textContent = S("status_starting");
}

// --- form ⇄ request ⇄ URL ------------------------------------------------------------------
const FIELDS = [
  // [url param, element id, default]
  ["model", "model-select", PR.default_request.model],
  ["gpu", "gpu-select", PR.default_request.gpu],
  ["tp", "gpu-count", "1"],
  ["pp", "pp", "1"],
  ["util", "util", ""],
  ["weights", "weights", "auto"],
  ["kv", "kv-dtype", "auto"],
  ["mml", "max-model-len", String(PR.default_request.settings.max_model_len)],
  ["avg", "avg-tokens", String(PR.default_request.settings.avg_tokens)],
  ["ver", "vllm-version", CAT.newest_version],
  ["mnbt", "mnbt", ""],
  ["mns", "max-num-seqs", ""],
  ["bs", "block-size", ""],
  ["eager", "enforce-eager", false],
  ["ep", "entrypoint", "serve"],
  ["avail", "available-kv-gib", ""],
];
// Where each core error field is shown.
const FIELD_MSG = {
  "--tensor-parallel-size": "gpu-count", "--pipeline-parallel-size": "pp",
  "--gpu-memory-utilization": "util", "--kv-cache-dtype": "kv-dtype", weights: "weights",
  "--max-model-len": "max-model-len", "--avg-tokens": "avg-tokens",
  "--max-num-batched-tokens": "mnbt", "--max-num-seqs": "max-num-seqs", "--block-size": "block-size",
  available_kv_gib: "available-kv-gib",
};

// A typed value as the core should see it: empty → null (vLLM's default), a plain decimal
// numeral → a JS number, anything else → the text itself, so the core names the problem.
function value(id) {
  const t = $(id).value.trim();
  if (t === "") return null;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}

function buildRequest() {
  const sel = $("model-select").value;
  const hf = state.hf && sel === "hf:" + state.hf.id ? state.hf : null;
  return {
    op: "estimate",
    model: hf ? hf.id : sel,
    config: hf ? hf.config : null,
    weights_bytes: hf ? hf.weights_bytes : null,
    gpu: $("gpu-select").value,
    settings: {
      tensor_parallel_size: value("gpu-count"),
      pipeline_parallel_size: value("pp"),
      gpu_memory_utilization: value("util"),
      kv_cache_dtype: $("kv-dtype").value,
      max_model_len: value("max-model-len"),
      max_num_batched_tokens: value("mnbt"),
      max_num_seqs: value("max-num-seqs"),
      block_size: value("block-size"),
      enforce_eager: $("enforce-eager").checked,
      entrypoint: $("entrypoint").value,
      vllm_version: $("vllm-version").value,
      weights: $("weights").value,
      avg_tokens: value("avg-tokens"),
    },
    available_kv_gib: value("available-kv-gib"),
  };
}

function setField(id, v) {
  const el = $(id);
  if (el.type === "checkbox") el.checked = v === true || v === "1" || v === "true";
  else if (el.tagName === "SELECT") {
    if ([...el.options].some((o) => o.value === v)) el.value = v;
  } else el.value = v;
}

function formToUrl() {
  const q = new URLSearchParams();
  if (state.hf) q.set("hf", state.hf.id);
  for (const [p, id] of FIELDS) {
    const el = $(id);
    if (el.type === "checkbox") { if (el.checked) q.set(p, "1"); continue; }
    if (p === "model" && el.value.startsWith("hf:")) continue;
    if (el.value.trim() !== "") q.set(p, el.value.trim());
  }
  const url = `${location.pathname}?${q.toString()}${location.hash}`;
  history.replaceState(null, "", url);
  return new URL(url, location.href).href;
}

function urlToForm() {
  const q = new URLSearchParams(location.search);
  for (const [p, id] of FIELDS) if (q.has(p)) setField(id, q.get(p));
  if (q.has("hf")) { $("model-id").value = q.get("hf"); return q.get("hf"); }
  return null;
}

function resetForm() {
  for (const [, id, d] of FIELDS) setField(id, d);
  state.hf = null;
  removeHfOption();
  $("model-id").value = "";
  $("model-id-msg").textContent = "";
}

// --- select options from the catalog (embedded at build time) ------------------------------
function option(value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label;
  return o;
}
function populateSelects() {
  const groups = new Map();
  for (const m of CAT.models) {
    if (!groups.has(m.family)) {
      const g = document.createElement("optgroup");
      g.label = m.family;
      groups.set(m.family, g);
    }
    groups.get(m.family).append(option(m.id, `${m.name} (${m.id})`));
  }
  $("model-select").replaceChildren(...groups.values());
  $("gpu-select").replaceChildren(...CAT.gpus.map((g) => option(g.key, g.name)));
  $("weights").replaceChildren(...CAT.weight_formats.map((w) => option(w, w)));
  $("kv-dtype").replaceChildren(...CAT.kv_cache_dtypes.map((k) => option(k, k)));
  $("vllm-version").replaceChildren(...[...CAT.vllm_versions].reverse().map((v) => option(v, v)));
}
function hfOption() { return $("model-select").querySelector('option[value^="hf:"]'); }
function removeHfOption() { hfOption()?.remove(); }
function setHfOption(id) {
  removeHfOption();
  const o = option("hf:" + id, fill(S("model_loaded_opt"), { id }));
  $("model-select").prepend(o);
  $("model-select").value = o.value;
}

// --- rendering a result ---------------------------------------------------------------------
function setNum(id, v, f) {
  const el = $(id);
  el.textContent = show(v, f);
  if (v === null || v === undefined) el.removeAttribute("data-value");
  else el.dataset.value = String(v);
}
function li(text) {
  const e = document.createElement("li");
  e.textContent = text;
  return e;
}
function termName(name) {
  const k = "term_" + name;
  return STRINGS[state.lang][k] ?? name;
}

function renderResult(r, source) {
  const b = r.budget;
  const pool = r.from_log ?? r.estimated; // the headline: exact from the log when given
  setNum("pool-tokens", pool ? pool.tokens : null, "int");
  setNum("max-concurrency", pool ? pool.max_concurrency : null, "x");
  setNum("avg-concurrency", pool ? pool.avg_requests : null, "dec1");
  if (r.from_log) {
    $("band").textContent = fill(S("band"), { low: F.int(r.from_log.tokens_low), high: F.int(r.from_log.tokens_high) });
    $("source-note").textContent = fill(S("src_log"), {
      low: F.int(r.from_log.tokens_low), high: F.int(r.from_log.tokens_high),
      est: r.estimated ? F.int(r.estimated.tokens) : "–",
    });
  } else {
    $("band").textContent = r.estimated_band
      ? fill(S("band"), { low: F.int(r.estimated_band.tokens_low), high: F.int(r.estimated_band.tokens_high) }) : "";
    $("source-note").textContent = r.estimated ? S("src_estimated") : S("no_budget");
  }
  // "does not fit": vLLM's own error, then what to change
  const err = $("error");
  if (pool && !pool.fits && pool.error) {
    const h = document.createElement("strong");
    h.textContent = S("fit_error_h");
    const code = document.createElement("code");
    code.textContent = pool.error;
    const fix = document.createElement("p");
    fix.textContent = pool.estimated_max_model_len
      ? fill(S("fit_fix_len"), { len: F.int(pool.estimated_max_model_len) }) : S("fit_fix_mem");
    err.replaceChildren(h, code, fix);
    err.dataset.kind = "does-not-fit";
    err.hidden = false;
  } else {
    err.replaceChildren();
    err.hidden = true;
    delete err.dataset.kind;
  }
  // from the log
  if (r.from_log) {
    $("from-log-text").textContent = fill(S("fromlog_text"), {
      mem: F.gib(r.from_log.available_gib), tokens: F.int(r.from_log.tokens),
      low: F.int(r.from_log.tokens_low), high: F.int(r.from_log.tokens_high),
      conc: F.x(r.from_log.max_concurrency),
    });
    $("from-log").hidden = false;
  } else $("from-log").hidden = true;
  // per GPU
  $("gpu-total").textContent = `${r.gpu.name}: ${F.gib(r.gpu.total_gib)} GiB`;
  $("requested").textContent = b ? `${F.gib(b.requested_gib)} GiB (× ${F.dec2(r.settings.gpu_memory_utilization)})` : "–";
  const weights = b ? b.terms.find((t) => t.name === "weights") : null;
  setNum("weights-gib-per-gpu", weights ? weights.gib : null, "gib");
  if (weights) $("weights-gib-per-gpu").textContent += " GiB";
  const reserve = b ? b.terms.filter((t) => t.name !== "weights") : [];
  $("reserve-list").replaceChildren(...reserve.map((t) => {
    const e = li(`${termName(t.name)}: ` + fill(S("term_range"), {
      gib: F.gib(t.gib) + " GiB", low: F.gib(t.low_gib), high: F.gib(t.high_gib) + " GiB" }));
    e.title = t.basis;
    return e;
  }));
  setNum("kv-gib-per-gpu", pool ? pool.available_gib : null, "gib");
  if (pool) $("kv-gib-per-gpu").textContent += " GiB";
  setNum("kv-bytes-per-token", r.layout.kv_bytes_per_token, "int");
  $("layout").replaceChildren(...r.layout.groups.map((g) => li(fill(S("layout_group"), {
    layers: F.int(g.layers), kind: g.kind, block: F.int(g.block_size), page: F.int(g.page_bytes) }))));
  renderBar(r, pool);
  $("serve-command").textContent = r.serve_command;
  $("log-lines").textContent = pool ? pool.log_lines.join("\n") : "";
  renderSettingsUsed(r);
  const notes = [...r.notes];
  if (r.budget_note) notes.push(r.budget_note);
  $("notes").replaceChildren(...notes.map(li));
  $("results").dataset.state = source;
  $("stale-note").hidden = source !== "prerendered" || !state.computeWanted;
}

function renderBar(r, pool) {
  const b = r.budget;
  const parts = [];
  if (b) {
    for (const t of b.terms) parts.push([t.name === "weights" ? "weights" : "reserve", t.bytes, t.gib, termName(t.name)]);
    const kv = pool && pool.available_bytes > 0;
    parts.push(["kv", kv ? pool.available_bytes : 0, kv ? pool.available_gib : 0, S("bar_kv")]);
    parts.push(["outside", b.left_outside_util_bytes, b.left_outside_util_gib, S("bar_outside")]);
  }
  const segs = [];
  const legend = [];
  for (const [kind, bytes, gib, label] of parts) {
    const seg = document.createElement("span");
    seg.className = "seg seg-" + kind;
    seg.style.flexGrow = String(Math.max(bytes, 0)); // proportional width, no arithmetic
    seg.title = `${label}: ${F.gib(gib)} GiB`;
    segs.push(seg);
    const l = li(`${label}: ${F.gib(gib)} GiB`);
    l.className = "key-" + kind;
    legend.push(l);
  }
  $("membar").replaceChildren(...segs);
  $("membar-legend").replaceChildren(...legend);
  $("membar").setAttribute("aria-label", legend.map((l) => l.textContent).join("; "));
}

function renderSettingsUsed(r) {
  const s = r.settings;
  const rows = [
    [S("used_model"), `${r.model.id || "–"} (${r.model.architecture}, ${r.model.dtype})`],
    [S("used_version"), s.vllm_version],
    [S("used_util"), F.dec2(s.gpu_memory_utilization)],
    [S("used_mml"), F.int(s.max_model_len)],
    [S("used_mnbt"), F.int(s.max_num_batched_tokens)],
    [S("used_mns"), F.int(s.max_num_seqs)],
    [S("used_kv"), `${s.kv_cache_dtype} → ${s.kv_cache_dtype_resolved}`],
    [S("used_block"), `${F.int(s.block_size)} (${s.block_size_reason})`],
    [S("used_defaults"), s.defaults_used.join(", ") || "–"],
    [S("used_formula"), r.layout.token_formula],
  ];
  $("settings-used").replaceChildren(...rows.map(([k, v]) => {
    const d = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    d.append(dt, dd);
    return d;
  }));
}

// --- errors next to fields -------------------------------------------------------------------
function clearFieldErrors() {
  for (const id of Object.values(FIELD_MSG)) {
    const m = $(id + "-msg");
    if (m) m.textContent = "";
    $(id).removeAttribute("aria-invalid");
  }
}
function showRequestError(error) {
  const fields = error.fields || {};
  const loose = [];
  const hfSelected = $("model-select").value.startsWith("hf:");
  if (hfSelected && (error.type === "ConfigError" || error.type === "UnsupportedModelError")) {
    return "hf";
  }
  for (const [flag, msg] of Object.entries(fields)) {
    const id = FIELD_MSG[flag];
    if (id && $(id + "-msg")) {
      $(id + "-msg").textContent = `${flag}: ${msg}`;
      $(id).setAttribute("aria-invalid", "true");
    } else loose.push(`${flag}: ${msg}`);
  }
  const err = $("error");
  if (loose.length || !Object.keys(fields).length) {
    const p = document.createElement("p");
    p.textContent = fill(S("request_error"), { msg: loose.length ? loose.join("; ") : error.message });
    const k = document.createElement("p");
    k.textContent = S("kept_last");
    err.replaceChildren(p, k);
  } else {
    const k = document.createElement("p");
    k.textContent = S("kept_last");
    err.replaceChildren(k);
  }
  err.dataset.kind = "request";
  err.hidden = false;
  $("results").dataset.state = "error";
  return "shown";
}

// --- the worker -----------------------------------------------------------------------------
let worker = null;
let nextId = 1;
const pending = new Map();
let readyResolve;
const pythonReady = new Promise((res) => { readyResolve = res; });

function call(fn, arg) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, fn, arg });
  });
}

function startWorker() {
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    if (data.type === "ready") {
      state.runtime = data;
      state.timings.ready = performance.now();
      readyResolve();
      return;
    }
    if (data.type === "failed") {
      $("status").textContent = S("status_failed");
      $("status").dataset.state = "failed";
      const err = $("error");
      err.textContent = fill(S("worker_failed"), { msg: data.error });
      err.hidden = false;
      return;
    }
    if (data.type === "log") return;
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.error) p.reject(new Error(data.error));
    else p.resolve(data.json);
  };
  worker.onerror = (e) => {
    $("status").textContent = S("status_failed");
    $("status").dataset.state = "failed";
    e.preventDefault();
  };
}

let latestEstimate = 0; // ids of the newest estimate request; older replies are dropped
async function compute() {
  formToUrl();
  if (!state.ready) {
    state.computeWanted = true;
    $("stale-note").hidden = false;
    return;
  }
  const req = buildRequest();
  const mine = ++latestEstimate;
  const t0 = performance.now();
  const text = await call("handle", JSON.stringify(req));
  if (mine !== latestEstimate) return; // a newer change is on its way: drop this stale reply
  const reply = JSON.parse(text);
  clearFieldErrors();
  if (reply.ok) {
    state.lastResult = reply.result;
    state.lastRequest = req;
    renderResult(reply.result, "python");
    if (req.config && state.hf) hfMessage("hf_loaded_result");
  } else if (showRequestError(reply.error) === "hf") {
    const id = state.hf.id;
    state.hf = null;
    removeHfOption();
    $("model-select").value = state.prevModel || PR.default_request.model;
    hfSet("hf_unsizeable", { id, msg: reply.error.message }, true);
    formToUrl();
    return compute();
  }
  state.timings.recompute = performance.now() - t0;
  state.computed = (state.computed || 0) + 1;
  document.body.dataset.computed = String(state.computed);
}

async function runValidation() {
  const text = await call("handle", JSON.stringify({ op: "validate" }));
  const reply = JSON.parse(text);
  if (reply.ok) {
    state.lastValidation = reply.result;
    state.validationLive = true;
    renderValidation();
  }
}

// --- validation table, method, FAQ ---------------------------------------------------------
const LOGS = new Map(PR.logs.map((e) => [e.id, e]));
function td(text, cls) {
  const c = document.createElement("td");
  c.textContent = text;
  if (cls) c.className = cls;
  return c;
}
function renderValidation() {
  const v = state.lastValidation;
  const rows = v.rows.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.id = row.id;
    const a = document.createElement("a");
    a.href = row.source;
    a.rel = "noopener noreferrer";
    a.target = "_blank";
    a.textContent = row.id.startsWith("vllm#") ? row.id.slice(4) : row.id;
    const c0 = document.createElement("th");
    c0.scope = "row";
    c0.append(a);
    const e = LOGS.get(row.id) || {};
    const setup = fill(S("v_setup_fmt"), {
      gpu: e.tensor_parallel_size > 1 ? `${e.tensor_parallel_size} × ${row.gpu}` : row.gpu,
      tp: e.tensor_parallel_size ?? 1, util: e.gpu_memory_utilization ?? "–", kv: e.kv_cache_dtype ?? "auto",
      len: e.max_model_len ? F.int(e.max_model_len) : "–", ver: row.vllm_version,
    }) + (e.max_num_batched_tokens ? `, --max-num-batched-tokens ${F.int(e.max_num_batched_tokens)}` : "")
      + (e.quantization ? `, ${e.quantization}` : "");
    const cells = [c0, td(row.model), td(setup),
      td(row.logged_available_gib != null ? `${F.gib(row.logged_available_gib)} GiB` : "–", "num"),
      td(show(row.logged_tokens, "int"), "num")];
    if (row.skipped) {
      const c = td(fill(S("v_skipped"), { reason: row.skipped }), "skipped");
      c.colSpan = 2;
      cells.push(c);
    } else {
      const fl = row.from_log;
      const fromLog = td(fl ? `${F.int(fl.tokens)} (${F.pct(fl.error_pct)})` : "–", "num");
      if (fl) { fromLog.dataset.tokens = String(fl.tokens); fromLog.dataset.errorPct = String(fl.error_pct); }
      const es = row.estimated;
      const est = td(es ? fill(S("v_est_fmt"), { tokens: F.int(es.tokens), err: F.pct(es.error_pct), gib: F.gib(es.kv_gib) })
        : (row.estimated_skipped || "–"), "num");
      if (es) { est.dataset.tokens = String(es.tokens); est.dataset.errorPct = String(es.error_pct); }
      cells.push(fromLog, est);
    }
    tr.append(...cells);
    return tr;
  });
  $("validation-body").replaceChildren(...rows);
  const s = v.summary;
  $("val-summary").textContent = fill(S("val_summary"), {
    checked: F.int(s.from_log_checked), inside: F.int(s.from_log_inside),
    maxerr: s.from_log_max_abs_error_pct != null ? F.dec2(s.from_log_max_abs_error_pct) + "%" : "–",
    med: s.estimated_median_abs_error_pct != null ? F.dec2(s.estimated_median_abs_error_pct) + "%" : "–",
    max: s.estimated_max_abs_error_pct != null ? F.dec2(s.estimated_max_abs_error_pct) + "%" : "–",
    skipped: F.int(s.skipped), n: F.int(s.entries),
  });
  $("val-status").textContent = state.validationLive ? fill(S("val_live"), { n: F.int(s.entries) }) : S("val_pending");
  $("validation-table").dataset.state = state.validationLive ? "live" : "prerendered";
  const notes = [];
  for (const e of PR.logs) {
    const k = "vnote_" + e.id;
    if (STRINGS[state.lang][k]) notes.push(li(S(k)));
  }
  $("val-notes").replaceChildren(...notes);
  $("val-sources").replaceChildren(...PR.logs.filter((e) => e.notes).map((e) => li(`${e.id}: ${e.notes}`)));
}

function renderRules() {
  $("rules-body").replaceChildren(...CAT.rules.map((r) => {
    const tr = document.createElement("tr");
    const pr = document.createElement("td");
    const m = /^#(\d+)$/.exec(r.pr || "");
    if (m) {
      const a = document.createElement("a");
      a.href = `https://github.com/vllm-project/vllm/pull/${m[1]}`;
      a.rel = "noopener noreferrer";
      a.textContent = r.pr;
      pr.append(a);
    } else pr.textContent = r.pr || "–";
    const src = document.createElement("td");
    const code = document.createElement("code");
    code.textContent = r.source;
    src.append(code);
    tr.append(td(r.since), td(r.what), pr, src, td(r.basis));
    return tr;
  }));
}

function renderFaq() {
  const data = PR.faq;
  $("faq-settings").textContent = fill(S("faq_settings"), { version: data.version, gpu: data.qwen.gpu });
  $("faq-list").replaceChildren(...S("faq").map(([q, a], i) => {
    const d = document.createElement("details");
    d.id = "faq-" + (i + 1);
    if (i < 2) d.open = true;
    const s = document.createElement("summary");
    s.textContent = q;
    const p = document.createElement("p");
    p.textContent = fill(a, data);
    d.append(s, p);
    return d;
  }));
}

function renderBuildInfo() {
  const rt = state.runtime;
  $("build-info").textContent = fill(S("build_info"), {
    kv: PR.kvcalc_version, pyo: rt ? rt.pyodide : PR.pyodide_version, py: rt ? rt.python : "–" });
}

// The result first; the long tables in later tasks, so no single main-thread task grows long.
const nextTask = () => new Promise((res) => setTimeout(res, 0));
async function renderAll() {
  applyStaticText();
  if (hfOption() && state.hf) hfOption().textContent = fill(S("model_loaded_opt"), { id: state.hf.id });
  renderResult(state.lastResult, $("results").dataset.state === "prerendered" ? "prerendered" : "python");
  renderBuildInfo();
  if (state.hfMsg) hfSet(state.hfMsg.key, state.hfMsg.args, state.hfMsg.bad);
  await nextTask();
  renderValidation();
  await nextTask();
  renderRules();
  renderFaq();
}

// --- Hugging Face --------------------------------------------------------------------------
function hfSet(key, args, bad) {
  state.hfMsg = { key, args, bad };
  const m = $("model-id-msg");
  m.textContent = fill(S(key), args || {});
  m.dataset.kind = key;
  m.classList.toggle("field-error", !!bad);
  if (bad) $("model-id").setAttribute("aria-invalid", "true");
  else $("model-id").removeAttribute("aria-invalid");
}
function hfMessage() {
  const r = state.lastResult;
  const hf = state.hf;
  if (!hf) return;
  const weights = hf.weights_bytes != null && r.budget
    ? fill(S("hf_weights_exact"), { gib: F.gib(r.budget.checkpoint_gib) }) : S("hf_weights_est");
  hfSet("hf_loaded", { id: hf.id, arch: r.model.architecture, weights }, false);
}

async function hfFetch(id, file, headers, extra = {}) {
  return fetch(`https://huggingface.co/${id}/resolve/main/${file}`, {
    headers: { ...headers, ...(extra.headers || {}) }, mode: "cors", credentials: "omit",
  });
}

function hfStatusMessage(resp, id, withToken) {
  const code = resp.headers.get("x-error-code") || "";
  if (code === "RepoNotFound" || (resp.status === 404 && code !== "EntryNotFound")) return ["hf_404", { id }];
  if (code === "EntryNotFound" || resp.status === 404) return ["hf_no_config", { id }];
  if (resp.status === 401) return [withToken ? "hf_401_token" : "hf_401", { id }];
  if (resp.status === 403) return ["hf_403", { id }];
  return ["hf_http", { id, status: resp.status }];
}

async function weightsFromHub(id, headers) {
  // 1. sharded checkpoints: model.safetensors.index.json's metadata.total_size
  try {
    const r = await hfFetch(id, "model.safetensors.index.json", headers);
    if (r.ok) {
      const total = JSON.parse(await r.text())?.metadata?.total_size;
      if (Number.isInteger(total) && total > 0) return total;
    }
  } catch { /* fall through */ }
  // 2. a single model.safetensors: read its header with Range requests; Python does the sums
  try {
    await pythonReady;
    let range = "bytes=0-1048575";
    for (let i = 0; i < 2; i++) {
      const r = await hfFetch(id, "model.safetensors", headers, { headers: { Range: range } });
      if (r.status !== 206) { r.body?.cancel(); return null; } // never download a whole checkpoint
      const buf = new Uint8Array(await r.arrayBuffer());
      const out = JSON.parse(await call("safetensors_header", buf));
      if (out.bytes != null) return out.bytes;
      if (out.need_range == null) return null;
      range = out.need_range;
    }
  } catch { /* weights stay estimated from the config */ }
  return null;
}

let hfSeq = 0;
async function loadHf(rawId) {
  const id = rawId.trim().replace(/^https:\/\/huggingface\.co\//, "").replace(/\/+$/, "");
  const mine = ++hfSeq;
  if (!/^[\w.-]+\/[\w.-]+$/.test(id)) { hfSet("hf_bad_id", {}, true); return; }
  $("model-id").value = id;
  hfSet("hf_loading", { id }, false);
  const token = $("hf-token").value.trim();
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  let resp;
  try {
    resp = await hfFetch(id, "config.json", headers);
  } catch {
    if (mine === hfSeq) hfSet("hf_offline", {}, true);
    return;
  }
  if (mine !== hfSeq) return;
  if (!resp.ok) { const [k, a] = hfStatusMessage(resp, id, !!token); hfSet(k, a, true); return; }
  let config;
  try { config = JSON.parse(await resp.text()); } catch { hfSet("hf_bad_json", { id }, true); return; }
  if (!config || typeof config !== "object" || Array.isArray(config)) { hfSet("hf_bad_json", { id }, true); return; }
  const weights = await weightsFromHub(id, headers);
  if (mine !== hfSeq) return;
  if (!$("model-select").value.startsWith("hf:")) state.prevModel = $("model-select").value;
  state.hf = { id, config, weights_bytes: weights };
  setHfOption(id);
  hfSet("hf_loading", { id }, false);
  await compute();
}

// --- copy & share ----------------------------------------------------------------------------
async function copyText(text, btn) {
  try {
    await navigator.clipboard.writeText(text);
    btn.textContent = S("copied");
  } catch {
    btn.textContent = S("copy_failed");
  }
  setTimeout(() => { btn.textContent = S(btn.dataset.i18n); }, 1500);
}

// --- wiring ----------------------------------------------------------------------------------
function init() {
  state.lang = pickLang();
  populateSelects();
  for (const [, id, d] of FIELDS) setField(id, d);
  const hfFromUrl = urlToForm();
  const fromUrl = location.search.length > 1;
  state.computeWanted = fromUrl;
  startWorker(); // as early as possible: Python boots while the page renders
  const rest = renderAll();
  state.timings.firstNumbers = performance.now();
  performance.mark("kvcalc:first-numbers");

  const form = $("form");
  const onChange = (ev) => {
    const t = ev.target;
    if (t.id === "model-id" || t.id === "hf-token") return; // loaded with the button / Enter
    if (t.id === "model-select" && !t.value.startsWith("hf:")) state.prevModel = t.value;
    compute();
  };
  form.addEventListener("input", onChange);
  form.addEventListener("change", onChange);
  form.addEventListener("submit", (ev) => ev.preventDefault());
  $("model-load").addEventListener("click", () => loadHf($("model-id").value));
  $("model-id").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); loadHf($("model-id").value); }
  });
  $("lang-toggle").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    try { localStorage.setItem("kvcalc.lang", state.lang); } catch { /* ignore */ }
    renderAll();
  });
  $("share").addEventListener("click", async () => {
    const url = formToUrl();
    try {
      await navigator.clipboard.writeText(url);
      $("share-msg").textContent = S("share_done");
    } catch {
      $("share-msg").textContent = `${S("share_shown")} ${url}`;
    }
  });
  $("reset").addEventListener("click", () => {
    resetForm();
    hfSeq++;
    state.hfMsg = null;
    compute();
  });
  for (const btn of document.querySelectorAll("button.copy")) {
    btn.addEventListener("click", () => copyText($(btn.dataset.copy).textContent, btn));
  }

  if (hfFromUrl) loadHf(hfFromUrl);
  Promise.all([pythonReady, rest]).then(async () => {
    state.ready = true;
    $("status").textContent = "ready";
    $("status").dataset.state = "ready";
    document.body.dataset.pyReady = "1";
    renderBuildInfo();
    await compute(); // the current form (a change made during boot included)
    state.computeWanted = false;
    $("stale-note").hidden = true;
    performance.mark("kvcalc:ready");
    await runValidation();
  });
}

init();
