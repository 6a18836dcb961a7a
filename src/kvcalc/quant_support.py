"""Whether vLLM loads a quantized checkpoint at all on the chosen GPU and release.

vLLM checks this before it allocates anything, so a pool computed for a combination it refuses
would be a number for a server that never starts. Two checks, read from the release wheels
(v0.10.0 to v0.34.0):

- ``VllmConfig._get_quantization_config`` (vllm/config/vllm.py; vllm/config.py in v0.10) raises
  "The quantization method … is not supported for the current GPU. Minimum capability: N.
  Current capability: M." when the GPU's compute capability (major × 10 + minor) is below the
  method's ``get_min_capability()``. ROCm reports its gfx architecture the same way (gfx90a = 90,
  gfx942 = 94, gfx1100 = 110), above every minimum, so the check only bites on CUDA.
- ``ModelConfig._verify_quantization`` (vllm/config/model.py) raises "Unknown quantization method"
  for a method the release no longer ships (bitsandbytes from v0.28.0: Rule.BITSANDBYTES_REMOVED; fp_quant from
  v0.34.0: Rule.FP_QUANT_REMOVED).

And one that comes later, while vLLM builds the layers: from v0.22 a GPTQ checkpoint always takes
the Marlin-family linear method on CUDA, which refuses GPUs below compute capability 7.5
(Rule.GPTQ_MARLIN_ONLY), although GPTQ's start-up minimum stays 6.0.
"""

from __future__ import annotations

from typing import Any

from .config_aliases import modelopt_algo, quantization_config
from .errors import SettingsError
from .messages import Text
from .kvspecs import parse_capability
from .versions import Rule, Version, applies

_MIN_CAPABILITY: dict[str, tuple[tuple[Rule | None, int], ...]] = {
    "awq": ((None, 75),),
    "gptq": ((None, 60),),
    "fp8": ((Rule.MARLIN_ON_TURING, 75), (None, 80)),
    "fbgemm_fp8": ((None, 80),),
    "modelopt": ((Rule.MODELOPT_FP8_ON_AMPERE, 80), (None, 89)),
    "modelopt_fp4": ((Rule.MARLIN_ON_TURING, 75), (None, 80)),
    "mxfp4": ((None, 80),),
    "bitsandbytes": ((None, 70),),
    "ct_wna16": ((Rule.CT_WNA16_ON_TURING, 75), (None, 80)),
    "ct_fp8": ((Rule.CT_FP8_ON_TURING, 75), (None, 80)),
    "ct_w8a8_int8": ((None, 75),),
}
"""``get_min_capability()`` of each method's config class, newest rule first (AWQConfig and
AutoAWQConfig 75, whatever the Marlin conversion picks; GPTQConfig and AutoGPTQConfig 60;
Fp8Config, ModelOptNvFp4Config 80, then 75 from v0.14.0; FBGEMMFp8Config 80; ModelOptFp8Config
89, then 80 from v0.27.0; Mxfp4Config 80; BitsAndBytesConfig 70). compressed-tensors checks per
scheme while vLLM builds the layers (``CompressedTensorsConfig._check_scheme_supported``): ct_wna16
(weight-only int4/int8: CompressedTensorsWNA16 80, then 75 from v0.12.0), ct_fp8 (FP8 W8A8 needs
8.9 but falls back to CompressedTensorsW8A16Fp8 below it: 80, then 75 from v0.16.0) and
ct_w8a8_int8 (75); NVFP4 schemes are not judged."""

MARLIN_MIN_CAPABILITY = 75
"""Below this, Marlin supports no weight type (utils/marlin_utils.py
``query_marlin_supported_quant_types``, 7.5 from v0.14.0: Rule.MARLIN_ON_TURING)."""

_FORMAT_METHOD = {"awq": "awq", "gptq": "gptq", "fp8": "fp8", "mxfp4": "mxfp4", "nvfp4": "modelopt_fp4"}
"""The method vLLM runs for a weight format the user chose (``--quantization``, or the page's
weights field) instead of the checkpoint's own."""

_SCHEMES = ("ct_wna16", "ct_fp8", "ct_w8a8_int8")
"""Methods checked per compressed-tensors scheme, with vLLM's own wording for the refusal."""

_LABEL = {"awq": "AWQ", "gptq": "GPTQ", "fp8": "FP8", "fbgemm_fp8": "FP8 (fbgemm)", "modelopt": "ModelOpt FP8",
          "modelopt_fp4": "NVFP4", "mxfp4": "MXFP4", "bitsandbytes": "bitsandbytes",
          "ct_wna16": "compressed-tensors int4/int8 (weight-only)", "ct_fp8": "compressed-tensors FP8",
          "ct_w8a8_int8": "compressed-tensors INT8 (W8A8)"}


