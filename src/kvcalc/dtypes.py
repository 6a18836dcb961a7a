"""KV cache and model data types, by vLLM's names, and how ``auto`` resolves.

Bytes per stored value come from ``STR_DTYPE_TO_TORCH_DTYPE`` (vllm/utils/torch_utils.py)
and the page-size rules of ``vllm/v1/kv_cache_interface.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SettingsError
from .messages import Text
from .versions import Rule, Version, applies


@dataclass(frozen=True)
class KvDtype:
    """How one ``--kv-cache-dtype`` value stores K and V.

    ``value_bytes`` is the storage size of one element (1 for fp8). ``scale_bytes_per_head``
    is the per-token, per-head scale overhead of the per-token-head modes (two fp32
    scales = 8 bytes). ``nibbles`` marks 4-bit modes that store half a byte per value.
    """

    name: str
    value_bytes: int
    scale_bytes_per_head: int = 0
    four_bit: bool = False
    nvfp4: bool = False
    mla_only: bool = False
    since: Rule | None = None

    @property
    def sixteen_bit(self) -> bool:
        """16-bit values (float16, bfloat16): the only cache FLASH_ATTN_MLA holds (kvspecs.mla_backend)."""
        return self.value_bytes >= 2

    def head_bytes(self, head_k: int, head_v: int) -> int:
        """Bytes one token occupies for one KV head (K and V together).

        bf16, head 128: (128 + 128) × 2 = 512. fp8: 256. int8_per_token_head: 256 + 8.
        int4_per_token_head: 64 + 64 + 8. nvfp4 (K and V each head/2 data + head/16
        fp8 scales): 64 + 8 + 64 + 8 = 144.
        """
        if self.nvfp4:
            return head_k // 2 + head_k // 16 + head_v // 2 + head_v // 16
        if self.four_bit:
            return head_k // 2 + head_v // 2 + self.scale_bytes_per_head
        return (head_k + head_v) * self.value_bytes + self.scale_bytes_per_head

    @property
    def is_fp8(self) -> bool:
        return self.name.startswith("fp8") and not self.name.endswith("per_token_head")


MODEL_DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}
"""Bytes per value of the dtypes a model (and a Mamba / linear-attention state) runs in."""

KV_CACHE_DTYPES: dict[str, KvDtype] = {
    d.name: d
    for d in (
        KvDtype("bfloat16", 2),
        KvDtype("float16", 2),
        KvDtype("fp8", 1),
        KvDtype("fp8_e4m3", 1),
        KvDtype("fp8_e5m2", 1),
        KvDtype("fp8_inc", 1),
        KvDtype("fp8_ds_mla", 1, mla_only=True),
        KvDtype("int8_per_token_head", 1, 8, since=Rule.PER_TOKEN_HEAD_KV_DTYPES),
        KvDtype("fp8_per_token_head", 1, 8, since=Rule.PER_TOKEN_HEAD_KV_DTYPES),
        KvDtype("int4_per_token_head", 1, 8, four_bit=True, since=Rule.INT4_PER_TOKEN_HEAD_KV_DTYPE),
        KvDtype("nvfp4", 1, nvfp4=True, since=Rule.NVFP4_KV_DTYPE),
    )
}
KV_CACHE_DTYPE_CHOICES: tuple[str, ...] = ("auto", *KV_CACHE_DTYPES)
FP8_DS_MLA_BYTES_PER_TOKEN = 656
"""DeepSeek-V3.2 sparse MLA layout: 512 fp8 latent values + 4 fp32 scales + 64 bf16 rope
values = 656 bytes per token (MLAAttentionSpec.real_page_size_bytes, flashmla_sparse.py)."""


def normalize_model_dtype(name: str | None, supports_bf16: bool = True) -> str:
    """The dtype vLLM runs a model in for ``--dtype auto`` (config/model.py _resolve_auto_dtype).

    float32 checkpoints (and configs without a dtype, which transformers reads as float32)
    are served in bf16; GPUs without bf16 (compute capability < 8.0) use fp16 instead.
    """
    n = (name or "float32").replace("torch.", "")
    n = {"bf16": "bfloat16", "fp16": "float16", "half": "float16", "float": "float32",
         "fp32": "float32"}.get(n, n)
    if n not in MODEL_DTYPE_BYTES:
        n = "float32"
    if n == "float32":
        n = "bfloat16"
    if n == "bfloat16" and not supports_bf16:
        n = "float16"
    return n


def model_dtype_bytes(name: str) -> int:
    return MODEL_DTYPE_BYTES[name]


FP8_KV_BY_DEFAULT_ON_SM10 = ("GlmMoeDsaForCausalLM",)
"""Architectures vLLM gives an fp8 KV cache for ``auto`` on CUDA compute capability 10.x
(Rule.GLM_DSA_FP8_KV_ON_SM10; models/config.py ``GlmMoeDsaForCausalLM.verify_and_update_config``)."""


def fp8_by_default(requested: str, architecture: str, platform: str, capability_major: int,
                   version: Version) -> bool:
    """Whether vLLM turns ``--kv-cache-dtype auto`` into fp8_e4m3 for this model and GPU."""
    return (requested or "auto").strip().lower() == "auto" and architecture in FP8_KV_BY_DEFAULT_ON_SM10 \
        and platform == "cuda" and capability_major == 10 and applies(Rule.GLM_DSA_FP8_KV_ON_SM10, version)


def sparse_mla_storage(kv: KvDtype, requested: str, version: Version, platform: str, capability_major: int,
                       heads_per_gpu: int) -> KvDtype:
    """What a sparse-MLA model (DeepSeek-V3.2, GLM-5: an indexer beside the latent) stores for the
    resolved ``kv``: DeepSeek's own fp8_ds_mla layout (656 B a token) where the chosen backend wants
    it, else ``kv``. Before v0.18 every fp8 cache (models/config.py), and in v0.11.0 ``auto`` too
    (Rule.V32_AUTO_BF16); from v0.18 FLASHMLA_SPARSE's fp8 (mla_attention.py, Rule.MLA_BLOCK_FROM_BACKEND):
    on Hopper always, on 10.x only above 16 heads per GPU until v0.19 sends fp8 caches to
    FLASHINFER_MLA_SPARSE, which keeps standard fp8 (Rule.FLASHINFER_SPARSE_FOR_FP8); on 12.x the
    SM120 backend from v0.24 stores fp8_ds_mla for auto and fp8 alike (Rule.SM120_SPARSE_MLA_FP8_DS_MLA)."""
    ds = KV_CACHE_DTYPES["fp8_ds_mla"]
    fp8 = kv.name in ("fp8", "fp8_e4m3")
    auto = (requested or "auto").strip().lower() == "auto"
    if not applies(Rule.MLA_BLOCK_FROM_BACKEND, version):
        return ds if fp8 or auto and not applies(Rule.V32_AUTO_BF16, version) else kv
    if platform != "cuda":
        return kv
    if capability_major == 9:
        return ds if fp8 else kv
    if capability_major == 10:
        return ds if fp8 and heads_per_gpu > 16 and not applies(Rule.FLASHINFER_SPARSE_FOR_FP8, version) else kv
    if capability_major == 12 and applies(Rule.SM120_SPARSE_MLA_FP8_DS_MLA, version) and (fp8 or auto):
        return ds
    return kv


def checkpoint_kv_dtype(checkpoint_kv: str | None, checkpoint_method: str | None, version: Version,
                        is_mla: bool = False) -> KvDtype | None:
    """The KV dtype a checkpoint's quantization_config makes ``auto`` take in ``version``, or None:
    a ModelOpt one (``kv_cache_quant_algo``) from v0.14 (Rule.MODELOPT_KV_AUTO,
    ``resolve_kv_cache_dtype_string``); an llm-compressor ``kv_cache_scheme`` fp8 from v0.15
    (Rule.CT_KV_SCHEME_AUTO_FP8, the attention layer), never on MLA layers, which do not read it."""
    ckpt = KV_CACHE_DTYPES.get(checkpoint_kv or "")
    if ckpt is None or ckpt.since is not None and not applies(ckpt.since, version):
        return None
    if (checkpoint_method or "").startswith("modelopt"):
        return ckpt if applies(Rule.MODELOPT_KV_AUTO, version) else None
    return ckpt if applies(Rule.CT_KV_SCHEME_AUTO_FP8, version) and not is_mla else None


def resolve_kv_dtype(
    requested: str, model_dtype: str, checkpoint_kv: str | None, version: Version,
    is_mla: bool = False, architecture: str = "", platform: str = "cuda", capability_major: int = 0,
    checkpoint_method: str | None = None, sparse_mla: bool = False,
) -> KvDtype:
    """Turn ``--kv-cache-dtype`` into a storage type.

    ``auto`` is the model dtype, except that a checkpoint whose quantization_config asks for
    a KV cache dtype (llm-compressor fp8 scheme, ModelOpt fp8/nvfp4: ``checkpoint_kv_dtype``) gets
    that one; an explicit value wins from v0.22 (#42782), while v0.15 to v0.21 stored an
    llm-compressor scheme's fp8 whatever was asked (Rule.CT_KV_SCHEME_EXPLICIT_WINS). An explicit
    float16 or bfloat16 must be the model's dtype from v0.33 (Rule.FLOAT_KV_MATCHES_MODEL), and
    GLM-5-class models (GlmMoeDsaForCausalLM) on data-centre Blackwell take fp8_e4m3 from v0.32, set
    before the checkpoint is asked.
    """
    name = (requested or "auto").strip().lower()
    if fp8_by_default(name, architecture, platform, capability_major, version):
        return KV_CACHE_DTYPES["fp8_e4m3"]
    ckpt = checkpoint_kv_dtype(checkpoint_kv, checkpoint_method, version, is_mla)
    if name == "auto":
        if ckpt is not None:
            return ckpt
        return KV_CACHE_DTYPES[model_dtype if model_dtype in KV_CACHE_DTYPES else "bfloat16"]
    if ckpt is not None and not (checkpoint_method or "").startswith("modelopt") and \
            not applies(Rule.CT_KV_SCHEME_EXPLICIT_WINS, version) and name in KV_CACHE_DTYPES:
        return ckpt
    if name not in KV_CACHE_DTYPES:
        raise SettingsError({"--kv-cache-dtype": Text(
            "dtype.unknown_kv", value=repr(requested), choices=", ".join(KV_CACHE_DTYPE_CHOICES))})
    kv = KV_CACHE_DTYPES[name]
    if name in ("float16", "bfloat16") and name != model_dtype and applies(Rule.FLOAT_KV_MATCHES_MODEL, version):
        allowed = f"auto or {model_dtype}" if model_dtype in ("float16", "bfloat16") else "auto"
        raise SettingsError({"--kv-cache-dtype": Text("dtype.float_kv_mismatch", name=name, model=model_dtype,
                                                      allowed=allowed, version=str(version))})
    if kv.since is not None and not applies(kv.since, version):
        raise SettingsError({"--kv-cache-dtype": Text(
            "dtype.needs_version", name=name, since=str(kv.since.value.since), pr=str(kv.since.value.pr),
            version=str(version))})
    if kv.mla_only and not is_mla:
        raise SettingsError({"--kv-cache-dtype": Text("dtype.mla_only")})
    refusal = backend_kv_refusal(name, version, is_mla, sparse_mla, platform)
    if refusal is not None:
        raise SettingsError({"--kv-cache-dtype": refusal})
    return kv


def backend_kv_refusal(name: str, version: Version, is_mla: bool, sparse_mla: bool, platform: str) -> Text | None:
    """Why no attention backend of ``version`` keeps this cache type for the model, or None. From v0.18
    (Rule.BACKEND_KV_DTYPE_LISTS) vLLM picks a backend by the cache types each lists
    (``supported_kv_cache_dtypes``, vllm/v1/attention/backends/) and stops with 'No valid attention
    backend' where none does: fp8_inc is Intel Gaudi's (no CUDA or ROCm backend lists it); no CUDA MLA
    backend keeps fp8_e5m2, nor ROCm's default Triton MLA (AITER's MLA does, with
    VLLM_ROCM_USE_AITER=1, which kvcalc does not model); fp8_ds_mla is the sparse-MLA backends' alone."""
    if platform not in ("cuda", "rocm") or not applies(Rule.BACKEND_KV_DTYPE_LISTS, version):
        return None
    if name == "fp8_inc":
        return Text("dtype.fp8_inc", version=str(version))
    if name == "fp8_e5m2" and is_mla:
        return Text("dtype.mla_e5m2", version=str(version))
    if name == "fp8_ds_mla" and is_mla and not sparse_mla:
        return Text("dtype.ds_mla_dense", version=str(version))
    return None
