"""A forced attention backend (``--attention-backend``, or ``VLLM_ATTENTION_BACKEND`` before v0.15):
which ones kvcalc sizes, which combinations vLLM refuses to start with, and what a forced backend
changes in the memory vLLM budgets.

For a plain attention model on an NVIDIA GPU the four general backends all page the cache in
16-token blocks (``get_supported_kernel_block_sizes``: FlashInfer 16/32/64, the others multiples
of 16; vllm/v1/attention/backend.py ``get_preferred_block_size`` keeps the default 16), so a forced
one leaves the layout alone and changes two things only: whether FlashInfer's attention workspace
lands in vLLM's CUDA-graph estimate (``reserve.FLASHINFER_WORKSPACE_BYTES``) and whether the
backend keeps the default mode's full CUDA graphs (each metadata builder's ``AttentionCGSupport``).
Models with Mamba/GDN layers size their attention block from the backend's smallest kernel block
(vllm/platforms/interface.py, ``kernel_block_alignment_size``), 16 for all four, so the block stays
too, and FlashInfer's workspace and graphs follow the same rules as for a plain model: public
Qwen3.6 starts with an fp8 cache on a GB10 or an RTX 5090 (v0.20-v0.23) print an estimate of about
0.4 GiB for 2 to 4 graphs, the workspace, and with MTP drop to piecewise graphs and print none of it
(``flashinfer_spec_full_graphs``). MLA models take their block size from their own backends, and
FlashAttention on data-centre Blackwell runs FA4, whose pages (128 tokens for 256-wide heads) and
cache types vary by release: there a forced backend is refused with the reason rather than sized
wrongly.
"""

from __future__ import annotations

from typing import Any

from .config_aliases import GEMMA4_WRAPPER_TYPES
from .hf_config import ModelArch
from .kvspecs import (GpuTarget, attention_head_sizes, fa_keeps_cache, flashinfer_attention, flashinfer_head_sizes,
                      flashinfer_keeps_cache, full_cuda_graphs)
from .messages import Text
from .versions import Rule, Version, applies

PORTABLE_BACKENDS = ("TRITON_ATTN", "FLEX_ATTENTION")
"""Forced backends vLLM also runs on AMD GPUs, where kvcalc's graph and non-torch figures come from
public ROCm starts whatever backend ran (ROCM_ATTN, ROCM_AITER_FA, TRITON_ATTN): forcing one there
changes nothing kvcalc sizes, so a pasted ROCm log that forced Triton is read, not refused."""


def _capability(gpu: GpuTarget) -> tuple[int, int]:
    major, _, minor = gpu.compute_capability.partition(".")
    try:
        return int(major), int(minor or 0)
    except ValueError:
        return 0, 0


MM_PREFIX_LM_TYPES = ("bagel", "gemma3", "molmo2", "moondream3", "paligemma", "umm")
"""Model types vLLM runs as multimodal prefix LMs, attending fully over image tokens
(vllm/transformers_utils/model_arch_config_convertor.py ``MM_PREFIX_LM_MODELS``, v0.22-v0.33;
Gemma 4 by its config, ``mm_prefix_lm``)."""


def mm_prefix_lm(config: dict[str, Any], version: Version, text_only: bool) -> bool:
    """Whether vLLM runs the model's attention with full attention over multimodal positions, which
    the backend that runs must support (Rule.BACKEND_MM_PREFIX): a config's own
    ``is_mm_prefix_lm``, Gemma 4 where its text config sets ``use_bidirectional_attention: "vision"``,
    or a type of ``MM_PREFIX_LM_TYPES``; vLLM checks the backend for it from v0.13. From v0.27 a
    text-only deployment (``text_only``: --language-model-only, or every modality at 0) clears it
    (Rule.MM_PREFIX_OFF_TEXT_ONLY)."""
    if not applies(Rule.BACKEND_MM_PREFIX, version) or (text_only and applies(Rule.MM_PREFIX_OFF_TEXT_ONLY, version)):
        return False
    if isinstance(config.get("is_mm_prefix_lm"), bool):
        return config["is_mm_prefix_lm"]
    model_type = config.get("model_type")
    if model_type in GEMMA4_WRAPPER_TYPES:
        text = config.get("text_config")
        return isinstance(text, dict) and text.get("use_bidirectional_attention") == "vision"
    return model_type in MM_PREFIX_LM_TYPES


