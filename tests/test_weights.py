"""The parameter inventory against published checkpoint sizes (safetensors index total_size)."""

import pytest

from factories import calc, config
from kvcalc.weights import (LOAD_MAX_SPLIT_BYTES, cached_block_bytes, checkpoint_format,
                            compressed_tensors_kept_parts, estimate_weights, rope_cache_bytes)

GIB = 1 << 30


@pytest.mark.parametrize("model,total", [
    ("meta-llama/Llama-3.1-8B-Instruct", 16060522496),
    ("meta-llama/Llama-3.1-70B-Instruct", 141107412992),
    ("Qwen/Qwen3-4B", 8044936192),          # tied embeddings
    ("Qwen/Qwen3-8B", 16381470720),
    ("Qwen/Qwen3-14B", 29536614400),
    ("Qwen/Qwen3-32B", 65524246528),
    ("mistralai/Mistral-7B-Instruct-v0.3", 14496047104),
])
def test_bf16_inventory_matches_checkpoint_to_the_byte(model, total):
    w = estimate_weights(config(model), None, "auto", 2, 1, 1)
    assert w.total_bytes == total


def test_deepseek_v3_fp8_with_mtp_within_half_a_percent():
    # 688,586,727,753 bytes on the hub: fp8 linear layers with 128×128 fp32 block scales,
    # bf16 embeddings, norms and routers, plus the MTP module with its own embedding and head.
    w = estimate_weights(config("deepseek-ai/DeepSeek-V3"), None, "auto", 2, 1, 1, mtp_layers=1)
    assert abs(w.total_bytes / 688586727753 - 1) < 0.005


def test_compressed_tensors_ignore_patterns_keep_shared_experts_and_dense_mlp_in_16_bits():
    """Kimi-K2-Thinking's INT4 checkpoint ignores attention, the shared experts and the dense MLP by
    ``re:`` patterns: those stay bf16, which adds 2 × 1.5 bytes per parameter over INT4 (group 32).
    A pattern for the router ("mlp.gate") or one layer's module names keeps nothing more."""
    ignore = ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*", "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"]
    assert compressed_tensors_kept_parts(ignore) == {"attention", "shared_expert", "mlp"}
    assert compressed_tensors_kept_parts(["re:.*mlp.gate$", "re:.*shared_expert_gate.*"]) == set()
    assert compressed_tensors_kept_parts(["model.layers.0.mlp.down_proj"]) == set()
    cfg = config("moonshotai/Kimi-K2-Thinking")
    assert checkpoint_format(cfg).unquantized_parts == {"attention", "shared_expert", "mlp"}
    kept = estimate_weights(cfg, None, "auto", 2, 1, 1).total_bytes
    q = dict(cfg["quantization_config"], ignore=["lm_head", "re:.*self_attn.*"])
    all_int4 = estimate_weights({**cfg, "quantization_config": q}, None, "auto", 2, 1, 1).total_bytes
    # 60 MoE layers' shared experts of 3 × 7,168 × 2,048 and layer 0's dense MLP of 3 × 7,168 × 18,432,
    # at 2 B instead of 0.5 + 2 / 32 B: 4.37 GB
    assert kept - all_int4 == (60 * 3 * 7168 * 2048 + 3 * 7168 * 18432) * (2 - 0.5625)


def test_siglip_and_llama4_towers_split_across_tp():
    """vLLM runs Llama 4's and Gemma 3's vision towers on TP-parallel linear layers (mllama4.py,
    siglip.py), so each rank holds 1/TP of their blocks. A public Llama-4-Scout start over eight
    H200s (v0.12.0, max_model_len 2,097,152; no KV lines, so not a data row) prints 'Model loading
    took 27.8072 GiB' per GPU: with the tower whole on every GPU kvcalc would say 29.17."""
    cfg = config("meta-llama/Llama-4-Scout-17B-16E-Instruct")
    w = calc(cfg, "h200", tensor_parallel_size=8, max_model_len=2097152, vllm_version="0.12.0").budget.weights.bytes
    assert w / GIB == pytest.approx(27.8072, rel=0.005)
    one = estimate_weights(cfg, None, "auto", 2, 1, 1).per_stage_bytes[0]
    eight = estimate_weights(cfg, None, "auto", 2, 8, 1).per_stage_bytes[0]
    text_only = {k: v for k, v in cfg.items() if k != "vision_config"}
    tower = one - estimate_weights(text_only, None, "auto", 2, 1, 1).per_stage_bytes[0]
    tower_rank = eight - estimate_weights(text_only, None, "auto", 2, 8, 1).per_stage_bytes[0]
    assert tower / GIB == pytest.approx(1.57, abs=0.01) and tower_rank < tower / 6


