"""A first estimate of the weights one GPU loads ("Model loading took X GiB").

Exact bytes come from the checkpoint's safetensors metadata when known (catalog, or
fetched); otherwise the parameter count is derived from the config and multiplied by
the bytes per parameter of the checkpoint format. The per-GPU share is total / (TP × PP),
a first approximation that a later, per-component model refines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import SettingsError

# Bytes per parameter of the quantized linear layers, with their scales / zeros.
# int4 with group 128: 0.5 B + fp16 scale and packed zero per 128 values ≈ 0.53 B.
WEIGHT_FORMATS: dict[str, float] = {
    "auto": 0.0,          # from the checkpoint
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "awq": 0.53,
    "gptq": 0.53,
    "mxfp4": 0.53,
    "nvfp4": 0.5625,
}


@dataclass(frozen=True)
class WeightsEstimate:
    total_bytes: int
    per_gpu_bytes: int
    basis: str
    exact_total: bool


def _text(config: dict[str, Any]) -> dict[str, Any]:
    t = config.get("text_config")
    return t if isinstance(t, dict) else config


def _num(d: dict, key: str, default: float = 0) -> float:
    v = d.get(key)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def count_parameters(config: dict[str, Any]) -> tuple[int, int]:
    """(total parameters, parameters in linear layers that quantization would shrink).

    Standard and MoE decoders: embeddings (+ LM head unless tied), attention projections
    (MLA uses its low-rank projections), dense or expert MLPs (3 matrices each), norms.
    """
    t = _text(config)
    hidden = _num(t, "hidden_size")
    layers = _num(t, "num_hidden_layers")
    vocab = _num(t, "vocab_size")
    heads = _num(t, "num_attention_heads")
    if not (hidden and layers and vocab and heads):
        return 0, 0
    kv_heads = _num(t, "num_key_value_heads", heads)
    head = _num(t, "head_dim", hidden / heads) or hidden / heads
    tied = bool(t.get("tie_word_embeddings", config.get("tie_word_embeddings", False)))
    embed = vocab * hidden * (1 if tied else 2)
    if t.get("kv_lora_rank"):
        q_rank = _num(t, "q_lora_rank")
        nope, rope, v_dim = _num(t, "qk_nope_head_dim"), _num(t, "qk_rope_head_dim"), _num(t, "v_head_dim")
        kv_rank = _num(t, "kv_lora_rank")
        q = (hidden * q_rank + q_rank * heads * (nope + rope)) if q_rank else hidden * heads * (nope + rope)
        attn = q + hidden * (kv_rank + rope) + kv_rank * heads * (nope + v_dim) + heads * v_dim * hidden
    else:
        attn = hidden * heads * head * 2 + hidden * kv_heads * head * 2
    inter = _num(t, "intermediate_size")
    experts = _num(t, "num_local_experts") or _num(t, "num_experts") or _num(t, "n_routed_experts")
    moe_inter = _num(t, "moe_intermediate_size", inter)
    shared = _num(t, "n_shared_experts") or (1 if _num(t, "shared_expert_intermediate_size") else 0)
    shared_inter = _num(t, "shared_expert_intermediate_size", moe_inter)
    dense_layers = _num(t, "first_k_dense_replace")
    if experts:
        moe_layers = layers - dense_layers
        mlp = (dense_layers * 3 * hidden * inter
               + moe_layers * (experts * 3 * hidden * moe_inter + shared * 3 * hidden * shared_inter
                               + experts * hidden))
    else:
        mlp = layers * 3 * hidden * inter
    linear = layers * attn + mlp
    total = embed + linear + layers * 2 * hidden + hidden
    return int(total), int(linear)


def estimate_weights(config: dict[str, Any], weights_bytes: int | None, weight_format: str,
                     model_dtype_bytes: int, tp: int, pp: int) -> WeightsEstimate | None:
    """Per-GPU weights, or None when neither the size nor a parameter count is available."""
    fmt = (weight_format or "auto").lower()
    if fmt not in WEIGHT_FORMATS:
        raise SettingsError({"weights": f"{weight_format!r} is not a known weight format; "
                             "choose " + ", ".join(WEIGHT_FORMATS)})
    total_params, linear_params = count_parameters(config)
    if fmt == "auto" and weights_bytes:
        return WeightsEstimate(weights_bytes, weights_bytes // (tp * pp),
                               "checkpoint safetensors size ÷ (TP × PP)", True)
    if not total_params:
        return None
    if fmt == "auto":
        q = config.get("quantization_config")
        method = (q or {}).get("quant_method", "") if isinstance(q, dict) else ""
        per_param = {"awq": 0.53, "gptq": 0.53, "fp8": 1.0, "compressed-tensors": 1.0,
                     "mxfp4": 0.53, "modelopt": 1.0, "bitsandbytes": 0.55}.get(str(method).lower())
        if per_param is None:
            per_param = float(model_dtype_bytes)
            basis = f"{total_params / 1e9:.2f} B parameters × {model_dtype_bytes} B"
        else:
            basis = f"{total_params / 1e9:.2f} B parameters, {method} linear layers"
    else:
        per_param = WEIGHT_FORMATS[fmt]
        basis = f"{total_params / 1e9:.2f} B parameters, {fmt} linear layers"
    rest = total_params - linear_params
    total = int(linear_params * per_param + rest * model_dtype_bytes) if per_param != model_dtype_bytes \
        else int(total_params * per_param)
    return WeightsEstimate(total, total // (tp * pp), basis + ", ÷ (TP × PP)", False)
