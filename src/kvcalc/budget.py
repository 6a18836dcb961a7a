"""The memory budget: what vLLM leaves for the KV cache on each GPU.

``available = ceil(total × gpu_memory_utilization) − weights − activation peak − non-torch
memory − CUDA-graph estimate`` (vllm/v1/worker/gpu_worker.py ``determine_available_memory``).
Only the first term is exact; weights come from ``weights.py``, the rest from
``reserve.py``. Each term carries a band; the band of ``available`` is their sum.
With pipeline parallelism each stage has its own weights (and only the last one runs the
sampler), so the budget is kept per stage.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from . import extensible
from .messages import Text
from .reserve import ReserveEstimate
from .versions import Rule, Version, applies
from .weights import WeightsEstimate


@dataclass(frozen=True)
class Term:
    """One thing vLLM subtracts, in bytes, with the band kvcalc believes it lies in."""

    name: str
    bytes: int
    low: int
    high: int
    basis: str


def requested_bytes(total: int, util: float, version: Version) -> int:
    """``request_memory``: ceil(total × util) since #29493 (v0.14); a truncated float before."""
    if applies(Rule.REQUESTED_MEMORY_CEIL, version):
        return math.ceil(total * util)
    return int(total * util)


def cuda_graph_deducted(version: Version, enforce_eager: bool, model_runner_v2: bool,
                        chosen: bool | None = None, platform: str = "cuda") -> bool:
    """Whether vLLM subtracts its CUDA-graph estimate: by default from v0.20 (#38284), never with
    --enforce-eager, not on model runner V2 before v0.29 (it returns 0 there), and on ROCm only
    from v0.26 (Rule.ROCM_CUDA_GRAPH_ESTIMATE: before, the estimate ran on CUDA alone).
    ``chosen`` is VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS (None: unset): 0 turns the deduction
    off in any release, 1 turns it on from v0.18 (#30515; settings.resolve refuses it before)."""
    if enforce_eager or chosen is False:
        return False
    if platform == "rocm" and not applies(Rule.ROCM_CUDA_GRAPH_ESTIMATE, version):
        return False
    if not (chosen or applies(Rule.CUDA_GRAPH_ESTIMATE_DEDUCTED, version)):
        return False
    if model_runner_v2 and not applies(Rule.MRV2_ALL_MODELS_CG_PROFILED, version):
        return False
    return True


@dataclass(frozen=True)
class Budget:
    total_bytes: int
    requested_bytes: int
    terms: tuple[Term, ...]              # for the stage that limits the pool
    stage_available: tuple[int, ...]     # typical available bytes, per PP stage
    stage_low: tuple[int, ...]
    stage_high: tuple[int, ...]
    limiting_stage: int
    checkpoint_bytes: int = 0            # the whole checkpoint (all GPUs)
    compile_table_bytes: int = 0         # the limiting stage's embedding table its compiled graph looks up
    cpu_offload_bytes: int = 0           # the limiting stage's weights --cpu-offload-gb keeps in host memory
    compile_kept_bytes: int = 0          # of the first-start compile term, what vLLM counts as non-torch
    compile_kept_possible_bytes: int = 0  # a freed table copy only the band counts (reserve.cold_kept_copies)
    capacity_available: tuple[int, ...] = ()  # extensible KV cache: the profile's estimate per stage, which
                                              # vLLM prints and reserves (the pool's ceiling); () otherwise
    withheld_bytes: int = 0              # extensible KV cache: free memory an explicit utilization keeps out

    @property
    def available_bytes(self) -> int:
        return self.stage_available[self.limiting_stage]

    @property
    def available_low(self) -> int:
        return self.stage_low[self.limiting_stage]

    @property
    def available_high(self) -> int:
        return self.stage_high[self.limiting_stage]

    @property
    def weights(self) -> Term:
        return self.terms[0]

    @property
    def weights_as_logged(self) -> int:
        """What "Model loading took" counts: the model's weights and a drafter's, loaded with it."""
        draft = self.term("draft model")
        return self.weights.bytes + (draft.bytes if draft else 0)

    def term(self, name: str) -> Term | None:
        """The term of that name, or None where this setting has none (a first start's compile)."""
        return next((t for t in self.terms if t.name == name), None)

    @property
    def non_torch_as_logged(self) -> int:
        """Non-torch memory as vLLM's log counts it: on unified memory the host memory of its
        processes joins it (reserve.unified_memory_reserve), and so does the freed table copy a first
        start keeps charged (reserve.COLD_KEPT_TABLE_COPIES)."""
        uma = self.term("unified memory")
        return self.terms[2].bytes + (uma.bytes if uma else 0) + self.compile_kept_bytes

    @property
    def compile_peak_as_logged(self) -> int:
        """The part of the first-start compile term vLLM measures in its activation peak."""
        first_start = self.term("first-start compile")
        return first_start.bytes - self.compile_kept_bytes if first_start else 0


