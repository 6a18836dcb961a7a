"""The reserve's fitted coefficients are what scripts/calibrate.py produces from the data, and
FIT_ROWS names exactly the rows it fits on: adding a log that measures the reserve, or changing
the model, without refitting fails here (run ``python scripts/calibrate.py``)."""

import copy
import importlib.util
from pathlib import Path

import pytest

from kvcalc import reserve

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "calibrate.py"


@pytest.fixture(scope="module")
def calibrate():
    spec = importlib.util.spec_from_file_location("calibrate", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def features(calibrate):
    return calibrate.fitting_features(calibrate.usable_logs())


def test_fit_rows_are_the_rows_the_script_fits_on(calibrate, features):
    fitted, left_out = features
    assert reserve.FIT_ROWS == {f["id"] for f in fitted} | reserve.SAMPLER_ROWS | reserve.UMA_ROWS | reserve.GRAPH_ROWS
    # the script reports the same set, so it flags no row as stale or new
    assert calibrate.fitted_ids(fitted) == reserve.FIT_ROWS
    # DeepSeek-V4's one CUDA-graph estimate sets its graph cost; its own activation model keeps it out of
    # the fixed parts
    assert not reserve.GRAPH_ROWS & ({f["id"] for f in fitted} | set(left_out))
    assert not (reserve.FIT_ROWS - reserve.UMA_ROWS) & set(left_out)
    # the DGX Spark rows set the unified-memory host term, not the fixed parts of discrete GPUs
    assert not any(f["unified_memory"] for f in fitted)
    assert "gb10-qwen3-0.6b-util0.6-v0.27.1" in left_out        # a breakdown row, kept out all the same
    assert "b300-gemma-4-31b-it-v1runner-maxlen16k-v0.26.0" in reserve.FIT_ROWS   # its video profile is sized
    # the brief's Gemma 4 MTP row (a model runner V2 start, by its breakdown) loaded an MTP assistant
    # whose weights kvcalc does not count: it checks the estimate but fits nothing
    assert "vllm#58580" not in {f["id"] for f in fitted} | set(left_out) | reserve.FIT_ROWS
    # Gemma 4 E4B's audio tower adds weights but no profile pass (a video outweighs an audio clip)
    assert "rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1" in reserve.FIT_ROWS
    # Gemma 4 E2B's catalog config now carries its towers (E4B's), so its tower runs join the fit
    assert "mi300x-vf-rocm-gemma-4-e2b-it-img4-audio0-v0.29.1rc1" in reserve.FIT_ROWS
    # a stand-in config whose weights miss the log's (estimate_skip_reason) takes part in no fit
    stand_in = "gb10-qwen3.6-27b-nvfp4-fp8kv-mnbt64k-4img-v0.23.1rc1"
    assert stand_in not in {e["id"] for e in calibrate.usable_logs()}
    assert stand_in not in {f["id"] for f in fitted} | set(left_out)


def test_a_miss_beyond_any_fixed_part_stays_out(calibrate):
    """The fixed part is searched from 0 to 2 GiB; a row whose reserve kvcalc misses by more than
    -2 or +4 GiB measures something else and would drag every row of its releases."""
    row = {"observed_gib": 0.0, "activation_gib": 1.0, "non_torch_gib": 0.13, "cuda_graph_gib": 0.3}
    for observed, beyond in ((1.43, False), (5.43, False), (5.44, True), (-0.56, False), (-0.58, True)):
        assert calibrate.beyond_any_fixed_part({**row, "observed_gib": observed}) is beyond, observed


def test_a_row_whose_tower_kvcalc_does_not_profile_stays_out(calibrate):
    """A breakdown row of a vision model kvcalc does not profile would teach the fixed part the
    tower's pass: the same log with a SigLIP tower (Gemma 3's) attached is left out."""
    from kvcalc.catalog import find_model

    row = copy.deepcopy(next(e for e in calibrate.usable_logs()
                             if e["id"] == "rtx4090-qwen2.5-7b-util0.85-maxlen2k-v0.24.0"))
    config = copy.deepcopy(find_model(row["model"]).config)
    config.update(architectures=["Qwen2_5_VLForConditionalGeneration"],
                  vision_config={"model_type": "siglip_vision_model", "hidden_size": 1152,
                                 "intermediate_size": 4304, "num_hidden_layers": 27, "patch_size": 14,
                                 "image_size": 896})
    row["config"] = config
    fitted, left_out = calibrate.fitting_features([row])
    assert (fitted, left_out) == ([], [row["id"]])


def test_fixed_parts_are_the_fitted_values(calibrate, features):
    best = calibrate.fit(features[0], calibrate.cold_warm_twins(calibrate.usable_logs()))
    assert set(best["groups"]) == set(reserve.ERAS)
    for group, (_, base) in best["groups"].items():
        assert reserve.ERAS[group].fixed_gib == pytest.approx(base), group
    assert (reserve.COLD_COMPILE_TABLE_COPIES, reserve.COLD_COMPILE_FIXED_GIB) == pytest.approx(best["cold"])


def test_the_fit_names_fixed_parts_whose_score_nearly_ties(calibrate, features):
    """The weighted median over a handful of sources can sit a few hundredths of a point from
    another candidate; the fit reports those candidates so a refit that jumps is not a surprise."""
    best = calibrate.fit(features[0], calibrate.cold_warm_twins(calibrate.usable_logs()))
    assert set(best["near_ties"]) == set(best["groups"])
    for group, ties in best["near_ties"].items():
        base = best["groups"][group][1]
        assert base not in ties and all(t in calibrate.FIXED_PART_CANDIDATES for t in ties), group
    rows = [{"id": str(i), "group": "g", "source": str(i), "kv_gib": 10.0, "observed_gib": o,
             "activation_gib": 0.0, "non_torch_gib": 0.0, "cuda_graph_gib": 0.0} for i, o in enumerate((0.1, 0.2))]
    fitted = calibrate.fit_groups(rows, (0.0, 0.0))
    assert fitted["groups"]["g"][1] == 0.2 and fitted["near_ties"]["g"] == []


def test_the_readme_names_the_near_ties_the_fit_finds(calibrate, features):
    best = calibrate.fit(features[0], calibrate.cold_warm_twins(calibrate.usable_logs()))
    ties = best["near_ties"]

    def listed(group: str) -> str:
        values = [f"{t:.2f}" for t in ties[group]]
        return " and ".join(values) if len(values) < 3 else ", ".join(values[:-1]) + " and " + values[-1]

    labels = {"from-0.29": "from v0.29", "v1-before-0.21": "for V1 before v0.21",
              "v1-from-0.21": "for V1 from v0.21", "mrv2-before-0.29": "for model runner V2 before v0.29"}
    named = [g for g in labels if ties[g]]
    items = [f"{listed(g)}{' GiB' if i == 0 else ''} {labels[g]}" for i, g in enumerate(named)]
    phrase = f"(today {', '.join(items) if items else 'none'})"
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    assert phrase in readme, phrase


def test_the_fit_weighs_a_too_small_reserve_three_times(calibrate):
    assert calibrate.loss(-0.1) == pytest.approx(3 * calibrate.loss(0.1))


def test_rows_of_one_source_share_one_vote(calibrate):
    """A sweep of one machine counts as one row in its group's median (calibrate.source_weights)."""
    assert calibrate.source_key("https://github.com/JNX03/kanitakorn-thai-llm/blob/d4bd60e8/logs/qwen3.log") \
        == "JNX03/kanitakorn-thai-llm"
    assert calibrate.source_key("https://github.com/vllm-project/vllm/issues/27604") == "vllm-project/vllm/issues/27604"
    assert calibrate.source_key("public GitHub file (index id 1)") == "public GitHub file (index id 1)"
    rows = [{"id": "a", "group": "g", "source": "s"}, {"id": "b", "group": "g", "source": "s"},
            {"id": "c", "group": "g", "source": "t"}]
    assert calibrate.source_weights(rows) == {"a": 0.5, "b": 0.5, "c": 1.0}
    # two rows of one source at 1.0 weigh as much as one row at 3.0
    assert calibrate.weighted_median([1.0, 1.0, 3.0], [0.5, 0.5, 1.0]) == 1.0
    assert calibrate.weighted_median([1.0, 3.0, 3.0], [1.0, 0.2, 0.2]) == 1.0


def test_a_row_whose_gpu_total_is_uncertain_checks_the_estimate_but_sets_nothing(calibrate, features):
    """Seven A40 starts whose log names no GPU (44.30-44.63 GiB by its hints, an L40S fits too), an
    L40S start inferred within 43.7-45.5 GiB and the brief's Gemma 4 MTP row (its weights are not
    logged and kvcalc's leave out the MTP assistant) carry ``fit_exclusion_reason``: their observed
    reserve is uncertain by more than the fit's step, so they are held out, not fitted on; so are
    nine v0.29 probes that force a --linear-backend kvcalc reads as leaving memory alone, three
    v0.10 starts with torch.compile disabled by an environment variable (the fixed part is a compiled
    run's), four MI300X starts of text-only QAT Gemma 4 checkpoints whose stand-in config splits the
    logged weights differently from the checkpoint, and an L4 start of Google's Gemma 4 E2B QAT
    checkpoint, whose towers' share kvcalc's split of the checkpoint size sets, not its own config."""
    fitted, left_out = features
    rows = {e["id"]: e for e in calibrate.usable_logs()}
    excluded = [i for i, e in rows.items() if e.get("fit_exclusion_reason")]
    assert len(excluded) == 45
    for i in excluded:
        assert not calibrate.is_fit_row(rows[i]) and i not in reserve.FIT_ROWS
        assert calibrate.is_fit_row({k: v for k, v in rows[i].items() if k != "fit_exclusion_reason"})


def test_the_compile_reserve_is_fitted_on_first_starts_and_their_restarts(calibrate):
    """The twins are first starts and restarts of one command from one source; their difference is
    the compile peak alone, and the fitted pair reproduces it within 0.3 GiB on most of them."""
    twins = calibrate.cold_warm_twins(calibrate.usable_logs())
    assert len({t["source"] for t in twins}) >= 6
    copies, fixed = calibrate.fit_compile(twins)
    assert (copies, fixed) == pytest.approx((reserve.COLD_COMPILE_TABLE_COPIES, reserve.COLD_COMPILE_FIXED_GIB))
    close = [t for t in twins if abs(max(0.0, copies * t["table_gib"] + fixed - t["activation_gib"])
                                     - t["observed_gib"]) <= 0.3]
    assert len(close) >= 0.6 * len(twins)
    # the copies that reproduce invented twins exactly are the ones chosen; the fixed GiB stays 0
    # (COLD_FIXED_CANDIDATES: the twins cannot tell a fixed part from a few more hundredths of a copy)
    made = [{"source": str(i), "table_gib": table, "activation_gib": 0.1, "observed_gib": 0.7 * table - 0.1}
            for i, table in enumerate((0.4, 0.8, 1.2, 1.6))]
    assert calibrate.fit_compile(made) == pytest.approx((0.7, 0.0))
    assert calibrate.COLD_FIXED_CANDIDATES == [0.0] and reserve.COLD_COMPILE_FIXED_GIB == 0.0


def test_each_group_leaves_few_rows_estimated_high(calibrate, features):
    """The fitted fixed part leaves at most HIGH_SHARE_LIMIT of its group's rows (one vote per
    source) with too small a reserve; without that bound the fit would centre on the rows."""
    fitted = features[0]
    weight = calibrate.source_weights(fitted)
    cold = (reserve.COLD_COMPILE_TABLE_COPIES, reserve.COLD_COMPILE_FIXED_GIB)
    assert 0 < calibrate.HIGH_SHARE_LIMIT < 0.5
    for group, era in reserve.ERAS.items():
        rows = [f for f in fitted if f["group"] == group]
        share = calibrate.estimated_high_share(rows, [weight[f["id"]] for f in rows], era.fixed_gib, cold)
        assert share <= calibrate.HIGH_SHARE_LIMIT, group


def test_a_group_no_fixed_part_can_bound_takes_the_largest(calibrate):
    """Rows short by more than any candidate cannot meet HIGH_SHARE_LIMIT; the fit then takes the
    largest candidate instead of failing."""
    rows = [{"id": str(i), "group": "g", "source": str(i), "observed_gib": 3.5, "kv_gib": 10.0,
             "activation_gib": 0.0, "non_torch_gib": 0.0, "cuda_graph_gib": 0.0} for i in range(3)]
    assert calibrate.fit_groups(rows, (1.0, 0.0))["groups"]["g"][1] == calibrate.FIXED_PART_CANDIDATES[-1]
