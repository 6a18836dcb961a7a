"""The reserve's fitted coefficients are what scripts/calibrate.py produces from the data, and
FIT_ROWS names exactly the rows it fits on: adding a log that measures the reserve, or changing
the model, without refitting fails here (run ``python scripts/calibrate.py``)."""

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
    assert "rtx3090ti-gemma-4-e4b-it-maxlen32k-v0.22.1" in left_out    # Gemma 4 E4B: audio tower
    assert "vllm#58580" in reserve.FIT_ROWS                              # its video profile is sized


def test_fixed_parts_are_the_fitted_values(calibrate, features):
    best = calibrate.fit(features[0])
    assert set(best["groups"]) == set(reserve.ERAS)
    for group, (_, base) in best["groups"].items():
        assert reserve.ERAS[group].fixed_gib == pytest.approx(base), group


def test_the_fit_weighs_a_too_small_reserve_three_times(calibrate):
    assert calibrate.loss(-0.1) == pytest.approx(3 * calibrate.loss(0.1))
