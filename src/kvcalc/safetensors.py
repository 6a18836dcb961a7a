"""Checkpoint size from a ``.safetensors`` file's header, for the page's Range request.

A safetensors file starts with an 8-byte little-endian header length, then a JSON header whose
tensors carry ``data_offsets`` into the data that follows; the largest end offset is the bytes
of tensor data. Reading that needs only the first 8 + header-length bytes of the file.
"""

from __future__ import annotations

import json
from typing import Any

from . import textdepth

MAX_HEADER_BYTES = 100_000_000
"""safetensors itself refuses headers above 100 MB."""


def data_bytes_from_prefix(prefix: bytes) -> dict[str, Any]:
    """``{"bytes": n}`` for a prefix that holds the whole header; ``{"bytes": None, "need_range":
    "bytes=0-N"}`` when more of the file is needed; ``{"bytes": None}`` for anything else
    (not a safetensors file, a malformed header)."""
    # In the page the prefix arrives as a Pyodide JsProxy of a Uint8Array, which has to_bytes().
    b = prefix.to_bytes() if hasattr(prefix, "to_bytes") and not isinstance(prefix, (bytes, bytearray, int)) \
        else bytes(prefix)
    if len(b) < 8:
        return {"bytes": None, "need_range": "bytes=0-7"}
    n = int.from_bytes(b[:8], "little")
    if not 2 <= n <= MAX_HEADER_BYTES:
        return {"bytes": None}
    if len(b) < 8 + n:
        return {"bytes": None, "need_range": f"bytes=0-{8 + n - 1}"}
    try:
        header = textdepth.loads(b[8:8 + n])
    except (ValueError, UnicodeDecodeError):
        return {"bytes": None}
    if not isinstance(header, dict):
        return {"bytes": None}
    ends = []
    for name, tensor in header.items():
        if name == "__metadata__" or not isinstance(tensor, dict):
            continue
        offsets = tensor.get("data_offsets")
        if isinstance(offsets, list) and len(offsets) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in offsets):
            ends.append(offsets[1])
    return {"bytes": max(ends) if ends else None}


def data_bytes_json(prefix: bytes) -> str:
    """The same as JSON, for the page's worker."""
    return json.dumps(data_bytes_from_prefix(prefix))
