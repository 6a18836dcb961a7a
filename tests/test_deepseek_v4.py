"""DeepSeek-V4: its compressed KV cache, the five packed groups and what a block costs by release
(compressed_kv.py), the weights one GPU loads (deepseek_v4_weights.py), and the settings vLLM refuses.

The pool figures at 40 GiB come from a harness that ran each release's own planning code
(docs/research/deepseek-v4.md §4); the log figures from public startup logs (data/vllm_logs.json)."""

from __future__ import annotations

import copy
import re

import pytest

from factories import assert_field_named, calc, config
from kvcalc import api
from kvcalc.compressed_kv import (CompressedMLASpec, CompressorStateSpec, SlidingWindowMLASpec, approximate_gcd,
                                  layer_specs, packed_groups, packed_sizing)
from kvcalc.deepseek_v4_weights import deepseek_v4_weights
from kvcalc.compressed_kv import ratios_of
from kvcalc.errors import SettingsError, UnsupportedModelError
from kvcalc.hf_config import read_model
from kvcalc.units import GIB
from kvcalc.versions import parse_version

FLASH = "deepseek-ai/DeepSeek-V4-Flash-0731"
PRO = "deepseek-ai/DeepSeek-V4-Pro"


def flash(**settings):
    """Flash on an H200 with the fp8 cache every release before v0.30 needs."""
    settings.setdefault("kv_cache_dtype", "fp8")
    return calc(FLASH, settings.pop("gpu", "h200"), **settings)


def specs_of(model: str, drafts: int = 0):
    return layer_specs(read_model(config(model)).compressed, drafts)


def test_the_layers_follow_compress_ratios():
    arch = read_model(config(FLASH))
    assert [l.chunk for l in arch.layers][:4] == [1, 1, 4, 128] and arch.num_layers == 43
    assert sum(l.chunk == 4 for l in arch.layers) == 21 and sum(l.chunk == 128 for l in arch.layers) == 20
    assert not arch.is_mla and arch.is_moe and [l.chunk for l in arch.mtp_layers] == [1]
    pro = read_model(config(PRO)).compressed.ratios
    assert (pro.count(4), pro.count(128), pro.count(1)) == (30, 31, 0)


def test_every_cache_page_is_aligned_to_576_bytes():
    """584-byte entries: 64 a window page (37,376 -> 37,440), 64 a ratio-4 page, 2 a ratio-128 page
    (1,168 -> 1,728); indexer keys 132 bytes (8,448 -> 8,640); float32 states 32,768 -> 32,832 and
    8,192 -> 8,640."""
    specs = specs_of(FLASH)
    pages = {n: s.page_size_bytes for n, s in specs.items() if n.startswith(("layers.2.", "layers.3."))}
    assert pages == {"layers.2.swa": 37_440, "layers.2.kv": 37_440, "layers.2.state": 32_832,
                     "layers.2.indexer": 8_640, "layers.2.indexer_state": 8_640,
                     "layers.3.swa": 37_440, "layers.3.kv": 1_728, "layers.3.state": 32_832}
    assert isinstance(specs["layers.0.swa"], SlidingWindowMLASpec) and "layers.0.kv" not in specs
    assert (specs["layers.2.state"].block_size, specs["layers.2.state"].window) == (4, 8)
    assert (specs["layers.3.state"].block_size, specs["layers.3.state"].window) == (8, 128)
    assert isinstance(specs["layers.3.state"], CompressorStateSpec)
    assert isinstance(specs["layers.2.indexer"], CompressedMLASpec)


def test_approximate_gcd_pads_least_and_prefers_the_larger_chunk():
    assert approximate_gcd([21, 43, 21, 20], lower_bound=21) == 22     # Flash: windows split 22 + 21
    assert approximate_gcd([31, 61, 30, 31], lower_bound=31) == 31     # Pro: 31 + 30
    assert approximate_gcd([21, 46, 21, 20], lower_bound=21) == 23     # Flash with three DSpark layers
    assert approximate_gcd([5], lower_bound=9) == 9


@pytest.mark.parametrize("version,pages", [
    ("0.26.0", [1_002_240, 823_680, 786_240, 967_680, 748_800]),
    ("0.27.0", [1_002_240, 823_680, 786_240, 870_912, 656_640]),
])
def test_five_groups_and_the_state_pages_padded_until_v0_27(version, pages):
    groups = packed_groups(specs_of(FLASH), parse_version(version))
    assert [len(g.names) for g in groups] == [62, 22, 21, 42, 20]
    assert [g.page_size_bytes for g in groups] == pages


