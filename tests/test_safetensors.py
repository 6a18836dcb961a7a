import json

from kvcalc.safetensors import data_bytes_from_prefix


def _file(header: dict) -> bytes:
    raw = json.dumps(header).encode()
    return len(raw).to_bytes(8, "little") + raw


def test_largest_end_offset_is_the_data_size():
    blob = _file({"__metadata__": {"format": "pt"}, "a": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 12]},
                  "b": {"dtype": "F32", "shape": [4], "data_offsets": [12, 28]}})
    assert data_bytes_from_prefix(blob) == {"bytes": 28}


def test_short_prefix_asks_for_the_header_range():
    blob = _file({"a": {"data_offsets": [0, 10]}})
    assert data_bytes_from_prefix(blob[:20]) == {"bytes": None, "need_range": f"bytes=0-{len(blob) - 1}"}
    assert data_bytes_from_prefix(b"\x01") == {"bytes": None, "need_range": "bytes=0-7"}


def test_garbage_is_not_a_size():
    assert data_bytes_from_prefix(b"\xff" * 64) == {"bytes": None}
    assert data_bytes_from_prefix((5).to_bytes(8, "little") + b"[1,2]") == {"bytes": None}
    assert data_bytes_from_prefix(_file({"a": {"data_offsets": ["x", -1]}})) == {"bytes": None}
