"""``--hf-overrides``: the JSON a serve line merges into the model's config.json before vLLM reads it,
applied the way vLLM applies it (vllm/config/model.py ``ModelConfig.__post_init__`` and
``_apply_dict_overrides``, v0.33; vllm/transformers_utils/config.py ``get_config``):

- a key whose value is not a JSON object replaces the config's value (``config.update``);
- a key whose value is an object and that names a nested config (``text_config``, ``vision_config`` …)
  is merged into it key by key, objects inside merged again (``_update_nested``);
- any other object (``rope_scaling``, ``quantization_config`` …) replaces the value whole.

kvcalc's config is the plain dict of config.json, where a nested config is an object under a key
ending in ``_config``; ``quantization_config`` is a plain dict in transformers, not a nested config.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from . import textdepth

NOT_NESTED = frozenset({"quantization_config", "compression_config"})
"""Keys ending in _config that transformers keeps as plain dicts, so an override replaces them whole."""

SHAPE_KEYS = frozenset({"rope_scaling", "rope_theta", "rope_parameters", "max_position_embeddings",
                        "original_max_position_embeddings", "sliding_window", "use_sliding_window",
                        "max_window_layers", "layer_types"})
"""Keys an override can change without changing the checkpoint's tensors (the context length and
the attention's reach, not a weight's shape): the checkpoint's size still splits by component."""


def overrides_of(value: Any) -> dict[str, Any] | None:
    """The overrides as a dict (given as one, or as its JSON text), or None where the value is no
    JSON object (the caller names the field)."""
    if isinstance(value, str):
        try:
            value = textdepth.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) and _finite(value) else None


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere in ``value`` (a dict given directly, not as JSON text): the reply
    echoes the overrides, and JSON has no such numbers."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return True


def _nested(key: str, current: Any) -> bool:
    return key.endswith("_config") and key not in NOT_NESTED and isinstance(current, dict)


def _merge(target: dict[str, Any], updates: dict[str, Any]) -> None:
    for key, value in updates.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)


def apply_overrides(config: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``config`` with ``overrides`` applied as vLLM applies them (module docstring)."""
    out = copy.deepcopy(config)
    for key, value in overrides.items():
        if isinstance(value, dict) and _nested(key, out.get(key)):
            _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def keeps_checkpoint_shapes(overrides: dict[str, Any]) -> bool:
    """Whether the overrides leave every weight's shape alone (only ``SHAPE_KEYS``, at any depth),
    so a checkpoint's known size still describes what vLLM loads."""
    def ok(d: dict[str, Any]) -> bool:
        return all(k in SHAPE_KEYS or (_nested(k, v) and ok(v)) for k, v in d.items())
    return ok(overrides)