def test_llama_loading_includes_rope_cache():
    # "Model loading took 14.9889 GiB": 16,060,522,496 B + 131,072 × 128 × 2 B of cos/sin cache.
    w = estimate_weights(config("meta-llama/Llama-3.1-8B-Instruct"), 16060522496, "auto", 2, 1, 1,
                         max_len=131072)
    assert w.per_stage_bytes[0] == 16060522496 + 131072 * 128 * 2
    assert abs(w.per_stage_bytes[0] / GIB - 14.9889) < 0.0005   # the log also has ~0.1 MB of other buffers


MIB = 1 << 20


@pytest.mark.parametrize("n,max_split,kept", [
    (1000, None, 1024),                       # rounded to 512 B, from a shared small segment
    (6 * MIB + 100, None, 6 * MIB + 512),     # below 10 MiB: shared 20 MiB segments
    (int(24.5 * MIB), None, int(24.5 * MIB)),  # 1.5 MiB left over: split off
    (int(24.5 * MIB), 20 * MIB, 26 * MIB),    # under vLLM's 20 MiB limit: kept
    (259 * MIB, None, 260 * MIB),             # exactly 1 MiB left: never split
    (int(16.625 * MIB), 20 * MIB, int(16.625 * MIB)),  # under the limit's size: split as before
])
def test_cached_block_bytes_follows_torchs_allocator(n, max_split, kept):
    assert cached_block_bytes(n, max_split) == kept


@pytest.mark.parametrize("release,loading_gib", [("0.10.1", 14.2494), ("0.29.0", 14.29)])
def test_qwen25_7b_loading_includes_the_allocators_rounding(release, loading_gib):
    """Qwen2.5-7B-Instruct (15,231,233,024 B): "Model loading took" is 0.056 GiB over the checkpoint
    and rope cache in v0.10.1 (A100, 14.2494 GiB: the 259 MiB gate/up and 129.5 MiB down
    projections keep their 2 MiB-rounded blocks) and 0.097 GiB from v0.21, where the 24.5 MiB output
    projections keep theirs too (14.29 GiB in v0.22 to v0.31 logs)."""
    r = calc("Qwen/Qwen2.5-7B-Instruct", "a100-80g-sxm", max_model_len=4096, vllm_version=release)
    assert r.budget.weights_as_logged / GIB == pytest.approx(loading_gib, abs=0.005)
    plain = estimate_weights(config("Qwen/Qwen2.5-7B-Instruct"), 15231233024, "auto", 2, 1, 1, max_len=32768)
    rounded = estimate_weights(config("Qwen/Qwen2.5-7B-Instruct"), 15231233024, "auto", 2, 1, 1, max_len=32768,
                               rounding=True, max_split=LOAD_MAX_SPLIT_BYTES)
    assert rounded.per_stage_bytes[0] - plain.per_stage_bytes[0] == (28 * 3.5 + 2 * 0.5) * MIB


def test_models_whose_tensors_are_whole_blocks_lose_nothing_to_rounding():
    """Llama-3.1-8B and Qwen3-8B projections are multiples of 2 MiB (logs: 0.000-0.004 GiB over);
    only an odd-sized embedding or LM head rounds."""
    for model in ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B"):
        plain = estimate_weights(config(model), None, "auto", 2, 1, 1)
        rounded = estimate_weights(config(model), None, "auto", 2, 1, 1, rounding=True,
                                   max_split=LOAD_MAX_SPLIT_BYTES)
        assert rounded.per_stage_bytes[0] - plain.per_stage_bytes[0] <= 2 * MIB   # the embeddings: 1,187 MiB each


def test_rounding_follows_the_tensor_parallel_shards():
    """Qwen2.5-72B at TP 4 (80 layers of 12.25 + 3.5 + 59 + 29.5 MiB ... per GPU, v0.19): 0.117 GiB
    (the log: 0.114 over)."""
    cfg = config("Qwen/Qwen2.5-72B-Instruct")
    plain = estimate_weights(cfg, None, "auto", 2, 4, 1)
    rounded = estimate_weights(cfg, None, "auto", 2, 4, 1, rounding=True)
    assert (rounded.per_stage_bytes[0] - plain.per_stage_bytes[0]) / GIB == pytest.approx(0.117, abs=0.002)


