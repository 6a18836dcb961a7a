// Compile a package to bytecode with the Pyodide the page ships, so the browser's worker imports
// kvcalc without compiling it first (about 0.2 s of every cold start on a 2-core machine).
//
//     node scripts/compile_pyc.mjs <pyodide dir> <folder holding the package> <package name>
//
// The .pyc files land in <folder>/<package>/__pycache__/, named for Pyodide's own Python
// (cpython-314); they are "unchecked-hash" pycs (PEP 552), used without looking at the source's
// timestamp, which unpacking the wheel does not keep. build_site.py runs this and packs them.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, root, pkg] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(path.resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
pyodide.FS.mkdirTree("/build");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(root) }, "/build");
pyodide.globals.set("package_dir", "/build/" + pkg);
pyodide.runPython(`
import compileall, py_compile, sys
ok = compileall.compile_dir(package_dir, quiet=1, legacy=False,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
if not ok:
    raise SystemExit("compileall failed")
print(sys.implementation.cache_tag)
`);
