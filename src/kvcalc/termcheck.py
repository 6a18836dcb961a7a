"""kvcalc's reserve terms set beside the memory breakdown a vLLM log printed.

One rule for both places that meet a breakdown: ``kvcalc validate`` (the stored logs' ``logged``
fields) and a pasted log (:meth:`kvcalc.logparse.ParsedLog.breakdown`), so the validation figures
and the comparison table a user sees can never disagree on what is compared with what.
"""

from __future__ import annotations

from typing import Any, Mapping

from .budget import Budget


def term_checks(logged: Mapping[str, Any], b: Budget | None) -> dict[str, dict[str, float]]:
    """kvcalc's reserve terms next to the log's own breakdown, in GiB (2^30 bytes).

    The "Actual usage" line comes in two forms. The newer one ("… for consumed memory (weights +
    non-torch), … for peak activation", v0.27.1 and later in public logs) counts the CUDA-graph
    estimate vLLM subtracted in "peak activation" (vllm/v1/worker/gpu_worker.py:
    ``peak_activation_memory = transient peak + cudagraph_memory_estimate_applied``; 85.51 − 56.89
    − 0.76 = 27.85 GiB, the pool, in the RTX PRO 6000 log), so it is set against kvcalc's activation
    and CUDA-graph terms together. The older one ("… for weight, … peak activation, … non-torch
    memory, … CUDAGraph memory") leaves the estimate out (246.27 − 58.99 − 3.9 − 0.25 − 0.76 =
    182.37 GiB in a v0.26.0 B300 log), so kvcalc's activation term stands alone. Releases before
    v0.20 subtract no estimate and kvcalc's term is 0 there.
    Non-torch memory is the logged value, or "consumed" minus "Model loading took" when a log
    prints those two instead. The CUDA-graph term is set against "Estimated CUDA graph memory"
    where kvcalc subtracts one (releases that print it without subtracting it are left out). A
    budget built from a measured reserve (--measured-reserve-gib) has no terms to set beside them.
    On a unified-memory GPU kvcalc's host-memory term joins its non-torch memory, where vLLM counts it.
    kvcalc's first-start compile term joins its activation peak: it models the compile's
    temporaries beyond the warm-up's own peak, which vLLM measures in that peak, except the table
    copy a V1-runner first start of v0.29-v0.30 keeps charged after freeing it, which joins
    non-torch memory (reserve.COLD_KEPT_TABLE_COPIES)."""
    if b is None or b.terms[1].name != "activation peak":
        return {}
    gib = 1 << 30
    out: dict[str, dict[str, float]] = {}
    if logged.get("activation_peak_gib") is not None:
        with_graphs = logged.get("consumed_gib") is not None     # the newer "Actual usage" form
        ours = (b.terms[1].bytes + (b.terms[3].bytes if with_graphs else 0) + b.compile_peak_as_logged) / gib
        out["activation"] = {"logged_gib": logged["activation_peak_gib"], "estimated_gib": round(ours, 2)}
    non_torch = logged.get("non_torch_gib")
    if non_torch is None and logged.get("consumed_gib") is not None and logged.get("model_loading_gib"):
        non_torch = round(logged["consumed_gib"] - logged["model_loading_gib"], 2)
    if non_torch is not None:
        out["non_torch"] = {"logged_gib": non_torch, "estimated_gib": round(b.non_torch_as_logged / gib, 2)}
    if logged.get("cuda_graph_gib") is not None and b.terms[3].bytes:
        out["cuda_graphs"] = {"logged_gib": logged["cuda_graph_gib"],
                              "estimated_gib": round(b.terms[3].bytes / gib, 2)}
    return out