def test_quantized_checkpoints_round_their_packed_tensors():
    """FP8 keeps one byte per weight: Qwen2.5-32B's 35 MiB QKV, 25 MiB output and 135 MiB down
    projections each keep a 1 MiB tail (v0.11, no split limit), 64 layers, plus the bf16 embedding
    and LM head's 1 MiB each: 194 MiB (an L40S log of its R1-Distill FP8 loads 0.203 GiB over the
    checkpoint). bitsandbytes' layout is not modelled, so nothing is added."""
    cfg = config("Qwen/Qwen2.5-32B-Instruct")
    plain = estimate_weights(cfg, None, "fp8", 2, 1, 1)
    rounded = estimate_weights(cfg, None, "fp8", 2, 1, 1, rounding=True)
    assert rounded.per_stage_bytes[0] - plain.per_stage_bytes[0] == 194 * MIB
    bnb = dict(cfg, quantization_config={"quant_method": "bitsandbytes", "load_in_4bit": True})
    lm = estimate_weights(bnb, None, "auto", 2, 1, 1).per_stage_bytes[0]
    embeddings = 2 * MIB        # the model-dtype embedding and LM head still round
    assert estimate_weights(bnb, None, "auto", 2, 1, 1, rounding=True).per_stage_bytes[0] - lm == embeddings


def test_tp_and_pp_split():
    cfg = config("meta-llama/Llama-3.1-70B-Instruct")
    one = estimate_weights(cfg, None, "auto", 2, 1, 1).per_stage_bytes[0]
    tp4 = estimate_weights(cfg, None, "auto", 2, 4, 1).per_stage_bytes[0]
    # Norms are replicated; everything else divides by 4 (8 KV heads split 2 per GPU).
    assert one / 4 < tp4 < one / 4 * 1.001
    pp2 = estimate_weights(cfg, None, "auto", 2, 1, 2).per_stage_bytes
    assert len(pp2) == 2 and abs(pp2[0] - pp2[1]) < 0.01 * one


def test_formats_from_quantization_config():
    assert checkpoint_format(config("openai/gpt-oss-120b")).experts_only
    assert checkpoint_format(config("Qwen/Qwen2.5-7B-Instruct-AWQ")).name == "awq"
    assert checkpoint_format(config("deepseek-ai/DeepSeek-V3")).name == "fp8"
    assert checkpoint_format(config("meta-llama/Llama-3.1-8B-Instruct")) is None


def test_gpt_oss_experts_padded_to_kernel_tiles():
    # hidden 2,880 -> 3,072 (256); per-GPU intermediate at TP 4: 720 -> 768 (Marlin, 128) or
    # stays 720 (64-aligned) on GPUs with native MXFP4.
    from kvcalc.weights import mxfp4_expert_padding
    cfg = config("openai/gpt-oss-120b")
    assert mxfp4_expert_padding(cfg, 1, 64) == 3072 / 2880
    assert mxfp4_expert_padding(cfg, 4, 128) == (3072 * 768) / (2880 * 720)
    assert mxfp4_expert_padding(cfg, 1, 256) == (3072 * 3072) / (2880 * 2880)
    # The checkpoint itself is not padded: only the per-GPU bytes grow.
    native = estimate_weights(cfg, None, "auto", 2, 1, 1, mxfp4_align=64)
    assert abs(native.total_bytes / 65.2e9 - 1) < 0.01


def test_user_weight_format_overrides_checkpoint():
    bf16 = calc("Qwen/Qwen3-8B", max_model_len=8192).budget.weights.bytes
    awq = calc("Qwen/Qwen3-8B", max_model_len=8192, weights="awq").budget.weights.bytes
    assert 0.3 < awq / bf16 < 0.45


def test_rope_cache_uses_rope_dims():
    # DeepSeek-V3 rotates qk_rope_head_dim (64) over YaRN's original 4,096 positions x 40, whatever length
    # the caller derives (deepseek_scaling_rope.py builds original x factor rows)
    assert rope_cache_bytes(config("deepseek-ai/DeepSeek-V3"), 1000, 2) == 4096 * 40 * 64 * 2