def forced_backend_problem(backend: str, arch: ModelArch, gpu: GpuTarget, version: Version,
                           kv_value_bytes: int, kv_name: str, mm_prefix: bool = False) -> Text | None:
    """Why ``backend`` cannot be sized here, or None. ``kv_value_bytes`` is the KV cache's bytes per
    value (2 for a 16-bit cache, 1 for fp8, 0 for 4-bit modes); ``mm_prefix`` whether the model
    attends fully over multimodal positions (``mm_prefix_lm``). The release's own pick passes
    (``automatic_backend``); otherwise the checks of ``_unsupported`` apply."""
    if gpu.platform != "cuda":
        # kvcalc's ROCm figures do not tell vLLM's ROCm backends apart; the portable ones pass
        return None if backend in PORTABLE_BACKENDS else Text("attn.not_cuda", backend=backend)
    if arch.is_mla:
        return Text("attn.mla", backend=backend)
    if backend == automatic_backend(arch, gpu, version, kv_value_bytes >= 2, fa_keeps_cache(kv_name), mm_prefix,
                                    flashinfer_keeps_cache(kv_name)):
        return None
    if kv_value_bytes not in (1, 2) or kv_name.endswith("per_token_head"):
        return Text("attn.kv_dtype", backend=backend, kv=kv_name)
    if not applies(Rule.FORCED_BACKEND_CHECKED, version):
        return None     # vLLM takes it unchecked, and before v0.20 deducts no graph estimate it changes
    return _unsupported(backend, arch, gpu, version, kv_value_bytes == 1, kv_name, mm_prefix)


def _unsupported(backend: str, arch: ModelArch, gpu: GpuTarget, version: Version, fp8: bool, kv_name: str,
                 mm_prefix: bool = False) -> Text | None:
    """Why vLLM refuses ``backend`` for this plain attention model (or kvcalc cannot size it), or
    None. Each check mirrors what the backend class declares in the v0.18-v0.33 wheels
    (``supports_compute_capability``, ``supports_head_size``, ``supported_kv_cache_dtypes``,
    ``supports_sink``); vLLM stops at start-up with "Selected backend … is not valid" where one fails."""
    heads = sorted(attention_head_sizes(arch))
    sinks = arch.architecture == "GptOssForCausalLM"
    cc = _capability(gpu)
    if backend == "FLASH_ATTN":
        if cc < (8, 0):
            return Text("attn.capability", backend=backend, cc=gpu.compute_capability, need="8.0")
        if cc[0] in (10, 11):
            return Text("attn.fa4", backend=backend, cc=gpu.compute_capability)
        if any(h % 8 or h > 256 for h in heads):
            return Text("attn.head_size_fa", backend=backend, heads=", ".join(map(str, heads)))
        if fp8 and cc[0] != 9:
            return Text("attn.fa_fp8", cc=gpu.compute_capability)
        if fp8 and not fa_keeps_cache(kv_name):
            return Text("attn.fa_e5m2", kv=kv_name)
        if sinks and cc[0] != 9:
            return Text("attn.sinks", backend=backend, cc=gpu.compute_capability)
    elif backend == "FLASHINFER":
        turing = not applies(Rule.FLASHINFER_WITHOUT_TURING, version)
        if not ((7, 5) if turing else (8, 0)) <= cc <= (12, 1):
            return Text("attn.capability_range", backend=backend, cc=gpu.compute_capability,
                        low="7.5" if turing else "8.0", high="12.1")
        allowed = flashinfer_head_sizes(version)
        if not set(heads) <= set(allowed):
            return Text("attn.head_size_flashinfer", backend=backend, heads=", ".join(map(str, heads)),
                        allowed=", ".join(map(str, allowed)))
        if mm_prefix:
            return Text("attn.mm_prefix", backend=backend,
                        since=str(Rule.MM_PREFIX_OFF_TEXT_ONLY.value.since))
        if kv_name.endswith("per_token_head"):      # only TRITON_ATTN lists the per-token-head types
            return Text("attn.kv_dtype", backend=backend, kv=kv_name)
        if sinks and cc[0] != 10:
            return Text("attn.sinks", backend=backend, cc=gpu.compute_capability)
    elif backend == "TRITON_ATTN":
        if any(h < 32 for h in heads):
            return Text("attn.head_size_triton", backend=backend, heads=", ".join(map(str, heads)))
    elif backend == "FLEX_ATTENTION":
        if fp8:
            return Text("attn.kv_dtype", backend=backend, kv=kv_name)
        if sinks:
            return Text("attn.sinks", backend=backend, cc=gpu.compute_capability)
    return None


