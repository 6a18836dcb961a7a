// Page glue: form ⇄ URL ⇄ worker ⇄ DOM. Every number shown comes from the kvcalc core (at
// build time for the first paint, then from Python in the worker); this file only moves data
// and formats it for the reader's locale. DOM writes use textContent / replaceChildren only.

import { STRINGS } from "./i18n.js";
import { drawChart, linearTicks, powerTicks } from "./charts.js";

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
  drafter: null, // the drafter --speculative-config names: {id, config} | {id, pending} | {id, failed}
  drafterMsg: null,
  log: null, // a pasted startup log: {text, request, result, use} (use: its measured reserve is the baseline)
  planWanted: false, // the planner runs once asked, then follows every change
  curves: null, // {request, result} of the newest estimate with curves
  levers: null, // {request, result | error}
  plan: null, // {request, result | error}
};
window.__kvcalc = state; // for tests, benchmarks and anyone scripting the page

// --- the core's own sentences ---------------------------------------------------------------
// Notes, term bases, field errors, likely causes and the rule table are written by the core in
// English; each reply carries `zh`, the Chinese of every such sentence (kvcalc/messages.py).
const ZH = { ...(PR.zh || {}) };
function learn(reply) {
  if (reply && reply.zh) Object.assign(ZH, reply.zh);
  return reply;
}
/** A core sentence in the page's language (English when the core has no translation). */
function C(text) {
  return state.lang === "zh" && text != null && ZH[text] ? ZH[text] : text;
}
/** Message arguments with the core's `msg` in the page's language (translated when shown, so a
 * language switch re-renders it). */
function coreArgs(args) {
  const a = { ...(args || {}) };
  if (a.msg) a.msg = C(a.msg);
  return a;
}
/** Mark an element holding a core sentence as English when it could not be translated. */
function coreLang(el, text) {
  if (state.lang !== "en" && text && !ZH[text]) el.lang = "en";
  return el;
}

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
// Rounded as Python's f-strings round (and so vLLM's log lines): half to even on the double's exact
// value, so a concurrency of exactly 12.125 shows 12.12x as vLLM prints it, not 12.13x.
const EVEN = { roundingMode: "halfEven" };
const F = {
  int: (v) => nf({ maximumFractionDigits: 0, ...EVEN }).format(v),
  gib: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2, ...EVEN }).format(v),
  x: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2, ...EVEN }).format(v) + "x",
  pct: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero", ...EVEN }).format(v) + "%",
  dec1: (v) => nf({ minimumFractionDigits: 1, maximumFractionDigits: 1, ...EVEN }).format(v),
  dec2: (v) => nf({ minimumFractionDigits: 2, maximumFractionDigits: 2, ...EVEN }).format(v),
  raw: (v) => String(v),
  dec3: (v) => nf({ maximumFractionDigits: 3, ...EVEN }).format(v),
  compact: (v) => nf({ notation: "compact", maximumFractionDigits: 1 }).format(v),
  share: (v) => nf({ style: "percent", maximumFractionDigits: 0 }).format(v),
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
  for (const g of document.querySelectorAll("optgroup[data-core-label]")) g.label = C(g.dataset.coreLabel);
  document.title = S("title");
  const btn = $("lang-toggle");
  btn.textContent = S("lang_button");
  btn.setAttribute("aria-label", S("lang_button_label"));
  btn.lang = state.lang === "zh" ? "en" : "zh";
  if (state.workerLost) renderWorkerLost();
  else if (!state.ready) $("status").textContent = S("status_starting");
}

// --- form ⇄ request ⇄ URL ------------------------------------------------------------------
const FIELDS = [
  // [url param, element id, default]
  ["model", "model-select", PR.default_request.model],
  ["gpu", "gpu-select", PR.default_request.gpu],
  ["gtot", "gpu-total-gib", ""],
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
  ["perf", "performance-mode", ""],
  ["mcg", "max-cg-size", ""],
  ["cgs", "cg-sizes", ""],
  ["cgm", "cg-mode", ""],
  ["ab", "attn-backend", ""],
  ["ol", "opt-level", ""],
  ["mmlim", "mm-limits", ""],
  ["mmp", "mm-proc", ""],
  ["hfo", "hf-overrides", ""],
  ["spec", "spec-config", ""],
  ["dps", "dp-size", ""],
  ["dcp", "dcp", ""],
  ["kvb", "kv-bytes", ""],
  ["nblk", "num-blocks", ""],
  ["cpuoff", "cpu-offload", ""],
  ["asy", "async-scheduling", ""],
  ["ssm", "mamba-ssm-dtype", ""],
  ["nohma", "disable-hybrid", false],
  ["bs", "block-size", ""],
  ["eager", "enforce-eager", false],
  ["pc", "prefix-caching", ""],
  ["cp", "chunked-prefill", ""],
  ["xkv", "extensible-kv", ""],
  ["fis", "flashinfer-sampler", ""],
  ["cgp", "cg-profiling", ""],
  ["al", "allow-long", ""],
  ["qr", "rocm-quick-reduce", ""],
  ["mr", "model-runner", ""],
  ["cc", "compile-cache", ""],
  ["pm", "pinned-memory", ""],
  ["p2p", "peer-to-peer", ""],
  ["mx", "mxfp4-marlin", ""],
  ["fi", "fp4-indexer", ""],
  ["smp", "skip-mm-profiling", false],
  ["lmo", "language-model-only", false],
  ["dsw", "disable-sliding-window", false],
  ["xp", "expert-parallel", false],
  ["ncar", "no-custom-ar", false],
  ["kvc", "kv-connector", ""],
  ["ep", "entrypoint", "serve"],
  ["avail", "available-kv-gib", ""],
];
// Where each core error field is shown: the core names a setting's field by its vLLM spelling
// (settings.VLLM_SPELLING, the catalog's setting_spelling) or else by its name with spaces.
let fieldMsgIds = null;
function fieldMsg() {
  fieldMsgIds ??= Object.fromEntries([
    ...LOG_FIELDS.map(([k, id]) => [SETTING_FLAG[k] || k.replace(/_/g, " "), id]),
    ["--avg-tokens", "avg-tokens"], ["available_kv_gib", "available-kv-gib"], ["gpu_total_gib", "gpu-total-gib"],
  ]);
  return fieldMsgIds;
}

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
    gpu_total_gib: value("gpu-total-gib"),
    settings: {
      tensor_parallel_size: value("gpu-count"),
      pipeline_parallel_size: value("pp"),
      gpu_memory_utilization: value("util"),
      kv_cache_dtype: $("kv-dtype").value,
      max_model_len: value("max-model-len"),
      max_num_batched_tokens: value("mnbt"),
      max_num_seqs: value("max-num-seqs"),
      max_cudagraph_capture_size: value("max-cg-size"),
      // the core reads the list from the text ("1 2 4 8") and names what is wrong with it
      cudagraph_capture_sizes: $("cg-sizes").value.trim() || null,
      // the core reads the limits from the text (JSON or image=2,video=0) and names what is wrong
      limit_mm_per_prompt: $("mm-limits").value.trim() || null,
      mm_processor_kwargs: $("mm-proc").value.trim() || null,
      block_size: value("block-size"),
      enforce_eager: $("enforce-eager").checked,
      entrypoint: $("entrypoint").value,
      vllm_version: $("vllm-version").value,
      weights: $("weights").value,
      avg_tokens: value("avg-tokens"),
      ...profileSettings(),
      ...specSettings(),
    },
    available_kv_gib: value("available-kv-gib"),
    ...baselineFields(),
    ...drafterField(),
  };
}

// --speculative-config as typed (the core reads the JSON and names what is wrong); sent only
// when set, with the drafter's config.json once it has been read from Hugging Face.
function specSettings() {
  const t = $("spec-config").value.trim();
  return t ? { speculative: t } : {};
}
function drafterId() {
  let spec;
  try { spec = JSON.parse($("spec-config").value); } catch { return null; }
  const method = spec && typeof spec === "object" ? String(spec.method).toLowerCase() : "";
  if (!CAT.drafter_methods.includes(method)) return null; // the core's list (settings.DRAFTER_METHODS)
  return typeof spec.model === "string" && /^[\w.-]+\/[\w.-]+$/.test(spec.model) ? spec.model : null;
}
function drafterField() {
  const d = state.drafter;
  return d && d.config && d.id === drafterId() ? { drafter: { id: d.id, config: d.config } } : {};
}

