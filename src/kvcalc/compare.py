"""A user's startup log next to kvcalc's prediction, line by line, with likely causes.

The log is read by :mod:`kvcalc.logparse`; the settings it reveals fill the form; the pool is
then computed twice — from the log's own "Available KV cache memory" (exact up to rounding)
and fully estimated — and every number the log printed is set beside kvcalc's. Where the two
differ, the terms the log breaks down (weights, activation, non-torch, CUDA graphs) point at
the cause. The reserve the log measured can then replace kvcalc's estimate for what-ifs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .messages import Text, join_texts
from .reserve import cold_kept_copies
from .engine import Calculation
from .logparse import ParsedLog
from .termcheck import term_checks
from .units import GIB


@dataclass(frozen=True)
class Row:
    line: str
    logged: str
    from_log: str | None
    estimated: str | None
    difference_pct: float | None
    cause: str | None
    difference_gib: float | None = None     # the breakdown's terms: ours − the log's, GiB

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _pct(ours: float, theirs: float) -> float | None:
    return round((ours - theirs) / theirs * 100, 2) if theirs else None


def measured_reserve_gib(parsed: ParsedLog, calc: Calculation) -> float | None:
    """What the log's vLLM subtracted besides the weights: total × util − available − weights
    (weights as the log printed them, else kvcalc's estimate)."""
    if not parsed.available_kv_cache_gib or calc.budget is None:
        return None
    total = (parsed.total_memory_gib * GIB) if parsed.total_memory_gib else calc.budget.total_bytes
    requested = total * calc.resolved.gpu_memory_utilization
    weights = parsed.model_loading_gib[0] * GIB if parsed.model_loading_gib else calc.budget.weights_as_logged
    return round((requested - min(parsed.available_kv_cache_gib) * GIB - weights) / GIB, 3)


def _breakdown_checks(parsed: ParsedLog, calc: Calculation) -> dict[str, dict[str, float]]:
    """The log's breakdown beside kvcalc's terms, by the rule ``kvcalc validate`` applies."""
    total = parsed.total_memory_gib or calc.gpu.total_bytes / GIB
    return term_checks(parsed.breakdown(total), calc.budget)


def _causes(parsed: ParsedLog, calc: Calculation, form: dict[str, Any],
            checks: dict[str, dict[str, float]]) -> list[str]:
    out = []
    b = calc.budget
    if b is not None and parsed.model_loading_gib:
        ours = b.weights_as_logged / GIB
        theirs = parsed.model_loading_gib[0]
        if abs(ours - theirs) > max(0.2, 0.02 * theirs):
            out.append(Text("cause.weights", theirs=theirs, ours=ours))
    if "activation" in checks:
        diff = checks["activation"]["logged_gib"] - checks["activation"]["estimated_gib"]
        if abs(diff) > 0.3:
            out.append(Text("cause.activation_higher" if diff > 0 else "cause.activation_lower",
                            diff=abs(diff)))
    if "non_torch" in checks:
        theirs, ours = checks["non_torch"]["logged_gib"], checks["non_torch"]["estimated_gib"]
        # a first start that kept its freed table copy charged, which kvcalc's band allows in the
        # releases where that can happen (reserve.cold_kept_copies)
        table = b.compile_table_bytes / GIB if b is not None else 0.0
        copy = cold_kept_copies(calc.resolved.version, calc.model_runner_v2)[2] * table
        if parsed.compile_cache == "cold" and copy > 0.2 and abs(theirs - ours - copy) <= 0.3 * copy:
            out.append(Text("cause.non_torch_table_copy", theirs=theirs, ours=ours, table=table))
        elif abs(theirs - ours) > 0.3:
            out.append(Text("cause.non_torch", theirs=theirs, ours=ours))
    if "cuda_graphs" in checks:
        # only where this setting subtracts the estimate (V2 before v0.29 profiles one it does not use)
        theirs, ours = checks["cuda_graphs"]["logged_gib"], checks["cuda_graphs"]["estimated_gib"]
        if abs(theirs - ours) > 0.3:
            out.append(Text("cause.cuda_graphs", theirs=theirs, ours=ours))
    kv = form.get("kv_cache_dtype")
    if kv and kv != "auto" and calc.kv.name.startswith("fp8"):
        out.append(Text("cause.kv_dtype", kv=kv))
    first_start = b.term("first-start compile") if b is not None else None
    if parsed.compile_cache == "cold" and first_start is not None:
        out.append(Text("cause.first_start", gib=first_start.bytes / GIB, high=first_start.high / GIB))
    if parsed.total_memory_gib and abs(parsed.total_memory_gib - calc.gpu.total_bytes / GIB) > 0.05:
        out.append(Text("cause.gpu_total", theirs=parsed.total_memory_gib, ours=calc.gpu.total_bytes / GIB))
    return out


BREAKDOWN_LINES = (("activation", "peak activation"), ("non_torch", "non-torch memory"),
                   ("cuda_graphs", "Estimated CUDA graph memory"))
"""The breakdown rows of the comparison: the term, and the words vLLM prints for it."""


def compare(parsed: ParsedLog, calc: Calculation) -> dict[str, Any]:
    """Rows for each number the log printed, our two predictions, and likely causes."""
    form = parsed.settings()
    rows: list[Row] = []
    fl, est = calc.from_log, calc.estimated
    checks = _breakdown_checks(parsed, calc)
    causes = _causes(parsed, calc, form, checks)
    cause_text = join_texts(causes) if causes else None
    if parsed.available_kv_cache_gib:
        theirs = min(parsed.available_kv_cache_gib)
        ours = est.available_bytes / GIB if est else None
        if est and calc.budget is not None and calc.budget.capacity_available:
            ours = min(calc.budget.capacity_available) / GIB    # v0.34's extensible cache prints its reservation
        rows.append(Row("Available KV cache memory", f"{theirs} GiB", f"{theirs} GiB",
                        f"{ours:.2f} GiB" if ours is not None else None,
                        _pct(ours, theirs) if ours is not None else None, cause_text))
    if parsed.gpu_kv_cache_tokens:
        theirs = parsed.gpu_kv_cache_tokens
        inside = None
        if calc.from_log_low and calc.from_log_high:
            inside = calc.from_log_low.tokens <= theirs <= calc.from_log_high.tokens
        rows.append(Row("GPU KV cache size", f"{theirs:,} tokens",
                        f"{fl.tokens:,} tokens" if fl else None,
                        f"{est.tokens:,} tokens" if est and est.fits else None,
                        _pct(est.tokens, theirs) if est and est.fits else None,
                        None if inside in (None, True) else
                        Text("cause.pool_outside_rounding")))
    if parsed.extended_blocks is not None:
        theirs = parsed.extended_blocks
        rows.append(Row("Extended KV cache to N blocks", f"{theirs:,} blocks",
                        f"{fl.num_blocks:,} blocks" if fl else None,
                        f"{est.num_blocks:,} blocks" if est and est.fits else None,
                        _pct(est.num_blocks, theirs) if est and est.fits else None, None))
    if parsed.auto_fit_len is not None:
        theirs = parsed.auto_fit_len
        rows.append(Row("Auto-fit max_model_len", f"{theirs:,} tokens",
                        f"{fl.max_model_len:,} tokens" if fl and fl.fits else None,
                        f"{est.max_model_len:,} tokens" if est and est.fits else None,
                        _pct(est.max_model_len, theirs) if est and est.fits else None, None))
    if parsed.max_concurrency is not None:
        pool = fl or est
        length = parsed.concurrency_len or (pool.max_model_len if pool else calc.resolved.max_model_len)
        rows.append(Row(f"Maximum concurrency for {length:,} tokens",
                        f"{parsed.max_concurrency:.2f}x",
                        f"{fl.max_concurrency:.2f}x" if fl else None,
                        f"{est.max_concurrency:.2f}x" if est and est.fits else None,
                        _pct(est.max_concurrency, parsed.max_concurrency) if est and est.fits else None, None))
    if parsed.cpu_offloaded_gib is not None and calc.budget is not None:
        ours = calc.budget.cpu_offload_bytes / GIB
        theirs = parsed.cpu_offloaded_gib
        rows.append(Row("Total CPU offloaded parameters", f"{theirs} GiB", None, f"{ours:.2f} GiB",
                        _pct(ours, theirs) if theirs else None, None))
    if parsed.model_loading_gib and calc.budget is not None:
        ours = calc.budget.weights_as_logged / GIB
        theirs = parsed.model_loading_gib[0]
        rows.append(Row("Model loading took", f"{theirs} GiB", None, f"{ours:.2f} GiB", _pct(ours, theirs), None))
    activation = calc.budget.term("activation peak") if calc.budget is not None else None
    if parsed.transient_kept_gib is not None and activation is not None:
        # v0.34's extensible cache keeps its transient peak free after warm-up; kvcalc's activation term
        # also holds what stays allocated after the profile, so it is rather the larger
        ours = activation.bytes / GIB
        rows.append(Row("kept for transient activations", f"{parsed.transient_kept_gib:.2f} GiB", None,
                        f"{ours:.2f} GiB", None, None, round(ours - parsed.transient_kept_gib, 2)))
    for term, line in BREAKDOWN_LINES:
        if term in checks:
            theirs, ours = checks[term]["logged_gib"], checks[term]["estimated_gib"]
            # in GiB, not a percentage: a term of a few hundred MiB would make a small miss look large
            rows.append(Row(line, f"{theirs:.2f} GiB", None, f"{ours:.2f} GiB", None, None,
                            round(ours - theirs, 2)))
    return {
        "form": form,
        "model": parsed.model,
        "vllm_version": parsed.vllm_version,
        "rows": [r.to_dict() for r in rows],
        "causes": causes,
        "measured_reserve_gib": measured_reserve_gib(parsed, calc),
        "sources": {"from_log": ["Available KV cache memory"] + (["Model loading took"] if parsed.model_loading_gib else []),
                    "estimated": [t.name for t in calc.budget.terms] if calc.budget else []},
    }