@pytest.mark.parametrize("model,drafts,blocks", [
    (FLASH, 0, (1_051_776, 1_039_680, 1_002_240)),
    (FLASH, 1, (1_051_776, 1_039_680, 1_002_240)),
    (FLASH, 3, (1_099_584, 1_077_120, 1_002_240)),
    (PRO, 0, (1_482_048, 1_473_408, 1_435_968)),
])
def test_a_block_costs_what_each_release_charges(model, drafts, blocks):
    specs = specs_of(model, drafts)
    got = tuple(packed_sizing(packed_groups(specs, parse_version(v)), parse_version(v)).block_bytes
                for v in ("0.22.0", "0.26.0", "0.27.0"))
    assert got == blocks


# the harness's Flash figures at 40 GiB, 8,192 batched tokens, no speculative decoding (T = 8,192 until
# v0.25, 16,384 from v0.26 with async scheduling)
HARNESS = [
    ("0.20.0", 1_048_576, 40_835, 5.78, 32_668), ("0.20.0", 131_072, 40_835, 11.73, 32_668),
    ("0.21.0", 1_048_576, 40_835, 5.78, 6_060_665), ("0.22.0", 131_072, 40_835, 11.73, 1_537_582),
    ("0.23.0", 1_048_576, 41_310, 5.85, 6_131_164), ("0.25.0", 131_072, 41_310, 11.87, 1_555_468),
    ("0.26.0", 1_048_576, 41_310, 4.13, 4_326_043), ("0.26.0", 131_072, 41_310, 6.43, 842_212),
    ("0.27.0", 1_048_576, 42_853, 3.98, 4_169_106), ("0.33.0", 131_072, 42_853, 5.96, 780_765),
]


@pytest.mark.parametrize("version,length,blocks,concurrency,tokens", HARNESS)
def test_the_pool_matches_the_releases_own_planning(version, length, blocks, concurrency, tokens):
    pool = flash(vllm_version=version, max_model_len=length, max_num_batched_tokens=8192,
                 kv_cache_memory_bytes=40 * GIB).estimated
    assert (pool.num_blocks, round(pool.max_concurrency, 2), pool.tokens) == (blocks, concurrency, tokens)


def test_a_public_v0_25_log_on_two_rtx_pro_6000():
    """Code index id 56819795714: 'Available KV cache memory: 10.29 GiB', 'GPU KV cache size: 1,993,100
    tokens', 'Maximum concurrency for 1,048,576 tokens per request: 1.90x' (MTP: 44 windows, 4,096
    batched tokens: 5,593 full-group pages a request)."""
    c = calc(FLASH, "rtx-pro-6000", vllm_version="0.25.0", tensor_parallel_size=2, max_model_len=1_048_576,
             gpu_memory_utilization=0.95, kv_cache_dtype="fp8", max_num_batched_tokens=4096, max_num_seqs=64,
             speculative={"method": "mtp", "num_speculative_tokens": 2}, available_kv_gib=10.29)
    assert c.from_log.blocks_per_request == 5_593
    assert c.from_log_low.tokens <= 1_993_100 <= c.from_log_high.tokens
    assert round(c.from_log.max_concurrency, 2) == 1.90
    assert [len(g.layer_names) for g in c.grouping.groups] == [62, 22, 22, 42, 20]
    assert "Setting kv cache block size to 256" in c.layout.block_size_reason


def test_a_public_v0_23_log_on_two_h200():
    """Code index id 63344308021: 32.08 GiB -> 1,247,687 tokens, 9.52x at 131,072 (3,481 pages a request)."""
    c = calc(FLASH, "h200", vllm_version="0.23.0", tensor_parallel_size=2, max_model_len=131_072,
             gpu_memory_utilization=0.78, kv_cache_dtype="fp8", enforce_eager=True, available_kv_gib=32.08)
    assert c.from_log.blocks_per_request == 3_481
    assert c.from_log_low.tokens <= 1_247_687 <= c.from_log_high.tokens
    assert round(c.from_log.max_concurrency, 2) == 9.52