def test_yarn_rope_caches_the_original_length_times_its_factor():
    """Qwen3 with YaRN added (factor 4 over 32,768): vLLM's YaRN class caches 131,072 rows; from v0.30 the
    model's derived length is its own 40,960 (Rule.YARN_LENGTH_AS_GIVEN), which no longer sizes the cache."""
    import copy
    cfg = copy.deepcopy(config("Qwen/Qwen3-8B"))
    cfg["rope_scaling"] = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
    assert rope_cache_bytes(cfg, 40960, 2) == 131072 * 128 * 2
    assert rope_cache_bytes(config("Qwen/Qwen3-8B"), 40960, 2) == 40960 * 128 * 2


def test_gemma3_linear_rope_caches_its_factor_times_the_positions():
    """Gemma 3's full layers scale their RoPE linearly by 8 (LinearScalingRotaryEmbedding builds
    max_position_embeddings × factor rows); its sliding layers keep a plain RoPE of their own, which
    transformers' defaults give it even where config.json omits the local base. The 1B has no scaling."""
    mib = 1 << 20
    assert rope_cache_bytes(config("google/gemma-3-27b-it"), 131072, 2) == (8 * 131072 + 131072) * 128 * 2
    assert rope_cache_bytes(config("google/gemma-3-27b-it"), 131072, 2) == 288 * mib
    assert rope_cache_bytes(config("google/gemma-3-12b-it"), 131072, 2) == 576 * mib
    assert rope_cache_bytes(config("google/gemma-3-1b-it"), 32768, 2) == 2 * 32768 * 256 * 2
    # a model without linear scaling keeps one cache of the derived length
    assert rope_cache_bytes(config("meta-llama/Llama-3.1-8B-Instruct"), 131072, 2) == 32 * mib


def test_mrope_caches_four_times_the_positions_until_qwen3_vl_stops_at_v0_32():
    """vLLM's MRotaryEmbedding caches 4 x max_position_embeddings (room for long videos' positions);
    from v0.32 Qwen3-VL and Qwen3.5/3.6 pass a positions factor of 1 (Rule.QWEN3_VL_MROPE_CACHE_UNSCALED),
    Qwen2-VL and Qwen2.5-VL keep 4. Qwen3.5 gives its partial rotary factor (0.25 of 256) inside
    rope_parameters, transformers v5's layout."""
    from kvcalc.versions import parse_version
    v31, v32 = parse_version("0.31.0"), parse_version("0.32.0")
    from kvcalc.validate import load_logs
    vl = next(e for e in load_logs() if e["id"] == "rtx3090-qwen3-vl-30b-a3b-tp4-pcie-nocustomar-v0.11.0")["config"]
    assert rope_cache_bytes(vl, 262144, 2, v31) == 4 * 262144 * 128 * 2
    assert rope_cache_bytes(vl, 262144, 2, v32) == 262144 * 128 * 2
    q35 = config("Qwen/Qwen3.5-27B")
    assert rope_cache_bytes(q35, 262144, 2, v31) == 4 * 262144 * 64 * 2      # 64 = 0.25 x 256
    assert rope_cache_bytes(q35, 262144, 2, v32) == 262144 * 64 * 2
    q25 = config("Qwen/Qwen2.5-VL-7B-Instruct")
    assert rope_cache_bytes(q25, 128000, 2, v31) == rope_cache_bytes(q25, 128000, 2, v32) == 4 * 128000 * 128 * 2


@pytest.mark.parametrize("log_id", ["rtx3090-qwen3-vl-30b-a3b-tp4-pcie-nocustomar-v0.11.0",
                                    "h100x2-qwen3-vl-30b-a3b-tp2-seqs64-maxlen64k-warm-v0.12.0",
                                    "l4-ray-qwen2.5-vl-3b-mnbt2k-seqs128-maxlen8k-v0.11.0",
                                    "rtx5090-wsl-qwen3.6-35b-a3b-nvfp4-marlin-lmonly-bs128-v0.29.0"])
def test_mrope_models_load_what_public_logs_print(log_id):
    """Qwen3-VL-30B-A3B at TP 4 and TP 2, Qwen2.5-VL-3B and Qwen3.6-35B-A3B NVFP4: within 0.2% of
    "Model loading took" with the four-fold M-RoPE cache (-1.3%, -0.7%, -1.3% and -0.4% with one length)."""
    from kvcalc.validate import _calculate, load_logs
    entry = next(e for e in load_logs() if e["id"] == log_id)
    _, calc_ = _calculate(entry)
    assert abs(calc_.budget.terms[0].bytes / GIB / entry["logged"]["model_loading_gib"] - 1) < 0.002


