"""What vLLM accepts for DeepSeek-V4, and what kvcalc has read of it: the settings it refuses with the
reason, its KV cache dtype, and DSpark's draft layers.

The sizing itself is in compressed_kv.py (caches and packed groups), deepseek_v4_weights.py and
deepseek_v4_profile.py; engine.calculate asks this module first.
"""

from __future__ import annotations

from typing import Any

from .compressed_kv import BLOCK_SIZE
from .dtypes import KV_CACHE_DTYPE_CHOICES, KV_CACHE_DTYPES, KvDtype
from .errors import SettingsError
from .hf_config import AttentionLayer, ModelArch
from .kvspecs import GpuTarget, parse_capability
from .messages import Text
from .settings import Settings, Speculative, spec_family
from .versions import Rule, Version, applies


DSPARK_DEFAULT_LAYERS = 3
"""DSpark's draft layers where its config names none (vllm/models/deepseek_v4/nvidia/dspark.py:
``getattr(config, "n_mtp_layers", None) or 3``)."""


def dspark_layer_count(spec: Speculative) -> int:
    """The DSpark drafter's layers: ``n_mtp_layers`` of the drafter's config (the target's unless a
    drafter config is given), else 3."""
    value = (spec.draft_config or {}).get("n_mtp_layers")
    given = isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 64
    return value if given else DSPARK_DEFAULT_LAYERS


def dspark_layers(arch: ModelArch, spec: Speculative) -> tuple[AttentionLayer, ...]:
    """DSpark's draft layers: DeepSeek-V4 decoder layers numbered after the model's, so of compress ratio 1
    (a window alone). Other models have no DSpark drafter in vLLM."""
    if arch.compressed is None:
        raise SettingsError({"--speculative-config": Text("settings.dspark_dsv4_only")})
    layer = AttentionLayer("compressed", 1, arch.compressed.head_dim, 0, window=arch.compressed.window, chunk=1)
    return tuple(layer for _ in range(dspark_layer_count(spec)))


DSPARK_CONFIG_KEYS = ("dspark_target_layer_ids", "dspark_markov_rank")
"""What DSpark's drafter reads from the checkpoint's config without a default (dspark.py)."""


def dspark_problem(s: Settings, version: Version) -> tuple[str, Text] | None:
    """Why vLLM cannot run DeepSeek-V4's DSpark drafter so: before v0.25 the method does not exist
    (Rule.DSPARK_METHOD), it needs model runner V2 (VLLM_USE_V2_MODEL_RUNNER=0 leaves it without a
    proposer; V1 refuses it from v0.29) and a single pipeline stage ('DSpark does not support pipeline
    parallelism.')."""
    if not applies(Rule.DSPARK_METHOD, version):
        return "--speculative-config", Text("dsv4.dspark_release", version=str(version),
                                            since=str(Rule.DSPARK_METHOD.value.since))
    if s.model_runner_v2 is False:
        return "--speculative-config", Text("dsv4.dspark_v1")
    if s.pipeline_parallel_size > 1:
        return "--pipeline-parallel-size", Text("dsv4.dspark_pp")
    return None