def test_the_fit_check_of_v0_22_charges_tuples_times_the_full_pages():
    """vllm#44376 (LLM(), 16,384 batched tokens, 30,000 tokens): '6.66 GiB KV cache is needed, which is
    larger than the available KV cache memory (5.44 GiB) ... the estimated maximum model length is
    13528': 6,800 blocks x 1,051,776 bytes."""
    c = calc(FLASH, "gh200", vllm_version="0.22.0", tensor_parallel_size=2, enable_expert_parallel=True,
             max_model_len=30_000, gpu_memory_utilization=0.95, kv_cache_dtype="fp8", block_size=256,
             entrypoint="llm", available_kv_gib=5.44)
    assert not c.from_log.fits and c.from_log.needed_bytes == 6_800 * 1_051_776
    assert "(6.66 GiB KV cache is needed" in c.from_log.error
    assert c.from_log.estimated_max_model_len <= 13_528 <= c.from_log_high.estimated_max_model_len


def test_from_v0_29_the_fit_check_keeps_the_null_block_back():
    """B x (blocks a request needs + 1) must fit: 1,002,240 x (512 + 2 x 259 + 4,099 + 2,065 + 1)."""
    need = 7_194
    ok = flash(vllm_version="0.29.0", max_model_len=131_072, kv_cache_memory_bytes=1_002_240 * (need + 1)).estimated
    short = flash(vllm_version="0.29.0", max_model_len=131_072, kv_cache_memory_bytes=1_002_240 * need).estimated
    assert ok.fits and not short.fits
    old = flash(vllm_version="0.28.0", max_model_len=131_072, kv_cache_memory_bytes=1_051_776 * need).estimated
    assert old.fits


def test_kv_bytes_per_token_is_the_full_groups_page_over_its_block():
    assert flash(vllm_version="0.27.0").kv_bytes_per_token == 1_002_240 // 256


@pytest.mark.parametrize("version,tp,mtp,mnbt,logged", [
    ("0.25.0", 2, True, 4096, 75.64),    # code index id 56819795714
    ("0.26.0", 4, False, 8192, 38.09),   # 61108757925
    ("0.27.0", 4, False, 8192, 37.96),   # 61222640834 (v0.27.1)
])
def test_the_weights_match_model_loading_took(version, tp, mtp, mnbt, logged):
    cfg = config(FLASH)
    w = deepseek_v4_weights(cfg, ratios_of(cfg), tp, capability_major=12, version=parse_version(version), mtp=mtp,
                            mnbt=mnbt)
    assert logged - 0.1 < w.per_gpu / GIB <= logged


def test_pro_as_stored_and_its_expert_padding_on_blackwell_before_v0_27():
    """The public report of Pro's 64 files: 805.32 GiB of tensors. At TP 8 FlashInfer's TRT-LLM experts
    pad each GPU's 384-wide share to 512 until v0.27."""
    cfg = config(PRO)
    def at(version):
        return deepseek_v4_weights(cfg, ratios_of(cfg), 8, capability_major=10, version=parse_version(version),
                                   mtp=False, mnbt=8192)
    assert round(at("0.26.0").checkpoint / GIB, 2) == 805.32
    assert 31 < (at("0.26.0").per_gpu - at("0.27.0").per_gpu) / GIB < 33
    assert 1.59e12 < at("0.27.0").params < 1.61e12


def test_the_fully_estimated_budget_prices_the_weights():
    c = flash(vllm_version="0.26.0", tensor_parallel_size=4, gpu="rtx-pro-6000", max_model_len=131_072)
    weights = next(t for t in c.budget.terms if t.name == "weights")
    assert 37.9 < weights.bytes / GIB < 38.1 and c.estimated.tokens > 0


def test_a_reencoded_checkpoint_has_no_weights_estimate():
    cfg = copy.deepcopy(config(FLASH))
    cfg["quantization_config"] = {"quant_method": "awq", "bits": 4, "group_size": 128}
    c = calc(cfg, "h200", vllm_version="0.30.0", max_model_len=65_536)
    assert c.budget is None and c.estimated is None and c.budget_note.key == "note.weights_unknown"


