"""--kv-transfer-config: NixlConnector, the prefill/decode transfer, registers the KV cache vLLM sizes
and keeps no GPU buffer of its own, so kvcalc sizes it as the pool without it, for models whose layers
all keep one kind of cache; other connectors, and hybrid models, are refused with the reason."""

from __future__ import annotations

import json

import pytest

from factories import calc
from kvcalc import api
from kvcalc.commandline import read_command
from kvcalc.errors import SettingsError
from kvcalc.validate import load_logs, evaluate_entry

NIXL = json.dumps({"kv_connector": "NixlConnector", "kv_role": "kv_producer", "kv_buffer_device": "cpu"})


def test_nixl_is_read_from_every_spelling_and_other_connectors_are_refused():
    assert read_command(f"vllm serve Qwen/Qwen3-8B --kv-transfer-config '{NIXL}'")["settings"] == \
        {"kv_connector": "NixlConnector"}
    dotted = read_command("vllm serve Qwen/Qwen3-8B --kv-transfer-config.kv_connector NixlConnector "
                          "--kv-transfer-config.kv_role kv_both")
    assert dotted["settings"] == {"kv_connector": "NixlConnector"} and not dotted["refused"]
    lmcache = read_command("""vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1"}'""")
    assert lmcache["settings"] == {} and "NixlConnector" in str(lmcache["refused"]["--kv-transfer-config"])


def test_nixl_leaves_the_pool_of_a_uniform_model_as_it_is():
    off, on = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.33.0"), \
        calc("Qwen/Qwen3-8B", max_model_len=8192, kv_connector="NixlConnector", vllm_version="0.33.0")
    assert on.estimated.tokens == off.estimated.tokens
    assert any("--kv-transfer-config NixlConnector" in str(n) for n in on.notes)
    assert """--kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'""" in on.serve_command
    assert "--kv-transfer-config" not in off.serve_command


def test_nixl_turns_v034s_extensible_cache_off_unless_asked_for():
    """NIXL exports the cache through fabric handles, which need an IMEX channel: v0.34 leaves the extensible
    KV cache off with it (config/vllm.py _resolve_extensible_kv_cache), so the pool is v0.33's way, at 0.92."""
    plain = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0")
    nixl = calc("Qwen/Qwen3-8B", max_model_len=8192, kv_connector="NixlConnector", vllm_version="0.34.0")
    asked = calc("Qwen/Qwen3-8B", max_model_len=8192, kv_connector="NixlConnector", vllm_version="0.34.0",
                 enable_extensible_kv_cache=True)
    assert plain.resolved.extensible_kv_cache and asked.resolved.extensible_kv_cache
    assert not nixl.resolved.extensible_kv_cache and nixl.resolved.gpu_memory_utilization == 0.92
    assert asked.estimated.tokens == plain.estimated.tokens > nixl.estimated.tokens
    assert "--enable-extensible-kv-cache" in asked.serve_command
    assert "--enable-extensible-kv-cache" not in nixl.serve_command + plain.serve_command
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", "mi300x", max_model_len=8192, kv_connector="NixlConnector", vllm_version="0.34.0",
             enable_extensible_kv_cache=True)
    assert "ROCm" in str(err.value.problems["--enable-extensible-kv-cache"])


@pytest.mark.parametrize("model", ["google/gemma-3-27b-it", "Qwen/Qwen3-Next-80B-A3B-Instruct"])
def test_a_hybrid_model_with_a_connector_is_refused_with_the_reason(model):
    """Sliding-window (Gemma 3) or state (Qwen3-Next) layers: whether vLLM keeps the hybrid KV cache
    manager with a connector depends on the connector and the release, which kvcalc does not size."""
    with pytest.raises(SettingsError) as err:
        calc(model, max_model_len=8192, kv_connector="NixlConnector")
    assert list(err.value.problems) == ["--kv-transfer-config"]


def test_a_connector_kvcalc_does_not_size_is_named():
    r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100",
                    "settings": {"kv_connector": "P2pNcclConnector"}})
    assert not r["ok"] and "--kv-transfer-config" in r["error"]["fields"]
    assert "P2pNcclConnector" in r["error"]["message"]


def test_the_public_nixl_starts_check_out_with_the_connector_set():
    """The seven prefill/decode starts on an L4 ran NixlConnector: set, their estimates stay where
    they are without it."""
    rows = [e for e in load_logs() if e["id"].startswith("l4-qwen3-8b-fp8-nixl-")]
    assert len(rows) == 7
    for entry in rows:
        plain = evaluate_entry(entry)["estimated"]["tokens"]
        assert evaluate_entry({**entry, "kv_connector": "NixlConnector"})["estimated"]["tokens"] == plain


def test_a_pasted_log_names_its_nixl_connector():
    """The non-default args print the parsed KVTransferConfig as its repr: its NixlConnector is read
    (the compare then sizes it, or refuses a hybrid model); another connector stays unread, as before."""
    from kvcalc.logparse import parse_log
    rows = {e["id"]: e for e in load_logs()}
    nixl = parse_log(rows["rtx3090-qwen2.5-7b-nixl-prefill-seqs64-mbt2k-util0.85-noprefix-warm-v0.29.0"]["excerpt"])
    assert nixl.settings()["kv_connector"] == "NixlConnector"
    p2p = next(e for i, e in rows.items() if i.startswith("l20x4-qwen3-32b-tp4-eager") and "p2p" in i)
    parsed = parse_log(p2p["excerpt"])
    assert parsed.non_default_args["kv_transfer_config"] == {"kv_connector": "P2pNcclConnector"}
    assert "kv_connector" not in parsed.settings()
