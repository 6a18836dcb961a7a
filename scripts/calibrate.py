#!/usr/bin/env python3
"""Fit the reserve coefficients of src/kvcalc/reserve.py to public logs, and report accuracy
separately on the rows used to fit and on the rows held out.

Rows that print a breakdown of vLLM's budget ("Actual usage is …", "Memory profiling takes …",
"peak activation", "non-torch") are the fitting rows: they measure the terms directly; so are rows
from v0.20 on that print "Model loading took" and the "Estimated CUDA graph memory" vLLM subtracted
(activation plus non-torch memory is what is left), and the rows that measured a sampler constant
(``reserve.SAMPLER_ROWS``), the unified-memory rows that set its host-memory term
(``reserve.UMA_ROWS``) and the rows that set a CUDA-graph cost of their own (``reserve.GRAPH_ROWS``).
Every other row with a logged pool is held out and only checked. Rows whose entry carries an
``estimate_skip_reason`` take part in neither.

    python scripts/calibrate.py          # fit, print coefficients, both accuracies
    python scripts/calibrate.py --check  # evaluate the coefficients in reserve.py only

The sampler cost per (request × vocabulary) entry, non-torch memory on one GPU and the multi-GPU
term are measured directly (reserve.py says where). The fit has two steps. First a first start's
compile reserve, from the pairs of a first start and a restart of one command (``fit_compile``),
where everything else cancels. Then the fixed part of each group of releases (model runner × era):
the one with the smallest median relative error of the KV memory on the fitting rows, where a
reserve that is too small (the pool estimated high) counts three times (``HIGH_ESTIMATE_WEIGHT``),
among those that leave at most ``HIGH_SHARE_LIMIT`` of the group's rows estimated high; the rows
of one source (a repository or issue thread: one machine's sweep) share one vote
(``source_weights``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from kvcalc import reserve  # noqa: E402
from kvcalc.catalog import find_model  # noqa: E402
from kvcalc.versions import parse_version  # noqa: E402
from kvcalc.validate import evaluate_entry, load_logs, observed_reserve  # noqa: E402

BREAKDOWN_KEYS = ("activation_peak_gib", "torch_peak_increase_gib", "consumed_gib", "non_torch_gib")


OWN_RESERVE_MODEL_TYPES = frozenset({"deepseek_v4"})
"""Models whose activation peak kvcalc prices with a model of their own, read from vLLM's code
(deepseek_v4_profile.py): the era's fixed part, fitted on the generic model's rows, must not absorb
its error. Their rows still check the estimate (and the one DeepSeek-V4 CUDA-graph estimate sets
reserve.DSV4_GRAPH_MIB)."""


def _model_type(entry: dict) -> str:
    config = entry.get("config")
    if config is None:
        model = find_model(entry.get("model") or "")
        config = model.config if model is not None else {}
    return str(config.get("model_type") or "")


def is_fit_row(entry: dict) -> bool:
    """A row that measures the reserve's terms: it prints a breakdown, or (from v0.20, where vLLM
    subtracts a CUDA-graph estimate it prints) the weights and that estimate, which leave activation
    plus non-torch memory as one measured number."""
    logged = entry.get("logged") or {}
    if entry.get("vllm_version") is None or entry.get("fit_exclusion_reason"):
        return False     # a row whose observed reserve is too uncertain to fit on says why
    if _model_type(entry) in OWN_RESERVE_MODEL_TYPES:
        return False
    if any(logged.get(k) is not None for k in BREAKDOWN_KEYS):
        return True
    return (logged.get("model_loading_gib") is not None and logged.get("cuda_graph_gib") is not None
            and parse_version(entry["vllm_version"]) >= reserve.Rule.CUDA_GRAPH_ESTIMATE_DEDUCTED.value.since)


def summarize(rows: list[dict], label: str) -> None:
    errs = [r["estimated"]["error_pct"] for r in rows if r.get("estimated")]
    if not errs:
        print(f"{label}: no rows")
        return
    high = sum(1 for e in errs if e > 0)
    print(f"{label}: {len(errs)} rows, median |error| {statistics.median(abs(e) for e in errs):.2f}%, "
          f"max |error| {max(abs(e) for e in errs):.2f}%, estimated high on {high}/{len(errs)}")


def predict(f: dict, base: float, cold: tuple[float, float] = (0.0, 0.0)) -> float:
    """Reserve in GiB: the fixed part plus the terms kvcalc's estimate computes for the row (the
    activation peak, non-torch memory with its peers, the CUDA-graph estimate), plus, where a first
    start's compile reserve applies (a row whose log shows a warm compile cache has none), ``cold`` =
    (copies of the embedding table the first stage's graph looks up, a fixed GiB): the part of that
    peak beyond the activation (reserve.cold_compile_reserve)."""
    copies, fixed = cold
    table = f.get("table_gib", 0.0)
    extra = max(0.0, copies * table + fixed - f["activation_gib"]) if f.get("cold_compile") and table else 0.0
    # the fixed part is for compiled runs (reserve.fixed_part_gib)
    return (base if f.get("compiled", True) else 0.0) + f["activation_gib"] + f["non_torch_gib"] \
        + f["cuda_graph_gib"] + extra


HIGH_ESTIMATE_WEIGHT = 3.0
"""How much more a reserve that is too small (a pool estimated high) costs than one too large:
a user who trusts a high pool meets a startup error or a smaller batch than planned."""


def loss(reserve_error_gib: float) -> float:
    """Reserve error in GiB (predicted − observed) → weighted size; negative means too small."""
    return -reserve_error_gib * HIGH_ESTIMATE_WEIGHT if reserve_error_gib < 0 else reserve_error_gib


def source_key(source: str) -> str:
    """The machine and session a row comes from, as far as its source says: a GitHub repository
    (owner/name) or issue thread, else the whole source text."""
    parts = source.split("github.com/", 1)
    if len(parts) == 2:
        path = parts[1].split("/")
        return "/".join(path[:4] if len(path) > 2 and path[2] in ("issues", "pull", "discussions") else path[:2])
    return source


def source_weights(features: list[dict]) -> dict[str, float]:
    """1 / (rows of the same group from the same source) for each row: a sweep of one machine counts
    as much as a single start on another in the median, so six starts of one session cannot carry
    a fixed part that every other row of their releases then shares."""
    counts: dict[tuple[str, str], int] = {}
    for f in features:
        counts[(f["group"], f["source"])] = counts.get((f["group"], f["source"]), 0) + 1
    return {f["id"]: 1 / counts[(f["group"], f["source"])] for f in features}


def weighted_median(values: list[float], weights: list[float]) -> float:
    """The smallest value at which the weights of the values up to it reach half of all."""
    pairs = sorted(zip(values, weights))
    half, run = sum(weights) / 2, 0.0
    for value, weight in pairs:
        run += weight
        if run >= half - 1e-12:
            return value
    return pairs[-1][0]


HIGH_SHARE_LIMIT = 0.4
"""The largest share of a group's fitting rows (one vote per source) whose reserve the fixed part may
leave too small, i.e. whose pool it estimates high: the issue's "rather low than high", made a bound
the fit must meet, so the fixed part is not just the centre of the rows but leans to the safe side."""


def estimated_high_share(rows: list[dict], weights: list[float], base: float, cold: tuple[float, float]) -> float:
    """The weighted share of ``rows`` whose predicted reserve falls short of the observed one by more
    than the logs' rounding (0.005 GiB)."""
    short = sum(w for f, w in zip(rows, weights) if predict(f, base, cold) - f["observed_gib"] < -0.005)
    return short / sum(weights)


NEAR_TIE = 0.0005
"""Weighted-median scores closer than this (0.05 percentage points of KV memory) to the chosen one:
``main`` names those fixed parts, since the median over a handful of sources can move between
them when one row joins or a term changes (a ROCm figure of 0.60 GiB instead of 0.55 moved the
v0.29+ part from 0.15 to 0.30 on a 0.008-point difference, 1.126% against 1.134%)."""


def fit_groups(features: list[dict], cold: tuple[float, float]) -> dict:
    """Per group of releases: among the fixed parts that leave at most ``HIGH_SHARE_LIMIT`` of the
    group's rows with too small a reserve, the one that minimises the median relative error of the
    KV memory (the reserve error divided by the logged KV memory, so a small GPU counts as much as a
    large one), with a first start's compile reserve ``cold`` (predict), each row weighted by
    ``source_weights``. The multi-GPU term is measured, not fitted."""
    groups = sorted({f["group"] for f in features})
    weight = source_weights(features)
    choice, near, errs, weights = {}, {}, [], []
    for g in groups:
        rows = [f for f in features if f["group"] == g]
        w = [weight[f["id"]] for f in rows]
        # where no candidate meets the bound (more than HIGH_SHARE_LIMIT of the rows short by more than
        # the largest candidate), the largest one is the closest to it
        bounded = [b for b in FIXED_PART_CANDIDATES if estimated_high_share(rows, w, b, cold) <= HIGH_SHARE_LIMIT]
        cands = []
        for base in bounded or FIXED_PART_CANDIDATES[-1:]:
            e = [loss(predict(f, base, cold) - f["observed_gib"]) / f["kv_gib"] for f in rows]
            cands.append((weighted_median(e, w), sum(x * y for x, y in zip(e, w)), base, e))
        best_score, _, base, e = min(cands)
        choice[g] = (None, base)
        near[g] = sorted(b for score, _, b, _ in cands if b != base and score - best_score < NEAR_TIE)
        errs += e
        weights += w
    return {"score": weighted_median(errs, weights) * 100, "total": sum(x * y for x, y in zip(errs, weights)),
            "groups": choice, "cold": cold, "near_ties": near}


TWIN_SETTINGS_IGNORED = frozenset({"id", "compile_cache", "notes", "notes_zh", "excerpt", "logged", "source",
                                   "fit_exclusion_reason"})
"""Entry fields two starts of one command may differ in and still be a first start and its restart."""


def cold_warm_twins(logs: list[dict]) -> list[dict]:
    """First starts and restarts of one command on one machine (one source, every setting equal but
    ``compile_cache``), where kvcalc counts a first start's compile: the difference of their observed
    reserves is that compile's peak beyond the activation peak, with nothing else in it (the fixed
    parts, non-torch memory and CUDA graphs cancel). Each twin: the observed difference in GiB (the
    mean over the group's first starts less the mean over its restarts), the embedding table and the
    activation of the first start, and its source."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for e in logs:
        if e.get("compile_cache") in ("cold", "warm"):
            same = json.dumps({k: v for k, v in e.items() if k not in TWIN_SETTINGS_IGNORED}, sort_keys=True)
            groups.setdefault((source_key(e["source"]), same), []).append(e)
    twins = []
    for (source, _), entries in sorted(groups.items()):
        cold = [observed_reserve(e) for e in entries if e["compile_cache"] == "cold"]
        warm = [observed_reserve(e) for e in entries if e["compile_cache"] == "warm"]
        if not cold or not warm or None in cold or None in warm or not cold[0]["cold_compile"]:
            continue
        twins.append({"id": cold[0]["id"], "source": source, "table_gib": cold[0]["table_gib"],
                      "activation_gib": cold[0]["activation_gib"],
                      "observed_gib": statistics.fmean(f["observed_gib"] for f in cold)
                      - statistics.fmean(f["observed_gib"] for f in warm)})
    return twins


def fit_compile(twins: list[dict]) -> tuple[float, float]:
    """(copies of the embedding table, fixed GiB) of a first start's compile peak, from the cold/warm
    twins alone (``cold_warm_twins``): the pair with the smallest mean absolute error of the twins'
    differences, one vote per source, then the smallest squared error. Fitting it here rather than
    with the fixed parts keeps it from trading off against them: with all rows, pairs from 0.4 × the
    table + 0.55 GiB to 1.0 × + 0.05 scored within a rounding step of each other."""
    counts: dict[str, int] = {}
    for t in twins:
        counts[t["source"]] = counts.get(t["source"], 0) + 1

    def errors(copies: float, fixed: float) -> tuple[float, float]:
        err = [(max(0.0, copies * t["table_gib"] + fixed - t["activation_gib"]) - t["observed_gib"],
                1 / counts[t["source"]]) for t in twins]
        return sum(abs(x) * w for x, w in err), sum(x * x * w for x, w in err)

    return min(((a, n) for a in COLD_PEAK_CANDIDATES for n in COLD_FIXED_CANDIDATES), key=lambda p: errors(*p))


def fit(features: list[dict], twins: list[dict]) -> dict:
    """A first start's compile reserve from the cold/warm twins (``fit_compile``), then the fixed part
    of each group with it (``fit_groups``)."""
    return fit_groups(features, fit_compile(twins))


COLD_PEAK_CANDIDATES = [x / 20 for x in range(0, 31)]
"""Copies of the embedding table in a first start's compile peak the fit tries: 0 to 1.5."""
COLD_FIXED_CANDIDATES = [0.0]
"""The fixed GiB of a first start's compile peak the fit tries: none. Every first start whose peak a
log prints matches copies of the embedding table alone (reserve.COLD_COMPILE_TABLE_COPIES), and with a
free fixed part the twins cannot tell apart pairs along a line (1.05 × the table, 1.0 × + 0.05 GiB,
0.95 × + 0.10 differ by 0.002 GiB a twin, below the logs' 0.01 GiB rounding): recording one start's
cudagraph_mode, which took a spurious twin out, moved the chosen pair from the first to the second
and with it the v0.29+ fixed part from 0.10 to 0.35 GiB."""


FIXED_PART_CANDIDATES = [x / 20 for x in range(0, 41)]
"""The fixed parts the fit tries, GiB: 0 to 2 in steps of 0.05."""


def unexplained_gib(f: dict) -> float:
    """The fixed part that would make this row's reserve exact."""
    return f["observed_gib"] - predict(f, 0.0)


def beyond_any_fixed_part(f: dict) -> bool:
    """A row whose reserve kvcalc misses by more than the whole range the fixed part is searched in
    (below -2 GiB or above twice the top, 4 GiB) measures a term kvcalc does not model (a 65,536-token
    pass with four images, an activation far below the modelled one); in a median over a handful of
    rows it would move the fixed part of every other row of its releases."""
    top = FIXED_PART_CANDIDATES[-1]
    return not -top <= unexplained_gib(f) <= 2 * top


def fitting_features(logs: list[dict]) -> tuple[list[dict], list[str]]:
    """The fitting rows' features, and the breakdown rows left out: a multimodal tower kvcalc does
    not model (or a config without the towers the run loaded) would be absorbed into the fixed
    part, and so would a miss beyond any fixed part (``beyond_any_fixed_part``). Rows on a
    unified-memory GPU are left out too: vLLM counts its processes' host memory there, a term
    several times the fixed parts that varies between identical starts (``reserve.UMA_HOST_GIB``,
    set from ``reserve.UMA_ROWS``), so they would set the fixed part of discrete GPUs."""
    sources = {e["id"]: source_key(e["source"]) for e in logs}
    observed = [dict(f, source=sources[f["id"]]) for f in (observed_reserve(e) for e in logs if is_fit_row(e)) if f]
    left_out = [f for f in observed
                if f["tower_unmodelled"] or f["unified_memory"] or beyond_any_fixed_part(f)]
    return [f for f in observed if f not in left_out], sorted(f["id"] for f in left_out)


def usable_logs() -> list[dict]:
    return [e for e in load_logs() if not e.get("estimate_skip_reason") and not e.get("skip_reason")]


def fitted_ids(features: list[dict]) -> set[str]:
    """The rows the coefficients rest on, which ``reserve.FIT_ROWS`` must name: the fitting rows, and
    the rows that set a measured constant of their own (the sampler's, unified memory's host term, a
    CUDA-graph cost)."""
    return {f["id"] for f in features} | set(reserve.SAMPLER_ROWS) | set(reserve.UMA_ROWS) | \
        set(reserve.GRAPH_ROWS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="evaluate only, do not fit")
    args = parser.parse_args()
    logs = usable_logs()
    features, left_out = fitting_features(logs)
    fit_ids = fitted_ids(features)
    if left_out:
        print("breakdown rows left out of the fit (a vision/audio tower kvcalc does not size, a "
              "unified-memory GPU, or a miss beyond any fixed part): "
              + ", ".join(left_out))
    if not args.check:
        best = fit(features, cold_warm_twins(logs))
        print(f"fitted on {len(features)} rows: median weighted |KV memory error| {best['score']:.2f}%; "
              f"non-torch {reserve.SINGLE_GPU_NON_TORCH_GIB:.2f} GiB on one GPU "
              f"({reserve.PRE_HOPPER_NON_TORCH_GIB:.2f} before Hopper, {reserve.ROCM_NON_TORCH_GIB:.2f} on AMD), "
              f"{reserve.MULTI_GPU_NON_TORCH_GIB:.2f} GiB per peer GPU, "
              f"{reserve.NO_P2P_NON_TORCH_GIB:.2f} without peer-to-peer (measured)")
        for g, (_, base) in best["groups"].items():
            ties = best["near_ties"].get(g)
            tie_note = f"; within {NEAR_TIE * 100:.2f} points of its score: " + ", ".join(f"{t:.2f}" for t in ties) \
                if ties else ""
            print(f"  group {g}: fixed part {base:.2f} GiB (carried by non-torch memory){tie_note}")
        copies, fixed = best["cold"]
        print(f"  a first start's compile (from v{reserve.Rule.COLD_COMPILE_RESERVE.value.since}, "
              f"v{reserve.Rule.COLD_COMPILE_UNTIED.value.since} for untied embeddings, unless the log shows a warm "
              f"cache): a peak of {copies:.2f} copies of the embedding table on a GPU plus {fixed:.2f} GiB, "
              f"beyond the activation peak")
        print("Put these into reserve.py (ERAS) to use them; then run with --check.\n")
    rows = [evaluate_entry(e) for e in logs]
    fitted = fit_ids if not args.check else set(reserve.FIT_ROWS)
    summarize([r for r in rows if r["id"] in fitted], "fitted rows")
    summarize([r for r in rows if r["id"] not in fitted], "held-out rows")
    for r in sorted(rows, key=lambda r: r["id"]):
        if r.get("estimated"):
            tag = "fit " if r["id"] in fitted else "held"
            print(f"  {tag} {r['id']:<48} {r['estimated']['error_pct']:+7.2f}%")
    newer = sorted(fit_ids - reserve.FIT_ROWS)
    if newer:
        print("\nrows with breakdowns added since reserve.py was last refitted (held out until the "
              "coefficients are refitted with them and FIT_ROWS lists them): " + ", ".join(newer))
    stale = sorted(reserve.FIT_ROWS - fit_ids)
    if stale:
        print("\nreserve.FIT_ROWS names rows that no longer qualify: " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
