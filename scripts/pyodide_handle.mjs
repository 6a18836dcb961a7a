// The page's Python, outside the page: Pyodide from the built site with the kvcalc wheel, answering
// one JSON request per line on stdin with kvcalc.api.handle_json's reply on one line of stdout, as
// the page's worker does. scripts/fuzz.py --pyodide drives it, because some inputs that CPython
// refuses cleanly (a RecursionError) overflow the WebAssembly stack in Pyodide and stop Python.
//
//     node --stack-size=500 scripts/pyodide_handle.mjs <site dir>   (fuzz.py's NODE_STACK_KB)
//
// A reply line starts with "R "; a fatal Pyodide error prints "F <message>" and exits (Python
// is unusable afterwards, as in the page).
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const site = path.resolve(process.argv[2] || "site");
const { loadPyodide } = await import(pathToFileURL(path.join(site, "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(site, "pyodide") + "/" });
const manifest = JSON.parse(fs.readFileSync(path.join(site, "wheels", "manifest.json"), "utf8"));
const sitePackages = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");
const wheel = fs.readFileSync(path.join(site, "wheels", manifest.kvcalc));   // a Node Buffer: Pyodide takes its bytes
pyodide.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel",
  { extractDir: sitePackages });
const handle = pyodide.pyimport("kvcalc.api").handle_json;
process.stdout.write("READY\n");

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  try {
    process.stdout.write("R " + handle(line).replace(/\n/g, " ") + "\n");
  } catch (e) {
    const msg = String(e && e.message ? e.message : e).split("\n")[0];
    if (e && e.pyodide_fatal_error) {
      process.stdout.write("F " + msg + "\n");
      process.exit(3);
    }
    process.stdout.write("E " + msg + "\n");
  }
}