@pytest.mark.parametrize("settings,flag,key", [
    ({"vllm_version": "0.29.0"}, "--kv-cache-dtype", "dsv4.kv_auto"),
    ({"vllm_version": "0.30.0", "kv_cache_dtype": "bfloat16"}, "--kv-cache-dtype", "dsv4.kv_dtype"),
    ({"vllm_version": "0.30.0", "gpu": "a100-80gb"}, "--gpu", "dsv4.gpu"),
    ({"vllm_version": "0.23.0", "kv_cache_dtype": "fp8", "gpu": "rtx-5090"}, "--gpu", "dsv4.gpu"),
    ({"vllm_version": "0.30.0", "gpu": "mi300x"}, "--gpu", "dsv4.rocm"),
    ({"vllm_version": "0.30.0", "block_size": 128}, "--block-size", "dsv4.block_size"),
    ({"vllm_version": "0.20.0", "kv_cache_dtype": "fp8", "pipeline_parallel_size": 2},
     "--pipeline-parallel-size", "dsv4.pipeline"),
    ({"vllm_version": "0.30.0", "tensor_parallel_size": 2, "decode_context_parallel_size": 2},
     "--decode-context-parallel-size", "dsv4.dcp"),
    ({"vllm_version": "0.30.0", "attention_backend": "FLASH_ATTN"}, "--attention-backend", "dsv4.backend"),
    ({"vllm_version": "0.19.0", "kv_cache_dtype": "fp8"}, "--vllm-version", "settings.model_before_release"),
    ({"vllm_version": "0.30.0", "weights": "awq"}, "weights", "dsv4.weights"),
    ({"vllm_version": "0.30.0", "cpu_offload_gb": 10}, "--cpu-offload-gb", "dsv4.cpu_offload"),
])
def test_what_vllm_or_kvcalc_refuses_names_the_flag(settings, flag, key):
    settings = dict(settings)
    gpu = settings.pop("gpu", "h200")
    with pytest.raises(SettingsError) as err:
        calc(FLASH, gpu, max_model_len=65_536, **settings)
    assert flag in err.value.problems and err.value.problems[flag].key == key


def test_sm12x_runs_it_from_v0_24_and_auto_is_fp8_from_v0_30():
    assert calc(FLASH, "rtx-5090", vllm_version="0.24.0", kv_cache_dtype="fp8", tensor_parallel_size=8,
                max_model_len=65_536).kv.name == "fp8_ds_mla"
    assert calc(FLASH, "b200", vllm_version="0.30.0", max_model_len=65_536).kv.name == "fp8_ds_mla"


def test_drafts_other_than_its_mtp_layer_are_refused():
    with pytest.raises(SettingsError) as err:
        flash(vllm_version="0.30.0", max_model_len=65_536, speculative={"method": "eagle3", "num_speculative_tokens": 2})
    assert err.value.problems["--speculative-config"].key == "dsv4.spec_method"


def test_mtp_adds_one_window_layer_whatever_the_draft_length():
    one = flash(vllm_version="0.30.0", speculative={"method": "mtp", "num_speculative_tokens": 1})
    three = flash(vllm_version="0.30.0", speculative={"method": "mtp", "num_speculative_tokens": 3})
    assert len(one.layout.all_specs) == len(three.layout.all_specs) == len(flash(vllm_version="0.30.0").layout.all_specs) + 1


@pytest.mark.parametrize("field,value,path", [
    ("compress_ratios", None, "compress_ratios"),
    ("compress_ratios", [0, 0, 8] + [4] * 43, "compress_ratios[2]"),
    ("compress_ratios", [0, 4], "compress_ratios"),
    ("index_head_dim", 100, "index_head_dim"),
    ("o_groups", "8", "o_groups"),
    ("o_groups", 7, "o_groups"),
    ("hc_mult", 4.5, "hc_mult"),
    ("num_hash_layers", 99, "num_hash_layers"),
    ("dspark_target_layer_ids", [40, 41, 43], "dspark_target_layer_ids[2]"),
    ("expert_dtype", "int4", "expert_dtype"),
])
def test_a_malformed_config_names_its_field(field, value, path):
    cfg = copy.deepcopy(config(FLASH))
    if value is None:
        del cfg[field]
    else:
        cfg[field] = value
    assert_field_named(cfg, path)


def test_another_entry_geometry_is_refused_not_sized_wrong():
    cfg = copy.deepcopy(config(FLASH))
    cfg["head_dim"] = 576
    with pytest.raises(UnsupportedModelError, match="584-byte"):
        read_model(cfg)
    cfg = copy.deepcopy(config(FLASH))
    cfg["compress_ratios"] = [0 if r == 4 else r for r in cfg["compress_ratios"]]
    with pytest.raises(UnsupportedModelError, match="without a layer of compress ratio 4"):
        read_model(cfg)


