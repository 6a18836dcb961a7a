// Module Web Worker: boots the self-hosted Pyodide, installs the kvcalc wheel and answers
// requests from the page. JSON strings cross the boundary in both directions; the only Python
// entry points are an allow-list below. Every message carries the caller's id, which the reply
// echoes so the page can drop replies it no longer wants.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./", import.meta.url);
let api = null; // kvcalc.api.handle_json
let extra = null; // core functions that take bytes rather than JSON (safetensors headers)
const queue = []; // messages that arrived while booting

const ALLOWED = new Set(["handle", "safetensors_header"]);

function answer(msg) {
  const { id, fn, arg } = msg;
  if (!ALLOWED.has(fn)) {
    postMessage({ type: "reply", id, error: `unknown function ${fn}` });
    return;
  }
  try {
    const t0 = performance.now();
    const out = fn === "handle" ? api(arg) : extra[fn](arg);
    postMessage({ type: "reply", id, json: out, ms: performance.now() - t0 });
  } catch (e) {
    const error = String(e && e.message ? e.message : e).split("\n").slice(-2).join(" ");
    // A fatal Pyodide error (wasm trap, out of memory) leaves Python unusable: tell the page.
    if (e && e.pyodide_fatal_error) postMessage({ type: "crashed", error });
    else postMessage({ type: "reply", id, error });
  }
}

onmessage = ({ data }) => {
  if (api) answer(data);
  else queue.push(data);
};

// Pyodide reports a pyodide.asm.wasm that does not load (missing, blocked, corrupt) only with two
// console.warn calls and then waits forever: turn them into a failure the page can show.
let unwatch = () => {};
function wasmFailure() {
  return new Promise((_, reject) => {
    const warn = console.warn;
    let detail = null;
    unwatch = () => { console.warn = warn; };
    console.warn = (...args) => {
      warn.apply(console, args);
      if (detail !== null) { detail = detail || args.map(String).join(" "); return; }
      if (!String(args[0]).includes("wasm instantiation failed")) return;
      detail = "";
      setTimeout(() => { unwatch(); reject(new Error(`pyodide.asm.wasm: ${detail || "did not load"}`)); }, 0);
    };
  });
}

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname}: HTTP ${r.status}`);
  return r;
}

async function boot() {
  const t = { start: performance.now() };
  // The wheel downloads while Pyodide compiles; it is unpacked straight into site-packages
  // (it has no dependencies), which is quicker than loadPackage.
  const manifestP = fetchOk(new URL("wheels/manifest.json", base)).then((r) => r.json());
  const wheelP = manifestP.then((m) => fetchOk(new URL("wheels/" + m.kvcalc, base))).then((r) => r.arrayBuffer());
  wheelP.catch(() => {}); // reported below, once awaited
  const pyodide = await Promise.race([loadPyodide({ indexURL: new URL("pyodide/", base).href }), wasmFailure()]);
  unwatch();
  t.loadPyodide = performance.now();
  const manifest = await manifestP;
  const sitePackages = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");
  pyodide.unpackArchive(await wheelP, "wheel", { extractDir: sitePackages });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  t.installed = performance.now();
  const mod = pyodide.pyimport("kvcalc.api");
  api = mod.handle_json;
  const st = pyodide.pyimport("kvcalc.safetensors");
  extra = { safetensors_header: (data) => st.data_bytes_json(data) };
  t.imported = performance.now();
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  postMessage({ type: "ready", t, python, pyodide: pyodide.version, kvcalc: manifest.version });
  while (queue.length) answer(queue.shift());
}

let failed = false;
function fail(e) {
  if (failed || api) return;
  failed = true;
  postMessage({ type: "failed", error: String(e && e.message ? e.message : e) });
}
// A rejection nobody handles while booting (a Pyodide file that did not load) is a failed start;
// reported a moment later so that a more precise reason (boot's own error) goes first.
addEventListener("unhandledrejection", (ev) => {
  if (api) return;
  ev.preventDefault();
  setTimeout(() => fail(ev.reason), 50);
});
boot().catch(fail);
