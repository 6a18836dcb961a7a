import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_hugging_face(monkeypatch):
    """No test reaches huggingface.co: without huggingface_hub the CLI fetches over plain HTTPS
    (kvcalc.hub), so every test's HF_ENDPOINT is a closed local port (the discard port, refused at
    once) unless the test serves its own stand-in (tests/test_hub_http.py)."""
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.delenv("HF_TOKEN", raising=False)