def test_on_blackwell_no_flashinfer_attention_workspace_is_added():
    """DeepSeek-V4 does not run FlashInfer's generic attention on 10.x (FlashMLA's classes), so the
    CUDA-graph term carries no FlashInfer workspace: the graph count x DSV4_GRAPH_MIB alone."""
    from kvcalc.reserve import DSV4_GRAPH_MIB
    c = calc(FLASH, "b200", vllm_version="0.30.0", tensor_parallel_size=4, max_model_len=131_072)
    graphs = next(t for t in c.budget.terms if t.name == "CUDA graphs")
    assert "FlashInfer" not in graphs.basis
    piecewise, full = map(int, re.search(r"(\d+) piecewise \+ (\d+) full", graphs.basis).groups())
    assert graphs.bytes == int((piecewise + full) * DSV4_GRAPH_MIB[0] * (1 << 20))


def test_the_page_reply_shows_five_groups_in_both_languages():
    r = api.handle({"op": "estimate", "model": FLASH, "gpu": "h200",
                    "settings": {"vllm_version": "0.30.0", "max_model_len": 131_072}})
    assert r["ok"], r
    layout = r["result"]["layout"]
    assert layout["grouping"] == "packed"
    assert [g["kind"] for g in layout["groups"]] == ["compressed_mla", "sliding_window_mla", "sliding_window_mla",
                                                     "compressor_state", "compressor_state"]
    assert any("DEEPSEEK_SPARSE_SWA" in k for k in r["zh"])


# Pipeline parallelism at 2 stages, 40 GiB a stage, 131,072 tokens, 8,192 batched tokens: the groups are
# planned over the whole model and projected on each stage (Flash: layers 0-21 and 22-42), each stage
# divides its memory by its own bytes per block and the fewest blocks win; before v0.27 each worker
# prints its own line pair (measured in its own full-group pages), from v0.27 one.
PP2 = [
    (FLASH, "0.22.0", 81_670, ["3,032,478", "23.14x", "3,115,439", "23.77x"], 1.89),
    (FLASH, "0.25.0", 81_940, ["3,042,504", "23.21x", "3,125,739", "23.85x"], 1.89),
    (FLASH, "0.26.0", 81_940, ["1,645,478", "12.55x", "1,694,012", "12.92x"], 3.52),
    (FLASH, "0.27.0", 81_940, ["1,492,916", "11.39x"], 3.52),
    (FLASH, "0.28.0", 81_940, ["1,020,722", "7.79x"], 5.15),     # model runner V2 with async: 3 x 8,192 in flight
    (FLASH, "0.30.0", 81_940, ["1,020,722", "7.79x"], 5.14),
    (PRO, "0.22.0", 56_148, ["2,064,935", "15.75x", "2,096,703", "16.00x"], 2.75),
    (PRO, "0.27.0", 59_747, ["1,088,568", "8.31x"], 5.12),
    (PRO, "0.30.0", 59_747, ["744,265", "5.68x"], 7.04),
]


@pytest.mark.parametrize("model,version,blocks,printed,needed_gib", PP2)
def test_pipeline_stages_plan_their_own_blocks(model, version, blocks, printed, needed_gib):
    pool = calc(model, "h200", vllm_version=version, kv_cache_dtype="fp8", max_model_len=131_072,
                pipeline_parallel_size=2, max_num_batched_tokens=8192, kv_cache_memory_bytes=40 * GIB).estimated
    assert pool.num_blocks == blocks
    numbers = [w for line in pool.log_lines for w in re.findall(r"cache size: ([\d,]+) tokens|: ([\d.]+x)", line)
               for w in w if w]
    assert numbers == printed
    assert round(pool.needed_bytes / GIB, 2) == needed_gib


def test_pipeline_parallelism_is_refused_where_vllm_or_a_group_cannot_follow():
    with pytest.raises(SettingsError) as err:
        flash(vllm_version="0.20.0", pipeline_parallel_size=2, max_model_len=65_536)
    assert err.value.problems["--pipeline-parallel-size"].key == "dsv4.pipeline"
    with pytest.raises(SettingsError) as err:     # stage 0 = layers 0-2: no ratio-128 layer
        flash(vllm_version="0.30.0", pipeline_parallel_size=12, max_model_len=65_536)
    assert err.value.problems["--pipeline-parallel-size"].key == "dsv4.pp_empty_group"


