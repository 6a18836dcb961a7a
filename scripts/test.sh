#!/usr/bin/env bash
# Install everything the tests need (idempotent) and run every test: unit, property-based,
# validation against public vLLM logs, CLI, and end-to-end in headless Chromium.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k paging`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ci_install.sh
set +e
.venv/bin/python -m pytest "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then
  echo "test.sh: pytest collected no tests: that is a failure" >&2
  exit 1
fi
exit "$code"
