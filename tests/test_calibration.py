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
    assert reserve.FIT_ROWS == {f["id"] for f in fitted} | reserve.SAMPLER_ROWS
    assert not reserve.FIT_ROWS & set(left_out)
    assert "vllm#58580" in reserve.FIT_ROWS                              # its video profile is sized
    # Gemma 4 E4B's audio tower adds weights but no profile pass (a video outweighs an audio clip)
    assert "rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1" in reserve.FIT_ROWS


def test_a_row_whose_tower_kvcalc_does_not_profile_stays_out(calibrate):
    """A breakdown row of a vision model kvcalc does not profile would teach the fixed part the
    tower's pass: the same log with a Qwen2.5-VL tower attached is left out."""
    from kvcalc.catalog import find_model

    row = copy.deepcopy(next(e for e in calibrate.usable_logs()
                             if e["id"] == "rtx4090-qwen2.5-7b-util0.85-maxlen2k-v0.24.0"))
    config = copy.deepcopy(find_model(row["model"]).config)
    config.update(model_type="qwen2_5_vl", architectures=["Qwen2_5_VLForConditionalGeneration"],
                  vision_config={"depth": 32, "hidden_size": 1280, "intermediate_size": 3420,
                                 "out_hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2})
    row["config"] = config
    fitted, left_out = calibrate.fitting_features([row])
    assert (fitted, left_out) == ([], [row["id"]])


def test_fixed_parts_are_the_fitted_values(calibrate, features):
    best = calibrate.fit(features[0])
    assert set(best["groups"]) == set(reserve.ERAS)
    for group, (_, base) in best["groups"].items():
        assert reserve.ERAS[group].fixed_gib == pytest.approx(base), group


def test_the_fit_weighs_a_too_small_reserve_three_times(calibrate):
    assert calibrate.loss(-0.1) == pytest.approx(3 * calibrate.loss(0.1))
