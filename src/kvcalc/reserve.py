"""What vLLM's startup profile takes besides the weights: activation peak, non-torch memory,
the CUDA-graph estimate and a first start's compile, per GPU, each with a band.

vLLM measures these (vllm/v1/worker/gpu_worker.py ``determine_available_memory``); kvcalc
models them from the quantities that drive them:

* **Activation peak** of ``profile_run`` (gpu_model_runner.py): for multimodal models first
  the vision tower over the largest items the encoder budget allows, then one forward pass of
  ``max_num_batched_tokens`` tokens, then the sampler over one dummy request per sequence
  slot (``min(max_num_seqs, max_num_batched_tokens)`` rows × the vocabulary in float32; what
  each entry costs depends on the sampler: ``sampler_path``). The sampler term scales with rows ×
  vocabulary; the forward term with tokens × the widest MLP/MoE intermediate on one GPU; the
  vision term with patches × the tower's widths.
* **Non-torch memory**: allocator and library workspaces, plus NCCL and custom all-reduce
  buffers per peer GPU (TP or PP > 1), plus a fixed part per group of releases (``ERAS``) for
  what the public logs leave beyond the modelled terms.
* **CUDA graphs**: the estimate vLLM subtracts from v0.20 (see ``budget.cuda_graph_deducted``):
  a per-graph cost times the graphs the default capture sizes give (``cudagraph_capture_sizes``).
* **First-start compile**: from v0.27, what compiling inside the profile leaves in it when the
  torch.compile cache is empty (``cold_compile_reserve``); none on a restart.

The coefficients are fitted to public logs that print these terms (``data/vllm_logs.json``);
``FIT_ROWS`` lists the rows used, so ``kvcalc validate`` can report accuracy on the other
rows separately. Run ``python scripts/calibrate.py`` to refit and print both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .messages import Text, join_texts
from .config_aliases import GEMMA4_UNIFIED, GEMMA4_WRAPPER_TYPES, model_type_of
from .deepseek_v4_profile import deepseek_v4_peak
from .params import QWEN2_VL_MODEL_TYPES, QWEN3_VL_MODEL_TYPES, QWEN_VL_MODEL_TYPES, config_int as _n, expert_count, \
    padded_vocab, text_part, tied_embeddings
from .hf_config import mrope_position_dims
from .kvspecs import parse_capability
from .units import GIB, MIB, cdiv
from .settings import MmLimits, MmProcessor, max_pixels_ok, processor_max_pixels
from .sparse_indexer import PREFILL_LOGITS_BYTES, logits_placeholder_bytes
from .versions import NEWEST, Rule, Version, applies, first_start_compile_untied, flashinfer_sampler_default, \
    parse_version


@dataclass(frozen=True)
class Era:
    """Coefficients for one group of releases and model runners (the sampler and the memory
    profiler changed between them)."""

    name: str
    fixed_gib: float                 # what the modelled terms leave over, carried by non-torch memory
    spread_gib: float                # ± band beyond the sampler's own range


ERAS: dict[str, Era] = {
    "v1-before-0.21": Era(Text("era.v1_before_0_21"), 0.05, 0.5),
    "v1-from-0.21": Era(Text("era.v1_from_0_21"), 0.15, 0.7),
    "mrv2-before-0.29": Era(Text("era.mrv2_before_0_29"), 0.10, 0.5),
    "from-0.29": Era(Text("era.from_0_29"), 0.10, 0.7),
}
"""Fixed parts fitted by scripts/calibrate.py: per group, the value with the smallest weighted
median error (a reserve that is too small weighs three times as much as one too large: a pool
estimated high is the costlier mistake) among those that leave at most 40% of the group's rows,
one vote per source, with too small a reserve (``HIGH_SHARE_LIMIT``), so each value leans to a
larger reserve by a bound, not by the shape of the errors. What the fitting rows leave beyond the
modelled terms, in GiB: before v0.21 most within ±0.05 (86 rows; the sampler's peak hides the
forward pass there), with a tail up to 0.8 that the bound on rows estimated high weighs (it moved
the part to 0.15 with ten Llama-2 starts and back to 0.05 with one more source); from v0.21 on the V1 runner 0.02 to 0.35 on one GPU, with −1.0 for the
multi-GPU A100 and H200 starts (the per-peer term is too large on those boards) and 1.9 for
Qwen3.5-0.8B on an A100 PCIe (v0.28); model runner V2 before v0.29 0.03 to 0.16 with outliers both
ways, and from v0.29 0.01 to 0.19 with MI300X starts at 0.6 to 1.3. From v0.21 the forward pass, the
Triton pass and non-torch memory set the reserve, and what they cost beyond the modelled terms
varies by machine as much as by model; the spread carries that into the band. Rows whose GPU total
is known only within a range wider than the fit's step stay out of it (``fit_exclusion_reason`` in
the data: seven starts on a GPU the log does not name, an A40 by the author's text, and an L40S
start inferred within 43.7-45.5 GiB; the brief's Gemma 4 MTP row, whose drafter's weights kvcalc does
not count). Until the one-GPU non-torch figure was split at Hopper
(``PRE_HOPPER_NON_TORCH_GIB``) these parts absorbed the older GPUs' smaller figure and moved by
0.05-0.10 GiB whenever one source joined a group."""
SAMPLER_BYTES_PER_ENTRY = 38.5
"""Peak activation per (dummy request × vocabulary entry) of the PyTorch top-k/top-p sampler path,
which sorts the float32 logits (values + int64 indices, softmax, cumulative sum),
measured on H100 at 1,024 dummy requests (llm-d/llm-d-benchmark
config_explorer/empirical-vllm-memory-results.md): Llama-3.1-8B 4.76 GiB over 131.3 M entries,
Qwen3-0.6B 5.56 GiB over 155.6 M, gpt-oss 7.38 GiB over 205.9 M — 38.4 to 38.9 bytes."""
SAMPLER_BYTES_FLASHINFER = 14.0
"""The same with FlashInfer's top-k/top-p kernels, which sort nothing, where the warm-up runs them
alone (the V1 runner before v0.21). Read from the code: the model-dtype logits (2 B), their
float32 copy (4 B), FlashInfer's top-k-masked logits (4 B) and their softmax (4 B)
(top_k_top_p_sampling_from_logits). A DEBUG breakdown of a v0.10.1 main build agrees: Llama-3.2-1B
with 256 × 128,256 entries and FlashInfer's sampler peaks at 0.45 GiB, 14.7 B per entry, over a
0.12 GiB forward pass; gpt-oss-120b at TP 4 on A100s with vLLM 0.10.1.1 left 0.86 GiB for
everything besides weights and KV cache, less than half of what the sort-based path needs over
its 256 × 201,088 entries. From v0.21 the V1 warm-up runs the native path after FlashInfer's
(Rule.V1_SAMPLER_WARMS_NATIVE) and costs ``SAMPLER_BYTES_TRITON``: a B300 log of Gemma-4-31B on
the V1 runner (v0.26) peaks at 3.90 GiB over 1,024 × 262,144 entries, 14.3 B. The brief's
vllm#58580 (Gemma-4-26B-A4B with MTP on an H200, v0.28) peaks at 1.89 GiB over the same entries:
its breakdown is a model runner V2 start (``SAMPLER_BYTES_MRV2_GREEDY`` and V2's sampler counts in
its 1.17 GiB of non-torch memory), not a V1 one."""
SAMPLER_BYTES_TRITON = 17.0
"""The same with vLLM's Triton top-k/top-p kernels (Rule.TRITON_TOP_K_TOP_P: batches of 8 rows or more
skip the sort). Read from the code, the warm-up holds the model-dtype logits (2 B), their float32
copy, which the kernels mask in place (4 B), the probabilities (4 B) and the exponential draw (4 B),
14 B, plus a cached row buffer per SM: the public v0.19.1 logs leave 15.9 B per entry on an H100
(Qwen2.5-Coder-14B, 1,024 × 152,064 entries, 2.49 GiB for everything besides weights and KV cache
with the 79.19 GiB total of older drivers; 0.07 GiB less with the 79.11 of current ones) and 17.7 B
on an A100 40GB (Qwen3-8B, 256 × 151,936 entries, 0.82 GiB with the 39.39 GiB total the catalog then
had; 0.09 GiB more with the 39.49 current hosts print), and the B300 Gemma-4-31B log 14.3 B. An A10G
log of the same release leaves room for 34 B, so the band keeps the sort-based cost as its upper end
there."""
SAMPLER_BYTES_MRV2_GREEDY = 4.0
"""Model runner V2, every release: its dummy sampler run meets sampling states left at their
defaults (top_k = vocabulary, top_p = 1), so neither FlashInfer's kernels nor a sort run whatever
sampler is configured; it draws with the Gumbel kernel and the peak is about one fp32 copy of the
logits (vllm/v1/worker/gpu/model_runner.py ``_dummy_sampler_run`` and gpu/sample/states.py in the
v0.28.0 and v0.32.0 wheels and on 2026-08-13). Public logs agree: RTX 4090 v0.27.1 0.08-0.31 GiB
of peak activation over 256 × 151,936 entries; an RTX 3090 v0.28.0 run with FlashInfer's sampler
off peaks at 0.20 GiB over 256 × 128,256; a Quadro RTX 6000 v0.28 run (no FlashInfer) at its
forward pass; an H200 v0.31 pair of 1,024 and 32 sequences at the same 0.48 GiB. Some v0.28 logs
(L4, L40S, RTX 5090 with Qwen3-14B) leave room for a sort-sized peak (a cold torch.compile cache
adds 0.5-0.8 GiB in public warm/cold pairs), so the band's reserve end keeps the sort's cost."""
SAMPLER_BYTES_MRV2_WARMUP_FLASHINFER = 16.0
"""Model runner V2 from v0.33 (Rule.MRV2_SAMPLER_WARMUP_PASS): after the greedy pass the warm-up
samples again with warm-up parameters, and on FlashInfer's path (CUDA, compute capability 8.0 to
12.1) the peak holds, beside the greedy pass's logits, an fp32 copy (Sampler.apply_sampling_params,
4 B), FlashInfer's top-k-masked logits (top_k_mask_logits, 4 B) and their softmax (4 B):
flashinfer 0.7.2's top_k_top_p_sampling_from_logits takes that path for a per-row top-k tensor.
The greedy cost (4 B) plus these 12 B; read from the code, not yet measured."""
SAMPLER_BYTES_MRV2_WARMUP_TRITON = 8.0
"""The same pass where FlashInfer's sampler does not run (ROCm, compute capability below 8.0,
VLLM_USE_FLASHINFER_SAMPLER=0): vLLM's Triton top-k/top-p filters the fp32 copy in place, so the
greedy cost plus the copy (4 B). Its cached per-SM row buffer (SMs × vocabulary × 4 B, tens of
MiB) is not counted."""
SAMPLER_LOW_BYTES = 5.0
"""Per-entry cost at the optimistic end of the band when the sampler path is not known."""


def sampler_path(version: Version, model_runner_v2: bool, platform: str,
                 flashinfer_sampler: bool | None = None, capability: str = "") -> str:
    """Which sampler the profile run's dummy sampling takes: "greedy" (model runner V2 before v0.33,
    whose warm-up never runs top-k/top-p: ``SAMPLER_BYTES_MRV2_GREEDY``), "v2-flashinfer" or
    "v2-triton" (model runner V2 from v0.33, which samples again with warm-up parameters:
    Rule.MRV2_SAMPLER_WARMUP_PASS), "flashinfer", "triton" (vLLM's own top-k/top-p kernels, from
    v0.17), "flashinfer-native" (the V1 runner from v0.21 samples once with FlashInfer and
    once more on the native path, Rule.V1_SAMPLER_WARMS_NATIVE, so the warm-up costs what the Triton
    kernels cost; under 8 dummy requests the native path sorts, a few MiB not modelled) or "pytorch"
    (sort-based). ``flashinfer_sampler`` is the user's
    ``VLLM_USE_FLASHINFER_SAMPLER`` (None: unset). FlashInfer's sampler runs on CUDA only, on
    compute capability 7.5 to 12.1, 8.0 to 12.1 from v0.24, which leaves Turing out
    (FlashInferBackend.supports_compute_capability, Rule.FLASHINFER_WITHOUT_TURING; T4s and
    RTX 20xx cards take vLLM's Triton kernels instead); ``capability`` is the GPU's ("" when unknown:
    taken as supported). Where the release's default depends on the install (before v0.11.1), the
    sort-based path is taken, the larger peak: an estimate that errs should err low, and the band's
    optimistic end (the smaller reserve) covers FlashInfer."""
    cc = parse_capability(capability)
    if model_runner_v2:
        if not applies(Rule.MRV2_SAMPLER_WARMUP_PASS, version):
            return "greedy"
        supported = platform == "cuda" and (cc is None or (8, 0) <= cc <= (12, 1))
        return "v2-flashinfer" if supported and flashinfer_sampler is not False else "v2-triton"
    on = flashinfer_sampler
    if on is None:
        on = bool(flashinfer_sampler_default(version))
    lowest = (8, 0) if applies(Rule.FLASHINFER_WITHOUT_TURING, version) else (7, 5)
    if on and platform == "cuda" and (cc is None or lowest <= cc <= (12, 1)):
        return "flashinfer-native" if applies(Rule.V1_SAMPLER_WARMS_NATIVE, version) else "flashinfer"
    return native_sampler_path(version, platform)


def native_sampler_path(version: Version, platform: str) -> str:
    """vLLM's own top-k/top-p (vllm/v1/sample/ops/topk_topp_sampler.py ``apply_top_k_top_p``):
    "triton" from v0.17 on CUDA and ROCm (Rule.TRITON_TOP_K_TOP_P), "pytorch" (the sort) otherwise."""
    if platform in ("cuda", "rocm") and applies(Rule.TRITON_TOP_K_TOP_P, version):
        return "triton"
    return "pytorch"


SAMPLER_BYTES = {"greedy": SAMPLER_BYTES_MRV2_GREEDY, "v2-flashinfer": SAMPLER_BYTES_MRV2_WARMUP_FLASHINFER,
                 "v2-triton": SAMPLER_BYTES_MRV2_WARMUP_TRITON, "flashinfer": SAMPLER_BYTES_FLASHINFER,
                 "flashinfer-native": max(SAMPLER_BYTES_FLASHINFER, SAMPLER_BYTES_TRITON),
                 "triton": SAMPLER_BYTES_TRITON, "pytorch": SAMPLER_BYTES_PER_ENTRY}
SAMPLER_NAMES = {"greedy": Text("sampler.greedy"), "v2-flashinfer": Text("sampler.v2_flashinfer"),
                 "v2-triton": Text("sampler.v2_triton"), "flashinfer": Text("sampler.flashinfer"),
                 "flashinfer-native": Text("sampler.flashinfer_then_native"),
                 "triton": Text("sampler.triton"), "pytorch": Text("sampler.pytorch")}


REJECTION_LOGITS_BYTES = 2
"""Bytes of one logit as the model computes it (bf16/fp16) in the rejection sampler's warm-up."""


SAMPLER_BYTES_TRITON_READ = 14.0
"""The part of ``SAMPLER_BYTES_TRITON`` read from the code (logits, their float32 copy, the
probabilities and the exponential draw); the rest is the kernels' cached row buffer."""


def native_top_k_top_p_bytes(version: Version, platform: str) -> float:
    """Bytes per entry that vLLM's native top-k/top-p (``native_sampler_path``) holds beyond its
    float32 input: the sort's values, indices and scratch (the measured sort-based sampler less its
    model-dtype logits and their float32 copy), or what the Triton kernels add to a copy they mask
    in place (the measured Triton sampler less what the code accounts for: their row buffer)."""
    if native_sampler_path(version, platform) == "triton":
        return SAMPLER_BYTES_TRITON - SAMPLER_BYTES_TRITON_READ
    return SAMPLER_BYTES_PER_ENTRY - REJECTION_LOGITS_BYTES - 4


def rejection_warmup_bytes(version: Version, first_pass: float, native: float) -> float:
    """Bytes per (dummy request × vocabulary entry) of the V1 runner's sampler warm-up with
    speculative decoding (vllm/v1/worker/gpu_model_runner.py ``_dummy_sampler_run``: after the plain
    sampler, the rejection sampler over 2 × max_num_seqs random logits). From v0.11.1
    (Rule.REJECTION_WARMUP_SAMPLES_BONUS; vllm/v1/sample/rejection_sampler.py) it holds the random
    logits (2 rows per request), the bonus rows' copy and their float32 'raw_logits', and the target
    rows in float32, cloned from v0.14 (Rule.REJECTION_CLONES_TARGET); on top of these it samples the
    bonus rows with the plain sampler (``first_pass`` less its own logits, plus the float32 copy),
    filters the target rows with the native top-k/top-p (``native``), then keeps their probabilities,
    an exponential draw and, from v0.17, its reciprocal (Rule.REJECTION_INVERTS_Q). Its largest stage
    or the plain pass, whichever is more: 30 B with vLLM's Triton kernels (a public A10G n-gram start
    of Qwen3.5-4B, v0.18, keeps 0.44 GiB more than without speculation, where this gives 0.45 over
    the vision tower's pass that peaks otherwise), 50.5 B with the sort from v0.14 to v0.16. Before
    v0.11.1 the rejection sampler took max_num_seqs target rows and filtered them in the model dtype,
    below the plain pass. Model runner V2's speculative warm-up is not modelled."""
    if not applies(Rule.REJECTION_WARMUP_SAMPLES_BONUS, version):
        return first_pass
    d = REJECTION_LOGITS_BYTES
    held = 3 * d + 4 + 4 + (4 if applies(Rule.REJECTION_CLONES_TARGET, version) else 0)
    bonus = first_pass + 2 * d + 4
    tail = held + 4 + 4 + (4 if applies(Rule.REJECTION_INVERTS_Q, version) else 0)
    return max(first_pass, bonus, held + native, tail)


def sampler_bytes_per_entry(version: Version, model_runner_v2: bool, platform: str,
                            flashinfer_sampler: bool | None = None, capability: str = "") -> float:
    """Bytes of profile peak per (dummy request × vocabulary entry) on the path ``sampler_path`` picks."""
    return SAMPLER_BYTES[sampler_path(version, model_runner_v2, platform, flashinfer_sampler, capability)]


SINGLE_GPU_NON_TORCH_GIB = 0.13
"""Non-torch memory of one GPU working alone (allocator and library workspaces, the kernels loaded
at first use) on NVIDIA GPUs from Hopper on (compute capability 9.0 and later): 0.13-0.14 GiB on H100
with v0.11 in five llm-d breakdowns (llm-d/llm-d-benchmark
config_explorer/empirical-vllm-memory-results.md), 0.13 on an H100 NVL with v0.11.0; 0.07 on H100
SXM and NVL with v0.10 (21 DEBUG breakdowns), 0.22 on an H100 (v0.26, model runner V2), 0.25 on a
B300 (v0.26). The fitted fixed parts (``ERAS``) carry how it moved between releases."""
PRE_HOPPER_NON_TORCH_GIB = 0.04
"""The same on NVIDIA GPUs before Hopper (compute capability below 9.0: Turing, Ampere, Ada): every
such single-GPU breakdown in the data prints about a third of the Hopper figure of its release,
0.02 GiB with v0.10 (A100 PCIe, A40, L40S, L4, RTX 3090, RTX 4080, RTX 4090: 29 DEBUG lines from
seven sources) and 0.04 on an L40S with v0.11.0, where Hopper prints 0.07 and 0.13; an RTX 4080
prints 0.06-0.07 with v0.26 (H100 0.22). Part of the gap is PyTorch's choice of cuBLAS workspace
by architecture (aten/src/ATen/cuda/CublasHandlePool.cpp ``parseChosenWorkspaceSize``: 32 MiB from
compute capability 9, 8 MiB before), part the larger kernel images Hopper loads. Counting the Hopper
figure on these GPUs left public starts on small consumer and cloud cards 0.1 GiB short of their
pool (-5 to -7% on 2 to 6 GiB pools)."""


ROCM_NON_TORCH_GIB = 0.55
"""The same on AMD GPUs (ROCm). Public ROCm starts that compile the model keep more than the CUDA
figure gives: beyond kvcalc's other terms and the fitted fixed part, with 0.13 GiB here, a W7900
leaves 0.54 GiB (Qwen3-14B, v0.16 dev), an MI300X VF 0.29 (Qwen2.5-14B, v0.17.1; its log prints no
total, taken as the 191.69 GiB the other MI300X logs print), an MI210 0.61 (Qwen2.5-7B, v0.17.0), an
MI355X 0.68 (MiniMax-M2.5 FP8, v0.22), an MI300X 0.50 (Llama-3.3-70B FP8 on model runner V2, v0.30,
two starts) and 0.75 to 1.06 (Gemma 4 E2B, 26B-A4B and 31B on V2, a v0.31 nightly); at TP 2, two
MI300Xs 0.24 (v0.11.1, no total printed either) and two gfx1030 cards 0.47 (the brief's vllm#38107,
a v0.18 source build with 16 sequences); an eager RX 7900 GRE start 0.22 (Qwen2.5-0.5B): nine
sources on CDNA2, CDNA3, CDNA4, RDNA2 and RDNA3. The MI300X breakdowns of V2 show where it sits:
0.90 GiB of non-torch memory for Llama-3.3-70B, of which V2's sampler counts are 0.50, and 2.12 and
2.23 for Gemma 4 E2B and 31B, of which they are 1.03, where an H100 prints 0.13-0.22 (ROCm's
libraries and kernel images; the cause is not identified). Two multi-GPU starts do not show it: an
eager MI300X TP 4 start (-0.50; eager starts keep less on CUDA too) and MI355X TP 2 and TP 4 starts
whose quick all-reduce buffers kvcalc counts at 4 GiB (-0.06 and +0.41). The figure sits at the
middle of what the compiled starts leave (0.24 to 1.06 GiB beyond the CUDA figure); from 0.60 the
weighted-median fit of the fixed parts (scripts/calibrate.py) would move the v0.29+ fixed part for
every GPU (0.15 to 0.30 GiB), which the CUDA rows do not support."""


def single_gpu_non_torch(platform: str, capability_major: int) -> tuple[float, Text | None]:
    """Non-torch GiB of one GPU alone and what the basis adds to say why it is not the Hopper figure:
    ``ROCM_NON_TORCH_GIB`` on AMD GPUs, ``PRE_HOPPER_NON_TORCH_GIB`` on NVIDIA GPUs before compute
    capability 9.0, ``SINGLE_GPU_NON_TORCH_GIB`` otherwise (Hopper and later, or a GPU whose
    architecture is not known, where the larger figure is the safe one)."""
    if platform == "rocm":
        return ROCM_NON_TORCH_GIB, Text("basis.non_torch_rocm", cuda=SINGLE_GPU_NON_TORCH_GIB)
    if platform == "cuda" and 0 < capability_major < 9:
        return PRE_HOPPER_NON_TORCH_GIB, Text("basis.non_torch_pre_hopper")
    return SINGLE_GPU_NON_TORCH_GIB, None


def single_gpu_non_torch_gib(platform: str, capability_major: int) -> float:
    """The GiB of ``single_gpu_non_torch``."""
    return single_gpu_non_torch(platform, capability_major)[0]


MULTI_GPU_NON_TORCH_GIB = 0.45
"""Added to that per peer a GPU talks to when the GPUs reach each other directly (NVLink, or
peer-to-peer over PCIe): NCCL's point-to-point buffers and custom all-reduce are set up per peer
in GPU memory. Measured 0.55 GiB of non-torch memory at TP 2 against 0.13 GiB at TP 1 on H100
(llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md, Llama-3.3-70B-FP8 vs
Llama-3.1-8B); at TP 4 a v0.27 log on RTX PRO 6000s prints 1.70 GiB (consumed minus weights), near
the 1.48 GiB three peers give. See ``gpu_peers``."""
CUBLAS_PREPAID_BYTES = 100 << 20
"""What the first cuBLAS and cuBLASLt calls take from free memory on one GPU (bytes): handles and
their lazily loaded kernels outside torch (68 MiB) and torch's 32 MiB cuBLAS workspace, measured on
an H200 with torch 2.11.0+cu130 by scripts/probe_cublas_handles.py (2026-11-30: the first
8,192-token bf16 and fp16 GEMMs of a profile pass drop free memory by 100 MiB, and by nothing more
once v0.33's 16 × 16 warm-up has run). Before v0.33 the profile run paid it and vLLM counted it;
from v0.33 ``init_device`` makes the handles before the first snapshot
(Rule.CUBLAS_HANDLES_BEFORE_SNAPSHOT), so it leaves the reserve. vLLM 0.33 ships torch 2.14, and
kernel images differ by GPU, so this is a measured figure from one machine, not a law."""


def cublas_prepaid_bytes(version: Version, platform: str, capability_major: int = 0) -> int:
    """Bytes the reserve no longer holds because cuBLAS was set up before vLLM's first snapshot
    (CUDA from v0.33; ROCm's hipBLASLt runs the same lines but is not measured, so it is left as
    before); before Hopper at most the whole one-GPU non-torch figure, of which cuBLAS is a part."""
    if platform != "cuda" or not applies(Rule.CUBLAS_HANDLES_BEFORE_SNAPSHOT, version):
        return 0
    return min(CUBLAS_PREPAID_BYTES, int(single_gpu_non_torch_gib(platform, capability_major) * GIB))


NO_P2P_NON_TORCH_GIB = 0.15
"""Added once, whatever the number of peers, where the GPUs cannot reach each other directly
(GeForce cards, whose driver allows no peer-to-peer; cloud PCIe cards such as the L4 and L40S;
``Gpu.peer_to_peer``): NCCL then stages through host memory and keeps no buffer per peer on the
GPU (and vLLM's custom all-reduce is off past two PCIe-only GPUs). Two same-node A100 TP 2 runs
without P2P leave 0.12-0.14 GiB per GPU more than their TP 1 twins (dennislee22/vLLM-benchmarking,
v0.10.1.1); twelve such multi-GPU logs (L4, L40S, RTX 5090, W6800, A100s across Ray nodes) leave
-0.8 to +0.2 GiB beyond the other terms, 0.13 at their upper quarter, where a too-small reserve
weighs three times. At TP 4 the same cost holds: Qwen2.5-72B over four L40S (v0.19) and
Qwen3-VL-30B-A3B over four RTX 3090s (v0.11) leave 0.1 GiB, not three peers' worth. (Those figures
count 0.13 GiB of one-GPU non-torch memory; with ``PRE_HOPPER_NON_TORCH_GIB`` on these pre-Hopper
cards the same logs land at −4.6 to +1.6%, most of them still low, so the term stays.)"""
MAX_TP_PEERS = 3
"""TP peers counted at most: the public logs go up to TP 4; beyond it the band's top carries the rest."""
NVLS_NON_TORCH_GIB = 0.5
"""Added per GPU where a TP group of more than two GPUs shares NVSwitch multicast (``Gpu.nvswitch``:
HGX/DGX Hopper and Blackwell boards, GB200/GB300 trays): there NCCL turns on NVLink SHARP, which it
leaves off for two GPUs (nccl src/transport/nvls.cc ``ncclNvlsInit``: ``gpuCount <= 2`` returns
without it), and sets up multicast buffers and channels beyond the per-peer ones when vLLM's
all-reduces grow past the custom all-reduce's range, inside the profile. NCCL's own NVLS buffers
(16 channels × 2 × 1 MiB × the ranks, NCCL 2.2x) account for 0.1-0.25 GiB only, so the figure is
the public logs': ten starts at TP 4 and 8 on such boards keep 0.3 to 1.5 GiB beyond the other terms
(H100 Qwen3-32B 0.60 and 0.85, MiniMax-M2.5 1.05; H200 GLM-5.1 0.41 twice, Qwen3.5-27B 0.32; B200
Kimi-K2.5 1.02 and 0.92; GB300 MiniMax-M2.5 1.50), their TP 2 runs none (H100 Llama-3.3-70B and
Qwen3-32B breakdowns, 0.55 GiB non-torch at TP 2), and A100 HGX boards, whose NVSwitch has no
multicast, fall below the per-peer term at TP 4 (Seed-OSS-36B, 1.2 GiB). gpt-oss-120b over four
and eight H200s keeps 0.8-0.9 GiB less than the other terms, so the typical figure is below the
median of the ten, and the band's low end leaves it out."""


QUICK_REDUCE_BUFFER_BYTES = 2 * (1 << 31)
"""ROCm quick all-reduce's buffer on each GPU of a TP group: a two-stage data buffer of twice the
largest problem, 2 GiB by default (csrc/quickreduce/quick_reduce.h ``DeviceComms::init``:
``data_buffer_size = 2 * kMaxProblemSize``, ``kMaxProblemSize = INT32_MAX + 1``), allocated with
hipMalloc when the worker joins its group, after vLLM's first memory snapshot, so the profile counts
it as non-torch memory. Public MI355X logs with it on (INT4) keep 3.4 GiB more at TP 2 and 4.2 GiB
more at TP 4 than kvcalc's other terms did with NVIDIA's one-GPU figure, 3.0 and 3.8 with AMD's
(``ROCM_NON_TORCH_GIB``) (InferenceX runs of MiniMax-M2.5 and Kimi-K2.5, v0.21/v0.22)."""
QUICK_REDUCE_ARCHS = ("gfx94", "gfx95")
QUICK_REDUCE_WORLD_SIZES = (2, 4, 8)


ALLREDUCE_FUSION_MAX_INPUT_MIB: dict[int, dict[int, float]] = {
    90: {2: 64, 4: 2, 8: 0.5},
    100: {2: 64, 4: 32, 8: 1},
    103: {2: 64, 4: 64, 8: 2},
}
"""The largest all-reduce input (MiB) FlashInfer's all-reduce takes, by compute capability and TP
size (``FI_ALLREDUCE_FUSION_MAX_SIZE_MB`` in vllm/compilation/passes/fusion/allreduce_rms_fusion.py,
which ``PassConfig.default_fi_allreduce_fusion_max_size_mb`` returns to the fusion pass and to the
standalone all-reduce alike; the same in the v0.17.0-v0.33.0 wheels except B300 at TP 8:
``ALLREDUCE_FUSION_MAX_INPUT_MIB_FROM_0_29``)."""
ALLREDUCE_FUSION_MAX_INPUT_MIB_FROM_0_29: dict[int, dict[int, float]] = {103: {8: 4}}
"""v0.29.0 raises B300's TP 8 entry from 2 to 4 MiB (Rule.FLASHINFER_ALLREDUCE_STANDALONE, the same
wheel)."""
MNNVL_TUNED_MAX_MIB: tuple[tuple[Version, dict[tuple[int, int], float]], ...] = (
    (parse_version("0.33.0"), {(100, 8): 128, (103, 4): 80, (103, 8): 128}),
    (parse_version("0.29.0"), {(103, 4): 80, (103, 8): 64}),
)
"""``FI_MNNVL_ALLREDUCE_MAX_SIZE_MB`` (vllm/distributed/device_communicators/all_reduce_utils.py),
one node, newest first: on the MNNVL backend these sizes replace the table's for the standalone
all-reduce and raise the workspace's token count (``get_fi_ar_workspace``: max(max_token_num, size /
(hidden × dtype bytes))). The v0.29.0-v0.32.0 wheels carry the second row, v0.33.0 the first."""
ALLREDUCE_FUSION_BUFFERS = 4
"""flashinfer ``trtllm_create_ipc_workspace_for_all_reduce_fusion`` (flashinfer/comm/trtllm_ar.py,
0.7.4): one data buffer of TP × max_token_num × hidden × 2 B and three Lamport buffers of the same
size on every GPU."""
MNNVL_LAMPORT_BUFFERS = 3
MNNVL_ONE_SHOT_THRESHOLD_BYTES = 64 * 1024 * 8 * 2
"""flashinfer ``MNNVLAllReduceFusionWorkspace`` (flashinfer/comm/trtllm_mnnvl_ar.py, 0.7.2, which
vLLM 0.33.0 pins): three Lamport buffers, each the larger of the one-shot size at the 1 MiB
threshold (tokens × hidden × TP × dtype bytes) and the two-shot size (2 × ⌈tokens / TP⌉ × TP ×
hidden × dtype bytes), so about 6 × tokens × hidden × dtype bytes whatever the TP size."""


def fusion_max_input_mib(version: Version, cc: tuple[int, int], tp: int) -> float | None:
    """The table's largest input (MiB) for this GPU and TP size in ``version``, None where FlashInfer's
    all-reduce does not run (compute capability other than 9.0 and 10.x, or a TP size it lacks)."""
    key = cc[0] * 10 + cc[1]
    if applies(Rule.FLASHINFER_ALLREDUCE_STANDALONE, version):
        newer = ALLREDUCE_FUSION_MAX_INPUT_MIB_FROM_0_29.get(key, {}).get(tp)
        if newer:
            return newer
    return ALLREDUCE_FUSION_MAX_INPUT_MIB.get(key, {}).get(tp)


def mnnvl_tuned_max_mib(version: Version, cc: tuple[int, int], tp: int) -> float | None:
    for since, table in MNNVL_TUNED_MAX_MIB:      # newest first
        if version >= since:
            return table.get((cc[0] * 10 + cc[1], tp))
    return None


def allreduce_backend(version: Version, nvswitch: bool) -> str:
    """FlashInfer's all-reduce backend on one node (``_resolve_fi_ar_backend`` in
    vllm/distributed/device_communicators/flashinfer_all_reduce.py): "trtllm" before v0.25; from
    v0.25 "mnnvl" where the GPUs share NVSwitch multicast (HGX/DGX boards), with "trtllm" as the
    fallback elsewhere (Rule.FLASHINFER_ALLREDUCE_MNNVL)."""
    return "mnnvl" if nvswitch and applies(Rule.FLASHINFER_ALLREDUCE_MNNVL, version) else "trtllm"


def allreduce_workspace_bytes(backend: str, tp: int, tokens: int, hidden: int, dtype_bytes: int) -> int:
    """One GPU's FlashInfer all-reduce workspace for ``tokens`` × ``hidden`` inputs (bytes):
    ``ALLREDUCE_FUSION_BUFFERS`` × TP × tokens × hidden × dtype bytes on trtllm; on MNNVL three Lamport
    buffers of max(one-shot, two-shot) size (``MNNVL_ONE_SHOT_THRESHOLD_BYTES``)."""
    if backend == "trtllm":
        return ALLREDUCE_FUSION_BUFFERS * tp * tokens * hidden * dtype_bytes
    one_shot_tokens = min(MNNVL_ONE_SHOT_THRESHOLD_BYTES // (tp * dtype_bytes * hidden), tokens)
    one_shot = one_shot_tokens * hidden * tp * dtype_bytes
    two_shot = 2 * cdiv(tokens, tp) * tp * hidden * dtype_bytes
    return MNNVL_LAMPORT_BUFFERS * max(one_shot, two_shot)


def allreduce_fusion_bytes(version: Version, platform: str, capability: str, tp: int, mnbt: int,
                           hidden: int, dtype_bytes: int, compiled: bool, nvswitch: bool = False) -> int:
    """FlashInfer's all-reduce workspace on one GPU, made inside the profile run, so vLLM counts it as
    non-torch memory; 0 where none is made there. CUDA, compute capability 9.0 or 10.x, a TP group of
    2 or more on one node.

    Compiled (Rule.ALLREDUCE_RMS_FUSION_DEFAULT, from v0.17): the fusion pass makes it for
    min(largest input / (hidden × dtype bytes), max_num_batched_tokens) tokens
    (vllm/compilation/passes/fusion/allreduce_rms_fusion.py), raised on MNNVL from v0.29 to the tuned
    size (``MNNVL_TUNED_MAX_MIB``). Eager, from v0.29 (Rule.FLASHINFER_ALLREDUCE_STANDALONE):
    the standalone all-reduce makes it at the profile's first all-reduce for largest input /
    (hidden × dtype bytes) tokens, unclamped, but only when that input (max_num_batched_tokens ×
    hidden × dtype bytes) fits the largest input; otherwise it is made after the profile and not
    counted. 0.5 GiB (trtllm) or 0.375 GiB (MNNVL) at TP 2 on Hopper with 64 MiB inputs."""
    if platform != "cuda" or tp < 2 or hidden <= 0:
        return 0
    cc = parse_capability(capability)
    if cc is None or cc[0] not in (9, 10) or (cc[0] == 9 and cc[1] != 0):
        return 0
    max_mib = fusion_max_input_mib(version, cc, tp)
    if not max_mib:
        return 0
    backend = allreduce_backend(version, nvswitch)
    standalone = applies(Rule.FLASHINFER_ALLREDUCE_STANDALONE, version)
    tuned = mnnvl_tuned_max_mib(version, cc, tp) if backend == "mnnvl" and standalone else None
    per_token = hidden * dtype_bytes
    if compiled and applies(Rule.ALLREDUCE_RMS_FUSION_DEFAULT, version):
        tokens = min(int(max_mib * (1 << 20)) // per_token, mnbt)
        if tuned:
            tokens = max(tokens, int(tuned * (1 << 20)) // per_token)
    elif standalone and not compiled:
        largest = int((tuned or max_mib) * (1 << 20))
        if mnbt * per_token > largest:
            return 0
        tokens = largest // per_token
    else:
        return 0
    return allreduce_workspace_bytes(backend, tp, tokens, hidden, dtype_bytes)


def quick_reduce_bytes(level: str | None, platform: str, arch: str, tp: int, dtype_bytes: int) -> int:
    """Bytes of ROCm quick all-reduce's buffer on one GPU (0 where vLLM does not start it):
    ``VLLM_ROCM_QUICK_REDUCE_QUANTIZATION`` set to a codec (not NONE), ROCm on an MI300-series or
    MI355X GPU (gfx94x/gfx95x), a TP group of 2, 4 or 8 (INT3: 2 only) and a 16-bit model dtype
    (vllm/distributed/device_communicators/quick_all_reduce.py ``QuickAllReduce.__init__``). A TP
    group across nodes does not start it either; kvcalc assumes one node."""
    level = (level or "NONE").upper()
    if level == "NONE" or platform != "rocm" or not str(arch).startswith(QUICK_REDUCE_ARCHS):
        return 0
    if tp not in QUICK_REDUCE_WORLD_SIZES or (level == "INT3" and tp != 2) or dtype_bytes != 2:
        return 0
    return QUICK_REDUCE_BUFFER_BYTES


def gpu_peers(tp: int, pp: int) -> int:
    """GPUs one GPU exchanges data with: the other members of its TP group (at most
    ``MAX_TP_PEERS``), plus one for the neighbouring pipeline stage when PP > 1."""
    return min(tp - 1, MAX_TP_PEERS) + (1 if pp > 1 else 0)


def peer_buffer_gib(peer_to_peer: bool) -> float:
    """What talking to other GPUs adds to non-torch memory: per peer where they reach each other
    directly, once in all where NCCL stages through host memory (``non_torch_estimate``)."""
    return MULTI_GPU_NON_TORCH_GIB if peer_to_peer else NO_P2P_NON_TORCH_GIB


def nvls_bytes(tp: int, nvswitch: bool, platform: str = "cuda") -> int:
    """What NCCL's NVLink SHARP adds to one GPU's non-torch memory (``NVLS_NON_TORCH_GIB``): a TP group
    of more than two GPUs on boards with NVSwitch multicast, CUDA only."""
    return int(NVLS_NON_TORCH_GIB * GIB) if platform == "cuda" and nvswitch and tp > 2 else 0


def non_torch_estimate(tp: int, pp: int, spread_gib: float, fixed_gib: float = 0.0,
                       peer_to_peer: bool = True,
                       single_gib: float = SINGLE_GPU_NON_TORCH_GIB) -> tuple[int, int, int]:
    """Typical, low and high non-torch bytes on one GPU whose own part is ``single_gib``
    (``single_gpu_non_torch_gib``), the era's fixed part included (it is at
    least ``spread_gib`` uncertain, so the low end drops it first). The low end assumes the GPUs
    do not reach each other directly (a platform can refuse peer-to-peer: two A100 TP 2 runs in
    pods, a TP 4 run of gpt-oss-120b with one A100 per Ray node); the high end assumes they do
    (a card ``peer_to_peer`` False can still sit on a host that allows it)."""
    peers = gpu_peers(tp, pp)
    staged = NO_P2P_NON_TORCH_GIB * min(peers, 1)
    nt = single_gib + (MULTI_GPU_NON_TORCH_GIB * peers if peer_to_peer else staged)
    low = single_gib + staged
    high = single_gib + MULTI_GPU_NON_TORCH_GIB * (peers + max(0, tp - 1 - MAX_TP_PEERS))
    return (int((nt + fixed_gib) * GIB),
            int((max(0.0, low - spread_gib / 2) + max(0.0, fixed_gib - spread_gib)) * GIB),
            int((max(high, nt) + fixed_gib + spread_gib / 2) * GIB))


def penalty_buffer_bytes(version: Version, model_runner_v2: bool, max_num_seqs: int, vocab: int) -> int:
    """Model runner V2's sampler keeps an int32 output-token count per (request slot × vocabulary
    entry) and a packed prompt bit mask (``PenaltiesState.output_bin_counts`` and
    ``prompt_bin_mask``, vllm/v1/worker/gpu/sample/penalties.py), allocated with the sampler on the
    last pipeline stage before the profile run: 1,024 × 128,256 × 4.125 B = 0.50 GiB. Counted from
    v0.27, where vLLM started charging the drop in free memory since its first snapshot (#49208,
    Rule.MRV2_PENALTY_BUFFER); V2 allocated them before, but the budget did not see them."""
    if not (model_runner_v2 and applies(Rule.MRV2_PENALTY_BUFFER, version)):
        return 0
    return max_num_seqs * (vocab * 4 + cdiv(vocab, 32) * 4)


def dense_token_id_rows(version: Version, model_runner_v2: bool, spec_method: str | None,
                        pinned_memory: bool | None = None, mrope_dims: int = 0) -> tuple[int, bool]:
    """(rows of max_model_len int32 values per request slot that model runner V2 keeps in GPU
    memory, whether for want of pinned host memory). V2 keeps every request's token ids
    (``RequestState.all_token_ids``) and, for M-RoPE models, their prefill positions (``RopeState``,
    ``mrope_dims`` rows per request) in pinned host memory the GPU reads through UVA, except where
    it cannot (vllm/v1/worker/gpu/states.py, mm/rope.py and buffer_utils.py ``StagedWriteTensor``):
    n-gram speculation scans the token ids on the GPU (Rule.NGRAM_DENSE_TOKEN_IDS, from v0.32, the
    first release that runs n-gram on V2; suffix decoding likewise from v0.34, Rule.MODEL_RUNNER_V1_REMOVED),
    and without pinned memory (WSL2, where
    ``is_pin_memory_available`` is false unless VLLM_WSL2_ENABLE_PIN_MEMORY=1) both live in GPU
    memory, allocated at start-up: from v0.30, where V2 starts without pinned memory at all
    (Rule.MRV2_WITHOUT_PINNED_MEMORY; engine.calculate runs such a start on V1 before)."""
    if not model_runner_v2:
        return 0, False
    if pinned_memory is False and applies(Rule.MRV2_WITHOUT_PINNED_MEMORY, version):
        return 1 + mrope_dims, True
    if spec_method in ("ngram", "ngram_gpu") and applies(Rule.NGRAM_DENSE_TOKEN_IDS, version):
        return 1, False
    if spec_method == "suffix" and applies(Rule.MODEL_RUNNER_V1_REMOVED, version):
        return 1, False     # suffix decoding's token history, on V2 from v0.34
    return 0, False


def dense_token_ids_bytes(version: Version, model_runner_v2: bool, spec_method: str | None,
                          max_num_seqs: int, max_model_len: int, pinned_memory: bool | None = None,
                          mrope_dims: int = 0) -> int:
    """Bytes of ``dense_token_id_rows``: 1,024 × 131,072 × 4 B = 0.5 GiB of token ids (three
    times that again for a Qwen-VL model's positions without pinned memory)."""
    rows, _ = dense_token_id_rows(version, model_runner_v2, spec_method, pinned_memory, mrope_dims)
    return token_id_rows_bytes(rows, max_num_seqs, max_model_len)


def token_id_rows_bytes(rows: int, max_num_seqs: int, max_model_len: int) -> int:
    """``rows`` int32 rows of max_model_len values for each of max_num_seqs request slots."""
    return max_num_seqs * rows * max_model_len * 4


def non_torch_basis(tp: int, pp: int, era: Era, peer_to_peer: bool = True, compiled: bool = True,
                    single_gib: float = SINGLE_GPU_NON_TORCH_GIB, single_note: Text | None = None,
                    peer_to_peer_said: bool = False) -> Text:
    """Why the non-torch term is what it is; ``peer_to_peer_said``: the user or a log set the GPUs'
    peer-to-peer (Settings.peer_to_peer), rather than the card's usual case."""
    peers = gpu_peers(tp, pp)
    per_peer = peer_buffer_gib(peer_to_peer)
    if not peers:
        base = Text("basis.non_torch", single=single_gib)
    elif peer_to_peer_said:
        base = Text("basis.non_torch_peers_p2p_set", single=single_gib, peers=peers, per_peer=per_peer) if peer_to_peer \
            else Text("basis.non_torch_peers_no_p2p_set", single=single_gib, peers=peers, per_peer=per_peer)
    else:
        base = Text("basis.non_torch_peers", single=single_gib, peers=peers, per_peer=per_peer) if peer_to_peer \
            else Text("basis.non_torch_peers_no_p2p", single=single_gib, peers=peers, per_peer=per_peer)
    if single_note is not None:     # why this GPU's one-GPU figure is not the Hopper one
        base = join_texts([base, single_note])
    if not era.fixed_gib:
        return base
    if not compiled:
        return join_texts([base, Text("basis.non_torch_fixed_eager", fixed=era.fixed_gib, era=era.name)])
    return join_texts([base, Text("basis.non_torch_fixed", fixed=era.fixed_gib, era=era.name)])


CUDA_GRAPH_MIB_PER_GRAPH = {"v1": (7.0, 3.0, 18.0), "v2": (5.0, 3.0, 8.0)}
"""Typical, low and high MiB of vLLM's CUDA-graph estimate per captured graph. The estimator
(vllm/v1/worker/gpu_model_runner.py ``profile_cudagraph_memory``) captures the two largest graphs
of each mode and extrapolates: first capture + (graphs − 1) × the second capture's cost. On the
V1 runner, logs that print the graph counts give 6.5–7.6 MiB per graph for dense models of 28 to
60 layers (RTX 4080 Laptop 0.19 GiB for 30 graphs, L40S 0.37 GiB for 54, B300 Gemma 4 0.76 GiB for
102, 0.08 GiB for 12), gpt-oss-120b 6.7-7.1 MiB (H200, 150-158 graphs, v0.22); small models go
lower, 5.0 MiB for Qwen2.5-1.5B on a T4 (v0.24, 86 graphs) and 3.3 MiB for Qwen3-4B on a 96 GB card
(v0.20.2, 102 graphs, 0.33 GiB; the GPU inferred, an RTX PRO 6000), the band's lower end, while large MoE
models cost more per graph: 12.8 MiB for Qwen3-30B-A3B (0.15 GiB for 12 graphs), 16.7 for
Kimi-K2.5 and 17.7 for MiniMax-M2.5 (NVFP4, TP 4 on GB300s, v0.21: 2.70 GiB for 166 graphs, 1.76
for 102), the band's upper end; no rule found from the logs sets the MoE cost apart (it follows
neither the layers nor the experts of the four), so the typical figure stays the dense one.
Model runner V2, whose estimate vLLM subtracts from v0.29: 4.5–6.3 MiB per graph in the
estimates public logs print (median 5.1: Qwen2.5-7B on RTX 3090 and A40, Qwen3-4B on an RTX 5060
Ti, Llama-3.2-1B on an H200 with 18 and 102 graphs, v0.29–v0.31); captured graphs took 2.7–4.8
MiB each (A100 Llama-3.1-8B v0.31, RTX 4090 and RTX 4080 v0.26–v0.27), the band's lower end."""
CUDA_GRAPH_MIB_CAPTURED_V2 = (3.2, 1.8, 4.8)
"""Typical, low and high MiB per graph that model runner V2's capture keeps on CUDA, which v0.34's
extensible KV cache measures instead of taking vLLM's estimate (the free memory it sizes from is read
after capture; ``capture_model`` logs the same drop as "Graph capturing finished in N secs, took X
GiB", after emptying the allocator's cache). Public V2-runner starts (v0.29-v0.31) print both
figures, and the capture keeps about 0.6 of the estimate: 0.27 GiB of an estimated 0.52 for 102
graphs of Llama-3.2-1B on an H200 (2.7 MiB a graph) and 0.06 of 0.11 for 18, 0.14 of 0.27 for 54
graphs of Qwen2.5-7B on an A40 (2.7), 0.09 of 0.15 for 30 on an RTX 3090 (3.1), 0.23 and 0.29 of
0.38 for 86 graphs of Qwen3-4B on an RTX 5060 Ti (2.7, 3.5), 0.15 of 0.34 for 86 of Qwen2.5-1.5B on
a T4 (1.8, the low end), 0.20 of 0.35 on an A100 (2.4), 0.29 of 0.50-0.57 for 86 graphs of Gemma 4
on L40S (3.5) and 0.39 of 0.55 for Qwen3-8B on an RTX PRO 4500 (4.6, near the high end). On ROCm
the capture keeps what the estimate says (MI300X: 3.90 of 3.94, 8.64 of 8.91 GiB), so
``ROCM_GRAPH_MIB_PER_LAYER`` stays."""
ROCM_GRAPH_MIB_PER_LAYER = (1.1, 0.9, 2.0)
"""Typical, low and high MiB per captured graph and decoder layer on ROCm, where a graph costs far
more than on CUDA and grows with the model's depth (HIP graphs keep each layer's buffers): the
estimates that MI300X logs of model runner V2 print over its 102 default graphs give 1.13 MiB per
graph and layer for Gemma-4-E2B (35 layers, 3.94 GiB), 1.14 for Gemma-4-26B-A4B (30 layers, 3.40)
and 1.09 for Gemma-4-31B (60 layers, 6.54; a v0.31 nightly), and the E2B capture of v0.29 took
3.90 GiB (1.12); a W8A8 FP8 Llama-3.3-70B (80 layers, 86 graphs, v0.30.0) prints 8.91 GiB with the
ROCM_ATTN backend vLLM picks and 9.14 with --attention-backend ROCM_AITER_FA (1.33 and 1.36: the
FP8 activation-quantization kernels add nodes to every layer; kvcalc does not count nodes, so the
typical figure stays with the bf16 models and these two sit inside the band); MI355X captures of
9 graphs on the V1 runner took 1.5 (Kimi-K2.5 TP 4, MiniMax-M2.5)
to 2.0 (MiniMax-M2.5 TP 2) MiB per graph and layer, the band's top. kvcalc's CUDA figures
(``CUDA_GRAPH_MIB_PER_GRAPH``) were 7 to 13 times too small there. The estimator is the same
(vllm/v1/worker/gpu_model_runner.py ``profile_cudagraph_memory``); ROCm subtracts it from v0.26
(Rule.ROCM_CUDA_GRAPH_ESTIMATE)."""
FLASHINFER_WORKSPACE_BYTES = 394 * MIB
"""FlashInfer's attention workspace (VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE, 394 MiB in the v0.18 to
v0.33 wheels), which vLLM's metadata builder allocates at the first forward pass that builds
attention metadata (vllm/v1/attention/backends/flashinfer.py ``_get_workspace_buffer``). The profile
run builds none (V1: ``_dummy_run`` with ``is_profile``; model runner V2: ``skip_attn=True``), so the
first full CUDA graph captured while vLLM estimates the graphs' memory allocates it, and the
estimate carries it. Three Seed-OSS-36B starts over four A100s (v0.23.0, three graphs each) print
0.04 GiB twice with FlashAttention and 0.40 GiB with an fp8 KV cache, which puts them on FlashInfer. Without full
graphs, or where vLLM does not subtract its estimate, the workspace comes after the KV cache is
sized and out of the budget. The band's optimistic end leaves it out: a start of a source build
between v0.21.0 and v0.22.0 on an RTX 5090 Laptop (FlashInfer attention, an fp8 KV cache, 86
graphs) estimated 0.49 GiB, about 5.8 MiB a graph with no workspace, and its capture after the KV
cache took 0.95 GiB; the v0.21.0-v0.23.0 wheels capture and measure alike, so why is not known.
The band's top counts the whole workspace; the typical value ``FLASHINFER_IN_ESTIMATE_BYTES``."""
FLASHINFER_IN_ESTIMATE_BYTES = 266 * MIB
"""How much FlashInfer adds to vLLM's CUDA-graph estimate in public starts that differ from a twin
only by the attention backend: 0.36 GiB over four A100s with three graphs (Seed-OSS-36B, v0.23.0:
0.40 against FlashAttention's 0.04), 0.26 to 0.29 GiB on an RTX PRO 4500 MIG slice with 86 graphs
(Qwen3-8B FP8, V1 runner, v0.29.0: 0.81 against FlashAttention's 0.55 and Triton's 0.52-0.55), 0.19 to
0.21 GiB on an L4 with model runner V2 (Qwen3-8B FP8, v0.29.0: 0.47-0.49 against 0.28-0.29). The
middle setup's 0.26 GiB is the typical value: less than the whole 394 MiB workspace, with the gap
growing with the graphs captured (FlashInfer's graphs may cost less each than FlashAttention's or
Triton's, whose per-graph figure kvcalc uses), but three setups do not fix a rule."""
FLASHINFER_WORKSPACE_BYTES_PER_ELEMENT = 16
"""Bytes per batched token, query head and head dimension of FlashInfer's metadata-builder workspace from
v0.26 (vllm/v1/attention/backends/flashinfer.py ``FLASHINFER_PREFILL_WORKSPACE_BYTES_PER_ELEM``,
Rule.FLASHINFER_WORKSPACE_BY_BATCH, vllm#48428)."""


def flashinfer_workspace_bytes(version: Version, mnbt: int, heads_per_gpu: int, head_size: int) -> int:
    """Bytes of FlashInfer's metadata-builder workspace (``_get_workspace_buffer``): 394 MiB before v0.26;
    from v0.26 max(394 MiB, max_num_batched_tokens × query heads one GPU runs × head size × 16 B), sized
    for the prefill's temporaries of a whole batch (Rule.FLASHINFER_WORKSPACE_BY_BATCH). vllm#50780 saw
    what this costs: 128 KiB per batched token for Qwen3.5-122B-A10B (32 heads of 256) on an RTX PRO
    6000 Blackwell, about 4 GiB of "CUDA graph memory" where v0.23 printed 0.56; vllm#52872 a step from
    0.52 to 0.89 GiB between 4,096 and 8,192 batched tokens for a 24-head Qwen3.6-27B on an RTX 5090
    (the formula: flat to 4,096, then +0.37 GiB)."""
    if not applies(Rule.FLASHINFER_WORKSPACE_BY_BATCH, version):
        return FLASHINFER_WORKSPACE_BYTES
    return max(FLASHINFER_WORKSPACE_BYTES, mnbt * heads_per_gpu * head_size * FLASHINFER_WORKSPACE_BYTES_PER_ELEMENT)


HYBRID_FIRST_CAPTURE_GIB = (0.25, 0.05, 0.50)
"""Added for models with Mamba/GDN layers: their first full capture runs over long contexts
(max_num_batched_tokens / size tokens each: ``profile_seq_lens`` in gpu_model_runner.py
``profile_cudagraph_memory``) and keeps the attention and state kernels' scratch. Where FlashInfer's
workspace lands in the estimate, the workspace holds it: fp8-cache Qwen3.6-35B-A3B starts on FlashInfer
print 0.36 to 0.47 GiB for 2 to 4 graphs (v0.20, RTX 5090 and GB10), the 394 MiB workspace and
under 0.1 GiB more, so there the workspace stands in for this term (``estimate_reserve``). Elsewhere
the starts keep 0.4 to 0.5 GiB beyond their graphs' share (bf16 Qwen3.6-27B over two A100s, 86
graphs, 0.96 GiB, v0.27; bf16 Qwen3.6-35B-A3B with MTP on a GB10, 14 and 50 graphs, 0.61 and 0.74
GiB, v0.22 and v0.25), which sets the band's top, and piecewise-only starts (FlashInfer with MTP)
0.1 GiB or less (0.09 GiB for 5 graphs of Qwen3.6-27B, v0.20, RTX 5090), which sets its bottom.
Model runner V2's estimator (vllm/v1/worker/gpu/cudagraph_utils.py ``profile_cudagraph_memory``,
v0.27-v0.34) and its capture never run the long-context first capture (no ``profile_seq_lens``), so
the term is V1's alone: a v0.29 start of Qwen3.6-35B-A3B NVFP4 on an RTX 5090 (86 graphs) prints a
peak activation of 1.08 GiB, the applied estimate included, and captured 0.08 GiB."""
HYBRID_TOWER_EXCESS_GIB = 4.7
HYBRID_TOWER_EXCESS_MIN_TOKENS = 16384
HYBRID_TOWER_EXCESS_GIB_PER_16K = 2.5
"""What the band's reserve end adds for a model with Mamba/GDN layers whose vision tower vLLM
profiles, from 16,384 batched tokens on: public Qwen3.5/3.6 starts of that kind keep more than
kvcalc counts and the cause is not identified (the profile pass never runs the GDN core, and the
tower's own pass is the same at 8,192 and 16,384 tokens). Beyond kvcalc's terms they leave 2.5 GiB
(Qwen3.6-35B-A3B, 16,384 tokens, RTX 5090, v0.20), 4.1 and 4.7 GiB (Qwen3.6-35B-A3B and -27B,
65,536 tokens with four images, GB10, v0.20 and v0.23) and 4.3 GiB (Qwen3.6-35B-A3B with MTP,
32,768 tokens, GB10, v0.22), while text-only Qwen3.6-27B runs of 16,384 tokens
(--language-model-only, RTX 5090, v0.20) come out as kvcalc counts them, and 8,192-token runs
leave 0.1-0.9 GiB. Not in the typical value: the band's reserve end carries their envelope,
2.5 GiB per 16,384 batched tokens up to 4.7 GiB, and a note says why (engine,
note.hybrid_tower_excess)."""


def hybrid_tower_excess(hybrid: bool, tower_profiled: bool, mnbt: int) -> int:
    """Bytes the band's reserve end adds for what Mamba/GDN models profiling a vision tower keep
    beyond kvcalc's terms at large batches (the constants above); 0 where it does not apply."""
    if hybrid and tower_profiled and mnbt >= HYBRID_TOWER_EXCESS_MIN_TOKENS:
        per_16k = HYBRID_TOWER_EXCESS_GIB_PER_16K * mnbt / HYBRID_TOWER_EXCESS_MIN_TOKENS
        return int(min(HYBRID_TOWER_EXCESS_GIB, per_16k) * GIB)
    return 0


SAMPLER_ROWS: frozenset[str] = frozenset({"a100-40g-qwen3-8b-v0.19.1", "h100-qwen2.5-coder-14b-default-v0.19.1"})
"""Rows without a printed breakdown that fixed a sampler constant (SAMPLER_BYTES_TRITON)."""
UMA_ROWS: frozenset[str] = frozenset({
    "gb10-qwen3-0.6b-util0.6-v0.27.1", "gb10-gpt-oss-20b-util0.25-ngc-v0.13.0",
    "gb10-qwen3.6-35b-a3b-redhat-nvfp4-v0.20.0", "gb10-qwen3-30b-a3b-fp8-util0.3-fp8kv-cold-ngc-v0.13.0",
    "gb10-qwen2.5-14b-fp8dyn-util0.4-fp8kv-warm-ngc-v0.13.0", "gb10-qwen3.5-35b-a3b-fp8-v0.18.1rc1",
    "gb10-qwen3.6-35b-a3b-nvfp4-mtp2-v0.22.1rc1-a", "gb10-qwen3.6-35b-a3b-nvfp4-mtp2-v0.22.1rc1-b"})
"""The DGX Spark rows that set the unified-memory host terms (UMA_HOST_GIB, UMA_HYBRID_TOWER_GIB)."""
GRAPH_ROWS: frozenset[str] = frozenset({"rtxpro6000x2-deepseek-v4-flash-tp2-mtp2-len1m-mbt4k-seqs64-v0.25.0"})
"""Rows that set a CUDA-graph cost of their own (DeepSeek-V4's ``DSV4_GRAPH_MIB``), not the fixed parts:
the model's activation peak is its own reading of vLLM's code (deepseek_v4_profile.py), so
scripts/calibrate.py keeps them out of the fixed-part fit."""

FIT_ROWS: frozenset[str] = SAMPLER_ROWS | UMA_ROWS | GRAPH_ROWS | frozenset({
    "16g-qwen2.5-0.5b-v0.26.0-v2runner", "16g-qwen2.5-7b-awq", "24g-qwen3-8b-fp8-v0.10.2-debug", "a100-llama31-8b-v0.31.0",
    "44g-llama3.2-1b-main-475c1a0-debug-v0.10.1", "a100-80g-pcie-qwen3.5-0.8b-serve-util0.85-maxlen8k-seqs32-v0.28.0",
    "mi300x-rocm-gemma-4-26b-a4b-it-bf16-img0-audio0-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-12b-it-bf16-img0-audio0-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-12b-it-qat-fp8-text-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-12b-it-qat-fp8-text-util0.7-v2runner-cold-v0.31.1rc1-dev173",
    "mi300x-rocm-gemma-4-12b-it-qat-q4w4a16-text-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-12b-it-qat-w8a8-int8-text-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-e4b-it-bf16-img0-audio0-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-31b-it-bf16-img0-audio0-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-rocm-gemma-4-e2b-it-bf16-img0-audio0-v2runner-cold-v0.31.1rc1-dev23",
    "mi300x-vf-rocm-gemma-4-e2b-it-img4-audio0-v0.29.1rc1",
    "rtx3090-zephyr-7b-beta-eager-util0.95-maxlen8k-v0.10.2",
    "mi300x-vf-rocm-llama-3.3-70b-fp8-dynamic-noprefix-maxlen16k-rocmattn-v2runner-cold-v0.30.0",
    "mi300x-vf-rocm-llama-3.3-70b-fp8-dynamic-noprefix-maxlen16k-aiterfa-v2runner-cold-v0.30.0",
    "h200x2-gpt-oss-120b-tp2-marlin-seqs64-maxlen2068-nopc-v0.22.1", "a10g-qwen3-8b-maxlen8k-defaults-v0.30.0",
    "h200x4-gpt-oss-120b-tp4-marlin-seqs4-maxlen2068-nopc-v0.22.1",
    "h200x8-gpt-oss-120b-tp8-marlin-seqs4-maxlen2068-nopc-v0.22.1",
    "h200-qwen3-next-80b-tp2-v0.10.2", "llmd-h100-gpt-oss-20b",
    "llmd-h100-llama31-8b", "llmd-h100-llama33-70b-fp8-tp2", "llmd-h100-qwen3-0.6b", "llmd-h100-qwen3-32b",
    "llmd-h100-qwen3-32b-tp2",
    "rtx4090-wsl-qwen2.5-0.5b-default-util-v0.27.1", "rtx4090-wsl-qwen2.5-0.5b-v0.27.1-a",
    "rtx4090-wsl-qwen2.5-0.5b-v0.27.1-b", "rtxpro6000-qwen3-235b-fp8-tp4-v0.27",
    "a100-80g-qwen3-coder-30b-a3b-seqs16-v0.26.1rc1-dev",
    "rtx4080-laptop-wsl-qwen2.5-1.5b-seqs64-v0.20.0", "rtx4090-qwen2.5-7b-util0.85-maxlen2k-v0.24.0",
    "rtx4090-qwen3-30b-a3b-fp8-tp2ep-nop2p-util0.88-maxlen4k-v0.25.1",
    "b300-gemma-4-31b-it-v1runner-maxlen16k-v0.26.0", "kaggle-gemma-4-31b-it-seqs20-maxlen32k-v0.23.0",
    "rtx5060ti-wsl-typhoon2.5-qwen3-4b-util0.70-xinference-v0.30.0",
    "h100-nvl-deepseek-v2-lite-engine-debug-cold-v0.10.1.1", "h100-nvl-gpt-oss-20b-engine-debug-warm-v0.10.1.1",
    "h100-nvl-llama3.2-3b-base-engine-debug-warm-v0.10.1.1", "h100-nvl-llama3.2-3b-base-serve-debug-warm-v0.11.0",
    "h100-nvl-mistral-7b-v0.1-engine-debug-cold-v0.10.1.1", "h100-nvl-mistral-7b-v0.1-engine-debug-warm-v0.10.1.1",
    "h100-nvl-r1-distill-llama-8b-engine-debug-warm-v0.10.1.1", "l40s-llama3.2-3b-base-engine-debug-cold-v0.10.1.1",
    "l40s-llama3.2-3b-base-serve-debug-warm-v0.11.0",
    "a100-40g-pcie-llama3.2-3b-base-engine-debug-warm-v0.10.0", "a100-40g-pcie-mistral-7b-v0.1-engine-debug-warm-v0.10.0",
    "h100-nvl-gemma-7b-engine-debug-warm-v0.10.1.1", "h100-nvl-gpt-oss-20b-fisampler-engine-debug-cold-v0.10.1.1",
    "h100-nvl-llama-2-7b-engine-debug-warm-v0.10.1.1", "h100-nvl-llama3.1-8b-instruct-engine-debug-cold-v0.10.1.1",
    "h100-nvl-llama3.2-3b-base-fisampler-engine-debug-cold-v0.10.1.1", "h100-nvl-llama3.2-3b-base-maxlen16000-engine-debug-warm-v0.10.1.1",
    "h100-nvl-llama3.2-3b-base-maxlen64000-engine-debug-warm-v0.10.1.1", "h100-nvl-llama3.2-3b-base-serve-debug-warm-v0.10.1.1",
    "h100-nvl-mistral-7b-v0.1-bnb4-engine-debug-warm-v0.10.1.1", "h100-nvl-qwen1.5-7b-engine-debug-warm-v0.10.1.1",
    "h100-sxm-llama3.2-3b-base-engine-debug-cold-v0.10.1.1", "l40s-llama3.2-3b-base-fisampler-engine-debug-cold-v0.10.1.1",
    "l40s-mistral-7b-v0.1-engine-debug-warm-v0.10.1.1", "l40s-x2-llama3.2-3b-base-tp2-engine-debug-cold-v0.10.1.1",
    "a100-40g-pcie-llama-2-7b-engine-debug-warm-v0.10.0", "a100-40g-pcie-qwen1.5-7b-engine-debug-warm-v0.10.0",
    "h100-nvl-llama-2-7b-bnb4-engine-debug-warm-v0.10.1.1", "h100-nvl-llama-2-7b-engine-debug-cold-v0.10.1.1",
    "h100-nvl-llama-2-7b-fisampler-container-engine-debug-warm-v0.10.1.1", "h100-nvl-qwen1.5-7b-fisampler-container-engine-debug-warm-v0.10.1.1",
    "h100-nvl-qwen1.5-7b-node7-engine-debug-warm-v0.10.1.1",
    "h100-sxm-llama-2-7b-engine-debug-cold-v0.10.1.1", "h100-sxm-llama-2-7b-engine-debug-warm-v0.10.1.1",
    "h100-sxm-qwen1.5-7b-engine-debug-warm-v0.10.1.1", "l40s-llama-2-7b-engine-debug-cold-v0.10.1.1",
    "l40s-llama-2-7b-engine-debug-warm-v0.10.1.1", "l40s-qwen1.5-7b-engine-debug-warm-v0.10.1.1",
    "l40s-qwen1.5-7b-fisampler-engine-debug-warm-v0.10.1.1",
    "l4-qwen3-0.6b-bf16-eager-util0.85-maxlen1k-noprefix-modal-v0.10.2",
    "l40s-qwen3-8b-bf16-eager-util0.80-maxlen4k-mbt8k-noprefix-llm-lmeval-modal-v0.10.2",
    "l40s-qwen3-8b-bf16-eager-util0.90-maxlen4k-noprefix-modal-v0.10.2",
    "l40s-qwen3-8b-bf16-util0.90-maxlen1k-seqs256-noprefix-modal-cold-v0.10.2",
    "l40s-qwen3-8b-w4a16-awq-ct-eager-util0.75-maxlen4k-mbt8k-noprefix-llm-lmeval-modal-v0.10.2",
    "l40s-qwen3-8b-w4a16-awq-ct-eager-util0.90-maxlen4k-noprefix-modal-v0.10.2",
    "l40s-qwen3-8b-w4a16-awq-ct-util0.90-maxlen1k-seqs256-noprefix-modal-cold-v0.10.2",
    "l40s-qwen3-8b-w4a16-awq-ct-util0.90-maxlen1k-seqs256-noprefix-modal-warm-v0.10.2",
    "l40s-qwen3-8b-w4a16-gptq-ct-eager-util0.90-maxlen4k-noprefix-modal-v0.10.2",
    "l40s-qwen3-8b-bf16-eager-util0.75-maxlen4k-mbt8k-noprefix-llm-lmeval-modal-v0.10.2",
    "l40s-qwen3-8b-w4a16-gptq-ct-eager-util0.75-maxlen4k-mbt8k-noprefix-llm-lmeval-modal-v0.10.2",
    "l40s-qwen3-8b-w4a16-gptq-ct-util0.90-maxlen1k-seqs256-noprefix-modal-cold-v0.10.2",
    "a10g-qwen3-8b-bf16-maxlen8k-defaults-cold-v0.30.0",
    "rtx3090-qwen2.5-7b-awq-forced-awq-fp16-util0.90-maxlen4k-seqs8-runpod-cold-v0.22.1",
    "rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1", "h100-qwen3-30b-a3b-2507-maxlen4k-v0.10.2",
    "h200-llama32-1b-fp16-seqs1024-v0.31.0", "h200-llama32-1b-fp16-seqs32-v0.31.0",
    "h200-llama32-1b-fp16-seqs1024-eager-v0.31.0", "h200-llama32-1b-fp16-seqs1024-nograph-v0.31.0",
    "rtx3090-llama31-8b-awq-seqs256-nofisampler-v2runner-v0.28.0",
    "a100-40g-qwen3-4b-llm-util0.8-maxlen1056-seqs256-nopc-nofisampler-v2runner-cold-v0.28.0",
    "a100-40g-qwen3-4b-llm-util0.45-maxlen8k-nopc-nofisampler-v2runner-warm-v0.28.0",
    "h200-gpt-oss-120b-tp1-marlin-seqs4-maxlen2068-nopc-v0.22.0",
    "h200-gpt-oss-120b-tp1-marlin-seqs4-maxlen9472-nopc-v0.22.0",
    "gb300x4-minimax-m2.5-nvfp4-tp4-fp8kv-maxlen40k-noep-v0.21.0",
    "a100x4-seed-oss-36b-tp4-util0.95-seqs1-maxlen128k-cold-v0.23.0",
    "a100x4-seed-oss-36b-tp4-util0.95-seqs1-maxlen128k-warm-restart-v0.23.0",
    "a100x4-seed-oss-36b-tp4-util0.95-seqs1-maxlen512k-v0.23.0",
    "a100x4-seed-oss-36b-tp4-util0.95-seqs1-fp8kv-maxlen512k-v0.23.0",
    "a100-80g-x2-qwen3.6-27b-bf16-tp2-maxlen64k-cold-v0.27.1",
    "h100-ray-serve-qwen3-8b-maxlen131k-v2runner-v0.26.0",
    # first-start / restart pairs (compile_cache in the data)
    "a40-qwen2.5-7b-bf16-seqs128-nofisampler-cold-v0.31.0", "a40-qwen2.5-7b-gptq-int8-seqs128-nofisampler-cold-v0.31.0",
    "h200-llama32-1b-fp16-seqs1024-noasync-cold-v0.31.0", "h200-llama32-1b-fp16-seqs1024-pilot-cold-v0.31.0",
    "rtx4090-runpod-qwen3-1.7b-maxlen2k-seqs256-cold-v0.27.1", "rtx4090-runpod-qwen3-1.7b-maxlen2k-seqs256-warm-v0.27.1",
    "rtx4090-runpod-qwen3-8b-maxlen8k-cold-v0.27.1", "rtx4090-runpod-qwen3-8b-maxlen8k-warm-v0.27.1",
    "quadrortx6000-qwen2.5-1.5b-eager-llm-nofisampler-v2runner-v0.28.1rc1-dev",
    "a40-qwen2.5-7b-bf16-seqs128-nofisampler-v0.31.0", "a40-qwen2.5-7b-awq-seqs128-nofisampler-v0.31.0",
    "a40-qwen2.5-7b-gptq-int8-seqs128-nofisampler-v0.31.0",
    "rtx5090-wsl-qwen3.6-35b-a3b-nvfp4-marlin-lmonly-bs128-v0.29.0",
    "rtx3090-qwen2.5-7b-seqs64-mbt2k-util0.85-noprefix-cold-v0.29.0",
    "rtx3090-qwen2.5-7b-nixl-prefill-seqs64-mbt2k-util0.85-noprefix-warm-v0.29.0",
    "rtx3090-qwen2.5-7b-llm-seqs64-mbt16k-maxlen4352-util0.85-cold-v0.29.0",
    "rtx3090-qwen2.5-7b-llm-seqs64-mbt32k-util0.85-cold-v0.29.0",
    "rtx3090-qwen2.5-7b-llm-seqs64-mbt16k-maxlen16640-util0.90-cold-v0.29.0",
    "rtx3090x2-2node-ray-qwen2.5-14b-pp2-llm-seqs64-mbt16k-util0.85-cold-v0.29.0",
    "rtx4050-laptop-wsl-qwen2.5-3b-awq-v1runner-seqs32-cold-v0.29.0",
    "rtx4050-laptop-wsl-qwen2.5-3b-awq-v1runner-seqs32-warm-v0.29.0",
    "rtxpro4500-mig1g16-qwen3-8b-fp8-fa-maxlen4k-noprefix-cold-v0.29.0",
    "rtxpro4500-mig1g16-qwen3-8b-fp8-flashinfer-fp8kv-maxlen4k-noprefix-cold-v0.29.0",
    "rtxpro4500-mig1g16-qwen3-8b-fp8-flashinfer-maxlen4k-noprefix-cold-v0.29.0",
    "rtxpro4500-mig1g16-qwen3-8b-fp8-triton-attn-fp8kv-maxlen4k-noprefix-cold-v0.29.0",
    "rtxpro4500-mig1g16-qwen3-8b-fp8-forced-fa-maxlen4k-noprefix-cold-v0.29.0",
    "rtxpro4500-mig1g16-qwen3-8b-fp8-triton-attn-maxlen4k-noprefix-cold-v0.29.0",
    "quadrortx6000x2-qwen2.5-1.5b-eager-llm-tp2-nofisampler-v2runner-v0.28.1rc1-dev",
    "a10-qwen3-8b-awq-util0.9-maxlen8k-cold-v0.28.0", "a10-qwen3-8b-awq-util0.9-maxlen8k-warm-v0.28.0",
    "t4-qwen2.5-1.5b-fp16-util0.85-noprefix-maxlen4k-warm-v0.30.0", "rtx4080-wsl-qwen2-vl-2b-util0.8-maxlen4k-warm-v0.10.2",
    "a100-40g-qwen2.5-coder-1.5b-fp16-maxlen16k-cold-v0.31.0",
    "h100-qwen3-30b-a3b-2507-fp8-online-seqs64-mbt8k-maxlen8k-cold-v0.22.1",
    "h200-gemma-4-26b-a4b-it-bf16-util0.9-maxlen32k-warm-v0.20.2",
    "h100-qwen3-4b-maxlen40k-warm-v0.10.2", "l40s-gemma-4-e4b-it-util0.8-maxlen16k-nofisampler-v2runner-cold-v0.31.0",
    "rtx4090-autodl-qwen2.5-3b-base-fp16-seqs1-maxlen4k-cold-v0.10.2",
    "rtx4090-autodl-qwen2.5-3b-base-fp16-seqs1-maxlen4k-cold-rerun-v0.10.2",
    "rtxpro6000-qwen3-4b-util0.9-maxlen4k-warm-v0.20.2",
    "a100-40g-pcie-llama-2-13b-engine-debug-warm-v0.10.0",
    "h100-nvl-llama-2-13b-engine-debug-cold-v0.10.1.1",
    "h100-nvl-llama-2-13b-engine-debug-warm-v0.10.1.1",
    "h100-nvl-llama-2-7b-awq-engine-debug-warm-v0.10.1.1",
    "h100-nvl-llama-2-7b-gptq-engine-debug-warm-v0.10.1.1",
    "h100-nvl-mistral-7b-v0.1-awq-fp16-engine-debug-warm-v0.10.1.1",
    "h100-nvl-mistral-7b-v0.1-gptq-fp16-engine-debug-warm-v0.10.1.1",
    "h100-sxm-llama-2-13b-engine-debug-cold-v0.10.1.1",
    "l40s-llama-2-13b-engine-debug-warm-v0.10.1.1",
    "l40s-x2-llama-2-13b-tp2-engine-debug-cold-v0.10.1.1",
    "a100-40g-pcie-falcon-7b-engine-debug-warm-v0.10.0",
    "a100-40g-pcie-qwen1.5-0.5b-engine-debug-warm-v0.10.0",
    "h100-nvl-falcon-7b-engine-debug-warm-v0.10.1.1",
    "h100-nvl-falcon-7b-node7-engine-debug-warm-v0.10.1.1",
    "h100-nvl-qwen1.5-0.5b-engine-debug-warm-v0.10.1.1",
    "h100-nvl-qwen1.5-0.5b-node7-engine-debug-warm-v0.10.1.1",
    "h100-sxm-falcon-7b-engine-debug-warm-v0.10.1.1",
    "h100-sxm-qwen1.5-0.5b-engine-debug-warm-v0.10.1.1",
    "l40s-falcon-7b-engine-debug-warm-v0.10.1.1",
    "l40s-qwen1.5-0.5b-engine-debug-warm-v0.10.1.1",
    "h100-nvl-falcon-7b-fisampler-container-engine-debug-warm-v0.10.1.1",
    "h100-nvl-falcon-7b-node7-engine-debug-cold-v0.10.1.1",
    "h100-nvl-granite-3.3-8b-instruct-engine-debug-warm-v0.10.1.1",
    "h100-nvl-granite-3.3-8b-instruct-node7-engine-debug-cold-v0.10.1.1",
    "h100-nvl-granite-3.3-8b-instruct-node7-engine-debug-warm-v0.10.1.1",
    "h100-nvl-opt-6.7b-node7-engine-debug-cold-v0.10.0",
    "h100-nvl-opt-6.7b-node7-engine-debug-warm-v0.10.1.1",
    "h100-nvl-qwen1.5-0.5b-node7-engine-debug-cold-v0.10.1.1",
    "h100-sxm-falcon-7b-engine-debug-cold-v0.10.1.1",
    "h100-sxm-qwen1.5-0.5b-engine-debug-cold-v0.10.1.1",
    "l40s-falcon-7b-engine-debug-cold-v0.10.1.1",
    "l40s-falcon-7b-fisampler-engine-debug-cold-v0.10.1.1",
    "l40s-falcon-7b-fisampler-engine-debug-warm-v0.10.1.1",
    "l40s-qwen1.5-0.5b-engine-debug-cold-v0.10.1.1",
    "l40s-qwen1.5-0.5b-fisampler-engine-debug-warm-v0.10.1.1",
    "l40s-x8-qwen3-235b-a22b-2507-fp8-tp8ep-maxlen32k-cold-v0.10.2"})
"""Rows of data/vllm_logs.json whose breakdowns (or sampler cost) fixed the coefficients above
(scripts/calibrate.py). Breakdown rows of models whose multimodal tower kvcalc does not profile,
and rows that miss by more than any fixed part could explain, stay out: the fixed part would
absorb what they measure."""


def group_for(version: Version, model_runner_v2: bool) -> str:
    if version >= Version(0, 29, 0):
        return "from-0.29"
    if model_runner_v2:
        return "mrv2-before-0.29"
    return "v1-from-0.21" if version >= Version(0, 21, 0) else "v1-before-0.21"


def era_for(version: Version, model_runner_v2: bool = False) -> Era:
    return ERAS[group_for(version, model_runner_v2)]


def fixed_part_gib(era: Era, compiled: bool) -> float:
    """The era's fixed part, for compiled runs only: every V1 row that fits it compiles the model,
    and the public single-GPU --enforce-eager starts (v0.12 to v0.21: Llama-3.1-8B, Qwen3-30B-A3B,
    Qwen3.5-9B twice, Qwen3.6-27B, Qwen2.5-3B, Gemma-4-E2B) all leave less than the terms with it,
    by 0.07 to 0.35 GiB (two GLM-5.1 builds over eight H200s: +0.38 and -2.4); an eager start loads
    none of the kernels torch.compile generates (--enforce-eager sets the compilation mode to NONE,
    vllm/config/vllm.py)."""
    return era.fixed_gib if compiled else 0.0


def sampler_rows(max_num_seqs: int, mnbt: int) -> int:
    """Dummy requests of the profile run: one per sequence slot, at most one per token."""
    return min(max_num_seqs, mnbt)


def forward_bytes(config: dict[str, Any], mnbt: int, tp: int, dtype_bytes: int, compiled: bool = True,
                  modular_moe: bool = False, expert_tp: int | None = None) -> int:
    """The widest intermediate one GPU holds during the profile forward pass: the gated MLP's
    gate/up output and activation (3 × intermediate / TP per token) beside the hidden-size
    tensors still alive then, or the fused-MoE workspaces beside the same hidden-size tensors.
    Eager PyTorch keeps four hidden-size tensors (the MLP's input stays referenced by the calling
    layer until the MLP returns); a torch.compile'd graph frees the input after the gate/up
    projection and keeps three. Public logs whose forward pass sets the peak: compiled,
    Qwen2.5-7B at 16,384 and 32,768 batched tokens (RTX 3090, v0.29; 2.06 and 4.13 GiB, 135.7 KB
    per token, against 3 × 18,944 + 3 × 3,584 values = 135.2 KB) and Qwen2.5-0.5B at 32,768
    (v0.26, 1.06 GiB; 1.05 modelled); eager, Qwen2.5-1.5B at 8,192 on a Quadro RTX 6000 (v0.28;
    0.50 GiB at TP 1, 0.32 at TP 2; 0.50 and 0.30 modelled).

    The fused-MoE kernels give the gate/up output (2 × expert intermediate / TP per routed copy)
    and the down projection's per-expert output (hidden size) one buffer, since the first is dead
    when the second is written, and keep the activation (expert intermediate / TP) beside it: top-k
    × (max(2 × I / TP, hidden) + I / TP) per token (vllm/model_executor/layers/fused_moe/fused_moe.py
    ``fused_experts_impl``: ``cache13`` and ``intermediate_cache2``, v0.10 on; fused_marlin_moe.py
    ``intermediate_cache13``; modular_kernel.py ``workspace13``/``workspace2``). gpt-oss-20b over
    two RTX 5090s at 98,304 batched tokens (v0.17.1, vllm#36849) leaves about 4.4 GiB for
    activation; this gives 4.75, three separate caches 5.27. Up to v0.17 the Triton kernels work
    in chunks of VLLM_FUSED_MOE_CHUNK_SIZE tokens (32,768, then 16,384 from v0.12), which would make
    the workspace smaller beyond those batches; Marlin's never chunked and the one public log
    beyond a chunk peaks like an unchunked pass, so kvcalc does not chunk (the larger reserve).
    ``modular_moe``: the experts run through the modular kernel's workspaces instead
    (``moe_workspace_bytes``, Rule.MOE_WORKSPACE_KEPT). ``expert_tp``: how many GPUs split each
    expert's intermediate size (``tp``, or 1 under --enable-expert-parallel, where every GPU runs
    whole experts on all the tokens for its own experts: FusedMoEParallelConfig sets the MoE TP
    size to 1 and the workspaces keep one row per token and routed copy)."""
    t = text_part(config)
    H = _n(t, "hidden_size")
    inter = max(_n(t, "intermediate_size"), _n(t, "intermediate_size_mlp"))
    dense = 3 * cdiv(inter, tp) + (3 if compiled else 4) * H
    moe = 0
    if expert_count(t):
        etp = tp if expert_tp is None else expert_tp
        topk, i = _routed_experts(t, etp)
        experts_part = moe_workspace_bytes(config, 1, etp, 1) if modular_moe else topk * (max(2 * i, H) + i)
        moe = experts_part + (3 if compiled else 4) * H
    return mnbt * max(dense, moe) * dtype_bytes


def _routed_experts(t: dict[str, Any], tp: int) -> tuple[int, int]:
    """(experts per token, one expert's intermediate size on one GPU) under the names configs use;
    the dense intermediate size stands in where the config gives no expert size."""
    topk = _n(t, "num_experts_per_tok") or _n(t, "experts_per_token") or _n(t, "top_k_experts") or 1
    inter = _n(t, "moe_intermediate_size") or max(_n(t, "intermediate_size"), _n(t, "intermediate_size_mlp"))
    return topk, cdiv(inter, tp)


def moe_workspace_bytes(config: dict[str, Any], mnbt: int, tp: int, dtype_bytes: int) -> int:
    """The two workspaces of the modular fused-MoE kernel's Triton experts at ``mnbt`` tokens: one
    of top-k × max(expert intermediate / TP, hidden size) values per token (the activation's
    output, later the down projection's, and the layer's output where it is larger), one of top-k ×
    max(2 × expert intermediate / TP, hidden size) (the gate/up output)
    (vllm/model_executor/layers/fused_moe/fused_moe.py ``TritonExperts.workspace_shapes``;
    modular_kernel.py ``_allocate_buffers``, v0.14-v0.33). 0 for a model without experts.

    From v0.14 (Rule.MOE_WORKSPACE_KEPT) the worker's WorkspaceManager hands them out and keeps
    them (vllm/v1/worker/workspace.py only grows its buffers), so after the profile's forward pass
    they stay allocated while the sampler warms up: the peak is the larger of the forward pass and
    these workspaces plus the sampler. A public H200 start of Qwen3-30B-A3B-Instruct-2507 (v0.15.0,
    8,192 batched tokens, 1,024 sequences) leaves 6.03 GiB for activation beside the 5.58 GiB
    sampler: the workspaces' 0.50 GiB closes it; an A100 start of Qwen3-Coder-30B-A3B (v0.26, 2,048
    tokens, 16 sequences) prints a 0.23 GiB peak, the workspaces' 0.125 GiB plus the sampler's
    0.09. Quantized experts run other kernels (Marlin, DeepGEMM, CUTLASS, FlashInfer, Triton's
    fp8 path) through the same manager, with shapes of their own that kvcalc does not size, and the
    public quantized starts do not show one size: an RTX PRO 6000 breakdown of Qwen3-235B-A22B FP8
    (v0.27) peaks at 0.76 GiB where these shapes would add 1.0, while NVFP4 Kimi-K2.5 over four B200s
    (v0.22) leaves room for them, and L40S starts of RedHatAI's FP8 Gemma-4-26B-A4B (v0.29, Triton's
    fp8 experts on compute capability 8.9) print 1.37 GiB more non-torch memory at 16,384 batched
    tokens than at 2,048, where these shapes step by 1.23 (from v0.27 vLLM charges the drop in free
    memory, so what stays allocated prints as non-torch). For those the band's reserve end counts
    the Triton shapes and the typical value does not."""
    t = text_part(config)
    if not expert_count(t):
        return 0
    H = _n(t, "hidden_size")
    topk, i = _routed_experts(t, tp)
    return mnbt * topk * (max(i, H) + max(2 * i, H)) * dtype_bytes


QWEN_VL_MAX_IMAGE_TOKENS = 16384
"""Tokens of the largest image the Qwen-VL processors accept: ``size.longest_edge`` 16,777,216
pixels in 32 × 32 units for Qwen3-VL / Qwen3.5 / Qwen3.6 (16-pixel patches merged 2 × 2), and
``max_pixels`` 12,845,056 in 28 × 28 units for Qwen2-VL / Qwen2.5-VL (14-pixel patches)
(preprocessor_config.json; vllm/model_executor/models/qwen2_vl.py ``get_max_image_tokens``)."""
QWEN3_VL_VIDEO_TOKENS = 12288
"""Embeddings of Qwen3-VL's largest video: 25,165,824 pixels over all frames (the video
processor's ``longest_edge``), in 2 × 32 × 32 units (qwen3_vl.py ``get_max_video_tokens``)."""
QWEN3_VL_FORMATTED_VIDEO_TOKENS = QWEN3_VL_VIDEO_TOKENS * 25 // 2
"""153,600: what the encoder budget counted for that video between #25557 and #30475 (12.5 prompt
tokens per video token, for the timestamps; Rule.QWEN3_VL_FORMATTED_VIDEO)."""
GEMMA4_IMAGE_TOKENS = 280
"""Gemma 4's soft tokens per image when the vision config does not say (``default_output_length``)."""
GEMMA4_AUDIO_TOKENS = 750
"""Tokens of Gemma 4's longest audio clip (the processor's ``audio_seq_length``), on the models with an
audio tower (E2B, E4B)."""
GEMMA4_VIDEO_FRAMES = 32
GEMMA4_VIDEO_SOFT_TOKENS = 70
"""Soft tokens of one video frame (gemma4_mm.py ``_resolve_video_max_soft_tokens``' default)."""
GEMMA4_VIDEO_TOKENS_PER_FRAME = GEMMA4_VIDEO_SOFT_TOKENS + 2 + 6
"""Gemma 4's largest multimodal item is a video: 32 sampled frames of 70 soft tokens, each
framed by 8 marker tokens (vllm/model_executor/models/gemma4_mm.py ``get_mm_max_tokens_per_item``;
gemma4_unified.py counts the 12B's the same way:
2,496 tokens). Every frame runs through the vision tower as 70 × pooling_kernel_size² patches
(630). A public RTX 5090 sweep of Gemma-4-26B-A4B (v0.19, 1, 3 and 6 video items) leaves about
0.46 GiB per item beyond the language model's pass, what the per-patch cost below gives
(20,160 patches × 21.8 KB)."""


def encoder_items(tokens_per_item: int, mnbt: int, max_num_seqs: int, max_model_len: int,
                  limit: int | None = None) -> int:
    """Items of the largest size the warm-up encodes: the encoder budget (max(max_num_batched_tokens,
    tokens per item)) over tokens per item, at most as many as max_num_seqs prompts hold (a prompt
    holds max_model_len // tokens per item, at most ``limit``, the modality's
    --limit-mm-per-prompt, at least 1), at least 1 (vllm/multimodal/encoder_budget.py
    ``_get_max_items``)."""
    per_prompt = max_model_len // tokens_per_item
    per_prompt = max(1, per_prompt if limit is None else min(limit, per_prompt))
    return max(1, min(max(mnbt, tokens_per_item) // tokens_per_item, max_num_seqs * per_prompt))


def tower_modalities(config: dict[str, Any]) -> tuple[str, ...]:
    """The modalities a model's towers serve: images (and videos, for the Qwen-VL family and Gemma
    4) through its vision tower, audio through its audio tower."""
    mods: list[str] = []
    if isinstance(config.get("vision_config"), dict):
        mods.append("image")
        if str(config.get("model_type")) in (*QWEN_VL_MODEL_TYPES, *GEMMA4_WRAPPER_TYPES):
            mods.append("video")
    if isinstance(config.get("audio_config"), dict):
        mods.append("audio")
    return tuple(mods)


def tower_profile_modelled(config: dict[str, Any], version: Version = NEWEST, max_model_len: int = 0,
                           limits: MmLimits | None = None, processor: MmProcessor | None = None) -> bool:
    """Whether ``vision_profile`` sizes the pass this model's warm-up runs: the Qwen-VL family
    (Qwen2-VL to Qwen3.6), Gemma 3's images and Gemma 4's videos. vLLM warms up only the modality with the most
    tokens per item among those --limit-mm-per-prompt leaves on (gpu_model_runner.py
    ``get_modality_with_max_tokens``): for Gemma 4 a video (2,496) outweighs an audio clip
    (``audio_seq_length`` 750), so the E2B/E4B audio encoder adds weights but no profile pass —
    unless videos are limited to 0."""
    return largest_tower_item(config, version, max_model_len, limits, processor) is not None


@dataclass(frozen=True)
class TowerItem:
    """The largest item of the modality vLLM's warm-up encodes (``get_modality_with_max_tokens``)."""

    modality: str       # "image" or "video"
    budget_tokens: int  # tokens per item as the encoder budget counts them
    embeddings: int     # embeddings the tower hands the language model per item
    patches: int        # patches through the tower per item


def qwen2_vl_video_frames(version: Version, max_model_len: int, image_tokens: int = QWEN_VL_MAX_IMAGE_TOKENS) -> int:
    """Frames of Qwen2-VL / Qwen2.5-VL's largest dummy video (qwen2_vl.py
    ``get_num_frames_with_most_features``): as many full-size frames as ``max_model_len`` holds
    (every two frames make one temporal patch of ``image_tokens`` tokens; at least one frame), at
    most 14 from v0.11 (Rule.QWEN2_VL_VIDEO_14_FRAMES), 16 before."""
    cap = 14 if applies(Rule.QWEN2_VL_VIDEO_14_FRAMES, version) else 16
    return max(1, min(2 * (max_model_len // image_tokens), cap))


def checkpoint_max_pixels(config: dict[str, Any]) -> int | None:
    """The checkpoint's own image limit: ``max_pixels`` (or ``size.longest_edge``) of its
    preprocessor_config.json, which vLLM's processor reads by default. The page and the CLI attach
    that file to the config as ``preprocessor_config`` when they fetch a model from Hugging Face;
    None when it is absent or not a whole number of pixels."""
    pre = config.get("preprocessor_config")
    pixels = processor_max_pixels(pre) if isinstance(pre, dict) else None
    return pixels if max_pixels_ok(pixels) else None


def qwen_vl_image_tokens(vision_config: dict[str, Any], version: Version, max_pixels: int | None) -> int:
    """Tokens of the largest image a Qwen-VL processor makes: ``QWEN_VL_MAX_IMAGE_TOKENS`` with the
    checkpoints' own processors; with ``max_pixels`` from --mm-processor-kwargs, max_pixels over
    (patch × merge)² — from #29692 (Rule.QWEN_VL_IMAGE_SIZE_FACTORED) the largest count whose
    closest factor pair keeps an aspect ratio of at most 200 (qwen2_vl.py
    ``get_image_size_with_most_features``), before it a square image resized under max_pixels."""
    if max_pixels is None:
        return QWEN_VL_MAX_IMAGE_TOKENS
    unit = (_n(vision_config, "patch_size") or 16) * (_n(vision_config, "spatial_merge_size") or 2)
    if not applies(Rule.QWEN_VL_IMAGE_SIZE_FACTORED, version):
        return max(1, math.isqrt(max_pixels) // unit) ** 2
    for n in range(max_pixels // (unit * unit), 0, -1):
        short = next(d for d in range(math.isqrt(n), 0, -1) if n % d == 0)
        if n // short <= 200 * short:
            return n
    return 1


def qwen_vl_largest_item(config: dict[str, Any], version: Version, max_model_len: int,
                         limits: MmLimits | None = None, processor: MmProcessor | None = None) -> TowerItem | None:
    """What a Qwen-VL model's warm-up encodes. Images: ``QWEN_VL_MAX_IMAGE_TOKENS``. Qwen2-VL and
    Qwen2.5-VL count a video by full-size frames (``qwen2_vl_video_frames``), so with a long
    ``max_model_len`` the video outweighs the image: 14 frames, 114,688 tokens at 128,000 (a public
    v0.23 A100 log: 'budget of 114688 tokens, and profiled with 1 video items'). Qwen3-VL counted
    its video at 12.5 tokens per embedding between #25557 and #30475 (153,600 > 16,384: one video of
    12,288 embeddings); since then, and for Qwen3.5/3.6, the image is larger. A tie goes to the
    image before #34533 and to the video after (Rule.MM_MODALITY_TIE_BY_NAME); both are the same
    size. A modality --limit-mm-per-prompt sets to 0 is never chosen; None when both are.
    --mm-processor-kwargs ``max_pixels`` (else the checkpoint's own, ``checkpoint_max_pixels``)
    resizes the image (``qwen_vl_image_tokens``) and, for Qwen2-VL / Qwen2.5-VL, the video's
    frames; Qwen3-VL sizes its video by its video processor."""
    v = config["vision_config"]
    mt = str(config.get("model_type"))
    image_on = limits is None or not limits.off("image")
    video_on = limits is None or not limits.off("video")
    unit = (_n(v, "spatial_merge_size") or 2) ** 2
    pixels = processor.max_pixels if processor and processor.max_pixels else checkpoint_max_pixels(config)
    per_image = qwen_vl_image_tokens(v, version, pixels)
    image = TowerItem("image", per_image, per_image, per_image * unit)
    if mt in QWEN2_VL_MODEL_TYPES:
        frames = qwen2_vl_video_frames(version, max_model_len, per_image)
        tokens = cdiv(frames, 2) * per_image
        # the --limit-mm-per-prompt video num_frames option caps the dummy video the tower encodes;
        # the encoder budget still counts the full one
        encoded = cdiv(min(frames, limits.video_frames), 2) * per_image if limits and limits.video_frames else tokens
        video = TowerItem("video", tokens, encoded, encoded * unit)
        wins = tokens > image.budget_tokens or (tokens == image.budget_tokens and
                                                applies(Rule.MM_MODALITY_TIE_BY_NAME, version))
    elif mt in QWEN3_VL_MODEL_TYPES and applies(Rule.QWEN3_VL_FORMATTED_VIDEO, version) \
            and not applies(Rule.QWEN3_VL_PLAIN_VIDEO, version):
        video = TowerItem("video", QWEN3_VL_FORMATTED_VIDEO_TOKENS, QWEN3_VL_VIDEO_TOKENS, QWEN3_VL_VIDEO_TOKENS * unit)
        wins = True
    else:
        video = TowerItem("video", QWEN3_VL_VIDEO_TOKENS, QWEN3_VL_VIDEO_TOKENS, QWEN3_VL_VIDEO_TOKENS * unit)
        wins = video.budget_tokens > image.budget_tokens or (video.budget_tokens == image.budget_tokens and
                                                             applies(Rule.MM_MODALITY_TIE_BY_NAME, version))
    if video_on and (wins or not image_on):
        return video
    return image if image_on else None


GEMMA3_FRAMING_TOKENS = 4
"""Prompt tokens around a Gemma 3 image's embeddings ("\\n\\n", <start_of_image>, <end_of_image>,
"\\n\\n": the processor's ``full_image_sequence``), which the encoder budget counted until #30475."""


def _gemma3_item(config: dict[str, Any], version: Version, limits: MmLimits | None) -> TowerItem | None:
    """Gemma 3's warm-up item (vllm/model_executor/models/gemma3_mm.py): one 896 × 896 image
    (pan-and-scan is off by default), (896 / 14)² = 4,096 SigLIP patches pooled into
    ``mm_tokens_per_image`` (256) embeddings; the budget counted 260 tokens per image before
    Rule.ENCODER_BUDGET_EMBEDDINGS_ONLY (31 images at 8,192, as a v0.11 MI300X log prints), 256 after
    (32, as a v0.23 one prints). None when --limit-mm-per-prompt sets images to 0."""
    if limits is not None and limits.off("image"):
        return None
    v = config["vision_config"]
    tokens = _n(config, "mm_tokens_per_image") or 256
    side = (_n(v, "image_size") or 896) // (_n(v, "patch_size") or 14)
    budget = tokens if applies(Rule.ENCODER_BUDGET_EMBEDDINGS_ONLY, version) else tokens + GEMMA3_FRAMING_TOKENS
    return TowerItem("image", budget, tokens, side * side)


def _gemma4_item(config: dict[str, Any], limits: MmLimits | None,
                 processor: MmProcessor | None = None) -> TowerItem | None:
    """Gemma 4's largest item (gemma4_mm.py ``get_mm_max_tokens_per_item``): a video of 32 frames
    (2,496 tokens), else an audio clip (``audio_seq_length`` 750, not sized here: None), else an
    image of ``default_output_length`` soft tokens (280; --mm-processor-kwargs ``max_soft_tokens``
    sets it), padded to that many × pooling² patches (2,520); with videos off vLLM
    profiles 29 images in an 8,192-token budget (a v0.29 H100 course write-up quotes the log)."""
    v = config["vision_config"]
    # the encoder-free 12B takes each soft token's pixels as one merged patch (gemma4_unified.py)
    pooled = 1 if config.get("model_type") == GEMMA4_UNIFIED else (_n(v, "pooling_kernel_size") or 3) ** 2
    def on(m: str) -> bool:
        return limits is None or not limits.off(m)
    if on("video"):
        # the num_frames option caps the frames, in the budget too (get_mm_max_tokens_per_item)
        frames = min(GEMMA4_VIDEO_FRAMES, limits.video_frames) if limits and limits.video_frames else GEMMA4_VIDEO_FRAMES
        tokens = frames * GEMMA4_VIDEO_TOKENS_PER_FRAME
        return TowerItem("video", tokens, tokens, frames * GEMMA4_VIDEO_SOFT_TOKENS * pooled)
    if isinstance(config.get("audio_config"), dict) and on("audio"):
        return None
    if not on("image"):
        return None
    tokens = _gemma4_image_tokens(config, processor)
    return TowerItem("image", tokens, tokens, tokens * pooled)


def _gemma4_image_tokens(config: dict[str, Any], processor: MmProcessor | None) -> int:
    """Soft tokens of Gemma 4's largest image: --mm-processor-kwargs ``max_soft_tokens``, else the
    vision config's ``default_output_length`` (``num_soft_tokens`` in the unified 12B's,
    gemma4_unified.py ``get_mm_max_tokens_per_item``), else 280."""
    v = config["vision_config"]
    return (processor.max_soft_tokens if processor and processor.max_soft_tokens else None) or \
        _n(v, "default_output_length") or _n(v, "num_soft_tokens") or GEMMA4_IMAGE_TOKENS


def _mm_prefix_lm_items(config: dict[str, Any], limits: MmLimits | None,
                        processor: MmProcessor | None) -> dict[str, int]:
    """Tokens of one item of each modality a multimodal prefix-LM model takes whole
    (vllm/model_executor/models/gemma4_mm.py ``get_mm_max_tokens_per_item``): for Gemma 4 with
    ``use_bidirectional_attention: "vision"`` a video (32 frames x 78 tokens, fewer where the video
    option sets ``num_frames``), an audio clip (750, with an audio tower) and an image
    (``default_output_length`` or ``max_soft_tokens``). Empty for other models (Gemma 3, also a
    prefix LM, gives vLLM no per-item ceiling)."""
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    if str(config.get("model_type")) not in GEMMA4_WRAPPER_TYPES or \
            text.get("use_bidirectional_attention") != "vision" or not isinstance(config.get("vision_config"), dict):
        return {}
    frames = min(GEMMA4_VIDEO_FRAMES, limits.video_frames) if limits and limits.video_frames else GEMMA4_VIDEO_FRAMES
    items = {"video": frames * GEMMA4_VIDEO_TOKENS_PER_FRAME, "image": _gemma4_image_tokens(config, processor)}
    if isinstance(config.get("audio_config"), dict):
        items["audio"] = GEMMA4_AUDIO_TOKENS
    return items


def mm_prefix_lm_batch_floor(config: dict[str, Any], limits: MmLimits | None = None,
                             processor: MmProcessor | None = None, language_model_only: bool = False) -> int:
    """The smallest batch that holds one item of each modality a multimodal prefix-LM model takes
    (vllm/engine/arg_utils.py ``_get_min_mm_batched_tokens``, Rule.MM_PREFIX_LM_MNBT_FLOOR): the
    largest of ``_mm_prefix_lm_items``. vLLM counts every modality the model supports, so
    --limit-mm-per-prompt switching one off does not lower it. 0 for other models, and 0 with
    ``language_model_only``: five public starts of Gemma-4-31B that way (GB10, a v0.22 main build)
    print pools that match 2,048 tokens in flight, not 2,496, although the v0.22 code reads no such
    exception (a failed lookup there only logs a warning and raises nothing)."""
    if language_model_only:
        return 0
    return max(_mm_prefix_lm_items(config, limits, processor).values(), default=0)


def mm_item_taken_whole(config: dict[str, Any], limits: MmLimits | None = None,
                        processor: MmProcessor | None = None,
                        language_model_only: bool = False) -> tuple[str, int] | None:
    """The largest item a prefix-LM model must take in one batch, among the modalities the prompt
    may carry (vllm/multimodal/encoder_budget.py: only modalities with a limit above 0 are active;
    --language-model-only sets every limit to 0), as (modality, tokens); None when there is none
    (Rule.MM_PREFIX_LM_WHOLE_ITEMS)."""
    if language_model_only:
        return None
    items = {m: n for m, n in _mm_prefix_lm_items(config, limits, processor).items()
             if limits is None or not limits.off(m)}
    if not items:
        return None
    modality = max(items, key=lambda m: items[m])
    return modality, items[modality]


def video_frames_modelled(config: dict[str, Any]) -> bool:
    """Whether the video ``num_frames`` option changes what kvcalc sizes: Qwen2-VL / Qwen2.5-VL
    (frames of a fixed size) and Gemma 4 (32 frames); Qwen3-VL's dummy video spreads one pixel
    budget over however many frames it has."""
    return str(config.get("model_type")) in (*QWEN2_VL_MODEL_TYPES, *GEMMA4_WRAPPER_TYPES)


def largest_tower_item(config: dict[str, Any], version: Version, max_model_len: int,
                       limits: MmLimits | None = None, processor: MmProcessor | None = None) -> TowerItem | None:
    """The item ``vision_profile`` sizes, or None when kvcalc does not model this model's warm-up
    (no modelled tower, or the modality left on is one kvcalc does not size)."""
    v = config.get("vision_config")
    mt = str(config.get("model_type"))
    if mt == GEMMA4_UNIFIED and isinstance(v, dict) and _n(v, "model_patch_size") and _n(v, "mm_embed_dim"):
        return _gemma4_item(config, limits, processor)
    if not isinstance(v, dict) or not _tower_widths(v, mt)[0]:
        return None
    if mt == "gemma4":
        return _gemma4_item(config, limits, processor)
    if mt == "gemma3":
        return _gemma3_item(config, version, limits)
    return qwen_vl_largest_item(config, version, max_model_len, limits, processor) \
        if mt in QWEN_VL_MODEL_TYPES else None


def _tower_widths(vision_config: dict[str, Any], model_type: str) -> tuple[int, int]:
    """(hidden, MLP intermediate) of a vision tower block. Qwen2-VL names them ``embed_dim`` and
    ``mlp_ratio`` (its ``hidden_size`` is the language model's width, the tower's output)."""
    if model_type == "qwen2_vl":
        embed = _n(vision_config, "embed_dim")
        ratio = vision_config.get("mlp_ratio", 4)
        return embed, int(embed * ratio) if isinstance(ratio, (int, float)) and not isinstance(ratio, bool) else 0
    return _n(vision_config, "hidden_size"), _n(vision_config, "intermediate_size")


@dataclass(frozen=True)
class TowerPass:
    """The tower's warm-up as ``tower_pass`` sizes it: what it encodes and what it costs (bytes)."""

    item: TowerItem
    items: int          # items of that size encoded together
    peak: int           # the tower's own peak
    kept: int           # embeddings and pixel values kept through the language model's pass and the sampler
    rows: int = 0       # rows of each output in the encoder cache (cached_rows; more than the embeddings if padded)
    encoder_free: bool = False  # linear embedders in place of a tower (the Gemma 4 12B)


def vision_profile(config: dict[str, Any], mnbt: int, max_num_seqs: int, max_model_len: int, tp: int,
                   dtype_bytes: int, version: Version = NEWEST, compiled: bool = True,
                   limits: MmLimits | None = None, processor: MmProcessor | None = None) -> tuple[int, int]:
    """(peak of the tower's pass, bytes kept through the language model's pass) of ``tower_pass``;
    (0, 0) when kvcalc does not size this model's warm-up."""
    p = tower_pass(config, mnbt, max_num_seqs, max_model_len, tp, dtype_bytes, version, compiled, limits,
                   processor)
    return (p.peak, p.kept) if p else (0, 0)


def tower_pass(config: dict[str, Any], mnbt: int, max_num_seqs: int, max_model_len: int, tp: int,
               dtype_bytes: int, version: Version = NEWEST, compiled: bool = True,
               limits: MmLimits | None = None, processor: MmProcessor | None = None) -> TowerPass | None:
    """The vision tower's part of ``profile_run`` (vllm/v1/worker/gpu_model_runner.py): it encodes
    the most items of the largest size (``largest_tower_item``) the encoder budget allows
    (max(max_num_batched_tokens, tokens per item) // tokens per item, at least 1;
    vllm/multimodal/encoder_budget.py) and keeps their embeddings in the encoder cache through the
    language model's dummy pass, and with them the batch's pixel values (``profile_run`` holds
    ``batched_dummy_mm_inputs`` to its end; the processor's output is cast to the model dtype,
    vllm/multimodal/processing/context.py ``_postprocess_output``). Returns (peak of the tower's
    pass, bytes kept through the language model's pass). Per patch, the Qwen-VL towers hold what
    ``qwen_vl_patch_values`` counts; Gemma 4's (the tower is not split across TP) about two
    hidden-size and two MLP-size values (the residual stream, its input, the MLP's up projection
    and activation), which a public RTX 5090 sweep of 1, 3 and 6 videos supports; Gemma 3's SigLIP
    the same, its MLP split across TP (read from the code; no public NVIDIA log checks it yet). None
    for other models."""
    item = largest_tower_item(config, version, max_model_len, limits, processor)
    if item is None:
        return None
    v = config["vision_config"]
    mt = str(config.get("model_type"))
    if mt == GEMMA4_UNIFIED:
        return _gemma4_unified_pass(config, item, mnbt, max_num_seqs, max_model_len, dtype_bytes, version, limits)
    hidden, inter = _tower_widths(v, mt)
    if not inter:
        return None
    if mt == "gemma4":
        t = text_part(config)
        out, stacks = _n(t, "hidden_size") or hidden, 1
        per_patch = 2 * hidden + 2 * inter        # the tower is not split across TP
        pixels = 3 * (_n(v, "patch_size") or 16) ** 2
    elif mt == "gemma3":
        # SigLIP (vllm/model_executor/models/siglip.py): at a block's MLP the residual, the normed
        # input, fc1's output and its activation; fc1/fc2 are split across TP, the stream is not
        out, stacks = _n(text_part(config), "hidden_size") or hidden, 1
        per_patch = 2 * hidden + 2 * cdiv(inter, tp)
        pixels = 3 * (_n(v, "patch_size") or 14) ** 2
    else:
        # Qwen2-VL's tower hands out the language model's width (its vision ``hidden_size``)
        out = _n(v, "hidden_size") if mt == "qwen2_vl" else (_n(v, "out_hidden_size") or hidden)
        deepstack = v.get("deepstack_visual_indexes")
        stacks = 1 + (len(deepstack) if isinstance(deepstack, list) else 0)
        per_patch = qwen_vl_patch_values(v, tp, mt, version, compiled)
        pixels = qwen_vl_patch_pixels(v)
    items = encoder_items(item.budget_tokens, mnbt, max_num_seqs, max_model_len,
                          limits.of(item.modality) if limits else None)
    rows = cached_rows(item, mnbt, version)
    width = out * stacks * dtype_bytes
    kept = items * (rows * width + item.patches * pixels * dtype_bytes)
    if rows > item.embeddings:      # the last unpadded output stays referenced by profile_run's loop
        kept += item.embeddings * width
    return TowerPass(item, items, items * item.patches * per_patch * dtype_bytes, kept, rows)


def _gemma4_unified_pass(config: dict[str, Any], item: TowerItem, mnbt: int, max_num_seqs: int,
                         max_model_len: int, dtype_bytes: int, version: Version,
                         limits: MmLimits | None) -> TowerPass:
    """The encoder-free 12B's part of ``profile_run`` (vllm/model_executor/models/gemma4_unified.py):
    no tower, so its pass embeds one image or one video frame at a time (``_process_image_input``,
    ``_process_video_input``), each merged patch holding its ``model_patch_size``² × 3 pixel values
    and their normalised copy, then a few ``mm_embed_dim``-wide steps (projection, norm, position
    embedding, norm) and the text-width output: a peak of a few MiB. What stays through the language
    model's pass is what the tower models keep: the items' outputs in the encoder cache and their
    pixel values in the model dtype, 0.28 GiB for the six 2,496-token videos of 16,384 batched tokens."""
    v = config["vision_config"]
    pixels = 3 * _n(v, "model_patch_size") ** 2
    width = _n(text_part(config), "hidden_size") or _n(v, "mm_embed_dim")
    per_unit = GEMMA4_VIDEO_SOFT_TOKENS if item.modality == "video" else item.patches
    peak = per_unit * (2 * pixels + 4 * _n(v, "mm_embed_dim") + width) * dtype_bytes
    items = encoder_items(item.budget_tokens, mnbt, max_num_seqs, max_model_len,
                          limits.of(item.modality) if limits else None)
    rows = cached_rows(item, mnbt, version)
    kept = items * (rows * width * dtype_bytes + item.patches * pixels * dtype_bytes)
    return TowerPass(item, items, peak, kept, rows, encoder_free=True)


def cached_rows(item: TowerItem, mnbt: int, version: Version) -> int:
    """Rows of each encoder output the warm-up keeps in its encoder cache: v0.11 copied an output
    shorter than the encoder budget (max(max_num_batched_tokens, tokens per item)) into zeros of the
    whole budget (#25810, Rule.MM_PROFILE_PAD_TO_BUDGET), v0.12 and v0.13 into zeros of the item's
    own tokens (#29386), from #30475 nothing is padded. Qwen3-VL's v0.11 video: 153,600 rows of
    4 × 2,048 values (the embedding and three deepstack features) for its 12,288 embeddings,
    2.34 GiB on every GPU, which a public 4 × RTX 3090 log leaves room for."""
    if applies(Rule.MM_PROFILE_UNPADDED, version):
        return item.embeddings
    if applies(Rule.MM_PROFILE_PAD_TO_ITEM, version):
        return max(item.embeddings, item.budget_tokens)
    if applies(Rule.MM_PROFILE_PAD_TO_BUDGET, version):
        return max(item.embeddings, mnbt, item.budget_tokens)
    return item.embeddings


def qwen_vl_patch_pixels(vision_config: dict[str, Any]) -> int:
    """Pixel values of one Qwen-VL patch: channels × temporal patch × patch²."""
    patch = _n(vision_config, "patch_size") or 16
    channels = _n(vision_config, "in_channels") or _n(vision_config, "in_chans") or 3
    return channels * (_n(vision_config, "temporal_patch_size") or 2) * patch * patch


def qwen_vl_patch_values(vision_config: dict[str, Any], tp: int, model_type: str = "qwen3_vl",
                         version: Version = NEWEST, compiled: bool = True) -> int:
    """Values one GPU holds per patch at the peak of a Qwen-VL tower block
    (vllm/model_executor/models/qwen2_5_vl.py ``Qwen2_5_VisionAttention``, shared by Qwen3-VL and
    Qwen3.5; qwen2_vl.py ``Qwen2VisionAttention`` for Qwen2-VL). Hidden-size units, the
    residual and the normed input whole, the rest split across TP:

    * attention, from v0.12 (Rule.QWEN_VL_VISION_ATTENTION_SLIMMED): the fused QKV output (3), the
      contiguous query/key copy and its rotated result (2 + 2), the value made contiguous, the
      attention output and its re-laid-out copy (1 + 1 + 1): 2 + 10/TP; Qwen2-VL's own attention
      (q, k, v copies and their concatenation, rotated in the model dtype) comes to the same count
      and gathers QKV across TP again from v0.13 (Rule.QWEN2_VL_TP_GATHER_BACK);
    * attention in v0.11.1-v0.11.2 (Rule.QWEN_VL_VISION_NO_GATHER): no TP gather, and Qwen2.5-VL's
      attention (Qwen3-VL's too) rotates one contiguous q·k copy (2) in float32 (4 + 4 + 2) beside
      QKV (3): 2 + 15/TP; Qwen2-VL 2 + 18/TP;
    * attention in v0.11.0: QKV (3), contiguous q, k, v copies (3), their concatenation (2), and the
      rotation done in float32 (an input copy 4, its output 4, cast back 2): 2 + 18/TP; with TP > 1
      the QKV was also gathered from every rank (3 whole, 6 while gathering);
    * attention before v0.11.0 (Rule.QWEN_VL_VISION_QK_CONCAT): the same, but q and k rotated one at
      a time, so one float32 copy (2), its output (2) and the cast (1) beside QKV and the copies:
      2 + 11/TP;
    * MLP: the block's input (its caller still holds it), the residual and the normed input (3)
      plus, for Qwen3-VL and Qwen2-VL, the up projection and its activation (2 × intermediate);
      Qwen2-VL's QuickGELU runs as PyTorch code in a compiled model (custom ops off), x ·
      sigmoid(1.702 x), which holds the up projection, the sigmoid and the product (3 ×
      intermediate; the public v0.10.2 RTX 4080 breakdown of Qwen2-VL-2B, 2.65 GiB for one
      65,536-patch image, against 2.49 counted); Qwen2.5-VL's gated MLP holds 3 ×
      intermediate and, since #22184 (Rule.QWEN25_VL_FUSED_NORM), its block keeps the input and the
      attention output beside the fused norm's two results when the norm runs as PyTorch code (a
      compiled model turns vLLM's custom ops off): 5 hidden-size values (3 with --enforce-eager,
      whose CUDA kernel normalises in place).

    Through the whole pass the patch pixels (``qwen_vl_patch_pixels``, in the model dtype) and, for
    the Qwen3 towers, the learned position embeddings (hidden) stay referenced. Qwen3.5-9B's tower
    (1152 / 4304, 16-pixel patches): 16,512 values a patch, 2.02 GiB for a 16,384-token image.
    Qwen2.5-VL-7B (1280 / 3420, 14-pixel patches) on v0.23: 17,836 values, 15.2 GiB for its
    114,688-token video, against the 15.5 GiB of activation and non-torch memory a public A100 log
    leaves; Qwen2.5-VL-3B on v0.11 (same tower, one image): 26,776 values, 3.3 GiB against 3.3."""
    hidden, inter = _tower_widths(vision_config, model_type)
    per_rank = cdiv(hidden, tp)
    qwen2 = model_type == "qwen2_vl"
    if applies(Rule.QWEN_VL_VISION_ATTENTION_SLIMMED, version):
        split = 10
        gathers = qwen2 and applies(Rule.QWEN2_VL_TP_GATHER_BACK, version)
    elif applies(Rule.QWEN_VL_VISION_NO_GATHER, version):
        split, gathers = (18 if qwen2 else 15), False
    else:
        split, gathers = (18 if applies(Rule.QWEN_VL_VISION_QK_CONCAT, version) else 11), True
    gathered = 3 * hidden if gathers and tp > 1 else 0
    attention = max(2 * hidden + split * per_rank + gathered, 2 * hidden + 3 * per_rank + 2 * gathered)
    if model_type == "qwen2_5_vl":
        kept = 5 if compiled and applies(Rule.QWEN25_VL_FUSED_NORM, version) else 3
        mlp = kept * hidden + 3 * cdiv(inter, tp)
    elif qwen2:
        mlp = 3 * hidden + (3 if compiled else 2) * cdiv(inter, tp)
    else:
        mlp = 3 * hidden + 2 * cdiv(inter, tp)
    position = 0 if model_type in QWEN2_VL_MODEL_TYPES else hidden
    return max(attention, mlp) + qwen_vl_patch_pixels(vision_config) + position


def cudagraph_capture_sizes(version: Version, max_num_seqs: int, mnbt: int, decode_query_len: int = 1,
                            capability_major: int = 0, model_runner_v2: bool = False,
                            max_size: int | None = None,
                            listed: tuple[int, ...] | None = None,
                            interactivity: bool = False, cudagraph_mode: str | None = None,
                            full_graphs: bool = True) -> tuple[int, ...]:
    """The capture sizes (vllm/config/vllm.py ``_set_cudagraph_sizes``). ``listed``
    (``--cudagraph-capture-sizes``): those up to max_num_batched_tokens. Otherwise the defaults:
    1, 2, 4 (every size from 1 to 32 with ``interactivity``, --performance-mode interactivity:
    Rule.PERFORMANCE_MODE), then steps of 8 below 256 and of 16 from 256, up to min(``max_size``
    (``--max-cudagraph-capture-size``) or else max_num_seqs × decode query length × 2 and 512,
    max_num_batched_tokens); the 512 is 1,024 on data-centre Blackwell (compute capability 10.x)
    from Rule.BLACKWELL_CAPTURE_1024. max_num_batched_tokens is added when it lies below the top
    (from v0.21, Rule.MNBT_CAPTURE_SIZE);
    from v0.29 speculative decoding adds each request count × q under that ceiling
    (Rule.UNIFORM_DECODE_CAPTURE_SIZES), from v0.31 max_num_seqs itself without it
    (Rule.MAX_NUM_SEQS_CAPTURE_SIZE).
    With speculative decoding the sizes are rounded up to multiples of the decode query length where
    ``spec_sizes_rounded`` says vLLM does (``cudagraph_mode`` and ``full_graphs`` as graphs_for_mode takes them).
    Not modelled: v0.20 capped the sizes of Mamba/GDN models at max_num_seqs (a public
    Qwen3.6 log with one sequence captures one size, not two; vllm#34094 later removed the cap)."""
    q = decode_query_len
    if listed:
        sizes = {x for x in listed if x <= mnbt}
        top = max(sizes, default=0)
    else:
        uniform: set[int] = set()
        if max_size is None:
            ceiling = 1024 if capability_major == 10 and applies(Rule.BLACKWELL_CAPTURE_1024, version) else 512
            max_size = min(max_num_seqs * q * 2, ceiling)
            if q > 1 and applies(Rule.UNIFORM_DECODE_CAPTURE_SIZES, version):
                reqs = min(max_num_seqs, ceiling)
                counts = {n for n in (1, 2, 4) if n <= reqs} | set(range(8, min(reqs + 1, 256), 8)) | \
                    set(range(256, reqs + 1, 16)) | {reqs}
                uniform = {n * q for n in counts if n * q <= max_size}
            elif q == 1 and applies(Rule.MAX_NUM_SEQS_CAPTURE_SIZE, version) and max_num_seqs <= max_size:
                uniform = {max_num_seqs}
        top = min(max_size, mnbt)
        sizes = set(range(1, min(top, 32) + 1)) if interactivity else {i for i in (1, 2, 4) if i <= top}
        sizes.update(range(8, min(top + 1, 256), 8))
        sizes.update(range(256, top + 1, 16))
        if mnbt <= top and applies(Rule.MNBT_CAPTURE_SIZE, version):
            sizes.add(mnbt)
        sizes.update(x for x in uniform if x <= mnbt)
        top = max(sizes, default=0)
    if q > 1 and spec_sizes_rounded(version, model_runner_v2, cudagraph_mode, full_graphs):
        sizes = {cdiv(x, q) * q for x in sizes if cdiv(x, q) * q <= top} or ({q} if q <= top else set())
    return tuple(sorted(sizes))


def spec_sizes_rounded(version: Version, model_runner_v2: bool, cudagraph_mode: str | None = None,
                       full_graphs: bool = True) -> bool:
    """Whether vLLM rounds the capture sizes up to multiples of the decode query length with speculative
    decoding (vllm/config/compilation.py ``adjust_cudagraph_sizes_for_spec_decode``, the temporary fix for
    vllm#28207). The V1 runner does where its decode graphs are full, as the mode resolves with the attention
    backend (``graphs_of_mode``): from v0.12 where they also run their own routine
    (Rule.SPEC_CAPTURE_SIZES_ROUNDED), from v0.20 in FULL mode too (Rule.SPEC_CAPTURE_ROUNDED_FULL_MODE);
    piecewise-only capture keeps the sizes (a v0.22.1 GB10 start with FlashInfer and two MTP tokens captures 6
    piecewise graphs up to 24 tokens for 5 sequences, not 5 up to 24). Model runner V2 rounds whatever the mode
    from v0.21 to v0.24 (Rule.MRV2_SPEC_CAPTURE_ROUNDED) and not after (Rule.MRV2_SPEC_CAPTURE_ROUNDING_DROPPED)."""
    if model_runner_v2:
        return applies(Rule.MRV2_SPEC_CAPTURE_ROUNDED, version) and \
            not applies(Rule.MRV2_SPEC_CAPTURE_ROUNDING_DROPPED, version)
    if not applies(Rule.SPEC_CAPTURE_SIZES_ROUNDED, version):
        return False
    piecewise, full = graphs_of_mode(cudagraph_mode, 1, 1, full_graphs)
    if not full:
        return False
    return piecewise > 0 or applies(Rule.SPEC_CAPTURE_ROUNDED_FULL_MODE, version) or \
        (cudagraph_mode or "").upper() == "FULL_DECODE_ONLY"


SPLIT_CAPTURE_MAX_TOKENS = 8192
"""The default largest prefill graph and decode token count on compute capability 10.x from v0.34
(config/compilation.py ``max_prefill_cudagraph_capture_tokens``, ``max_decode_cudagraph_capture_tokens``)."""


def _walk_grid(limit: int, step) -> list[int]:
    """``_walk_grid`` (v0.34 config/compilation.py): 1, ..., ``limit``, each the next multiple of the
    largest power of two not above step(size)."""
    grid, size = [], 1
    while size < limit:
        grid.append(size)
        stride = 1 << max(0, math.floor(math.log2(max(1.0, step(size)))))
        size = (size // stride + 1) * stride
    return [*grid, limit] if limit else []


def prefill_capture_grid(max_tokens: int, dense_head: bool = False) -> list[int]:
    """``prefill_cudagraph_capture_grid``: 1, 2, 4, every 8 to 64, four sizes per doubling to 1,024 (every
    count to 32 with ``dense_head``, --performance-mode interactivity), then every 256 and every 512 once
    7% of the size passes 512: 54 sizes at 8,192."""
    grid = _walk_grid(max_tokens, lambda t: min(t, max(8, t / 4), 0.07 * max(t, 4096)))
    if dense_head:
        grid = sorted({*grid, *(t for t in range(1, 33) if t < max_tokens)})
    return grid


def decode_capture_grid(max_requests: int) -> list[int]:
    """``decode_cudagraph_capture_grid``: every count to 6, then steps of the largest power of two not above
    0.65 x n^(2/3): 64 sizes at 1,024 requests."""
    return _walk_grid(max_requests, lambda n: 0.65 * n ** (2 / 3))


def split_capture_graphs(version: Version, capability_major: int, max_num_seqs: int, mnbt: int,
                         decode_query_len: int, interactivity: bool) -> tuple[list[int], list[int]] | None:
    """From v0.34 on compute capability 10.x (Rule.SM100_SPLIT_CAPTURE_SIZES) without explicit capture sizes:
    (prefill token sizes, decode token sizes): piecewise graphs on the prefill grid up to
    min(8,192, max_num_batched_tokens), full decode graphs on the request grid up to max_num_seqs, each
    count times the decode query length up to min(max_num_batched_tokens, 8,192) tokens
    (config/vllm.py ``_set_cudagraph_sizes``). None elsewhere: the shared sizes stand."""
    if capability_major != 10 or not applies(Rule.SM100_SPLIT_CAPTURE_SIZES, version):
        return None
    prefill = prefill_capture_grid(min(SPLIT_CAPTURE_MAX_TOKENS, mnbt), interactivity)
    q = decode_query_len
    limit = min(mnbt, SPLIT_CAPTURE_MAX_TOKENS)
    decode = [n * q for n in decode_capture_grid(max_num_seqs) if n * q <= limit]
    return prefill, decode


def cuda_graph_count(sizes: tuple[int, ...], max_num_seqs: int, decode_query_len: int = 1,
                     round_decode: bool = False) -> tuple[int, int]:
    """(PIECEWISE, FULL) graphs of the default FULL_AND_PIECEWISE mode: a piecewise graph per
    capture size, a full decode graph per size from the decode query length up to max_num_seqs ×
    that length (vllm/v1/cudagraph_dispatcher.py ``initialize_cudagraph_keys``). ``round_decode``
    (model runner V2 from v0.25, Rule.MRV2_SPEC_CAPTURE_ROUNDING_DROPPED): a full decode graph per
    distinct size rounded up to the decode query length, up to max_num_seqs × that length and the
    largest size (vllm/v1/worker/gpu/cudagraph_utils.py ``_init_candidates``)."""
    q = decode_query_len
    if round_decode:
        top = min(q * max_num_seqs, max(sizes, default=0))
        return len(sizes), len({cdiv(x, q) * q for x in sizes if cdiv(x, q) * q <= top})
    full = [x for x in sizes if q <= x <= q * max_num_seqs]
    return len(sizes), len(full)


def graphs_for_mode(mode: str | None, sizes: tuple[int, ...], max_num_seqs: int, decode_query_len: int = 1,
                    full_graphs: bool = True, round_decode: bool = False) -> tuple[int, int]:
    """(PIECEWISE, FULL) graphs vLLM captures in a ``cudagraph_mode`` (settings.CUDAGRAPH_MODES; None:
    the release's default, FULL_AND_PIECEWISE, as ``cuda_graph_count``). The dispatcher keys one
    graph of the mixed mode per capture size (PIECEWISE, or FULL for FULL) and, where the decode
    mode runs its own routine (FULL_AND_PIECEWISE, FULL_DECODE_ONLY), a full graph per decode size
    (vllm/v1/cudagraph_dispatcher.py ``initialize_cudagraph_keys``). ``full_graphs`` false: the
    attention backend captures no full graph (kvspecs.full_cuda_graphs), where vLLM turns FULL and
    FULL_AND_PIECEWISE into PIECEWISE and FULL_DECODE_ONLY into NONE
    (config/compilation.py ``resolve_cudagraph_mode_and_sizes``)."""
    return graphs_of_mode(mode, *cuda_graph_count(sizes, max_num_seqs, decode_query_len, round_decode), full_graphs)


def graphs_of_mode(mode: str | None, mixed: int, decode: int, full_graphs: bool = True) -> tuple[int, int]:
    """(PIECEWISE, FULL) graphs of a ``cudagraph_mode`` given the mixed batches' sizes and the decode
    batches' (``graphs_for_mode``; from v0.34 on 10.x the two grids of ``split_capture_graphs``)."""
    mode = (mode or "FULL_AND_PIECEWISE").upper()
    if not full_graphs:
        mode = {"FULL": "PIECEWISE", "FULL_AND_PIECEWISE": "PIECEWISE", "FULL_DECODE_ONLY": "NONE"}.get(mode, mode)
    return {"NONE": (0, 0), "PIECEWISE": (mixed, 0), "FULL": (0, mixed),
            "FULL_DECODE_ONLY": (0, decode)}.get(mode, (mixed, decode))


def graphs_priced_per_layer(platform: str, layers: int) -> bool:
    """Whether a graph's cost follows the decoder layers (ROCm, layers known) rather than a flat
    per-graph figure."""
    return platform == "rocm" and layers > 0


CUSTOM_ALL_REDUCE_WORLD_SIZES = (2, 4, 6, 8)
"""TP sizes vLLM's custom all-reduce serves within one node (CustomAllreduce._SUPPORTED_WORLD_SIZES,
vllm/distributed/device_communicators/custom_all_reduce.py, v0.10-v0.34; 16 joins from v0.30 for
multi-node NVLink racks, where kvcalc cannot tell it is one NVLink domain)."""
NCCL_GRAPH_MIB_PER_LAYER = {2: (0.17, 0.08, 0.25), 3: (0.31, 0.12, 0.40)}
"""Typical, low and high MiB per decoder layer that each captured graph adds on CUDA where NCCL,
not vLLM's custom all-reduce, runs the tensor-parallel all-reduces inside the graphs
(``nccl_in_graphs``); key 2 for a TP group of two GPUs, 3 for three or more. Graph capture records
every all-reduce of every layer, and NCCL keeps what each captured collective launches with in GPU
memory for as long as the graph lives, so the cost follows the layers; the custom all-reduce
writes through buffers it registered once. vLLM's estimator captures two graphs and extrapolates
(``profile_cudagraph_memory``), so its estimate carries this cost for every graph. Public starts
with 51 piecewise + 35 full graphs print, against about 7 MiB a graph elsewhere
(``CUDA_GRAPH_MIB_PER_GRAPH``): Qwen3-32B (64 layers) over four and eight L20s 2.20 and 2.19 GiB
(26.2 MiB a graph: 0.30 per layer) where two of the same L20s with custom all-reduce print 0.93,
and Qwen2.5-72B (80 layers) over four L40S 2.73 GiB (32.5 MiB: 0.32 per layer), all v0.19.0,
where vLLM printed the estimate without deducting it; two RTX 4090s without peer-to-peer
(v0.25.1) print 1.27 GiB for Qwen3-30B-A3B FP8 with expert parallelism (15.1 MiB: 0.17 per layer
over 48 layers), and model runner V2's capture of Qwen2-7B on them took 0.68 GiB where V2 keeps
about 3.2 MiB a graph (``CUDA_GRAPH_MIB_CAPTURED_V2``: 0.17 per layer over 28 layers). The TP-2
low end is two A100s in pods without peer-to-peer, whose v0.10.1 capture of Qwen2-7B took 0.15 GiB
more than their TP-1 twin over 67 piecewise graphs (0.08 per layer). The low end above two GPUs is
Qwen3-235B-A22B FP8 over four RTX PRO 6000s (94 layers, 18 graphs up to 64 tokens, v0.27.1), whose
0.32 GiB capture bounds the estimate near 0.12 MiB per layer: graphs of few tokens pass small
messages, for which NCCL may use fewer channels, but five starts do not fix how the cost follows the
capture sizes."""


@dataclass(frozen=True)
class NcclGraphs:
    """Whether NCCL runs the TP all-reduces inside the captured graphs, and why (``NCCL_REASONS``)."""
    surely: bool = False
    possibly: bool = False
    why: str = ""


NCCL_REASONS = {"flag": Text("nccl.why_flag"), "tp_size": Text("nccl.why_tp_size"), "pcie": Text("nccl.why_pcie"),
                "no_p2p": Text("nccl.why_no_p2p"), "no_p2p_set": Text("nccl.why_no_p2p_set"),
                "p2p_by_host": Text("nccl.why_p2p_by_host")}
"""Why the custom all-reduce stays off (or may), in words, by ``NcclGraphs.why``."""


def nccl_in_graphs(tp: int, platform: str, nvlink_all_pairs: bool, peer_to_peer: bool | None,
                   custom_all_reduce: bool = True, peer_to_peer_said: bool = False) -> NcclGraphs:
    """Whether NCCL runs the TP all-reduces inside the captured graphs (surely, possibly, why): where vLLM's
    custom all-reduce stays off (custom_all_reduce.py, v0.10-v0.34): --disable-custom-all-reduce
    (``custom_all_reduce`` False), a TP size it does not serve, more than two GPUs that are not all
    NVLink-connected ("not supported on more than two PCIe-only GPUs"), or GPUs without peer-to-peer
    ("lacks GPU P2P capability": ``peer_to_peer`` False, as the user or a log says, ``peer_to_peer_said``,
    or as GeForce drivers refuse it). Where nobody says (None), two data-centre PCIe cards may have it or be
    refused it by their host: public TP 2 starts on L40S and L20 pairs register the custom all-reduce's
    graph buffers while others print no peer-to-peer, so there NCCL is possible. CUDA only: ROCm prices
    its graphs per layer already (``ROCM_GRAPH_MIB_PER_LAYER``)."""
    if platform != "cuda" or tp < 2:
        return NcclGraphs()
    why = "flag" if not custom_all_reduce else "tp_size" if tp not in CUSTOM_ALL_REDUCE_WORLD_SIZES else \
        "pcie" if tp > 2 and not nvlink_all_pairs else \
        ("no_p2p_set" if peer_to_peer_said else "no_p2p") if peer_to_peer is False else ""
    if why:
        return NcclGraphs(True, True, why)
    return NcclGraphs() if peer_to_peer or nvlink_all_pairs else NcclGraphs(False, True, "p2p_by_host")


def nccl_graph_bytes(graphs: int, layers: int, tp: int) -> tuple[int, int, int]:
    """Typical, low and high bytes that NCCL's captured all-reduces add to ``graphs`` graphs of
    ``layers`` decoder layers at TP ``tp`` (``NCCL_GRAPH_MIB_PER_LAYER``)."""
    per_layer = NCCL_GRAPH_MIB_PER_LAYER[min(tp, 3)]
    return tuple(int(graphs * layers * p * MIB) for p in per_layer)  # type: ignore[return-value]


DSV4_GRAPH_MIB = (23.8, 16.0, 32.0)
"""Typical, low and high MiB of one captured graph of DeepSeek-V4, three times a dense model's: the one
public estimate, a v0.25.0 start of Flash on two RTX PRO 6000s (V1 runner, MTP, 64 sequences), prints
'Estimated CUDA graph memory: 1.58 GiB' for the 68 graphs kvcalc counts there (23.8 MiB each), and took
1.73 GiB to capture; a v0.26 B300 start (model runner V2, DSpark) captured 3.06 GiB. The band spans a
third either way, since one estimate fixes the figure. That start ran with --disable-custom-all-reduce,
so NCCL's captured all-reduces are in it, and kvcalc adds no NCCL share to DeepSeek-V4's graphs
(``NCCL_GRAPH_MIB_PER_LAYER``): H100 TP 8 starts of Flash (v0.31, NVLink, custom all-reduce) print about 28
MiB a graph (0.82 GiB for 30), no less."""


DSV4_WORKSPACE_KINDS = {"indexer": Text("basis.dsv4_ws_indexer"), "flashmla": Text("basis.dsv4_ws_flashmla"),
                        "moe": Text("basis.dsv4_ws_moe")}
"""What sets DeepSeek-V4's kept workspace (deepseek_v4_profile.DeepseekV4Peak.workspace_kind), in words."""


def graph_mib(model_runner_v2: bool, platform: str = "cuda", layers: int = 0,
              deepseek_v4: bool = False, captured: bool = False) -> tuple[float, float, float]:
    """Typical, low and high MiB of one captured graph: on ROCm per decoder layer
    (``ROCM_GRAPH_MIB_PER_LAYER``), on CUDA per graph (``CUDA_GRAPH_MIB_PER_GRAPH``; DeepSeek-V4's own,
    ``DSV4_GRAPH_MIB``). ``captured``: what model runner V2's capture keeps rather than vLLM's estimate
    (``CUDA_GRAPH_MIB_CAPTURED_V2``; the extensible KV cache measures that)."""
    if deepseek_v4 and platform == "cuda":
        return DSV4_GRAPH_MIB
    if graphs_priced_per_layer(platform, layers):
        return tuple(p * layers for p in ROCM_GRAPH_MIB_PER_LAYER)  # type: ignore[return-value]
    if captured and model_runner_v2:
        return CUDA_GRAPH_MIB_CAPTURED_V2
    return CUDA_GRAPH_MIB_PER_GRAPH["v2" if model_runner_v2 else "v1"]


FIRST_CAPTURE_HIGH_GIB = 0.35
"""The least the band's top allows for a CUDA-graph estimate on CUDA, whatever the graph count:
vLLM's estimate is the first capture plus (graphs − 1) × the second's cost
(``profile_cudagraph_memory``), and with few graphs the first capture, which the per-graph figure
spreads over many, dominates: a v0.22.1 RTX 3090 start of Qwen2.5-7B-AWQ (plain AWQ kernels, 8
sequences) prints 0.35 GiB for 9 graphs, a v0.20.2 RTX 5090 start of Gemma-4-26B-A4B NVFP4 0.26
for 5, where 7 MiB a graph gives 0.06 and 0.03. The typical value keeps the per-graph figure,
which the many-graph logs measure."""


def cuda_graph_estimate(graphs: int, model_runner_v2: bool, hybrid: bool, platform: str = "cuda",
                        layers: int = 0, deepseek_v4: bool = False, captured: bool = False) -> tuple[int, int, int]:
    """Typical, low and high bytes of the CUDA-graph estimate for ``graphs`` captured graphs of a
    model with ``layers`` decoder layers (which matter on ROCm only: ``graph_mib``); on CUDA the
    high end is at least ``FIRST_CAPTURE_HIGH_GIB`` above the low end's per-graph cost, an artefact of
    the estimator's extrapolation that a ``captured`` footprint does not have."""
    per = graph_mib(model_runner_v2, platform, layers, deepseek_v4, captured)
    first = HYBRID_FIRST_CAPTURE_GIB if hybrid else (0.0, 0.0, 0.0)
    typical, low, high = (int(graphs * p * (1 << 20) + f * GIB) for p, f in zip(per, first))
    if platform == "cuda" and not hybrid and not captured:
        high = max(high, int(FIRST_CAPTURE_HIGH_GIB * GIB + graphs * per[1] * (1 << 20)))
    return typical, low, high


DRAFTER_GRAPHS_HIGH_GIB = 0.5
"""GiB the band's top adds to the CUDA-graph estimate for a speculative drafter's own graphs on
model runner V2 (``drafter_graphs_in_estimate``). vLLM's V2 estimator captures the speculator's
graphs in full inside the profile (vllm/v1/worker/gpu/cudagraph_utils.py
``profile_cudagraph_memory``: "PIECEWISE, encoder and speculator graphs are measured in full"); the
only public logs that show it, three v0.29.0 L40S starts of Gemma-4-26B-A4B with 2 and 4 MTP tokens
(akamaslabs/vllm-benchmark M-mtp2, M-mtp4, M-mtp2-fp8), print 0.93-0.95 GiB where the same command
without MTP prints 0.50. One drafter on one GPU does not say how the cost scales with the drafter's
layers or the capture sizes, so the typical figure leaves it out and the band's top covers it."""


def drafter_graphs_in_estimate(version: Version, model_runner_v2: bool, spec_method: str | None) -> bool:
    """Whether vLLM's CUDA-graph estimate includes a drafter's own graphs: model runner V2, whose
    estimate vLLM subtracts from v0.29 (Rule.MRV2_ALL_MODELS_CG_PROFILED), with a speculative method
    that runs a drafter model (not n-gram or suffix decoding, which capture nothing of their own)."""
    return model_runner_v2 and applies(Rule.MRV2_ALL_MODELS_CG_PROFILED, version) and \
        spec_method not in (None, "ngram", "ngram_gpu", "suffix")


COLD_COMPILE_TABLE_COPIES = 1.05
COLD_COMPILE_FIXED_GIB = 0.00
COLD_COMPILE_SPREAD_GIB = 0.50
"""What a first start (empty torch.compile cache) reserves beyond a restart, from v0.27
(Rule.COLD_COMPILE_RESERVE; from v0.19 for untied embeddings: Rule.COLD_COMPILE_UNTIED): max(0, one copy of the input-embedding table one GPU holds
(vocabulary / TP × hidden size × dtype bytes) − the warm-up's own activation peak); the band runs
from 0 to that plus 0.50 GiB.

vLLM profiles the KV budget on the first forward pass, which is also where torch.compile compiles
and (torch >= 2.10) exports the AOT artifact (vllm#54383, #54209, #54479; unmerged through v0.33);
a restart that finds ~/.cache/vllm loads the compiled graphs and skips all of it. The compile's
temporaries are freed before the forward pass, so they raise the peak vLLM subtracts only where
they exceed the pass's own. Every public first start whose peak can be read matches the embedding
table to ±0.03 GiB, whatever the restart's peak: 0.25 GiB for Qwen2.5-0.5B (0.254), 0.59 for
Qwen3-1.7B (0.58), 0.71 for Qwen3-4B (0.72), 1.18 for Qwen3-8B (1.16), 1.03 for Qwen2.5-7B on an
RTX 3090 and an A40, bf16 and GPTQ alike (1.015), and 1.04 for a v0.26 first start of
Qwen2.5-7B-AWQ (1.015); where the forward pass or the sampler already peaks higher it hides it
(Qwen2.5-7B at 16,384 and 32,768 batched tokens, Llama-3.1-8B's sort-based sampler at v0.15.1).
Inductor's compile-time benchmarking of the kernel that gathers the embeddings is the likely
cause (it runs on fresh copies of its arguments); the lookup is in the compiled graph only for
text input (``embeds_in_graph``): a multimodal model whose towers take input gets its embeddings
from outside the graph, and a Gemma 3 first start peaks below its 2.63 GiB table. Before v0.27
vLLM printed the peak at DEBUG only; v0.19 to v0.26 first starts of untied Qwen2.5-7B/14B and
Llama-3.1-8B on five machines leave what this term gives (0.5 to 0.8 GiB) beyond the other terms,
and the wheels run the compile inside the profiling window the same way (torch >= 2.10 from v0.19
exports the AOT artifact there), while tied Qwen2.5-1.5B first starts on an RTX 4080 Laptop
(v0.20, v0.23) leave none of it: before v0.27 kvcalc counts it for untied embeddings only (the
cause of the split is not identified). What stays varies: nothing on the RTX 3090s, 0.53 GiB of non-torch memory on a 6 GB RTX
4050 Laptop under WSL (v0.29, V1 runner). ``COLD_COMPILE_TABLE_COPIES`` and the fixed part are
fitted by scripts/calibrate.py (``fit_compile``) on the pairs of a first start and a restart of one
command alone, where every other term cancels: 1.05 copies, close to the one copy above; the fixed
GiB is held at 0 (calibrate.COLD_FIXED_CANDIDATES), since with it free the pairs cannot tell 1.05 ×
the table from 1.0 × + 0.05 GiB within the logs' rounding, and that choice swung the fixed parts. Fitted together with the per-release fixed parts on all breakdown rows, the pair slid along
a line of near-equal scores (0.75 × the table + 0.20 GiB, 0.40 + 0.55) and traded against them;
the spread covers the pairs they miss most (a pipeline-parallel first stage, +0.5)."""


def embedding_table_bytes(config: dict[str, Any], vocab: int, tp: int, dtype_bytes: int) -> int:
    """The input-embedding table one GPU holds: the padded vocabulary (params.padded_vocab) split
    across TP, × hidden size × dtype bytes."""
    return cdiv(padded_vocab(vocab), tp) * _n(text_part(config), "hidden_size") * dtype_bytes


def per_layer_table_bytes(config: dict[str, Any], tp: int, dtype_bytes: int) -> int:
    """The per-layer input table one GPU holds (vllm/model_executor/models/gemma4.py and gemma3n.py:
    Gemma 4 E2B/E4B's and Gemma 3n's ``embed_tokens_per_layer``,
    a VocabParallelEmbedding of ``vocab_size_per_layer_input`` rows × layers × ``hidden_size_per_layer_input``,
    split across TP); 0 for models without one. E2B: 262,144 × 35 × 256 × 2 B = 4.38 GiB."""
    t = text_part(config)
    rows, width = _n(t, "vocab_size_per_layer_input"), _n(t, "hidden_size_per_layer_input")
    if not (rows and width):
        return 0
    return cdiv(padded_vocab(rows), tp) * _n(t, "num_hidden_layers") * width * dtype_bytes


def compile_table_bytes(config: dict[str, Any], vocab: int, tp: int, dtype_bytes: int) -> tuple[int, bool]:
    """The table a first start's compile copies (bytes) and whether it is the per-layer input table:
    the larger of the input-embedding table and the per-layer one, both gathered inside the compiled
    graph on text input (gemma4.py ``get_per_layer_inputs`` runs in the model's forward). Inductor
    benchmarks each gather on its own copy, so the peak follows the larger, not their sum: public
    MI300X first starts of text-only Gemma 4 checkpoints (v0.31 nightly) whose per-layer table stays
    in bf16 peak at 4.94 GiB (E2B, a 4.38 GiB table) and 5.95 GiB (E4B, 5.25), against 1.6-1.7 GiB for
    the same sweep's arms that store it in int4."""
    embed = embedding_table_bytes(config, vocab, tp, dtype_bytes)
    per_layer = per_layer_table_bytes(config, tp, dtype_bytes)
    return max(embed, per_layer), per_layer > embed


def compile_peak_bytes(table: int) -> int:
    """A first start's compile peak for an embedding table of ``table`` bytes on the GPU."""
    return int(COLD_COMPILE_TABLE_COPIES * table + COLD_COMPILE_FIXED_GIB * GIB) if table else 0


COLD_KEPT_TABLE_COPIES = (0.9, 0.0, 1.0)
"""Typical, low and high copies of the input-embedding table a first start keeps charged until the
profile ends, beyond the compile peak above (``COLD_COMPILE_TABLE_COPIES``). The compile frees its
copy, but when a later allocation that is still alive at the end is carved out of the freed block,
PyTorch's allocator cannot return the segment at the ``empty_cache()`` before vLLM measures; from
v0.27 vLLM charges the drop in free memory (Rule.FREED_SEGMENT_CHARGED, vllm/utils/mem_utils.py
``memory_profiling``: ``total_consumed``), so the segment counts, and the logs' breakdown shows it as
non-torch memory (consumed less weights less what PyTorch holds). From v0.31 the profile run limits
block splitting to 20 MiB (Rule.PROFILE_RUN_SPLIT_LIMIT, gpu_worker.py
``_scoped_allocator_max_split``, whose comment describes this very case), so no copy stays charged.
Whether a later allocation lands in the freed block depends on the order of allocations. On the V1
model runner from v0.29 (Rule.V1_RUNNER_COLD_TABLE_KEPT) every public first start keeps it: an RTX
4050 Laptop under WSL (Qwen2.5-3B-AWQ, v0.29: 0.53 GiB more non-torch memory than its restart, 0.91
of its 0.58 GiB table), an RTX PRO 4500 MIG slice (Qwen3-8B FP8, v0.29, five starts: 1.28 GiB
non-torch against 0.13 modelled, 0.99 of 1.16) and an L4 n-gram start (Qwen2.5-7B-AWQ, v0.30: a pool
0.93 GiB below the same command on model runner V2, 0.91 of 1.02): the typical 0.9 takes the two
lower, since the MIG slice's own non-torch baseline is not known. On model runner V2 some first
starts of v0.27-v0.30 keep it and most do not: an RTX 4090 under WSL (Qwen2.5-0.5B, v0.27.1: 0.24 of
0.25), Qwen3-1.7B on a RunPod RTX 4090 (v0.27.1: 0.56 of 0.58), an RTX 5060 Ti under WSL (Qwen3-4B,
v0.29: 0.70 of 0.72) and an RTX 5070 Ti (Qwen3-8B-AWQ, v0.30: 1.03 of 1.16; with an EAGLE-3 drafter
its v0.30 first start leaves 1.09 GiB less pool than the same command's v0.31 first start) against
first starts on A40, A10, A100, H200, RTX 3090 and the same RunPod RTX 4090 (Qwen3-8B) that keep
none; which allocation lands in the block is not predictable from the settings, so there only the
band's reserve end counts it."""


def cold_kept_copies(version: Version, model_runner_v2: bool) -> tuple[float, float, float]:
    """Typical, low and high copies of the table a first start keeps charged (``COLD_KEPT_TABLE_COPIES``):
    none before v0.27 (vLLM did not charge a segment PyTorch holds) or from v0.31 (the profile run
    does not split the freed copy); in between in the band's reserve end, and in the typical value
    on the V1 runner from v0.29."""
    if not applies(Rule.FREED_SEGMENT_CHARGED, version) or applies(Rule.PROFILE_RUN_SPLIT_LIMIT, version):
        return 0.0, 0.0, 0.0
    typical, low, high = COLD_KEPT_TABLE_COPIES
    if model_runner_v2 or not applies(Rule.V1_RUNNER_COLD_TABLE_KEPT, version):
        typical = low = 0.0
    return typical, low, high


def cold_compile_reserve(version: Version, compiled: bool, state: str | None, table: int = 0,
                         activation: int = 0, tied: bool = False,
                         model_runner_v2: bool = True) -> tuple[int, int, int]:
    """Typical, low and high bytes a first start adds (``COLD_COMPILE_TABLE_COPIES``), given the
    embedding table the compiled graph looks up on this GPU (bytes; 0 where the stage has none or
    the embeddings come from outside the graph) and the warm-up's activation peak (bytes): none
    with --enforce-eager (nothing is compiled), on a restart (``state`` "warm"), before v0.19, and
    before v0.27 where the table is ``tied`` to the LM head (Rule.COLD_COMPILE_UNTIED; in NVIDIA's
    NGC images from 25.12 whatever the vLLM release: versions.first_start_compile_untied). When the
    state is not known (None) a first start is assumed: it is what a new deployment meets, and the
    smaller pool. The copy a first start may keep charged (``cold_kept_copies``, v0.27-v0.30) comes
    on top: in the typical value on the V1 runner of v0.29-v0.30, in the band's reserve end in all
    of v0.27-v0.30."""
    in_release = applies(Rule.COLD_COMPILE_RESERVE, version) or \
        (not tied and first_start_compile_untied(version))
    if not compiled or state == "warm" or not in_release or not table:
        return (0, 0, 0)
    peak = int(max(0, compile_peak_bytes(table) - activation))
    kept, kept_low, kept_high = (int(c * table) for c in cold_kept_copies(version, model_runner_v2))
    return peak + kept, kept_low, peak + kept_high + int(COLD_COMPILE_SPREAD_GIB * GIB)


def cold_compile_basis(logged_cold: bool, per_layer: bool, peak: int, table: int, typical: int, high: int) -> Text:
    """Why a first start's compile term is what it is: the log shows the start cold or kvcalc assumes
    it, and the table copied is the input embeddings or the larger per-layer input table."""
    # the message check reads each key's parameters from the call, so every branch names them
    p, t, g, h = peak / GIB, table / GIB, typical / GIB, high / GIB
    if logged_cold:
        return Text("basis.cold_compile_per_layer", peak=p, table=t, gib=g, high=h) if per_layer else \
            Text("basis.cold_compile", peak=p, table=t, gib=g, high=h)
    return Text("basis.cold_compile_assumed_per_layer", peak=p, table=t, gib=g, high=h) if per_layer else \
        Text("basis.cold_compile_assumed", peak=p, table=t, gib=g, high=h)


def cold_kept_bytes(version: Version, model_runner_v2: bool, cold: tuple[int, int, int], table: int) -> int:
    """The part of a first start's typical reserve ``cold`` (cold_compile_reserve) that vLLM counts
    as non-torch memory rather than in the activation peak (0 where none applies)."""
    return int(cold_kept_copies(version, model_runner_v2)[0] * table) if cold[2] else 0


UMA_HOST_GIB = (1.8, 1.0, 4.0)
"""Typical, low and high GiB that a start on a unified-memory GPU (DGX Spark's GB10) reserves beyond
the terms a discrete GPU has. There vLLM reads free memory from the OS
(Rule.UMA_FREE_FROM_MEMAVAILABLE), so the host memory its processes take between the worker's
first snapshot and the end of profiling (the loader's buffers, the compiler, Python objects)
counts as non-torch memory (vllm/utils/mem_utils.py ``memory_profiling``: ``total_consumed`` is
the drop in free memory). Public GB10 logs (``UMA_ROWS``) leave that much beyond kvcalc's other
terms: 1.66 GiB (Qwen3-0.6B, v0.27.1), 1.94 (gpt-oss-20b, v0.13.0), 1.78 (Qwen3-30B-A3B FP8,
v0.13.0), 1.72 for Qwen3.6-35B-A3B NVFP4 at 8,192 batched tokens (v0.20.0, against the same model
and release on an RTX 5090), all first starts, and 1.34 for a restart of Qwen2.5-14B FP8 that
loaded its compiled graphs (v0.13.0): the typical value is their upper quarter, as for the fixed
parts (a reserve too small weighs three times). Two first starts of one command on one GB10
(v0.22, MTP) differ by 1.6 GiB, and a failed first start of that Qwen2.5-14B command right after
its download left about 2.7, which sets the band's top. NVIDIA's own launchers pin
--kv-cache-memory-bytes on DGX Spark for this reason (NVIDIA/xr-ai#462)."""


UMA_HYBRID_TOWER_GIB = (3.4, 0.8, 4.2)
"""Typical, low and high GiB that a unified-memory start of a hybrid model (Mamba/GDN layers) whose
vision tower vLLM profiles keeps beyond ``UMA_HOST_GIB``. Every public DGX Spark start of that kind
(Qwen3.5/3.6, all first starts) leaves more host memory than the other models, already at batches
where the same models on discrete GPUs keep at most 0.9 GiB beyond kvcalc's terms: 3.42 GiB
(Qwen3.5-35B-A3B FP8, 2,048 batched tokens, v0.18), 2.56 and 4.20 (two first starts of one
Qwen3.6-35B-A3B NVFP4 command with MTP, 8,192, v0.22) and 0.81 (Qwen3.6-35B-A3B NVFP4, 8,192,
v0.20). Neither half alone does it: Qwen3.6-35B-A3B with --language-model-only leaves -0.56 GiB
and a Nemotron hybrid +0.93 (text-only), and Gemma 4 26B-A4B and Gemma 3 27B starts that profile
their towers leave +1.87, -0.77 and -1.46 (no Mamba/GDN layers). The cause is not identified;
vLLM counts it because on unified memory free memory comes from the OS (vllm/utils/mem_utils.py
``MemorySnapshot.measure``, Rule.UMA_FREE_FROM_MEMAVAILABLE). The
typical value is the upper quarter of the four, as for ``UMA_HOST_GIB`` (a reserve too small weighs
three times); the larger-batch starts (32,768 and 65,536 tokens: 4.1-5.4 GiB) are held out and
check it, their band's top adding ``HYBRID_TOWER_EXCESS_GIB``."""


def unified_memory_reserve(version: Version, unified: bool, weights_on_gpu: int = 0,
                           hybrid_tower: bool = False) -> tuple[int, int, int]:
    """Typical, low and high bytes of host memory vLLM counts against the pool on a unified-memory
    GPU (``UMA_HOST_GIB``, plus ``UMA_HYBRID_TOWER_GIB`` for a hybrid model whose vision tower
    vLLM profiles: ``hybrid_tower``); none on a discrete one. Before v0.11.1 free memory was CUDA's
    figure, which counts page cache as used, so a checkpoint read from disk while loading may count
    as well: the band's top adds this GPU's weights."""
    if not unified:
        return (0, 0, 0)
    typical, low, high = (int(g * GIB) for g in UMA_HOST_GIB)
    if hybrid_tower:
        typical, low, high = (a + int(g * GIB) for a, g in zip((typical, low, high), UMA_HYBRID_TOWER_GIB))
    if not applies(Rule.UMA_FREE_FROM_MEMAVAILABLE, version):
        high += weights_on_gpu
    return typical, low, high


@dataclass(frozen=True)
class ReserveEstimate:
    activation: tuple[int, int, int]    # typical, low, high (bytes)
    non_torch: tuple[int, int, int]
    cuda_graphs: tuple[int, int, int]
    basis: str
    measured: bool = False              # one number a user's log measured, not three estimates
    cuda_graph_basis: str = ""          # Text; empty only for a measured reserve
    non_torch_basis: str = ""
    cold_compile: tuple[int, int, int] = (0, 0, 0)   # a first start's extra (cold_compile_reserve)
    cold_compile_basis: str = ""
    compile_table: int = 0              # bytes of the embedding table the stage's compiled graph looks up
    cold_compile_kept: int = 0          # of cold_compile's typical bytes, those vLLM counts as non-torch
    cold_compile_kept_possible: int = 0  # a freed table copy the band's reserve end allows and the typical
                                         # value leaves out (cold_kept_copies: model runner V2, v0.27-v0.30)
    unified_memory: tuple[int, int, int] = (0, 0, 0)  # host memory counted on unified memory
    unified_memory_basis: str = ""
    notes: tuple[str, ...] = ()         # Texts: what these terms leave out or where a setting is idle


def estimate_reserve(config: dict[str, Any], version: Version, *, tp: int, pp: int, mnbt: int,
                     max_num_seqs: int, vocab: int, dtype_bytes: int, cuda_graphs: bool,
                     model_runner_v2: bool = False, last_stage: bool = True, first_stage: bool = True,
                     platform: str = "cuda", flashinfer_sampler: bool | None = None,
                     max_model_len: int = 0, mm_profiling: bool = True, decode_query_len: int = 1,
                     capability_major: int = 0, hybrid: bool = False,
                     peer_to_peer: bool = True, nvswitch: bool = False, max_capture_size: int | None = None,
                     capture_sizes: tuple[int, ...] | None = None, compiled: bool = True,
                     mm_limits: MmLimits | None = None, mm_processor: MmProcessor | None = None,
                     compile_cache: str | None = None, unified_memory: bool = False,
                     stage_weights: int = 0, capability: str = "",
                     quick_reduce_level: str | None = None, spec_method: str | None = None,
                     pinned_memory: bool | None = None, interactivity: bool = False,
                     embeds_in_graph: bool = True, full_graphs: bool = True,
                     flashinfer_attention: bool = False, moe_workspace: str = "",
                     cudagraph_mode: str | None = None, allreduce_fusion_pass: bool = True,
                     expert_parallel: bool = False, fp4_indexer: bool = False,
                     graphs_captured: bool = False, flashinfer_workspace: int = FLASHINFER_WORKSPACE_BYTES,
                     flashinfer_trtllm_decode: bool = False,
                     nccl_graphs: NcclGraphs = NcclGraphs(), peer_to_peer_said: bool = False) -> ReserveEstimate:
    """Typical, low and high of each term for one pipeline stage. The band's low end assumes
    FlashInfer's sampler unless the user said which sampler runs (``flashinfer_sampler``). The
    vision tower is profiled on the first stage unless ``mm_profiling`` is off
    (``--skip-mm-profiling``); ``compiled`` is false with --enforce-eager (vLLM's custom ops on).
    ``unified_memory`` is the GPU's (DGX Spark), ``stage_weights`` the bytes of weights it holds,
    ``capability`` its compute capability or gfx name (the all-reduce buffers below),
    ``quick_reduce_level`` VLLM_ROCM_QUICK_REDUCE_QUANTIZATION, ``spec_method`` the speculative
    method (n-gram's token ids on V2: ``dense_token_ids_bytes``; the V1 runner's rejection-sampler
    warm-up: ``rejection_warmup_bytes``), ``pinned_memory`` False where vLLM
    has no pinned host memory (WSL2: the same token ids in GPU memory), ``interactivity``
    --performance-mode interactivity (its capture sizes), ``embeds_in_graph`` whether the compiled
    graph looks the input embeddings up itself (text input; ``compile_peak_bytes``), ``full_graphs``
    whether the attention backend keeps the default mode's full graphs (kvspecs.full_cuda_graphs;
    piecewise graphs only where it does not), ``flashinfer_attention`` whether the attention runs on
    FlashInfer (kvspecs.flashinfer_attention: its workspace lands in the first full graph's
    capture, ``FLASHINFER_WORKSPACE_BYTES``; ``flashinfer_workspace`` the metadata builder's own,
    ``flashinfer_workspace_bytes``, which the V1 runner's estimate holds instead where FlashInfer does
    not decode through TensorRT-LLM's kernels, ``flashinfer_trtllm_decode``), ``nccl_graphs`` whether NCCL
    runs the TP all-reduces inside the graphs, surely and possibly (``nccl_in_graphs``: each graph then
    costs more per layer, ``NCCL_GRAPH_MIB_PER_LAYER``; ``peer_to_peer_said``: ``peer_to_peer`` is the user's or a
    log's, not the card's usual case), ``moe_workspace`` whether the fused-MoE workspaces
    outlive the forward pass (``moe_workspace_bytes``): "kept" (16-bit experts: the typical value
    counts them), "possible" (other expert kernels, whose own shapes kvcalc does not size: the
    band's reserve end counts the Triton experts' shapes) or "" (before v0.14, or no experts).
    Non-torch memory adds ROCm quick
    all-reduce's buffer (``quick_reduce_bytes``) and FlashInfer's all-reduce fusion workspace
    (``allreduce_fusion_bytes``: in the typical value and the band's top, not its low end, where
    flashinfer may be missing; ``nvswitch``: the GPUs share NVSwitch multicast, which picks its
    MNNVL layout from v0.25; ``allreduce_fusion_pass``: the optimization level runs the fusion pass,
    settings.allreduce_fusion_pass). ``expert_parallel``: --enable-expert-parallel, whose GPUs run
    whole experts (``forward_bytes``'s ``expert_tp`` of 1). ``graphs_captured``: the pool pays for what
    the capture keeps, not vLLM's estimate (v0.34's extensible KV cache, which also runs the warm-up's
    steps, and so allocates FlashInfer's workspace, before it measures)."""
    era = era_for(version, model_runner_v2)
    expert_tp = 1 if expert_parallel else tp
    rows = sampler_rows(max_num_seqs, mnbt)
    vocab_padded = padded_vocab(vocab)
    entries = rows * vocab_padded if last_stage else 0
    fwd = forward_bytes(config, mnbt, tp, dtype_bytes, compiled, moe_workspace == "kept", expert_tp)
    workspace = moe_workspace_bytes(config, mnbt, expert_tp, dtype_bytes) if moe_workspace else 0
    kept_workspace = workspace if moe_workspace == "kept" else 0
    dsv4 = deepseek_v4_peak(text_part(config), mnbt=mnbt, max_model_len=max_model_len, tp=tp,
                            capability_major=capability_major, version=version, expert_parallel=expert_parallel,
                            dspark_tokens=decode_query_len - 1 if spec_method == "dspark" else 0,
                            max_num_seqs=max_num_seqs, fp4_indexer=fp4_indexer,
                            spec_tokens=decode_query_len - 1) \
        if model_type_of(text_part(config)) == "deepseek_v4" else None
    topk = text_part(config).get("index_topk")
    if dsv4 is None and isinstance(topk, int) and not isinstance(topk, bool):
        # DeepSeek-V3.2 and GLM-5: what v0.34's indexer placeholder holds beyond the 512 MiB of earlier
        # releases, which the generic forward pass (fitted on their logs) already carries
        fwd += logits_placeholder_bytes(version, capability_major, max_num_seqs, mnbt, decode_query_len - 1,
                                        max_model_len, topk) - PREFILL_LOGITS_BYTES
    if dsv4 is not None:    # its own forward pass and the workspaces that stay (deepseek_v4_profile)
        workspace = kept_workspace = dsv4.workspace
        fwd = dsv4.workspace + max(dsv4.forward, dsv4.draft if last_stage else 0)
        moe_workspace = "kept"
    warm_up = tower_pass(config, mnbt, max_num_seqs, max_model_len, tp, dtype_bytes, version, compiled,
                         mm_limits, mm_processor) if first_stage and mm_profiling else None
    vision, kept = (warm_up.peak, warm_up.kept) if warm_up else (0, 0)
    path = sampler_path(version, model_runner_v2, platform, flashinfer_sampler, capability)
    per_entry = SAMPLER_BYTES[path]
    low_per_entry = per_entry if flashinfer_sampler is not None else min(per_entry, SAMPLER_LOW_BYTES)
    # The Triton cost rests on two logs against one that needed the sort's, and some V2 logs leave
    # room for a sort-sized peak (SAMPLER_BYTES_MRV2_GREEDY), and V2's v0.33 warm-up pass is read from
    # the code, not measured: the band's top keeps the sort's cost.
    high_per_entry = SAMPLER_BYTES_PER_ENTRY if path in ("triton", "flashinfer-native", "greedy", "v2-flashinfer",
                                                         "v2-triton") \
        else per_entry
    plain_per_entry = per_entry
    if spec_method and not model_runner_v2:
        native = native_top_k_top_p_bytes(version, platform)
        per_entry, low_per_entry, high_per_entry = (
            rejection_warmup_bytes(version, x, native) for x in (per_entry, low_per_entry, high_per_entry))

    def peak(sampler_bytes: float, held: int, forward: int) -> int:
        # the encoder cache and the pixel values outlive the language model's pass and the
        # sampler: profile_run clears the cache after both (both model runners); so do the
        # fused-MoE workspaces the forward pass left with the WorkspaceManager (``held``)
        return int(max(vision, kept + max(forward, held + sampler_bytes)))
    act = peak(entries * per_entry, kept_workspace, fwd)
    act_low = peak(entries * low_per_entry, kept_workspace, fwd)
    # the band's reserve end holds a possible workspace in the modular shapes too
    fwd_high = forward_bytes(config, mnbt, tp, dtype_bytes, compiled, True, expert_tp) \
        if moe_workspace == "possible" else fwd
    act_high = peak(entries * high_per_entry, workspace, fwd_high)
    spread = int(era.spread_gib * GIB)
    cg, cg_basis = (0, 0, 0), Text("basis.cuda_graphs_none")
    if cuda_graphs:
        sizes = cudagraph_capture_sizes(version, max_num_seqs, mnbt, decode_query_len, capability_major,
                                        model_runner_v2, max_capture_size, capture_sizes, interactivity,
                                        cudagraph_mode, full_graphs)
        round_decode = model_runner_v2 and applies(Rule.MRV2_SPEC_CAPTURE_ROUNDING_DROPPED, version)
        piecewise, full = graphs_for_mode(cudagraph_mode, sizes, max_num_seqs, decode_query_len, full_graphs,
                                          round_decode)
        split = None if capture_sizes or max_capture_size is not None else split_capture_graphs(
            version, capability_major, max_num_seqs, mnbt, decode_query_len, interactivity)
        if split is not None:
            prefill, decode = split
            piecewise, full = graphs_of_mode(cudagraph_mode, len(prefill), len(decode), full_graphs)
            sizes = tuple(sorted({*prefill, *decode}))
        # no graph to capture, nothing estimated (gpu_model_runner.py profile_cudagraph_memory)
        layers = _n(text_part(config), "num_hidden_layers")
        # FlashInfer's workspace, allocated by the first full graph the estimate captures, holds that
        # capture's scratch: it stands in for a hybrid model's first-capture term (HYBRID_FIRST_CAPTURE_GIB)
        workspace_in_estimate = flashinfer_attention and full > 0 and not graphs_captured
        # model runner V2 captures its graphs at short contexts (HYBRID_FIRST_CAPTURE_GIB): no state-layer scratch
        first_capture = hybrid and not workspace_in_estimate and not model_runner_v2
        cg = cuda_graph_estimate(piecewise + full, model_runner_v2, first_capture, platform,
                                 layers, deepseek_v4=dsv4 is not None, captured=graphs_captured) \
            if piecewise + full else (0, 0, 0)
        per_graph = graph_mib(model_runner_v2, platform, layers, dsv4 is not None, graphs_captured)
        per = round(per_graph[0], 1)
        largest = sizes[-1] if sizes else 0
        if per_graph is CUDA_GRAPH_MIB_CAPTURED_V2:
            cg_basis = Text("basis.cuda_graphs_captured", piecewise=piecewise, full=full, largest=largest, per=per)
        else:
            cg_basis = Text("basis.cuda_graphs_hybrid", piecewise=piecewise, full=full, largest=largest, per=per,
                            first=HYBRID_FIRST_CAPTURE_GIB[0]) if first_capture else \
                Text("basis.cuda_graphs", piecewise=piecewise, full=full, largest=largest, per=per)
        if hybrid and model_runner_v2 and piecewise + full:
            cg_basis = join_texts([cg_basis, Text("basis.state_first_capture_v2", first=HYBRID_FIRST_CAPTURE_GIB[0])])
        if split is not None and piecewise:
            # the prefill graphs reach 8,192 tokens, where kvcalc's per-graph figure comes from graphs of at
            # most 512-1,024: the band's top also holds one forward pass of the largest in the graph pool
            pool = forward_bytes(config, max(split[0]), tp, dtype_bytes, compiled, False, expert_tp)
            cg = (cg[0], cg[1], cg[2] + pool)
            cg_basis = join_texts([cg_basis, Text("basis.cuda_graphs_split", prefill=len(split[0]),
                                                  largest=max(split[0]), decode=len(split[1]), gib=pool / GIB)])
        if graphs_priced_per_layer(platform, layers):
            cg_basis = join_texts([cg_basis, Text("basis.cuda_graphs_rocm", layers=layers,
                                                  per_layer=ROCM_GRAPH_MIB_PER_LAYER[0])])
        if cudagraph_mode is not None:
            cg_basis = Text("basis.cuda_graphs_mode_none", mode=cudagraph_mode) if not piecewise + full else \
                join_texts([cg_basis, Text("basis.cuda_graphs_mode", mode=cudagraph_mode)])
        if nccl_graphs.possibly and piecewise + full and dsv4 is None:
            # NCCL's captured all-reduces: every graph holds those of this stage's layers (DeepSeek-V4's own
            # price, DSV4_GRAPH_MIB, comes from a start that ran them on NCCL already)
            stage_layers = cdiv(layers, pp)
            typical, low, high = nccl_graph_bytes(piecewise + full, stage_layers, tp)
            surely = nccl_graphs.surely
            cg = (cg[0] + (typical if surely else 0), cg[1] + (low if surely else 0), cg[2] + high)
            per_layer = NCCL_GRAPH_MIB_PER_LAYER[min(tp, 3)][0]
            cg_basis = join_texts([cg_basis, Text("basis.cuda_graphs_nccl" if surely else "basis.cuda_graphs_nccl_possible",
                                                  layers=stage_layers, per_layer=per_layer, gib=typical / GIB,
                                                  why=NCCL_REASONS[nccl_graphs.why])])
        if drafter_graphs_in_estimate(version, model_runner_v2, spec_method) and cg[2]:
            cg = (cg[0], cg[1], cg[2] + int(DRAFTER_GRAPHS_HIGH_GIB * GIB))
            cg_basis = join_texts([cg_basis, Text("basis.cuda_graphs_drafter", high=DRAFTER_GRAPHS_HIGH_GIB)])
        if workspace_in_estimate:
            # V1's first full capture allocates the workspace its decode uses: TensorRT-LLM's fixed
            # 394 MiB, or the builder's (flashinfer_workspace_bytes) for FlashInfer's own decode kernels;
            # model runner V2 allocates the builder's before it measures and prices FlashInfer as its
            # public twins show. What the builder's holds past 394 MiB is in every end of the band.
            held = flashinfer_workspace if not (model_runner_v2 or flashinfer_trtllm_decode) \
                else FLASHINFER_WORKSPACE_BYTES
            extra = held - FLASHINFER_WORKSPACE_BYTES
            if hybrid:
                # the workspace holds the first capture's scratch (HYBRID_FIRST_CAPTURE_GIB): all of it
                # where typical, the hybrid term's reach at either end of the band
                low, high = int(HYBRID_FIRST_CAPTURE_GIB[1] * GIB), int(HYBRID_FIRST_CAPTURE_GIB[2] * GIB)
                cg = (cg[0] + held, cg[1] + low + extra, cg[2] + max(held, high))
                cg_basis = join_texts([cg_basis, Text("basis.flashinfer_workspace_hybrid", mib=held >> 20)])
            else:
                # the band's optimistic end leaves the fixed part out (one public start's estimate did not
                # carry it), its top counts all of it, the typical value what public twins show
                # (FLASHINFER_IN_ESTIMATE_BYTES)
                cg = (cg[0] + FLASHINFER_IN_ESTIMATE_BYTES + extra, cg[1] + extra, cg[2] + held)
                cg_basis = join_texts([cg_basis, Text("basis.flashinfer_workspace",
                                                      typical=(FLASHINFER_IN_ESTIMATE_BYTES + extra) >> 20,
                                                      mib=held >> 20)])
    if flashinfer_attention and graphs_captured:
        # the warm-up's steps build attention metadata, so the builder's workspace is allocated, graphs
        # or not, before the extensible cache measures the free memory, and so is TensorRT-LLM's own
        # where FlashInfer decodes through it; the profile's estimate never holds them
        held = flashinfer_workspace + (FLASHINFER_WORKSPACE_BYTES if flashinfer_trtllm_decode else 0)
        cg_basis = join_texts([cg_basis, Text("basis.flashinfer_workspace_warmup", mib=held >> 20)]) if cg[2] else \
            Text("basis.flashinfer_workspace_warmup_only", mib=held >> 20)
        cg = tuple(x + held for x in cg)  # type: ignore[assignment]
    basis = Text("basis.activation", sampler=SAMPLER_NAMES[path], rows=rows, vocab=vocab_padded,
                 per_entry=per_entry, mnbt=mnbt)
    if per_entry > plain_per_entry:
        basis = join_texts([basis, Text("basis.rejection_warmup", plain=plain_per_entry)])
    if dsv4 is not None:
        basis = join_texts([basis, Text("basis.dsv4_forward", gib=dsv4.forward / GIB,
                                        workspace=dsv4.workspace / GIB, kind=DSV4_WORKSPACE_KINDS[dsv4.workspace_kind])])
        if dsv4.draft:
            basis = join_texts([basis, Text("basis.dspark_draft", gib=dsv4.draft / GIB)])
    elif kept_workspace:
        basis = join_texts([basis, Text("basis.moe_workspace_kept", gib=workspace / GIB)])
    elif workspace:
        basis = join_texts([basis, Text("basis.moe_workspace_possible", gib=workspace / GIB)])
    if warm_up is not None and vision:
        items, tokens = warm_up.items, warm_up.item.budget_tokens
        video = warm_up.item.modality == "video"
        if warm_up.encoder_free:
            tower = Text("basis.embedder_video" if video else "basis.embedder_image", items=items, tokens=tokens,
                         mib=vision / MIB)
        else:
            tower = Text("basis.vision_video" if video else "basis.vision_image", items=items, tokens=tokens,
                         gib=vision / GIB)
        held = Text("basis.mm_kept_padded", rows=warm_up.rows, gib=kept / GIB) \
            if warm_up.rows > warm_up.item.embeddings else Text("basis.mm_kept", gib=kept / GIB)
        basis = join_texts([basis, tower, held])
    notes: list[str] = []
    excess = hybrid_tower_excess(hybrid, bool(vision), mnbt)
    if excess:
        act_high += excess
        basis = join_texts([basis, Text("basis.hybrid_tower_excess", gib=excess / GIB,
                                        per=HYBRID_TOWER_EXCESS_GIB_PER_16K, most=HYBRID_TOWER_EXCESS_GIB,
                                        tokens=HYBRID_TOWER_EXCESS_MIN_TOKENS)])
        notes.append(Text("note.hybrid_tower_excess", low=HYBRID_TOWER_EXCESS_GIB_PER_16K,
                          gib=HYBRID_TOWER_EXCESS_GIB, tokens=HYBRID_TOWER_EXCESS_MIN_TOKENS))
    # without the fusion pass (-O0, -O1) a compiled graph's all-reduces run as eager ones do
    allreduce_fusion = allreduce_fusion_bytes(version, platform, capability, tp, mnbt,
                                              _n(text_part(config), "hidden_size"), dtype_bytes,
                                              compiled and allreduce_fusion_pass, nvswitch)
    quick_reduce = quick_reduce_bytes(quick_reduce_level, platform, capability, tp, dtype_bytes)
    if (quick_reduce_level or "NONE").upper() != "NONE" and not quick_reduce:
        notes.append(Text("note.quick_reduce_idle"))
    single, single_note = single_gpu_non_torch(platform, capability_major)
    nt = non_torch_estimate(tp, pp, era.spread_gib, fixed_part_gib(era, compiled), peer_to_peer, single)
    nt_basis = non_torch_basis(tp, pp, era, peer_to_peer, compiled, single, single_note, peer_to_peer_said)
    penalties = penalty_buffer_bytes(version, model_runner_v2, max_num_seqs, vocab) if last_stage else 0
    prepaid = cublas_prepaid_bytes(version, platform, capability_major)
    token_rows, unpinned = dense_token_id_rows(version, model_runner_v2, spec_method, pinned_memory,
                                               mrope_position_dims(config))
    token_ids = token_id_rows_bytes(token_rows, max_num_seqs, max_model_len)
    extras: list[tuple[int, bool, str]] = []    # (bytes, at the band's low end too, why)
    nvls = nvls_bytes(tp, nvswitch, platform)
    if nvls:                    # not at the low end: NVLS can be off (NCCL_NVLS_ENABLE=0, no multicast)
        extras.append((nvls, False, Text("basis.nvls", gib=nvls / GIB, tp=tp)))
    if allreduce_fusion:        # not at the low end: flashinfer may be missing
        extras.append((allreduce_fusion, False, Text("basis.allreduce_fusion", gib=allreduce_fusion / GIB,
                                                     tp=tp, backend=allreduce_backend(version, nvswitch))))
    if prepaid:
        extras.append((-prepaid, True, Text("basis.cublas_prepaid", mib=prepaid >> 20) if prepaid == CUBLAS_PREPAID_BYTES
                       else Text("basis.cublas_prepaid_capped", mib=prepaid >> 20, measured=CUBLAS_PREPAID_BYTES >> 20)))
    if quick_reduce:
        extras.append((quick_reduce, True, Text("basis.quick_reduce", gib=quick_reduce / GIB)))
    if token_ids:
        why = Text("basis.dense_token_ids_unpinned", seqs=max_num_seqs, rows=token_rows, length=max_model_len,
                   gib=token_ids / GIB) if unpinned else \
            Text("basis.dense_token_ids", seqs=max_num_seqs, length=max_model_len, gib=token_ids / GIB)
        extras.append((token_ids, True, why))
    if penalties:
        extras.append((penalties, True, Text("basis.penalty_buffer", seqs=max_num_seqs, vocab=vocab,
                                             gib=penalties / GIB)))
    for amount, low_too, why in extras:
        nt = (max(0, nt[0] + amount), max(0, nt[1] + amount) if low_too else nt[1], max(0, nt[2] + amount))
        nt_basis = join_texts([nt_basis, why])
    table, per_layer = compile_table_bytes(config, vocab, tp, dtype_bytes) if first_stage and embeds_in_graph \
        else (0, False)
    cold = cold_compile_reserve(version, compiled, compile_cache, table, act, tied_embeddings(config),
                                model_runner_v2)
    cold_kept = cold_kept_bytes(version, model_runner_v2, cold, table)
    cold_basis = cold_compile_basis(compile_cache == "cold", per_layer, compile_peak_bytes(table), table,
                                    cold[0] - cold_kept, cold[2]) if cold[2] else ""
    kept_high = cold_kept_copies(version, model_runner_v2)[2] * table
    if cold[2] and (cold_kept or kept_high):
        cold_basis = join_texts([cold_basis, Text("basis.cold_compile_kept", gib=cold_kept / GIB)
                                 if cold_kept else Text("basis.cold_compile_kept_possible", gib=kept_high / GIB)])
    hybrid_tower = hybrid and bool(vision)
    uma = unified_memory_reserve(version, unified_memory, stage_weights, hybrid_tower)
    uma_basis = "" if not uma[2] else \
        Text("basis.unified_memory", gib=uma[0] / GIB, low=uma[1] / GIB, high=uma[2] / GIB) \
        if applies(Rule.UMA_FREE_FROM_MEMAVAILABLE, version) else \
        Text("basis.unified_memory_page_cache", gib=uma[0] / GIB, high=uma[2] / GIB)
    if uma[2] and hybrid_tower:
        uma_basis = join_texts([uma_basis, Text("basis.unified_memory_hybrid_tower", gib=UMA_HYBRID_TOWER_GIB[0],
                                                low=UMA_HYBRID_TOWER_GIB[1], high=UMA_HYBRID_TOWER_GIB[2])])
    return ReserveEstimate((act, act_low, act_high + spread), nt, cg, basis,
                           cuda_graph_basis=cg_basis, non_torch_basis=nt_basis,
                           cold_compile=cold, cold_compile_basis=cold_basis, compile_table=table,
                           cold_compile_kept=cold_kept,
                           cold_compile_kept_possible=int(kept_high) if cold[2] and not cold_kept else 0,
                           unified_memory=uma, unified_memory_basis=uma_basis, notes=tuple(notes))
