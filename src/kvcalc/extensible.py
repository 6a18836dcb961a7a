"""The extensible KV cache of vLLM v0.34 (Rule.EXTENSIBLE_KV_CACHE): where the pool comes from measured
memory after warm-up instead of the profile's estimate.

vLLM still profiles, and prints that estimate as "Available KV cache memory" (with no CUDA-graph
estimate, ``profile_cudagraph_memory`` returns 0): the figure only reserves address space, the
pool's capacity. After warm-up and CUDA-graph capture it measures the device and commits
(vllm/v1/worker/extensible_kv_cache.py ``measure_kv_cache_bytes``)::

    headroom = free + committed                      (every byte not held by the engine)
    margin   = max(1 GiB, 3 GiB on ROCm, 0.75 x T)   (T: the largest transient peak seen)
    budget   = min(requested - non-KV memory in use, headroom - margin) - max(T, torch growth)

In kvcalc's terms, with W the weights, P the activation peak, N the non-torch memory, C the CUDA
graphs and U the memory already in use when vLLM's worker starts (CUDA context, cuBLAS, NCCL):
headroom - max(T, ...) = total - U - W - N - C - P, and requested - non-KV memory - T is the budget
of releases before v0.34. So the pool is v0.33's budget at the requested memory, less
max(0, requested - total + U + margin): with --gpu-memory-utilization unset (1.0) always U + margin.
The blocks are the most whose pages, each layer's segment rounded up to 2 MiB granules
(``blocks_within``), fit in it, never more than the capacity.

T is the larger of the profile's peak and the sizing warm-up's steps (sizing_warmup.py). The "torch
growth" is how far a sizing step grows the caching allocator's reservation from an emptied cache
(vllm/v1/worker/gpu/warmup.py ``_measure_sizing_step``): the step's peak plus the fragmentation it
leaves. No public log prints it yet, so kvcalc takes T alone and leaves fragmentation to the band's
reserve end.
"""

from __future__ import annotations

from . import paging
from .messages import Text
from .units import GIB

GRANULE_BYTES = 2 << 20
"""The commit granule: the driver's granularity, floored at 2 MiB (vllm/utils/extensible_tensor.py
``granule_size``; 2 MiB on NVIDIA and AMD data-centre GPUs)."""

MARGIN_FLOOR_BYTES = {"cuda": 1 << 30, "rocm": 3 << 30}
"""``KV_CACHE_MARGIN_FLOOR_BYTES``: 1 GiB, 3 GiB on ROCm (ROCr maps kernel scratch outside the allocator)."""

MARGIN_FRACTION = 0.75
"""``KV_CACHE_MARGIN_FRACTION``: the margin grows with the transient peak beyond the floor."""

STARTUP_IN_USE_GIB = {"small": (0.25, 0.1, 0.9), "mid": (0.45, 0.25, 1.0), "large": (0.55, 0.35, 0.9),
                      "rocm": (0.35, 0.25, 0.9), "multi": (0.6, 0.35, 2.3), "unified": (7.5, 5.0, 10.0)}
"""Device memory in use when vLLM's worker takes its first snapshot (typical, low, high GiB): total less
the free memory of "Free memory on device (F/T GiB) on startup" in the stored logs, by the size of the
card, whose CUDA context grows with it. One GPU under 32 GiB ("small"): 0.1 (T4) to 0.26 (L4 0.19, A10
0.23, RTX 4080 0.23, RTX 3090 0.26), up to 0.88 on desktop cards that also drive a display; 32-100 GiB
("mid"): A40 0.26, A100 0.41-0.46 (0.91 in v0.10.0 starts on a PCIe card), L40S 0.42-0.49, H100 0.52-0.61; larger ("large"): H200 0.51-0.60,
B300 0.61; MI300X ("rocm") 0.33; tensor or pipeline parallel starts ("multi"), whose NCCL communicators
exist by then, 0.38 to 1.15 on two to eight GPUs up to v0.27, and 2.17 on eight NVSwitch H100s of a
v0.31 nightly whose TP group also set up FlashInfer's all-reduce fusion workspace and symmetric memory
(the band's top); a GB10 ("unified"), whose memory the host shares, 7.2 and 8.2 GiB. The pool
of releases before v0.34 never depended on it (the budget was a share of the total); the extensible
cache takes what is free."""


def margin_bytes(transient_peak: int, platform: str) -> int:
    """``max(KV_CACHE_MARGIN_FLOOR_BYTES, KV_CACHE_MARGIN_FRACTION x transient peak)``."""
    return max(MARGIN_FLOOR_BYTES.get(platform, 1 << 30), int(transient_peak * MARGIN_FRACTION))


def startup_in_use(gpus: int, unified_memory: bool, total_bytes: int, platform: str = "cuda"
                   ) -> tuple[int, int, int]:
    """``STARTUP_IN_USE_GIB`` in bytes for one GPU of ``total_bytes`` in a start over ``gpus`` GPUs."""
    gib = total_bytes / GIB
    row = "unified" if unified_memory else "multi" if gpus > 1 else "rocm" if platform == "rocm" else \
        "small" if gib < 32 else "mid" if gib <= 100 else "large"
    typical, low, high = STARTUP_IN_USE_GIB[row]
    return int(typical * GIB), int(low * GIB), int(high * GIB)


def withheld_bytes(requested: int, total: int, in_use: int, margin: int) -> int:
    """What the measured budget takes beyond v0.33's budget at ``requested``: nothing while the
    requested memory leaves the margin and the start-up memory free, else the overlap."""
    return max(0, requested - total + in_use + margin)


def segment_strides(grouping: paging.Grouping) -> tuple[int, ...]:
    """Bytes per block of each segment vLLM commits apart (``ExtensibleKVCache._segments``): one per
    layer region of the default layer-outermost layout (the group size's worth of unified pages; one
    page per layer where each layer keeps its own, UniformType), one for DeepSeek-V4's packed blocks."""
    if grouping.kind == "attention_free":
        return ()
    if grouping.packed is not None:
        return (grouping.packed.block_bytes,)
    if grouping.kind == "uniform_type":
        return tuple(spec.page_size_bytes for spec in grouping.groups[0].uniform_type_specs) or \
            (grouping.groups[0].page_size_bytes,)
    return (grouping.page_size_bytes,) * grouping.group_size


def committed_bytes(blocks: int, strides: tuple[int, ...]) -> int:
    """``physical_bytes_for``: each segment's blocks rounded up to whole granules."""
    return sum(-(-blocks * stride // GRANULE_BYTES) * GRANULE_BYTES for stride in strides)


def blocks_within(budget: int, strides: tuple[int, ...], capacity: int) -> int:
    """``blocks_within``: the most blocks whose committed bytes fit in ``budget``, at most ``capacity``."""
    per_block = sum(strides)
    if not per_block or budget <= 0:
        return 0
    return paging.largest_true(1, min(budget // per_block, capacity),
                               lambda blocks: committed_bytes(blocks, strides) <= budget)


def basis_in_use() -> Text:
    return Text("basis.startup_in_use")


def basis_margin(platform: str) -> Text:
    return Text("basis.extensible_margin", floor=MARGIN_FLOOR_BYTES.get(platform, 1 << 30) / GIB)