@pytest.mark.parametrize("log_id", ["mi300x-vf-rocm-gemma-3-4b-it-maxlen8k-v0.23.0",
                                    "gb10-gemma-3-27b-it-fp8kv-fi-util0.85-maxlen128k-mbt4k-16img-nvfp4kv-fork-v0.22",
                                    "rtx5090-gemma-3-1b-it-llm-util0.95-maxlen2k-warm-v0.13.0"])
def test_gemma3_weights_match_what_public_logs_loaded(log_id):
    """"Model loading took" of Gemma 3 starts: the 4B loads 8.58 GiB, 0.50 more than its parameters,
    most of it the linear-scaled RoPE cache; within 0.5% once the cache is counted (was -5.9%)."""
    from kvcalc.validate import _calculate, load_logs
    entry = next(e for e in load_logs() if e["id"] == log_id)
    _, calc_ = _calculate(entry)
    loaded = entry["logged"]["model_loading_gib"]
    assert abs(calc_.budget.terms[0].bytes / GIB / loaded - 1) < 0.005
    if "gemma-3-4b" in log_id:      # the weights' basis names the cache, in both languages
        basis = calc_.budget.terms[0].basis
        assert "576 MiB of rotary (RoPE)" in basis and "576 MiB RoPE" in basis.render("zh")


def test_modelopt_mixed_precision_sizes_each_layer_by_its_algorithm():
    """Qwen3.6-35B-A3B-NVFP4: experts and LM head W4A16_NVFP4, attention and GDN projections FP8,
    MTP layers excluded (bf16). vLLM 0.22 on GB10 with MTP: "Model loading took 21.93 GiB";
    sizing every layer as FP8 overshot by 59%."""
    cfg = config("nvidia/Qwen3.6-35B-A3B-NVFP4")
    fmt = checkpoint_format(cfg)
    assert fmt.expert_bytes_per_param == fmt.lm_head_bytes_per_param == 0.5 + 1 / 16
    assert fmt.bytes_per_param == 1.0 and "mtp" in fmt.unquantized_parts
    w = estimate_weights(cfg, None, "auto", 2, 1, 1, max_len=262144, mtp_layers=1)
    assert abs(w.per_stage_bytes[0] / GIB / 21.93 - 1) < 0.02


def test_modelopt_single_algorithm_formats_are_unchanged():
    fp4 = checkpoint_format({"quantization_config": {"quant_method": "modelopt", "quant_algo": "NVFP4"}})
    fp8 = checkpoint_format({"quantization_config": {"quant_method": "modelopt",
                                                     "quantization": {"quant_algo": "FP8"}}})
    assert (fp4.name, fp4.bytes_per_param, fp4.expert_bytes_per_param) == ("nvfp4", 0.5 + 1 / 16, None)
    assert (fp8.name, fp8.bytes_per_param) == ("fp8", 1.0)


def _logged_config(log_id):
    from kvcalc.validate import load_logs
    return next(e for e in load_logs() if e["id"] == log_id)["config"]


def test_gemma4_e4b_checkpoint_and_loading_match_its_log():
    """The RTX 3090 Ti log prints 'Checkpoint size: 14.89 GiB' and 'Model loading took 15.18 GiB'
    for google/gemma-4-E4B-it: text model, per-layer inputs, a 169M vision tower and a 305M audio
    conformer; loading adds two RoPE caches (131,072 × (256 + 512) × 2 B) and the per-layer input
    buffer (2,048 × 42 × 256 × 2 B)."""
    cfg = _logged_config("rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1")
    w = estimate_weights(cfg, None, "auto", 2, 1, 1, max_len=131072, mnbt=2048)
    assert abs(w.total_bytes / GIB / 14.89 - 1) < 0.003
    assert w.per_stage_bytes[0] - w.total_bytes == 131072 * 768 * 2 + 2048 * 42 * 256 * 2
    assert abs(w.per_stage_bytes[0] / GIB / 15.18 - 1) < 0.005


def test_gemma4_towers_match_their_published_sizes():
    """The 31B's vision encoder alone is 569.6M parameters (a public standalone extraction), and
    E2B/E4B's USM audio encoder 304.8M; ``embed_vision``/``embed_audio`` project to the text width."""
    from kvcalc.params import _tower

    vision = config("google/gemma-4-31B-it")["vision_config"]
    assert abs(_tower(vision, 5376) - 1152 * 5376 - 569.6e6) < 0.1e6
    audio = _logged_config("rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1")["audio_config"]
    assert abs(_tower(audio, 2560) - 1536 * 2560 - 304.8e6) < 0.3e6


