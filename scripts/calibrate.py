#!/usr/bin/env python3
"""Fit the reserve coefficients of src/kvcalc/reserve.py to public logs, and report accuracy
separately on the rows used to fit and on the rows held out.

Rows that print a breakdown of vLLM's budget ("Actual usage is …", "Memory profiling takes …",
"peak activation") are the fitting rows: they measure the terms directly. Every other row
with a logged pool is held out and only checked.

    python scripts/calibrate.py            # fit, print the coefficients and both accuracies
    python scripts/calibrate.py --check    # only evaluate the coefficients in reserve.py

The fit is a small grid search per era (sampler bytes per entry, fixed activation) plus one
multi-GPU non-torch term, minimising the mean absolute error of the reserve in GiB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from kvcalc import reserve  # noqa: E402
from kvcalc.validate import evaluate_entry, load_logs  # noqa: E402

BREAKDOWN_KEYS = ("activation_peak_gib", "torch_peak_increase_gib", "consumed_gib", "non_torch_gib")


def is_fit_row(entry: dict) -> bool:
    logged = entry.get("logged") or {}
    return any(logged.get(k) is not None for k in BREAKDOWN_KEYS)


def summarize(rows: list[dict], label: str) -> None:
    errs = [r["estimated"]["error_pct"] for r in rows if r.get("estimated")]
    if not errs:
        print(f"{label}: no rows")
        return
    high = sum(1 for e in errs if e > 0)
    print(f"{label}: {len(errs)} rows, median |error| {statistics.median(abs(e) for e in errs):.2f}%, "
          f"max |error| {max(abs(e) for e in errs):.2f}%, estimated high on {high}/{len(errs)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="evaluate only, do not fit")
    args = parser.parse_args()
    logs = load_logs()
    fit_ids = {e["id"] for e in logs if is_fit_row(e)}
    rows = [evaluate_entry(e) for e in logs]
    fit = [r for r in rows if r["id"] in fit_ids and not r["skipped"]]
    held = [r for r in rows if r["id"] not in fit_ids and not r["skipped"]]
    print("fit rows:", ", ".join(sorted(r["id"] for r in fit)))
    summarize(fit, "fitted rows")
    summarize(held, "held-out rows")
    for r in sorted(rows, key=lambda r: r["id"]):
        if r.get("estimated"):
            tag = "fit " if r["id"] in fit_ids else "held"
            print(f"  {tag} {r['id']:<48} {r['estimated']['error_pct']:+7.2f}%")
    if sorted(fit_ids) != sorted(reserve.FIT_ROWS) and not args.check:
        print("\nFIT_ROWS in reserve.py differs from the rows with breakdowns; update it to:")
        print("FIT_ROWS = frozenset({" + ", ".join(repr(i) for i in sorted(fit_ids)) + "})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
