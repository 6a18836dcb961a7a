"""The CLI's Hugging Face fetch, against a stand-in huggingface_hub module (no network)."""

import json
import sys

import pytest

from kvcalc.cli import main
from kvcalc.hub import HubError, fetch_model

from factories import HubErrors, fake_hub




def test_fetch_config_and_index_size(tmp_path, monkeypatch):
    from factories import config
    files = {"config.json": config("Qwen/Qwen3-0.6B"),
             "model.safetensors.index.json": {"metadata": {"total_size": 1503300328}}}
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, files))
    cfg, size = fetch_model("someone/qwen3-copy")
    assert cfg["num_hidden_layers"] == 28 and size == 1503300328


@pytest.mark.parametrize("exc,needle", [(HubErrors.GatedRepoError("x"), "gated"),
                                        (HubErrors.RepositoryNotFoundError("x"), "not found"),
                                        (OSError("network down"), "check your network")])
def test_fetch_errors_are_explained(tmp_path, monkeypatch, exc, needle):
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, {}, raise_on=exc))
    with pytest.raises(HubError, match=needle):
        fetch_model("someone/model")


def test_cli_estimate_by_unknown_id_uses_hub(tmp_path, monkeypatch, capsys):
    from factories import config
    files = {"config.json": config("Qwen/Qwen3-0.6B")}
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, files))
    assert main(["estimate", "--model", "someone/qwen3-copy", "--max-model-len", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"]["id"] == "someone/qwen3-copy" and out["layout"]["kv_bytes_per_token"] == 28 * 8 * 256 * 2


def test_a_vision_model_brings_its_processor_limit(tmp_path, monkeypatch):
    """A Qwen2.5-VL fine-tune whose preprocessor_config.json lowers max_pixels: the fetch attaches
    the file, and the warm-up sizes images by it; a text model's fetch does not ask for it."""
    from factories import config
    files = {"config.json": config("Qwen/Qwen2.5-VL-7B-Instruct"),
             "preprocessor_config.json": {"max_pixels": 1003520, "min_pixels": 3136}}
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, files))
    cfg, _ = fetch_model("someone/qwen25-vl-ocr")
    assert cfg["preprocessor_config"]["max_pixels"] == 1003520
    files = {"config.json": config("Qwen/Qwen2.5-VL-7B-Instruct")}
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, files))
    cfg, _ = fetch_model("someone/qwen25-vl-plain")
    assert "preprocessor_config" not in cfg