def deepseek_v4_problem(arch: ModelArch, gpu: GpuTarget, version: Version, s: Settings) -> tuple[str, Text] | None:
    """The flag and the reason where vLLM cannot run DeepSeek-V4 so, or kvcalc has not read how it would;
    None for any other model. FlashMLA's DeepSeek-V4 backend takes compute capability 9.0 and 10.x, and
    FlashInfer's SM120 path 12.x from v0.24 (Rule.DSV4_SM12X; vllm/models/deepseek_v4/nvidia/model.py,
    sparse_mla.py); the compressor states are built for 256-token blocks (compressor.py); the class takes
    pipeline parallelism from v0.21 (Rule.DSV4_PIPELINE_PARALLEL); decode context parallel fails its
    sliding-window assertion; a forced attention backend (FLASHINFER_MLA_SPARSE_DSV4's plain rows), ROCm,
    drafts other than its MTP layer and DSpark, a weight format other than the checkpoint's fp8 and --cpu-offload-gb
    were not read (deepseek_v4_weights prices the checkpoint's own tensors)."""
    if arch.compressed is None:
        return None
    if gpu.platform != "cuda":
        return "--gpu", Text("dsv4.rocm")
    cc = parse_capability(gpu.compute_capability)
    sm12 = applies(Rule.DSV4_SM12X, version)
    if cc is None or not (cc[0] in (9, 10) or cc[0] == 12 and sm12):
        extra = Text("dsv4.gpu_sm12") if sm12 else Text("dsv4.gpu_sm12_later", since=str(Rule.DSV4_SM12X.value.since))
        return "--gpu", Text("dsv4.gpu", version=str(version), capability=gpu.compute_capability, sm12=extra)
    if s.pipeline_parallel_size > 1 and not applies(Rule.DSV4_PIPELINE_PARALLEL, version):
        return "--pipeline-parallel-size", Text("dsv4.pipeline", version=str(version),
                                                since=str(Rule.DSV4_PIPELINE_PARALLEL.value.since))
    if s.decode_context_parallel_size > 1:
        return "--decode-context-parallel-size", Text("dsv4.dcp")
    if s.block_size not in (None, BLOCK_SIZE):
        return "--block-size", Text("dsv4.block_size")
    if s.attention_backend is not None:
        return "--attention-backend", Text("dsv4.backend", backend=s.attention_backend)
    family = spec_family(s.speculative.method) if s.speculative is not None else None
    if family == "dspark":
        problem = dspark_problem(s, version)
        if problem is not None:
            return problem
    elif family not in (None, "mtp", "none"):
        return "--speculative-config", Text("dsv4.spec_method", method=str(s.speculative.method))
    if s.fp4_indexer_cache and (cc is None or cc[0] != 10):
        return "--attention-config", Text("dsv4.fp4_indexer_gpu", capability=gpu.compute_capability)
    if s.weights not in (None, "auto", "fp8"):
        return "weights", Text("dsv4.weights", value=str(s.weights))
    if s.cpu_offload_gb:
        return "--cpu-offload-gb", Text("dsv4.cpu_offload")
    return None


def deepseek_v4_kv(requested: str, version: Version) -> KvDtype:
    """DeepSeek-V4's cache dtype: its fp8_ds_mla rows for any fp8 name, and for auto from v0.30
    (Rule.DSV4_AUTO_KV_FP8); before, vLLM asserts ``kv_cache_dtype.startswith("fp8")``
    (vllm/models/deepseek_v4/attention.py ``_resolve_dsv4_kv_cache_dtype``; deepseek_v4_attention.py in
    v0.20-v0.22), and from v0.30 raises a ValueError for any other value."""
    name = (requested or "auto").strip().lower()
    if name == "auto" and not applies(Rule.DSV4_AUTO_KV_FP8, version):
        raise SettingsError({"--kv-cache-dtype": Text("dsv4.kv_auto", version=str(version),
                                                      since=str(Rule.DSV4_AUTO_KV_FP8.value.since))})
    if name == "auto" or name.startswith("fp8") and name in KV_CACHE_DTYPES:
        return KV_CACHE_DTYPES["fp8_ds_mla"]
    if name not in KV_CACHE_DTYPES:
        raise SettingsError({"--kv-cache-dtype": Text(
            "dtype.unknown_kv", value=repr(requested), choices=", ".join(KV_CACHE_DTYPE_CHOICES))})
    raise SettingsError({"--kv-cache-dtype": Text("dsv4.kv_dtype", name=name)})


def dspark_config_problem(config: dict[str, Any]) -> Text | None:
    """What DSpark's drafter would miss in this config (``DSPARK_CONFIG_KEYS``), or None."""
    missing = next((k for k in DSPARK_CONFIG_KEYS if config.get(k) is None), None)
    return Text("dsv4.dspark_config", field=missing) if missing is not None else None
