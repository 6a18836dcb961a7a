"""A checkpoint whose quantization kvcalc does not price is counted at 16 bits only with a note saying so."""

from factories import calc, config

GIB = 1 << 30


def _with_method(method):
    cfg = dict(config("Qwen/Qwen3-30B-A3B"))
    cfg["quantization_config"] = {"quant_method": method}
    return cfg


def test_an_unpriced_format_is_named_and_the_checkpoint_size_corrects_it():
    """w4afp8 (INT4 experts with FP8 activations, new in vLLM 0.34) is not priced: without a size the weights are
    the 16-bit count and the note names the method; with the checkpoint's size the note goes and the weights are
    that size."""
    sixteen_bit = calc("Qwen/Qwen3-30B-A3B", max_model_len=8192, vllm_version="0.34.0", weights_bytes=None)
    c = calc(_with_method("w4afp8"), max_model_len=8192, vllm_version="0.34.0")
    note = next(n for n in c.notes if getattr(n, "key", "") == "note.quant_method_unpriced")
    assert "'w4afp8'" in str(note) and "w4afp8" in note.render("zh")
    assert c.budget.weights.bytes >= 0.9 * sixteen_bit.budget.weights.bytes
    sized = calc(_with_method("w4afp8"), max_model_len=8192, vllm_version="0.34.0", weights_bytes=16 * GIB)
    assert not any(getattr(n, "key", "") == "note.quant_method_unpriced" for n in sized.notes)
    assert abs(sized.budget.weights.bytes - 16 * GIB) < 0.05 * 16 * GIB
    priced = calc(_with_method("fp8"), max_model_len=8192, vllm_version="0.34.0")
    assert not any(getattr(n, "key", "") == "note.quant_method_unpriced" for n in priced.notes)


def test_fp_quant_checkpoints_stop_vllm_from_v034():
    """fp_quant left QuantizationMethods in v0.34: vLLM stops with 'Unknown quantization method'; v0.33 loads it
    (and kvcalc, which does not price it, says so)."""
    import pytest
    from kvcalc.errors import SettingsError
    with pytest.raises(SettingsError) as err:
        calc(_with_method("fp_quant"), max_model_len=8192, vllm_version="0.34.0")
    assert "Unknown quantization method: fp_quant" in str(err.value.problems["weights"])
    old = calc(_with_method("fp_quant"), max_model_len=8192, vllm_version="0.33.0")
    assert any(getattr(n, "key", "") == "note.quant_method_unpriced" for n in old.notes)