def automatic_backend(arch: ModelArch, gpu: GpuTarget, version: Version, sixteen_bit_cache: bool,
                      fa_cache: bool = True, mm_prefix: bool = False, fi_cache: bool = True) -> str | None:
    """The backend vLLM picks for a plain attention model on CUDA when none is forced, as far as
    the memory tells them apart (vllm/platforms/cuda.py ``_get_backend_priorities``: the first that
    takes the model): "FLASHINFER" where kvspecs.flashinfer_attention says so, else FlashAttention
    where it takes the heads, the cache and the sinks, else Triton; None for MLA models and other
    platforms. ``fa_cache``: FlashAttention takes this cache type where it takes fp8 at all
    (kvspecs.fa_keeps_cache: not fp8_e5m2). ``mm_prefix`` (``mm_prefix_lm``): FlashInfer cannot attend
    fully over image tokens, so the priority passes it by (FlashAttention then needs its version 4, or
    Triton runs: the same for the memory kvcalc sizes)."""
    if gpu.platform != "cuda" or arch.is_mla:
        return None
    if not mm_prefix and flashinfer_attention(arch, gpu, version, sixteen_bit_cache, fa_cache, fi_cache):
        return "FLASHINFER"
    fa_refused = _unsupported("FLASH_ATTN", arch, gpu, version, not sixteen_bit_cache,
                              "fp8" if fa_cache else "fp8_e5m2")
    return "TRITON_ATTN" if fa_refused is not None else "FLASH_ATTN"


def runs_flashinfer(forced: str | None, arch: ModelArch, gpu: GpuTarget, version: Version,
                    sixteen_bit_cache: bool, fa_cache: bool = True, mm_prefix: bool = False,
                    fi_cache: bool = True) -> bool:
    """Whether the attention runs on FlashInfer (its workspace then lands in the first full graph
    vLLM captures for its estimate): the forced backend says so where there is one, for models with
    state layers too; never for a model that attends fully over image tokens (``mm_prefix``)."""
    if forced is not None and gpu.platform == "cuda":
        return forced == "FLASHINFER"
    return not mm_prefix and flashinfer_attention(arch, gpu, version, sixteen_bit_cache, fa_cache, fi_cache)


def flashinfer_trtllm_decode(gpu: GpuTarget, version: Version) -> bool:
    """Whether FlashInfer decodes through TensorRT-LLM's kernels (vllm/utils/flashinfer.py
    ``supports_trtllm_attention``): trtllm-gen on data-centre Blackwell (10.x), XQA on Hopper from v0.25
    (Rule.FLASHINFER_XQA_HOPPER) and on 12.x from v0.28 (Rule.FLASHINFER_XQA_SM12X). Their decode
    allocates a fixed 394 MiB buffer of their own; elsewhere FlashInfer's native decode wrapper allocates
    the metadata builder's workspace (``reserve.flashinfer_workspace_bytes``). vLLM also needs the
    kernels' cubins (``has_nvidia_artifactory``), which kvcalc takes as present."""
    cc = _capability(gpu)
    return gpu.platform == "cuda" and (cc[0] == 10 or (cc == (9, 0) and applies(Rule.FLASHINFER_XQA_HOPPER, version))
                                       or (cc[0] == 12 and applies(Rule.FLASHINFER_XQA_SM12X, version)))