def test_k_eq_v_layers_hold_a_v_slot_the_checkpoint_lacks():
    """Gemma 4 31B's full layers store K alone (attention_k_eq_v) but vLLM allocates V and loads
    K into both: the GPU holds 10 layers × 4 heads × 512 × 5,376 × 2 B more than the checkpoint."""
    w = estimate_weights(config("google/gemma-4-31B-it"), None, "bf16", 2, 1, 1)
    assert w.per_stage_bytes[0] - w.total_bytes == 10 * 4 * 512 * 5376 * 2


def test_language_model_only_leaves_the_towers_in_the_checkpoint_but_off_the_gpu():
    """--language-model-only: Gemma 4 E4B's checkpoint still counts its 169M + 308M tower
    parameters, the GPU holds none of them."""
    cfg = _logged_config("rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1")
    full = estimate_weights(cfg, None, "auto", 2, 1, 1)
    text = estimate_weights(cfg, None, "auto", 2, 1, 1, towers_off=frozenset(("vision", "audio")))
    assert text.total_bytes == full.total_bytes
    towers = full.per_stage_bytes[0] - text.per_stage_bytes[0]
    assert abs(towers / 2 - 477e6) < 2e6
    assert "7.52 B parameters" in str(text.basis)


def test_gemma3_hub_config_without_vocab_size_takes_the_transformers_default():
    """google/gemma-3-27b-it's text_config has no vocab_size; Gemma3TextConfig fills in 262,208,
    so vLLM builds (and the MI300X log loads) a 262,208 × 5,376 embedding: 27.46 B parameters,
    not the 26.05 B a missing field would leave."""
    cfg = config("google/gemma-3-27b-it")
    assert "vocab_size" not in cfg["text_config"]
    w = estimate_weights(cfg, None, "auto", 2, 1, 1)
    with_vocab = {**cfg, "text_config": {**cfg["text_config"], "vocab_size": 262208}}
    assert w.total_bytes == estimate_weights(with_vocab, None, "auto", 2, 1, 1).total_bytes
    assert "27.46 B parameters" in str(w.basis)
    # the sampler's warm-up sorts logits over the whole vocabulary
    terms = {t.name: t for t in calc("google/gemma-3-27b-it", "mi300x", max_model_len=4096,
                                     vllm_version="0.11.0").budget.terms}
    assert "262,208 vocabulary" in str(terms["activation peak"].basis)


def test_a_config_without_vocab_size_of_an_unknown_class_gets_no_guessed_pool():
    """No vocab_size and no known class default: the embedding and the logits cannot be sized,
    so there is no fully estimated pool (rather than one built on a guessed vocabulary)."""
    from factories import llama_like

    cfg = llama_like(model_type="somenewmodel", architectures=["SomeNewModelForCausalLM"])
    del cfg["vocab_size"]
    result = calc(cfg, "h100")
    assert result.budget is None
    assert result.budget_note is not None and result.budget_note.key == "note.vocab_unknown"
    # a Llama config without the field falls back to LlamaConfig's 32,000, as transformers does
    llama = llama_like()
    del llama["vocab_size"]
    assert calc(llama, "h100").budget is not None


QWEN3_4B_EAGLE3 = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 2560,
                   "num_hidden_layers": 1, "num_attention_heads": 32, "num_key_value_heads": 8,
                   "head_dim": 128, "intermediate_size": 9728, "vocab_size": 151936,
                   "draft_vocab_size": 32000, "tie_word_embeddings": False}
"""An EAGLE-3 head shaped like Qwen3-4B's layers with a 32,000-entry draft vocabulary, the shape of
AngelSlim/Qwen3-4B_eagle3 (its config itself was not seen)."""


def test_an_eagle3_drafter_adds_its_layer_fc_and_head_but_not_the_shared_embedding():
    """A public RTX 4090 design note (ADR 0004 of a W1 load matrix, 2026-09) logs "Model loading
    took" 7.56 GiB for Qwen3-4B and 7.97 GiB with AngelSlim/Qwen3-4B_eagle3: 0.41 GiB, what one
    decoder layer with a 2 × 2,560-wide QKV input, fc (3 × 2,560 → 2,560) and a 32,000-entry LM
    head weigh in bf16 when the model's embedding is shared (llama_eagle3.py,
    spec_decode/eagle/utils.py ``_should_share``). A checkpoint with an embedding of its own that
    differs keeps it: the high end adds 151,936 × 2,560 × 2 B."""
    from kvcalc.weights import drafter_weights
    target = config("Qwen/Qwen3-4B")
    typical, low, high = drafter_weights(QWEN3_4B_EAGLE3, target, "eagle3", 1, 2)
    assert typical / GIB == pytest.approx(0.41, abs=0.005) and low == typical
    assert high - typical == 151936 * 2560 * 2
    # TP 2 splits the layer and the head, not fc (ReplicatedLinear)
    fc = 3 * 2560 * 2560 * 2
    assert drafter_weights(QWEN3_4B_EAGLE3, target, "eagle3", 2, 2)[0] == pytest.approx((typical - fc) / 2 + fc, rel=0.01)