def vllm_method(config: dict[str, Any], weights: str) -> str | None:
    """The quantization method vLLM resolves for this checkpoint and weights setting, among those
    ``_MIN_CAPABILITY`` knows; None for an unquantized model or a method not judged here."""
    if weights != "auto":
        return _FORMAT_METHOD.get(weights)
    q = quantization_config(config)
    if q is None:
        return None
    method = str(q.get("quant_method") or "").lower()
    if method in ("awq", "awq_marlin"):
        return "awq"
    if method in ("gptq", "gptq_marlin"):
        return "gptq"
    if method == "modelopt":
        algo = modelopt_algo(q)
        return "modelopt_fp4" if "FP4" in algo else "modelopt" if algo == "FP8" else None
    if method in ("compressed-tensors", "compressed_tensors"):
        return _compressed_tensors_scheme(q)
    return method if method in _MIN_CAPABILITY else None


def _compressed_tensors_scheme(q: dict[str, Any]) -> str | None:
    """The scheme of a compressed-tensors checkpoint's first config group, as vLLM's
    ``_get_scheme_from_parts`` picks it for the weights and input activations it declares."""
    groups = q.get("config_groups")
    group = next((g for g in groups.values() if isinstance(g, dict)), None) if isinstance(groups, dict) else None
    weights = group.get("weights") if group else None
    if not isinstance(weights, dict):
        return None
    acts = group.get("input_activations")
    bits, kind = weights.get("num_bits"), weights.get("type", "int")
    if kind == "float":
        return "ct_fp8" if bits == 8 else None
    if not isinstance(acts, dict):
        return "ct_wna16" if bits in (4, 8) else None
    return "ct_w8a8_int8" if bits == 8 and acts.get("num_bits") == 8 and acts.get("type", "int") == "int" else None


def min_capability(method: str, version: Version) -> int | None:
    """``get_min_capability()`` of ``method`` in ``version`` (None: not judged here)."""
    for rule, value in _MIN_CAPABILITY.get(method, ()):
        if rule is None or applies(rule, version):
            return value
    return None


REMOVED_METHODS = {"bitsandbytes": Rule.BITSANDBYTES_REMOVED, "fp_quant": Rule.FP_QUANT_REMOVED}
"""Methods a release no longer ships, which ``ModelConfig._verify_quantization`` refuses as unknown."""


def check_quantization_supported(config: dict[str, Any], weights: str, version: Version, platform: str,
                                 capability: str, gpu_name: str) -> None:
    """Raise a SettingsError naming the weights field where vLLM ``version`` would stop at
    start-up: a method it no longer ships, or a GPU below the method's minimum capability."""
    q = quantization_config(config) if weights == "auto" else None
    declared = str(q.get("quant_method") or "").lower() if q else ""
    for name, rule in REMOVED_METHODS.items():
        if name in (declared, vllm_method(config, weights)) and applies(rule, version):
            raise SettingsError({"weights": Text("quant.removed", method=name, version=str(version),
                                                 since=str(rule.info.since))})
    method = vllm_method(config, weights)
    if method is None:
        return
    if platform != "cuda":
        return
    cc = parse_capability(capability)      # vLLM's DeviceCapability.to_int(): major × 10 + minor
    have = cc[0] * 10 + cc[1] if cc else None
    need = min_capability(method, version)
    if have is not None and method == "gptq" and have < MARLIN_MIN_CAPABILITY \
            and applies(Rule.GPTQ_MARLIN_ONLY, version):
        raise SettingsError({"weights": Text("quant.marlin_only", version=str(version), gpu=gpu_name,
                                             have=capability, need=MARLIN_MIN_CAPABILITY / 10,
                                             since=str(Rule.GPTQ_MARLIN_ONLY.info.since))})
    if need is None or have is None or have >= need:
        return
    raise SettingsError({"weights": Text(
        "quant.scheme_capability" if method in _SCHEMES else "quant.min_capability", label=_LABEL[method],
        version=str(version), gpu=gpu_name, have=capability, need=need / 10, need_int=need, have_int=have)})


def needs_deprecated_flag(config: dict[str, Any], weights: str, version: Version) -> bool:
    """Whether vLLM ``version`` starts this checkpoint only with --allow-deprecated-quantization:
    fbgemm_fp8 from v0.14 (Rule.DEPRECATED_QUANTIZATION_GATE)."""
    return vllm_method(config, weights) == "fbgemm_fp8" and applies(Rule.DEPRECATED_QUANTIZATION_GATE, version)

