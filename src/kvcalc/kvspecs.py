"""From a model's layers to the KV cache specs of each pipeline stage on one GPU.

Applies tensor parallelism (KV heads split, replicated when fewer than GPUs), the KV
cache dtype, the block size vLLM's attention backend picks, the hybrid-model block
alignment to the Mamba page, and the layer split of pipeline parallelism.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .compressed_kv import BLOCK_SIZE, layer_specs
from .dtypes import FP8_DS_MLA_BYTES_PER_TOKEN, KvDtype, model_dtype_bytes
from .errors import SettingsError, UnsupportedModelError
from .hf_config import AttentionLayer, MambaDims, ModelArch
from .messages import Text
from .specs import (ChunkedLocalSpec, FullAttentionSpec, LayerSpec, MambaSpec, MLASpec,
                    SlidingWindowSpec)
from .units import cdiv
from .settings import block_size_accepted, block_size_refused
from .versions import Rule, Version, applies

def parse_capability(text: str) -> tuple[int, int] | None:
    """"9.0" → (9, 0); None for a gfx name or an unknown GPU."""
    major, _, minor = (text or "").partition(".")
    return (int(major), int(minor or 0)) if major.isdigit() and (minor or "0").isdigit() else None


@dataclass(frozen=True)
class GpuTarget:
    """What of the GPU changes the layout: its architecture picks the attention backend."""

    arch: str = "hopper"            # volta, turing, ampere, ada, hopper, blackwell, cdna3, rdna2 …
    compute_capability: str = "9.0"
    platform: str = "cuda"          # cuda or rocm

    @property
    def major(self) -> int:
        try:
            return int(self.compute_capability.split(".")[0])
        except ValueError:
            return 0


@dataclass(frozen=True)
class Layout:
    """The specs vLLM builds, per pipeline stage (``{layer name: spec}``), and why."""

    stages: tuple[dict[str, LayerSpec], ...]
    block_size: int
    block_size_reason: str
    attention_token_bytes: int      # bytes per token of one full-attention layer on one GPU
    kv_heads_per_gpu: int
    mamba_state_bytes: int = 0
    hybrid_manager: bool = True
    notes: tuple[str, ...] = field(default=())

    @property
    def all_specs(self) -> dict[str, LayerSpec]:
        merged: dict[str, LayerSpec] = {}
        for stage in self.stages:
            merged.update(stage)
        return merged


def pp_partition(num_layers: int, pp: int) -> list[int]:
    """Layers per stage, as ``get_pp_indices`` (vllm/distributed/utils.py): the remainder
    goes to the stages before the last, nearest the last first: 61 layers, PP 4 -> [15, 15, 16, 15]."""
    base = [num_layers // pp] * pp
    for i in range(2, num_layers % pp + 2):
        base[-i] += 1
    return base


def kv_heads_per_gpu(total: int, tp: int) -> int:
    """``ModelConfig.get_num_kv_heads``: max(1, heads // TP); fewer heads than GPUs are replicated."""
    return max(1, total // tp)


def _tp_problem(arch: ModelArch, tp: int) -> str | None:
    """vLLM's own checks: attention heads divide by TP; KV heads divide TP or by TP; a Mamba2 mixer's
    groups divide by TP unless there is one, which every GPU keeps (mamba_mixer2.py MambaMixer2)."""
    if arch.num_attention_heads and arch.num_attention_heads % tp:
        return Text("tp.heads", heads=arch.num_attention_heads, tp=tp)
    if arch.compressed is not None and arch.compressed.o_groups % tp:
        # DeepSeek-V4's wo_a: o_groups / TP groups on each GPU (vllm/models/deepseek_v4/attention.py)
        return Text("tp.o_groups", groups=arch.compressed.o_groups, tp=tp)
    dims = arch.mamba
    if dims is not None and dims.flavour == "mamba2" and dims.n_groups > 1 and dims.n_groups % tp:
        return Text("tp.mamba_groups", groups=dims.n_groups, tp=tp)
    for layer in arch.layers:
        h = layer.num_kv_heads
        if layer.kind in ("full", "sliding_window", "chunked_local") and h and \
                ((h >= tp and h % tp) or (h < tp and tp % h)):
            return Text("tp.kv_heads", heads=h, tp=tp)
    return None


def _tp_ok(arch: ModelArch, tp: int) -> bool:
    return _tp_problem(arch, tp) is None


def check_tensor_parallel(arch: ModelArch, tp: int) -> None:
    problem = _tp_problem(arch, tp)
    if problem:
        valid = [t for t in (1, 2, 4, 8, 16) if _tp_ok(arch, t)]
        raise SettingsError({"--tensor-parallel-size": Text(
            "tp.sizes_that_work", problem=problem, sizes=", ".join(map(str, valid)))
            if valid else Text("tp.no_size_works", problem=problem)})


def mla_backend(arch: ModelArch, gpu: GpuTarget, version: Version, sixteen_bit_cache: bool = True) -> str:
    """The attention backend vLLM picks for an MLA model when none is asked for (vllm/platforms/cuda.py,
    from v0.18 the backends' priorities and what each supports):

    - sparse MLA (DeepSeek-V3.2's indexer): "flashmla_sparse" (64-token blocks); on ROCm
      "rocm_mla_sparse" (AITER's sparse backend, ``rocm_sparse_mla_block``);
    - Hopper: "flashmla", forced before v0.18; from v0.18 "flash_attn_mla", except for an fp8 cache,
      which only FlashMLA holds (Rule.MLA_BLOCK_FROM_BACKEND);
    - Blackwell 10.x: "cutlass_mla" from v0.10.1 on 10.0 (Rule.MLA_BLACKWELL_CUTLASS) and from v0.13 on
      every 10.x (Rule.MLA_BLACKWELL_FAMILY); "flashinfer_mla" from v0.15 where its kernel takes
      qk_nope_head_dim (128; 64 and 128 from v0.18, 192 too from v0.19: Rule.MLA_BLACKWELL_FLASHINFER,
      Rule.FLASHINFER_MLA_NOPE_192);
    - anything else (Ampere, Ada, 12.x, ROCm without AITER, B300 before v0.13): "triton_mla".
    ``sixteen_bit_cache``: the KV cache holds 16-bit values (FLASH_ATTN_MLA takes no other)."""
    if arch.sparse_mla_index_head_dim:
        return "rocm_mla_sparse" if gpu.platform == "rocm" else "flashmla_sparse"
    if gpu.platform != "cuda":
        return "triton_mla"
    by_backend = applies(Rule.MLA_BLOCK_FROM_BACKEND, version)
    if gpu.major == 9:
        return "flash_attn_mla" if by_backend and sixteen_bit_cache else "flashmla"
    blackwell = gpu.compute_capability == "10.0" and applies(Rule.MLA_BLACKWELL_CUTLASS, version) or \
        gpu.major == 10 and applies(Rule.MLA_BLACKWELL_FAMILY, version)
    if not blackwell:
        return "triton_mla"
    widths = (64, 128, 192) if applies(Rule.FLASHINFER_MLA_NOPE_192, version) else (64, 128) if by_backend \
        else (128,) if applies(Rule.MLA_BLACKWELL_FLASHINFER, version) else ()
    return "flashinfer_mla" if arch.mla_qk_nope_head_dim in widths else "cutlass_mla"


_MLA_BLOCKS = {"flashmla_sparse": (64, Text("block.sparse_mla")), "flash_attn_mla": (16, Text("block.mla_hopper")),
               "flashmla": (64, Text("block.mla_hopper_flashmla")),
               "cutlass_mla": (128, Text("block.mla_blackwell_cutlass")), "triton_mla": (16, Text("block.mla_triton"))}
_MLA_NAMES = {"flash_attn_mla": "FLASH_ATTN_MLA", "triton_mla": "TRITON_MLA", "flashinfer_mla": "FLASHINFER_MLA",
              "rocm_mla_sparse": "ROCM_AITER_MLA_SPARSE"}
_MLA_BLOCKS_64 = {"flash_attn_mla", "triton_mla", "flashinfer_mla", "rocm_mla_sparse"}
"""MLA backends whose kernels take the 64-token default of v0.34 (Rule.DEFAULT_BLOCK_SIZE_64; FLASH_ATTN_MLA,
Triton MLA and ROCm's sparse MLA take multiples of 16, FlashInfer MLA 32 or 64: ``get_supported_kernel_block_sizes``),
so the default stands; FlashMLA's 64 and CUTLASS MLA's 128 are their own."""


def rocm_sparse_mla_block(version: Version) -> tuple[int, Text]:
    """The default block of sparse MLA (DeepSeek-V3.2, GLM-5) on ROCm, where AITER's sparse backend and
    the indexer run it: 16 from v0.28, whose kernels take multiples of 16
    (Rule.ROCM_SPARSE_MLA_BLOCK_16; rocm_aiter_mla_sparse.py and mla/indexer.py
    ``get_supported_kernel_block_sizes`` [1, MultipleOf(16)]); 1 token before, where they took [1] or
    [1, 64] and the backend's preference replaced the default 16 by the smallest (from v0.18,
    Rule.MLA_BLOCK_FROM_BACKEND); before v0.18 vLLM asserts --block-size 1 (``rocm_sparse_mla_problem``)."""
    if applies(Rule.ROCM_SPARSE_MLA_BLOCK_16, version):
        return 16, Text("block.rocm_sparse_mla_16")
    return 1, Text("block.rocm_sparse_mla_1")


def rocm_sparse_mla_problem(arch: ModelArch, gpu: GpuTarget, version: Version, block_size: int | None,
                            kv_name: str) -> tuple[str, Text] | None:
    """Why vLLM before v0.18 stops for sparse MLA on ROCm, or None: it has no sparse MLA backend there
    before v0.12 (Rule.ROCM_SPARSE_MLA); v0.12-v0.17's platforms/rocm.py ``get_attn_backend_cls``
    asserts a block size of 1 (there is no default then) and raises for an fp8 KV cache
    ('ROCMAiterMLASparseBackend doesn't support fp8 kv_cache_dtype')."""
    if gpu.platform != "rocm" or not arch.sparse_mla_index_head_dim or applies(Rule.MLA_BLOCK_FROM_BACKEND, version):
        return None
    if not applies(Rule.ROCM_SPARSE_MLA, version):
        return "--vllm-version", Text("block.rocm_sparse_mla_missing", version=str(version),
                                      since=str(Rule.ROCM_SPARSE_MLA.value.since))
    if kv_name.startswith("fp8"):
        return "--kv-cache-dtype", Text("block.rocm_sparse_mla_fp8", version=str(version))
    if block_size != 1:
        return "--block-size", Text("block.rocm_sparse_mla_needs_1", version=str(version),
                                    since=str(Rule.MLA_BLOCK_FROM_BACKEND.value.since))
    return None


MM_PREFIX_COMPOSITE_HEADS = frozenset({256, 512})
MM_PREFIX_COMPOSITE_BLOCK = 64
"""TRITON_FLASHINFER (vllm/v1/attention/backends/triton_flashinfer.py, v0.30-v0.33): Triton attends
over image tokens, FlashInfer runs the causal part; it takes heads of 256 and 512 and kernel blocks
of 64 tokens only."""


def mm_prefix_composite(arch: ModelArch, gpu: GpuTarget, version: Version, mm_prefix: bool) -> bool:
    """Whether vLLM runs this model on the TRITON_FLASHINFER composite: from v0.30
    (Rule.MM_PREFIX_COMPOSITE_BACKEND) the CUDA priority puts it first on compute capability 10.x for
    a model that attends fully over image tokens (``mm_prefix``: Gemma 4 with bidirectional vision
    attention, Gemma 3 4B/12B), where every attention head is 256 or 512 wide
    (platforms/cuda.py ``_get_backend_priorities``). Its 64-token kernel block then sets the default
    block size (``AttentionBackend.get_preferred_block_size``)."""
    if not mm_prefix or gpu.platform != "cuda" or arch.is_mla or arch.has_state_layers or \
            not applies(Rule.MM_PREFIX_COMPOSITE_BACKEND, version):
        return False
    cc = parse_capability(gpu.compute_capability)
    heads = attention_head_sizes(arch)
    return cc is not None and cc[0] == 10 and bool(heads) and heads <= MM_PREFIX_COMPOSITE_HEADS


ROCM_ATTN_HEAD_SIZES = frozenset({32, 64, 80, 96, 128, 160, 192, 224, 256})
"""Head sizes ROCM_ATTN takes (vllm/v1/attention/backends/rocm_attn.py, v0.29-v0.33)."""
ROCM_UNIFIED_BLOCK = 64
"""ROCM_AITER_UNIFIED_ATTN's preferred block (rocm_aiter_unified_attn.py ``get_preferred_block_size``)."""


def rocm_unified_attention(arch: ModelArch, gpu: GpuTarget, version: Version, kv_connector: bool) -> bool:
    """Whether vLLM runs this model on ROCM_AITER_UNIFIED_ATTN, whose preferred 64-token block then
    replaces the default 16 (Rule.ROCM_UNIFIED_ATTN_BLOCK_64, v0.29). On CDNA 3 and 4 (MI300X, MI325X,
    MI355X) with AITER installed, as in vLLM's ROCm images, the ROCm priority (platforms/rocm.py
    ``_get_backend_priorities``) puts it after ROCM_ATTN, which takes no attention sinks (gpt-oss),
    only the heads of ``ROCM_ATTN_HEAD_SIZES``, and no KV connector; VLLM_ROCM_USE_AITER=1 would put
    ROCM_AITER_FA before it, which kvcalc does not model. MLA and state-layer models are left out, and
    so are models with two head sizes (Gemma 4), which Gemma4Config puts on TRITON_ATTN where FA4 is
    missing (vllm/model_executor/models/config.py; public MI300X logs print 16-token blocks)."""
    if gpu.platform != "rocm" or gpu.arch not in ("cdna3", "cdna4") or arch.is_mla or arch.has_state_layers or \
            not applies(Rule.ROCM_UNIFIED_ATTN_BLOCK_64, version):
        return False
    heads = attention_head_sizes(arch)
    if len(heads) > 1:      # Gemma4Config forces TRITON_ATTN for mixed heads where FA4 is missing
        return False
    return kv_connector or arch.architecture == "GptOssForCausalLM" or \
        bool(heads) and not heads <= ROCM_ATTN_HEAD_SIZES and min(heads) >= 32


def backend_block(arch: ModelArch, gpu: GpuTarget, version: Version, mm_prefix: bool, kv_connector: bool,
                  forced_backend: str | None = None, kv_cache_dtype: str = "auto") -> tuple[int, Text] | None:
    """The block the backend vLLM picks prefers where it is not the release's default (None otherwise, or
    where a backend is forced): 64 on the TRITON_FLASHINFER composite (``mm_prefix_composite``) and on
    ROCM_AITER_UNIFIED_ATTN (``rocm_unified_attention``), and from v0.34, whose default is 64, ROCM_ATTN's 16
    (``rocm_attention``; not on RDNA 3/4 unless ``kv_cache_dtype`` is fp8_e5m2, TRITON_FIRST_GFX)."""
    if forced_backend is not None:
        return None
    if mm_prefix_composite(arch, gpu, version, mm_prefix):
        return MM_PREFIX_COMPOSITE_BLOCK, Text("block.mm_prefix_composite")
    if rocm_unified_attention(arch, gpu, version, kv_connector):
        return ROCM_UNIFIED_BLOCK, Text("block.rocm_unified")
    if applies(Rule.DEFAULT_BLOCK_SIZE_64, version) and rocm_attention(arch, gpu, kv_connector) and \
            not (gpu.compute_capability in TRITON_FIRST_GFX and kv_cache_dtype != "fp8_e5m2"):
        return ROCM_ATTN_BLOCK, Text("block.rocm_attn")
    return None


TRITON_FIRST_GFX = ("gfx1100", "gfx1201")
"""RDNA 3 and RDNA 4 cards on which v0.34 puts TRITON_ATTN, which takes the 64-token default, before ROCM_ATTN
unless the KV cache is fp8_e5m2 (platforms/rocm.py ``get_attn_backend_cls``)."""


ROCM_ATTN_BLOCK = 16
"""ROCM_ATTN's preferred block, which it keeps when the default grows to 64 (v0.34 rocm_attn.py
``get_preferred_block_size``: only 16 and 32 run its native paged-attention kernel)."""


def rocm_attention(arch: ModelArch, gpu: GpuTarget, kv_connector: bool) -> bool:
    """Whether ROCm runs this model on ROCM_ATTN, the first backend of its priority (platforms/rocm.py
    ``_get_backend_priorities``): not with a KV connector, attention sinks (gpt-oss), a head size it
    lacks or two head sizes (Gemma 4, put on TRITON_ATTN), nor for MLA or a model with state layers."""
    if gpu.platform != "rocm" or arch.is_mla or arch.has_state_layers or kv_connector or \
            arch.architecture == "GptOssForCausalLM":
        return False
    heads = attention_head_sizes(arch)
    return len(heads) == 1 and heads <= ROCM_ATTN_HEAD_SIZES


def default_block_size(arch: ModelArch, gpu: GpuTarget, version: Version,
                       sixteen_bit_cache: bool = True, backend_block: tuple[int, Text] | None = None
                       ) -> tuple[int, str]:
    """Tokens per block when ``--block-size`` is not given: 16 for FlashAttention, FlashInfer and
    Triton, or what the backend prefers where it is not (``backend_block``: 64 on the TRITON_FLASHINFER
    composite, ``mm_prefix_composite``, and on ROCM_AITER_UNIFIED_ATTN, ``rocm_unified_attention``);
    MLA takes the block of the backend vLLM picks for it (``mla_backend``; from v0.18
    Platform.update_block_size_for_backend): FlashMLA's 64, FLASH_ATTN_MLA's and Triton MLA's 16,
    CUTLASS_MLA's 128, and FLASHINFER_MLA's 32 from v0.18, forced to 64 in v0.15 to v0.17. From v0.34 the
    default is 64 (Rule.DEFAULT_BLOCK_SIZE_64), which every backend but ROCM_ATTN (16), FlashMLA (64) and
    CUTLASS MLA (128) keeps."""
    default_64 = applies(Rule.DEFAULT_BLOCK_SIZE_64, version)
    if not arch.is_mla:
        if backend_block is not None:
            return backend_block
        return (64, Text("block.default_64")) if default_64 else (16, Text("block.default"))
    backend = mla_backend(arch, gpu, version, sixteen_bit_cache)
    if default_64 and backend in _MLA_BLOCKS_64:
        return 64, Text("block.mla_default_64", backend=_MLA_NAMES[backend])
    if backend == "rocm_mla_sparse":
        return rocm_sparse_mla_block(version)
    if backend == "flashinfer_mla":
        if applies(Rule.MLA_BLOCK_FROM_BACKEND, version):
            return 32, Text("block.mla_blackwell_flashinfer")
        return 64, Text("block.mla_blackwell_flashinfer_forced")
    return _MLA_BLOCKS[backend]


def full_cuda_graphs(arch: ModelArch, gpu: GpuTarget, version: Version, decode_query_len: int,
                     sixteen_bit_cache: bool = True) -> bool:
    """Whether the default FULL_AND_PIECEWISE mode keeps its full graphs: vLLM drops to piecewise
    graphs only when an attention backend supports no full graph, or, with speculative decoding
    (a decode query longer than 1), none for a uniform batch of such queries
    (config/compilation.py ``resolve_cudagraph_mode_and_sizes``): Triton MLA before v0.22
    (Rule.TRITON_MLA_FULL_GRAPHS) and with speculative decoding from v0.26 to v0.30
    (Rule.TRITON_MLA_SINGLE_TOKEN_DECODE, Rule.TRITON_MLA_UNIFORM_BATCH) and CUTLASS MLA with
    speculative decoding. FlashInfer's own rule (Turing's backend before v0.24 among its cases) is
    attention.flashinfer_spec_full_graphs, which attention.keeps_full_graphs asks first."""
    if arch.is_mla:
        backend = mla_backend(arch, gpu, version, sixteen_bit_cache)
        if backend == "triton_mla":
            if not applies(Rule.TRITON_MLA_FULL_GRAPHS, version):
                return False
            return decode_query_len == 1 or not applies(Rule.TRITON_MLA_SINGLE_TOKEN_DECODE, version) or \
                applies(Rule.TRITON_MLA_UNIFORM_BATCH, version)
        return decode_query_len == 1 or backend != "cutlass_mla"
    return True


FLASHINFER_HEAD_SIZES = (64, 128, 256)
"""Head sizes FlashInfer's attention backend takes in every release kvcalc models
(``FlashInferBackend.get_supported_head_sizes``); 512 from v0.22 (``flashinfer_head_sizes``)."""


def attention_head_sizes(arch: ModelArch) -> set[int]:
    """The head sizes of the model's attention layers (full, sliding-window, chunked-local): what an
    attention backend's ``supports_head_size`` is asked about; Gemma 4 has two (256 and 512)."""
    return {l.head_size for l in arch.layers if l.kind in ("full", "sliding_window", "chunked_local")}


def flashinfer_head_sizes(version: Version) -> tuple[int, ...]:
    """The head sizes FlashInfer's backend takes in ``version`` (Rule.FLASHINFER_HEAD_512)."""
    return (*FLASHINFER_HEAD_SIZES, 512) if applies(Rule.FLASHINFER_HEAD_512, version) else FLASHINFER_HEAD_SIZES


FA_REFUSED_CACHES = ("fp8_e5m2",)
"""KV cache types FlashAttention never keeps, even FA3 on Hopper, which keeps fp8 as e4m3 only
(vllm/v1/attention/backends/fa_utils.py flash_attn_supports_kv_cache_dtype, v0.33): vLLM's priority
then moves on to FlashInfer."""


def fa_keeps_cache(kv_name: str) -> bool:
    """Whether FlashAttention takes a KV cache of this type where it takes fp8 at all (``FA_REFUSED_CACHES``;
    the per-token-head types are Triton's alone, nvfp4 FlashInfer's: ``attention.nvfp4_kv_problem``)."""
    return kv_name not in FA_REFUSED_CACHES and not kv_name.endswith("per_token_head") and \
        not kv_name.startswith("nvfp4")


def flashinfer_keeps_cache(kv_name: str) -> bool:
    """Whether FlashInfer's backend lists this cache type: not the per-token-head ones, which only
    TRITON_ATTN keeps (``supported_kv_cache_dtypes``, v0.31-v0.33 wheels)."""
    return not kv_name.endswith("per_token_head")


def flashinfer_attention(arch: ModelArch, gpu: GpuTarget, version: Version,
                         sixteen_bit_cache: bool = True, fa_cache: bool = True, fi_cache: bool = True) -> bool:
    """Whether vLLM runs the model's attention on FlashInfer, by the CUDA backend priority
    (vllm/platforms/cuda.py ``_get_backend_priorities``, v0.18–v0.33): first choice on data-centre
    Blackwell (10.x), elsewhere second after FlashAttention, which needs compute capability 8.0 or
    more, keeps an fp8 KV cache only on Hopper (FA3: ``FlashAttentionBackend.supports_kv_cache_dtype``)
    and takes attention sinks only from 9.0, where FlashInfer takes them on 10.x alone. Turing runs
    FlashInfer until v0.24 (Rule.FLASHINFER_WITHOUT_TURING). Left out, and so not FlashInfer here:
    MLA (its own backends), models with Mamba/GDN state layers (their attention block follows the
    state's page; their public starts show no FlashInfer workspace) and mixed or unsupported head
    sizes (Gemma 4's 256/512 runs on Triton), and caches it does not list (``fi_cache``:
    ``flashinfer_keeps_cache``)."""
    cc = parse_capability(gpu.compute_capability)
    if gpu.platform != "cuda" or cc is None or arch.is_mla or not fi_cache:
        return False
    heads = attention_head_sizes(arch)
    if not heads or not heads <= set(flashinfer_head_sizes(version)):
        return False
    if len(heads) > 1 and not (cc[0] == 10 and applies(Rule.GEMMA4_MIXED_HEADS_BY_PRIORITY, version)):
        return False
    sinks = arch.architecture == "GptOssForCausalLM"
    if cc[0] == 10:
        return True
    if sinks or cc < (7, 5):
        return False
    if cc[0] == 7:
        return not applies(Rule.FLASHINFER_WITHOUT_TURING, version)
    return not sixteen_bit_cache and (cc[0] != 9 or not fa_cache)


GDN_CHECKPOINT_TOKENS = 64
"""FlashInfer's GDN prefill emits states every multiple of its 64-token chunk
(vllm/v1/attention/backends/gdn_attn.py ``FLASHINFER_GDN_CHECKPOINT_ALIGNMENT``, v0.33)."""


QWEN_GDN_MODEL_TYPES = frozenset({"qwen3_next", "qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text"})
"""The models whose gated delta net is Qwen's layer (qwen_gdn_linear_attn.py), the one whose FlashInfer
prefill exports checkpoints in v0.33; OLMo-Hybrid's own layer (olmo_gdn_linear_attn.py) exports none."""


def gdn_checkpoint_alignment(arch: ModelArch, gpu: GpuTarget, version: Version, mamba_mode: str) -> int:
    """The token multiple the attention block of a hybrid must also be (1: none). From v0.33
    (Rule.GDN_CHECKPOINT_BLOCK_ALIGNMENT), in Mamba cache mode "align", a gated-delta-net model whose
    GDN prefill runs on FlashInfer exports mid-prefill checkpoints on block boundaries, so vLLM makes
    the block a multiple of 64 (platforms/interface.py ``_align_hybrid_block_size``). FlashInfer runs
    it on CUDA at compute capability 9.0, and at 10.x and 12.x for 128-wide key heads with the CUDA 13
    runtime the v0.33 wheels ship (qwen_gdn_linear_attn.py ``_resolve_gdn_prefill_backend``); such a
    layer also keeps a third state block per request (``prefill_checkpoint_blocks``)."""
    if mamba_mode != "align" or arch.mamba is None or arch.mamba.flavour != "gdn" or \
            arch.model_type not in QWEN_GDN_MODEL_TYPES or \
            not applies(Rule.GDN_CHECKPOINT_BLOCK_ALIGNMENT, version) or gpu.platform != "cuda":
        return 1
    cc = parse_capability(gpu.compute_capability)
    if cc == (9, 0) or cc is not None and cc[0] in (10, 12) and arch.mamba.head_k_dim == 128:
        return GDN_CHECKPOINT_TOKENS
    return 1


HYBRID_MLA_ALIGNMENT = 64
"""The token multiple of an MLA hybrid's attention block before v0.20 (HybridAttentionMambaModelConfig:
MLA backends other than a forced CUTLASS_MLA, which kvcalc does not offer, take 64-token kernel blocks)."""
HYBRID_MLA_MIN_ALIGNMENT = 128
"""The least token multiple of an MLA hybrid's attention block from v0.27 (Rule.HYBRID_MLA_ALIGN_128)."""


def hybrid_block_alignment(arch: ModelArch, gpu: GpuTarget, version: Version, block_size: int,
                           attention_backend: str | None = None) -> int:
    """The token multiple a hybrid's attention block is made of (Rule.HYBRID_ALIGN_FROM_BACKEND).

    Before v0.20, HybridAttentionMambaModelConfig (vllm/model_executor/models/config.py) takes 16, 64
    for MLA, and 32 for 256-wide heads on Blackwell unless another backend than FlashInfer is forced
    (FlashInfer takes no 16-token blocks there: 10.0 from v0.11.1, every 10.x from v0.13 as
    Rule.MLA_BLACKWELL_FAMILY), whatever --block-size says. From v0.20 Platform._align_hybrid_block_size
    takes the larger of the backend's smallest kernel block and the block size it starts from
    (``block_size``: the backend's preferred block or --block-size), and from v0.27 at least 128 for
    MLA (Rule.HYBRID_MLA_ALIGN_128)."""
    if not applies(Rule.HYBRID_ALIGN_FROM_BACKEND, version):
        if arch.is_mla:
            return HYBRID_MLA_ALIGNMENT
        blackwell = gpu.compute_capability == "10.0" or gpu.major == 10 and applies(Rule.MLA_BLACKWELL_FAMILY, version)
        wide = attention_head_sizes(arch) == {256}
        return 32 if gpu.platform == "cuda" and blackwell and wide and attention_backend in (None, "FLASHINFER") \
            else SMALLEST_KERNEL_BLOCK
    align = max(SMALLEST_KERNEL_BLOCK, block_size)
    if arch.is_mla and applies(Rule.HYBRID_MLA_ALIGN_128, version):
        align = max(align, HYBRID_MLA_MIN_ALIGNMENT)
    return align


def forced_mla_block(arch: ModelArch, gpu: GpuTarget, version: Version, sixteen_bit_cache: bool) -> int | None:
    """The block multiple vLLM before v0.18 forces on the MLA backend it picks after the hybrid's block
    is set (platforms/cuda.py ``check_and_update_config``): CUTLASS_MLA's 128, FlashInfer MLA's 64 (it
    also keeps exactly 32, which a hybrid's block, a multiple of 64 here, never is) and FlashMLA's 64 on
    Hopper; None where nothing is forced (Triton MLA,
    and from v0.18, Rule.MLA_BLOCK_FROM_BACKEND, where the backend's block no longer replaces the cache's)."""
    if applies(Rule.MLA_BLOCK_FROM_BACKEND, version) or not arch.is_mla:
        return None
    backend = mla_backend(arch, gpu, version, sixteen_bit_cache)
    return {"cutlass_mla": 128, "flashinfer_mla": 64, "flashmla": 64}.get(backend)


def prefill_checkpoint_blocks(arch: ModelArch, gpu: GpuTarget, version: Version, mamba_mode: str) -> int:
    """State blocks a request keeps for the prefill checkpoint its state layers export in Mamba cache
    mode "align" (``MambaSpec.num_prefill_checkpoint_blocks``, vllm/v1/kv_cache_interface.py): one for
    Mamba2 layers from v0.32 (Rule.MAMBA2_CHECKPOINT_BLOCK, mamba_mixer2.py ``get_kv_cache_spec``) and
    for gated delta nets where FlashInfer runs the prefill from v0.33 (``gdn_checkpoint_alignment``)."""
    if mamba_mode != "align" or arch.mamba is None:
        return 0
    if arch.mamba.flavour == "mamba2" and applies(Rule.MAMBA2_CHECKPOINT_BLOCK, version):
        return 1
    return 1 if gdn_checkpoint_alignment(arch, gpu, version, mamba_mode) > 1 else 0


def default_ssm_dtype(arch: ModelArch, version: Version, model_dtype: str) -> str | None:
    """The SSM state dtype vLLM takes without --mamba-ssm-cache-dtype where it differs from what the
    config's own field gives (None: that field, else the model dtype): Nemotron-H reads its config's
    ``mamba_ssm_cache_dtype`` from v0.13 (NemotronHForCausalLMConfig; Rule.NEMOTRON_H_SSM_DTYPE_FROM_CONFIG),
    float16 where it has none, float32 from v0.20 (Rule.NEMOTRON_H_SSM_FLOAT32_DEFAULT); before v0.13 the
    state followed the model dtype whatever the config said."""
    if arch.model_type != "nemotron_h" or arch.mamba is None:
        return None
    if not applies(Rule.NEMOTRON_H_SSM_DTYPE_FROM_CONFIG, version):
        return model_dtype
    if arch.mamba.ssm_dtype:
        return None
    return "float32" if applies(Rule.NEMOTRON_H_SSM_FLOAT32_DEFAULT, version) else "float16"


def speculative_slots(arch: ModelArch, version: Version) -> tuple[bool, bool]:
    """Whether (the model class's state shape, the state layer's own) keeps a conv slot per speculative
    token. vLLM pads the state to a page sized from the model class (``get_mamba_state_shape_from_config``)
    and asserts the layer's state fits it (MambaSpec, vllm/v1/kv_cache_interface.py). Gated delta nets
    count them in both from their first release; Mamba2 layers from v0.17 (Rule.MAMBA2_SPEC_SLOTS,
    mamba_mixer2.py and nemotron_h.py), Granite 4.0-H's, Falcon-H1's and Zamba2's classes only from v0.32
    (Rule.GRANITE_HYBRID_SPEC_PAGE, Rule.FALCON_H1_SPEC_PAGE, Rule.ZAMBA2_SPEC_PAGE); LFM2's layer from v0.29
    (Rule.SHORT_CONV_SPEC_SLOTS, short_conv.py) and its class never (lfm2.py); Kimi Linear's KDA
    layers in both from v0.27 (Rule.KDA_SPEC_SLOTS, mamba_utils.py ``kda_state_shape``); Mamba-1 layers
    (Jamba) and lightning attention (MiniMax) never (``mamba1_state_shape`` and
    ``linear_attention_state_shape`` have no num_spec)."""
    flavour = arch.mamba.flavour if arch.mamba is not None else ""
    if flavour == "short_conv":
        return False, applies(Rule.SHORT_CONV_SPEC_SLOTS, version)
    if flavour in ("mamba1", "lightning"):
        return False, False
    if flavour == "kda":
        slots = applies(Rule.KDA_SPEC_SLOTS, version)
        return slots, slots
    if flavour == "mamba2":
        layer = applies(Rule.MAMBA2_SPEC_SLOTS, version)
        late = {"granitemoehybrid": Rule.GRANITE_HYBRID_SPEC_PAGE, "falcon_h1": Rule.FALCON_H1_SPEC_PAGE,
                "zamba2": Rule.ZAMBA2_SPEC_PAGE}
        return layer and (arch.model_type not in late or applies(late[arch.model_type], version)), layer
    return True, True


def mamba_state_bytes(dims: MambaDims, tp: int, num_spec: int, model_dtype: str,
                      conv_dtype: str | None = None, ssm_dtype: str | None = None) -> int:
    """Bytes of one request's recurrent state in one layer on one GPU.

    Qwen3-Next (16 k-heads, 32 v-heads, dims 128, kernel 4, bf16, TP 1):
    conv (2·16·128 + 32·128) × 3 + recurrent 32·128·128 = 24,576 + 524,288 values
    -> 1,097,728 bytes. LFM2-1.2B (conv_dim 2048, conv_L_cache 3, bf16): 2 × 2048 × 2 = 8,192 bytes.
    Jamba-v0.1 (intermediate 2 × 4,096, d_conv 4, d_state 16, bf16, TP 1): 3 × 8,192 × 2 + 8,192 × 16 × 2
    = 311,296 bytes. Kimi-Linear-48B (32 heads of 128, kernel 4, bf16 convs, float32 recurrent state, TP 2):
    3 × 2048 × 3 × 2 + 16 × 128 × 128 × 4 = 36,864 + 1,048,576 = 1,085,440 bytes.
    """
    conv_b = model_dtype_bytes(conv_dtype or dims.conv_dtype or model_dtype)
    ssm_b = model_dtype_bytes(ssm_dtype or dims.ssm_dtype or conv_dtype or dims.conv_dtype or model_dtype)
    if dims.flavour == "short_conv":
        # LFM2: (conv_L_cache - 1 + num_spec) × conv_dim / TP (speculative_slots says when num_spec counts)
        _divisible(dims.intermediate_size, tp, Text("tp.what.conv_channels"))
        return dims.intermediate_size // tp * (dims.conv_kernel - 1 + num_spec) * conv_b
    if dims.flavour == "lightning":
        # MiniMax: heads/TP × head_dim × head_dim in the model (mamba cache) dtype; the SSM dtype flag
        # does not apply (``linear_attention_state_dtype``)
        _divisible(dims.num_heads, tp, Text("tp.what.linear_heads"))
        return dims.num_heads // tp * dims.head_dim * dims.head_dim * conv_b
    if dims.flavour == "mamba1":
        # Jamba: (d_conv - 1) × intermediate/TP conv values, intermediate/TP × d_state SSM values
        _divisible(dims.intermediate_size, tp, Text("tp.what.mamba_channels"))
        inner = dims.intermediate_size // tp
        return inner * (dims.conv_kernel - 1) * conv_b + inner * dims.state_size * ssm_b
    if dims.flavour in ("gdn", "kda"):
        conv_dim = dims.head_k_dim * dims.num_k_heads * 2 + dims.head_dim * dims.num_heads
        _divisible(conv_dim, tp, Text("tp.what.linear_channels"))
        _divisible(dims.num_heads, tp, Text("tp.what.linear_heads"))
        conv = conv_dim // tp * (dims.conv_kernel - 1 + num_spec)
        ssm = dims.num_heads // tp * dims.head_dim * dims.head_k_dim
    else:
        groups = dims.n_groups + (0 if dims.n_groups % tp == 0 else tp - dims.n_groups)
        conv_dim = dims.intermediate_size + 2 * groups * dims.state_size
        _divisible(conv_dim, tp, Text("tp.what.mamba_channels"))
        _divisible(dims.num_heads, tp, Text("tp.what.mamba_heads"))
        conv = conv_dim // tp * (dims.conv_kernel - 1 + num_spec)
        ssm = dims.num_heads // tp * dims.head_dim * dims.state_size
    return conv * conv_b + ssm * ssm_b


def _divisible(value: int, tp: int, what: Text) -> None:
    if value % tp:
        raise SettingsError({"--tensor-parallel-size": Text("tp.channels", value=value, what=what, tp=tp)})


def _token_bytes(layer: AttentionLayer, kv: KvDtype, tp: int) -> tuple[int, int]:
    """(bytes per token on one GPU, KV heads on one GPU) for an attention layer."""
    if layer.kind == "mla":
        if kv.name == "fp8_ds_mla":
            return FP8_DS_MLA_BYTES_PER_TOKEN, 1
        if kv.scale_bytes_per_head or kv.nvfp4:
            raise SettingsError({"--kv-cache-dtype": Text("kv.not_for_mla", name=kv.name)})
        return layer.head_size * kv.value_bytes, 1
    heads = kv_heads_per_gpu(layer.num_kv_heads, tp)
    return heads * kv.head_bytes(layer.head_size, layer.head_size_v), heads


@dataclass(frozen=True)
class LayoutRequest:
    tp: int
    pp: int
    kv: KvDtype
    model_dtype: str
    version: Version
    gpu: GpuTarget
    block_size: int | None = None
    hybrid_manager: bool | None = None     # None: vLLM's default for the model
    mamba_mode: str = "align"
    num_speculative_tokens: int = 0
    draft_layers: tuple[AttentionLayer, ...] = ()
    mamba_ssm_dtype: str | None = None
    backend_block: tuple[int, Text] | None = None    # the automatic backend's block where not 16
    attention_backend: str | None = None     # --attention-backend (None: the release's pick)
    fp4_indexer: bool = False                # DeepSeek-V4's indexer keys sized in MXFP4


SMALLEST_KERNEL_BLOCK = 16
"""The smallest kernel block of the attention backends kvcalc sizes (FlashAttention, Triton,
FlashInfer, ROCm: ``get_supported_kernel_block_sizes``, multiples of 16 or 16/32/64)."""


def sliding_block_size(block_size: int, version: Version) -> int:
    """Tokens per block a sliding-window layer starts from before the page unification
    (paging.unify_page_size) scales it: --block-size before v0.25 and from v0.30 (the largest
    multiple of 16 within it, at least 16: Rule.SLIDING_WINDOW_PRIMARY_BLOCK), the backend's
    smallest kernel block from v0.25 to v0.29 (Rule.SLIDING_WINDOW_OWN_BLOCK). FlashAttention 4's
    128-token pages for head size 256 (v0.29, Blackwell) are not modelled."""
    if applies(Rule.SLIDING_WINDOW_PRIMARY_BLOCK, version):
        return max(SMALLEST_KERNEL_BLOCK, block_size // SMALLEST_KERNEL_BLOCK * SMALLEST_KERNEL_BLOCK)
    if applies(Rule.SLIDING_WINDOW_OWN_BLOCK, version):
        return SMALLEST_KERNEL_BLOCK
    return block_size


def compressed_layout(arch: ModelArch, req: LayoutRequest) -> Layout:
    """DeepSeek-V4's caches (compressed_kv.layer_specs) per pipeline stage: 256-token blocks, which its
    compressor states are built around (engine.deepseek_v4_problem refuses other block sizes before this),
    its fp8_ds_mla rows whatever TP, each decoder layer's caches on its stage (get_pp_indices) and the
    MTP draft layers' windows on the last (the drafter is built on the last rank only)."""
    if req.kv.name != "fp8_ds_mla":
        raise SettingsError({"--kv-cache-dtype": Text("dsv4.kv_dtype", name=req.kv.name)})
    sizes = pp_partition(arch.num_layers, req.pp)
    if min(sizes) == 0:
        raise SettingsError({"--pipeline-parallel-size": Text("pp.empty_stage", pp=req.pp, layers=arch.num_layers)})
    stage_of = [i for i, size in enumerate(sizes) for _ in range(size)]
    stages: list[dict[str, LayerSpec]] = [{} for _ in sizes]
    fp4 = req.fp4_indexer and applies(Rule.DSV4_FP4_INDEXER_PAGE, req.version)
    for name, spec in layer_specs(arch.compressed, len(req.draft_layers), fp4).items():
        kind, index = name.split(".")[:2]
        stages[stage_of[int(index)] if kind == "layers" else -1][name] = spec
    return Layout(tuple(stages), BLOCK_SIZE, Text("block.dsv4"), 0, 1, notes=arch.notes)


def build_layout(arch: ModelArch, req: LayoutRequest) -> Layout:
    """Per-stage specs of ``arch`` under ``req`` (see module docstring)."""
    check_tensor_parallel(arch, req.tp)
    if arch.compressed is not None:
        return compressed_layout(arch, req)
    notes: list[str] = []
    rocm_sparse = rocm_sparse_mla_problem(arch, req.gpu, req.version, req.block_size, req.kv.name)
    if rocm_sparse is not None:
        flag, why = rocm_sparse
        raise SettingsError({flag: why})  # Text: rocm_sparse_mla_problem gives one
    if req.block_size is not None:
        block_size, reason = req.block_size, "--block-size"
    else:
        block_size, reason = default_block_size(arch, req.gpu, req.version, req.kv.sixteen_bit,
                                                req.backend_block)
    has_chunked = any(l.kind == "chunked_local" for l in arch.layers)
    hybrid_manager = req.hybrid_manager
    if hybrid_manager is None:
        # chunked local attention turns the hybrid manager off from v0.10.1 (unless
        # VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1); v0.10.0 only with an EAGLE drafter
        hybrid_manager = not has_chunked or \
            not applies(Rule.HMA_OFF_FOR_CHUNKED_LOCAL, req.version) and not req.draft_layers
        if not hybrid_manager:
            notes.append(Text("note.chunked_local_full_length"))

    template = arch.full_attention_layer()
    attn_1tok, heads = (0, 0)
    if template is not None:
        attn_1tok, heads = _token_bytes(template, req.kv, req.tp)

    state = layer_state = 0
    if arch.mamba is not None:
        page_slots, layer_slots = speculative_slots(arch, req.version)
        # KDA keeps its recurrent state in float32 (engine refuses the --mamba-ssm-cache-dtype values
        # that would size its page otherwise: ssm_dtype_flag_effect)
        ssm = None if arch.mamba.flavour == "kda" else req.mamba_ssm_dtype
        state = mamba_state_bytes(arch.mamba, req.tp, req.num_speculative_tokens if page_slots else 0,
                                  req.model_dtype, ssm_dtype=ssm)
        layer_state = mamba_state_bytes(arch.mamba, req.tp, req.num_speculative_tokens if layer_slots else 0,
                                        req.model_dtype, ssm_dtype=ssm)
    mamba_padded = None
    mamba_block = None
    if arch.hybrid_mamba_class and state and attn_1tok:
        # Platform._align_hybrid_block_size: the attention page must hold a Mamba page.
        align = math.lcm(hybrid_block_alignment(arch, req.gpu, req.version, block_size, req.attention_backend),
                         gdn_checkpoint_alignment(arch, req.gpu, req.version, req.mamba_mode))
        if req.mamba_mode == "all":
            # Mamba cache mode 'all' (Rule.MAMBA_ALL_MODE): blocks that are whole multiples of the
            # SSD kernel's chunk, and the Mamba layers cache a state per block of that size.
            chunk = math.lcm(arch.mamba.chunk_size, align)
            needed = mamba_block = chunk * cdiv(cdiv(state, attn_1tok), chunk)
        else:
            needed = align * cdiv(state, align * attn_1tok)
        if block_size < needed:
            block_size = needed
            reason = Text("block.raised_for_mamba", needed=needed, token_bytes=attn_1tok, state=state)
        forced = forced_mla_block(arch, req.gpu, req.version, req.kv.sixteen_bit)
        if forced is not None and block_size % forced:
            raise SettingsError({"--vllm-version": Text(
                "settings.hybrid_mla_forced_block", version=str(req.version), block=block_size, forced=forced,
                backend=mla_backend(arch, req.gpu, req.version, req.kv.sixteen_bit).upper(),
                since=str(Rule.MLA_BLOCK_FROM_BACKEND.value.since))})
        mamba_padded = block_size * attn_1tok
        if mamba_padded > state:
            notes.append(Text("note.mamba_page_padded", pct=(mamba_padded - state) / state * 100))
        if layer_state > mamba_padded:
            raise SettingsError({"--speculative-config": Text(
                "settings.state_spec_page", version=str(req.version), tokens=req.num_speculative_tokens,
                state=layer_state, page=mamba_padded)})
    if reason == "--block-size" and not block_size_accepted(block_size, req.version):
        raise SettingsError({"--block-size": block_size_refused(block_size, req.version)})  # Text: settings

    def spec_for(layer: AttentionLayer) -> LayerSpec | None:
        if layer.kind == "none":
            return None
        if layer.kind == "mamba":
            return MambaSpec(mamba_block or block_size, state, req.num_speculative_tokens, mamba_padded,
                             checkpoint_blocks=prefill_checkpoint_blocks(arch, req.gpu, req.version, req.mamba_mode))
        token_bytes, h = _token_bytes(layer, req.kv, req.tp)
        common = dict(block_size=block_size, token_bytes=token_bytes, num_kv_heads=h,
                      head_size=layer.head_size, head_size_v=layer.head_size_v)
        if layer.kind == "mla":
            return MLASpec(**common)
        if layer.kind == "sliding_window":
            if hybrid_manager:
                return SlidingWindowSpec(**{**common, "block_size": sliding_block_size(block_size, req.version)},
                                         window=layer.window)
            return FullAttentionSpec(**common, local_window=layer.window)
        if layer.kind == "chunked_local":
            if hybrid_manager:
                return ChunkedLocalSpec(**common, chunk=layer.chunk)
            return FullAttentionSpec(**common, local_window=layer.chunk)
        return FullAttentionSpec(**common)

    sizes = pp_partition(arch.num_layers, req.pp)
    if min(sizes) == 0:
        raise SettingsError({"--pipeline-parallel-size": Text("pp.empty_stage", pp=req.pp,
                                                              layers=arch.num_layers)})
    stages: list[dict[str, LayerSpec]] = []
    start = 0
    for size in sizes:
        stage: dict[str, LayerSpec] = {}
        for i in range(start, start + size):
            if arch.parallel_state:
                # Falcon-H1, Zamba2: the layer's Mamba2 mixer beside its attention, if any (vLLM names it
                # model.{L+i}.mixer, {A+i}.mixer)
                stage[f"layers.{arch.num_layers + i}"] = spec_for(AttentionLayer("mamba"))
            spec = spec_for(arch.layers[i])
            if spec is None:
                continue
            stage[f"layers.{i}"] = spec
            if arch.sparse_mla_index_head_dim and arch.layers[i].kind == "mla":
                d = arch.sparse_mla_index_head_dim
                # DeepseekV32IndexerCache: index_head_dim fp8 values + one fp32 scale per 128.
                stage[f"layers.{i}.indexer"] = MLASpec(block_size, d + d // 128 * 4, 1, d, 0)
        stages.append(stage)
        start += size
    for k, layer in enumerate(req.draft_layers):
        spec = spec_for(layer)
        if spec is not None:
            stages[-1][f"draft.{k}"] = spec
    if not any(stages):
        raise UnsupportedModelError(Text("model.no_kv_layers"))
    return Layout(tuple(stages), block_size, reason, attn_1tok, heads, state, hybrid_manager,
                  tuple(notes) + arch.notes)