def test_eagle_draft_model_and_unsized_methods():
    """EAGLE-1 (llama_eagle.py) takes the model's embedding and LM head and maps 2 × hidden to
    hidden in fc; a draft_model brings its whole checkpoint; dflash is not sized (None)."""
    from kvcalc.weights import drafter_weights
    eagle1 = {k: v for k, v in QWEN3_4B_EAGLE3.items() if k != "draft_vocab_size"}
    e1 = drafter_weights(eagle1, {}, "eagle", 1, 2)[0]
    e3 = drafter_weights(QWEN3_4B_EAGLE3, {}, "eagle3", 1, 2)[0]
    H = 2560
    assert e3 - e1 == (H * 32 * 128 + 2 * 8 * H * 128 + H + 3 * H * H + 32000 * H - 2 * H * H) * 2
    whole = drafter_weights(eagle1, {}, "draft_model", 1, 2)[0]
    assert whole == e1 - 2 * H * H * 2 + 2 * 151936 * H * 2      # its embedding and LM head, no fc
    assert drafter_weights(QWEN3_4B_EAGLE3, {}, "dflash", 1, 2) is None


def test_a_drafter_config_puts_the_drafters_weights_in_the_budget():
    """With the drafter's config the budget lists a 'draft model' term (and 'Model loading took'
    is set against weights + drafter); without it the layout assumes one layer like the model's,
    and a note says the drafter's weights are not counted. Same KV layout here (8 KV heads × 128
    both ways), so the pools differ by exactly the term."""
    eagle3 = {**QWEN3_4B_EAGLE3, "hidden_size": 4096, "intermediate_size": 12288}
    sized = calc("Qwen/Qwen3-8B", "l4", max_model_len=8192,
                 speculative={"method": "eagle3", "num_speculative_tokens": 3, "draft_config": eagle3})
    assumed = calc("Qwen/Qwen3-8B", "l4", max_model_len=8192,
                   speculative={"method": "eagle3", "num_speculative_tokens": 3})
    term = sized.budget.term("draft model")
    assert term is not None and assumed.budget.term("draft model") is None
    assert assumed.budget.available_bytes - sized.budget.available_bytes == term.bytes
    assert sized.budget.weights_as_logged == sized.budget.weights.bytes + term.bytes
    assert "note.draft_weights" not in [n.key for n in sized.notes]
    assert "note.draft_weights" in [n.key for n in assumed.notes]


def test_rounding_lands_on_the_stage_that_holds_each_tensor():
    """Pipeline parallel: the embedding's rounding on the first stage, the LM head's on the last, each
    layer's on its own stage (Qwen2.5-7B, PP 2, 14 layers each, v0.21+ split limit: 3.5 MiB a layer,
    0.5 MiB for the embedding and for the LM head)."""
    cfg = config("Qwen/Qwen2.5-7B-Instruct")
    plain = estimate_weights(cfg, None, "auto", 2, 1, 2).per_stage_bytes
    rounded = estimate_weights(cfg, None, "auto", 2, 1, 2, rounding=True, max_split=LOAD_MAX_SPLIT_BYTES).per_stage_bytes
    assert [r - p for r, p in zip(rounded, plain)] == [int((14 * 3.5 + 0.5) * MIB)] * 2


