"""--limit-mm-per-prompt: how vLLM reads it (vllm/config/multimodal.py), what it leaves to warm up
(vllm/multimodal/encoder_budget.py) and which towers it leaves unbuilt (interfaces.py
``_mark_tower_model``), through the core, the serve command and the CLI."""

from __future__ import annotations

import json

import pytest

from factories import calc, config
from kvcalc.cli import main
from kvcalc.errors import SettingsError
from kvcalc.settings import MmLimits, mm_limits_of, mm_processor_of
from kvcalc.units import GIB

QWEN25_VL_7B = "Qwen/Qwen2.5-VL-7B-Instruct"


@pytest.mark.parametrize("value,counts,options", [
    ({"image": 2, "video": 0}, {"image": 2, "video": 0}, False),
    ('{"video": 0}', {"video": 0}, False),
    ("image=2, video=0", {"image": 2, "video": 0}, False),
    ({"video": {"count": 1, "num_frames": 16}}, {"video": 1}, False),    # num_frames is modelled
    ({"video": {"count": 1, "width": 640}}, {"video": 1}, True),
    ({"audio": {"count": 0}}, {"audio": 0}, False),
])
def test_the_flag_is_read_as_vllm_reads_it(value, counts, options):
    limits = mm_limits_of(value)
    assert limits is not None and limits.as_dict() == counts and limits.dummy_options is options


@pytest.mark.parametrize("value", [
    "", "video", "video=-1", "video=a", "{not json}", {"vision": 1}, {"image": -1}, {"image": 1.5},
    {"image": True}, {"video": {"num_frames": 8}}, {"video": {"count": 1, "fps": 2}}, [1, 2], 3, {},
    "image=1," * 400,
])
def test_anything_else_is_refused_with_the_accepted_forms(value):
    with pytest.raises(SettingsError) as err:
        calc(QWEN25_VL_7B, max_model_len=8192, limit_mm_per_prompt=value)
    text = str(err.value.problems["--limit-mm-per-prompt"])
    assert "image=2,video=0" in text and "image, video, audio" in text


def activation(c) -> tuple[float, str]:
    term = next(t for t in c.budget.terms if t.name == "activation peak")
    return term.bytes / GIB, str(term.basis)


def test_video_off_brings_qwen25_vl_back_to_one_image():
    """At 32,768 tokens of context Qwen2.5-VL-7B warms up a 4-frame video (32,768 tokens, 4.35
    GiB); with videos limited to 0 one 16,384-token image (2.18 GiB), as the public olmOCR v0.11
    log ('profiled with 1 image items') shows."""
    video = calc(QWEN25_VL_7B, "rtx-4090", max_model_len=32768)
    image = calc(QWEN25_VL_7B, "rtx-4090", max_model_len=32768, limit_mm_per_prompt={"video": 0})
    assert "1 video(s) of 32,768 tokens" in activation(video)[1]
    assert "1 image(s) of 16,384 tokens" in activation(image)[1]
    assert activation(video)[0] == pytest.approx(2 * activation(image)[0], rel=0.01)
    assert image.estimated.tokens > video.estimated.tokens
    assert image.serve_command.endswith("""--max-model-len 32768 --limit-mm-per-prompt '{"video":0}'""")


def test_images_off_leaves_the_video_and_both_off_leave_no_tower():
    """Qwen3.5 with images off warms up its largest video (12,288 embeddings, two full-size frames);
    with both off there is no warm-up, and from v0.15 (#32605) the tower is not even built."""
    on = calc("Qwen/Qwen3.5-27B", max_model_len=32768)
    no_image = calc("Qwen/Qwen3.5-27B", max_model_len=32768, limit_mm_per_prompt={"image": 0})
    assert "1 video(s) of 12,288 tokens" in activation(no_image)[1]
    assert activation(no_image)[0] < activation(on)[0]
    none = calc("Qwen/Qwen3.5-27B", max_model_len=32768, limit_mm_per_prompt="image=0,video=0")
    assert "vision tower" not in activation(none)[1]
    lmo = calc("Qwen/Qwen3.5-27B", max_model_len=32768, language_model_only=True)
    assert none.budget.weights.bytes == lmo.budget.weights.bytes < on.budget.weights.bytes
    old = calc("Qwen/Qwen3.5-27B", max_model_len=32768, limit_mm_per_prompt="image=0,video=0",
               vllm_version="0.14.0")
    # v0.14 builds the tower anyway (its M-RoPE cache also covers 4 × the positions there, as before v0.32)
    on_old = calc("Qwen/Qwen3.5-27B", max_model_len=32768, vllm_version="0.14.0")
    assert old.budget.weights.bytes == on_old.budget.weights.bytes
    assert "vision tower" not in activation(old)[1]


