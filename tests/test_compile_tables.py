"""A first start's compile copies the table its gathers read (reserve.compile_table_bytes): Gemma 4
E2B/E4B also look up a per-layer input table inside the compiled graph on text input, larger than the
input embeddings, and public MI300X first starts of text-only checkpoints that keep it in bf16 peak
at about one copy of it (4.94 GiB for E2B's 4.38 GiB table, 5.95 for E4B's 5.25)."""

from __future__ import annotations

from kvcalc.reserve import compile_table_bytes, embedding_table_bytes, per_layer_table_bytes

from factories import calc, config

E2B = "google/gemma-4-E2B-it"
GIB = 1 << 30


def test_the_per_layer_table_is_rows_by_layers_by_width_split_across_tp():
    cfg = config(E2B)
    assert per_layer_table_bytes(cfg, 1, 2) == 262_144 * 35 * 256 * 2
    assert per_layer_table_bytes(cfg, 2, 2) == 262_144 // 2 * 35 * 256 * 2
    assert per_layer_table_bytes(config("Qwen/Qwen3-8B"), 1, 2) == 0


def test_the_compile_copies_the_larger_table_not_both():
    cfg = config(E2B)
    table, per_layer = compile_table_bytes(cfg, 262_144, 1, 2)
    assert per_layer and table == per_layer_table_bytes(cfg, 1, 2) > embedding_table_bytes(cfg, 262_144, 1, 2)
    table, per_layer = compile_table_bytes(config("Qwen/Qwen3-8B"), 151_936, 1, 2)
    assert not per_layer and table == embedding_table_bytes(config("Qwen/Qwen3-8B"), 151_936, 1, 2)


def test_a_text_only_first_start_reserves_a_copy_of_the_per_layer_table():
    def compile_term(**settings):
        c = calc(E2B, "mi300x", max_model_len=32768, vllm_version="0.31.0", **settings)
        return c.budget.term("first-start compile")
    cold = compile_term(language_model_only=True, compile_cache="cold")
    assert cold is not None and "per-layer input table" in str(cold.basis)
    # about one 4.38 GiB copy above the warm-up's own peak (which the activation term holds)
    assert 3.0 * GIB < cold.bytes < 4.6 * GIB
    assert compile_term(language_model_only=True, compile_cache="warm") is None
    # with its towers taking input the embeddings come from outside the compiled graph
    assert compile_term(compile_cache="cold") is None
