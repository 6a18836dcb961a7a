"""Test factories: every field defaulted, so a test names only what it is about."""

from __future__ import annotations

import json
import signal
import types
from contextlib import contextmanager
from typing import Any, Iterator

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


def compared(text: str, version: str, gpu: str = "h100") -> dict[str, Any]:
    """compare_log on a pasted excerpt, with the GPU and release a form would supply; it must succeed."""
    from kvcalc import api
    r = api.handle({"op": "compare_log", "text": text, "gpu": gpu, "settings": {"vllm_version": version}})
    assert r["ok"], r
    return r["result"]


def row_of(result: dict[str, Any], line: str) -> dict[str, Any]:
    """The comparison's row for one log line."""
    return next(x for x in result["rows"] if x["line"] == line)


def from_bytes(model: str | dict[str, Any], available: int, gpu: str = "h100", **settings: Any):
    """The pool vLLM makes of exactly ``available`` bytes (via --kv-cache-memory-bytes)."""
    return calc(model, gpu, kv_cache_memory_bytes=available, **settings).estimated


class Deadline(Exception):
    """A case ran past its time limit (raised inside the case by SIGALRM)."""


@contextmanager
def deadline(seconds: int, what: str = "case") -> Iterator[None]:
    """Fail a case that runs past ``seconds`` instead of hanging the suite (main thread only)."""
    def expire(signum, frame):
        raise Deadline(f"{what} ran past {seconds} s")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


class HubErrors:
    """The exception classes of ``huggingface_hub.errors`` that kvcalc.hub catches."""

    class GatedRepoError(Exception):
        pass

    class RepositoryNotFoundError(Exception):
        pass

    class EntryNotFoundError(Exception):
        pass

    class LocalEntryNotFoundError(EntryNotFoundError, FileNotFoundError, ValueError):
        """huggingface_hub's: offline and not in the cache."""


def fake_hub(tmp_path, files: dict[str, Any], raise_on: Exception | None = None) -> types.ModuleType:
    """A stand-in ``huggingface_hub`` module serving ``files`` (name -> JSON) from ``tmp_path``,
    or raising ``raise_on`` on every download; no network."""
    mod = types.ModuleType("huggingface_hub")
    mod.errors = HubErrors

    def download(repo, name, token=None):
        if raise_on:
            raise raise_on
        if name not in files:
            raise HubErrors.EntryNotFoundError(name)
        p = tmp_path / name
        p.write_text(json.dumps(files[name]))
        return str(p)

    def metadata(repo, token=None):
        raise HubErrors.EntryNotFoundError("no metadata")

    mod.hf_hub_download = download
    mod.get_safetensors_metadata = metadata
    return mod


def assert_field_named(cfg: dict[str, Any], field: str, gpu: str = "h100") -> None:
    """A malformed config is refused naming ``field``: read_model raises ConfigError on it, and the page's
    estimate call answers an error whose message names it (no traceback, no number)."""
    import pytest
    from kvcalc import api
    from kvcalc.errors import ConfigError
    from kvcalc.hf_config import read_model
    with pytest.raises(ConfigError) as err:
        read_model(cfg)
    assert err.value.field == field
    r = api.handle({"op": "estimate", "config": cfg, "gpu": gpu, "settings": {"max_model_len": 4096}})
    assert not r["ok"] and field in r["error"]["message"]


def safetensors_file(tensors: dict, pad: int = 0) -> bytes:
    """A safetensors file: 8-byte header length, JSON header (padded by a long metadata string), data."""
    header, offset = {"__metadata__": {"note": "x" * pad}}, 0
    for name, nbytes in tensors.items():
        header[name] = {"dtype": "BF16", "shape": [nbytes // 2], "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    raw = json.dumps(header).encode()
    return len(raw).to_bytes(8, "little") + raw + bytes(offset)