def test_a_per_prompt_limit_caps_the_items_warmed_up():
    """65,536 batched tokens hold four 16,384-token images; one sequence slot with at most two
    images per prompt encodes two (_get_max_items: min(budget items, slots × per prompt))."""
    four = calc("Qwen/Qwen3.5-27B", max_model_len=131072, max_num_batched_tokens=65536, max_num_seqs=1)
    two = calc("Qwen/Qwen3.5-27B", max_model_len=131072, max_num_batched_tokens=65536, max_num_seqs=1,
               limit_mm_per_prompt={"image": 2})
    assert "4 image(s)" in activation(four)[1] and "2 image(s)" in activation(two)[1]


def test_gemma4_without_videos_warms_up_images_or_audio():
    """Gemma 4 warms up videos; with videos off, images of 280 soft tokens (2,520 patches: 29 of
    them in an 8,192-token budget, as a public v0.29 log quoted in a course write-up prints),
    unless an audio tower's clips (750 tokens) are larger, a pass kvcalc does not size: the
    estimate says so instead of passing a number off as modelled."""
    def run(model="google/gemma-4-26B-A4B-it", **kw):
        return calc(model, max_model_len=8192, max_num_batched_tokens=8192, **kw)

    def notes(c):
        return {getattr(n, "key", None) for n in c.notes}
    videos, images = run(), run(limit_mm_per_prompt={"video": 0})
    assert "3 video(s) of 2,496 tokens" in activation(videos)[1]
    assert "29 image(s) of 280 tokens" in activation(images)[1]
    assert "note.mm_profile_unmodelled" not in notes(videos) | notes(images)
    assert "note.mm_profile_unmodelled" not in notes(run(limit_mm_per_prompt={"image": 0, "video": 0}))
    with_audio = {**config("google/gemma-4-26B-A4B-it"),
                  "audio_config": {"model_type": "gemma4_audio", "hidden_size": 1024, "num_hidden_layers": 12}}
    assert "note.mm_profile_unmodelled" in notes(run(with_audio, limit_mm_per_prompt={"video": 0}))
    assert "note.mm_profile_unmodelled" not in notes(run(with_audio, limit_mm_per_prompt={"video": 0, "audio": 0}))
    assert "note.mm_dummy_options" in notes(run(limit_mm_per_prompt={"video": {"count": 1, "width": 320}}))
    assert "note.mm_dummy_options" not in notes(run(limit_mm_per_prompt={"video": {"count": 1, "num_frames": 8}}))


def test_the_serve_command_keeps_the_dummy_options_as_given():
    c = calc(QWEN25_VL_7B, max_model_len=32768, limit_mm_per_prompt={"video": {"count": 1, "num_frames": 16}})
    assert c.serve_command.endswith("""--limit-mm-per-prompt '{"video":{"count":1,"num_frames":16}}'""")
    assert c.resolved.mm_limits == MmLimits((("video", 1),), False, '{"video":{"count":1,"num_frames":16}}', 16)


