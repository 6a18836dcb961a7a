"""The memory budget: what vLLM leaves for the KV cache on one GPU.

``available = ceil(total × gpu_memory_utilization) − weights − activation peak −
non-torch memory − CUDA-graph estimate`` (vllm/v1/worker/gpu_worker.py
``determine_available_memory``). Only the first term can be computed exactly; the
others are measured by vLLM at startup, so kvcalc estimates them with a band.

This is the first, simple model: the activation peak and non-torch memory together
("reserve") follow the default batch size, from public logs of the brief's validation
table — about 1.5 GiB at 2,048 batched tokens (0.4–2.5), 3.5 GiB at 8,192 (2–5) and
4 GiB at 16,384 (2.5–6), linear in between and beyond. The CUDA-graph estimate
(deducted from v0.21 on the V1 model runner) is a rough 0.5 GiB (0.1–1.5): public logs
print 0.16 GiB (Gemma 4 on an H200) to several GiB.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .units import GIB
from .versions import Rule, Version, applies


@dataclass(frozen=True)
class Term:
    """One thing vLLM subtracts, in bytes, with the band kvcalc believes it lies in."""

    name: str
    bytes: int
    low: int
    high: int
    basis: str


_RESERVE_POINTS = ((2048, 1.5, 0.4, 2.5), (8192, 3.5, 2.0, 5.0), (16384, 4.0, 2.5, 6.0))


def reserve_for_batch(mnbt: int) -> tuple[float, float, float]:
    """(typical, low, high) GiB of activation peak + non-torch memory for ``mnbt`` tokens."""
    pts = _RESERVE_POINTS
    if mnbt <= pts[0][0]:
        return pts[0][1:]
    for (x0, *a), (x1, *b) in zip(pts, pts[1:]):
        if mnbt <= x1:
            t = (mnbt - x0) / (x1 - x0)
            return tuple(p + (q - p) * t for p, q in zip(a, b))  # type: ignore[return-value]
    (x0, *a), (x1, *b) = pts[-2], pts[-1]
    t = (mnbt - x1) / (x1 - x0)
    return tuple(q + (q - p) * t for p, q in zip(a, b))  # type: ignore[return-value]


def requested_bytes(total: int, util: float, version: Version) -> int:
    """``request_memory``: ceil(total × util) since #29493 (v0.14); a truncated float before."""
    if applies(Rule.REQUESTED_MEMORY_CEIL, version):
        return math.ceil(total * util)
    return int(total * util)


def cuda_graph_deducted(version: Version, enforce_eager: bool, model_runner_v2: bool) -> bool:
    """Whether vLLM subtracts its CUDA-graph estimate: from v0.21 (#38284), never with
    --enforce-eager, and not on model runner V2 before v0.29 (it returns 0 there)."""
    if enforce_eager or not applies(Rule.CUDA_GRAPH_ESTIMATE_DEDUCTED, version):
        return False
    if model_runner_v2 and not applies(Rule.MRV2_ALL_MODELS_CG_PROFILED, version):
        return False
    return True


@dataclass(frozen=True)
class Budget:
    total_bytes: int
    requested_bytes: int
    weights: Term
    reserve: Term
    cuda_graphs: Term
    available_bytes: int
    available_low: int
    available_high: int

    @property
    def terms(self) -> tuple[Term, ...]:
        return (self.weights, self.reserve, self.cuda_graphs)


def estimate_budget(total: int, util: float, version: Version, weights_bytes: int,
                    weights_basis: str, weights_exact: bool, mnbt: int,
                    cuda_graphs: bool) -> Budget:
    requested = requested_bytes(total, util, version)
    w_band = 0.0 if weights_exact else 0.08
    weights = Term("weights", weights_bytes, int(weights_bytes * (1 - w_band)),
                   int(weights_bytes * (1 + w_band)), weights_basis)
    mid, lo, hi = reserve_for_batch(mnbt)
    reserve = Term("activations + non-torch", int(mid * GIB), int(lo * GIB), int(hi * GIB),
                   f"first model: typical reserve at max_num_batched_tokens={mnbt:,} from public logs")
    if cuda_graphs:
        cg = Term("CUDA graphs", int(0.5 * GIB), int(0.1 * GIB), int(1.5 * GIB),
                  "rough: public logs print 0.16 GiB to several GiB")
    else:
        cg = Term("CUDA graphs", 0, 0, 0, "not deducted in this setting")
    available = requested - weights.bytes - reserve.bytes - cg.bytes
    low = requested - weights.high - reserve.high - cg.high
    high = requested - weights.low - reserve.low - cg.low
    return Budget(total, requested, weights, reserve, cg, available, low, high)
