"""Test factories: every field defaulted, so a test names only what it is about."""

from __future__ import annotations

from typing import Any

from kvcalc.catalog import find_gpu, find_model
from kvcalc.engine import Calculation, calculate
from kvcalc.settings import Settings, Speculative


def config(model_id: str) -> dict[str, Any]:
    entry = find_model(model_id)
    assert entry is not None, f"{model_id} missing from data/models.json"
    return entry.config


def llama_like(**overrides: Any) -> dict[str, Any]:
    """A small standard decoder config; override any field."""
    cfg = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 4,
           "hidden_size": 512, "num_attention_heads": 8, "num_key_value_heads": 2,
           "intermediate_size": 1024, "vocab_size": 1000, "max_position_embeddings": 4096,
           "torch_dtype": "bfloat16"}
    cfg.update(overrides)
    return cfg


def calc(model: str | dict[str, Any], gpu: str = "h100", *, available_kv_gib: float | None = None,
         weights_bytes: int | None = None, speculative: dict | None = None, **settings: Any) -> Calculation:
    cfg = config(model) if isinstance(model, str) else model
    spec = Speculative(**speculative) if speculative else None
    return calculate(cfg, find_gpu(gpu), Settings(**settings, speculative=spec),
                     model_id=model if isinstance(model, str) else "",
                     weights_bytes=weights_bytes, available_kv_gib=available_kv_gib)


def from_bytes(model: str | dict[str, Any], available: int, gpu: str = "h100", **settings: Any):
    """The pool vLLM makes of exactly ``available`` bytes (via --kv-cache-memory-bytes)."""
    return calc(model, gpu, kv_cache_memory_bytes=available, **settings).estimated