def test_the_cli_takes_the_flag_and_reports_it(capsys):
    code = main(["estimate", "--model", QWEN25_VL_7B, "--gpu", "rtx-4090", "--max-model-len", "32768",
                 "--limit-mm-per-prompt", "video=0", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["settings"]["limit_mm_per_prompt"] == {"video": 0}
    code = main(["estimate", "--model", QWEN25_VL_7B, "--limit-mm-per-prompt", "video"])
    err = capsys.readouterr().err
    assert code != 0 and "--limit-mm-per-prompt" in err and "Traceback" not in err


# --mm-processor-kwargs: the processor options that size the largest image

@pytest.mark.parametrize("value,pixels,soft,unmodelled", [
    ({"max_pixels": 1003520}, 1003520, None, ()),
    ('{"size": {"longest_edge": 1003520}}', 1003520, None, ()),
    ({"max_pixels": 1003520, "fps": 2, "min_pixels": 3136}, 1003520, None, ("fps", "min_pixels")),
    ({"max_soft_tokens": 560}, None, 560, ()),
    ({"max_soft_tokens": 300}, None, None, ("max_soft_tokens",)),    # vLLM's warm-up ignores it
])
def test_processor_options_are_read_as_vllm_reads_them(value, pixels, soft, unmodelled):
    p = mm_processor_of(value)
    assert p is not None and (p.max_pixels, p.max_soft_tokens, p.unmodelled) == (pixels, soft, unmodelled)


@pytest.mark.parametrize("value", ["oops", "[1]", {}, {"max_pixels": -1}, {"max_pixels": "big"},
                                   {"max_pixels": 1.5}, {"max_soft_tokens": "x"}, "{" + "1" * 3000,
                                   {"max_pixels": 1003520, "fps": {"a": float("-inf")}},
                                   '{"max_pixels": 1003520, "fps": NaN}'])
def test_bad_processor_options_get_the_expected_form(value):
    with pytest.raises(SettingsError) as err:
        calc(QWEN25_VL_7B, max_model_len=8192, mm_processor_kwargs=value)
    assert "max_pixels" in str(err.value.problems["--mm-processor-kwargs"])


def test_a_non_finite_processor_option_gets_a_message_and_the_reply_stays_strict_json():
    """An option holding -inf (found by scripts/fuzz.py) was echoed back and broke the reply's JSON."""
    from kvcalc import api
    reply = api.handle_json(json.dumps({"op": "estimate", "model": QWEN25_VL_7B, "gpu": "h100",
                                        "settings": {"mm_processor_kwargs": {"fps": {"x": float("-inf")}}}}))
    out = json.loads(reply, parse_constant=lambda c: pytest.fail(f"non-strict JSON constant {c}"))
    assert out["ok"] is False and "--mm-processor-kwargs" in out["error"]["fields"]


def test_max_pixels_shrinks_the_qwen25_vl_image_and_its_video_frames():
    """max_pixels 1,003,520 = 1,280 × 28²: one image is 1,280 tokens (v0.13+: the patch count's
    factor pair), 35² = 1,225 before (a square under max_pixels); at 32,768 tokens of context the
    video keeps 14 frames of that size: 7 × 1,280 = 8,960 tokens, a quarter of the default pass."""
    from kvcalc.reserve import largest_tower_item
    from kvcalc.settings import MmProcessor
    from kvcalc.versions import parse_version
    small = MmProcessor(max_pixels=1003520)
    cfg = config(QWEN25_VL_7B)
    assert largest_tower_item(cfg, parse_version("0.23.0"), 32768, None, small).budget_tokens == 8960
    assert largest_tower_item(cfg, parse_version("0.11.0"), 32768, None, small).budget_tokens == 7 * 1225
    limits = mm_limits_of({"video": 0})
    assert largest_tower_item(cfg, parse_version("0.23.0"), 32768, limits, small).budget_tokens == 1280
    full = calc(QWEN25_VL_7B, "rtx-4090", max_model_len=32768)
    cut = calc(QWEN25_VL_7B, "rtx-4090", max_model_len=32768, mm_processor_kwargs={"max_pixels": 1003520})
    assert "1 video(s) of 8,960 tokens" in activation(cut)[1]
    assert activation(cut)[0] < activation(full)[0] / 3
    assert cut.serve_command.endswith("""--mm-processor-kwargs '{"max_pixels":1003520}'""")


def test_a_smaller_qwen3_image_leaves_the_video_as_the_largest_item():
    """Qwen3-VL's video is sized by its video processor (12,288 embeddings), so an image cut to
    1,024 tokens by max_pixels makes the warm-up encode the video instead."""
    c = calc("Qwen/Qwen3.5-27B", max_model_len=32768, mm_processor_kwargs={"max_pixels": 1024 * 32 * 32})
    assert "1 video(s) of 12,288 tokens" in activation(c)[1]


def test_gemma4_max_soft_tokens_sizes_its_images():
    c = calc("google/gemma-4-26B-A4B-it", max_model_len=8192, max_num_batched_tokens=8192,
             limit_mm_per_prompt={"video": 0}, mm_processor_kwargs={"max_soft_tokens": 560})
    assert "14 image(s) of 560 tokens" in activation(c)[1]


def test_the_checkpoints_own_processor_limit_sizes_the_image():
    """A fine-tune whose preprocessor_config.json lowers max_pixels (the page and the CLI attach the
    file as ``preprocessor_config``) warms up smaller images; --mm-processor-kwargs still wins; the
    Qwen checkpoints' own limit (12,845,056 pixels) gives the usual 16,384 tokens; a malformed file
    is ignored."""
    from kvcalc.reserve import largest_tower_item
    from kvcalc.versions import parse_version
    v23 = parse_version("0.23.0")
    base = config(QWEN25_VL_7B)
    tuned = {**base, "preprocessor_config": {"max_pixels": 11113200, "min_pixels": 3136}}
    off = mm_limits_of({"video": 0})
    assert largest_tower_item(tuned, v23, 8192, off).budget_tokens == 14175
    assert largest_tower_item({**base, "preprocessor_config": {"max_pixels": 12845056}}, v23, 8192, off) \
        .budget_tokens == 16384
    assert largest_tower_item({**base, "preprocessor_config": {"max_pixels": "x"}}, v23, 8192, off) \
        .budget_tokens == 16384
    from kvcalc.settings import MmProcessor
    assert largest_tower_item(tuned, v23, 8192, off, MmProcessor(max_pixels=1003520)).budget_tokens == 1280
    c = calc(tuned, max_model_len=8192, limit_mm_per_prompt={"video": 0})
    assert "1 image(s) of 14,175 tokens" in activation(c)[1]
    assert "--mm-processor-kwargs" not in c.serve_command      # the checkpoint's default, not a flag


def test_levers_offer_videos_off_and_text_only_for_a_video_warm_up():
    """Qwen2.5-VL-7B on an A100 at 128,000 tokens warms up a 15 GiB video: 'videos off' and 'text
    only' are offered with the flag to use and rank by what they free; a text model gets neither,
    and text only needs v0.16."""
    from kvcalc.catalog import find_gpu
    from kvcalc.plan import levers
    from kvcalc.settings import Settings
    out = levers(config(QWEN25_VL_7B), find_gpu("a100-80g-sxm"), Settings())
    by_key = {lv["key"]: lv for lv in out["levers"]}
    assert by_key["mm_video_off"]["flag"] == """--limit-mm-per-prompt '{"video":0}'"""
    assert by_key["language_model_only"]["flag"] == "--language-model-only"
    assert by_key["language_model_only"]["gain"] > by_key["mm_video_off"]["gain"] > 1.2
    kept = levers(config(QWEN25_VL_7B), find_gpu("a100-80g-sxm"), Settings(limit_mm_per_prompt={"image": 2}))
    assert {lv["key"]: lv for lv in kept["levers"]}["mm_video_off"]["flag"].endswith("""'{"image":2,"video":0}'""")
    old = levers(config(QWEN25_VL_7B), find_gpu("a100-80g-sxm"), Settings(vllm_version="0.15.0"))
    assert "language_model_only" not in {lv["key"] for lv in old["levers"]}
    text = levers(config("Qwen/Qwen3-8B"), find_gpu("a100-80g-sxm"), Settings(max_model_len=8192))
    assert not {"mm_video_off", "language_model_only"} & {lv["key"] for lv in text["levers"]}


def test_the_video_num_frames_option_caps_the_dummy_video():
    """vLLM encodes a dummy video of at most num_frames frames (dummy_inputs.py
    ``_get_dummy_videos``): Qwen2.5-VL-7B at 32,768 tokens of context keeps its 32,768-token budget
    but encodes 2 frames (16,384 tokens, half the pass); Gemma 4 counts the cap in its budget too
    (8 frames × 78 = 624 tokens, so 13 videos fit 8,192). Qwen3-VL's dummy video spreads one pixel
    budget over its frames, so there the option gets the note instead."""
    from kvcalc.reserve import largest_tower_item
    from kvcalc.versions import parse_version
    v23 = parse_version("0.23.0")
    two = mm_limits_of({"video": {"count": 1, "num_frames": 2}})
    item = largest_tower_item(config(QWEN25_VL_7B), v23, 32768, two)
    assert (item.budget_tokens, item.embeddings, item.patches) == (32768, 16384, 65536)
    full = calc(QWEN25_VL_7B, "rtx-4090", max_model_len=32768)
    capped = calc(QWEN25_VL_7B, "rtx-4090", max_model_len=32768, limit_mm_per_prompt=two.spelled)
    assert activation(capped)[0] == pytest.approx(activation(full)[0] / 2, rel=0.01)
    gemma = largest_tower_item(config("google/gemma-4-26B-A4B-it"), v23, 8192,
                               mm_limits_of({"video": {"count": 1, "num_frames": 8}}))
    assert (gemma.budget_tokens, gemma.patches) == (8 * 78, 8 * 630)
    c = calc("google/gemma-4-26B-A4B-it", max_model_len=8192, max_num_batched_tokens=8192,
             limit_mm_per_prompt={"video": {"count": 1, "num_frames": 8}})
    assert "13 video(s) of 624 tokens" in activation(c)[1]
    q3 = calc("Qwen/Qwen3.5-27B", max_model_len=32768, limit_mm_per_prompt={"video": {"count": 1, "num_frames": 8}})
    assert "note.mm_dummy_options" in {getattr(n, "key", None) for n in q3.notes}
