"""What vLLM's startup profile takes besides the weights: activation peak, non-torch memory
and the CUDA-graph estimate, per GPU, each with a band.

vLLM measures these (vllm/v1/worker/gpu_worker.py ``determine_available_memory``); kvcalc
models them from the quantities that drive them:

* **Activation peak** of ``profile_run`` (gpu_model_runner.py): one forward pass of
  ``max_num_batched_tokens`` tokens, then the sampler over one dummy request per sequence
  slot (``min(max_num_seqs, max_num_batched_tokens)`` rows × the vocabulary in float32, with
  sort/top-p buffers). The sampler term scales with rows × vocabulary; the forward term with
  tokens × the widest MLP/MoE intermediate on one GPU.
* **Non-torch memory**: allocator and library workspaces, plus NCCL and custom all-reduce
  buffers when GPUs talk to each other (TP or PP > 1).
* **CUDA graphs**: the estimate vLLM subtracts from v0.21 (see ``budget.cuda_graph_deducted``).

The coefficients are fitted to public logs that print these terms (``data/vllm_logs.json``);
``FIT_ROWS`` lists the rows used, so ``kvcalc validate`` can report accuracy on the other
rows separately. Run ``python scripts/calibrate.py`` to refit and print both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .units import GIB, cdiv
from .versions import Version


@dataclass(frozen=True)
class Era:
    """Coefficients that hold for a range of releases (the sampler and profiler changed)."""

    since: Version
    sampler_bytes_per_entry: float   # per (dummy request × vocabulary entry)
    activation_base_gib: float       # fixed part of the torch peak increase
    non_torch_gib: float             # single GPU
    non_torch_multi_gpu_gib: float   # extra with TP or PP > 1 (NCCL, custom all-reduce)
    spread_gib: float                # ± band on activation + non-torch, from the fit residuals


ERAS: tuple[Era, ...] = (
    Era(Version(0, 10, 0), 38.5, 0.10, 0.05, 0.9, 0.5),
    Era(Version(0, 21, 0), 20.0, 0.40, 0.25, 0.9, 0.7),
    Era(Version(0, 28, 0), 2.0, 1.50, 0.25, 0.9, 0.6),
)
FORWARD_FACTOR = 1.0
CUDA_GRAPH_GIB = (0.3, 0.1, 1.0)      # typical, low, high when vLLM deducts its estimate
FIT_ROWS: frozenset[str] = frozenset()


def era_for(version: Version) -> Era:
    current = ERAS[0]
    for era in ERAS:
        if version >= era.since:
            current = era
    return current


def _n(d: dict, key: str) -> int:
    v = d.get(key)
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0


def sampler_rows(max_num_seqs: int, mnbt: int) -> int:
    """Dummy requests of the profile run: one per sequence slot, at most one per token."""
    return min(max_num_seqs, mnbt)


def forward_bytes(config: dict[str, Any], mnbt: int, tp: int, dtype_bytes: int) -> int:
    """The widest intermediate one GPU holds during the profile forward pass: the gated MLP's
    gate/up output and activation (3 × intermediate / TP per token), or the fused-MoE caches
    (top-k × (3 × expert intermediate / TP + hidden) per token)."""
    t = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    H = _n(t, "hidden_size")
    inter = max(_n(t, "intermediate_size"), _n(t, "intermediate_size_mlp"))
    dense = 3 * cdiv(inter, tp) + 4 * H
    experts = _n(t, "num_local_experts") or _n(t, "num_experts") or _n(t, "n_routed_experts")
    moe = 0
    if experts:
        topk = _n(t, "num_experts_per_tok") or _n(t, "experts_per_token") or _n(t, "top_k_experts") or 1
        e_inter = _n(t, "moe_intermediate_size") or inter
        moe = topk * (3 * cdiv(e_inter, tp) + H)
    return mnbt * max(dense, moe) * dtype_bytes


@dataclass(frozen=True)
class ReserveEstimate:
    activation: tuple[int, int, int]    # typical, low, high (bytes)
    non_torch: tuple[int, int, int]
    cuda_graphs: tuple[int, int, int]
    basis: str


def estimate_reserve(config: dict[str, Any], version: Version, *, tp: int, pp: int, mnbt: int,
                     max_num_seqs: int, vocab: int, dtype_bytes: int, cuda_graphs: bool,
                     last_stage: bool = True) -> ReserveEstimate:
    era = era_for(version)
    rows = sampler_rows(max_num_seqs, mnbt)
    vocab_padded = cdiv(vocab, 64) * 64
    sampler = rows * vocab_padded * era.sampler_bytes_per_entry if last_stage else 0
    fwd = forward_bytes(config, mnbt, tp, dtype_bytes) * FORWARD_FACTOR
    act = int(era.activation_base_gib * GIB + max(sampler, fwd))
    spread = int(era.spread_gib * GIB)
    nt = int((era.non_torch_gib + (era.non_torch_multi_gpu_gib if tp * pp > 1 else 0)) * GIB)
    cg = tuple(int(x * GIB) for x in CUDA_GRAPH_GIB) if cuda_graphs else (0, 0, 0)
    basis = (f"sampler {rows:,} rows × {vocab_padded:,} vocab × {era.sampler_bytes_per_entry:g} B, "
             f"forward {mnbt:,} tokens; coefficients of vLLM ≥ {era.since}")
    return ReserveEstimate((act, max(0, act - spread), act + spread),
                           (nt, max(0, nt - spread // 2), nt + spread // 2), cg, basis)