def test_each_stage_loads_its_own_layers():
    """Flash at PP 2 on v0.30: the first stage holds the embedding and both RoPE caches (layers 0 and 1
    keep windows only), the last the LM head; together they hold the model once, plus per-stage buffers."""
    cfg = config(FLASH)
    one = deepseek_v4_weights(cfg, ratios_of(cfg), 1, capability_major=9, version=parse_version("0.30.0"),
                              mtp=False, mnbt=8192)
    two = deepseek_v4_weights(cfg, ratios_of(cfg), 1, capability_major=9, version=parse_version("0.30.0"),
                              mtp=False, mnbt=8192, stage_sizes=(22, 21))
    rope, topk = (1 << 20) * 64 * 4, 4 * 8192 * 512
    # each stage builds a RoPE cache per theta its layers use (the second's are all compressed: one) and
    # its own top-k buffer
    assert sum(two.per_stage) == one.per_gpu + rope + topk
    assert two.per_stage[0] - two.per_stage[1] > rope
    c = flash(vllm_version="0.30.0", pipeline_parallel_size=2, max_model_len=131_072)
    assert len(c.budget.stage_available) == 2


DSPARK = {"method": "dspark", "num_speculative_tokens": 7}


def test_dspark_adds_three_windows_and_runs_on_model_runner_v2():
    """DSpark (v0.25+): n_mtp_layers or 3 window-only layers join the target's windows (46 -> two groups of
    23), a v0.26 block costs 1,077,120 bytes, and the drafter forces model runner V2."""
    c = flash(vllm_version="0.26.0", max_model_len=65_536, speculative=DSPARK, gpu="b300")
    assert [len(g.layer_names) for g in c.grouping.groups] == [62, 23, 23, 42, 20]
    assert c.grouping.packed.block_bytes == 1_077_120 and c.model_runner_v2 and c.in_flight_tokens == 16_384
    assert any(getattr(n, "key", "") == "note.dspark_layers" for n in c.notes)
    cfg = copy.deepcopy(config(FLASH))
    c = calc(cfg, "b300", vllm_version="0.30.0", max_model_len=65_536,
             speculative={**DSPARK, "draft_config": {**cfg, "n_mtp_layers": 2}})
    assert sum(1 for n in c.layout.all_specs if n.startswith("draft.")) == 2


def test_a_public_dspark_start_on_one_b300():
    """Code index id 63390294774 (v0.26.0): 'Model loading took 156.32 GiB', 'Actual usage is 156.32 GiB for
    weight, 2.99 GiB for peak activation, 0.23 GiB for non-torch memory', 'Available KV cache memory:
    86.74 GiB', 913,657 tokens, 13.94x."""
    c = calc(FLASH, "b300", vllm_version="0.26.0", max_model_len=65_536, kv_cache_dtype="fp8", block_size=256,
             speculative=DSPARK, available_kv_gib=86.74)
    assert c.from_log_low.tokens <= 913_657 <= c.from_log_high.tokens
    terms = {t.name: t.bytes / GIB for t in c.budget.terms}
    assert 156.2 < terms["weights"] <= 156.32
    assert abs(terms["activation peak"] - 2.99) < 0.05
    assert abs(c.budget.available_bytes / GIB - 86.74) < 0.2


@pytest.mark.parametrize("model,settings,flag,key", [
    (FLASH, {"vllm_version": "0.24.0"}, "--speculative-config", "dsv4.dspark_release"),
    (FLASH, {"vllm_version": "0.26.0", "model_runner_v2": False}, "--speculative-config", "dsv4.dspark_v1"),
    (FLASH, {"vllm_version": "0.26.0", "pipeline_parallel_size": 2}, "--pipeline-parallel-size", "dsv4.dspark_pp"),
    ("Qwen/Qwen3-8B", {"vllm_version": "0.26.0"}, "--speculative-config", "settings.dspark_dsv4_only"),
])
def test_dspark_is_refused_where_vllm_cannot_run_it(model, settings, flag, key):
    with pytest.raises(SettingsError) as err:
        calc(model, "b300", kv_cache_dtype="fp8" if model == FLASH else "auto", max_model_len=32_768,
             speculative=DSPARK, **settings)
    assert err.value.problems[flag].key == key


