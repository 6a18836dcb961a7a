// Module Web Worker: boots the self-hosted Pyodide, installs the kvcalc wheel and answers
// requests from the page. JSON strings cross the boundary in both directions; the only Python
// entry points are an allow-list below. Every message carries the caller's id, which the reply
// echoes so the page can drop replies it no longer wants.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./", import.meta.url);
let api = null; // kvcalc.api.handle_json
let extra = null; // small helpers that are not part of the JSON API (see PY_HELPERS)
const queue = []; // messages that arrived while booting

// Python helpers the page needs besides handle_json. Kept tiny and pure: the byte arithmetic on
// a safetensors header (its length prefix and the tensors' byte ranges) happens here in Python,
// never in JS.
const PY_HELPERS = `
import json
def safetensors_header(data):
    """Bytes of tensor data in one .safetensors file, from a prefix of the file: {"bytes": n},
    or {"need_range": "bytes=0-N"} when the prefix is shorter than the header."""
    b = data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)
    if len(b) < 8:
        return json.dumps({"bytes": None})
    n = int.from_bytes(b[:8], "little")
    if not 2 <= n <= 100_000_000:
        return json.dumps({"bytes": None})
    if len(b) < 8 + n:
        return json.dumps({"bytes": None, "need_range": f"bytes=0-{8 + n - 1}"})
    try:
        header = json.loads(b[8:8 + n])
    except ValueError:
        return json.dumps({"bytes": None})
    ends = [v["data_offsets"][1] for k, v in header.items()
            if k != "__metadata__" and isinstance(v, dict) and "data_offsets" in v]
    return json.dumps({"bytes": max(ends) if ends else None})
`;

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
  const ns = pyodide.globals.get("dict")();
  pyodide.runPython(PY_HELPERS, { globals: ns });
  extra = { safetensors_header: ns.get("safetensors_header") };
  t.imported = performance.now();
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  postMessage({ type: "ready", t, python, pyodide: pyodide.version, kvcalc: manifest.version });
  while (queue.length) answer(queue.shift());
}

boot().catch((e) => postMessage({ type: "failed", error: String(e && e.message ? e.message : e) }));
