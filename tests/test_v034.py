"""vLLM v0.34.0: the extensible KV cache, the 64-token default block, the V1 runner's removal and the
new texts. Expected values are worked out from the v0.34.0 wheel's code (cited per test), not copied
from kvcalc's output."""

import pytest

from factories import calc
from kvcalc import extensible
from kvcalc.commandline import read_command
from kvcalc.errors import SettingsError

GIB = 1 << 30
MIB = 1 << 20


def test_blocks_within_rounds_each_segment_up_to_whole_granules():
    """``ExtensibleKVCache.blocks_within``: every segment (layer) commits whole 2 MiB granules. Four layers
    of 1.5 MiB blocks in 13 MiB: 2 blocks would take 4 × ceil(3 / 2) × 2 = 16 MiB, 1 block 4 × 2 = 8 MiB;
    13 // 6 = 2 without the rounding. Two layers of 3 MiB blocks in 20 MiB: 3 blocks take 2 × 5 × 2 = 20."""
    assert extensible.blocks_within(13 * MIB, (3 * MIB // 2,) * 4, capacity=100) == 1
    assert extensible.blocks_within(20 * MIB, (3 * MIB,) * 2, capacity=100) == 3
    assert extensible.blocks_within(20 * MIB, (3 * MIB,) * 2, capacity=2) == 2      # never past the reservation
    assert extensible.blocks_within(0, (3 * MIB,), capacity=100) == 0
    assert extensible.committed_bytes(3, (3 * MIB,) * 2) == 20 * MIB


def test_start_up_memory_follows_the_card_and_the_gpus():
    """STARTUP_IN_USE_GIB: the stored logs' total less 'Free memory on device … on startup'."""
    cases = {"L4": (1, False, 22.0, "cuda"), "H100": (1, False, 79.1, "cuda"), "H200": (1, False, 139.8, "cuda"),
             "MI300X": (1, False, 191.7, "rocm"), "TP2": (2, False, 79.1, "cuda"), "GB10": (1, True, 119.6, "cuda")}
    typical = {key: extensible.startup_in_use(gpus, unified, int(gib * GIB), platform)[0] / GIB
               for key, (gpus, unified, gib, platform) in cases.items()}
    assert typical == pytest.approx({"L4": 0.25, "H100": 0.45, "H200": 0.55, "MI300X": 0.35, "TP2": 0.6,
                                     "GB10": 7.5}, abs=0.01)


def test_margin_is_a_floor_or_three_quarters_of_the_peak():
    """KV_CACHE_MARGIN_FLOOR_BYTES (1 GiB, 3 GiB on ROCm) and KV_CACHE_MARGIN_FRACTION (0.75)."""
    assert extensible.margin_bytes(GIB, "cuda") == GIB
    assert extensible.margin_bytes(4 * GIB, "cuda") == 3 * GIB
    assert extensible.margin_bytes(2 * GIB, "rocm") == 3 * GIB
    assert extensible.withheld_bytes(requested=80 * GIB, total=80 * GIB, in_use=GIB // 2, margin=GIB) == 3 * GIB // 2
    assert extensible.withheld_bytes(requested=60 * GIB, total=80 * GIB, in_use=GIB // 2, margin=GIB) == 0


def test_the_pool_is_v033s_budget_less_the_start_up_memory_and_the_margin():
    """With --gpu-memory-utilization unset (1.0: resolved_gpu_memory_utilization) the measured budget is
    total - U - W - N - C - P - margin; the printed 'Available KV cache memory' is the profile's estimate,
    total - W - N - P, without the CUDA graphs (profile_cudagraph_memory returns 0)."""
    c = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0")
    b = c.budget
    assert c.resolved.extensible_kv_cache and c.resolved.gpu_memory_utilization == 1.0
    assert b.requested_bytes == c.gpu.total_bytes
    term = {t.name: t.bytes for t in b.terms}
    margin = max(GIB, int(0.75 * term["activation peak"]))
    in_use = int(0.45 * GIB)        # an 80 GB card: the A100, L40S and H100 logs' 0.41-0.61 GiB
    assert term["start-up memory"] == in_use and term["extensible margin"] == margin
    before_graphs = b.requested_bytes - sum(term[k] for k in ("weights", "activation peak", "non-torch memory"))
    assert b.capacity_available == (before_graphs - term.get("first-start compile", 0),)
    assert b.available_bytes == b.capacity_available[0] - term["CUDA graphs"] - in_use - margin
    # 36 layers of 64-token pages (64 × 8 heads × 256 × 2 B = 256 KiB), each layer's share in 2 MiB granules
    page = 64 * 8 * 256 * 2
    blocks = c.estimated.num_blocks
    assert extensible.committed_bytes(blocks, (page,) * 36) <= b.available_bytes
    assert extensible.committed_bytes(blocks + 1, (page,) * 36) > b.available_bytes
    lines = c.estimated.log_lines
    assert lines[0] == f"Available KV cache memory: {round(b.capacity_available[0] / GIB, 2)} GiB"
    assert lines[1].startswith(f"GPU KV cache size: {blocks * 64:,} tokens")
    assert lines[2] == f"Extended KV cache to {blocks} blocks ({blocks * page * 36 / GIB:.2f} GiB)."


def test_a_utilization_that_leaves_room_keeps_v033s_budget():
    """An explicit utilization caps the budget at requested - non-KV memory (measure_kv_cache_bytes' min):
    at 0.8 of an H100 the device bound, total - U - margin, is far above it, so no term is added."""
    c = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", gpu_memory_utilization=0.8)
    names = [t.name for t in c.budget.terms]
    assert "start-up memory" not in names and "extensible margin" not in names
    graphs = c.budget.term("CUDA graphs").bytes
    assert c.budget.available_bytes == c.budget.capacity_available[0] - graphs
    assert c.resolved.gpu_memory_utilization == 0.8


def test_extensible_cache_gives_more_pool_than_v033_on_an_80_gb_gpu():
    """0.08 of the total (the 0.92 default) outweighs 0.5 GiB of start-up memory and a 1-1.7 GiB margin."""
    v33 = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.33.0").estimated
    v34 = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0").estimated
    gained = v34.available_bytes - v33.available_bytes
    assert 3 * GIB < gained < 6 * GIB


@pytest.mark.parametrize("settings, on", [
    ({}, True),
    ({"enable_extensible_kv_cache": False}, False),
    ({"kv_cache_memory_bytes": 20 * GIB}, False),
    ({"num_gpu_blocks_override": 4000}, False),
    ({"pinned_memory": False}, False),       # WSL2: no virtual memory management, vLLM falls back
    ({"vllm_version": "0.33.0"}, False),
])
def test_when_the_extensible_cache_is_in_effect(settings, on):
    kw = {"max_model_len": 8192, "vllm_version": "0.34.0", **settings}
    c = calc("Qwen/Qwen3-8B", **kw)
    assert c.resolved.extensible_kv_cache is on
    if "kv_cache_memory_bytes" not in settings:
        assert c.resolved.gpu_memory_utilization == (1.0 if on else 0.92)
    assert any(getattr(n, "key", "") == "note.extensible_kv_cache" for n in c.notes) is (
        on and c.budget is not None)


def test_the_switch_is_refused_where_vllm_refuses_it():
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.33.0", enable_extensible_kv_cache=False)
    assert "0.34.0" in str(err.value.problems["--enable-extensible-kv-cache"])
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", enable_extensible_kv_cache=True,
             kv_cache_memory_bytes=20 * GIB)
    assert "--kv-cache-memory-bytes" in str(err.value.problems["--enable-extensible-kv-cache"])


def test_off_is_spelled_in_the_serve_command_and_read_back():
    c = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", enable_extensible_kv_cache=False)
    assert "--no-enable-extensible-kv-cache" in c.serve_command
    assert read_command(c.serve_command)["settings"]["enable_extensible_kv_cache"] is False
    assert read_command("vllm serve Qwen/Qwen3-8B --enable-extensible-kv-cache")["settings"] == \
        {"enable_extensible_kv_cache": True}


def test_auto_length_is_fitted_twice():
    """_auto_fit_max_model_len runs on the reservation (a tentative length, said so) and again on the
    blocks committed after warm-up less the null block (finalize_extensible_kv_cache), from the tentative
    length; below 8,192 tokens the second line is a warning."""
    c = calc("Qwen/Qwen3-8B", "l4", max_model_len=-1, vllm_version="0.34.0")
    lines = c.estimated.log_lines
    assert lines[1].startswith("Auto-fit max_model_len: reduced from 40960 to ")
    assert lines[1].endswith("; the final length is set after CUDA graph capture and warmup")
    tentative = int(lines[1].split(" to ")[1].split()[0])
    assert lines[2].startswith(f"--max-model-len auto reduced max_model_len from {tentative} to "
                               f"{c.estimated.max_model_len} (")
    assert lines[2].endswith(" GiB GPU left for the KV cache after CUDA graph capture and warmup).")
    assert c.estimated.max_model_len < tentative
    # (n - 1) blocks of 36 × 256 KiB hold the fitted length, n - 1 more blocks would not
    per_block = 36 * 64 * 8 * 256 * 2
    assert f"({round((c.estimated.num_blocks - 1) * per_block / GIB, 2)} GiB GPU left" in lines[2]


def test_v034_fit_errors_say_what_makes_room():
    """_more_kv_cache_memory_hint: with the extensible cache at 1.0 nothing is left to raise."""
    on = calc("Qwen/Qwen3-8B", "l4", max_model_len=40960, vllm_version="0.34.0").estimated
    assert not on.fits and "The extensible KV cache already takes all device memory left after the model and " \
        "its activations; decrease `max_model_len` or `max_num_seqs`" in on.error
    off = calc("Qwen/Qwen3-8B", "l4", max_model_len=40960, vllm_version="0.34.0",
               enable_extensible_kv_cache=False).estimated
    assert "Try increasing `gpu_memory_utilization` when initializing the engine (this flag also controls CPU " \
        "memory reservation on the CPU backend, despite its name). Decreasing `max_model_len` also reduces" in off.error


def test_a_v034_log_gives_the_reservation_not_the_pool():
    c = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", available_kv_gib=60.0)
    gap = c.budget.capacity_available[0] - c.budget.available_bytes
    assert c.from_log.available_bytes == round(60.0 * GIB) - gap
    assert c.from_log.log_lines[0] == "Available KV cache memory: 60.0 GiB"
    assert any(getattr(n, "key", "") == "note.extensible_from_log" for n in c.notes)


@pytest.mark.parametrize("model, gpu, tp, v33, v34", [
    ("Qwen/Qwen3-8B", "h100", 1, 16, 64),                      # FLASH_ATTN takes the new default
    ("meta-llama/Llama-3.1-8B-Instruct", "mi300x", 1, 16, 16),  # ROCM_ATTN prefers 16 (rocm_attn.py)
    ("Qwen/Qwen3-8B", "radeon-pro-w7900", 1, 16, 64),           # gfx1100 puts TRITON_ATTN first in v0.34
    ("openai/gpt-oss-120b", "mi300x", 1, 64, 64),              # ROCM_AITER_UNIFIED_ATTN's own 64
    ("deepseek-ai/DeepSeek-V3", "b200", 8, 32, 64),            # FLASHINFER_MLA takes 32 or 64
    ("deepseek-ai/DeepSeek-V3", "h100", 8, 16, 64),            # FLASH_ATTN_MLA: multiples of 16
])
def test_default_block_is_64_from_v034(model, gpu, tp, v33, v34):
    blocks = [calc(model, gpu, max_model_len=8192, tensor_parallel_size=tp, vllm_version=v).layout.block_size
              for v in ("0.33.0", "0.34.0")]
    assert blocks == [v33, v34]


def test_an_fp8_e5m2_cache_keeps_rdna_on_rocm_attn():
    """Attention refuses fp8_e5m2 for backends that take an fp8 query, as TRITON_ATTN does on RDNA: v0.34 keeps
    ROCM_ATTN first for it, with its 16-token block."""
    c = calc("Qwen/Qwen3-8B", "radeon-pro-w7900", max_model_len=8192, vllm_version="0.34.0", kv_cache_dtype="fp8_e5m2")
    assert c.layout.block_size == 16


def test_hybrid_attention_blocks_become_multiples_of_64():
    """Platform._align_hybrid_block_size starts from the 64-token default: Qwen3-Next at TP 4 on an A100
    (no FlashInfer GDN checkpoints there) keeps a 1,097,728 / 4 B state page under 2 KV heads / 4 -> 1
    head × 512 × 2 B = 1,024 B per token: 16 × cdiv(274,432, 16,384) = 272 before, 64 × cdiv(274,432,
    65,536) = 320 from v0.34."""
    old = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", "a100-80g-sxm", max_model_len=8192, tensor_parallel_size=4,
               vllm_version="0.33.0")
    new = calc("Qwen/Qwen3-Next-80B-A3B-Instruct", "a100-80g-sxm", max_model_len=8192, tensor_parallel_size=4,
               vllm_version="0.34.0")
    assert (old.layout.block_size, new.layout.block_size) == (272, 320)


def test_the_v1_runner_is_gone():
    with pytest.raises(SettingsError) as err:
        calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", model_runner_v2=False)
    assert "VLLM_USE_V2_MODEL_RUNNER" in err.value.problems
    old = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.33.0", speculative={"method": "suffix"})
    new = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", speculative={"method": "suffix"})
    assert (old.model_runner_v2, new.model_runner_v2) == (False, True)
    # suffix decoding's token history on the GPU (prefer_dense_token_history): 1,024 slots × 8,192 × 4 B
    assert "token history on the GPU (n-gram; suffix decoding from v0.34): 1,024 request slots × 8,192 tokens" \
        in str(new.budget.term("non-torch memory").basis)
    assert "token history" not in str(old.budget.term("non-torch memory").basis)


def test_the_new_serve_flags_leave_memory_alone():
    read = read_command("vllm serve Qwen/Qwen3-8B --cache-aware-admission-threshold 0.5 "
                        "--max-num-inflight-kv-loads 4 --shuffle-safetensors-files")
    assert read["settings"] == {} and not read["refused"] and not read["unknown"]
    assert {"--cache-aware-admission-threshold", "--max-num-inflight-kv-loads",
            "--shuffle-safetensors-files"} <= set(read["ignored"])


RICURSIVE = {"architectures": ["RicursiveForCausalLM"], "model_type": "ricursive", "num_hidden_layers": 10,
             "hidden_size": 512, "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 64,
             "intermediate_size": 1024, "vocab_size": 1000, "max_position_embeddings": 8192,
             "torch_dtype": "bfloat16"}


def test_ricursive_is_read_as_the_config_class_fills_it_in():
    """RicursiveConfig (v0.34): without layer_types every fifth layer is full attention, the others slide
    over 1,024 tokens; the hub's derived hybrid_layer_pattern is dropped; the output gate is a projection as
    wide as the queries (8 × 64 × 512 parameters a layer, 10 layers, 2 bytes each)."""
    c = calc(RICURSIVE, max_model_len=8192, vllm_version="0.34.0")
    kinds = [layer.kind for layer in c.arch.layers]
    assert kinds == ["sliding_window"] * 4 + ["full"] + ["sliding_window"] * 4 + ["full"]
    assert {layer.window for layer in c.arch.layers if layer.kind == "sliding_window"} == {1024}
    with_pattern = calc({**RICURSIVE, "hybrid_layer_pattern": [0, 0, 0, 0, 1]}, max_model_len=8192,
                        vllm_version="0.34.0")
    assert [layer.kind for layer in with_pattern.arch.layers] == kinds
    ungated = calc({**RICURSIVE, "use_gated_attention": False}, max_model_len=8192, vllm_version="0.34.0")
    assert c.budget.weights.bytes - ungated.budget.weights.bytes == 10 * 8 * 64 * 512 * 2
    with pytest.raises(SettingsError) as err:
        calc(RICURSIVE, max_model_len=8192, vllm_version="0.33.0")
    assert "0.34.0" in str(err.value.problems["--vllm-version"])


def test_models_v034_removed_or_added_without_a_reading_are_refused():
    from kvcalc.errors import UnsupportedModelError
    keye = {**config_of_qwen3(), "architectures": ["KeyeVL1_5ForConditionalGeneration"]}
    assert calc(keye, max_model_len=8192, vllm_version="0.33.0").estimated is not None
    with pytest.raises(SettingsError) as err:
        calc(keye, max_model_len=8192, vllm_version="0.34.0")
    assert "0.33.0" in str(err.value.problems["--vllm-version"])
    for arch in ("ZayaForCausalLM", "MistralLarge4ForCausalLM", "KimiK31ForConditionalGeneration"):
        with pytest.raises(UnsupportedModelError):
            calc({**config_of_qwen3(), "architectures": [arch]}, max_model_len=8192)


def config_of_qwen3():
    from factories import config
    return dict(config("Qwen/Qwen3-8B"))


@pytest.mark.parametrize("version, thor, rtx50", [
    ("0.31.0", 128, 128),     # the Triton MXFP4 kernels stop below 11.0: Marlin
    ("0.32.0", 64, 128),      # Triton up to 13.0 and first, but behind Marlin on 12.x
    ("0.33.0", 64, 128),
    ("0.34.0", 128, 128),     # Marlin first on 11.x again
])
def test_mxfp4_experts_on_thor_follow_the_kernel_order(version, thor, rtx50):
    from kvcalc.versions import parse_version
    from kvcalc.weights import mxfp4_expert_align
    v = parse_version(version)
    assert (mxfp4_expert_align(v, "cuda", "11.0", None), mxfp4_expert_align(v, "cuda", "12.0", None)) == (thor, rtx50)


def test_a_removed_variable_is_refused_from_the_release_that_removed_it():
    line = "VLLM_MARLIN_INPUT_DTYPE=int8 vllm serve Qwen/Qwen3-8B"
    new = read_command(line.replace("vllm serve", "docker run vllm/vllm-openai:v0.34.0"))
    assert "VLLM_MARLIN_INPUT_DTYPE" in new["refused"] and "0.34.0" in str(new["refused"]["VLLM_MARLIN_INPUT_DTYPE"])
    old = read_command(line.replace("vllm serve", "docker run vllm/vllm-openai:v0.33.0"))
    assert "VLLM_MARLIN_INPUT_DTYPE" in old["ignored"] and "VLLM_MARLIN_INPUT_DTYPE" not in old["refused"]


def test_a_v034_log_s_committed_blocks_make_the_pool_from_it_exact():
    """A pasted v0.34 excerpt (made up for the test, in vLLM's own wording): 'Available KV cache memory' is
    the reservation, 'Extended KV cache to N blocks' the pool; the comparison's pool from the log is those
    N blocks of 64 tokens, and the reservation is set beside kvcalc's, not its measured budget."""
    from factories import compared, row_of
    from kvcalc.logparse import parse_log
    text = ("INFO 12-01 10:00:00 [arg_utils.py:1] non-default args: {'model': 'Qwen/Qwen3-8B'}\n"
            "INFO 12-01 10:00:05 [gpu_worker.py:1] Available KV cache memory: 60.79 GiB\n"
            "INFO 12-01 10:00:09 [kv_cache_utils.py:1] Auto-fit max_model_len: using max_model_len=40960, which "
            "fits in the KV cache memory left after CUDA graph capture and warmup (52.73 GiB GPU).\n"
            "INFO 12-01 10:00:09 [kv_cache_utils.py:1] GPU KV cache size: 384,000 tokens, Maximum concurrency for "
            "40,960 tokens per request: 9.38x\n"
            "(EngineCore pid=1) INFO 12-01 10:00:10 [extensible_kv_cache.py:1] Extended KV cache to 6000 blocks "
            "(52.73 GiB).\n")
    parsed = parse_log(text)
    assert (parsed.extended_blocks, parsed.extended_gib, parsed.auto_fit_len) == (6000, 52.73, 40960)
    assert parse_log("--max-model-len auto reduced max_model_len from 38464 to 24512 (3.37 GiB GPU left for "
                     "the KV cache after CUDA graph capture and warmup).").auto_fit_len == 24512
    result = compared(text, "0.34.0")
    assert result["calculation"]["from_log"]["num_blocks"] == 6000
    assert row_of(result, "GPU KV cache size")["from_log"] == "384,000 tokens"
    assert row_of(result, "Extended KV cache to N blocks")["logged"] == "6,000 blocks"
    reservation = row_of(result, "Available KV cache memory")["estimated"]
    assert reservation == f"{min(result['calculation']['budget']['capacity_available']) / GIB:.2f} GiB"


def test_a_utilization_below_one_is_warned_about_where_it_keeps_a_gib_out():
    """measure_kv_cache_blocks warns for 0.7 < utilization < 1.0 when the share keeps 1 GiB or more of free
    memory out of the cache: at 0.9 of an H100, total − ceil(0.9 × total) − 0.45 GiB start-up − the margin."""
    from kvcalc.units import format_gib
    c = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", gpu_memory_utilization=0.9)
    margin = c.budget.term("activation peak").bytes * 3 // 4
    withheld = c.budget.total_bytes - c.budget.requested_bytes - int(0.45 * GIB) - max(GIB, margin)
    line = next(x for x in c.estimated.log_lines if x.startswith("gpu_memory_utilization=0.9 caps"))
    assert f"caps this instance at {format_gib(c.budget.requested_bytes)} GiB, keeping " \
        f"{format_gib(withheld)} GiB of free device memory out" in line
    assert c.estimated.log_lines.index(line) == 1       # after the reservation, before the pool
    for quiet in ({}, {"gpu_memory_utilization": 0.99}, {"gpu_memory_utilization": 0.6}):
        lines = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", **quiet).estimated.log_lines
        assert not any("caps this instance" in x for x in lines)


def test_the_after_warmup_line_is_read_and_gives_the_blocks_where_no_extended_line_does():
    """measure_kv_cache_blocks' INFO line, in its own format; without the worker's "Extended" line (a paste that
    stops before it) its block count stands for the pool, and its transient is set beside kvcalc's activation."""
    from factories import compared, row_of
    from kvcalc.logparse import parse_log
    line = ("(Worker pid=7) INFO 12-01 10:00:09 [extensible_kv_cache.py:1] Memory after warmup: 61.2 GiB free, 0.0 GiB "
            "committed to the KV cache, 2.31 GiB kept for transient activations (2.31 GiB allocated at peak, 0.5 GiB "
            "of torch reservation growth); 6100 KV cache blocks (53.61 GiB) fit within the requested 79.11 GiB. "
            "Torch may reserve up to 7.1 GiB.")
    parsed = parse_log(line)
    assert (parsed.after_warmup_free_gib, parsed.transient_kept_gib, parsed.transient_peak_gib,
            parsed.committed_blocks) == (61.2, 2.31, 2.31, 6100)
    text = ("INFO 12-01 10:00:00 [arg_utils.py:1] non-default args: {'model': 'Qwen/Qwen3-8B'}\n"
            "INFO 12-01 10:00:05 [gpu_worker.py:1] Available KV cache memory: 60.79 GiB\n" + line + "\n")
    result = compared(text, "0.34.0")
    assert result["calculation"]["from_log"]["num_blocks"] == 6100
    assert row_of(result, "kept for transient activations")["logged"] == "2.31 GiB"


def test_the_start_up_memory_band_holds_every_stored_log_that_vllm_would_size_this_way():
    """Each stored log that printed 'Free memory on device (F/T GiB) on startup' shows the memory in use before
    vLLM's first snapshot, T − F: every one outside WSL2 (where the extensible cache falls back) lies in the band
    STARTUP_IN_USE_GIB gives its card and GPU count, and the typical value is within 0.15 GiB of the median."""
    import json
    import statistics
    from pathlib import Path
    from kvcalc.catalog import find_gpu
    from kvcalc.logparse import parse_log
    logs = json.loads((Path(__file__).parent.parent / "data" / "vllm_logs.json").read_text(encoding="utf-8"))["logs"]
    misses, errors = [], []
    for entry in logs:
        logged = entry.get("logged") or {}
        if logged.get("free_gib") is None or logged.get("total_gib") is None:
            continue
        if parse_log(entry.get("excerpt") or "").pinned_memory is False or "WSL" in (entry.get("notes") or ""):
            continue
        gpu = find_gpu(entry["gpu"])
        gpus = (entry.get("tensor_parallel_size") or 1) * (entry.get("pipeline_parallel_size") or 1)
        typical, low, high = (x / GIB for x in extensible.startup_in_use(gpus, gpu.unified_memory, gpu.total_bytes,
                                                                          gpu.platform))
        in_use = logged["total_gib"] - logged["free_gib"]
        errors.append(typical - in_use)
        if not low - 0.005 <= in_use <= high + 0.005:
            misses.append((entry["id"], round(in_use, 2)))
    assert len(errors) >= 90 and misses == []
    assert abs(statistics.median(errors)) < 0.15


def test_suffix_decoding_without_a_token_count_drafts_vllms_default():
    """Suffix decoding given no num_speculative_tokens drafts its tree depth, 24, before v0.34 and 8 from v0.34
    (spec_decode/suffix/config.py): the decode query that the CUDA graphs follow is 1 + that; the serve command
    leaves the count to vLLM as the user did."""
    from kvcalc import api
    def run(version, spec):
        r = api.handle({"op": "estimate", "model": "Qwen/Qwen3-8B", "gpu": "h100",
                        "settings": {"max_model_len": 8192, "vllm_version": version, "speculative": spec}})
        assert r["ok"], r
        return r["result"]
    v34 = run("0.34.0", {"method": "suffix"})
    v33 = run("0.33.0", {"method": "suffix"})
    given = run("0.34.0", {"method": "suffix", "num_speculative_tokens": 8})
    assert v34["estimated"]["tokens"] == given["estimated"]["tokens"]
    assert v34["budget"]["terms"] == given["budget"]["terms"]
    assert '--speculative-config \'{"method":"suffix"}\'' in v34["serve_command"]
    # the settings report what vLLM drafts
    assert (v33["settings"]["speculative"]["num_speculative_tokens"],
            v34["settings"]["speculative"]["num_speculative_tokens"]) == (24, 8)
    from kvcalc.settings import Speculative, speculative_tokens
    from kvcalc.versions import parse_version
    assert [speculative_tokens(Speculative("suffix", None), parse_version(v)) for v in ("0.33.0", "0.34.0")] == [24, 8]
    assert speculative_tokens(Speculative("ngram", None), parse_version("0.34.0")) == 1


def test_canary_is_refused_as_encoder_decoder():
    """NVIDIA Canary (v0.34's canary.py, model_type "canary") keeps cross-attention caches as Whisper does."""
    from factories import llama_like
    from kvcalc.errors import UnsupportedModelError
    with pytest.raises(UnsupportedModelError) as err:
        calc(llama_like(model_type="canary", architectures=["CanaryForConditionalGeneration"]), max_model_len=2048)
    assert "encoder-decoder" in str(err.value)


def test_the_mla_context_step_fills_the_chunked_context_workspace():
    """run_context_prefill_warmup: requests of min(max_model_len - query - 1, workspace) cached tokens, as
    many as fill the workspace (min(max(8 × max_model_len, 4 × max_num_seqs × block), 64k), rounded up to
    the block), at most max_num_seqs; the query is decode_query_len + 1 tokens."""
    from kvcalc.sizing_warmup import context_step_tokens, context_workspace_tokens
    assert context_step_tokens(163840, 64, 8192, 64, 1) == 65536           # one request of the whole workspace
    assert context_step_tokens(4096, 4, 8192, 64, 1) == 4 * 4093           # 32,768 rows, but only 4 requests
    assert context_step_tokens(4096, 256, 8192, 64, 1) == 65536            # 17 requests of 4,093 overfill it
    assert context_workspace_tokens(163840, 1024, 2100) == 67200           # a hybrid's block rounds it up
    assert context_step_tokens(2, 64, 8192, 64, 1) == 0                    # no room for a context


def test_the_mla_context_step_is_kept_free_where_it_outgrows_the_profile():
    """DeepSeek-V2-Lite (16 heads, qk_nope 128, qk_rope 64, v 128) on one GPU, 64 sequences: up-projecting
    65,536 cached tokens takes 65,536 × 16 × ((128 + 128) + (128 + 64)) × 2 B = 0.875 GiB (kv_b_proj's
    output and the keys rebuilt with the rope part), above the 64-row sampler's peak, so vLLM keeps the
    difference free and scales its margin by the step (measure_kv_cache_bytes)."""
    from kvcalc.sizing_warmup import mla_context_step_bytes
    from factories import config
    step = mla_context_step_bytes(config("deepseek-ai/DeepSeek-V2-Lite"), 1, 2, 65536)
    assert step == (939_524_096, 939_524_096, 939_524_096 + 65536 * 16 * 128 * 2)
    c = calc("deepseek-ai/DeepSeek-V2-Lite", vllm_version="0.34.0", max_num_seqs=64)
    b = c.budget
    term = {t.name: t.bytes for t in b.terms}
    peak = term["activation peak"] + term.get("first-start compile", 0)
    assert peak < step[0] and term["sizing warm-up"] == step[0] - peak
    assert term["extensible margin"] == max(GIB, int(0.75 * step[0]))
    assert b.available_bytes == (b.capacity_available[0] - term["CUDA graphs"] - term["start-up memory"]
                                 - term["extensible margin"] - term["sizing warm-up"])
    # without the extensible cache no sizing warm-up runs
    off = calc("deepseek-ai/DeepSeek-V2-Lite", vllm_version="0.34.0", max_num_seqs=64,
               enable_extensible_kv_cache=False)
    assert "sizing warm-up" not in {t.name for t in off.budget.terms}


@pytest.mark.parametrize("model", ["Qwen/Qwen3-8B", "deepseek-ai/DeepSeek-V3.2"])
def test_no_context_step_without_dense_mla(model):
    """Only dense MLA up-projects a cached context; sparse MLA attends to its top-k tokens in latent form."""
    c = calc(model, "h200" if "V3.2" in model else "h100", vllm_version="0.34.0", max_num_seqs=16,
             tensor_parallel_size=8 if "V3.2" in model else 1)
    assert "sizing warm-up" not in {t.name for t in c.budget.terms}


def test_the_extensible_cache_pays_for_what_the_capture_keeps_not_the_estimate():
    """The extensible cache measures the free memory after capture (measure_kv_cache_blocks), so the pool
    pays for what model runner V2's capture keeps (CUDA_GRAPH_MIB_CAPTURED_V2, from the 'Graph capturing
    finished … took' lines of public v0.29-v0.31 logs), not vLLM's estimate, which the profile no longer
    makes (profile_cudagraph_memory returns 0); with the cache off the estimate is subtracted as in v0.33.
    Qwen3-8B on an H100: 51 piecewise + 51 full graphs. On ROCm the capture keeps the estimate."""
    from kvcalc.reserve import CUDA_GRAPH_MIB_CAPTURED_V2, CUDA_GRAPH_MIB_PER_GRAPH
    on = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0")
    off = calc("Qwen/Qwen3-8B", max_model_len=8192, vllm_version="0.34.0", enable_extensible_kv_cache=False)
    assert on.budget.term("CUDA graphs").bytes == int(102 * CUDA_GRAPH_MIB_CAPTURED_V2[0] * MIB)
    assert off.budget.term("CUDA graphs").bytes == int(102 * CUDA_GRAPH_MIB_PER_GRAPH["v2"][0] * MIB)
    assert "what the capture keeps" in str(on.budget.term("CUDA graphs").basis)
    rocm_on = calc("Qwen/Qwen3-8B", "mi300x", max_model_len=8192, vllm_version="0.34.0")
    rocm_off = calc("Qwen/Qwen3-8B", "mi300x", max_model_len=8192, vllm_version="0.34.0",
                    enable_extensible_kv_cache=False)
    assert rocm_on.budget.term("CUDA graphs").bytes == rocm_off.budget.term("CUDA graphs").bytes
