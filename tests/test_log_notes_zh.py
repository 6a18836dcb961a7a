"""Every public log's English ``notes`` has a Simplified-Chinese ``notes_zh`` beside it that keeps
every number of the English (the page shows it to Chinese readers)."""

import json
import re

import pytest

from kvcalc.catalog import DATA_DIR
from kvcalc.validate import load_logs

LOGS = load_logs()
WITH_NOTES = [e for e in LOGS if e.get("notes")]
CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:\.\d+)*")   # digit runs such as 0.9, 32768, 12.5, 0.10.1.1


def test_some_entries_have_notes():
    assert WITH_NOTES


@pytest.mark.parametrize("entry", WITH_NOTES, ids=lambda e: e["id"])
def test_notes_zh_is_chinese_and_keeps_every_number(entry):
    zh = entry.get("notes_zh")
    assert isinstance(zh, str) and zh.strip(), entry["id"]
    assert CJK.search(zh), entry["id"]
    missing = set(NUMBER.findall(entry["notes"])) - set(NUMBER.findall(zh))
    assert not missing, (entry["id"], sorted(missing))


def test_notes_zh_follows_notes_and_is_written_literally():
    raw = (DATA_DIR / "vllm_logs.json").read_text(encoding="utf-8")
    for e in json.loads(raw)["logs"]:
        keys = list(e)
        if "notes_zh" in keys:
            assert keys[keys.index("notes_zh") - 1] == "notes", e["id"]
    assert "\\u" not in raw     # ensure_ascii=False: Chinese appears as itself


@pytest.mark.parametrize("key", ["skip_reason", "estimate_skip_reason"])
def test_skip_reasons_have_chinese_twins_the_validation_table_shows(key):
    from kvcalc.validate import validate_logs
    from kvcalc.messages import translations
    entries = [e for e in LOGS if e.get(key)]
    assert entries, f"no entry has {key}; the test would check nothing"
    reply = validate_logs()
    zh = translations(reply)
    for e in entries:
        assert CJK.search(e[key + "_zh"]), e["id"]
        shown = [r.get("skipped") or r.get("estimated_skipped") for r in reply["rows"] if r["id"] == e["id"]]
        assert shown and shown[0] in zh and e[key + "_zh"] in zh[shown[0]], (e["id"], shown)