def estimate_budget(total: int, util: float, version: Version, weights: WeightsEstimate,
                    reserves: tuple[ReserveEstimate, ...], limiting_stage: int,
                    draft: tuple[int, int, int] = (0, 0, 0), draft_basis: str = "") -> Budget:
    """``reserves`` has one entry per PP stage; ``limiting_stage`` is the stage whose blocks are
    fewest (the caller knows the layouts). ``draft``: typical, low and high bytes of a speculative
    drafter's weights (weights.drafter_weights), which vLLM loads on the last stage."""
    requested = requested_bytes(total, util, version)
    band = 0.0 if weights.exact_total else 0.03
    typical, low, high = [], [], []
    last = len(reserves) - 1
    # --cpu-offload-gb can move up to one parameter more than asked: fewer weights at the band's high end
    more = weights.offload_overshoot or (0,) * len(reserves)
    for i, (w, r) in enumerate(zip(weights.per_stage_bytes, reserves)):
        extras = (r.activation, r.non_torch, r.cuda_graphs, r.cold_compile, r.unified_memory,
                  draft if i == last else (0, 0, 0))
        typical.append(requested - w - sum(x[0] for x in extras))
        low.append(requested - int(w * (1 + band)) - sum(x[2] for x in extras))
        high.append(requested - int(w * (1 - band)) + more[i] - sum(x[1] for x in extras))
    w = weights.per_stage_bytes[limiting_stage]
    r = reserves[limiting_stage]
    terms = (
        Term("weights", w, int(w * (1 - band)) - more[limiting_stage], int(w * (1 + band)), weights.basis),
        Term("measured reserve" if r.measured else "activation peak",
             r.activation[0], r.activation[1], r.activation[2], r.basis),
        Term("non-torch memory", r.non_torch[0], r.non_torch[1], r.non_torch[2],
             Text("basis.in_measured_reserve") if r.measured else r.non_torch_basis),
        Term("CUDA graphs", r.cuda_graphs[0], r.cuda_graphs[1], r.cuda_graphs[2],
             Text("basis.in_measured_reserve") if r.measured and not r.cuda_graphs[2] else r.cuda_graph_basis),
    )
    if r.cold_compile[2]:   # listed only where a first start can reserve more (cold_compile_reserve)
        terms += (Term("first-start compile", *r.cold_compile, r.cold_compile_basis),)
    if r.unified_memory[2]:  # listed only on unified-memory GPUs (unified_memory_reserve)
        terms += (Term("unified memory", *r.unified_memory, r.unified_memory_basis),)
    if draft[2] and limiting_stage == last:   # a drafter sized from its config
        terms += (Term("draft model", *draft, draft_basis),)
    offloaded = weights.offloaded[limiting_stage] if weights.offloaded else 0
    return Budget(total, requested, terms, tuple(typical), tuple(low), tuple(high), limiting_stage,
                  weights.total_bytes, r.compile_table, offloaded, r.cold_compile_kept,
                  compile_kept_possible_bytes=r.cold_compile_kept_possible)