// --enable-prefix-caching, --enable-chunked-prefill, --enable-extensible-kv-cache, VLLM_USE_FLASHINFER_SAMPLER, VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, VLLM_ALLOW_LONG_MAX_MODEL_LEN,
// VLLM_ROCM_QUICK_REDUCE_QUANTIZATION, VLLM_USE_V2_MODEL_RUNNER, --performance-mode, the compilation config's cudagraph_mode,
// --attention-backend, -O, --skip-mm-profiling,
// --language-model-only, --disable-sliding-window, --enable-expert-parallel, --disable-custom-all-reduce,
// --kv-transfer-config's connector,
// --decode-context-parallel-size, --kv-cache-memory-bytes, --num-gpu-blocks-override,
// --cpu-offload-gb, --async-scheduling,
// --mamba-ssm-cache-dtype and --disable-hybrid-kv-cache-manager: sent only when the user (or a pasted log) set them.
function profileSettings() {
  const v = $("flashinfer-sampler").value;
  const cg = $("cg-profiling").value;
  const al = $("allow-long").value;
  const qr = $("rocm-quick-reduce").value;
  const mr = $("model-runner").value;
  const pc = $("prefix-caching").value;
  const cp = $("chunked-prefill").value;
  const xkv = $("extensible-kv").value;
  const cc = $("compile-cache").value;
  const pm = $("pinned-memory").value;
  const p2p = $("peer-to-peer").value;
  const mx = $("mxfp4-marlin").value;
  const fi = $("fp4-indexer").value;
  const perf = $("performance-mode").value;
  const cgm = $("cg-mode").value;
  const ab = $("attn-backend").value;
  const ol = $("opt-level").value;
  const hfo = $("hf-overrides").value.trim();
  const asy = $("async-scheduling").value;
  const ssm = $("mamba-ssm-dtype").value;
  const kvc = $("kv-connector").value;
  return {
    ...(pc === "" ? {} : { enable_prefix_caching: pc === "1" }),
    ...(cp === "" ? {} : { enable_chunked_prefill: cp === "1" }),
    ...(xkv === "" ? {} : { enable_extensible_kv_cache: xkv === "1" }),
    ...(v === "" ? {} : { flashinfer_sampler: v === "1" }),
    ...(cg === "" ? {} : { cudagraph_memory_profiling: cg === "1" }),
    ...(al === "" ? {} : { allow_long_max_model_len: true }),
    ...(qr === "" ? {} : { rocm_quick_reduce: qr }),
    ...(mr === "" ? {} : { model_runner_v2: mr === "1" }),
    ...(cc === "" ? {} : { compile_cache: cc }),
    ...(pm === "" ? {} : { pinned_memory: false }),
    ...(p2p === "" ? {} : { peer_to_peer: p2p === "1" }),
    ...(mx === "" ? {} : { mxfp4_marlin: mx === "1" }),
    ...(fi === "" ? {} : { fp4_indexer_cache: true }),
    ...(perf === "" ? {} : { performance_mode: perf }),
    ...(cgm === "" ? {} : { cudagraph_mode: cgm }),
    ...(ab === "" ? {} : { attention_backend: ab }),
    ...(ol === "" ? {} : { optimization_level: Number(ol) }),
    // the core reads the JSON and names what is wrong with it
    ...(hfo === "" ? {} : { hf_overrides: hfo }),
    ...(value("dp-size") === null ? {} : { data_parallel_size: value("dp-size") }),
    ...(value("dcp") === null ? {} : { decode_context_parallel_size: value("dcp") }),
    ...(value("kv-bytes") === null ? {} : { kv_cache_memory_bytes: value("kv-bytes") }),
    ...(value("num-blocks") === null ? {} : { num_gpu_blocks_override: value("num-blocks") }),
    ...(value("cpu-offload") === null ? {} : { cpu_offload_gb: value("cpu-offload") }),
    ...(asy === "" ? {} : { async_scheduling: asy === "1" }),
    ...(ssm === "" ? {} : { mamba_ssm_cache_dtype: ssm }),
    ...($("disable-hybrid").checked ? { disable_hybrid_kv_cache_manager: true } : {}),
    ...($("skip-mm-profiling").checked ? { skip_mm_profiling: true } : {}),
    ...($("language-model-only").checked ? { language_model_only: true } : {}),
    ...($("disable-sliding-window").checked ? { disable_sliding_window: true } : {}),
    ...($("expert-parallel").checked ? { enable_expert_parallel: true } : {}),
    ...($("no-custom-ar").checked ? { disable_custom_all_reduce: true } : {}),
    ...(kvc === "" ? {} : { kv_connector: kvc }),
  };
}

// The reserve a pasted log measured replaces the estimated one while the baseline is on.
function usableReserve() {
  const r = state.log?.result?.measured_reserve_gib;
  return r !== null && r !== undefined && r >= 0 ? r : null;
}
function baselineOn() { return !!(state.log && state.log.use && usableReserve() !== null); }
function baselineFields() { return baselineOn() ? { measured_reserve_gib: usableReserve() } : {}; }

function ensureVersionOption(v) {
  const sel = $("vllm-version");
  // a release, or an NVIDIA NGC build of one ("0.11.1+nv25.12"), as the core's log reader gives them
  if (!/^\d+\.\d+\.\d+(\+nv\d{2}\.\d{2})?$/.test(v || "") || [...sel.options].some((o) => o.value === v)) return;
  const o = option(v, v);
  const minor = [...sel.options].find((x) => x.value === v.replace(/^(\d+\.\d+)\..*$/, "$1.0"));
  sel.insertBefore(o, minor || null);
}

function setField(id, v) {
  if (id === "vllm-version") ensureVersionOption(v);
  const el = $(id);
  if (el.type === "checkbox") el.checked = v === true || v === "1" || v === "true";
  else if (el.tagName === "SELECT") {
    if (typeof v === "boolean") v = v ? "1" : "0";   // an on/off setting shown as a select
    if ([...el.options].some((o) => o.value === v)) el.value = v;
  } else el.value = v;
}