def test_dspark_needs_its_keys_in_the_config():
    """The preview checkpoint's config has no dspark_* keys: vLLM's drafter reads them without a default."""
    cfg = {k: v for k, v in config(FLASH).items() if not k.startswith("dspark_")}
    with pytest.raises(SettingsError) as err:
        calc(cfg, "b300", vllm_version="0.26.0", kv_cache_dtype="fp8", max_model_len=65_536, speculative=DSPARK)
    assert err.value.problems["--speculative-config"].key == "dsv4.dspark_config"


def test_the_mxfp4_indexer_cache_shrinks_its_pages_from_v0_27():
    """--attention-config use_fp4_indexer_cache (indexer_kv_dtype mxfp4 from v0.28): 68-byte keys, so
    4,352 -> 4,608-byte pages from v0.27 (v0.22-v0.26 allocate the fp8 size anyway) and a Flash block of
    21 x 37,440 + 21 x 4,608 + 20 x 1,728 = 917,568 bytes; the indexer's gather buffer 680 bytes a token."""
    old = flash(vllm_version="0.26.0", gpu="b200", fp4_indexer_cache=True, max_model_len=131_072)
    new = flash(vllm_version="0.27.0", gpu="b200", fp4_indexer_cache=True, max_model_len=131_072)
    assert old.layout.all_specs["layers.2.indexer"].page_size_bytes == 8_640
    assert new.layout.all_specs["layers.2.indexer"].page_size_bytes == 4_608
    assert new.grouping.packed.block_bytes == 917_568
    from kvcalc.deepseek_v4_profile import deepseek_v4_peak
    peak = deepseek_v4_peak(config(FLASH), mnbt=8192, max_model_len=1 << 20, tp=4, capability_major=10,
                            version=parse_version("0.30.0"), fp4_indexer=True)
    assert peak.workspace_kind == "flashmla"     # 680 x 1M < FlashMLA's gather over 1M tokens


def test_the_mxfp4_indexer_cache_is_spelled_as_the_release_takes_it_and_read_back():
    def serve(version):
        return flash(vllm_version=version, gpu="b200", fp4_indexer_cache=True, max_model_len=65_536).serve_command
    assert """--attention-config '{"use_fp4_indexer_cache":true}'""" in serve("0.27.0")
    assert """--attention-config '{"indexer_kv_dtype":"mxfp4"}'""" in serve("0.30.0")
    from kvcalc.commandline import read_command
    for flags in ("""--attention-config '{"use_fp4_indexer_cache": true}'""",
                  "--attention-config.indexer_kv_dtype mxfp4"):
        assert read_command(f"vllm serve {FLASH} {flags}")["settings"]["fp4_indexer_cache"] is True
    row = next(r for r in __import__("kvcalc.validate", fromlist=["load_logs"]).load_logs()
               if r["id"].startswith("b300-deepseek-v4"))
    r = api.handle({"op": "compare_log", "text": row["excerpt"], "gpu": "b300", "model": FLASH, "settings": {}})
    assert r["ok"] and r["result"]["settings"]["fp4_indexer_cache"] is True


@pytest.mark.parametrize("model,gpu,version,key", [
    (FLASH, "h200", "0.30.0", "dsv4.fp4_indexer_gpu"),
    ("Qwen/Qwen3-8B", "b200", "0.30.0", "settings.fp4_indexer_dsv4_only"),
    (FLASH, "b200", "0.21.0", "settings.flag_needs_release"),
])
def test_the_mxfp4_indexer_cache_is_refused_where_it_cannot_run(model, gpu, version, key):
    with pytest.raises(SettingsError) as err:
        calc(model, gpu, vllm_version=version, kv_cache_dtype="fp8" if model == FLASH else "auto",
             max_model_len=32_768, fp4_indexer_cache=True)
    assert err.value.problems["--attention-config"].key == key


def test_tensor_parallelism_must_split_the_output_groups():
    """Flash's 8 output-projection groups: TP 16 would leave half a group a GPU."""
    with pytest.raises(SettingsError) as err:
        flash(vllm_version="0.30.0", tensor_parallel_size=16, max_model_len=65_536)
    assert "8 groups" in str(err.value.problems["--tensor-parallel-size"])

