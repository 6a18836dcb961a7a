"""Fetch a model's config.json (with a vision model's preprocessor_config.json) and weight size
from Hugging Face (CLI only; the page fetches in the browser). Uses ``huggingface_hub`` when
installed, honouring ``HF_TOKEN``. Every failure becomes a :class:`HubError` with a message a
person can act on."""

from __future__ import annotations

import json
import math
import os
from typing import Any

from .config_aliases import quantization_config
from .errors import KvcalcError
from .messages import Text


class HubError(KvcalcError):
    """The model could not be fetched from Hugging Face."""


def _hub():
    try:
        import huggingface_hub  # noqa: PLC0415 - optional dependency, CLI only
    except ImportError as exc:
        raise HubError(Text("hub.needs_hub")) from exc
    return huggingface_hub


def fetch_model(model_id: str, token: str | None = None) -> tuple[dict[str, Any], int | None]:
    """(config.json dict, safetensors total bytes or None) for ``model_id``."""
    hub = _hub()
    token = token or os.environ.get("HF_TOKEN") or None
    errors = hub.errors
    try:
        path = hub.hf_hub_download(model_id, "config.json", token=token)
        with open(path, encoding="utf-8") as fh:
            config = json.load(fh)
    except errors.GatedRepoError as exc:
        raise HubError(Text("hub.gated", model=model_id)) from exc
    except errors.RepositoryNotFoundError as exc:
        raise HubError(Text("hub.not_found", model=model_id)) from exc
    except errors.EntryNotFoundError as exc:
        raise HubError(Text("hub.no_config", model=model_id)) from exc
    except (OSError, ValueError) as exc:
        raise HubError(Text("hub.fetch_failed", model=model_id, error_type=type(exc).__name__,
                            error=str(exc))) from exc
    if isinstance(config, dict) and isinstance(config.get("vision_config"), dict):
        processor = _optional_json(hub, model_id, "preprocessor_config.json", token)
        if processor is not None:
            config = {**config, "preprocessor_config": processor}
    if isinstance(config, dict) and quantization_config(config) is None:
        quant = _optional_json(hub, model_id, "hf_quant_config.json", token)
        if quant is not None:
            config = {**config, "hf_quant_config": quant}
    return config, _weights_bytes(hub, model_id, token)


def _optional_json(hub: Any, model_id: str, name: str, token: str | None) -> dict[str, Any] | None:
    """A file beside config.json that refines it, or None when the checkpoint has none or it cannot
    be read: a vision model's preprocessor_config.json (its image size limit sizes vLLM's warm-up,
    reserve.checkpoint_max_pixels), an older ModelOpt export's hf_quant_config.json (its
    quantization, which vLLM reads when config.json declares none)."""
    try:
        path = hub.hf_hub_download(model_id, name, token=token)
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        return data if isinstance(data, dict) else None
    except Exception:  # noqa: BLE001 - optional file: the defaults apply
        return None


def _weights_bytes(hub: Any, model_id: str, token: str | None) -> int | None:
    """safetensors metadata: the index's total_size, else the single file's parameter bytes."""
    try:
        path = hub.hf_hub_download(model_id, "model.safetensors.index.json", token=token)
        with open(path, encoding="utf-8") as fh:
            total = json.load(fh).get("metadata", {}).get("total_size")
        if isinstance(total, int) and total > 0:
            return total
    except Exception:  # noqa: BLE001 - absent index is normal; fall through
        pass
    try:
        meta = hub.get_safetensors_metadata(model_id, token=token)
        total = 0
        for file_meta in meta.files_metadata.values():
            for tensor in file_meta.tensors.values():
                total += math.prod(tensor.shape) * _DTYPE_BYTES.get(tensor.dtype, 2)
        return total or None
    except Exception:  # noqa: BLE001 - weights stay estimated
        return None


_DTYPE_BYTES = {"F64": 8, "F32": 4, "BF16": 2, "F16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "I8": 1,
                "U8": 1, "I32": 4, "I64": 8, "I16": 2, "BOOL": 1}