@pytest.mark.parametrize("gpu, version, marlin, align", [
    ("h200", "0.22.1", None, 64),           # Hopper: the Triton kernels
    ("h200", "0.22.1", True, 128),          # VLLM_MXFP4_USE_MARLIN=1
    ("h200", "0.11.0", True, 128),          # a v0.11 install without triton_kernels ('Using Marlin backend')
    ("b200", "0.11.0", None, 64),           # flashinfer an optional extra: not assumed
    ("b200", "0.12.0", None, 256),          # FlashInfer's TRT-LLM kernels once flashinfer is a dependency
    ("b300", "0.18.0", None, 64),           # 10.3: only 10.0 until v0.18 ...
    ("b300", "0.19.0", None, 256),          # ... the 10.x family from v0.19
    ("b200", "0.33.0", True, 128),
    ("a100-80g-sxm", "0.33.0", False, 128),  # below 9.0 Marlin is the only kernel, whatever a log says
    ("gb10", "0.11.0", None, 64),           # 12.1: v0.11 ran triton_kernels on any capability from 9.0
    ("gb10", "0.12.0", None, 128),          # from v0.12 only up to 11.0 (Rule.MXFP4_MARLIN_FROM_SM110)
    ("rtx-5090", "0.33.0", None, 128),
    ("rtx-5090", "0.33.0", False, 64),      # a log naming the Triton kernels on 12.0 (v0.33 allows them)
    ("mi300x", "0.33.0", None, 128),
])
def test_the_kernels_mxfp4_experts_run_on_set_their_padding(gpu, version, marlin, align):
    from kvcalc.catalog import find_gpu
    from kvcalc.versions import parse_version
    from kvcalc.weights import mxfp4_expert_align
    g = find_gpu(gpu)
    assert mxfp4_expert_align(parse_version(version), g.platform, g.compute_capability, marlin) == align


def test_marlin_makes_gpt_oss_load_what_its_logs_print():
    """gpt-oss-120b with VLLM_MXFP4_USE_MARLIN=1 over two H200s (v0.22.1) logs 34.38 GiB per GPU:
    Marlin pads each GPU's 1,440 expert columns to 1,536, not 1,472; the DGX Spark (12.1) takes
    Marlin unasked from v0.12 (gpt-oss-20b: 13.72 and 13.80 GiB logged on v0.13 and v0.30)."""
    marlin = calc("openai/gpt-oss-120b", "h200", tensor_parallel_size=2, vllm_version="0.22.1", mxfp4_marlin=True,
                  max_model_len=2068)
    native = calc("openai/gpt-oss-120b", "h200", tensor_parallel_size=2, vllm_version="0.22.1", max_model_len=2068)
    assert marlin.budget.weights_as_logged / 2**30 == pytest.approx(34.38, rel=0.005)
    assert native.budget.weights_as_logged < marlin.budget.weights_as_logged - 1.2 * 2**30
    assert "MXFP4 experts on Marlin kernels" in marlin.budget.terms[0].basis
    assert "Triton kernels' tiles" in native.budget.terms[0].basis
    spark = calc("openai/gpt-oss-20b", "gb10", vllm_version="0.30.0", max_model_len=32768)
    assert spark.budget.weights_as_logged / 2**30 == pytest.approx(13.80, rel=0.005)


@pytest.mark.parametrize("version, prefix, flag", [("0.22.1", "VLLM_MXFP4_USE_MARLIN=1 vllm serve", None),
                                                   ("0.24.0", "vllm serve", "--moe-backend marlin")])
def test_the_serve_command_asks_for_marlin_as_each_release_reads_it(version, prefix, flag):
    c = calc("openai/gpt-oss-120b", "h200", vllm_version=version, mxfp4_marlin=True)
    assert c.serve_command.startswith(prefix)
    assert (flag in c.serve_command) if flag else "--moe-backend" not in c.serve_command
    # no MXFP4 experts, nothing to ask for
    dense = calc("Qwen/Qwen3-8B", "h200", vllm_version=version, mxfp4_marlin=True).serve_command
    assert "MARLIN" not in dense and "--moe-backend" not in dense


def test_qwen3_vl_loads_its_deepstack_buffers_with_the_weights():
    """Qwen3-VL pre-allocates one max_num_batched_tokens x hidden buffer per deepstack level while
    it loads (qwen3_vl.py ``deepstack_input_embeds``), unless its vision tower is not built."""
    from kvcalc.catalog import find_model
    from kvcalc.weights import deepstack_buffer_bytes
    from kvcalc.validate import load_logs
    row = next(e for e in load_logs() if e["id"].startswith("h100nvl-qwen3-vl-30b-a3b"))
    config = row["config"] or find_model(row["model"]).config
    assert deepstack_buffer_bytes(config, 8192, 2) == 3 * 8192 * 2048 * 2 == 96 << 20
    assert deepstack_buffer_bytes(config, 8192, 2, frozenset({"vision"})) == 0
    assert deepstack_buffer_bytes(find_model("Qwen/Qwen3-8B").config, 8192, 2) == 0
