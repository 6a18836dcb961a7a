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
                                        (OSError("network down"), "check your network"),
                                        (HubErrors.LocalEntryNotFoundError("offline"), "check your network")])
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


def test_a_modelopt_checkpoint_brings_its_hf_quant_config(tmp_path, monkeypatch):
    """An older ModelOpt export declares its quantization in hf_quant_config.json: the fetch attaches
    it where config.json declares none, and the core reads FP8 weights and an fp8 cache from it."""
    from factories import calc, llama_like
    quant = {"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8"}}
    files = {"config.json": llama_like(), "hf_quant_config.json": quant}
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, files))
    cfg, _ = fetch_model("someone/llama-fp8")
    assert cfg["hf_quant_config"] == quant
    assert calc(cfg, max_model_len=4096).kv.name == "fp8_e4m3"
    # a config that declares its own quantization does not ask for the file
    files = {"config.json": llama_like(quantization_config={"quant_method": "fp8"}), "hf_quant_config.json": quant}
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, files))
    cfg, _ = fetch_model("someone/llama-fp8-new")
    assert "hf_quant_config" not in cfg


def test_the_cli_fetches_the_drafter_a_speculative_config_names(tmp_path, monkeypatch, capsys):
    """--speculative-config naming an EAGLE-3 drafter: the CLI fetches the drafter's config.json
    (here in the speculators format), so the budget counts the drafter's weights and the serve
    command keeps the drafter's id without the fetched config; offline, the assumed layer stays
    and stderr says so."""
    drafter = {"speculators_model_type": "eagle3", "draft_vocab_size": 32000,
               "transformer_layer_config": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 1,
                                            "num_attention_heads": 32, "num_key_value_heads": 8,
                                            "head_dim": 128, "intermediate_size": 12288,
                                            "vocab_size": 151936}}
    spec = '{"method": "eagle3", "model": "someone/qwen3-8b-eagle3", "num_speculative_tokens": 3}'
    argv = ["estimate", "--model", "Qwen/Qwen3-8B", "--gpu", "l4", "--max-model-len", "8192",
            "--speculative-config", spec, "--json"]
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, {"config.json": drafter}))
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    term = next(t for t in out["budget"]["terms"] if t["name"] == "draft model")
    assert 0.7 < term["gib"] < 0.8 and "eagle3" in term["basis"]
    assert "someone/qwen3-8b-eagle3" in out["serve_command"] and "draft_config" not in out["serve_command"]
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, {}, raise_on=OSError("offline")))
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "drafter's config.json was not read" in captured.err
    assert all(t["name"] != "draft model" for t in json.loads(captured.out)["budget"]["terms"])


def test_parse_log_compare_fetches_the_drafter_the_log_names(tmp_path, monkeypatch, capsys):
    """A log whose non-default args carry an EAGLE-3 speculative config: `parse-log --compare`
    reads the drafter's config.json, so kvcalc's side of the comparison counts the drafter."""
    from pathlib import Path
    drafter = json.loads((Path(__file__).parent / "fixtures" / "hf" / "eagle3-llama3.1-8b" / "config.json")
                         .read_text())
    log = tmp_path / "start.log"
    log.write_text(
        "(APIServer pid=1) INFO 10-06 12:00:00 [api_server.py:1880] vLLM API server version 0.31.0\n"
        "(APIServer pid=1) INFO 10-06 12:00:00 [utils.py:233] non-default args: {'model': "
        "'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, 'speculative_config': "
        "{'method': 'eagle3', 'model': 'acme/llama-eagle3', 'num_speculative_tokens': 5}}\n"
        "(EngineCore pid=2) INFO 10-06 12:00:30 [gpu_worker.py:563] Available KV cache memory: 50.5 GiB\n")
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake_hub(tmp_path, {"config.json": drafter}))
    assert main(["parse-log", str(log), "--compare", "--gpu", "h100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    terms = [t["name"] for t in out["calculation"]["budget"]["terms"]]
    assert "draft model" in terms and out["calculation"]["settings"]["speculative"]["drafter_config"] is True
