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
    postMessage({ type: "reply", id, error: String(e && e.message ? e.message : e).split("\n").slice(-2).join(" ") });
  }
}

onmessage = ({ data }) => {
  if (api) answer(data);
  else queue.push(data);
};

async function boot() {
  const t = { start: performance.now() };
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  t.loadPyodide = performance.now();
  const manifest = await (await fetch(new URL("wheels/manifest.json", base))).json();
  await pyodide.loadPackage(new URL("wheels/" + manifest.kvcalc, base).href, {
    messageCallback: () => {},
    errorCallback: (m) => postMessage({ type: "log", message: m }),
  });
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

boot().catch((e) => postMessage({ type: "failed", error: String(e && e.message ? e.message : e) }));
