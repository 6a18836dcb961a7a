#!/usr/bin/env bash
# Idempotent setup for the browser tests and the site on a fresh Debian machine (root or sudo):
#   Chromium + fonts from apt (only if missing), .venv with requirements-test.txt (only when the
#   file changed), the pinned Pyodide from npm (only when missing or a different version), and
#   site/ rebuilt. Never runs `playwright install`: the tests use /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# 1. Browser and fonts (CJK font so the Chinese page renders in screenshots)
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
fc-list 2>/dev/null | grep -qi "cjk\|wqy" || need+=(fonts-wqy-zenhei)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
chromium --version 2>/dev/null | head -1 || true

# 2. Python test tools
STAMP=.venv/.requirements.sha256
[ -x .venv/bin/python ] || python3 -m venv .venv
if ! sha256sum -c --status "$STAMP" 2>/dev/null; then
  .venv/bin/pip install -q --disable-pip-version-check -r requirements-test.txt
  sha256sum requirements-test.txt > "$STAMP"
fi

# 3. Pyodide, pinned by package.json + package-lock.json
want=$(node -p 'require("./package.json").dependencies.pyodide')
have=$(node -p 'try{require("./node_modules/pyodide/package.json").version}catch(e){""}')
if [ "$want" != "$have" ] || [ ! -f node_modules/pyodide/pyodide.asm.wasm ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

# 4. The site
.venv/bin/python scripts/build_site.py
echo "ci_install: OK"