def measured_after_warmup(budget: Budget, reserves: tuple[ReserveEstimate, ...], platform: str, gpus: int,
                          unified_memory: bool, sizing_step: tuple[int, int, int] = (0, 0, 0),
                          sizing_basis: str = "") -> Budget:
    """The budget of the extensible KV cache (v0.34, Rule.EXTENSIBLE_KV_CACHE; extensible.py): what
    ``budget`` computed (requested - weights - activation - non-torch - CUDA graphs, each stage) less
    the start-up memory and the margin where the device, not the requested memory, bounds it; the
    profile's own estimate, which adds no CUDA-graph term, becomes the capacity vLLM prints as
    "Available KV cache memory". ``gpus`` is the GPUs of one engine (the start-up memory grows with
    NCCL's communicators). ``sizing_step``: typical, low and high transient bytes of the sizing warm-up's
    step that can outgrow the profile's peak (sizing_warmup.py), ``sizing_basis`` its Text; vLLM keeps the
    larger of the two free and scales its margin by it."""
    in_use = extensible.startup_in_use(gpus, unified_memory, budget.total_bytes, platform)
    total, requested = budget.total_bytes, budget.requested_bytes
    typical, low, high, capacity = [], [], [], []
    for i, r in enumerate(reserves):
        beyond = _beyond_profile(r, sizing_step)
        # withheld at the typical, low and high start-up memory and transient: the low pool takes the most
        held = [extensible.withheld_bytes(requested, total, in_use[k],
                                          extensible.margin_bytes(_transient(r, k) + beyond[k], platform))
                for k in (0, 1, 2)]
        typical.append(budget.stage_available[i] - beyond[0] - held[0])
        low.append(budget.stage_low[i] - beyond[2] - held[2])
        high.append(budget.stage_high[i] - beyond[1] - held[1])
        capacity.append(budget.stage_available[i] + r.cuda_graphs[0])
    r = reserves[budget.limiting_stage]
    beyond = _beyond_profile(r, sizing_step)
    margins = tuple(extensible.margin_bytes(_transient(r, k) + beyond[k], platform) for k in (0, 1, 2))
    # vLLM deducts no estimate here: the graphs it captures take their memory before it measures
    terms = tuple(replace(term, basis=Text("basis.graphs_after_warmup", basis=term.basis))
                  if term.name == "CUDA graphs" and term.high else term for term in budget.terms)
    if max(beyond):
        terms += (Term("sizing warm-up", beyond[0], min(beyond), max(beyond), sizing_basis),)
    if extensible.withheld_bytes(requested, total, in_use[0], margins[0]):
        terms += (Term("start-up memory", *in_use, extensible.basis_in_use()),
                  Term("extensible margin", margins[0], margins[1], margins[2], extensible.basis_margin(platform)))
    # what the requested share keeps out of a cache the device alone would bound (measure_kv_cache_blocks'
    # "withheld", which it warns about for a utilization between 0.7 and 1.0)
    withheld = max(0, total - requested - in_use[0] - margins[0])
    return replace(budget, terms=terms, stage_available=tuple(typical), stage_low=tuple(low),
                   stage_high=tuple(high), capacity_available=tuple(capacity), withheld_bytes=withheld)


def _beyond_profile(r: ReserveEstimate, sizing_step: tuple[int, int, int]) -> tuple[int, int, int]:
    """What the sizing warm-up's step keeps free beyond the profile's peak, typical, low and high: the low
    end pairs the smaller step with the smaller peak, the high end the larger with the larger."""
    return tuple(max(0, sizing_step[k] - _transient(r, k)) for k in (0, 1, 2))  # type: ignore[return-value]


def _transient(r: ReserveEstimate, k: int) -> int:
    """The transient peak the extensible cache keeps free and scales its margin by (its
    reserved_headroom_bytes starts at the profile's peak): the activation peak, with a first start's compile
    temporaries, which that peak holds; ``k`` picks typical, low or high."""
    return r.activation[k] + r.cold_compile[k]
