"""The README's accuracy table and its count of misses state what ``kvcalc validate`` measures on
the stored logs, so new rows or a refit cannot leave the published figures behind."""

from __future__ import annotations

import re
from pathlib import Path
from statistics import median

import pytest

from kvcalc.reserve import FIT_ROWS
from kvcalc.validate import load_logs, validate_logs

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
TEXT = re.sub(r"\s+", " ", README)
BRIEF_ROWS = ("vllm#42593", "vllm#27604", "vllm#38107", "vllm#26480", "vllm#36849", "vllm#58580")


@pytest.fixture(scope="module")
def measured():
    return validate_logs()


def _pct(share: float) -> str:
    return f"{round(share * 100)}%"


def _signed(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


def claims(v: dict) -> list[str]:
    s, fit, held = v["summary"], v["summary"]["fitted_rows"], v["summary"]["held_out_rows"]
    rows = [r for r in v["rows"] if (r.get("estimated") or {}).get("error_pct") is not None]
    kv = [abs(r["estimated"]["error_gib"]) for r in rows if r["estimated"].get("error_gib") is not None]
    misses = sum(1 for r in rows if abs(r["estimated"]["error_pct"]) > 5)
    brief = {r["id"]: r["estimated"]["error_pct"] for r in rows if r["id"] in BRIEF_ROWS}
    n = s["estimated_checked"]
    return [
        f"on the {s['entries']} stored logs",
        f"| pool from the log's own memory | {s['from_log_inside']} of {s['from_log_checked']} evaluable logs "
        f"inside the rounding interval; max deviation {s['from_log_max_abs_error_pct']:.2f}%",
        f"| weights vs \"Model loading took\" | median {s['weights_median_abs_error_pct']:.2f}%, "
        f"max {s['weights_max_abs_error_pct']:.1f}% ({s['weights_checked']} logs;",
        f"| fully estimated pool, all rows | median {s['estimated_median_abs_error_pct']:.2f}%, "
        f"max {s['estimated_max_abs_error_pct']:.0f}%",
        f"estimated high on {_pct(s['estimated_share_high'])} ({n} logs); {s['estimated_within_5pct']} of {n} within 5%.",
        f"| the same misses in KV cache memory | median {s['estimated_kv_median_abs_error_gib']:.2f} GiB; "
        f"{sum(1 for x in kv if x <= 0.5)} of {len(kv)} within 0.5 GiB |",
        f"| fully estimated pool, rows used to fit the reserve | median {fit['estimated_median_abs_error_pct']:.2f}%, "
        f"max {fit['estimated_max_abs_error_pct']:.1f}% ({fit['estimated_checked']} logs with a pool line) |",
        f"| fully estimated pool, rows held out | median {held['estimated_median_abs_error_pct']:.2f}%, "
        f"max {held['estimated_max_abs_error_pct']:.0f}%, estimated high on {_pct(held['estimated_share_high'])} "
        f"({held['estimated_checked']} logs);",
        "| the brief's six logs | " + ", ".join(_signed(brief[i]) for i in BRIEF_ROWS) + "%",
        f"| logged pool inside the estimate's low–high band | {s['estimated_inside_band']} of {n} logs |",
        f"median {s['activation_median_abs_error_gib']:.2f} GiB, max {s['activation_max_abs_error_gib']:.2f} GiB, "
        f"high on {_pct(s['activation_share_high'])} ({s['activation_checked']} logs) |",
        f"| non-torch memory (with the fixed part) vs the logged breakdown | median "
        f"{s['non_torch_median_abs_error_gib']:.2f} GiB, max {s['non_torch_max_abs_error_gib']:.2f} GiB",
        f"high on {_pct(s['non_torch_share_high'])} ({s['non_torch_checked']} logs) |",
        f"| CUDA-graph estimate vs the logged \"Estimated CUDA graph memory\" (where subtracted) | median "
        f"{s['cuda_graphs_median_abs_error_gib']:.2f} GiB, max {s['cuda_graphs_max_abs_error_gib']:.2f} GiB",
        f"high on {_pct(s['cuda_graphs_share_high'])} ({s['cuda_graphs_checked']} logs) |",
        f"but not the maximum (≤ 5%): {misses} of {n} logs miss by more.",
        *compile_cache_claims(v),
        held_out_without_wsl_claim(v),
    ]


def held_out_without_wsl_claim(v: dict) -> str:
    """The held-out median without the starts under WSL (a run's id says so, or its settings turn
    pinned memory off, as vLLM does under WSL2), whose hosts share the card with Windows."""
    logs = {e["id"]: e for e in load_logs()}
    held = [r for r in v["rows"] if (r.get("estimated") or {}).get("error_pct") is not None
            and r["id"] not in FIT_ROWS]
    wsl = [r for r in held if "wsl" in r["id"].lower() or logs[r["id"]].get("pinned_memory") is False]
    rest = [abs(r["estimated"]["error_pct"]) for r in held if r not in wsl]
    return f"without the {len(wsl)} runs under WSL: median {median(rest):.2f}% ({len(rest)} logs)"


def compile_cache_claims(v: dict) -> list[str]:
    """The table's line and the prose on first starts: medians by the compile-cache state a log shows."""
    state = {e["id"]: e.get("compile_cache") for e in load_logs()}
    recorded = sum(1 for s in state.values() if s in ("warm", "cold"))
    errs = {k: [abs(r["estimated"]["error_pct"]) for r in v["rows"]
                if (r.get("estimated") or {}).get("error_pct") is not None and state.get(r["id"]) == k]
            for k in ("warm", "cold", None)}
    warm, cold, unknown = (errs[k] for k in ("warm", "cold", None))
    return [
        f"restarts that loaded the compiled graphs: median {median(warm):.2f}% ({len(warm)} logs); first starts: "
        f"median {median(cold):.2f}% ({len(cold)} logs); not shown: median {median(unknown):.2f}% ({len(unknown)} logs)",
        f"The {recorded} logs whose state the log or its source shows record it (`compile_cache`): the "
        f"{len(warm)} restarts among them that kvcalc fully estimates come out within {median(warm):.2f}% "
        f"(median), the {len(cold)} first starts within {median(cold):.2f}%.",
    ]


def test_the_readme_accuracy_figures_are_what_validate_measures(measured):
    missing = [c for c in claims(measured) if c not in TEXT]
    assert not missing, missing
