"""A checkpoint folder on this machine, as ``vllm serve /path/to/model`` is given one: its config.json
and the weight size from the safetensors headers, never the tensor data."""

import json

import pytest

from kvcalc.cli import main
from kvcalc.errors import KvcalcError
from kvcalc.local_checkpoint import is_checkpoint_dir, read_checkpoint_dir

from factories import config, safetensors_file


def checkpoint(tmp_path, files: dict) -> str:
    """A folder holding ``files`` (name -> JSON-able value or bytes); its path."""
    folder = tmp_path / "qwen3-local"
    folder.mkdir()
    for name, value in files.items():
        data = value if isinstance(value, bytes) else json.dumps(value).encode()
        (folder / name).write_bytes(data)
    return str(folder)


def test_sharded_checkpoint_size_comes_from_its_index(tmp_path):
    path = checkpoint(tmp_path, {"config.json": config("Qwen/Qwen3-0.6B"),
                                 "model.safetensors.index.json": {"metadata": {"total_size": 1503300328}}})
    cfg, size = read_checkpoint_dir(path)
    assert cfg["num_hidden_layers"] == 28 and size == 1503300328


def test_unindexed_files_are_summed_from_their_headers(tmp_path):
    path = checkpoint(tmp_path, {"config.json": config("Qwen/Qwen3-0.6B"),
                                 "model-00001.safetensors": safetensors_file({"a": 6_000}),
                                 "model-00002.safetensors": safetensors_file({"b": 2_000, "c": 400})})
    assert read_checkpoint_dir(path)[1] == 8_400


def test_a_file_that_is_not_safetensors_leaves_the_size_to_the_estimate(tmp_path):
    path = checkpoint(tmp_path, {"config.json": config("Qwen/Qwen3-0.6B"),
                                 "model.safetensors": b"\xff" * 64})
    assert read_checkpoint_dir(path)[1] is None


def test_the_files_beside_config_come_along(tmp_path):
    path = checkpoint(tmp_path, {"config.json": config("Qwen/Qwen2.5-VL-7B-Instruct"),
                                 "preprocessor_config.json": {"max_pixels": 1003520}})
    cfg, size = read_checkpoint_dir(path)
    assert cfg["preprocessor_config"]["max_pixels"] == 1003520 and size is None


@pytest.mark.parametrize("files,needle", [({}, "has no config.json"),
                                          ({"config.json": b"{oops"}, "cannot read"),
                                          ({"config.json": [1, 2]}, "is not a JSON object")])
def test_a_folder_without_a_readable_config_is_explained(tmp_path, files, needle):
    path = checkpoint(tmp_path, files)
    with pytest.raises(KvcalcError, match=needle):
        read_checkpoint_dir(path)


def test_only_folders_count(tmp_path):
    (tmp_path / "file.json").write_text("{}")
    assert is_checkpoint_dir(str(tmp_path)) and not is_checkpoint_dir(str(tmp_path / "file.json"))
    assert not is_checkpoint_dir("Qwen/Qwen3-8B") and not is_checkpoint_dir("\0")
    assert not is_checkpoint_dir("~no-such-user-here/model") and not is_checkpoint_dir("x" * 5000)


def test_cli_serve_reads_the_folder_and_keeps_its_path_in_the_command(tmp_path, capsys):
    path = checkpoint(tmp_path, {"config.json": config("Qwen/Qwen3-0.6B"),
                                 "model.safetensors.index.json": {"metadata": {"total_size": 1503300328}}})
    assert main(["serve", path, "--gpu", "l4", "--max-model-len", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["serve_command"].startswith(f"vllm serve {path}")
    assert out["budget"]["checkpoint_gib"] == pytest.approx(1503300328 / 2**30, abs=0.01)


def test_cli_a_path_that_is_no_folder_says_so_without_a_request(tmp_path, capsys):
    assert main(["serve", str(tmp_path / "missing" / "model"), "--gpu", "l4"]) == 2
    err = capsys.readouterr().err
    assert "is neither a folder on this machine nor a Hugging Face model id" in err and "Traceback" not in err