function formToUrl() {
  const q = new URLSearchParams();
  if (state.hf && !state.hf.file) q.set("hf", state.hf.id);   // a file from disk cannot travel in a link
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
  $("model-retry").hidden = true;
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
  // the core says which group each GPU belongs to (catalog.gpu_class), in its order
  const gpuGroups = new Map(CAT.gpu_classes.map((c) => {
    const g = document.createElement("optgroup");
    g.dataset.coreLabel = c.label;
    g.label = C(c.label);
    return [c.key, g];
  }));
  for (const g of CAT.gpus) gpuGroups.get(g.class).append(option(g.key, g.name));
  $("gpu-select").replaceChildren(...[...gpuGroups.values()].filter((g) => g.children.length));
  $("weights").replaceChildren(...CAT.weight_formats.map((w) => option(w, w)));
  $("kv-dtype").replaceChildren(...CAT.kv_cache_dtypes.map((k) => option(k, k)));
  $("vllm-version").replaceChildren(...[...CAT.vllm_versions].reverse().map((v) => option(v, v)));
}
function hfOption() { return $("model-select").querySelector('option[value^="hf:"]'); }
function removeHfOption() { hfOption()?.remove(); }
function hfOptionText() {
  return fill(S(state.hf.file ? "model_file_opt" : "model_loaded_opt"), { id: state.hf.id });
}
function setHfOption(id) {
  removeHfOption();
  const o = option("hf:" + id, hfOptionText());
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
  // an empty memory share shows the default the core resolved for the chosen release
  if ($("util").value.trim() === "" && r.settings?.gpu_memory_utilization != null) {
    $("util").placeholder = String(r.settings.gpu_memory_utilization);
  }
  const pool = r.from_log ?? r.estimated; // the headline: exact from the log when given
  setNum("pool-tokens", pool ? pool.tokens : null, "int");
  setNum("max-concurrency", pool ? pool.max_concurrency : null, "x");
  $("conc-cap").textContent = r.settings.max_model_len_auto && pool && pool.fits
    ? fill(S("conc_cap_auto"), { len: F.int(pool.max_model_len) }) : S("conc_cap");
  setNum("avg-concurrency", pool ? pool.avg_requests : null, "dec1");
  if (r.from_log) {
    $("band").textContent = fill(S("band"), { low: F.int(r.from_log.tokens_low), high: F.int(r.from_log.tokens_high) });
    $("source-note").textContent = fill(S("src_log"), {
      low: F.int(r.from_log.tokens_low), high: F.int(r.from_log.tokens_high),
      est: r.estimated ? F.int(r.estimated.tokens) : "–",
    });
  } else if (state.lastRequest?.measured_reserve_gib != null && r.estimated) {
    $("band").textContent = "";
    $("source-note").textContent = S("src_baseline");
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
    // the core says whether an fp8 cache is a way out here (not where vLLM refuses it, nor already fp8)
    fix.textContent = pool.estimated_max_model_len
      ? fill(S(r.fp8_cache_helps ? "fit_fix_len" : "fit_fix_len_no_fp8"), { len: F.int(pool.estimated_max_model_len) })
      : S("fit_fix_mem");
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
  // what the weights rest on (the checkpoint or the parameters, MXFP4 padding, allocator rounding)
  const wb = $("weights-basis");
  wb.removeAttribute("lang");
  coreLang(wb, weights ? weights.basis : "").textContent = weights && weights.basis ? C(weights.basis) : "";
  const reserve = b ? b.terms.filter((t) => t.name !== "weights") : [];
  $("reserve-list").replaceChildren(...reserve.map((t) => {
    const e = li(`${termName(t.name)}: ` + (t.low_gib === t.high_gib ? `${F.gib(t.gib)} GiB` : fill(S("term_range"), {
      gib: F.gib(t.gib) + " GiB", low: F.gib(t.low_gib), high: F.gib(t.high_gib) + " GiB" })));
    if (t.basis) {
      const why = coreLang(document.createElement("small"), t.basis);
      why.className = "basis";
      why.textContent = C(t.basis);
      e.append(why);
    }
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
  $("notes").replaceChildren(...notes.map((n) => coreLang(li(C(n)), n)));
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

/** Fill a <dl> with [term, description] pairs (text only). */
function renderPairs(dl, rows) {
  dl.replaceChildren(...rows.map(([k, v]) => {
    const d = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    d.append(dt, dd);
    return d;
  }));
}

// The compile cache's state as the select names it ("" / null: not known).
function compileCacheText(v) {
  return S(v === "warm" ? "cc_warm" : v === "cold" ? "cc_cold" : "cc_unset");
}

// The speculative config as the core read it, and whether the drafter's own config sized it.
function specUsedText(spec) {
  const flag = JSON.stringify({ method: spec.method, num_speculative_tokens: spec.num_speculative_tokens,
    ...(spec.model ? { model: spec.model } : {}) });
  return `${flag} · ${S(spec.drafter_config ? "spec_drafter_read" : "spec_drafter_assumed")}`;
}

// --max-model-len auto: the length the headline pool fitted (the core's _auto_fit), from the model's own
function usedAutoLen(r) {
  const pool = r.from_log ?? r.estimated;
  return pool && pool.fits
    ? fill(S("used_mml_auto"), { len: F.int(pool.max_model_len), from: F.int(r.settings.max_model_len) })
    : fill(S("used_mml_auto_none"), { from: F.int(r.settings.max_model_len) });
}

function renderSettingsUsed(r) {
  const s = r.settings;
  const rows = [
    [S("used_model"), `${r.model.id || "–"} (${r.model.architecture}, ${r.model.dtype})`],
    [S("used_version"), s.vllm_version],
    [S("used_util"), F.dec2(s.gpu_memory_utilization)],
    [S("used_mml"), s.max_model_len_auto ? usedAutoLen(r) : F.int(s.max_model_len)],
    [S("used_mnbt"), F.int(s.max_num_batched_tokens)],
    [S("used_mns"), F.int(s.max_num_seqs)],
    [S("used_kv"), `${s.kv_cache_dtype} → ${s.kv_cache_dtype_resolved}`],
    [S("used_block"), `${F.int(s.block_size)} (${C(s.block_size_reason)})`],
    [S("used_defaults"), s.defaults_used.join(", ") || "–"],
    [S("used_formula"), r.layout.token_formula],
    [S("used_sampler"), C(s.sampler)],
    [S("used_runner"), S(r.layout.model_runner_v2 ? "runner_v2" : "runner_v1")
      + (s.model_runner_v2 != null ? ` (VLLM_USE_V2_MODEL_RUNNER=${s.model_runner_v2 ? 1 : 0})` : "")],
    [S("used_prefix"), S(s.enable_prefix_caching ? "used_on" : "used_off")],
    // flags that only apply when set (the compile cache: also where a first start costs more)
    ...(s.compile_cache || (r.budget && r.budget.terms.some((t) => t.name === "first-start compile"))
      ? [[S("cc_label"), compileCacheText(s.compile_cache)]]
      : []),
    ...(s.pinned_memory === false ? [[S("pm_label"), S("pm_off")]] : []),
    ...(s.peer_to_peer != null ? [[S("p2p_label"), S(s.peer_to_peer ? "p2p_on" : "p2p_off")]] : []),
    ...(s.mxfp4_marlin != null ? [[S("mx_label"), S(s.mxfp4_marlin ? "mx_on" : "mx_off")]] : []),
    ...(s.fp4_indexer_cache ? [[S("fi_label"), S("fi_on")]] : []),
    ...(s.language_model_only ? [["--language-model-only", S("used_on")]] : []),
    ...(s.disable_sliding_window ? [["--disable-sliding-window", S("used_on")]] : []),
    ...(s.enable_expert_parallel ? [["--enable-expert-parallel", S("used_on")]] : []),
    ...(s.disable_custom_all_reduce ? [["--disable-custom-all-reduce", S("used_on")]] : []),
    ...(s.kv_connector ? [["--kv-transfer-config", s.kv_connector]] : []),
    ...(s.cudagraph_memory_profiling != null
      ? [["VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS", s.cudagraph_memory_profiling ? "1" : "0"]] : []),
    ...(s.allow_long_max_model_len ? [["VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1"]] : []),
    ...(s.rocm_quick_reduce ? [["VLLM_ROCM_QUICK_REDUCE_QUANTIZATION", s.rocm_quick_reduce]] : []),
    ...(s.performance_mode ? [["--performance-mode", s.performance_mode]] : []),
    ...(s.attention_backend ? [["--attention-backend", s.attention_backend]] : []),
    ...(s.optimization_level != null ? [["-O", String(s.optimization_level)]] : []),
    ...(s.cudagraph_capture_sizes ? [["--cudagraph-capture-sizes", s.cudagraph_capture_sizes.join(" ")]] : []),
    ...(s.limit_mm_per_prompt ? [["--limit-mm-per-prompt", JSON.stringify(s.limit_mm_per_prompt)]] : []),
    ...(s.mm_processor_kwargs ? [["--mm-processor-kwargs", JSON.stringify(s.mm_processor_kwargs)]] : []),
    ...(s.hf_overrides ? [["--hf-overrides", JSON.stringify(s.hf_overrides)]] : []),
    ...(s.speculative ? [["--speculative-config", specUsedText(s.speculative)]] : []),
    ...(s.max_cudagraph_capture_size != null
      ? [["--max-cudagraph-capture-size", F.int(s.max_cudagraph_capture_size)]] : []),
  ];
  renderPairs($("settings-used"), rows);
}

// --- errors next to fields -------------------------------------------------------------------
function clearFieldErrors() {
  for (const id of Object.values(fieldMsg())) {
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
    const id = fieldMsg()[flag];
    if (id && $(id + "-msg")) {
      $(id + "-msg").textContent = `${flag}: ${C(msg)}`;
      $(id).setAttribute("aria-invalid", "true");
      // a field inside the closed Advanced section (a refusal the model brings, e.g. Gemma 4's batch):
      // open it, and say the reason beside the results too, where the user is looking
      const closed = $(id).closest("details:not([open])");
      if (closed) { closed.open = true; loose.push(`${flag}: ${C(msg)}`); }
    } else loose.push(`${flag}: ${C(msg)}`);
  }
  const err = $("error");
  if (loose.length || !Object.keys(fields).length) {
    const p = document.createElement("p");
    p.textContent = fill(S("request_error"), { msg: loose.length ? loose.join(state.lang === "zh" ? "；" : "; ") : C(error.message) });
    const k = document.createElement("p");
    k.textContent = S(keptKey());
    err.replaceChildren(p, k);
  } else {
    const k = document.createElement("p");
    k.textContent = S(keptKey());
    err.replaceChildren(k);
  }
  err.dataset.kind = "request";
  err.hidden = false;
  $("results").dataset.state = "error";
  return "shown";
}

// What the result area still shows after a failed request: the last result computed for this
// visit, or, before any (a shared link whose settings fail at once), the page's built-in example.
function keptKey() {
  return state.lastResult === PR.default_result ? "kept_default" : "kept_last";
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

const BOOT_TIMEOUT_MS = 180_000; // a Pyodide file that stalls without an error must not leave "starting" forever
function startWorker() {
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  setTimeout(() => { if (!state.runtime) workerLost(S("worker_boot_timeout")); }, BOOT_TIMEOUT_MS);
  worker.onmessage = ({ data }) => {
    if (data.type === "ready") {
      state.runtime = data;
      state.timings.ready = performance.now();
      readyResolve();
      return;
    }
    if (data.type === "failed" || data.type === "crashed") {
      workerLost(String(data.error));
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
    e.preventDefault();
    workerLost(e.message || S("status_failed"));
  };
  worker.onmessageerror = () => workerLost("messageerror");
}

// The worker is gone: it could not boot (Pyodide or the wasm did not load, worker.js threw) or it
// crashed later. The numbers shown stay (prerendered, or the last computed); the status says what
// happened and the reload button starts over. Calls in flight never settle; later changes wait.
function workerLost(msg) {
  if (state.workerLost) return; // the first report says what happened
  state.workerLost = { kind: state.runtime ? "stopped" : "failed", msg };
  state.ready = false;
  try { worker.terminate(); } catch { /* already gone */ }
  pending.clear();
  $("stale-note").hidden = true; // nothing will be computed later: the status says why
  renderWorkerLost();
}
function renderWorkerLost() {
  const w = state.workerLost;
  if (!w) return;
  $("status").textContent = S(w.kind === "stopped" ? "status_stopped" : "status_failed");
  $("status").dataset.state = w.kind;
  const m = $("runtime-msg");
  m.textContent = w.kind === "stopped" ? fill(S("worker_stopped"), { msg: w.msg })
    : `${fill(S("worker_failed"), { msg: w.msg })} ${S("worker_failed_reload")}`;
  m.hidden = false;
  $("reload").hidden = false;
}

let latestEstimate = 0; // ids of the newest estimate request; older replies are dropped
async function compute() {
  formToUrl();
  ensureDrafter(); // a drafter named in --speculative-config: read its config.json, then again
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
  const reply = learn(JSON.parse(text));
  clearFieldErrors();
  state.lastError = reply.ok ? null : reply.error;
  if (reply.ok) {
    state.lastResult = reply.result;
    state.lastRequest = req;
    renderResult(reply.result, "python");
    renderBaseline();
    if (req.config && state.hf) hfMessage("hf_loaded_result");
    scheduleSecondary();
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
  const reply = learn(JSON.parse(text));
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
    // Only web addresses become links; other sources ("github:owner/repo@commit:path") stay text.
    const a = document.createElement(/^https:\/\//.test(row.source || "") ? "a" : "span");
    if (a.tagName === "A") {
      a.href = row.source;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
    } else {
      a.title = row.source || "";
    }
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
      const c = coreLang(td(fill(S("v_skipped"), { reason: C(row.skipped) }), "skipped"), row.skipped);
      c.colSpan = 2;
      cells.push(c);
    } else {
      const fl = row.from_log;
      const fromLog = td(fl ? `${F.int(fl.tokens)} (${F.pct(fl.error_pct)})` : "–", "num");
      if (fl) { fromLog.dataset.tokens = String(fl.tokens); fromLog.dataset.errorPct = String(fl.error_pct); }
      const es = row.estimated;
      const est = td(es ? fill(S("v_est_fmt"), { tokens: F.int(es.tokens), err: F.pct(es.error_pct), gib: F.gib(es.kv_gib) })
        : (C(row.estimated_skipped) || "–"), "num");
      coreLang(est, row.estimated_skipped);
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
    w5: F.int(s.estimated_within_5pct || 0), en: F.int(s.estimated_checked || 0),
    gmed: show(s.estimated_kv_median_abs_error_gib, "gib"),
    gmax: show(s.estimated_kv_max_abs_error_gib, "gib"),
    skipped: F.int(s.skipped), n: F.int(s.entries),
    hmed: s.held_out_rows && s.held_out_rows.estimated_median_abs_error_pct != null
      ? F.dec2(s.held_out_rows.estimated_median_abs_error_pct) + "%" : "–",
    hn: F.int(s.held_out_rows ? s.held_out_rows.estimated_checked : 0),
    high: show(s.estimated_share_high, "share"),
    wmed: s.weights_median_abs_error_pct != null ? F.dec2(s.weights_median_abs_error_pct) + "%" : "–",
  }) + (s.estimated_checked ? " " + fill(S("val_band"), {
    inside: F.int(s.estimated_inside_band), n: F.int(s.estimated_checked),
  }) : "") + (s.activation_checked ? " " + fill(S("val_terms"), {
    an: F.int(s.activation_checked), amed: show(s.activation_median_abs_error_gib, "gib"),
    ahigh: show(s.activation_share_high, "share"),
    nn: F.int(s.non_torch_checked), nmed: show(s.non_torch_median_abs_error_gib, "gib"),
    cn: F.int(s.cuda_graphs_checked), cmed: show(s.cuda_graphs_median_abs_error_gib, "gib"),
  }) : "");
  $("val-status").textContent = state.validationLive ? fill(S("val_live"), { n: F.int(s.entries) }) : S("val_pending");
  $("validation-table").dataset.state = state.validationLive ? "live" : "prerendered";
  const notes = [];
  for (const e of PR.logs) {
    const k = "vnote_" + e.id;
    if (STRINGS[state.lang][k]) notes.push(li(S(k)));
  }
  $("val-notes").replaceChildren(...notes);
  $("val-sources").replaceChildren(...PR.logs.filter((e) => e.notes).map((e) => {
    const zh = state.lang === "zh" && e.notes_zh;
    const item = li(`${e.id}: ${zh || e.notes}`);
    if (state.lang !== "en" && !zh) item.lang = "en";
    return item;
  }));
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
    tr.append(td(r.since), coreLang(td(C(r.what)), r.what), pr, src, coreLang(td(C(r.basis)), r.basis));
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
  if (hfOption() && state.hf) hfOption().textContent = hfOptionText();
  const showing = $("results").dataset.state;
  renderResult(state.lastResult, showing === "prerendered" ? "prerendered" : "python");
  if (state.lastError && showing === "error") {
    clearFieldErrors();
    showRequestError(state.lastError);
  }
  renderBuildInfo();
  if (state.hfMsg) hfSet(state.hfMsg.key, state.hfMsg.args, state.hfMsg.bad);
  if (state.logMsg?.command) commandMsg(state.logMsg.command);
  else if (state.logMsg) logMsg(state.logMsg.key, state.logMsg.args, state.logMsg.bad);
  renderDrafterMsg();
  renderBaseline();
  renderCompare();
  renderCharts();
  renderLevers();
  renderPlan();
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
  m.textContent = fill(S(key), coreArgs(args));
  m.dataset.kind = key;
  m.classList.toggle("field-error", !!bad);
  if (bad) $("model-id").setAttribute("aria-invalid", "true");
  else $("model-id").removeAttribute("aria-invalid");
  $("model-retry").hidden = !HF_RETRY.has(key);
}
// Messages after which loading the same id again may work (network, server, token, content).
const HF_RETRY = new Set(["hf_offline", "hf_http", "hf_timeout", "hf_slow", "hf_bad_json", "hf_bad_shape",
  "hf_unsizeable", "hf_401", "hf_401_token", "hf_403"]);
function hfMessage() {
  const r = state.lastResult;
  const hf = state.hf;
  if (!hf) return;
  const weights = hf.weights_bytes != null && r.budget
    ? fill(S("hf_weights_exact"), { gib: F.gib(r.budget.checkpoint_gib) }) : S("hf_weights_est");
  if (hf.file) hfSet("cfg_loaded", { file: hf.file, id: hf.id, arch: r.model.architecture, weights }, false);
  else hfSet("hf_loaded", { id: hf.id, arch: r.model.architecture, weights }, false);
}

async function hfFetch(id, file, headers, extra = {}) {
  return fetch(`https://huggingface.co/${id}/resolve/main/${file}`, {
    headers: { ...headers, ...(extra.headers || {}) }, mode: "cors", credentials: "omit",
    signal: extra.signal,
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

async function weightsFromHub(id, headers, signal) {
  // 1. sharded checkpoints: model.safetensors.index.json's metadata.total_size
  try {
    const r = await hfFetch(id, "model.safetensors.index.json", headers, { signal });
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
      const r = await hfFetch(id, "model.safetensors", headers, { headers: { Range: range }, signal });
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

// A JSON object file beside config.json, or null: optional, so its defaults apply without it.
async function optionalJsonFromHub(id, file, headers, signal) {
  try {
    const r = await hfFetch(id, file, headers, { signal });
    if (!r.ok) return null;
    const data = JSON.parse(await r.text());
    return data && typeof data === "object" && !Array.isArray(data) && !nestedDeeper(data, CAT.config_max_depth)
      ? data : null;
  } catch { return null; }
}

// Whether arrays and objects nest more than `limit` deep in `value`: the core refuses such JSON
// (textdepth.MAX_DEPTH), since in Pyodide json's scanner would overflow the stack on it.
function nestedDeeper(value, limit) {
  const stack = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (depth > limit) return true;
    for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

// A fetched config.json: {config} when it is a JSON object, else {fail: [message key, args]}.
function configFromText(text, id) {
  let config;
  try { config = JSON.parse(text); } catch { return { config: null, fail: ["hf_bad_json", { id }] }; }
  if (!config || typeof config !== "object" || Array.isArray(config)) {
    const kind = Array.isArray(config) ? "array" : config === null ? "null" : typeof config;
    return { config: null, fail: ["hf_bad_shape", { id, kind }] };
  }
  if (nestedDeeper(config, CAT.config_max_depth)) {
    return { config: null, fail: ["hf_too_deep", { id, n: CAT.config_max_depth }] };
  }
  return { config, fail: null };
}

let hfSeq = 0;
let hfAbort = null; // the load in flight; a newer load cancels it
async function loadHf(rawId) {
  const id = rawId.trim().replace(/^https:\/\/huggingface\.co\//, "").replace(/\/+$/, "");
  const mine = ++hfSeq;
  hfAbort?.abort();
  if (!/^[\w.-]+\/[\w.-]+$/.test(id)) { hfSet("hf_bad_id", {}, true); return; }
  state.hfTried = id; // what the retry button loads again
  $("model-id").value = id;
  hfSet("hf_loading", { id }, false);
  const token = $("hf-token").value.trim();
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  // Slow: say so after hfSlowMs (the load goes on); stuck: give up after hfTimeoutMs.
  const ctl = new AbortController();
  hfAbort = ctl;
  const limitS = (state.hfTimeoutMs ?? 30000) / 1000;
  let timedOut = false;
  const slow = setTimeout(() => { if (mine === hfSeq) hfSet("hf_slow", { id }, false); }, state.hfSlowMs ?? 5000);
  const limit = setTimeout(() => { timedOut = true; ctl.abort(); }, limitS * 1000);
  const done = () => { clearTimeout(slow); clearTimeout(limit); };
  const lost = () => { // the request failed, timed out, or a newer load cancelled it
    done();
    if (mine === hfSeq) hfSet(timedOut ? "hf_timeout" : "hf_offline", { id, s: F.raw(limitS) }, true);
  };
  let resp;
  let text;
  try {
    resp = await hfFetch(id, "config.json", headers, { signal: ctl.signal });
    if (mine === hfSeq && resp.ok) text = await resp.text();
  } catch { lost(); return; }
  if (mine !== hfSeq) { done(); return; }
  if (!resp.ok) { done(); const [k, a] = hfStatusMessage(resp, id, !!token); hfSet(k, a, true); return; }
  const { config, fail } = configFromText(text, id);
  if (fail) { done(); hfSet(fail[0], fail[1], true); return; }
  const weights = await weightsFromHub(id, headers, ctl.signal);
  // a vision model's image limit sizes vLLM's warm-up: the core reads it from the config
  if (config.vision_config && typeof config.vision_config === "object") {
    const pre = await optionalJsonFromHub(id, "preprocessor_config.json", headers, ctl.signal);
    if (pre) config.preprocessor_config = pre;
  }
  // an older ModelOpt export declares its quantization in hf_quant_config.json, which vLLM reads
  // when config.json declares none (the core's config_aliases.quantization_config)
  if (!config.quantization_config && !config.text_config?.quantization_config) {
    const quant = await optionalJsonFromHub(id, "hf_quant_config.json", headers, ctl.signal);
    if (quant) config.hf_quant_config = quant;
  }
  done();
  if (mine !== hfSeq) return;
  if (!$("model-select").value.startsWith("hf:")) state.prevModel = $("model-select").value;
  state.hf = { id, config, weights_bytes: weights };
  setHfOption(id);
  hfSet("hf_loading", { id }, false);
  if (state.log) await compareLog(true);
  else await compute();
}

// --- a config.json from disk: a local or fine-tuned model, or huggingface.co out of reach ------
const CONFIG_FILE_MAX_BYTES = 4 << 20;
function localModelName(config, fileName) {
  // what vllm serve is pointed at: the path or id the checkpoint was saved from, else the file's name
  const saved = typeof config._name_or_path === "string" ? config._name_or_path.trim() : "";
  const stem = fileName.replace(/\.json$/i, "");
  return (saved || (stem && stem.toLowerCase() !== "config" ? stem : "local-model")).slice(0, 200);
}
async function loadConfigFile(file) {
  if (!file) return;
  const mine = ++hfSeq;   // a newer load, from Hugging Face or disk, wins
  hfAbort?.abort();
  state.hfTried = null;
  if (file.size > CONFIG_FILE_MAX_BYTES) {
    hfSet("cfg_too_big", { file: file.name, mib: F.dec1(file.size / (1 << 20)) }, true);
    return;
  }
  let text;
  try { text = await file.text(); } catch { hfSet("hf_bad_json", { id: file.name }, true); return; }
  if (mine !== hfSeq) return;
  const { config, fail } = configFromText(text, file.name);
  if (fail) { hfSet(fail[0], fail[1], true); return; }
  if (!$("model-select").value.startsWith("hf:")) state.prevModel = $("model-select").value;
  state.hf = { id: localModelName(config, file.name), config, weights_bytes: null, file: file.name };
  $("model-id").value = "";
  setHfOption(state.hf.id);
  if (state.log) await compareLog(true);
  else await compute();
}

// --- the drafter a speculative config names ---------------------------------------------------
// Its config.json sizes the drafter's layers and weights (the core's "draft model" term); until
// it is read, or when it cannot be, the core assumes one layer like the model's and says so.
let drafterSeq = 0;
function drafterMsg(key, args) {
  state.drafterMsg = key ? { key, args } : null;
  renderDrafterMsg();
}
function renderDrafterMsg() {
  const m = $("spec-drafter-msg");
  const d = state.drafterMsg;
  if (!d) { m.textContent = ""; m.dataset.kind = ""; return; }
  const args = d.args.reason ? { ...d.args, reason: fill(S(d.args.reason[0]), coreArgs(d.args.reason[1])) } : d.args;
  m.textContent = fill(S(d.key), args);
  m.dataset.kind = d.key;
}
async function ensureDrafter() {
  const id = drafterId();
  if (!id) {
    drafterSeq++;
    if (state.drafter || state.drafterMsg) { state.drafter = null; drafterMsg(null); }
    return;
  }
  const token = $("hf-token").value.trim();
  // read, being read, or failed for this id (a failure is tried again with another token)
  if (state.drafter?.id === id && !(state.drafter.failed && state.drafter.token !== token)) return;
  const mine = ++drafterSeq;
  state.drafter = { id, pending: true };
  drafterMsg("spec_drafter_loading", { id });
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const ctl = new AbortController();
  const limitS = (state.hfTimeoutMs ?? 30000) / 1000;
  const limit = setTimeout(() => ctl.abort(), limitS * 1000);
  let config = null;
  let fail = null;
  try {
    const r = await hfFetch(id, "config.json", headers, { signal: ctl.signal });
    if (!r.ok) fail = hfStatusMessage(r, id, !!token);
    else ({ config, fail } = configFromText(await r.text(), id));
  } catch {
    fail = ctl.signal.aborted ? ["hf_timeout", { id, s: F.raw(limitS) }] : ["hf_offline", { id }];
  }
  clearTimeout(limit);
  if (mine !== drafterSeq) return;
  state.drafter = config ? { id, config } : { id, failed: true, token };
  drafterMsg(config ? "spec_drafter_loaded" : "spec_drafter_failed", config ? { id } : { id, reason: fail });
  if (state.log) await compareLog(true);
  else await compute();
}

// --- your log: paste, compare, baseline ------------------------------------------------------
// Settings a log can show, by form field (the core's Settings names).
const LOG_FIELDS = [
  ["tensor_parallel_size", "gpu-count", "1"],
  ["pipeline_parallel_size", "pp", "1"],
  ["gpu_memory_utilization", "util", ""],
  ["kv_cache_dtype", "kv-dtype", "auto"],
  ["max_model_len", "max-model-len", ""],
  ["max_num_batched_tokens", "mnbt", ""],
  ["max_num_seqs", "max-num-seqs", ""],
  ["performance_mode", "performance-mode", ""],
  ["max_cudagraph_capture_size", "max-cg-size", ""],
  ["cudagraph_capture_sizes", "cg-sizes", ""],
  ["cudagraph_mode", "cg-mode", ""],
  ["attention_backend", "attn-backend", ""],
  ["optimization_level", "opt-level", ""],
  ["limit_mm_per_prompt", "mm-limits", ""],
  ["mm_processor_kwargs", "mm-proc", ""],
  ["hf_overrides", "hf-overrides", ""],
  ["speculative", "spec-config", ""],
  ["data_parallel_size", "dp-size", ""],
  ["decode_context_parallel_size", "dcp", ""],
  ["kv_cache_memory_bytes", "kv-bytes", ""],
  ["num_gpu_blocks_override", "num-blocks", ""],
  ["cpu_offload_gb", "cpu-offload", ""],
  ["async_scheduling", "async-scheduling", ""],
  ["mamba_ssm_cache_dtype", "mamba-ssm-dtype", ""],
  ["disable_hybrid_kv_cache_manager", "disable-hybrid", false],
  ["block_size", "block-size", ""],
  ["enforce_eager", "enforce-eager", false],
  ["enable_prefix_caching", "prefix-caching", ""],
  ["enable_chunked_prefill", "chunked-prefill", ""],
  ["enable_extensible_kv_cache", "extensible-kv", ""],
  ["flashinfer_sampler", "flashinfer-sampler", ""],
  ["cudagraph_memory_profiling", "cg-profiling", ""],
  ["allow_long_max_model_len", "allow-long", ""],
  ["rocm_quick_reduce", "rocm-quick-reduce", ""],
  ["model_runner_v2", "model-runner", ""],
  ["compile_cache", "compile-cache", ""],
  ["pinned_memory", "pinned-memory", ""],
  ["peer_to_peer", "peer-to-peer", ""],
  ["mxfp4_marlin", "mxfp4-marlin", ""],
  ["fp4_indexer_cache", "fp4-indexer", ""],
  ["skip_mm_profiling", "skip-mm-profiling", false],
  ["language_model_only", "language-model-only", false],
  ["disable_sliding_window", "disable-sliding-window", false],
  ["enable_expert_parallel", "expert-parallel", false],
  ["disable_custom_all_reduce", "no-custom-ar", false],
  ["kv_connector", "kv-connector", ""],
  ["vllm_version", "vllm-version", CAT.newest_version],
  ["entrypoint", "entrypoint", "serve"],
  ["weights", "weights", "auto"],
];
const SETTING_FLAG = CAT.setting_spelling; // vLLM's flag or environment variable (settings.VLLM_SPELLING)
function settingName(k) {
  if (k === "vllm_version") return S("name_version");
  if (k === "weights") return S("name_weights");
  if (k === "model") return S("name_model");
  if (k === "compile_cache") return S("name_compile_cache");
  if (k === "pinned_memory") return S("pm_label");
  if (k === "peer_to_peer") return S("p2p_label");
  if (k === "mxfp4_marlin") return S("mx_label");
  if (k === "fp4_indexer_cache") return S("fi_label");
  if (k === "gpu") return S("name_gpu");
  return SETTING_FLAG[k] || k;
}
function settingText(k, v) {
  if (k === "vllm_version") return `vLLM ${v}`;
  if (k === "enforce_eager" || k === "skip_mm_profiling" || k === "language_model_only" || k === "disable_sliding_window"
      || k === "enable_expert_parallel" || k === "disable_custom_all_reduce") {
    return v ? SETTING_FLAG[k] : "";
  }
  if (k === "flashinfer_sampler") return `VLLM_USE_FLASHINFER_SAMPLER=${v ? 1 : 0}`;
  if (k === "cudagraph_memory_profiling") return `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=${v ? 1 : 0}`;
  if (k === "allow_long_max_model_len") return v ? "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" : "";
  if (k === "rocm_quick_reduce") return `VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=${v}`;
  if (k === "model_runner_v2") return S(v ? "runner_v2" : "runner_v1");
  if (k === "compile_cache") return compileCacheText(v);
  if (k === "pinned_memory") return S(v === false ? "pm_off" : "pm_unset");
  if (k === "peer_to_peer") return S(v === true ? "p2p_on" : v === false ? "p2p_off" : "p2p_unset");
  if (k === "mxfp4_marlin") return S(v ? "mx_on" : "mx_off");
  if (k === "fp4_indexer_cache") return S(v ? "fi_on" : "fi_unset");
  if (k === "enable_prefix_caching") return v ? "--enable-prefix-caching" : "--no-enable-prefix-caching";
  if (k === "enable_chunked_prefill") return v ? "--enable-chunked-prefill" : "--no-enable-chunked-prefill";
  if (k === "enable_extensible_kv_cache") return v ? "--enable-extensible-kv-cache" : "--no-enable-extensible-kv-cache";
  if (k === "async_scheduling") return v ? "--async-scheduling" : "--no-async-scheduling";
  if (k === "max_model_len" && v === -1) return "--max-model-len auto";
  if (k === "disable_hybrid_kv_cache_manager") return v ? SETTING_FLAG[k] : "";
  if (k === "speculative") return `--speculative-config ${JSON.stringify(v)}`;
  if (k === "hf_overrides") return `--hf-overrides ${typeof v === "string" ? v : JSON.stringify(v)}`;
  if (k === "kv_connector") return `--kv-transfer-config ${JSON.stringify({ kv_connector: v })}`;
  if (k === "cudagraph_mode") return `--compilation-config.cudagraph_mode=${v}`;
  if (k === "optimization_level") return `-O${v}`;
  if (Array.isArray(v)) return `${SETTING_FLAG[k] || k} ${v.join(" ")}`;
  return `${SETTING_FLAG[k] || k} ${v}`;
}

function logMsg(key, args, bad) {
  const m = $("log-paste-msg");
  m.textContent = key ? fill(S(key), coreArgs(args)) : "";
  m.dataset.kind = key || "";
  m.classList.toggle("field-error", !!bad);
  if (bad) $("log-paste").setAttribute("aria-invalid", "true");
  else $("log-paste").removeAttribute("aria-invalid");
  state.logMsg = key ? { key, args, bad } : null;
}

// A pasted `vllm serve` command instead of a log: the core reads its flags (commandline.py), the
// form takes them over and the page computes; there are no logged numbers to compare. False when
// the text holds no command either.
async function readCommand(text, fallback, mine) {
  const reply = learn(JSON.parse(await call("handle", JSON.stringify({ op: "read_command", text, fallback }))));
  if (mine !== logSeq) return true;
  if (!reply.ok) {
    if ((reply.error.fields || {}).log) return false;
    logMsg("paste_error", { msg: reply.error.message }, true);
    return true;
  }
  const res = reply.result;
  state.log = null;
  state.lastCompare = { request: { op: "read_command", text }, reply };
  renderCompare();
  renderBaseline();
  const known = [...$("model-select").options].some((o) => o.value === res.model);
  fillFormFromLog({ settings: res.settings, model: res.model, gpu: $("gpu-select").value,
    filled_from_form: known ? [] : ["model"], log: { model: res.model } });
  commandMsg(res);
  await compute();
  document.body.dataset.compared = String((Number(document.body.dataset.compared) || 0) + 1);
  return true;
}

function commandMsg(res) {
  const m = $("log-paste-msg");
  const parts = [fill(S(res.kind === "llm" ? "paste_llm_call" : res.model ? "paste_command" : "paste_command_unnamed"),
    { model: res.model })];
  if (res.model && ![...$("model-select").options].some((o) => o.value === res.model)) {
    // an id Hugging Face knows can be loaded; a local path names no model the page can read
    const hfId = /^[\w.-]+\/[\w.-]+$/.test(res.model);
    parts.push(fill(S(hfId ? "paste_command_hf" : "paste_command_path"), { model: res.model }));
  }
  const formModel = state.hf?.id || $("model-select").value;
  if (res.model_ignored) parts.push(fill(S("paste_command_model_ignored"), { why: C(res.model_ignored.why), model: formModel }));
  else if (!res.model && res.kind !== "llm") parts.push(fill(S("paste_command_no_model"), { model: formModel }));
  for (const why of res.fails) parts.push(fill(S("paste_command_fails"), { why: C(why) }));
  if (res.unexpanded.length) parts.push(fill(S("paste_command_unexpanded"), { names: res.unexpanded.join(", ") }));
  if (res.ignored.length) parts.push(fill(S("paste_command_ignored"), { flags: res.ignored.join(", ") }));
  const refused = Object.entries(res.refused).map(([flag, why]) => `${flag} (${C(why)})`);
  if (refused.length) parts.push(fill(S("paste_command_refused"), { flags: refused.join(S("list_sep")) }));
  if (res.unknown.length) parts.push(fill(S("paste_command_unknown"), { flags: res.unknown.join(", ") }));
  m.textContent = parts.join(" ");
  m.dataset.kind = "paste_command";
  m.classList.remove("field-error");
  $("log-paste").removeAttribute("aria-invalid");
  state.logMsg = { command: res };
}

function fillFormFromLog(res) {
  const s = res.settings || {};
  for (const [k, id, d] of LOG_FIELDS) {
    // vLLM's -1 is --max-model-len auto; a Mamba dtype of auto is the select's default
    const v = k === "max_model_len" && s[k] === -1 ? "auto" : k === "mamba_ssm_cache_dtype" && s[k] === "auto" ? null : s[k];
    setField(id, v === undefined || v === null ? d
      : typeof v === "boolean" ? v : Array.isArray(v) ? v.join(" ")
        : typeof v === "object" ? JSON.stringify(v) : String(v));
  }
  setField("available-kv-gib", ""); // the baseline replaces it
  if (!res.filled_from_form.includes("model") && [...$("model-select").options].some((o) => o.value === res.model)) {
    state.hf = null;
    removeHfOption();
    setField("model-select", res.model);
    state.prevModel = res.model;
  }
  setField("gpu-select", res.gpu);
  // a log's own memory where it differs from the catalog's; a pasted command says nothing of it
  if ("gpu_total_gib" in res) setField("gpu-total-gib", res.gpu_total_gib == null ? "" : String(res.gpu_total_gib));
  // the log names a model the catalog lacks: offer it for loading from Hugging Face
  const named = res.log?.model;
  if (res.filled_from_form.includes("model") && named && /^[\w.-]+\/[\w.-]+$/.test(named)) $("model-id").value = named;
}

let logSeq = 0;
async function compareLog(explicit) {
  if (!state.ready) { logMsg("paste_wait", {}, false); return; }
  const mine = ++logSeq;
  const form = buildRequest();
  let req;
  if (explicit && state.log) {
    // the model, GPU or checkpoint format changed while a log is loaded: compare the same log
    // against what the form now says it ran on
    req = { ...state.log.request, model: form.model, config: form.config, weights_bytes: form.weights_bytes,
      gpu: form.gpu, gpu_total_gib: form.gpu_total_gib, settings: { weights: form.settings.weights }, ...drafterField() };
  } else {
    const { speculative, ...formSettings } = form.settings;
    req = { op: "compare_log", text: $("log-paste").value,
      fallback: { model: form.model, config: form.config, weights_bytes: form.weights_bytes, gpu: form.gpu,
        gpu_total_gib: form.gpu_total_gib, settings: formSettings } };
  }
  logMsg("paste_reading", {}, false);
  const reply = learn(JSON.parse(await call("handle", JSON.stringify(req))));
  if (mine !== logSeq) return;
  if (!reply.ok) {
    const f = reply.error.fields || {};
    // no log lines: perhaps the vllm serve command itself
    if (f.log && !explicit && await readCommand(req.text, req.fallback, mine)) return;
    if (mine !== logSeq) return;
    if (f.log) logMsg("paste_nothing", {}, true);
    else logMsg("paste_error", { msg: reply.error.message }, true);
    state.lastCompare = { request: req, reply };
    if (explicit) {
      // the log does not go with what the form now says: drop its baseline, keep the message
      state.log = null;
      renderCompare();
      renderBaseline();
      await compute();
    }
    document.body.dataset.compared = String((Number(document.body.dataset.compared) || 0) + 1);
    return;
  }
  const res = reply.result;
  state.log = { text: req.text, request: req, result: res, use: explicit && state.log ? state.log.use : true };
  if (!explicit) fillFormFromLog(res);
  state.lastCompare = { request: req, reply };
  const missing = res.filled_from_form.filter((k) => ["model", "gpu", "vllm_version"].includes(k));
  logMsg(missing.length ? "paste_done_form" : "paste_done", {
    model: res.model || state.hf?.id || "–", gpu: gpuName(res.gpu), missing: missing.map(settingName).join(S("list_sep")),
  }, false);
  renderCompare();
  renderBaseline();
  await compute();
  document.body.dataset.compared = String((Number(document.body.dataset.compared) || 0) + 1);
}

function forgetLog() {
  logSeq++;
  state.log = null;
  state.lastCompare = null;
  logMsg(null);
  renderCompare();
  renderBaseline();
}

function gpuName(key) {
  return CAT.gpus.find((g) => g.key === key)?.name ?? key;
}

function renderCompare() {
  const out = $("log-compare-out");
  const log = state.log;
  $("log-clear").hidden = !log;
  if (!log) { out.hidden = true; $("log-compare-body").replaceChildren(); return; }
  const res = log.result;
  const calc = res.calculation;
  const fl = calc.from_log;
  const est = calc.estimated;
  const sum = $("log-compare-summary");
  const parts = [];
  if (fl) {
    parts.push(fill(S("cmp_sum_fromlog"), { mem: F.gib(fl.available_gib), tokens: F.int(fl.tokens),
      low: F.int(fl.tokens_low), high: F.int(fl.tokens_high) }));
    sum.dataset.fromLog = String(fl.tokens);
    sum.dataset.low = String(fl.tokens_low);
    sum.dataset.high = String(fl.tokens_high);
  }
  if (res.log.gpu_kv_cache_tokens != null) {
    parts.push(fill(S("cmp_sum_logged"), { tokens: F.int(res.log.gpu_kv_cache_tokens) }));
    sum.dataset.logged = String(res.log.gpu_kv_cache_tokens);
  } else delete sum.dataset.logged;
  if (est) {
    parts.push(fill(est.fits ? S("cmp_sum_est") : S("cmp_sum_est_nofit"), { tokens: F.int(est.tokens) }));
    sum.dataset.estimated = String(est.tokens);
  }
  sum.textContent = parts.join(" ");
  $("log-compare-body").replaceChildren(...res.rows.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.line = row.line;
    const th = document.createElement("th");
    th.scope = "row";
    const code = document.createElement("code");
    code.textContent = row.line;
    th.append(code);
    const diff = row.difference_pct != null ? F.pct(row.difference_pct)
      : row.difference_gib != null ? `${row.difference_gib > 0 ? "+" : ""}${F.gib(row.difference_gib)} GiB` : "–";
    const cells = [td(row.logged, "num"), td(row.from_log ?? "–", "num"), td(row.estimated ?? "–", "num"),
      td(diff, "num"), coreLang(td(C(row.cause) ?? "", "cause"), row.cause)];
    if (row.difference_pct != null) cells[3].dataset.value = String(row.difference_pct);
    else if (row.difference_gib != null) cells[3].dataset.gib = String(row.difference_gib);
    tr.append(th, ...cells);
    return tr;
  }));
  // where each number comes from
  const rows = [];
  const read = Object.entries(res.form || {}).map(([k, v]) => settingText(k, v)).filter(Boolean);
  if (res.log.model) read.unshift(`${S("model_h")}: ${res.log.model}`);
  if (res.log.total_memory_gib != null) read.push(fill(S("src_total"), { gib: F.gib(res.log.total_memory_gib) }));
  rows.push([S("src_read"), read.join(" · ") || "–"]);
  const filled = res.filled_from_form.map((k) => (k in SETTING_FLAG ? settingText(k, res.settings[k]) : settingName(k)))
    .filter(Boolean);
  rows.push([S("src_filled"), filled.length ? filled.join(S("list_sep")) : S("src_none")]);
  rows.push([S("src_numbers_log"), res.sources.from_log.join(S("list_sep"))]);
  rows.push([S("src_numbers_est"), res.sources.estimated.map(termName).join(S("list_sep")) || "–"]);
  rows.push([S("src_reserve"), res.measured_reserve_gib == null ? "–"
    : fill(S(res.measured_reserve_gib >= 0 ? "src_reserve_ok" : "src_reserve_bad"), { gib: F.gib(res.measured_reserve_gib) })]);
  renderPairs($("log-sources"), rows);
  out.hidden = false;
}

function renderBaseline() {
  const box = $("baseline");
  const log = state.log;
  const reserve = usableReserve();
  const controls = $("baseline-controls");
  let key;
  if (!log) key = "baseline_none";
  else if (reserve === null) key = "baseline_unusable";
  else key = log.use ? "baseline_log" : "baseline_off";
  box.dataset.state = baselineOn() ? "log" : "estimated";
  $("baseline-text").textContent = fill(S(key), {
    gib: log && log.result.measured_reserve_gib != null ? F.gib(log.result.measured_reserve_gib) : "–" });
  controls.hidden = !log;
  $("baseline-toggle").checked = baselineOn();
  $("baseline-toggle").disabled = reserve === null;
}

// --- secondary results: curves, levers, planner (after the headline, off the hot path) -------
let secTimer = null;
let secSeq = 0;
function scheduleSecondary(delay = 150) {
  clearTimeout(secTimer);
  secSeq++;
  secTimer = setTimeout(runSecondary, delay);
}

async function ask(req) {
  return learn(JSON.parse(await call("handle", JSON.stringify(req))));
}

async function runSecondary() {
  const mine = ++secSeq;
  const base = state.lastRequest;
  if (!base || !state.ready) return;
  const cReq = { ...base, curves: true };
  const c = await ask(cReq);
  if (mine !== secSeq) return;
  state.curves = { request: cReq, reply: c };
  renderCharts();
  const lReq = { ...base, op: "levers" };
  const target = value("target-tokens");
  if (target !== null) lReq.target_tokens = target;
  const l = await ask(lReq);
  if (mine !== secSeq) return;
  state.levers = { request: lReq, reply: l };
  renderLevers();
  if (state.planWanted) {
    const pReq = { ...base, op: "plan", requests: value("plan-requests"), tokens: value("plan-tokens") };
    const p = await ask(pReq);
    if (mine !== secSeq) return;
    state.plan = { request: pReq, reply: p };
    renderPlan();
  }
  state.secondaryDone = (state.secondaryDone || 0) + 1;
  document.body.dataset.secondary = String(state.secondaryDone);
}

const lenTick = (v) => (v >= 1048576 ? `${F.raw(v / 1048576)}M` : v >= 1024 ? `${F.raw(v / 1024)}K` : F.int(v));

function renderCharts() {
  const cur = state.curves;
  if (!cur || !cur.reply.ok) return;
  const r = cur.reply.result;
  const cv = r.curves;
  const pool = r.from_log ?? r.estimated;
  // concurrency against --max-model-len (log–log: the curve is close to a straight line)
  const pts = cv.concurrency_vs_max_model_len.map((p) => [p.max_model_len, p.concurrency]);
  const ys = pts.map((p) => p[1]).filter((y) => y > 0);
  const x0 = pts[0][0];
  const x1 = pts[pts.length - 1][0];
  const one = cv.max_model_len_one_request;
  const specC = {
    points: pts, xLog: true, yLog: true, xDomain: [x0, x1],
    xTicks: powerTicks(x0, x1, 2), xFmt: (v, full) => (full ? F.int(v) : lenTick(v)),
    xLabel: S("chart_c_x"), yLabel: S("chart_c_y"),
    title: S("chart_c_title"),
  };
  if (!ys.length) {
    Object.assign(specC, { yDomain: [0.1, 10], yTicks: [0.1, 1, 10], yFmt: (v) => F.raw(v), empty: S("chart_empty"),
      desc: S("chart_empty") });
  } else {
    const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...ys, 1))));
    const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...ys, 1) * 1.0001)));
    const curLen = pool ? pool.max_model_len : r.settings.max_model_len;
    Object.assign(specC, {
      yDomain: [lo, hi], yTicks: powerTicks(lo, hi, 10),
      yFmt: (v, full) => (full ? F.x(v) : nf({ maximumSignificantDigits: 3 }).format(v)),
      hline: { y: 1, label: S("chart_c_one") },
      vline: one > 0 && one < x1 ? { x: one, label: fill(S("chart_c_limit"), { len: F.int(one) }) } : null,
      current: pool && curLen >= x0 && curLen <= x1
        ? { x: curLen, y: pool.max_concurrency, label: fill(S("chart_c_now"), { x: F.x(pool.max_concurrency), len: lenTick(curLen) }) } : null,
      desc: fill(S("chart_c_desc"), { len0: F.int(x0), c0: F.x(pts[0][1]), len1: F.int(x1), c1: F.x(pts[pts.length - 1][1]),
        len: F.int(curLen), c: pool ? F.x(pool.max_concurrency) : "–",
        one: one <= 0 ? S("chart_c_none") : one >= x1 ? fill(S("chart_c_all"), { len: F.int(x1) }) : fill(S("chart_c_upto"), { len: F.int(one) }) }),
    });
  }
  drawChart($("chart-concurrency"), specC);
  $("chart-c-cap").textContent = specC.desc;
  $("chart-concurrency").dataset.oneRequest = String(one);

  // pool against --gpu-memory-utilization
  const up = cv.pool_vs_utilization.map((p) => [p.gpu_memory_utilization, p.pool_tokens]);
  const maxPool = Math.max(0, ...up.map((p) => p[1]));
  const yt = linearTicks(0, maxPool || 1);
  const util = r.settings.gpu_memory_utilization;
  const est = r.estimated;
  const specU = {
    points: up, xLog: false, yLog: false, xDomain: [up[0][0], up[up.length - 1][0]],
    yDomain: [0, yt[yt.length - 1]], xTicks: linearTicks(up[0][0], up[up.length - 1][0], 5),
    yTicks: yt, xFmt: (v) => F.dec2(v), yFmt: (v, full) => (full ? F.int(v) : F.compact(v)),
    xLabel: S("chart_u_x"), yLabel: S("chart_u_y"), title: S("chart_u_title"),
    current: est && est.fits && util >= up[0][0] && util <= up[up.length - 1][0]
      ? { x: util, y: est.tokens, label: fill(S("chart_u_now"), { tokens: F.compact(est.tokens), util: F.dec2(util) }) } : null,
    empty: maxPool ? null : S("chart_empty"),
  };
  specU.desc = maxPool ? fill(S("chart_u_desc"), {
    u0: F.dec2(up[0][0]), p0: F.int(up[0][1]), u1: F.dec2(up[up.length - 1][0]), p1: F.int(up[up.length - 1][1]),
    util: F.dec2(util), tokens: est && est.fits ? F.int(est.tokens) : "–" }) : S("chart_empty");
  // the share from which one request fits, as the core found it
  const start = cv.utilization_one_request;
  if (maxPool && start != null) specU.desc += fill(S("chart_u_start"), { start: F.dec3(start) });
  $("chart-util").dataset.startsAt = start != null ? String(start) : "";
  drawChart($("chart-util"), specU);
  $("chart-u-cap").textContent = specU.desc;
}

function leverCell(text, key, value) {
  const known = key && (STRINGS[state.lang][key] ?? STRINGS.en[key]);
  const c = td(known ? fill(S(key), { value: value ?? "" }) : text);
  if (!known && state.lang !== "en") c.lang = "en";
  return c;
}

function renderLevers() {
  const lv = state.levers;
  if (!lv) return;
  $("target-msg").textContent = "";
  $("target-tokens").removeAttribute("aria-invalid");
  if (!lv.reply.ok) {
    const f = lv.reply.error.fields || {};
    if (f.target_tokens) {
      $("target-msg").textContent = `${S("target_label")}: ${C(f.target_tokens)}`;
      $("target-tokens").setAttribute("aria-invalid", "true");
    }
    $("target-result").textContent = "";
    return;
  }
  const r = lv.reply.result;
  const now = document.createElement("tr");
  now.className = "now";
  now.append(td(S("l_now")), td(fill(S("l_now_how"), { len: F.raw(r.current.max_model_len) })),
    td(F.x(r.current.concurrency), "num"), td("–", "num"), td(F.int(r.current.pool_tokens), "num"), td(""));
  $("levers-body").replaceChildren(now, ...r.levers.map((l) => {
    const tr = document.createElement("tr");
    tr.dataset.flag = l.flag;
    const flag = document.createElement("td");
    const code = document.createElement("code");
    code.textContent = l.flag;
    flag.append(code);
    const conc = td(F.x(l.concurrency), "num");
    conc.dataset.value = String(l.concurrency);
    const gain = td(l.gain == null ? "–" : fill(S("l_gain_fmt"), { g: F.dec2(l.gain) }), "num");
    if (l.gain != null) gain.dataset.value = String(l.gain);
    const pool = td(F.int(l.pool_tokens), "num");
    pool.dataset.value = String(l.pool_tokens);
    tr.append(leverCell(l.name, l.key ? "lever_" + l.key : null, l.value), flag, conc, gain, pool,
      leverCell(l.note, l.key ? "lever_note_" + l.key : null, l.value));
    return tr;
  }));
  const u = r.utilization_for_target;
  const out = $("target-result");
  if (!u) { out.textContent = ""; delete out.dataset.util; return; }
  const parts = [];
  parts.push(u.gpu_memory_utilization != null
    ? fill(S("target_util"), { tokens: F.int(u.target_tokens), util: F.raw(u.gpu_memory_utilization) })
    : fill(S("target_util_none"), { tokens: F.int(u.target_tokens) }));
  if (u.kv_cache_memory_bytes != null) {
    parts.push(fill(S("target_bytes"), { bytes: F.raw(u.kv_cache_memory_bytes), blocks: F.int(u.num_blocks) }));
  }
  out.textContent = parts.join(" ");
  out.dataset.util = String(u.gpu_memory_utilization);
  out.dataset.bytes = String(u.kv_cache_memory_bytes);
}

function renderPlan() {
  const pl = state.plan;
  $("plan-msg").textContent = "";
  for (const id of ["plan-requests", "plan-tokens"]) $(id).removeAttribute("aria-invalid");
  if (!pl) return;
  if (!pl.reply.ok) {
    const f = pl.reply.error.fields || {};
    const msgs = [];
    for (const [k, id] of [["requests", "plan-requests"], ["tokens", "plan-tokens"]]) {
      if (f[k]) { msgs.push(`${S(k === "requests" ? "plan_requests" : "plan_tokens")}: ${C(f[k])}`); $(id).setAttribute("aria-invalid", "true"); }
    }
    $("plan-msg").textContent = msgs.join(" ") || fill(S("request_error"), { msg: C(pl.reply.error.message) });
    return;
  }
  const r = pl.reply.result;
  const ctx = $("plan-context");
  ctx.textContent = r.max_context_for_requests > 0
    ? fill(S("plan_ctx"), { n: F.int(r.requests), len: F.int(r.max_context_for_requests) })
    : fill(S("plan_ctx_none"), { n: F.int(r.requests) });
  ctx.dataset.value = String(r.max_context_for_requests);
  const label = (s) => fill(S("plan_setup"), { n: F.int(s.count), gpu: s.gpu_name });
  $("plan-summary").textContent = r.setups.length
    ? fill(S("plan_sum"), { n: F.int(r.requests), len: F.int(r.tokens),
      list: r.setups.slice(0, 3).map(label).join(S("plan_or")) })
    : fill(S("plan_sum_none"), { n: F.int(r.requests), len: F.int(r.tokens) });
  $("plan-body").replaceChildren(...r.setups.map((s) => {
    const tr = document.createElement("tr");
    tr.dataset.gpu = s.gpu;
    tr.dataset.count = String(s.count);
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label(s);
    const pool = td(F.int(s.pool_tokens), "num");
    pool.dataset.value = String(s.pool_tokens);
    const conc = td(F.x(s.concurrency), "num");
    conc.dataset.value = String(s.concurrency);
    tr.append(th, pool, conc, td(fill(S("plan_head_fmt"), { h: F.dec2(s.headroom) }), "num"),
      td(`${F.dec1(s.total_memory_gib)} GiB`, "num"));
    return tr;
  }));
  $("plan-result").hidden = false;
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
    // a drafter that could not be read is tried again once a (new) token is entered
    if (t.id === "hf-token" && ev.type === "change" && state.drafter?.failed) ensureDrafter();
    // loaded with the button / Enter, or read when a file is chosen (loadConfigFile)
    if (t.id === "model-id" || t.id === "hf-token" || t.id === "config-file") return;
    if (t.id === "model-select" && !t.value.startsWith("hf:")) state.prevModel = t.value;
    // a typed total belongs to the card it was typed for: another card from the list drops it
    if (t.id === "gpu-select" && ev.type === "change") setField("gpu-total-gib", "");
    if (state.log && ["model-select", "gpu-select", "weights"].includes(t.id)) {
      if (ev.type === "change") compareLog(true); // what the log ran on: compare it again
      return;
    }
    compute();
  };
  form.addEventListener("input", onChange);
  form.addEventListener("change", onChange);
  form.addEventListener("submit", (ev) => ev.preventDefault());
  $("model-load").addEventListener("click", () => loadHf($("model-id").value));
  $("config-file").addEventListener("change", (e) => {
    const file = e.target.files?.[0];
    e.target.value = "";   // the same file chosen again is read again
    loadConfigFile(file);
  });
  $("model-id").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); loadHf($("model-id").value); }
  });
  $("reload").addEventListener("click", () => location.reload());
  $("model-retry").addEventListener("click", () => { if (state.hfTried) loadHf(state.hfTried); });
  $("lang-toggle").addEventListener("click", () => {
    state.lang = state.lang === "zh" ? "en" : "zh";
    try { localStorage.setItem("kvcalc.lang", state.lang); } catch { /* ignore */ }
    renderAll();
  });
  $("share").addEventListener("click", async () => {
    const url = formToUrl();
    // the link carries the settings; a config.json read from disk stays with this page
    const without = state.hf?.file ? " " + fill(S("share_no_file"), { file: state.hf.file }) : "";
    try {
      await navigator.clipboard.writeText(url);
      $("share-msg").textContent = S("share_done") + without;
    } catch {
      $("share-msg").textContent = `${S("share_shown")} ${url}${without}`;
    }
  });
  $("reset").addEventListener("click", () => {
    resetForm();
    hfSeq++;
    state.hfMsg = null;
    forgetLog();
    compute();
  });
  // your log
  $("log-compare").addEventListener("click", () => compareLog(false));
  $("log-paste").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); compareLog(false); }
  });
  const forget = () => { forgetLog(); compute(); };
  $("log-clear").addEventListener("click", forget);
  $("baseline-clear").addEventListener("click", forget);
  $("baseline-toggle").addEventListener("change", () => {
    if (state.log) state.log.use = $("baseline-toggle").checked;
    renderBaseline();
    compute();
  });
  // planner and target pool
  const runPlan = () => { state.planWanted = true; scheduleSecondary(0); };
  $("plan-run").addEventListener("click", runPlan);
  for (const id of ["plan-requests", "plan-tokens"]) {
    $(id).addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); runPlan(); } });
    $(id).addEventListener("input", () => { if (state.planWanted) scheduleSecondary(300); });
  }
  $("target-tokens").addEventListener("input", () => scheduleSecondary(300));
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