def flashinfer_spec_full_graphs(gpu: GpuTarget, version: Version) -> bool:
    """Whether FlashInfer's full graphs take speculative decoding's uniform batches (UNIFORM_BATCH in
    vllm/v1/attention/backends/flashinfer.py ``get_cudagraph_support``): where it decodes through
    TensorRT-LLM's kernels (``flashinfer_trtllm_decode``), except Hopper's XQA before v0.30
    (Rule.FLASHINFER_XQA_SPEC_GRAPHS). Elsewhere they are single-token decodes and vLLM sets the
    default mode to piecewise graphs ("FULL_AND_PIECEWISE is not supported with spec-decode for
    attention backend FlashInferBackend")."""
    cc = _capability(gpu)
    if cc == (9, 0) and not applies(Rule.FLASHINFER_XQA_SPEC_GRAPHS, version):
        return False
    return flashinfer_trtllm_decode(gpu, version)


def keeps_full_graphs(forced: str | None, arch: ModelArch, gpu: GpuTarget, version: Version,
                      decode_query_len: int, sixteen_bit_cache: bool, fa_cache: bool = True,
                      mm_prefix: bool = False) -> bool:
    """Whether the default FULL_AND_PIECEWISE mode keeps its full graphs with the backend that runs
    (vllm/config/compilation.py ``resolve_cudagraph_mode_and_sizes``): FlexAttention's builder
    supports none before v0.20 (Rule.FLEX_FULL_GRAPHS), FlashAttention (UNIFORM_BATCH or ALWAYS)
    and Triton (ALWAYS) keep them, FlashInfer keeps them for one-token decodes, and for speculative
    decoding's uniform batches only where ``flashinfer_spec_full_graphs`` says so (also when it is the
    release's pick). Without a forced backend, one equal to the release's pick or off CUDA,
    kvspecs.full_cuda_graphs decides otherwise."""
    if forced is None or gpu.platform != "cuda" or \
            forced == automatic_backend(arch, gpu, version, sixteen_bit_cache, fa_cache, mm_prefix):
        if decode_query_len > 1 and runs_flashinfer(None, arch, gpu, version, sixteen_bit_cache, fa_cache,
                                                    mm_prefix):
            return flashinfer_spec_full_graphs(gpu, version)
        return full_cuda_graphs(arch, gpu, version, decode_query_len, sixteen_bit_cache)
    if forced == "FLEX_ATTENTION":
        return applies(Rule.FLEX_FULL_GRAPHS, version)
    return forced != "FLASHINFER" or decode_query_len == 1 or flashinfer_spec_full_graphs(gpu, version)


def nvfp4_kv_problem(arch: ModelArch, gpu: GpuTarget, version: Version, kv_name: str,
                     mm_prefix: bool = False) -> Text | None:
    """Why no backend of ``version`` keeps an nvfp4 KV cache for this model, or None. Only FlashInfer
    lists it (vllm/v1/attention/backends/flashinfer.py ``supports_kv_cache_dtype``): on compute capability
    10.x through its TRT-LLM kernels from v0.20, and from v0.32 also on 8.x, 9.x and 12.x through its
    FA2 path (Rule.NVFP4_KV_FA2), which refuses head size 64 and attention sinks
    (``supports_combination``). So it stops where FlashInfer cannot run the model: on ROCm, on other
    GPUs before v0.32, for heads FlashInfer lacks, and for a model attending fully over image tokens
    (``mm_prefix``). MLA models are refused elsewhere (dtypes: per-head scales)."""
    if not kv_name.startswith("nvfp4") or arch.is_mla:
        return None
    if gpu.platform != "cuda":
        return Text("attn.nvfp4_platform", version=str(version))
    cc = _capability(gpu)
    on_fa2 = cc[0] in (8, 9, 12) and applies(Rule.NVFP4_KV_FA2, version)
    if cc[0] != 10 and not on_fa2:
        return Text("attn.nvfp4_capability", version=str(version), cc=gpu.compute_capability,
                    since=str(Rule.NVFP4_KV_FA2.value.since))
    heads = sorted(attention_head_sizes(arch))
    if not set(heads) <= set(flashinfer_head_sizes(version)) or mm_prefix:
        return Text("attn.nvfp4_model", version=str(version))
    if on_fa2 and (64 in heads or arch.architecture == "GptOssForCausalLM"):
        return Text("attn.nvfp4_fa2", version=str(version), cc=gpu.compute_capability)
    return None


def dcp_backend_problem(forced: str | None, arch: ModelArch, gpu: GpuTarget, version: Version, dcp: int,
                        sixteen_bit_cache: bool, kv_name: str, mm_prefix: bool = False) -> Text | None:
    """Why no backend of ``version`` runs decode context parallelism (``dcp`` > 1) for this model, or
    None. From v0.30 (Rule.DCP_BACKEND_CHECKED) a backend must declare ``supports_dcp``, which the base
    class no longer does (vllm/v1/attention/backend.py): FlashAttention, FlashInfer and the MLA backends
    do, Triton, FlexAttention and every ROCm backend for plain attention do not, nor ROCm's sparse MLA
    (rocm_aiter_mla_sparse.py); vLLM then finds no valid backend."""
    if dcp <= 1 or not applies(Rule.DCP_BACKEND_CHECKED, version):
        return None
    if gpu.platform != "cuda":
        if arch.is_mla and not arch.sparse_mla_index_head_dim:
            return None
        return Text("attn.dcp_rocm", version=str(version))
    if arch.is_mla:
        return None
    backend = forced or automatic_backend(arch, gpu, version, sixteen_bit_cache, fa_keeps_cache(kv_name),
                                          mm_prefix, flashinfer_keeps_cache(kv_name))
    if backend in ("TRITON_ATTN", "FLEX_ATTENTION"):
        return Text("attn.dcp_backend", version=str(version), backend=backend)
    return None


def triton_fp8_problem(forced: str | None, arch: ModelArch, gpu: GpuTarget, version: Version,
                       kv_name: str, mm_prefix: bool = False) -> Text | None:
    """Why vLLM refuses this KV cache on the Triton backend that would run it, or None: from v0.24
    (Rule.TRITON_FP8_NEEDS_SM89) TritonAttentionImpl raises for a cache type starting with "fp8" below
    compute capability 8.9, where Triton has no native fp8e4nv. Triton runs where it is forced or
    where vLLM's CUDA priority (FlashAttention, FlashInfer, Triton) leaves it: FlashAttention keeps
    fp8 only on Hopper, so below 8.9 Triton runs unless FlashInfer takes the GPU and the model
    (``_unsupported``, with ``mm_prefix`` as in ``forced_backend_problem``); a model whose layers
    differ in head size (Gemma 4) is put on Triton where FlashAttention 4 is missing, as it is below
    8.9 (vllm/model_executor/models/config.py Gemma4Config). MLA models (their own backends) and
    other platforms are left out."""
    if gpu.platform != "cuda" or arch.is_mla or not kv_name.startswith("fp8") or \
            _capability(gpu) >= (8, 9) or not applies(Rule.TRITON_FP8_NEEDS_SM89, version):
        return None
    since = str(Rule.TRITON_FP8_NEEDS_SM89.value.since)
    if forced == "TRITON_ATTN":
        return Text("attn.triton_fp8", since=since, kv=kv_name, cc=gpu.compute_capability)
    if forced is None and (len(attention_head_sizes(arch)) > 1 or
                           _unsupported("FLASHINFER", arch, gpu, version, True, kv_name, mm_prefix) is not None):
        return Text("attn.triton_fp8_auto", since=since, kv=kv_name, cc=gpu.compute_capability)
    return None
